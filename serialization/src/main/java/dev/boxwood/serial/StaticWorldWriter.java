package dev.boxwood.serial;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.BitSet;
import java.util.zip.CRC32C;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.ReadableTree;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.Handles;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytes;
import net.openhft.chronicle.bytes.MappedFile;

/**
 * Writes static world files (format version 2, in {@link WorldLayout} and {@code docs/format.md}).
 *
 * <p>The tree is built by {@link BinnedSahBuilder} with one object per leaf, then every maximal subtree of at most
 * {@value WorldLayout#MAX_LEAF_SIZE} objects is collapsed into one leaf, and objects are stored in the depth-first
 * order of the leaves so that each leaf is a contiguous run. The <b>handle</b> of an object in the written world is
 * its position in that order; the returned {@link WrittenWorld} maps input indices to handles and back. When no
 * user values are given, each object's user value is its input index, so query answers always lead back to the
 * application's own objects.
 *
 * <p>Crash safety: the file is written through a Chronicle Bytes mapping to a temporary file in the target's
 * directory, truncated to its exact length, forced to disk, then atomically renamed over the target
 * ({@link StandardCopyOption#ATOMIC_MOVE}) and the directory is forced. A crash at any point leaves either the
 * previous file or the complete new one under the target name; a crash before the rename may leave a temporary
 * file named {@code .<target name>.tmp-*} beside it (the name cut to 64 characters), which is safe to delete. A
 * failed write (an exception) deletes its temporary file and leaves the target as it was. A directory whose file
 * system has less usable space than the file needs is refused before anything is written (a
 * {@link FileSystemException} naming the directory), and a directory that cannot be written (a read-only file
 * system, or no permission) before any work (an {@link AccessDeniedException} naming the target and the
 * directory); a mapped write that still finds the disk full is reported as
 * an {@link IOException} naming the temporary file. The target must be a regular file or not exist: a symbolic
 * link, a device, a pipe or a socket at that path (which the rename would replace, not write through) is refused
 * with a {@link FileSystemException} naming it, before any work.
 *
 * <p>Checksums (CRC32C) are computed while the sections are streamed out in 1 MiB chunks; no section is ever
 * held in memory as a whole.
 */
public final class StaticWorldWriter {

    private static final int CHUNK = 1 << 20;

    /** Objects per read of a {@link BoxSource}: 3 MiB of doubles, small beside the world, large per call. */
    private static final int SOURCE_CHUNK = 1 << 16;

    /**
     * Receives the progress of a write: the bulk build first, then the bytes streamed to the file. Build calls may
     * come from several pool threads at once, out of order. Both methods do nothing unless overridden, so an
     * implementation overrides only the phase it reports; {@link #onBuilding} and {@link #onWriting} make one from a
     * lambda. A call that throws fails the write, which then leaves the target as it was.
     */
    public interface Progress {
        /**
         * Reports the build's progress; does nothing unless overridden.
         *
         * @param placedObjects objects already placed in their final leaf by the builder
         * @param totalObjects  objects in the build
         */
        default void building(long placedObjects, long totalObjects) {
        }

        /**
         * Reports the bytes written so far; does nothing unless overridden. The last call reports the whole file
         * ({@code writtenBytes == totalBytes}).
         *
         * @param writtenBytes bytes of the file written so far
         * @param totalBytes   the file's length
         */
        default void writing(long writtenBytes, long totalBytes) {
        }

        /**
         * A progress that reports the build only: {@code building(placed, total)} calls {@code listener}.
         *
         * @param listener receives {@code (placedObjects, totalObjects)}
         * @return the progress
         * @throws IllegalArgumentException if {@code listener} is null
         */
        static Progress onBuilding(PhaseListener listener) {
            if (listener == null) {
                throw new IllegalArgumentException("listener must not be null");
            }
            return new Progress() {
                @Override
                public void building(long placedObjects, long totalObjects) {
                    listener.progress(placedObjects, totalObjects);
                }
            };
        }

        /**
         * A progress that reports the writing only: {@code writing(written, total)} calls {@code listener}.
         *
         * @param listener receives {@code (writtenBytes, totalBytes)}
         * @return the progress
         * @throws IllegalArgumentException if {@code listener} is null
         */
        static Progress onWriting(PhaseListener listener) {
            if (listener == null) {
                throw new IllegalArgumentException("listener must not be null");
            }
            return new Progress() {
                @Override
                public void writing(long writtenBytes, long totalBytes) {
                    listener.progress(writtenBytes, totalBytes);
                }
            };
        }

        /** The progress of one phase of a write, as a lambda ({@link #onBuilding}, {@link #onWriting}). */
        @FunctionalInterface
        interface PhaseListener {
            /**
             * Reports how far the phase has come.
             *
             * @param done  objects placed or bytes written so far
             * @param total objects in the build or bytes in the file
             */
            void progress(long done, long total);
        }
    }

    private StaticWorldWriter() {
    }

    /**
     * Builds a tree over absolute double boxes with the default {@link BinnedSahBuilder} and writes the world.
     *
     * @param file         the target file (its directory must exist); replaced atomically if present
     * @param boxes        stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}), finite, min &lt;= max
     * @param userValues   per object, or {@code null} for the object's input index
     * @param categoryBits per object, or {@code null} for {@code -1L} (every category) for all
     * @param payload      opaque bytes stored with the world, or {@code null} for none
     * @return the handle of each input object and the stored tree's shape
     * @throws IOException              if writing fails; {@link NoSuchFileException} naming the file if its
     *                                  directory does not exist, {@link AccessDeniedException} if it cannot be written
     *                                  (both checked before any work)
     * @throws IllegalArgumentException on invalid boxes (also boxes centred beyond {@code OutwardFloat.MAX_ORIGIN},
     *                                  which no index takes) or array lengths that do not match the box count
     * @throws IllegalStateException    if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                  message names the missing ones and {@code serialization/chronicle.args}),
     *                                  found when the file is mapped, after the build; the target is untouched
     */
    public static WrittenWorld write(Path file, double[] boxes, long[] userValues, long[] categoryBits,
                                     byte[] payload) throws IOException {
        return write(file, boxes, userValues, categoryBits, payload, null);
    }

    /**
     * {@link #write(Path, double[], long[], long[], byte[])} reporting its progress.
     *
     * @param file         the target file (its directory must exist); replaced atomically if present
     * @param boxes        stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}), finite, min &lt;= max
     * @param userValues   per object, or {@code null} for the object's input index
     * @param categoryBits per object, or {@code null} for {@code -1L} (every category) for all
     * @param payload      opaque bytes stored with the world, or {@code null} for none
     * @param progress     receives the progress, or {@code null}
     * @return the handle of each input object and the stored tree's shape
     * @throws IOException              if writing fails; {@link NoSuchFileException} naming the file if its
     *                                  directory does not exist, {@link AccessDeniedException} if it cannot be written
     *                                  (both checked before any work)
     * @throws IllegalArgumentException on invalid boxes (also boxes centred beyond {@code OutwardFloat.MAX_ORIGIN},
     *                                  which no index takes) or array lengths that do not match the box count
     * @throws IllegalStateException    if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                  message names the missing ones and {@code serialization/chronicle.args}),
     *                                  found when the file is mapped, after the build; the target is untouched
     */
    public static WrittenWorld write(Path file, double[] boxes, long[] userValues, long[] categoryBits,
                                     byte[] payload, Progress progress) throws IOException {
        targetDirectory(file);
        FlatBvh tree = builder(progress).build(boxes);
        float[] stored = BinnedSahBuilder.toFloatBoxes(boxes, tree.originX(), tree.originY(), tree.originZ());
        return write(file, tree, stored, userValues, categoryBits, payload, progress);
    }

    /**
     * {@link #write(Path, double[], long[], long[], byte[], Progress)} over boxes read from a source in chunks of
     * 65,536 objects, so that no {@code double[]} of the whole world is ever held: besides the per-object arrays
     * passed in, the memory is the float boxes the build needs anyway and one chunk. The source is read twice (see
     * {@link BoxSource}): first for the bounds, which give the origin (as
     * {@link BinnedSahBuilder#build(double[])} chooses it), then to round each box outward to floats relative to
     * that origin. Every box is checked on both reads as the {@code double[]} overload checks it. For the same
     * boxes the file is byte for byte the one the {@code double[]} overload writes.
     *
     * @param file         the target file (its directory must exist); replaced atomically if present
     * @param source       the boxes; its size is the object count
     * @param userValues   per object, or {@code null} for the object's input index
     * @param categoryBits per object, or {@code null} for {@code -1L} (every category) for all
     * @param payload      opaque bytes stored with the world, or {@code null} for none
     * @param progress     receives the progress of the build and the write (not of the reads), or {@code null}
     * @return the handle of each input object and the stored tree's shape
     * @throws IOException              if writing fails; {@link NoSuchFileException} naming the file if its
     *                                  directory does not exist, {@link AccessDeniedException} if it cannot be written
     *                                  (both checked before any work)
     * @throws IllegalArgumentException on a null source, a size outside {@code 0 ..}
     *                                  {@link BinnedSahBuilder#MAX_OBJECTS}, an invalid box (the message names its
     *                                  index) or array lengths that do not match the size; the target is untouched
     * @throws IllegalStateException    if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                  message names the missing ones and {@code serialization/chronicle.args}),
     *                                  found when the file is mapped, after the build; the target is untouched
     */
    public static WrittenWorld write(Path file, BoxSource source, long[] userValues, long[] categoryBits,
                                     byte[] payload, Progress progress) throws IOException {
        return write(file, source, userValues, categoryBits, payload, progress, SOURCE_CHUNK);
    }

    /** The streaming write with a chosen chunk, so tests cross chunk boundaries with small worlds. */
    static WrittenWorld write(Path file, BoxSource source, long[] userValues, long[] categoryBits, byte[] payload,
                              Progress progress, int chunkObjects) throws IOException {
        targetDirectory(file);
        if (source == null) {
            throw new IllegalArgumentException("source must not be null");
        }
        int n = source.size();
        if (n < 0 || n > BinnedSahBuilder.MAX_OBJECTS) {
            throw new IllegalArgumentException("source holds " + n + " objects, expected 0 to "
                    + BinnedSahBuilder.MAX_OBJECTS);
        }
        // before reading a possibly huge source twice
        checkPerObjectArrays(n, categoryBits, userValues);
        double[] chunk = new double[6 * Math.min(n, chunkObjects)];
        double[] bounds = BinnedSahBuilder.emptyBounds();
        for (int first = 0; first < n; first += chunkObjects) {
            int count = Math.min(chunkObjects, n - first);
            source.read(first, count, chunk);
            // an invalid box must fail here, not turn the origin into NaN or infinity
            BinnedSahBuilder.checkBoxes(chunk, count, first);
            BinnedSahBuilder.growBounds(chunk, count, bounds);
        }
        // the builder's own origin rule, so the file matches the double[] overload's to the byte
        double[] origin = BinnedSahBuilder.originOf(bounds);
        float[] stored = new float[6 * n];
        for (int first = 0; first < n; first += chunkObjects) {
            int count = Math.min(chunkObjects, n - first);
            source.read(first, count, chunk);
            BinnedSahBuilder.toFloatBoxes(chunk, count, first, origin[0], origin[1], origin[2], stored);
        }
        FlatBvh tree = builder(progress).build(stored, origin[0], origin[1], origin[2]);
        return write(file, tree, stored, userValues, categoryBits, payload, progress);
    }

    /**
     * Writes a world from a tree built by {@link BinnedSahBuilder} over {@code objectBoxes} (one object per leaf;
     * its small subtrees become the world's multi-object leaves).
     *
     * @param file         the target file (its directory must exist); replaced atomically if present
     * @param tree         the tree
     * @param objectBoxes  the float boxes the tree was built from, relative to the tree's origin, stride 6
     * @param userValues   per object, or {@code null} for the object's input index
     * @param categoryBits per object, or {@code null} for {@code -1L} (every category) for all
     * @param payload      opaque bytes stored with the world, or {@code null} for none
     * @return the handle of each input object and the stored tree's shape
     * @throws IOException              if writing fails; {@link NoSuchFileException} naming the file if its
     *                                  directory does not exist, {@link AccessDeniedException} if it cannot be written
     *                                  (both checked before any work)
     * @throws IllegalArgumentException if an array length does not match the tree's object count; an object box is
     *                                  not finite, is inverted or reaches more than
     *                                  {@link dev.boxwood.query.OutwardFloat#MAX_STORED} (the storage limit as a
     *                                  float) from the origin; or a box
     *                                  of the tree is not the exact union of the object boxes below it, as the
     *                                  builder makes it ({@link FlatBvh#of} does not check boxes): a leaf box that
     *                                  differs from its object box, or an internal child box or the root bounds
     *                                  that do not contain the boxes below them, or contain them without being
     *                                  their union (the message names the node and child, or the root bounds),
     *                                  or an empty tree's root bounds are not zeros. All of this is checked in
     *                                  O(n) before anything is written: the target is then untouched
     * @throws IllegalStateException    if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                  message names the missing ones and {@code serialization/chronicle.args}),
     *                                  found when the file is mapped, after the build; the target is untouched
     */
    public static WrittenWorld write(Path file, FlatBvh tree, float[] objectBoxes, long[] userValues,
                                     long[] categoryBits, byte[] payload) throws IOException {
        return write(file, tree, objectBoxes, userValues, categoryBits, payload, null);
    }

    /**
     * Writes objects of a tree as a static world: a level edited in a {@link DynamicAabbTree} and saved for
     * shipping, or the current state of a world taken from a {@link dev.boxwood.index.ReadView} while the game
     * goes on changing the tree. Each object keeps the tight box the tree stores (the same floats, relative to the
     * tree's origin, which becomes the file's), its user value and its categories, so the world answers every query
     * exactly as the tree does for those objects; the hierarchy is built afresh by the binned SAH (the tree's own,
     * with its fat boxes, is not kept). Input object {@code i} of the returned {@link WrittenWorld} is
     * {@code handles[i]}. Pending objects of deferred adds are written like the others.
     *
     * @param file     the target file (its directory must exist); replaced atomically if present
     * @param tree     the tree (not changed, and not to be changed during the call)
     * @param handles  live handles of the tree, each at most once, in the order of the world's input indices; pass
     *                 {@link ReadableTree#liveHandles()} for every object
     * @param payload  opaque bytes stored with the world, or {@code null} for none
     * @param progress receives the progress, or {@code null}
     * @return the handle in the world of each input object (of {@code handles[i]}) and the stored tree's shape
     * @throws IOException              as the other overloads
     * @throws IllegalArgumentException if {@code tree} or {@code handles} is null, or a handle is stale or given twice
     *                                  (the message names its index, and the earlier index of a repeat); the
     *                                  target is then untouched
     * @throws IllegalStateException    if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                  message names the missing ones and {@code serialization/chronicle.args}),
     *                                  found when the file is mapped, after the build; the target is untouched
     */
    public static WrittenWorld write(Path file, ReadableTree tree, int[] handles, byte[] payload,
                                     Progress progress) throws IOException {
        targetDirectory(file);
        if (tree == null) {
            throw new IllegalArgumentException("tree must not be null");
        }
        if (handles == null) {
            throw new IllegalArgumentException("handles must not be null (tree.liveHandles() for every object)");
        }
        int n = handles.length;
        float[] stored = new float[6 * n];
        long[] categoryBits = new long[n];
        long[] userValues = new long[n];
        BitSet slots = new BitSet();
        float[] box = new float[6];
        for (int i = 0; i < n; i++) {
            int handle = handles[i];
            if (!tree.contains(handle)) {
                throw new IllegalArgumentException("handles[" + i + "] = " + handle + " is not a live handle of the"
                        + " tree (removed, or never given out)");
            }
            int slot = handle & Handles.SLOT_MASK;
            if (slots.get(slot)) {
                int earlier = 0;
                while (handles[earlier] != handle) {
                    earlier++;
                }
                throw new IllegalArgumentException("handles[" + i + "] = " + handle + " repeats handles[" + earlier
                        + "]: each object is written once");
            }
            slots.set(slot);
            tree.getStoredTightBox(handle, box);
            System.arraycopy(box, 0, stored, 6 * i, 6);
            categoryBits[i] = tree.categoryBits(handle);
            userValues[i] = tree.userValue(handle);
        }
        FlatBvh flat = builder(progress).build(stored, tree.originX(), tree.originY(), tree.originZ());
        return write(file, flat, stored, userValues, categoryBits, payload, progress);
    }

    private static BinnedSahBuilder builder(Progress progress) {
        BinnedSahBuilder builder = BinnedSahBuilder.defaults();
        return progress == null ? builder : builder.withProgress(progress::building);
    }

    private static WrittenWorld write(Path file, FlatBvh tree, float[] objectBoxes, long[] userValues,
                                      long[] categoryBits, byte[] payload, Progress progress) throws IOException {
        Path dir = targetDirectory(file);
        if (tree == null) {
            throw new IllegalArgumentException("tree must not be null");
        }
        int n = tree.objectCount();
        if (objectBoxes == null || objectBoxes.length != 6L * n) {
            throw new IllegalArgumentException("objectBoxes must hold 6 * " + n + " floats");
        }
        checkPerObjectArrays(n, categoryBits, userValues);
        checkObjectBoxes(objectBoxes, n);
        checkInternalBoxes(tree);
        float[] root = tree.rootBounds();
        for (int a = 0; a < 3; a++) {
            if (!Float.isFinite(WorldLayout.scale(root[a], root[3 + a]))) {
                throw new IllegalArgumentException("the world's extent on axis " + a + " overflows a float");
            }
        }
        Layout layout = new Layout(tree, objectBoxes, categoryBits);
        Path target = file.toAbsolutePath();
        Path temp = dir.resolve("." + tempPrefix(target.getFileName().toString()) + ".tmp-"
                + ProcessHandle.current().pid() + "-" + System.nanoTime());
        long length;
        try {
            length = writeTemp(temp, target, tree, layout, objectBoxes, userValues, categoryBits, payload,
                    progress);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException | RuntimeException cleanup) {
                // the write's own failure is the one to report; the leftover is named in the suppressed exception
                e.addSuppressed(cleanup);
            }
            IOException fault = mappedWriteFault(e, temp);
            if (fault != null) {
                throw fault;
            }
            throw e;
        }
        forceDirectory(dir);
        return new WrittenWorld(layout.order, layout.nodeCount, layout.height, tree.originX(), tree.originY(),
                tree.originZ(), length);
    }

    /**
     * Refuses a world the file system has no room for before anything is mapped: the file is written through a
     * mapping of a sparse file, and a mapped write that finds the disk full faults (SIGBUS), which the JVM reports
     * late and as an {@link InternalError} (see {@link #mappedWriteFault}). A hint (space can run out meanwhile).
     */
    private static void requireSpace(Path temp, long bytes) throws IOException {
        long usable;
        try {
            usable = Files.getFileStore(temp.getParent()).getUsableSpace();
        } catch (IOException e) {
            return; // no figure: the write itself reports a failure
        }
        if (usable < bytes) {
            throw new FileSystemException(temp.getParent().toString(), null, "not enough space for the world file: "
                    + bytes + " bytes needed, " + usable + " usable");
        }
    }

    /**
     * A failure of a write, as the caller should see it: the JVM reports a fault of a mapped write (the disk filled
     * up after {@link #requireSpace}, or the file system failed) as an {@link InternalError} naming an unsafe memory
     * access, which an {@link IOException} then replaces.
     *
     * @return the exception to throw instead, or null to throw the failure as it is
     */
    private static IOException mappedWriteFault(Throwable failure, Path temp) {
        String message = failure.getMessage();
        if (failure instanceof InternalError && message != null && message.contains("unsafe memory access")) {
            IOException e = new FileSystemException(temp.toString(), null, "writing the mapped world file failed"
                    + " (the file system refused a page: no space left on the device, or an I/O error)");
            e.initCause(failure);
            return e;
        }
        return null;
    }

    /**
     * The start of the temporary file's name: the target's name, cut to 64 characters so that a target name near
     * the file system's limit (often 255 bytes) still leaves room for the suffix.
     */
    private static String tempPrefix(String name) {
        if (name.length() <= 64) {
            return name;
        }
        // never half a surrogate pair: the lone half would make the temporary name unencodable
        return name.substring(0, Character.isHighSurrogate(name.charAt(63)) ? 63 : 64);
    }

    /**
     * The directory the target file goes to, checked before any work so that a wrong path fails at once and names
     * the path the caller gave, not the temporary file beside it.
     */
    static Path targetDirectory(Path file) throws IOException {
        if (file == null) {
            throw new IllegalArgumentException("file must not be null");
        }
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        if (dir == null) {
            throw new IllegalArgumentException("file must name a file, not a root: " + file);
        }
        if (Files.isDirectory(target)) {
            throw new FileSystemException(file.toString(), null, "is a directory, not a world file");
        }
        // the new file replaces the target by a rename: a link, pipe or device there would be replaced, not written
        // through (a symbolic link would become a file and its target stay as it was)
        if (Files.isSymbolicLink(target)) {
            throw new FileSystemException(file.toString(), null, "is a symbolic link: give the path of the file it"
                    + " points to (the world replaces the file at the path given)");
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileSystemException(file.toString(), null, "is not a regular file (a device, pipe or socket):"
                    + " a world file would replace it");
        }
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir)) {
                throw new FileSystemException(file.toString(), dir.toString(), "the parent is not a directory");
            }
            throw new NoSuchFileException(file.toString(), dir.toString(), "the directory does not exist");
        }
        // the temporary file is created there only after the build (minutes for a large world), and its failure
        // would name the temporary file: a read-only file system or directory is refused now, naming the target
        if (!Files.isWritable(dir)) {
            throw new AccessDeniedException(file.toString(), dir.toString(), "the directory is not writable");
        }
        return dir;
    }

    private static void checkPerObjectArrays(int n, long[] categoryBits, long[] userValues) {
        if (categoryBits != null && categoryBits.length != n) {
            throw new IllegalArgumentException("categoryBits must hold " + n + " values, has " + categoryBits.length);
        }
        if (userValues != null && userValues.length != n) {
            throw new IllegalArgumentException("userValues must hold " + n + " values, has " + userValues.length);
        }
    }

    /**
     * The version 2 tree derived from the builder's binary tree: internal nodes of more than
     * {@value WorldLayout#MAX_LEAF_SIZE} objects in depth-first pre-order, each mapped to its builder node (whose
     * child boxes are the exact unions the quantization starts from), leaves as runs of the storage order.
     */
    private static final class Layout {
        /** Storage order: element h is the input index of the object with handle h. */
        final int[] order;
        /** Per stored node: the builder node it is. */
        final int[] builderNode;
        /** Per stored node: references to child A and child B. */
        final int[] refs;
        /** Per stored node: category summaries of child A and child B. */
        final int[] summaries;
        final int nodeCount;
        final int rootRef;
        final int height;
        /** Objects placed in storage order so far. */
        private int placed;
        private final int[] placeStack = new int[3 * (WorldLayout.MAX_LEAF_SIZE + 1)];

        Layout(FlatBvh tree, float[] objectBoxes, long[] categoryBits) {
            int n = tree.objectCount();
            int[] flatRefs = tree.childRefs();
            int flatNodes = tree.nodeCount();
            // objects and folded categories below every builder node, bottom-up (children follow parents)
            int[] counts = new int[flatNodes];
            int[] flatSummaries = new int[flatNodes];
            for (int k = flatNodes - 1; k >= 0; k--) {
                for (int c = 0; c < 2; c++) {
                    int ref = flatRefs[2 * k + c];
                    counts[k] += ref < 0 ? 1 : counts[ref];
                    flatSummaries[k] |= ref < 0 ? WorldLayout.foldCategories(category(categoryBits, ~ref))
                            : flatSummaries[ref];
                }
            }
            order = new int[n];
            int capacity = Math.max(0, n - 1);
            builderNode = new int[capacity];
            refs = new int[2 * capacity];
            summaries = new int[2 * capacity];
            if (n == 0) {
                rootRef = FlatBvh.NULL_REF;
                nodeCount = 0;
                height = 0;
                return;
            }
            if (n <= WorldLayout.MAX_LEAF_SIZE) {
                place(tree, objectBoxes, tree.rootRef(), -1, 0);
                rootRef = WorldLayout.leafRef(0, n);
                nodeCount = 0;
                height = 0;
                return;
            }
            // depth-first pre-order over (builder reference, stored parent, slot) triples, child B pushed below
            // child A: A's whole subtree (nodes and leaf runs) comes before B, so child A is the next node and the
            // leaves' runs follow the depth-first order of the leaves
            int[] stack = new int[3 * (tree.height() + 2)];
            int sp = 0;
            stack[sp++] = 0;
            stack[sp++] = -1;
            stack[sp++] = 0;
            int count = 0;
            while (sp > 0) {
                int slot = stack[--sp];
                int parent = stack[--sp];
                int ref = stack[--sp];
                if (ref < 0 || counts[ref] <= WorldLayout.MAX_LEAF_SIZE) {
                    int first = placed;
                    place(tree, objectBoxes, ref, builderNode[parent], slot);
                    refs[2 * parent + slot] = WorldLayout.leafRef(first, placed - first);
                    continue;
                }
                int k = count++;
                builderNode[k] = ref;
                if (parent >= 0) {
                    refs[2 * parent + slot] = k;
                }
                for (int c = 1; c >= 0; c--) {
                    int child = flatRefs[2 * ref + c];
                    summaries[2 * k + c] = child < 0 ? WorldLayout.foldCategories(category(categoryBits, ~child))
                            : flatSummaries[child];
                    stack[sp++] = child;
                    stack[sp++] = k;
                    stack[sp++] = c;
                }
            }
            nodeCount = count;
            rootRef = 0;
            int[] heights = new int[count];
            for (int k = count - 1; k >= 0; k--) {
                int h = 0;
                for (int c = 0; c < 2; c++) {
                    int ref = refs[2 * k + c];
                    if (ref >= 0) {
                        h = Math.max(h, heights[ref]);
                    }
                }
                heights[k] = 1 + h;
            }
            height = heights[0];
        }

        /**
         * Appends the objects of a builder subtree to the storage order, depth first (a subtree of at most
         * {@value WorldLayout#MAX_LEAF_SIZE} objects: the stack never holds more than that many entries), checking
         * that each leaf box of the tree is its object's box.
         */
        private void place(FlatBvh tree, float[] objectBoxes, int ref, int builderParent, int slot) {
            int[] flatRefs = tree.childRefs();
            int[] stack = placeStack;
            int sp = 0;
            stack[sp++] = ref;
            stack[sp++] = builderParent;
            stack[sp++] = slot;
            while (sp > 0) {
                int s = stack[--sp];
                int p = stack[--sp];
                int r = stack[--sp];
                if (r < 0) {
                    float[] leafBox = p < 0 ? tree.rootBounds() : tree.childBounds();
                    checkLeafBox(leafBox, p < 0 ? 0 : 12 * p + 6 * s, objectBoxes, ~r);
                    order[placed++] = ~r;
                    continue;
                }
                for (int c = 1; c >= 0; c--) {
                    stack[sp++] = flatRefs[2 * r + c];
                    stack[sp++] = r;
                    stack[sp++] = c;
                }
            }
        }
    }

    /** The distinct category values, ascending, and how the category records are stored. */
    private static final class Palette {
        final long[] values;
        final int size;
        final boolean indexed;
        final boolean noZero;

        Palette(long[] categoryBits, int n) {
            values = categoryBits == null ? new long[] {-1L} : categoryBits.clone();
            Arrays.sort(values);
            int unique = 0;
            for (int i = 0; i < values.length; i++) {
                if (i == 0 || values[i] != values[i - 1]) {
                    values[unique++] = values[i];
                }
            }
            size = unique;
            indexed = n > 0 && unique <= WorldLayout.MAX_PALETTE_SIZE;
            noZero = n > 0 && Arrays.binarySearch(values, 0, unique, 0L) < 0;
        }

        int flags() {
            return (indexed ? WorldLayout.FLAG_CATEGORY_PALETTE : 0) | (noZero ? WorldLayout.FLAG_NO_ZERO_CATEGORY : 0);
        }

        int indexOf(long bits) {
            return Arrays.binarySearch(values, 0, size, bits);
        }
    }

    private static long writeTemp(Path temp, Path target, FlatBvh tree, Layout layout, float[] objectBoxes,
                                  long[] userValues, long[] categoryBits, byte[] payload, Progress progress)
            throws IOException {
        int n = tree.objectCount();
        int nodeCount = layout.nodeCount;
        Palette palette = new Palette(categoryBits, n);
        int flags = (payload == null ? 0 : WorldLayout.FLAG_PAYLOAD) | palette.flags();

        long[] offsets = new long[WorldLayout.SECTION_COUNT];
        long[] lengths = new long[WorldLayout.SECTION_COUNT];
        lengths[WorldLayout.SECTION_NODES] = (long) WorldLayout.NODE_SIZE * nodeCount;
        lengths[WorldLayout.SECTION_BOXES] = (long) WorldLayout.BOX_SIZE * n;
        lengths[WorldLayout.SECTION_CATEGORIES] = (long) WorldLayout.recordSize(WorldLayout.SECTION_CATEGORIES, flags)
                * n;
        lengths[WorldLayout.SECTION_PALETTE] = palette.indexed ? (long) WorldLayout.PALETTE_ENTRY_SIZE * palette.size
                : 0;
        lengths[WorldLayout.SECTION_USER_VALUES] = (long) WorldLayout.USER_VALUE_SIZE * n;
        lengths[WorldLayout.SECTION_PAYLOAD] = payload == null ? 0 : payload.length;
        long end = WorldLayout.HEADER_SIZE;
        for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
            offsets[s] = WorldLayout.alignUp(end);
            end = offsets[s] + lengths[s];
        }
        int[] crcs = new int[WorldLayout.SECTION_COUNT];
        int[] order = layout.order;
        requireSpace(temp, end);

        MappedFile mappedFile = null;
        BytesStore<?, ?> mappedStore = null;
        // released (after the close) on failure too: the caller deletes the temporary file, whose disk space a
        // mapping left behind would hold until the JVM exits
        try (MappedBytes out = map(temp, target, Math.max(end, 1))) {
            mappedFile = out.mappedFile();
            mappedStore = out.bytesStore();
            SectionSink sink = new SectionSink(out, progress, end);
            sink.begin(offsets[WorldLayout.SECTION_NODES]);
            writeNodes(sink, tree, layout);
            crcs[WorldLayout.SECTION_NODES] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_BOXES]);
            for (int h = 0; h < n; h++) {
                ByteBuffer b = sink.room(WorldLayout.BOX_SIZE);
                int i = order[h];
                for (int a = 0; a < 6; a++) {
                    b.putFloat(objectBoxes[6 * i + a]);
                }
            }
            crcs[WorldLayout.SECTION_BOXES] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_CATEGORIES]);
            for (int h = 0; h < n; h++) {
                long bits = category(categoryBits, order[h]);
                if (palette.indexed) {
                    sink.room(WorldLayout.PALETTE_INDEX_SIZE).putShort((short) palette.indexOf(bits));
                } else {
                    sink.room(WorldLayout.CATEGORY_SIZE).putLong(bits);
                }
            }
            crcs[WorldLayout.SECTION_CATEGORIES] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_PALETTE]);
            for (int p = 0; palette.indexed && p < palette.size; p++) {
                sink.room(WorldLayout.PALETTE_ENTRY_SIZE).putLong(palette.values[p]);
            }
            crcs[WorldLayout.SECTION_PALETTE] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_USER_VALUES]);
            for (int h = 0; h < n; h++) {
                int i = order[h];
                sink.room(WorldLayout.USER_VALUE_SIZE).putLong(userValues == null ? i : userValues[i]);
            }
            crcs[WorldLayout.SECTION_USER_VALUES] = sink.end();

            sink.begin(offsets[WorldLayout.SECTION_PAYLOAD]);
            if (payload != null) {
                sink.writeBytes(payload);
            }
            crcs[WorldLayout.SECTION_PAYLOAD] = sink.end();

            byte[] header = header(tree, layout, flags, offsets, lengths, crcs);
            out.write(0L, header, 0, header.length);
        } finally {
            if (mappedStore != null) {
                Unmapping.release(mappedStore, mappedFile);
            }
        }
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            // the mapping grows the file to whole pages; the format's length is exact
            channel.truncate(end);
            channel.force(true);
        }
        if (progress != null) {
            progress.writing(end, end);
        }
        return end;
    }

    /**
     * Maps the temporary file for writing. A JVM without the options Chronicle Bytes needs fails here with Chronicle's
     * raw {@link AssertionError}, which names neither the options nor the file: that becomes the
     * {@link IllegalStateException} of {@link JvmFlags}, naming the target the caller knows.
     */
    private static MappedBytes map(Path temp, Path target, long size) throws IOException {
        try {
            return MappedBytes.singleMappedBytes(temp.toFile(), size);
        } catch (RuntimeException | Error e) {
            JvmFlags.requireFor(e, target);
            throw e;
        }
    }

    /**
     * Streams the node records, quantizing top-down: each node's child boxes (the builder's exact unions) are coded
     * in the frame of the node's own decoded box, computed exactly as the reader will (Ylitie, Karras and Laine
     * 2017 quantize children to their parent's frame); a min coordinate is rounded down to a code, a max
     * coordinate up, so every decoded box contains its child.
     */
    private static void writeNodes(SectionSink sink, FlatBvh tree, Layout layout) {
        int nodeCount = layout.nodeCount;
        float[] decoded = new float[6 * Math.max(1, nodeCount)];
        System.arraycopy(tree.rootBounds(), 0, decoded, 0, 6);
        float[] exact = tree.childBounds();
        for (int k = 0; k < nodeCount; k++) {
            ByteBuffer b = sink.room(WorldLayout.NODE_SIZE);
            int f = layout.builderNode[k];
            for (int c = 0; c < 2; c++) {
                int child = layout.refs[2 * k + c];
                for (int a = 0; a < 6; a++) {
                    int axis = a % 3;
                    float min = decoded[6 * k + axis];
                    float scale = WorldLayout.scale(min, decoded[6 * k + 3 + axis]);
                    float value = exact[12 * f + 6 * c + a];
                    int q = a < 3 ? WorldLayout.quantizeMin(min, scale, value)
                            : WorldLayout.quantizeMax(min, scale, value);
                    b.putShort((short) q);
                    if (child >= 0) {
                        decoded[6 * child + a] = WorldLayout.decode(min, scale, q);
                    }
                }
            }
            b.putInt(layout.refs[2 * k]);
            b.putInt(layout.refs[2 * k + 1]);
            b.putInt(layout.summaries[2 * k]);
            b.putInt(layout.summaries[2 * k + 1]);
        }
    }

    private static byte[] header(FlatBvh tree, Layout layout, int flags, long[] offsets, long[] lengths,
                                 int[] crcs) {
        ByteBuffer h = ByteBuffer.allocate(WorldLayout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        h.putLong(WorldLayout.MAGIC_OFFSET, WorldLayout.MAGIC);
        h.putInt(WorldLayout.VERSION_OFFSET, WorldLayout.FORMAT_VERSION);
        h.putInt(WorldLayout.BYTE_ORDER_OFFSET, WorldLayout.BYTE_ORDER_MARK);
        h.putInt(WorldLayout.HEADER_SIZE_OFFSET, WorldLayout.HEADER_SIZE);
        h.putInt(WorldLayout.FLAGS_OFFSET, flags);
        h.putLong(WorldLayout.OBJECT_COUNT_OFFSET, tree.objectCount());
        h.putLong(WorldLayout.NODE_COUNT_OFFSET, layout.nodeCount);
        h.putInt(WorldLayout.ROOT_REF_OFFSET, layout.rootRef);
        h.putInt(WorldLayout.HEIGHT_OFFSET, layout.height);
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
            h.putInt(e + WorldLayout.ENTRY_RECORD_SIZE, WorldLayout.recordSize(s, flags));
        }
        CRC32C crc = new CRC32C();
        crc.update(h.array(), 0, WorldLayout.HEADER_CRC_OFFSET);
        h.putInt(WorldLayout.HEADER_CRC_OFFSET, (int) crc.getValue());
        return h.array();
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

    /** Boxes a reader would report as corrupt must not be written (see {@link WorldLayout#storedBoxProblem}). */
    private static void checkObjectBoxes(float[] objectBoxes, int n) {
        for (int i = 0; i < n; i++) {
            String problem = WorldLayout.storedBoxProblem(objectBoxes, 6 * i);
            if (problem != null) {
                throw new IllegalArgumentException("objectBoxes: box " + i + " " + problem);
            }
        }
    }

    /**
     * Every internal child box must be bit for bit the union of the two child boxes of the node it refers to, and
     * the root bounds that of the root's children: the file stores the codes of exact unions and the exact root
     * bounds ({@link MappedWorld#verify()} recomputes both), and a box that does not contain its subtree would hide
     * objects from every query. With the leaf boxes equal to the object boxes ({@link #checkLeafBox}), every box is
     * then the union of the objects below it. One pass over the nodes, no allocation beyond one box.
     */
    private static void checkInternalBoxes(FlatBvh tree) {
        int nodes = tree.nodeCount();
        if (nodes == 0) {
            // a root leaf: its bounds are compared with its object's box; an empty world's are zeros (the format's
            // rule, which the reader checks)
            float[] root = tree.rootBounds();
            for (int a = 0; tree.objectCount() == 0 && a < 6; a++) {
                if (root[a] != 0f) {
                    throw new IllegalArgumentException("tree: an empty tree's root bounds must be zeros; coordinate "
                            + a + " is " + root[a]);
                }
            }
            return;
        }
        float[] bounds = tree.childBounds();
        int[] refs = tree.childRefs();
        float[] union = new float[6];
        for (int k = 0; k < nodes; k++) {
            for (int c = 0; c < 2; c++) {
                int ref = refs[2 * k + c];
                if (ref >= 0) {
                    unionOfChildren(bounds, ref, union);
                    checkUnion(bounds, 12 * k + 6 * c, union, "the box of child " + c + " of node " + k + " (node "
                            + ref + ")");
                }
            }
        }
        unionOfChildren(bounds, 0, union);
        checkUnion(tree.rootBounds(), 0, union, "the root bounds");
    }

    private static void unionOfChildren(float[] bounds, int node, float[] dest) {
        for (int a = 0; a < 3; a++) {
            dest[a] = Math.min(bounds[12 * node + a], bounds[12 * node + 6 + a]);
            dest[3 + a] = Math.max(bounds[12 * node + 3 + a], bounds[12 * node + 9 + a]);
        }
    }

    private static void checkUnion(float[] box, int at, float[] union, String what) {
        for (int a = 0; a < 3; a++) {
            // negated so that a NaN fails too
            if (!(box[at + a] <= union[a]) || !(box[at + 3 + a] >= union[3 + a])) {
                throw new IllegalArgumentException("tree: " + what + " must contain every box below; on axis " + a
                        + " [" + box[at + a] + ", " + box[at + 3 + a] + "] does not contain their union ["
                        + union[a] + ", " + union[3 + a] + "]: the tree was not built from these boxes");
            }
        }
        for (int a = 0; a < 6; a++) {
            if (Float.floatToRawIntBits(box[at + a]) != Float.floatToRawIntBits(union[a])) {
                throw new IllegalArgumentException("tree: " + what + " must be the exact union of the boxes below,"
                        + " which the file stores; coordinate " + a + " is " + box[at + a] + ", the union's "
                        + union[a]);
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
        private final Progress progress;
        private final long total;
        private long position;

        SectionSink(MappedBytes out, Progress progress, long total) {
            this.out = out;
            this.progress = progress;
            this.total = total;
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
                report();
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
                report();
            }
        }

        private void report() {
            if (progress != null) {
                progress.writing(position, total);
            }
        }
    }
}
