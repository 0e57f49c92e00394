package dev.boxwood.serial;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytes;
import net.openhft.chronicle.bytes.MappedFile;

/**
 * Writes static world files (format in {@link WorldLayout} and {@code docs/format.md}).
 *
 * <p>Crash safety: the file is written through a Chronicle Bytes mapping to a temporary file in the target's
 * directory, truncated to its exact length, forced to disk, then atomically renamed over the target
 * ({@link StandardCopyOption#ATOMIC_MOVE}) and the directory is forced. A crash at any point leaves either the
 * previous file or the complete new one under the target name; a crash before the rename may leave a temporary
 * file named {@code .<target name>.tmp-*} beside it, which is safe to delete.
 *
 * <p>Checksums (CRC32C) are computed while the sections are streamed out in 1 MiB chunks; no section is ever
 * held in memory as a whole.
 */
public final class StaticWorldWriter {

    private static final int CHUNK = 1 << 20;

    private StaticWorldWriter() {
    }

    /**
     * Builds a tree over absolute double boxes with the default {@link BinnedSahBuilder} and writes the world.
     *
     * @param file         the target file (its directory must exist); replaced atomically if present
     * @param boxes        stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}), finite, min &lt;= max
     * @param categoryBits per object, or {@code null} for {@code -1L} (every category) for all
     * @param userValues   per object, or {@code null} for the object index
     * @param payload      opaque bytes stored with the world, or {@code null} for none
     * @return the tree that was written (its boxes are the stored ones)
     * @throws IOException              if writing fails
     * @throws IllegalArgumentException on invalid boxes or array lengths that do not match the box count
     */
    public static FlatBvh write(Path file, double[] boxes, long[] categoryBits, long[] userValues, byte[] payload)
            throws IOException {
        FlatBvh tree = BinnedSahBuilder.defaults().build(boxes);
        float[] stored = BinnedSahBuilder.toFloatBoxes(boxes, tree.originX(), tree.originY(), tree.originZ());
        write(file, tree, stored, categoryBits, userValues, payload);
        return tree;
    }

    /**
     * Writes a world from a tree built by {@link BinnedSahBuilder} over {@code objectBoxes}.
     *
     * @param file         the target file (its directory must exist); replaced atomically if present
     * @param tree         the tree
     * @param objectBoxes  the float boxes the tree was built from, relative to the tree's origin, stride 6
     * @param categoryBits per object, or {@code null} for {@code -1L} (every category) for all
     * @param userValues   per object, or {@code null} for the object index
     * @param payload      opaque bytes stored with the world, or {@code null} for none
     * @throws IOException              if writing fails
     * @throws IllegalArgumentException if an array length does not match the tree's object count or a leaf box
     *                                  of the tree differs from its object box
     */
    public static void write(Path file, FlatBvh tree, float[] objectBoxes, long[] categoryBits, long[] userValues,
                             byte[] payload) throws IOException {
        if (file == null) {
            throw new IllegalArgumentException("file must not be null");
        }
        if (tree == null) {
            throw new IllegalArgumentException("tree must not be null");
        }
        int n = tree.objectCount();
        if (objectBoxes == null || objectBoxes.length != 6L * n) {
            throw new IllegalArgumentException("objectBoxes must hold 6 * " + n + " floats");
        }
        if (categoryBits != null && categoryBits.length != n) {
            throw new IllegalArgumentException("categoryBits must hold " + n + " values, has " + categoryBits.length);
        }
        if (userValues != null && userValues.length != n) {
            throw new IllegalArgumentException("userValues must hold " + n + " values, has " + userValues.length);
        }
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        Path temp = dir.resolve("." + target.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-"
                + System.nanoTime());
        try {
            writeTemp(temp, tree, objectBoxes, categoryBits, userValues, payload);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        forceDirectory(dir);
    }

    private static void writeTemp(Path temp, FlatBvh tree, float[] objectBoxes, long[] categoryBits,
                                  long[] userValues, byte[] payload) throws IOException {
        int n = tree.objectCount();
        int nodeCount = tree.nodeCount();
        int[] summaries = new int[nodeCount];
        categorySummaries(tree, categoryBits, summaries);
        int height = tree.height();

        long[] offsets = new long[WorldLayout.SECTION_COUNT];
        long[] lengths = new long[WorldLayout.SECTION_COUNT];
        lengths[WorldLayout.SECTION_NODES] = (long) WorldLayout.NODE_SIZE * nodeCount;
        lengths[WorldLayout.SECTION_OBJECTS] = (long) WorldLayout.OBJECT_SIZE * n;
        lengths[WorldLayout.SECTION_USER_VALUES] = (long) WorldLayout.USER_VALUE_SIZE * n;
        lengths[WorldLayout.SECTION_PAYLOAD] = payload == null ? 0 : payload.length;
        long end = WorldLayout.HEADER_SIZE;
        for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
            offsets[s] = WorldLayout.alignUp(end);
            end = offsets[s] + lengths[s];
        }
        int[] crcs = new int[WorldLayout.SECTION_COUNT];

        MappedFile mappedFile;
        BytesStore<?, ?> mappedStore;
        try (MappedBytes out = MappedBytes.singleMappedBytes(temp.toFile(), Math.max(end, 1))) {
            mappedFile = out.mappedFile();
            mappedStore = out.bytesStore();
            SectionSink sink = new SectionSink(out);
            sink.begin(offsets[WorldLayout.SECTION_NODES]);
            float[] bounds = tree.childBounds();
            int[] refs = tree.childRefs();
            for (int k = 0; k < nodeCount; k++) {
                ByteBuffer b = sink.room(WorldLayout.NODE_SIZE);
                for (int i = 0; i < 12; i++) {
                    b.putFloat(bounds[12 * k + i]);
                }
                for (int c = 0; c < 2; c++) {
                    int ref = refs[2 * k + c];
                    if (ref < 0) {
                        checkLeafBox(bounds, 12 * k + 6 * c, objectBoxes, ~ref);
                    }
                    b.putInt(ref);
                }
                for (int c = 0; c < 2; c++) {
                    int ref = refs[2 * k + c];
                    b.putInt(ref < 0 ? WorldLayout.foldCategories(category(categoryBits, ~ref)) : summaries[ref]);
                }
            }
            crcs[WorldLayout.SECTION_NODES] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_OBJECTS]);
            for (int i = 0; i < n; i++) {
                ByteBuffer b = sink.room(WorldLayout.OBJECT_SIZE);
                for (int a = 0; a < 6; a++) {
                    b.putFloat(objectBoxes[6 * i + a]);
                }
                b.putLong(category(categoryBits, i));
            }
            crcs[WorldLayout.SECTION_OBJECTS] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_USER_VALUES]);
            for (int i = 0; i < n; i++) {
                sink.room(WorldLayout.USER_VALUE_SIZE).putLong(userValues == null ? i : userValues[i]);
            }
            crcs[WorldLayout.SECTION_USER_VALUES] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_PAYLOAD]);
            if (payload != null) {
                sink.writeBytes(payload);
            }
            crcs[WorldLayout.SECTION_PAYLOAD] = sink.end();

            byte[] header = header(tree, height, payload != null, offsets, lengths, crcs);
            out.write(0L, header, 0, header.length);
        }
        Unmapping.release(mappedStore, mappedFile);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            // the mapping grows the file to whole pages; the format's length is exact
            channel.truncate(end);
            channel.force(true);
        }
    }

    private static byte[] header(FlatBvh tree, int height, boolean hasPayload, long[] offsets, long[] lengths,
                                 int[] crcs) {
        ByteBuffer h = ByteBuffer.allocate(WorldLayout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        h.putLong(WorldLayout.MAGIC_OFFSET, WorldLayout.MAGIC);
        h.putInt(WorldLayout.VERSION_OFFSET, WorldLayout.FORMAT_VERSION);
        h.putInt(WorldLayout.BYTE_ORDER_OFFSET, WorldLayout.BYTE_ORDER_MARK);
        h.putInt(WorldLayout.HEADER_SIZE_OFFSET, WorldLayout.HEADER_SIZE);
        h.putInt(WorldLayout.FLAGS_OFFSET, hasPayload ? WorldLayout.FLAG_PAYLOAD : 0);
        h.putLong(WorldLayout.OBJECT_COUNT_OFFSET, tree.objectCount());
        h.putLong(WorldLayout.NODE_COUNT_OFFSET, tree.nodeCount());
        h.putInt(WorldLayout.ROOT_REF_OFFSET, tree.rootRef());
        h.putInt(WorldLayout.HEIGHT_OFFSET, height);
        h.putDouble(WorldLayout.ORIGIN_OFFSET, tree.originX());
        h.putDouble(WorldLayout.ORIGIN_OFFSET + 8, tree.originY());
        h.putDouble(WorldLayout.ORIGIN_OFFSET + 16, tree.originZ());
        for (int a = 0; a < 6; a++) {
            h.putFloat(WorldLayout.ROOT_BOUNDS_OFFSET + 4 * a, tree.rootBounds()[a]);
        }
        for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
            int e = WorldLayout.sectionEntryOffset(s);
            h.putLong(e + WorldLayout.ENTRY_OFFSET, offsets[s]);
            h.putLong(e + WorldLayout.ENTRY_LENGTH, lengths[s]);
            h.putInt(e + WorldLayout.ENTRY_CRC, crcs[s]);
            h.putInt(e + WorldLayout.ENTRY_RECORD_SIZE, WorldLayout.RECORD_SIZES[s]);
        }
        CRC32C crc = new CRC32C();
        crc.update(h.array(), 0, WorldLayout.HEADER_CRC_OFFSET);
        h.putInt(WorldLayout.HEADER_CRC_OFFSET, (int) crc.getValue());
        return h.array();
    }

    /** Category summaries of every internal node, bottom-up (children follow their parents). */
    private static void categorySummaries(FlatBvh tree, long[] categoryBits, int[] summaries) {
        int[] refs = tree.childRefs();
        for (int k = tree.nodeCount() - 1; k >= 0; k--) {
            int summary = 0;
            for (int c = 0; c < 2; c++) {
                int ref = refs[2 * k + c];
                summary |= ref < 0 ? WorldLayout.foldCategories(category(categoryBits, ~ref)) : summaries[ref];
            }
            summaries[k] = summary;
        }
    }

    private static long category(long[] categoryBits, int object) {
        return categoryBits == null ? -1L : categoryBits[object];
    }

    private static void checkLeafBox(float[] bounds, int offset, float[] objectBoxes, int object) {
        for (int a = 0; a < 6; a++) {
            if (Float.floatToRawIntBits(bounds[offset + a]) != Float.floatToRawIntBits(objectBoxes[6 * object + a])) {
                throw new IllegalArgumentException("tree leaf box of object " + object
                        + " differs from objectBoxes: the tree was not built from these boxes");
            }
        }
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some platforms cannot open directories; the rename itself is still atomic there
        }
    }

    /** Streams one section into the mapping in chunks, updating its CRC32C. */
    private static final class SectionSink {
        private final MappedBytes out;
        private final ByteBuffer buffer = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        private final CRC32C crc = new CRC32C();
        private long position;

        SectionSink(MappedBytes out) {
            this.out = out;
        }

        void begin(long offset) {
            position = offset;
            crc.reset();
            buffer.clear();
        }

        ByteBuffer room(int bytes) {
            if (buffer.remaining() < bytes) {
                flush();
            }
            return buffer;
        }

        void writeBytes(byte[] bytes) {
            flush();
            for (int off = 0; off < bytes.length; off += CHUNK) {
                int len = Math.min(CHUNK, bytes.length - off);
                crc.update(bytes, off, len);
                out.write(position, bytes, off, len);
                position += len;
            }
        }

        int end() {
            flush();
            return (int) crc.getValue();
        }

        private void flush() {
            int len = buffer.position();
            if (len > 0) {
                crc.update(buffer.array(), 0, len);
                out.write(position, buffer.array(), 0, len);
                position += len;
                buffer.clear();
            }
        }
    }
}
