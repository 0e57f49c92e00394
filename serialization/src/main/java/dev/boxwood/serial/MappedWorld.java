package dev.boxwood.serial;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import dev.boxwood.geom.FrustumAabb;
import dev.boxwood.geom.Geom;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SphereAabb;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.NearestVisitor;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.SweepTests;
import dev.boxwood.query.TraversalStack;
import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.bytes.MappedFile;
import net.openhft.chronicle.core.UnsafeMemory;
import net.openhft.chronicle.core.io.IORuntimeException;
import net.openhft.chronicle.core.io.ReferenceOwner;

/**
 * A static world file mapped read-only into memory and queried in place (zero copy): opening costs the same for
 * any world size, and only the pages a query touches are read from disk.
 *
 * <p>Handles are {@code 0 .. size() - 1}, the objects' positions in the file's storage order (the depth-first order
 * of the tree's leaves), which {@link StaticWorldWriter} chose: its {@link WrittenWorld} maps the input indices
 * the world was written from to handles and back, and the user value defaults to the input index. Queries follow
 * {@link SpatialQueries}: closed boxes, the category mask test {@code (bits & mask) != 0}, the
 * {@link RayCastVisitor} protocol, answers exact for the stored float boxes (outward-rounded, relative to the
 * world's double origin; query coordinates are translated by that origin in double). The tree's node boxes are
 * quantized to 16 bits in their parent's frame and only cull: every object is decided on its stored float box.
 *
 * <p>Safety against bad files: {@link #open} checks the header (magic, version, byte order, header checksum,
 * counts and section bounds against the file length) and throws {@link CorruptWorldFileException} naming what is
 * wrong; {@link #verify()} checks every section checksum and the tree structure on demand, and
 * {@link #open(Path, boolean) open(file, true)} before returning the world (a full read of the file). Queries
 * check every node and leaf reference they follow (range, depth-first order, visit budget) and every palette
 * index, so even an unverified corrupt file never makes a read outside the mapping: a broken reference throws an
 * {@link UncheckedIOException} wrapping a {@link CorruptWorldFileException}. The file must not be truncated by
 * another process while mapped (the operating system would fault the reading thread); {@link StaticWorldWriter}
 * replaces files by renaming, never in place.
 *
 * <p>Threads: the world holds no per-query state; any number of threads may query it at once, each with its own
 * {@link TraversalStack} (or {@link NearestNeighbours}), which also carries the decoded box of each pushed node.
 * A query checks what it takes back from that scratch as it checks what it reads from the file, so scratch shared
 * with a query running at the same time never makes it read outside the mapping: a query nested in a visitor on the
 * same stack makes it throw {@link IllegalStateException} (see {@link TraversalStack#checkQuery}); another thread
 * using the same stack is caught only when this thread sees its mark (the mark is a plain field), and otherwise
 * leaves this query's answers undefined. One stack per thread.
 * {@link #close()} may come at any time, from any thread, a query's own visitor included: a query, or an accessor
 * that reads the file, called after close throws {@link IllegalStateException} (plain header values such as
 * {@link #originX()} stay readable), while those already running finish their walk as if the world were open (calls
 * their callbacks make on the world after the close throw, as any), and the file is unmapped when the last of them
 * returns (at once if none runs). Each query and accessor counts itself in and out of a count striped over the
 * threads (two atomic additions, on a cache line of their own for most threads), so a close can never unmap the
 * file under a reader.
 *
 * <p>Requires a little-endian platform (x86-64, AArch64): the mapping is read in native order.
 */
public final class MappedWorld implements ShapeQueries, AutoCloseable {

    private static final int SPHERE = RegionTests.SPHERE;
    private static final int BOX = RegionTests.BOX;
    private static final int OBB = RegionTests.OBB;
    private static final int CONVEX = RegionTests.CONVEX;
    private static final int VERIFY_CHUNK = 1 << 20;
    /** Mappings tried by {@link #open} while renames keep putting longer versions of the file in place. */
    private static final int OPEN_ATTEMPTS = 8;
    /** Returned by {@link #castUnchecked} when the visitor stopped the cast. */
    static final double STOPPED = -1.0;
    /**
     * Float lane layout of the traversals: the two decoded child boxes of the node being opened, then the decoded
     * box of each stack entry (6 floats at {@code ENTRY_BOXES + 6 * entry}).
     */
    private static final int ENTRY_BOXES = 12;

    private final Path file;
    private final long fileLength;
    private final MappedFile mappedFile;
    private final MappedBytesStore store;
    /** The address of file offset 0 in the mapping; every read below is {@code address + offset}. */
    private final long address;
    private final ReferenceOwner owner;
    private final int objectCount;
    private final int nodeCount;
    private final int rootRef;
    private final int height;
    private final double originX;
    private final double originY;
    private final double originZ;
    private final float[] rootBounds;
    private final long[] sectionOffsets;
    private final long[] sectionLengths;
    private final int[] sectionCrcs;
    private final long nodesOffset;
    private final long boxesOffset;
    private final long categoriesOffset;
    private final long paletteOffset;
    private final int paletteSize;
    private final boolean paletteIndexed;
    private final boolean noZeroCategory;
    private final long userValuesOffset;
    /** The threads reading the mapping, so that {@link #close()} never unmaps it under one. */
    private final ReaderCount readers = new ReaderCount(this::unmap);

    private MappedWorld(Path file, long fileLength, MappedFile mappedFile, MappedBytesStore store,
                        ReferenceOwner owner, Header h) {
        this.file = file;
        this.fileLength = fileLength;
        this.mappedFile = mappedFile;
        this.store = store;
        this.address = store.addressForRead(0);
        this.owner = owner;
        this.objectCount = h.objectCount;
        this.nodeCount = h.nodeCount;
        this.rootRef = h.rootRef;
        this.height = h.height;
        this.originX = h.origin[0];
        this.originY = h.origin[1];
        this.originZ = h.origin[2];
        this.rootBounds = h.rootBounds;
        this.sectionOffsets = h.offsets;
        this.sectionLengths = h.lengths;
        this.sectionCrcs = h.crcs;
        this.nodesOffset = h.offsets[WorldLayout.SECTION_NODES];
        this.boxesOffset = h.offsets[WorldLayout.SECTION_BOXES];
        this.categoriesOffset = h.offsets[WorldLayout.SECTION_CATEGORIES];
        this.paletteOffset = h.offsets[WorldLayout.SECTION_PALETTE];
        this.paletteSize = (int) (h.lengths[WorldLayout.SECTION_PALETTE] / WorldLayout.PALETTE_ENTRY_SIZE);
        this.paletteIndexed = (h.flags & WorldLayout.FLAG_CATEGORY_PALETTE) != 0;
        this.noZeroCategory = (h.flags & WorldLayout.FLAG_NO_ZERO_CATEGORY) != 0;
        this.userValuesOffset = h.offsets[WorldLayout.SECTION_USER_VALUES];
    }

    /**
     * Opens and maps a world file read-only after validating its header. Costs the same for any world size.
     *
     * @param file the world file
     * @return the mapped world; close it to unmap
     * @throws CorruptWorldFileException if the header is not that of a valid world of this format version, or
     *                                   disagrees with the file length
     * @throws IOException               if the file cannot be read or mapped (a {@link FileSystemException} naming
     *                                   the path for a directory)
     * @throws IllegalStateException     if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                   message names the missing ones and {@code serialization/chronicle.args})
     */
    public static MappedWorld open(Path file) throws IOException {
        return open(file, false);
    }

    /**
     * Opens and maps a world file read-only after validating its header and, with {@code verify}, after checking
     * the whole file as {@link #verify()} does (every section checksum and the tree structure), so that a damaged
     * file is refused here instead of answering queries wrongly until someone calls {@link #verify()}. The
     * verification reads the whole file once (and takes {@link #verify()}'s heap, about 40 bytes per internal
     * node): opening then costs in proportion to the file's size instead of the same for any size. Without
     * {@code verify} this is {@link #open(Path)}.
     *
     * @param file   the world file
     * @param verify whether to verify the whole file before returning
     * @return the mapped world; close it to unmap
     * @throws CorruptWorldFileException if the header is not that of a valid world of this format version, or
     *                                   disagrees with the file length, or (with {@code verify}) any check of
     *                                   {@link #verify()} fails; the file is unmapped before it is thrown
     * @throws IOException               if the file cannot be read or mapped (a {@link FileSystemException} naming
     *                                   the path for a directory)
     * @throws IllegalStateException     if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                   message names the missing ones and {@code serialization/chronicle.args})
     */
    public static MappedWorld open(Path file, boolean verify) throws IOException {
        MappedWorld world = map(file);
        if (verify) {
            try {
                world.verify();
            } catch (CorruptWorldFileException | RuntimeException | Error e) {
                world.close();
                throw e;
            }
        }
        return world;
    }

    private static MappedWorld map(Path file) throws IOException {
        if (file == null) {
            throw new IllegalArgumentException("file must not be null");
        }
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new IOException("static worlds can only be mapped on little-endian platforms");
        }
        // A writer may rename a new version over the path at any moment (StaticWorldWriter does): the size, the
        // header and the mapping must all be those of the one file the mapping holds open, or the header of one
        // version would be applied to another and queries could read past the end of a shorter one. So the size
        // read here only decides how much to map; the length and the header are then read through the mapping.
        long capacity = Files.size(file);
        Header.requireWorldFile(file, capacity);
        for (int attempt = 1; ; attempt++) {
            // the file is mapped as it is opened, and only the store's own release unmaps it (Unmapping)
            MappedFile mapped;
            try {
                mapped = MappedFile.ofSingle(file.toFile(), capacity, true);
            } catch (RuntimeException | Error e) {
                throw mappingFailure(file, e);
            }
            ReferenceOwner owner = ReferenceOwner.temporary("MappedWorld");
            MappedBytesStore store;
            try {
                store = mapped.acquireByteStore(owner, 0);
            } catch (RuntimeException | Error e) {
                mapped.releaseLast();
                throw mappingFailure(file, e);
            } catch (IOException e) {
                mapped.releaseLast();
                throw e;
            }
            long length;
            try {
                length = mapped.actualSize();
                if (length <= capacity) {
                    // a shorter version is mapped beyond its end, where nothing is read: its header bounds the reads
                    MappedWorld world = new MappedWorld(file, length, mapped, store, owner,
                            Header.read(file, length, store));
                    // The mapping outlives the file's descriptor (POSIX mmap), and nothing reads through the
                    // descriptor again (Chronicle's release closes it quietly): closed now, so a mapped world holds
                    // no descriptor, and a tiled world's byte budget cannot run the process out of descriptors
                    // (about a thousand tiles under a generous budget did, with the usual limit of 1024).
                    mapped.raf().close();
                    return world;
                }
            } catch (RuntimeException | IOException e) {
                unmap(store, owner, mapped);
                throw e;
            }
            unmap(store, owner, mapped);
            if (attempt == OPEN_ATTEMPTS) {
                throw new IOException(file + ": the file was replaced by longer versions on each of " + OPEN_ATTEMPTS
                        + " attempts to map it");
            }
            capacity = length;
        }
    }

    /**
     * Chronicle reports a file the operating system refuses to map (a file system without mmap, such as sysfs, or
     * no address space left) unchecked and without the path; {@link #open} promises an {@link IOException} naming
     * the file, and {@link TiledWorld} turns only that into its documented {@link UncheckedIOException}. A JVM
     * started without the options Chronicle needs is no I/O problem: that failure becomes the
     * {@link IllegalStateException} of {@link JvmFlags}. Anything else is thrown as it came.
     *
     * @return the exception to throw for an {@link IORuntimeException}
     */
    private static IOException mappingFailure(Path file, Throwable e) {
        JvmFlags.requireFor(e, file);
        if (e instanceof IORuntimeException) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return new IOException(file + ": the file cannot be mapped: " + cause.getMessage(), e);
        }
        if (e instanceof RuntimeException) {
            throw (RuntimeException) e;
        }
        throw (Error) e;
    }

    /**
     * Checks every section checksum (CRC32C), the zero padding and the structure: each internal node but the root
     * referenced by exactly one parent of smaller index (child A being the next node), the leaf runs partitioning
     * the objects in depth-first order, every quantized box the writer's code for the objects below (so decoded
     * boxes contain them), object boxes (as {@link #readObjectBoxes()} checks them), category summaries, palette,
     * flags, height and root bounds. Reads the whole file.
     *
     * @throws CorruptWorldFileException naming the first problem found
     * @throws IllegalStateException     if the world is closed
     */
    public void verify() throws CorruptWorldFileException {
        int reader = enter();
        try {
            byte[] chunk = new byte[(int) Math.min(VERIFY_CHUNK, Math.max(1, fileLength))];
            CRC32C crc = new CRC32C();
            for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
                crc.reset();
                long end = sectionOffsets[s] + sectionLengths[s];
                for (long p = sectionOffsets[s]; p < end; ) {
                    int len = (int) Math.min(chunk.length, end - p);
                    store.read(p, chunk, 0, len);
                    crc.update(chunk, 0, len);
                    p += len;
                }
                if ((int) crc.getValue() != sectionCrcs[s]) {
                    throw corrupt("checksum mismatch in the " + WorldLayout.SECTION_NAMES[s] + " section (stored "
                            + Integer.toHexString(sectionCrcs[s]) + ", computed "
                            + Integer.toHexString((int) crc.getValue())
                            + ")");
                }
            }
            verifyPadding(chunk);
            verifyStructure();
        } finally {
            exit(reader);
        }
    }

    /** The alignment gaps before each section are not covered by a checksum: they must be zero. */
    private void verifyPadding(byte[] chunk) throws CorruptWorldFileException {
        long gapStart = WorldLayout.HEADER_SIZE;
        for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
            int len = (int) (sectionOffsets[s] - gapStart);
            store.read(gapStart, chunk, 0, len);
            for (int i = 0; i < len; i++) {
                if (chunk[i] != 0) {
                    throw corrupt("non-zero padding byte at " + (gapStart + i));
                }
            }
            gapStart = sectionOffsets[s] + sectionLengths[s];
        }
    }

    /**
     * The tree's structure, reading nodes, boxes and categories: references in range and in depth-first pre-order
     * (child A, when internal, is the next node; every node but the root referenced once), leaf runs partitioning
     * {@code [0, n)} in depth-first order, every quantized box the writer's code for the exact union of the objects
     * below in the frame of its node's decoded box (so decoded boxes contain their children), category summaries,
     * the height and the root bounds. Heap: about 40 bytes per internal node.
     */
    private void verifyStructure() throws CorruptWorldFileException {
        if (objectCount == 0) {
            return;
        }
        verifyCategories();
        float[] union = new float[12];
        if (nodeCount == 0) {
            runUnion(rootRef, union, 0);
            checkRootBounds(union);
            return;
        }
        // decoded boxes top-down, replaced by exact unions bottom-up once a node's codes are checked
        float[] boxes = new float[6 * nodeCount];
        System.arraycopy(rootBounds, 0, boxes, 0, 6);
        long[] seen = new long[(nodeCount + 63) >>> 6];
        int referenced = 0;
        float[] children = new float[12];
        for (int k = 0; k < nodeCount; k++) {
            long base = nodeBase(k);
            decodeChildren(base, boxes, 6 * k, children, 0);
            for (int c = 0; c < 2; c++) {
                int ref = readChild(k, base, c);
                if (ref < 0) {
                    continue;
                }
                if (c == 0 && ref != k + 1) {
                    throw corrupt("child A of node " + k + " is node " + ref + ", not the next node");
                }
                if ((seen[ref >>> 6] & (1L << ref)) != 0) {
                    throw corrupt("node " + ref + " is referenced twice");
                }
                seen[ref >>> 6] |= 1L << ref;
                referenced++;
                for (int a = 0; a < 6; a++) {
                    if (!Float.isFinite(children[6 * c + a])) {
                        throw corrupt("the decoded box of node " + ref + " is not finite");
                    }
                }
                System.arraycopy(children, 6 * c, boxes, 6 * ref, 6);
            }
        }
        if (referenced != nodeCount - 1) {
            throw corrupt((nodeCount - 1 - referenced) + " nodes are not referenced by any node");
        }
        int[] ranges = new int[2 * nodeCount];
        int[] heights = new int[nodeCount];
        int[] summaries = new int[nodeCount];
        for (int k = nodeCount - 1; k >= 0; k--) {
            long base = nodeBase(k);
            int h = 0;
            int next = -1;
            for (int c = 0; c < 2; c++) {
                // read again, and so checked again: a file rewritten in place meanwhile (which only truncation
                // is forbidden) may hold another reference now, and this pass follows it into the mapping and
                // into the arrays above (a reference beyond them read outside the mapping)
                int ref = readChild(k, base, c);
                int lo;
                int summary;
                if (ref < 0) {
                    lo = WorldLayout.leafFirst(ref);
                    next = lo + WorldLayout.leafCount(ref);
                    summary = runUnion(ref, union, 6 * c);
                } else {
                    lo = ranges[2 * ref];
                    next = ranges[2 * ref + 1];
                    System.arraycopy(boxes, 6 * ref, union, 6 * c, 6);
                    summary = summaries[ref];
                    h = Math.max(h, heights[ref]);
                }
                if (c == 0) {
                    ranges[2 * k] = lo;
                } else if (lo != ranges[2 * k + 1]) {
                    throw corrupt("the objects below node " + k + " are not one run in depth-first order");
                }
                ranges[2 * k + 1] = next;
                if (readInt(base + WorldLayout.NODE_CATEGORIES_A + 4 * c) != summary) {
                    throw corrupt("category summary of child " + c + " of node " + k + " is wrong");
                }
                summaries[k] |= summary;
            }
            heights[k] = 1 + h;
            checkCodes(k, base, boxes, union);
            for (int a = 0; a < 3; a++) {
                boxes[6 * k + a] = Math.min(union[a], union[6 + a]);
                boxes[6 * k + 3 + a] = Math.max(union[3 + a], union[9 + a]);
            }
        }
        if (ranges[0] != 0 || ranges[1] != objectCount) {
            throw corrupt("the leaves hold objects [" + ranges[0] + ", " + ranges[1] + ") instead of [0, "
                    + objectCount + ")");
        }
        if (heights[0] != height) {
            throw corrupt("tree height " + heights[0] + " differs from the header's " + height);
        }
        checkRootBounds(boxes);
    }

    /**
     * Child {@code c}'s reference of node {@code k}, checked: a leaf run within {@code [0, n)}, or a node after
     * {@code k} (pre-order).
     */
    private int readChild(int k, long base, int c) throws CorruptWorldFileException {
        int ref = readInt(base + WorldLayout.NODE_REF_A + 4 * c);
        if (ref < 0) {
            if (WorldLayout.leafFirst(ref) > objectCount - WorldLayout.leafCount(ref)) {
                throw corrupt(leafMessage(k, ref));
            }
        } else if (ref <= k || ref >= nodeCount) {
            throw corrupt(childMessage(k, ref));
        }
        return ref;
    }

    /** Each stored code must be the writer's: the quantization of the exact child box in the node's decoded frame. */
    private void checkCodes(int k, long base, float[] decoded, float[] exact) throws CorruptWorldFileException {
        for (int i = 0; i < 12; i++) {
            int a = i % 3;
            float min = decoded[6 * k + a];
            float scale = WorldLayout.scale(min, decoded[6 * k + 3 + a]);
            int expected = i % 6 < 3 ? WorldLayout.quantizeMin(min, scale, exact[i])
                    : WorldLayout.quantizeMax(min, scale, exact[i]);
            int stored = readUnsignedShort(base + WorldLayout.NODE_BOXES + 2L * i);
            if (stored != expected) {
                throw corrupt("quantized coordinate " + i % 6 + " of child " + i / 6 + " of node " + k + " is "
                        + stored + ", not " + expected + " (the box does not fit its objects)");
            }
        }
    }

    /** The exact union of a leaf run's boxes into {@code dest[at ..]}; returns the run's category summary. */
    private int runUnion(int ref, float[] dest, int at) throws CorruptWorldFileException {
        int first = WorldLayout.leafFirst(ref);
        int end = first + WorldLayout.leafCount(ref);
        int summary = 0;
        for (int a = 0; a < 3; a++) {
            dest[at + a] = Float.POSITIVE_INFINITY;
            dest[at + 3 + a] = Float.NEGATIVE_INFINITY;
        }
        for (int o = first; o < end; o++) {
            long b = boxBase(o);
            for (int a = 0; a < 3; a++) {
                dest[at + a] = Math.min(dest[at + a], readFloat(b + 4L * a));
                dest[at + 3 + a] = Math.max(dest[at + 3 + a], readFloat(b + 12 + 4L * a));
            }
            long category;
            if (paletteIndexed) {
                // read once and checked again, as the references are: the categories' pass may have read another
                int i = paletteIndexAt(o);
                if (i >= paletteSize) {
                    throw corrupt(paletteMessage(o, i));
                }
                category = paletteEntry(i);
            } else {
                category = categoryAt(o);
            }
            summary |= WorldLayout.foldCategories(category);
        }
        return summary;
    }

    private void checkRootBounds(float[] union) throws CorruptWorldFileException {
        for (int a = 0; a < 6; a++) {
            if (Float.floatToRawIntBits(union[a]) != Float.floatToRawIntBits(rootBounds[a])) {
                throw corrupt("the root bounds differ from the union of the object boxes");
            }
        }
    }

    /**
     * The category records: palette entries strictly ascending and each used, indices in range, object boxes
     * as a writer stores them (finite, not inverted, within the float storage range), and the no-zero flag set
     * exactly when no object has category bits 0.
     */
    private void verifyCategories() throws CorruptWorldFileException {
        boolean anyZero = false;
        if (paletteIndexed) {
            long[] used = new long[(paletteSize + 63) >>> 6];
            for (int o = 0; o < objectCount; o++) {
                int i = paletteIndexAt(o);
                if (i >= paletteSize) {
                    throw corrupt(paletteMessage(o, i));
                }
                used[i >>> 6] |= 1L << i;
            }
            for (int p = 0; p < paletteSize; p++) {
                long value = paletteEntry(p);
                if (p > 0 && value <= paletteEntry(p - 1)) {
                    throw corrupt("the palette is not strictly ascending at entry " + p);
                }
                if ((used[p >>> 6] & (1L << p)) == 0) {
                    throw corrupt("palette entry " + p + " is used by no object");
                }
                anyZero |= value == 0;
            }
        } else {
            for (int o = 0; o < objectCount && !anyZero; o++) {
                anyZero = categoryAt(o) == 0;
            }
        }
        if (anyZero == noZeroCategory) {
            throw corrupt("the no-zero-category flag is " + (noZeroCategory ? "set" : "missing")
                    + " but " + (anyZero ? "an" : "no") + " object has category bits 0");
        }
        float[] box = new float[6];
        for (int o = 0; o < objectCount; o++) {
            readBox(o, box, 0);
            checkStoredBox(o, box, 0);
        }
    }

    /** Copies the stored box of an object into {@code dest[at .. at + 5]}. */
    private void readBox(int object, float[] dest, int at) {
        long b = boxBase(object);
        for (int a = 0; a < 6; a++) {
            dest[at + a] = readFloat(b + 4L * a);
        }
    }

    /** A box no writer stores ({@link WorldLayout#storedBoxProblem}) is corruption. */
    private void checkStoredBox(int object, float[] box, int at) throws CorruptWorldFileException {
        String problem = WorldLayout.storedBoxProblem(box, at);
        if (problem != null) {
            throw corrupt("the box of object " + object + " " + problem);
        }
    }

    /**
     * Closes the world: later queries and reads of the file throw {@link IllegalStateException}; the file is unmapped
     * now if no query of this world is running, else by the last running one as it returns (one that called this
     * from its own visitor included), so no running query ever reads unmapped memory. Idempotent; any thread.
     */
    @Override
    public void close() {
        readers.close();
    }

    /**
     * For {@link TiledWorld}, which evicts a tile while its queries run: {@link #close()}, with the unmapping done on
     * the library's unmapping thread ({@link Unmapping#later}), so the query that evicts the tile does not wait for
     * it; {@code whenUnmapped} runs on that thread once the file is unmapped.
     *
     * @param whenUnmapped run once the unmapping has ended (also if it failed)
     */
    void closeInBackground(Runnable whenUnmapped) {
        unmapInBackground = whenUnmapped;
        close();
    }

    /** Set by {@link #closeInBackground} before the close that unmaps. */
    private volatile Runnable unmapInBackground;

    /** Unmaps the file: run once, by {@link ReaderCount} when the world is closed and no query reads it. */
    private void unmap() {
        Runnable whenUnmapped = unmapInBackground;
        if (whenUnmapped != null) {
            Unmapping.later(() -> dropMapping(store, owner, mappedFile), whenUnmapped);
        } else {
            unmap(store, owner, mappedFile);
        }
    }

    private static void unmap(MappedBytesStore store, ReferenceOwner owner, MappedFile mappedFile) {
        dropMapping(store, owner, mappedFile);
        Unmapping.awaitReleases();
    }

    /** Drops every reservation of the mapping ({@link Unmapping#drop} last), without waiting for the unmapping. */
    private static void dropMapping(MappedBytesStore store, ReferenceOwner owner, MappedFile mappedFile) {
        store.release(owner);
        mappedFile.releaseLast();
        Unmapping.drop(store, mappedFile);
    }

    /** @return whether {@link #close()} was called (a query still running may keep the file mapped until it returns) */
    public boolean isClosed() {
        return readers.isClosed();
    }

    /**
     * @return whether the file has been unmapped ({@link #close()} called and no query reading it), or handed to
     *     the unmapping thread ({@link #closeInBackground})
     */
    boolean isUnmapped() {
        return readers.isReleased();
    }

    /** @return the mapped file */
    public Path file() {
        return file;
    }

    /** @return the file length in bytes */
    public long fileLength() {
        return fileLength;
    }

    /** @return the number of internal tree nodes */
    public int nodeCount() {
        return nodeCount;
    }

    /** @return the number of leaves, each a run of 1 to {@value WorldLayout#MAX_LEAF_SIZE} objects (0 when empty) */
    public int leafCount() {
        return objectCount == 0 ? 0 : nodeCount + 1;
    }

    /** @return objects per leaf on average (0 when empty) */
    public double averageLeafSize() {
        return objectCount == 0 ? 0.0 : (double) objectCount / leafCount();
    }

    /** @return the number of distinct category values stored in the palette (0 without a palette) */
    public int paletteSize() {
        return paletteIndexed ? paletteSize : 0;
    }

    /** @return internal nodes on the longest root-to-leaf path (0 when the root is a leaf) */
    public int height() {
        return height;
    }

    /** @return x of the double origin the stored float boxes are relative to */
    public double originX() {
        return originX;
    }

    /** @return y of the double origin */
    public double originY() {
        return originY;
    }

    /** @return z of the double origin */
    public double originZ() {
        return originZ;
    }

    /**
     * Copies the bounds of the whole world in world coordinates (stored floats plus origin, in double).
     *
     * @param dest an array of length {@code >= 6}: {@code minX, minY, minZ, maxX, maxY, maxZ}; zeros plus the
     *             origin when the world is empty
     * @throws IllegalArgumentException if {@code dest} is null or shorter than 6 (nothing is written)
     * @throws IllegalStateException    if the world is closed
     */
    public void getBounds(double[] dest) {
        checkOpen();
        Arguments.requireBoxDestination(dest);
        toWorld(rootBounds[0], rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5], dest);
    }

    /**
     * Copies the tree into heap arrays, in the layout of the shared bulk builder (one object per leaf), so that it
     * can be adopted by an in-memory index without a rebuild (for example spliced into a dynamic tree with the
     * same origin): internal nodes are kept, and each leaf run of {@code c > 1} objects becomes a balanced subtree
     * of {@code c - 1} nodes over its objects in storage order. Object indices are this world's handles; boxes are
     * the exact unions of the stored object boxes. The references are checked as by {@link FlatBvh#of}. Costs O(n)
     * reads and about {@code 56 n} bytes of heap.
     *
     * @return the tree, with this world's origin
     * @throws CorruptWorldFileException if the stored references do not form a valid tree
     */
    public FlatBvh readTree() throws CorruptWorldFileException {
        int reader = enter();
        try {
            int flatNodes = Math.max(0, objectCount - 1);
            float[] bounds = new float[12 * flatNodes];
            int[] refs = new int[2 * flatNodes];
            if (objectCount >= 2) {
                expandTree(refs, flatNodes);
                for (int k = flatNodes - 1; k >= 0; k--) {
                    for (int c = 0; c < 2; c++) {
                        int ref = refs[2 * k + c];
                        int at = 12 * k + 6 * c;
                        if (ref < 0) {
                            long b = boxBase(~ref);
                            for (int a = 0; a < 6; a++) {
                                bounds[at + a] = readFloat(b + 4L * a);
                            }
                        } else {
                            for (int a = 0; a < 3; a++) {
                                bounds[at + a] = Math.min(bounds[12 * ref + a], bounds[12 * ref + 6 + a]);
                                bounds[at + 3 + a] = Math.max(bounds[12 * ref + 3 + a], bounds[12 * ref + 9 + a]);
                            }
                        }
                    }
                }
            }
            try {
                return FlatBvh.of(objectCount, originX, originY, originZ, bounds, refs, rootBounds.clone());
            } catch (IllegalArgumentException e) {
                throw corrupt("the stored tree is invalid: " + e.getMessage());
            }
        } finally {
            exit(reader);
        }
    }

    /**
     * The references of {@link #readTree()}: a depth-first walk of the stored tree emitting builder nodes in
     * pre-order, over tasks {@code (stored node or leaf run, builder parent, slot)}; runs split in halves.
     */
    private void expandTree(int[] refs, int flatNodes) throws CorruptWorldFileException {
        int[] tasks = new int[3 * 64];
        int sp = 0;
        tasks[sp++] = rootRef;
        tasks[sp++] = -1;
        tasks[sp++] = 0;
        int next = 0;
        long visits = 0;
        while (sp > 0) {
            int slot = tasks[--sp];
            int parent = tasks[--sp];
            int ref = tasks[--sp];
            if (next == flatNodes) {
                throw corrupt("the stored tree has more nodes than its objects allow");
            }
            int k = next++;
            if (parent >= 0) {
                refs[2 * parent + slot] = k;
            }
            if (tasks.length - sp < 6) {
                tasks = java.util.Arrays.copyOf(tasks, 2 * tasks.length);
            }
            int refA;
            int refB;
            if (ref >= 0) {
                if (++visits > nodeCount) {
                    throw corrupt("the stored tree has a reference cycle");
                }
                long base = nodeBase(ref);
                refA = readInt(base + WorldLayout.NODE_REF_A);
                refB = readInt(base + WorldLayout.NODE_REF_B);
                for (int c = 0; c < 2; c++) {
                    int child = c == 0 ? refA : refB;
                    if (child >= 0 && (child <= ref || child >= nodeCount)) {
                        throw corrupt(childMessage(ref, child));
                    }
                    if (child < 0 && WorldLayout.leafFirst(child) > objectCount - WorldLayout.leafCount(child)) {
                        throw corrupt(leafMessage(ref, child));
                    }
                }
            } else {
                int first = WorldLayout.leafFirst(ref);
                int count = WorldLayout.leafCount(ref);
                refA = WorldLayout.leafRef(first, count / 2);
                refB = WorldLayout.leafRef(first + count / 2, count - count / 2);
            }
            for (int c = 1; c >= 0; c--) {
                int child = c == 0 ? refA : refB;
                if (child < 0 && WorldLayout.leafCount(child) == 1) {
                    refs[2 * k + c] = ~WorldLayout.leafFirst(child);
                } else {
                    tasks[sp++] = child;
                    tasks[sp++] = k;
                    tasks[sp++] = c;
                }
            }
        }
    }

    /**
     * Copies the stored object boxes (floats relative to the origin, stride 6) into a heap array, as the
     * companion of {@link #readTree()}, checking each as {@link #verify()} does: finite, {@code min <= max}, and
     * within {@link dev.boxwood.query.OutwardFloat#MAX_STORED} of the origin (no writer stores more). So a damaged
     * box section is reported here as corruption, not later as a bad argument of
     * {@link dev.boxwood.index.DynamicAabbTree#spliceSubtree}, which accepts these boxes into a tree of the same
     * origin. Checksums are not read ({@link #verify()} reads them).
     *
     * @return the boxes of handles {@code 0 .. size() - 1}
     * @throws CorruptWorldFileException naming the file and the first object whose stored box breaks those rules
     * @throws IllegalStateException     if the world is closed
     */
    public float[] readObjectBoxes() throws CorruptWorldFileException {
        int reader = enter();
        try {
            float[] boxes = new float[6 * objectCount];
            for (int i = 0; i < objectCount; i++) {
                readBox(i, boxes, 6 * i);
                checkStoredBox(i, boxes, 6 * i);
            }
            return boxes;
        } finally {
            exit(reader);
        }
    }

    /**
     * Copies every object's category bits into a heap array, as a companion of {@link #readTree()}.
     *
     * @return the category bits of handles {@code 0 .. size() - 1}
     * @throws CorruptWorldFileException naming the file and the first object whose palette index is out of range
     * @throws IllegalStateException     if the world is closed
     */
    public long[] readCategories() throws CorruptWorldFileException {
        int reader = enter();
        try {
            long[] bits = new long[objectCount];
            try {
                for (int i = 0; i < objectCount; i++) {
                    bits[i] = categoryAt(i);
                }
            } catch (UncheckedIOException e) {
                // the query path's unchecked form of a corrupt record: a reader declares the checked one
                if (e.getCause() instanceof CorruptWorldFileException corrupt) {
                    throw corrupt;
                }
                throw e;
            }
            return bits;
        } finally {
            exit(reader);
        }
    }

    /**
     * Copies every object's user value into a heap array, as a companion of {@link #readTree()}.
     *
     * @return the user values of handles {@code 0 .. size() - 1}
     */
    public long[] readUserValues() {
        int reader = enter();
        try {
            long[] values = new long[objectCount];
            for (int i = 0; i < objectCount; i++) {
                values[i] = userValueAt(i);
            }
            return values;
        } finally {
            exit(reader);
        }
    }

    /** The header's root bounds, relative to the origin: shared, for readers in this package that only compare. */
    float[] storedRootBounds() {
        return rootBounds;
    }

    /** @return the length of the user payload in bytes (0 if none) */
    public long payloadLength() {
        return sectionLengths[WorldLayout.SECTION_PAYLOAD];
    }

    /**
     * Copies part of the user payload.
     *
     * @param position   first payload byte to copy
     * @param dest       destination
     * @param destOffset first destination index
     * @param length     number of bytes
     * @throws IndexOutOfBoundsException if the range is outside the payload or {@code dest}
     */
    public void readPayload(long position, byte[] dest, int destOffset, int length) {
        int reader = enter();
        try {
            if (position < 0 || length < 0 || position > payloadLength() - length || destOffset < 0
                    || destOffset > dest.length - length) {
                throw new IndexOutOfBoundsException("payload range [" + position + ", +" + length + ") of "
                        + payloadLength() + " bytes into an array of " + dest.length);
            }
            store.read(sectionOffsets[WorldLayout.SECTION_PAYLOAD] + position, dest, destOffset, length);
        } finally {
            exit(reader);
        }
    }

    @Override
    public int size() {
        return objectCount;
    }

    @Override
    public boolean contains(int handle) {
        checkOpen();
        return handle >= 0 && handle < objectCount;
    }

    @Override
    public long userValue(int handle) {
        int reader = enter();
        try {
            requireHandle(handle);
            return userValueAt(handle);
        } finally {
            exit(reader);
        }
    }

    @Override
    public long categoryBits(int handle) {
        int reader = enter();
        try {
            requireHandle(handle);
            return categoryAt(handle);
        } finally {
            exit(reader);
        }
    }

    /**
     * The stored category bits of an object (unchecked index): through the palette, whose index is range-checked
     * (a corrupt index throws the query-time corruption exception), or read directly.
     */
    private long categoryAt(int object) {
        if (paletteIndexed) {
            int i = paletteIndexAt(object);
            if (i >= paletteSize) {
                throw corruptAtQuery(paletteMessage(object, i));
            }
            return paletteEntry(i);
        }
        return readLong(categoriesOffset + (long) WorldLayout.CATEGORY_SIZE * object);
    }

    /** The stored palette index of an object (unchecked index, unchecked value). */
    private int paletteIndexAt(int object) {
        return readUnsignedShort(categoriesOffset + (long) WorldLayout.PALETTE_INDEX_SIZE * object);
    }

    /** Palette entry {@code i}, which must be below the palette's size. */
    private long paletteEntry(int i) {
        return readLong(paletteOffset + (long) WorldLayout.PALETTE_ENTRY_SIZE * i);
    }

    private String paletteMessage(int object, int index) {
        return "object " + object + " has palette index " + index + " of " + paletteSize;
    }

    /** The stored user value of an object (unchecked index). */
    private long userValueAt(int object) {
        return readLong(userValuesOffset + (long) WorldLayout.USER_VALUE_SIZE * object);
    }

    // Reads of the mapping at a file offset. Queries run many of them per node and object, so they go straight to
    // the mapped address instead of through the store's accessors (which re-read the store's fields and translate
    // each offset): every offset passed here lies inside the file, because open() checked the sections against the
    // file length and queries check each reference before following it (the class comment).

    private long readLong(long offset) {
        return UnsafeMemory.MEMORY.readLong(address + offset);
    }

    private int readInt(long offset) {
        return UnsafeMemory.MEMORY.readInt(address + offset);
    }

    private float readFloat(long offset) {
        return UnsafeMemory.MEMORY.readFloat(address + offset);
    }

    /** The float in the low half of a little-endian word. */
    private static float low(long word) {
        return Float.intBitsToFloat((int) word);
    }

    /** The float in the high half of a little-endian word. */
    private static float high(long word) {
        return Float.intBitsToFloat((int) (word >>> 32));
    }

    private int readUnsignedShort(long offset) {
        return UnsafeMemory.MEMORY.readShort(address + offset) & 0xFFFF;
    }

    /** The file offset of an object's box record (unchecked index). */
    private long boxBase(int object) {
        return boxesOffset + (long) WorldLayout.BOX_SIZE * object;
    }

    /** The file offset of a node record (unchecked index). */
    private long nodeBase(int node) {
        return nodesOffset + (long) WorldLayout.NODE_SIZE * node;
    }

    /**
     * Decodes both child boxes of the node at {@code base}, whose own decoded box is {@code box[from .. from + 6)},
     * into {@code dest[to .. to + 12)} (child A, then B): the reader's half of the quantization rule
     * ({@link WorldLayout#decode}), shared by every traversal, {@link #verify()} and nothing else. The 12 codes
     * are read as three little-endian longs.
     */
    private void decodeChildren(long base, float[] box, int from, float[] dest, int to) {
        long w0 = readLong(base + WorldLayout.NODE_BOXES);
        long w1 = readLong(base + WorldLayout.NODE_BOXES + 8);
        long w2 = readLong(base + WorldLayout.NODE_BOXES + 16);
        float x0 = box[from];
        float y0 = box[from + 1];
        float z0 = box[from + 2];
        float sx = WorldLayout.scale(x0, box[from + 3]);
        float sy = WorldLayout.scale(y0, box[from + 4]);
        float sz = WorldLayout.scale(z0, box[from + 5]);
        // the layout of code(), with the shifts written out: the looped form measured about 8% slower box queries
        dest[to] = WorldLayout.decode(x0, sx, (int) w0 & 0xFFFF);
        dest[to + 1] = WorldLayout.decode(y0, sy, (int) (w0 >>> 16) & 0xFFFF);
        dest[to + 2] = WorldLayout.decode(z0, sz, (int) (w0 >>> 32) & 0xFFFF);
        dest[to + 3] = WorldLayout.decode(x0, sx, (int) (w0 >>> 48));
        dest[to + 4] = WorldLayout.decode(y0, sy, (int) w1 & 0xFFFF);
        dest[to + 5] = WorldLayout.decode(z0, sz, (int) (w1 >>> 16) & 0xFFFF);
        dest[to + 6] = WorldLayout.decode(x0, sx, (int) (w1 >>> 32) & 0xFFFF);
        dest[to + 7] = WorldLayout.decode(y0, sy, (int) (w1 >>> 48));
        dest[to + 8] = WorldLayout.decode(z0, sz, (int) w2 & 0xFFFF);
        dest[to + 9] = WorldLayout.decode(x0, sx, (int) (w2 >>> 16) & 0xFFFF);
        dest[to + 10] = WorldLayout.decode(y0, sy, (int) (w2 >>> 32) & 0xFFFF);
        dest[to + 11] = WorldLayout.decode(z0, sz, (int) (w2 >>> 48));
    }

    /**
     * The {@code i}-th of a node's 12 quantized coordinates (child A's min x, y, z, max x, y, z, then child B's),
     * from the node's three little-endian words of four 16-bit codes each.
     */
    private static int code(long w0, long w1, long w2, int i) {
        long word = i < 4 ? w0 : i < 8 ? w1 : w2;
        return (int) (word >>> ((i & 3) << 4)) & 0xFFFF;
    }

    @Override
    public void getTightBox(int handle, double[] dest) {
        int reader = enter();
        try {
            requireHandle(handle);
            Arguments.requireBoxDestination(dest);
            long o = boxBase(handle);
            toWorld(readFloat(o), readFloat(o + 4), readFloat(o + 8),
                    readFloat(o + 12), readFloat(o + 16), readFloat(o + 20), dest);
        } finally {
            exit(reader);
        }
    }

    private void toWorld(float x0, float y0, float z0, float x1, float y1, float z1, double[] dest) {
        dest[0] = originX + x0;
        dest[1] = originY + y0;
        dest[2] = originZ + z0;
        dest[3] = originX + x1;
        dest[4] = originY + y1;
        dest[5] = originZ + z1;
    }

    @Override
    public void queryAabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                          long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        regionQuery(BOX, minX - originX, minY - originY, minZ - originZ, maxX - originX, maxY - originY, maxZ - originZ,
                null, null, RegionMode.CROSSING, categoryMask, null, visitor, stack);
    }

    /**
     * Visits every object whose stored tight box overlaps the closed sphere (touching counts; canonical test
     * {@link SphereAabb#test}) and whose category bits share a bit with {@code categoryMask}, until the visitor
     * returns {@code false}. The same as {@link #querySphere(double, double, double, double, RegionMode, long,
     * QueryFilter, OverlapVisitor, TraversalStack)} in {@link RegionMode#CROSSING} mode without a filter.
     *
     * @param centerX      centre x
     * @param centerY      centre y
     * @param centerZ      centre z
     * @param radius       radius, finite and {@code >= 0}
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor      receives the objects
     * @param stack        the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or one above
     *                                  {@link Arguments#MAX_RADIUS}, or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    public void querySphere(double centerX, double centerY, double centerZ, double radius, long categoryMask,
                            OverlapVisitor visitor, TraversalStack stack) {
        querySphere(centerX, centerY, centerZ, radius, RegionMode.CROSSING, categoryMask, null, visitor, stack);
    }

    /**
     * Objects whose stored tight box overlaps ({@link RegionMode#CROSSING}, {@link RegionMode#CROSSING_CONSERVATIVE}:
     * the same here) or lies inside ({@link RegionMode#WINDOW}) the closed sphere, with the per-box decisions of
     * {@link RegionTests#classifySphere} (the same as the dynamic tree's {@code RegionQueries}). The shape is moved
     * into the world's frame ({@code world - origin}, in double) and tested against the stored floats, in the crossing
     * modes with the radius grown by the exact error of that move ({@link RegionTests#frameRadius}).
     *
     * @param centerX      centre x
     * @param centerY      centre y
     * @param centerZ      centre z
     * @param radius       radius, finite and {@code >= 0}
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor, or {@code null}
     * @param visitor      receives the objects; returns false to stop
     * @param stack        the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or one above
     *                                  {@link Arguments#MAX_RADIUS}, or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void querySphere(double centerX, double centerY, double centerZ, double radius, RegionMode mode,
                            long categoryMask, QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        requireSphere(centerX, centerY, centerZ, radius);
        requireRegionArguments(mode, visitor, stack);
        regionQuery(SPHERE, centerX - originX, centerY - originY, centerZ - originZ,
                RegionTests.frameRadius(centerX, centerY, centerZ, originX, originY, originZ, radius, mode), 0, 0,
                null, null, mode, categoryMask, filter, visitor, stack);
    }

    /**
     * Objects whose stored tight box overlaps (the crossing modes: the objects of {@link #queryAabb}, plus the
     * filter) or lies inside ({@link RegionMode#WINDOW}: orthographic window selection) the closed query box, with
     * the per-box decisions of {@link RegionTests#classifyBox}.
     *
     * @param minX         query min x
     * @param minY         query min y
     * @param minZ         query min z
     * @param maxX         query max x
     * @param maxY         query max y
     * @param maxZ         query max z
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor, or {@code null}
     * @param visitor      receives the objects; returns false to stop
     * @param stack        the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite or inverted box or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void queryBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         RegionMode mode, long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                         TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        requireRegionArguments(mode, visitor, stack);
        regionQuery(BOX, minX - originX, minY - originY, minZ - originZ, maxX - originX, maxY - originY,
                maxZ - originZ, null, null, mode, categoryMask, filter, visitor, stack);
    }

    /**
     * Objects whose stored tight box overlaps or lies inside the closed oriented box given in {@link ObbLayout}
     * (write a validated {@link Obb} there with {@link Obb#writeTo}), with the per-box decisions of
     * {@link RegionTests#classifyObb}: overlap is the 15-axis separating axis test, conservative by its epsilon
     * (about {@code 1e-10} of the extents). Both crossing modes are the same.
     *
     * @param obb          array holding the oriented box
     * @param offset       where it starts
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor, or {@code null}
     * @param visitor      receives the objects; returns false to stop
     * @param stack        the calling thread's scratch memory
     * @throws IllegalArgumentException if the layout holds a non-finite value, a negative half extent or axes that
     *                                  are not orthonormal within {@link Obb#ORTHONORMAL_TOLERANCE}, or for null
     *                                  arguments
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void queryObb(double[] obb, int offset, RegionMode mode, long categoryMask, QueryFilter filter,
                         OverlapVisitor visitor, TraversalStack stack) {
        Obb.validate("obb", obb, offset);
        requireRegionArguments(mode, visitor, stack);
        // the centre moved into the world's frame (the half extents grown by the move's rounding for the crossing
        // modes) and the axes made orthonormal as the kernel takes them, in the stack's double scratch (region
        // queries use no other)
        double[] local = stack.fractions(ObbLayout.STRIDE);
        RegionTests.frameObb(obb, offset, originX, originY, originZ, mode, local);
        regionQuery(OBB, 0, 0, 0, 0, 0, 0, local, null, mode, categoryMask, filter, visitor, stack);
    }

    /**
     * Objects whose stored tight box overlaps or lies inside a convex region (a frustum, a marquee sub-frustum, any
     * convex polyhedron), with the per-box decisions of {@link RegionTests#acceptsConvex}:
     * {@link RegionMode#CROSSING} is exact and needs a bounded region, {@link RegionMode#CROSSING_CONSERVATIVE} is
     * the plane test alone (may report boxes near an edge or corner that miss the region, never misses one that
     * meets it), {@link RegionMode#WINDOW} takes boxes inside every plane. The region is moved into the world's
     * frame by {@link ConvexRegion#translated} (cached by the region).
     *
     * @param region       the prepared region
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor, or {@code null}
     * @param visitor      receives the objects; returns false to stop
     * @param stack        the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments, or {@link RegionMode#CROSSING} with an unbounded region
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void queryConvex(ConvexRegion region, RegionMode mode, long categoryMask, QueryFilter filter,
                            OverlapVisitor visitor, TraversalStack stack) {
        requireConvexArguments(region, mode);
        requireRegionArguments(mode, visitor, stack);
        regionQuery(CONVEX, 0, 0, 0, 0, 0, 0, null, region.translated(originX, originY, originZ), mode,
                categoryMask, filter, visitor, stack);
    }

    /** The sphere query's own checks, shared with composite worlds: a finite centre and radius, radius >= 0. */
    static void requireSphere(double centerX, double centerY, double centerZ, double radius) {
        Arguments.requireFinite("centerX", centerX);
        Arguments.requireFinite("centerY", centerY);
        Arguments.requireFinite("centerZ", centerZ);
        Arguments.requireRadius("radius", radius);
    }

    /** The convex query's own checks, shared with composite worlds: a region, and a bounded one for CROSSING. */
    static void requireConvexArguments(ConvexRegion region, RegionMode mode) {
        RegionTests.requireConvexQuery(region, mode);
    }

    private void requireRegionArguments(RegionMode mode, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireNonNull("mode", mode);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
    }

    /** {@link #region} as a reader of the mapping ({@link #enter}), for the public region queries. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private void regionQuery(int kind, double p0, double p1, double p2, double p3, double p4, double p5,
                             double[] obb, ConvexRegion convex, RegionMode mode, long mask, QueryFilter filter,
                             OverlapVisitor visitor, TraversalStack stack) {
        int reader = enter();
        try {
            region(kind, p0, p1, p2, p3, p4, p5, obb, convex, mode, mask, filter, visitor, stack);
        } finally {
            exit(reader);
        }
    }

    /**
     * The one region traversal over the mapped nodes (every region query and the box query); the shape is in the
     * world's frame: p0..p5 a box or a sphere, {@code obb} an oriented box at offset 0, or {@code convex}.
     * Hierarchical culling as the dynamic tree's region queries: a child outside the shape is skipped, a child
     * inside it is taken whole without further tests (Bullet's {@code btDbvt::collideKDOP}), and for convex
     * regions each child carries the planes it still crosses (Assarsson and Möller 2000). Children are classified
     * on their decoded (conservative) boxes, objects decided on their stored boxes with the per-box decisions of
     * {@link RegionTests}; a single-object leaf skips its decoded box and goes straight to the object's. Composite
     * worlds ({@link TiledWorld}) call it directly with the shape already in this world's frame and validated, so
     * the mode's null check is theirs too.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    boolean region(int kind, double p0, double p1, double p2, double p3, double p4, double p5, double[] obb,
                   ConvexRegion convex, RegionMode mode, long mask, QueryFilter filter,
                   OverlapVisitor visitor, TraversalStack stack) {
        int mark = stack.beginQuery();
        try {
            boolean completed = regionWalk(kind, p0, p1, p2, p3, p4, p5, obb, convex, mode, mask, filter, visitor,
                    stack);
            stack.checkQuery(mark);
            return completed;
        } catch (RuntimeException e) {
            throw stack.failure(e, mark);
        }
    }

    /** {@link #region} inside the stack's mark. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private boolean regionWalk(int kind, double p0, double p1, double p2, double p3, double p4, double p5,
                               double[] obb, ConvexRegion convex, RegionMode mode, long mask, QueryFilter filter,
                               OverlapVisitor visitor, TraversalStack stack) {
        if (objectCount == 0) {
            return true;
        }
        final int allPlanes = RegionTests.rootState(kind, convex);
        int rootState = RegionTests.classifySubtree(kind, p0, p1, p2, p3, p4, p5, obb, 0, convex, mode, allPlanes,
                true, rootBounds[0], rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5]);
        if (rootState == FrustumAabb.CULLED) {
            return true;
        }
        if (rootRef < 0) {
            return reportRun(kind, p0, p1, p2, p3, p4, p5, obb, convex, mode, rootState, rootRef, mask, filter,
                    visitor, stack);
        }
        final int fold = WorldLayout.foldCategories(mask);
        // (node, state) pairs in windowed order (TraversalStack.ring) and the decoded box of each; a valid file
        // never fills the ring
        final int[] st = stack.ring(height, 2);
        final int wrap = st.length - 1;
        final float[] fb = stack.floats(ENTRY_BOXES + 3 * st.length);
        final int window = 2 * TraversalStack.window(nodeCount);
        int head = 0;
        int sp = 0;
        st[sp++] = 0;
        st[sp++] = rootState;
        System.arraycopy(rootBounds, 0, fb, ENTRY_BOXES, 6);
        long nodes = 0;
        int early = 0;
        while (sp != head) {
            final int at = sp - head < window ? (head += 2) - 2 : (sp -= 2);
            final int node = st[at & wrap];
            final int state = st[(at + 1) & wrap];
            long base = openNode(++nodes, node);
            decodeChildren(base, fb, ENTRY_BOXES + 3 * (at & wrap), fb, 0);
            long refs = readLong(base + WorldLayout.NODE_REF_A);
            long summaries = readLong(base + WorldLayout.NODE_CATEGORIES_A);
            for (int c = 0; c < 2; c++) {
                if (((int) (summaries >>> (c << 5)) & fold) == 0) {
                    continue;
                }
                int ref = (int) (refs >>> (c << 5));
                int o = 6 * c;
                int childState = state;
                if (state != 0 && (ref >= 0 || WorldLayout.leafCount(ref) > 1)) {
                    childState = RegionTests.classifySubtree(kind, p0, p1, p2, p3, p4, p5, obb, 0, convex, mode,
                            state, true, fb[o], fb[o + 1], fb[o + 2], fb[o + 3], fb[o + 4], fb[o + 5]);
                    if (childState == FrustumAabb.CULLED) {
                        continue;
                    }
                }
                if (ref < 0) {
                    if (!reportRun(kind, p0, p1, p2, p3, p4, p5, obb, convex, mode, childState, checkLeaf(node, ref),
                            mask, filter, visitor, stack)) {
                        stack.countVisits(nodes, 0);
                        return false;
                    }
                    continue;
                }
                if (sp - head == st.length) {
                    throw corruptAtQuery("the tree is deeper than its header says (" + height + ")");
                }
                System.arraycopy(fb, o, fb, ENTRY_BOXES + 3 * (sp & wrap), 6);
                int child = checkChild(node, ref);
                early += readInt(nodeBase(child));
                st[sp++ & wrap] = child;
                st[sp++ & wrap] = childState;
            }
        }
        stack.countVisits(nodes, 0);
        stack.retain(early);
        return true;
    }

    /**
     * Reports the objects of a leaf run the region query reached in {@code state} (0: inside, taken whole), each
     * decided on its stored box ({@link RegionTests#acceptsObject}), then by category and filter.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private boolean reportRun(int kind, double p0, double p1, double p2, double p3, double p4, double p5,
                              double[] obb, ConvexRegion convex, RegionMode mode, int state, int ref, long mask,
                              QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        int first = WorldLayout.leafFirst(ref);
        int end = first + WorldLayout.leafCount(ref);
        if (state != 0) {
            stack.countVisits(0, end - first);
        }
        for (int object = first; object < end; object++) {
            if (state != 0) {
                long b = boxBase(object);
                if (!RegionTests.acceptsObject(kind, p0, p1, p2, p3, p4, p5, obb, 0, convex, mode, state,
                        readFloat(b), readFloat(b + 4), readFloat(b + 8),
                        readFloat(b + 12), readFloat(b + 16), readFloat(b + 20))) {
                    continue;
                }
            }
            if (!reportOverlap(object, mask, filter, visitor)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the mask decides the exact category test without reading the object's record: with every mask bit
     * set, {@code (bits & mask) != 0} means {@code bits != 0}, which the header's no-zero flag guarantees for every
     * object. The common all-categories query then reads no category record.
     */
    private boolean categoryDecided(long mask) {
        return mask == -1L && noZeroCategory;
    }

    /** Reports an object whose box the query accepted, after the exact category test and the filter. */
    private boolean reportOverlap(int object, long mask, QueryFilter filter, OverlapVisitor visitor) {
        if (!categoryDecided(mask) && (categoryAt(object) & mask) == 0) {
            return true;
        }
        long userValue = userValueAt(object);
        if (filter != null && !filter.accept(object, userValue)) {
            return true;
        }
        return visitor.visit(object, userValue);
    }


    /**
     * {@inheritDoc} The per-box decisions are the dynamic tree's ({@link SweepTests}, as
     * {@code SweepQueries.sweepBox}), so both report the same objects and times for the same stored boxes and
     * origin; a leaf run's objects are reported in order of time, ties by handle.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void sweepBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor,
                         TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        int reader = enter();
        try {
            SweepTests.beginBoxSweep(visitor, minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz);
            sweepUnchecked(SweepTests.BOX, minX - originX, minY - originY, minZ - originZ, maxX - originX,
                    maxY - originY, maxZ - originZ, dx, dy, dz, 1.0, categoryMask, visitor, stack);
        } finally {
            exit(reader);
        }
    }

    /**
     * {@inheritDoc} The same answers as the dynamic tree's {@code SweepQueries.sweepSphere} for the same stored
     * boxes and origin.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void sweepSphere(double centerX, double centerY, double centerZ, double radius, double dx, double dy,
                            double dz, long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        requireSphere(centerX, centerY, centerZ, radius);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        int reader = enter();
        try {
            visitor.begin(centerX, centerY, centerZ, dx, dy, dz, 1.0);
            double px = centerX - originX;
            double py = centerY - originY;
            double pz = centerZ - originZ;
            sweepUnchecked(SweepTests.SPHERE, px, py, pz, radius,
                    SweepTests.sphereCullRadius(px, py, pz, radius, dx, dy, dz), 0, dx, dy, dz, 1.0, categoryMask,
                    visitor,
                    stack);
        } finally {
            exit(reader);
        }
    }

    /**
     * The ordered sweep over the mapped nodes, shape in the world's frame. A child (node or leaf run) is entered by
     * its conservative bound on its decoded box ({@link SweepTests#boundContact}) and pushed near-last
     * ({@link TraversalStack#pushNearLast}, as the tree's sweeps); a popped run computes its objects' exact times
     * ({@link SweepTests#exactContact}) on their stored boxes and reports them in order of time (ties by handle),
     * so objects come out roughly front to back, and a clip from the visitor drops every entry beyond it. Only
     * contacts up to {@code clip} are reported (a composite world's clip carried from its other parts); times are
     * always those of the whole frame. No argument checks and no {@code visitor.begin}.
     *
     * @return the clipped maximum time after the sweep, or {@link #STOPPED} if the visitor stopped it
     */
    double sweepUnchecked(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                          double dx, double dy, double dz, double clip, long mask, RayCastVisitor visitor,
                          TraversalStack stack) {
        int mark = stack.beginQuery();
        try {
            double max = sweepWalk(shape, p0, p1, p2, p3, p4, p5, dx, dy, dz, clip, mask, visitor, stack);
            stack.checkQuery(mark);
            return max;
        } catch (RuntimeException e) {
            throw stack.failure(e, mark);
        }
    }

    /** {@link #sweepUnchecked} inside the stack's mark. */
    private double sweepWalk(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                             double dx, double dy, double dz, double clip, long mask, RayCastVisitor visitor,
                             TraversalStack stack) {
        if (objectCount == 0) {
            return clip;
        }
        final double ix = SegmentAabb.inverse(dx);
        final double iy = SegmentAabb.inverse(dy);
        final double iz = SegmentAabb.inverse(dz);
        double rootEntry = SweepTests.boundContact(shape, p0, p1, p2, p3, p4, p5, ix, iy, iz, clip, rootBounds[0],
                rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5]);
        if (rootEntry < 0) {
            return clip;
        }
        final int fold = WorldLayout.foldCategories(mask);
        // each popped node pushes at most 2 entries and leaves at most one sibling per level behind; a popped run
        // sorts its objects' times in the room above the stack
        int[] st = stack.references(height + 3 + WorldLayout.MAX_LEAF_SIZE);
        double[] sf = stack.fractions(height + 3 + WorldLayout.MAX_LEAF_SIZE);
        float[] fb = stack.floats(ENTRY_BOXES + 6 * (height + 3));
        final int capacity = Math.min(Math.min(st.length, sf.length) - WorldLayout.MAX_LEAF_SIZE,
                (fb.length - ENTRY_BOXES) / 6);
        double max = clip;
        double popBound = max * Geom.ROBUST_FAR_SCALE;
        int sp = 0;
        st[sp] = rootRef;
        sf[sp++] = rootEntry;
        System.arraycopy(rootBounds, 0, fb, ENTRY_BOXES, 6);
        long nodes = 0;
        long leaves = 0;
        while (sp > 0) {
            sp--;
            double entry = sf[sp];
            if (entry > popBound) {
                continue;
            }
            int ref = st[sp];
            if (ref < 0) {
                checkPoppedLeaf(ref);
                int first = WorldLayout.leafFirst(ref);
                int count = WorldLayout.leafCount(ref);
                leaves += count;
                // the run's hits, sorted by (time, handle) in the free room at st[sp ..], sf[sp ..]
                int hits = 0;
                for (int object = first; object < first + count; object++) {
                    long b = boxBase(object);
                    double t = SweepTests.exactContact(shape, p0, p1, p2, p3, p4, p5, dx, dy, dz, ix, iy, iz,
                            readFloat(b), readFloat(b + 4), readFloat(b + 8),
                            readFloat(b + 12), readFloat(b + 16), readFloat(b + 20));
                    if (t < 0 || t > max) {
                        continue;
                    }
                    int j = sp + hits++;
                    while (j > sp && sf[j - 1] > t) {
                        st[j] = st[j - 1];
                        sf[j] = sf[j - 1];
                        j--;
                    }
                    st[j] = object;
                    sf[j] = t;
                }
                for (int i = sp; i < sp + hits; i++) {
                    if (sf[i] > max) {
                        break;
                    }
                    max = RayCastVisitor.nextMaxFraction(reportHit(checkPoppedObject(st[i]), sf[i], mask, visitor),
                            max);
                    if (max == RayCastVisitor.STOP) {
                        stack.countVisits(nodes, leaves);
                        return STOPPED;
                    }
                    popBound = max * Geom.ROBUST_FAR_SCALE;
                }
                continue;
            }
            if (sp + 2 > capacity) {
                throw corruptAtQuery("the tree is deeper than its header says (" + height + ")");
            }
            long base = openNode(++nodes, ref);
            decodeChildren(base, fb, ENTRY_BOXES + 6 * sp, fb, 0);
            long refs = readLong(base + WorldLayout.NODE_REF_A);
            long summaries = readLong(base + WorldLayout.NODE_CATEGORIES_A);
            int refA = checkReference(ref, (int) refs);
            int refB = checkReference(ref, (int) (refs >>> 32));
            double tA = ((int) summaries & fold) == 0 ? Geom.NO_HIT : sweepBound(shape, p0, p1, p2, p3, p4, p5, ix,
                    iy, iz, max, fb, 0);
            double tB = ((int) (summaries >>> 32) & fold) == 0 ? Geom.NO_HIT : sweepBound(shape, p0, p1, p2, p3, p4,
                    p5, ix, iy, iz, max, fb, 6);
            int at = sp;
            sp = TraversalStack.pushNearLast(st, sf, sp, refA, tA, refB, tB);
            // the decoded boxes of the pushed nodes go with their entries
            for (int i = at; i < sp; i++) {
                if (st[i] >= 0) {
                    System.arraycopy(fb, st[i] == refA && tA >= 0 ? 0 : 6, fb, ENTRY_BOXES + 6 * i, 6);
                }
            }
        }
        stack.countVisits(nodes, leaves);
        return max;
    }

    /** The bound entry of a child of a sweep from its decoded box at {@code box[at ..]}. */
    private static double sweepBound(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                                     double ix, double iy, double iz, double max, float[] box, int at) {
        return SweepTests.boundContact(shape, p0, p1, p2, p3, p4, p5, ix, iy, iz, max, box[at], box[at + 1],
                box[at + 2], box[at + 3], box[at + 4], box[at + 5]);
    }


    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void nearest(double x, double y, double z, double maxDistance, long categoryMask, QueryFilter filter,
                        DistanceFunction exact, NearestNeighbours dest) {
        kNearest(x, y, z, 1, maxDistance, categoryMask, filter, exact, dest);
    }

    /**
     * {@inheritDoc} The search runs over the mapped nodes, with the dynamic tree's search step
     * ({@link NearestNeighbours#nextNode}) and keys ({@link RegionTests#squaredDistance} of {@code point - origin}
     * to the stored boxes), as {@code NearestQueries.kNearest}: the same objects in the same order for the same
     * stored boxes and origin. The handle that breaks a tie is the object's storage position.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void kNearest(double x, double y, double z, int k, double maxDistance, long categoryMask,
                         QueryFilter filter, DistanceFunction exact, NearestNeighbours dest) {
        Arguments.requireNearest(x, y, z, k, maxDistance, dest);
        int reader = enter();
        try {
            searchNearest(x, y, z, k, null, maxDistance, categoryMask, filter, exact, dest);
        } finally {
            exit(reader);
        }
    }

    /**
     * {@inheritDoc} The same search as {@link #kNearest} (as {@code NearestQueries.browseNearest} on a tree).
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void browseNearest(double x, double y, double z, double maxDistance, long categoryMask,
                              QueryFilter filter, DistanceFunction exact, NearestVisitor visitor,
                              NearestNeighbours scratch) {
        Arguments.requireNonNull("scratch", scratch);
        Arguments.requireNearest(x, y, z, 0, maxDistance, scratch);
        Arguments.requireNonNull("visitor", visitor);
        int reader = enter();
        try {
            searchNearest(x, y, z, 0, visitor, maxDistance, categoryMask, filter, exact, scratch);
        } finally {
            exit(reader);
        }
    }

    /** The best-first search of both forms: up to {@code k} results, or browsing when {@code visitor} is set. */
    private void searchNearest(double x, double y, double z, int k, NearestVisitor visitor, double maxDistance,
                               long categoryMask, QueryFilter filter, DistanceFunction exact,
                               NearestNeighbours dest) {
        final double px = x - originX;
        final double py = y - originY;
        final double pz = z - originZ;
        Arguments.requireWithinNearestReach(px, py, pz);
        final int mark = dest.beginQuery();
        dest.clear();
        if (k == 0 && visitor == null || objectCount == 0) {
            return;
        }
        final double limit = NearestNeighbours.squaredLimit(maxDistance);
        if (rootRef < 0) {
            nearestRun(rootRef, px, py, pz, limit, categoryMask, filter, exact, dest, mark);
            dest.nextNode(k, visitor, limit, exact, x, y, z);
            dest.checkQuery(mark);
            return;
        }
        final int fold = WorldLayout.foldCategories(categoryMask);
        // queued nodes are slots of the result list's node lanes: the node index, and its decoded box at
        // ENTRY_BOXES + 6 * slot; the opened node's children are decoded at 0
        int slots = 1;
        dest.nodeInts(1)[0] = 0;
        System.arraycopy(rootBounds, 0, dest.nodeFloats(ENTRY_BOXES + 6), ENTRY_BOXES, 6);
        dest.pushRoot(0);
        long nodes = 0;
        for (int slot = dest.nextNode(k, visitor, limit, exact, x, y, z); slot != NearestNeighbours.DONE;
                slot = dest.nextNode(k, visitor, limit, exact, x, y, z)) {
            // the node lanes are what the filter, distance function and visitor may have searched on
            dest.checkQuery(mark);
            int[] ints = dest.nodeInts(slots + 2);
            float[] fb = dest.nodeFloats(ENTRY_BOXES + 6 * (slots + 2));
            int node = ints[slot];
            long base = openNode(++nodes, node);
            decodeChildren(base, fb, ENTRY_BOXES + 6 * slot, fb, 0);
            long refs = readLong(base + WorldLayout.NODE_REF_A);
            long summaries = readLong(base + WorldLayout.NODE_CATEGORIES_A);
            for (int c = 0; c < 2; c++) {
                if (((int) (summaries >>> (c << 5)) & fold) == 0) {
                    continue;
                }
                int ref = (int) (refs >>> (c << 5));
                int o = 6 * c;
                if (ref < 0 && WorldLayout.leafCount(ref) == 1) {
                    nearestRun(checkLeaf(node, ref), px, py, pz, limit, categoryMask, filter, exact, dest, mark);
                    continue;
                }
                double d = RegionTests.squaredDistance(px, py, pz, fb[o], fb[o + 1], fb[o + 2], fb[o + 3],
                        fb[o + 4], fb[o + 5]);
                if (d > limit) {
                    continue;
                }
                if (ref < 0) {
                    nearestRun(checkLeaf(node, ref), px, py, pz, limit, categoryMask, filter, exact, dest, mark);
                    continue;
                }
                ints[slots] = checkChild(node, ref);
                System.arraycopy(fb, o, fb, ENTRY_BOXES + 6 * slots, 6);
                dest.pushNode(d, slots++);
            }
        }
        dest.checkQuery(mark);
    }

    /**
     * Queues the objects of a leaf run for a nearest query, each by the distance to its stored box, after the
     * category test and the filter ({@code mark}: the search's, {@link NearestNeighbours#beginQuery}).
     */
    private void nearestRun(int ref, double px, double py, double pz, double limit, long mask, QueryFilter filter,
                            DistanceFunction exact, NearestNeighbours dest, int mark) {
        int first = WorldLayout.leafFirst(ref);
        int end = first + WorldLayout.leafCount(ref);
        for (int object = first; object < end; object++) {
            if (!categoryDecided(mask) && (categoryAt(object) & mask) == 0) {
                continue;
            }
            long userValue = userValueAt(object);
            if (filter != null) {
                boolean accepted = filter.accept(object, userValue);
                // before anything reads the heap again: a search run on it from inside the filter replaced it
                dest.checkQuery(mark);
                if (!accepted) {
                    continue;
                }
            }
            long b = boxBase(object);
            double d = RegionTests.squaredDistance(px, py, pz, readFloat(b), readFloat(b + 4),
                    readFloat(b + 8), readFloat(b + 12), readFloat(b + 16),
                    readFloat(b + 20));
            if (d <= limit) {
                dest.pushObject(d, object, userValue, exact != null);
            }
        }
    }

    @Override
    public void rayCast(double originX, double originY, double originZ,
                        double translationX, double translationY, double translationZ, double maxFraction,
                        long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        Arguments.requireSegment(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        Arguments.requireStartInFrame(originX, originY, originZ, maxFraction, this.originX, this.originY,
                this.originZ);
        int reader = enter();
        try {
            visitor.begin(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
            visitor.frame(this.originX, this.originY, this.originZ);
            castUnchecked(originX, originY, originZ, translationX, translationY, translationZ, maxFraction, maxFraction,
                    categoryMask, visitor, stack);
        } finally {
            exit(reader);
        }
    }

    /**
     * The ray cast without argument checks and without {@code visitor.begin}, for composite worlds: fractions are
     * computed against {@code maxFraction} (so they are bit-equal to a single-index cast), and only hits up to
     * {@code clip} are reported.
     *
     * @return the clipped maximum fraction after the cast, or {@link #STOPPED} if the visitor stopped it
     */
    double castUnchecked(double originX, double originY, double originZ,
                         double translationX, double translationY, double translationZ, double maxFraction,
                         double clip, long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        int mark = stack.beginQuery();
        try {
            double max = castWalk(originX, originY, originZ, translationX, translationY, translationZ, maxFraction,
                    clip, categoryMask, visitor, stack);
            stack.checkQuery(mark);
            return max;
        } catch (RuntimeException e) {
            throw stack.failure(e, mark);
        }
    }

    /** {@link #castUnchecked} inside the stack's mark. */
    private double castWalk(double originX, double originY, double originZ,
                            double translationX, double translationY, double translationZ, double maxFraction,
                            double clip, long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        if (objectCount == 0) {
            return clip;
        }
        final double ox = originX - this.originX;
        final double oy = originY - this.originY;
        final double oz = originZ - this.originZ;
        final double ix = SegmentAabb.inverse(translationX);
        final double iy = SegmentAabb.inverse(translationY);
        final double iz = SegmentAabb.inverse(translationZ);
        double max = clip;
        double t = SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, maxFraction, rootBounds[0], rootBounds[1],
                rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5]);
        if (t < 0.0 || t > max) {
            return max;
        }
        if (rootRef < 0) {
            return castRun(rootRef, ox, oy, oz, ix, iy, iz, maxFraction, max, categoryMask, visitor, stack);
        }
        final int fold = WorldLayout.foldCategories(categoryMask);
        // each stack entry's decoded box is at 6 * its index in the float lane; a popped node's pushed children
        // take its slot and the one above it
        int[] refs = stack.references(height + 3);
        double[] entries = stack.fractions(height + 3);
        float[] fb = stack.floats(6 * (height + 3));
        // room for two pushes (entries and boxes) below capacity
        final int capacity = Math.min(Math.min(refs.length, entries.length) - 1, fb.length / 6 - 2);
        int top = 0;
        refs[top] = 0;
        entries[top++] = t;
        System.arraycopy(rootBounds, 0, fb, 0, 6);
        long nodes = 0;
        traversal:
        while (top > 0) {
            int node = refs[--top];
            if (entries[top] > max) {
                continue;
            }
            long base = openNode(++nodes, node);
            // the children's boxes are decoded into registers and tested there; only a pushed child's box is
            // written to the stack (decodeChildren's rule, inlined: a popped node has no use for the rest)
            final int a = 6 * top;
            final float x0 = fb[a];
            final float y0 = fb[a + 1];
            final float z0 = fb[a + 2];
            final float sx = WorldLayout.scale(x0, fb[a + 3]);
            final float sy = WorldLayout.scale(y0, fb[a + 4]);
            final float sz = WorldLayout.scale(z0, fb[a + 5]);
            final long w0 = readLong(base + WorldLayout.NODE_BOXES);
            final long w1 = readLong(base + WorldLayout.NODE_BOXES + 8);
            final long w2 = readLong(base + WorldLayout.NODE_BOXES + 16);
            final float a0 = WorldLayout.decode(x0, sx, code(w0, w1, w2, 0));
            final float a1 = WorldLayout.decode(y0, sy, code(w0, w1, w2, 1));
            final float a2 = WorldLayout.decode(z0, sz, code(w0, w1, w2, 2));
            final float a3 = WorldLayout.decode(x0, sx, code(w0, w1, w2, 3));
            final float a4 = WorldLayout.decode(y0, sy, code(w0, w1, w2, 4));
            final float a5 = WorldLayout.decode(z0, sz, code(w0, w1, w2, 5));
            final float b0 = WorldLayout.decode(x0, sx, code(w0, w1, w2, 6));
            final float b1 = WorldLayout.decode(y0, sy, code(w0, w1, w2, 7));
            final float b2 = WorldLayout.decode(z0, sz, code(w0, w1, w2, 8));
            final float b3 = WorldLayout.decode(x0, sx, code(w0, w1, w2, 9));
            final float b4 = WorldLayout.decode(y0, sy, code(w0, w1, w2, 10));
            final float b5 = WorldLayout.decode(z0, sz, code(w0, w1, w2, 11));
            long childRefs = readLong(base + WorldLayout.NODE_REF_A);
            long summaries = readLong(base + WorldLayout.NODE_CATEGORIES_A);
            // nodes are culled against the clipped maximum, objects' fractions computed against maxFraction (as
            // every index of the library does, so answers are bit-equal) and compared with the clipped maximum
            double tA = ((int) summaries & fold) == 0 ? Geom.NO_HIT
                    : SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, max, a0, a1, a2, a3, a4, a5);
            double tB = ((int) (summaries >>> 32) & fold) == 0 ? Geom.NO_HIT
                    : SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, max, b0, b1, b2, b3, b4, b5);
            if (tA < 0.0 && tB < 0.0) {
                continue;
            }
            int refA = (int) childRefs;
            int refB = (int) (childRefs >>> 32);
            // nearer child first (Box2D visits the nearer child first; here by entry fraction): leaf runs are
            // reported at once, in order, and drop out; the nodes left are pushed far first so the near one pops next
            int near = tB >= 0.0 && (tA < 0.0 || tB < tA) ? 1 : 0;
            for (int i = 0; i < 2; i++) {
                int c = near ^ i;
                int ref = c == 0 ? refA : refB;
                double tc = c == 0 ? tA : tB;
                if (ref >= 0 || !(tc >= 0.0)) {
                    continue;
                }
                if (tc <= max) {
                    max = castRun(checkLeaf(node, ref), ox, oy, oz, ix, iy, iz, maxFraction, max, categoryMask,
                            visitor, stack);
                    if (max == STOPPED) {
                        break traversal;
                    }
                }
                if (c == 0) {
                    tA = Geom.NO_HIT;
                } else {
                    tB = Geom.NO_HIT;
                }
            }
            boolean pushA = tA >= 0.0 && tA <= max;
            boolean pushB = tB >= 0.0 && tB <= max;
            if (!pushA && !pushB) {
                continue;
            }
            if (top >= capacity) {
                throw corruptAtQuery("the tree is deeper than its header says (" + height + ")");
            }
            // far first, so the nearer child pops next (on equal fractions A pops first); each entry's box goes to
            // the slot of its entry
            boolean aBelow = pushA && (!pushB || tB < tA);
            if (pushA && pushB) {
                int far = aBelow ? refA : refB;
                int nearRef = aBelow ? refB : refA;
                refs[top] = checkChild(node, far);
                entries[top] = aBelow ? tA : tB;
                refs[top + 1] = checkChild(node, nearRef);
                entries[top + 1] = aBelow ? tB : tA;
                storeBox(fb, aBelow ? a : a + 6, a0, a1, a2, a3, a4, a5);
                storeBox(fb, aBelow ? a + 6 : a, b0, b1, b2, b3, b4, b5);
                top += 2;
            } else if (pushA) {
                refs[top] = checkChild(node, refA);
                entries[top++] = tA;
                storeBox(fb, a, a0, a1, a2, a3, a4, a5);
            } else {
                refs[top] = checkChild(node, refB);
                entries[top++] = tB;
                storeBox(fb, a, b0, b1, b2, b3, b4, b5);
            }
        }
        stack.countVisits(nodes, 0);
        return max;
    }

    /** Writes a decoded box to the stack's float lane at {@code at}. */
    private static void storeBox(float[] fb, int at, float x0, float y0, float z0, float x1, float y1, float z1) {
        fb[at] = x0;
        fb[at + 1] = y0;
        fb[at + 2] = z0;
        fb[at + 3] = x1;
        fb[at + 4] = y1;
        fb[at + 5] = z1;
    }

    /**
     * Casts against the objects of a leaf run on their stored boxes, reporting those entered up to {@code max}.
     *
     * @return the clipped maximum fraction after the run, or {@link #STOPPED} if the visitor stopped the cast
     */
    private double castRun(int ref, double ox, double oy, double oz, double ix, double iy, double iz,
                           double maxFraction, double max, long mask, RayCastVisitor visitor, TraversalStack stack) {
        int first = WorldLayout.leafFirst(ref);
        int end = first + WorldLayout.leafCount(ref);
        stack.countVisits(0, end - first);
        double clip = max;
        for (int object = first; object < end; object++) {
            long b = boxBase(object);
            // the box as three little-endian words: min x and y, min z and max x, max y and z
            long w0 = readLong(b);
            long w1 = readLong(b + 8);
            long w2 = readLong(b + 16);
            double t = SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, maxFraction, low(w0), high(w0),
                    low(w1), high(w1), low(w2), high(w2));
            if (!(t >= 0.0) || t > clip) {
                continue;
            }
            clip = RayCastVisitor.nextMaxFraction(reportHit(object, t, mask, visitor), clip);
            if (clip == RayCastVisitor.STOP) {
                return STOPPED;
            }
        }
        return clip;
    }

    /** Calls the visitor for an object the cast or sweep entered; returns its steering value (negative: ignored). */
    private double reportHit(int object, double fraction, long mask, RayCastVisitor visitor) {
        if (!categoryDecided(mask) && (categoryAt(object) & mask) == 0) {
            return -1.0;
        }
        return visitor.visit(object, userValueAt(object), fraction);
    }

    /**
     * The file offset of a node a query opens as its {@code visits}-th: a query may not open more nodes than the
     * tree has (a reference cycle in a corrupt file would loop forever).
     */
    private long openNode(long visits, int node) {
        if (visits > nodeCount) {
            throw corruptAtQuery("a query visited more nodes than the tree has (reference cycle)");
        }
        if (node < 0 || node >= nodeCount) {
            throw sharedScratch("node " + node + " (the tree has " + nodeCount + ")");
        }
        return nodeBase(node);
    }

    /**
     * A leaf run or object taken back from the caller's scratch is checked again, as a node is by
     * {@link #openNode}: every reference was checked when it was pushed, so one out of range was written by another
     * query into the same scratch (a query nested in a visitor, or on another thread), and following it could read
     * outside the mapping.
     */
    private int checkPoppedLeaf(int ref) {
        if (leafOutside(ref)) {
            throw sharedScratch("leaf run " + WorldLayout.leafFirst(ref) + " + " + WorldLayout.leafCount(ref));
        }
        return ref;
    }

    private int checkPoppedObject(int object) {
        if (object < 0 || object >= objectCount) {
            throw sharedScratch("object " + object + " (the world has " + objectCount + ")");
        }
        return object;
    }

    private IllegalStateException sharedScratch(String what) {
        return new IllegalStateException(file + ": the query's stack holds " + what + ", which this world never put"
                + " there: the TraversalStack or NearestNeighbours is in use by another query at the same time (a"
                + " query run from inside a visitor, filter or distance function needs scratch of its own)");
    }

    /** A leaf reference of {@code node} whose run must lie within the objects. */
    private int checkLeaf(int node, int ref) {
        if (leafOutside(ref)) {
            throw corruptAtQuery(leafMessage(node, ref));
        }
        return ref;
    }

    /** Whether a leaf reference's run of objects reaches past the last object. */
    private boolean leafOutside(int ref) {
        return WorldLayout.leafFirst(ref) > objectCount - WorldLayout.leafCount(ref);
    }

    /** A node reference of {@code node}: a later node of the tree. */
    private int checkChild(int node, int ref) {
        if (ref <= node || ref >= nodeCount) {
            throw corruptAtQuery(childMessage(node, ref));
        }
        return ref;
    }

    private int checkReference(int node, int ref) {
        return ref < 0 ? checkLeaf(node, ref) : checkChild(node, ref);
    }

    private String leafMessage(int node, int ref) {
        return "node " + node + " references the objects [" + WorldLayout.leafFirst(ref) + ", +"
                + WorldLayout.leafCount(ref) + ") of " + objectCount;
    }

    private String childMessage(int node, int ref) {
        return "node " + node + " references node " + ref + " (must be in (" + node + ", " + nodeCount + "))";
    }


    private void checkOpen() {
        if (readers.isClosed()) {
            throw closedException();
        }
    }

    /**
     * Enters as a reader of the mapping, for the length of a query or of any other read of the file: the mapping
     * stays until every reader has left ({@link ReaderCount}). {@link WorldPairs} enters once around all the walks
     * of one call, so a close meanwhile lets the call finish.
     *
     * @return what to pass to {@link #exit}, in a {@code finally}
     * @throws IllegalStateException if the world is closed
     */
    int enter() {
        int reader = readers.enter();
        if (reader < 0) {
            throw closedException();
        }
        return reader;
    }

    /** Leaves as a reader (unmapping the file if it was closed meanwhile and this was the last reader). */
    void exit(int reader) {
        readers.exit(reader);
    }

    private IllegalStateException closedException() {
        return new IllegalStateException("the world " + file + " is closed");
    }

    private void requireHandle(int handle) {
        if (handle < 0 || handle >= objectCount) {
            throw new IllegalArgumentException("handle " + handle + " is not an object of this world (0 .. "
                    + (objectCount - 1) + ")");
        }
    }

    private CorruptWorldFileException corrupt(String what) {
        return new CorruptWorldFileException(file + ": " + what);
    }

    /**
     * The unchecked form a query throws: the cause names the file and the damage, so the wrapper only adds what the
     * caller can do (its default message would repeat the cause's).
     */
    private UncheckedIOException corruptAtQuery(String what) {
        return new UncheckedIOException("a query met a corrupt part of " + file + " (verify() checks the whole file)",
                corrupt(what));
    }

    /** The validated header fields. */
    static final class Header {
        int flags;
        int objectCount;
        int nodeCount;
        int rootRef;
        int height;
        final double[] origin = new double[3];
        final float[] rootBounds = new float[6];
        final long[] offsets = new long[WorldLayout.SECTION_COUNT];
        final long[] lengths = new long[WorldLayout.SECTION_COUNT];
        final int[] crcs = new int[WorldLayout.SECTION_COUNT];

        /** The file length the header was validated against ({@link #read(Path)}). */
        long fileLength;

        /** Rejects a directory, or a file too short to hold a header, before anything is read or mapped. */
        static void requireWorldFile(Path file, long fileLength) throws IOException {
            if (Files.isDirectory(file)) {
                // as the writers report it: the reader's own message would not name the path
                throw new FileSystemException(file.toString(), null, "is a directory, not a world file");
            }
            requireHeader(file, fileLength);
        }

        private static void requireHeader(Path file, long fileLength) throws CorruptWorldFileException {
            if (fileLength < WorldLayout.HEADER_SIZE) {
                throw fail(file, "the file is " + fileLength + " bytes, shorter than the "
                        + WorldLayout.HEADER_SIZE + "-byte header");
            }
        }

        /**
         * Reads and validates the header without mapping the file, against the length of the file read (one
         * version, should a rename replace the file meanwhile).
         */
        static Header read(Path file) throws IOException {
            requireWorldFile(file, Files.size(file));
            ByteBuffer h = ByteBuffer.allocate(WorldLayout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            long fileLength;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                fileLength = channel.size();
                requireHeader(file, fileLength);
                while (h.hasRemaining()) {
                    if (channel.read(h, h.position()) < 0) {
                        throw fail(file, "unexpected end of file in the header");
                    }
                }
            }
            return validate(file, fileLength, h);
        }

        /** Reads and validates the header of a mapped file of {@code fileLength} bytes. */
        static Header read(Path file, long fileLength, MappedBytesStore store) throws IOException {
            requireHeader(file, fileLength);
            byte[] bytes = new byte[WorldLayout.HEADER_SIZE];
            store.read(0, bytes, 0, bytes.length);
            return validate(file, fileLength, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
        }

        private static Header validate(Path file, long fileLength, ByteBuffer h) throws CorruptWorldFileException {
            if (h.getLong(WorldLayout.MAGIC_OFFSET) != WorldLayout.MAGIC) {
                throw fail(file, "not a static world file (wrong magic number)");
            }
            int bom = h.getInt(WorldLayout.BYTE_ORDER_OFFSET);
            if (bom != WorldLayout.BYTE_ORDER_MARK) {
                throw fail(file, bom == Integer.reverseBytes(WorldLayout.BYTE_ORDER_MARK)
                        ? "the file is big-endian; only little-endian files are supported"
                        : "bad byte-order mark " + Integer.toHexString(bom));
            }
            int version = h.getInt(WorldLayout.VERSION_OFFSET);
            if (version != WorldLayout.FORMAT_VERSION) {
                throw fail(file, "unsupported format version " + version + " (this library reads version "
                        + WorldLayout.FORMAT_VERSION + ")");
            }
            if (h.getInt(WorldLayout.HEADER_SIZE_OFFSET) != WorldLayout.HEADER_SIZE) {
                throw fail(file, "header size " + h.getInt(WorldLayout.HEADER_SIZE_OFFSET) + " instead of "
                        + WorldLayout.HEADER_SIZE);
            }
            CRC32C crc = new CRC32C();
            crc.update(h.array(), 0, WorldLayout.HEADER_CRC_OFFSET);
            if ((int) crc.getValue() != h.getInt(WorldLayout.HEADER_CRC_OFFSET)) {
                throw fail(file, "header checksum mismatch");
            }
            Header r = new Header();
            r.parse(file, fileLength, h);
            r.fileLength = fileLength;
            return r;
        }

        private void parse(Path file, long fileLength, ByteBuffer h) throws CorruptWorldFileException {
            flags = h.getInt(WorldLayout.FLAGS_OFFSET);
            if ((flags & ~WorldLayout.KNOWN_FLAGS) != 0) {
                throw fail(file, "unknown flags " + Integer.toHexString(flags));
            }
            for (int at = WorldLayout.RESERVED_OFFSET; at < WorldLayout.HEADER_CRC_OFFSET; at++) {
                if (h.get(at) != 0) {
                    throw fail(file, "reserved header byte " + at + " is not zero");
                }
            }
            long objects = h.getLong(WorldLayout.OBJECT_COUNT_OFFSET);
            if (objects < 0 || objects > BinnedSahBuilder.MAX_OBJECTS) {
                throw fail(file, "object count " + objects + " outside [0, " + BinnedSahBuilder.MAX_OBJECTS + "]");
            }
            objectCount = (int) objects;
            if (objects == 0 && (flags & ~WorldLayout.FLAG_PAYLOAD) != 0) {
                throw fail(file, "category flags " + Integer.toHexString(flags) + " in an empty world");
            }
            long nodes = h.getLong(WorldLayout.NODE_COUNT_OFFSET);
            // every leaf holds 1 to MAX_LEAF_SIZE objects and a binary tree has one leaf more than internal nodes
            long minNodes = Math.max(0, (objects + WorldLayout.MAX_LEAF_SIZE - 1) / WorldLayout.MAX_LEAF_SIZE - 1);
            if (nodes < minNodes || nodes > Math.max(0, objects - 1)) {
                throw fail(file, "node count " + nodes + " for " + objects + " objects (must be in [" + minNodes
                        + ", " + Math.max(0, objects - 1) + "])");
            }
            nodeCount = (int) nodes;
            rootRef = h.getInt(WorldLayout.ROOT_REF_OFFSET);
            int expectedRoot = objects == 0 ? FlatBvh.NULL_REF : nodes == 0 ? WorldLayout.leafRef(0, objectCount) : 0;
            if (rootRef != expectedRoot) {
                throw fail(file, "root reference " + rootRef + " for " + objects + " objects and " + nodes + " nodes");
            }
            height = h.getInt(WorldLayout.HEIGHT_OFFSET);
            int minHeight = nodes == 0 ? 0 : 64 - Long.numberOfLeadingZeros(nodes);
            if (height < minHeight || height > nodes) {
                throw fail(file, "tree height " + height + " impossible for " + nodes + " nodes");
            }
            for (int a = 0; a < 3; a++) {
                origin[a] = h.getDouble(WorldLayout.ORIGIN_OFFSET + 8 * a);
                // the writers' limit (OutwardFloat.MAX_ORIGIN): beyond it a query moved into the frame overflows
                if (!(Math.abs(origin[a]) <= OutwardFloat.MAX_ORIGIN)) {
                    throw fail(file, "origin coordinate " + a + " is not finite or beyond " + OutwardFloat.MAX_ORIGIN
                            + ": " + origin[a]);
                }
            }
            for (int a = 0; a < 6; a++) {
                rootBounds[a] = h.getFloat(WorldLayout.ROOT_BOUNDS_OFFSET + 4 * a);
                if (!Float.isFinite(rootBounds[a])) {
                    throw fail(file, "root bounds are not finite");
                }
            }
            for (int a = 0; a < 6; a++) {
                // the writers store zeros for an empty world; anything else did not come from one
                if (objects == 0 && rootBounds[a] != 0f) {
                    throw fail(file, "root bounds of an empty world are not zeros: coordinate " + a + " is "
                            + rootBounds[a]);
                }
            }
            for (int a = 0; a < 3; a++) {
                if (objects > 0 && rootBounds[a] > rootBounds[3 + a]) {
                    throw fail(file, "root bounds are inverted");
                }
                if (!Float.isFinite(WorldLayout.scale(rootBounds[a], rootBounds[3 + a]))) {
                    throw fail(file, "root bounds overflow the quantization frame");
                }
            }
            boolean indexed = (flags & WorldLayout.FLAG_CATEGORY_PALETTE) != 0;
            long previousEnd = WorldLayout.HEADER_SIZE;
            for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
                int e = WorldLayout.sectionEntryOffset(s);
                String name = WorldLayout.SECTION_NAMES[s];
                long offset = h.getLong(e + WorldLayout.ENTRY_OFFSET);
                long length = h.getLong(e + WorldLayout.ENTRY_LENGTH);
                int recordSize = h.getInt(e + WorldLayout.ENTRY_RECORD_SIZE);
                int expectedSize = WorldLayout.recordSize(s, flags);
                if (recordSize != expectedSize) {
                    throw fail(file, name + " section record size " + recordSize + " instead of " + expectedSize);
                }
                if (length < 0) {
                    // the payload's length is taken as stored, so the comparisons below would report a negative one
                    // as "length L instead of L"
                    throw fail(file, name + " section length " + length + " is negative");
                }
                if (s == WorldLayout.SECTION_PALETTE) {
                    long maxLength = indexed ? (long) WorldLayout.PALETTE_ENTRY_SIZE * Math.min(objects,
                            WorldLayout.MAX_PALETTE_SIZE) : 0;
                    long minLength = indexed ? WorldLayout.PALETTE_ENTRY_SIZE : 0;
                    if (length < minLength || length > maxLength || length % WorldLayout.PALETTE_ENTRY_SIZE != 0) {
                        throw fail(file, name + " section length " + length + " outside [" + minLength + ", "
                                + maxLength + "] or not whole entries");
                    }
                } else {
                    long expected = s == WorldLayout.SECTION_NODES ? nodes * WorldLayout.NODE_SIZE
                            : s == WorldLayout.SECTION_PAYLOAD ? length : objects * recordSize;
                    if (s == WorldLayout.SECTION_PAYLOAD && (flags & WorldLayout.FLAG_PAYLOAD) == 0 && length != 0) {
                        throw fail(file, "payload section of " + length + " bytes without the payload flag");
                    }
                    if (length != expected || length < 0) {
                        throw fail(file, name + " section length " + length + " instead of " + expected);
                    }
                }
                if (offset != WorldLayout.alignUp(previousEnd)) {
                    throw fail(file, name + " section offset " + offset + " instead of " + WorldLayout.alignUp(
                            previousEnd) + " (sections follow each other, each " + WorldLayout.SECTION_ALIGNMENT
                            + "-byte aligned)");
                }
                if (offset > fileLength || length > fileLength - offset) {
                    throw fail(file, name + " section [" + offset + ", +" + length + ") extends past the end of the "
                            + fileLength + "-byte file (truncated?)");
                }
                offsets[s] = offset;
                lengths[s] = length;
                crcs[s] = h.getInt(e + WorldLayout.ENTRY_CRC);
                previousEnd = offset + length;
            }
            if (previousEnd != fileLength) {
                throw fail(file, "the sections end at byte " + previousEnd + " but the file has " + fileLength
                        + " bytes (truncated or appended to)");
            }
        }

        private static CorruptWorldFileException fail(Path file, String what) {
            return new CorruptWorldFileException(file + ": " + what);
        }
    }
}
