package dev.boxwood.serial;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
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
import net.openhft.chronicle.core.io.ReferenceOwner;

/**
 * A static world file mapped read-only into memory and queried in place (zero copy): opening costs the same for
 * any world size, and only the pages a query touches are read from disk.
 *
 * <p>Handles are object indices {@code 0 .. size() - 1}, in the order of the boxes the world was written from.
 * Queries follow {@link SpatialQueries}: closed boxes, the category mask test {@code (bits & mask) != 0}, the
 * {@link RayCastVisitor} protocol, answers exact for the stored float boxes (outward-rounded, relative to the
 * world's double origin; query coordinates are translated by that origin in double).
 *
 * <p>Safety against bad files: {@link #open} checks the header (magic, version, byte order, header checksum,
 * counts and section bounds against the file length) and throws {@link CorruptWorldFileException} naming what is
 * wrong; {@link #verify()} checks every section checksum and the tree structure on demand. Queries check every
 * node reference they follow (range, depth-first order, visit budget), so even an unverified corrupt file never
 * makes a read outside the mapping: a broken reference throws an {@link UncheckedIOException} wrapping a
 * {@link CorruptWorldFileException}. The file must not be truncated by another process while mapped (the
 * operating system would fault the reading thread); {@link StaticWorldWriter} replaces files by renaming, never
 * in place.
 *
 * <p>Threads: the world holds no per-query state; any number of threads may query it at once, each with its own
 * {@link TraversalStack}. {@link #close()} unmaps at once: it must happen after every query has returned (the
 * caller orders this); a query, or an accessor that reads the file, called after close throws
 * {@link IllegalStateException} (plain header values such as {@link #originX()} stay readable).
 *
 * <p>Requires a little-endian platform (x86-64, AArch64): the mapping is read in native order.
 */
public final class MappedWorld implements ShapeQueries, AutoCloseable {

    private static final int SPHERE = RegionTests.SPHERE;
    private static final int BOX = RegionTests.BOX;
    private static final int OBB = RegionTests.OBB;
    private static final int CONVEX = RegionTests.CONVEX;
    private static final int VERIFY_CHUNK = 1 << 20;
    /** Returned by {@link #castUnchecked} when the visitor stopped the cast. */
    static final double STOPPED = -1.0;

    private final Path file;
    private final long fileLength;
    private final MappedFile mappedFile;
    private final MappedBytesStore store;
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
    private final long objectsOffset;
    private final long userValuesOffset;
    private volatile boolean closed;

    private MappedWorld(Path file, long fileLength, MappedFile mappedFile, MappedBytesStore store,
                        ReferenceOwner owner, Header h) {
        this.file = file;
        this.fileLength = fileLength;
        this.mappedFile = mappedFile;
        this.store = store;
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
        this.objectsOffset = h.offsets[WorldLayout.SECTION_OBJECTS];
        this.userValuesOffset = h.offsets[WorldLayout.SECTION_USER_VALUES];
    }

    /**
     * Opens and maps a world file read-only after validating its header. Costs the same for any world size.
     *
     * @param file the world file
     * @return the mapped world; close it to unmap
     * @throws CorruptWorldFileException if the header is not that of a valid world of this format version, or
     *                                   disagrees with the file length
     * @throws IOException               if the file cannot be read or mapped
     */
    public static MappedWorld open(Path file) throws IOException {
        if (file == null) {
            throw new IllegalArgumentException("file must not be null");
        }
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new IOException("static worlds can only be mapped on little-endian platforms");
        }
        long length = Files.size(file);
        Header header = Header.read(file, length);
        MappedFile mapped = MappedFile.ofSingle(file.toFile(), length, true);
        ReferenceOwner owner = ReferenceOwner.temporary("MappedWorld");
        try {
            MappedBytesStore store = mapped.acquireByteStore(owner, 0);
            return new MappedWorld(file, length, mapped, store, owner, header);
        } catch (RuntimeException | IOException e) {
            mapped.releaseLast();
            throw e;
        }
    }

    /**
     * Checks every section checksum (CRC32C) and the tree structure: each object is referenced by exactly one
     * leaf, each internal node but the root by exactly one parent of smaller index, leaf boxes equal object boxes
     * and every child box contains its children's boxes. Reads the whole file.
     *
     * @throws CorruptWorldFileException naming the first problem found
     * @throws IllegalStateException     if the world is closed
     */
    public void verify() throws CorruptWorldFileException {
        checkOpen();
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
                        + Integer.toHexString(sectionCrcs[s]) + ", computed " + Integer.toHexString((int) crc.getValue())
                        + ")");
            }
        }
        verifyPadding(chunk);
        verifyStructure();
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

    private void verifyStructure() throws CorruptWorldFileException {
        if (objectCount <= 1) {
            if (objectCount == 1) {
                checkBoxEquals(rootBounds, objectsOffset, "root bounds of the single object");
            }
            return;
        }
        long[] seen = new long[(int) (((long) nodeCount + objectCount + 63) >>> 6)];
        float[] box = new float[6];
        for (int k = 0; k < nodeCount; k++) {
            long base = nodesOffset + (long) WorldLayout.NODE_SIZE * k;
            for (int c = 0; c < 2; c++) {
                long boxOffset = base + (c == 0 ? WorldLayout.NODE_BOX_A : WorldLayout.NODE_BOX_B);
                int ref = store.readInt(base + (c == 0 ? WorldLayout.NODE_REF_A : WorldLayout.NODE_REF_B));
                long bit;
                if (ref < 0) {
                    int object = ~ref;
                    if (object >= objectCount) {
                        throw corrupt("node " + k + " references object " + object + " of " + objectCount);
                    }
                    readBox(boxOffset, box);
                    checkBoxEquals(box, objectsOffset + (long) WorldLayout.OBJECT_SIZE * object,
                            "leaf box of object " + object + " in node " + k);
                    bit = (long) nodeCount + object;
                } else {
                    if (ref <= k || ref >= nodeCount) {
                        throw corrupt("node " + k + " references node " + ref + " (must be in (" + k + ", "
                                + nodeCount + "))");
                    }
                    readBox(boxOffset, box);
                    long child = nodesOffset + (long) WorldLayout.NODE_SIZE * ref;
                    if (!contains(box, child + WorldLayout.NODE_BOX_A) || !contains(box, child + WorldLayout.NODE_BOX_B)) {
                        throw corrupt("the box of node " + ref + " in node " + k + " does not contain its children");
                    }
                    bit = ref;
                }
                int word = (int) (bit >>> 6);
                if ((seen[word] & (1L << bit)) != 0) {
                    throw corrupt((ref < 0 ? "object " + ~ref : "node " + ref) + " is referenced twice");
                }
                seen[word] |= 1L << bit;
            }
        }
        readBox(nodesOffset + WorldLayout.NODE_BOX_A, box);
        boolean rootOk = containedIn(box, rootBounds);
        readBox(nodesOffset + WorldLayout.NODE_BOX_B, box);
        if (!rootOk || !containedIn(box, rootBounds)) {
            throw corrupt("the root bounds do not contain the root's children");
        }
        // n - 1 internal nodes with 2 references each reach n - 2 nodes and n objects: with no duplicate,
        // every one of them is reached, so the references form one tree rooted at node 0
        int[] heights = new int[nodeCount];
        int[] summaries = new int[nodeCount];
        for (int k = nodeCount - 1; k >= 0; k--) {
            long base = nodesOffset + (long) WorldLayout.NODE_SIZE * k;
            int h = 0;
            for (int c = 0; c < 2; c++) {
                int ref = store.readInt(base + WorldLayout.NODE_REF_A + 4 * c);
                int summary;
                if (ref < 0) {
                    summary = WorldLayout.foldCategories(store.readLong(objectsOffset
                            + (long) WorldLayout.OBJECT_SIZE * ~ref + WorldLayout.OBJECT_CATEGORY));
                } else {
                    summary = summaries[ref];
                    h = Math.max(h, heights[ref]);
                }
                if (store.readInt(base + WorldLayout.NODE_CATEGORIES_A + 4 * c) != summary) {
                    throw corrupt("category summary of child " + c + " of node " + k + " is wrong");
                }
                summaries[k] |= summary;
            }
            heights[k] = 1 + h;
        }
        if (heights[0] != height) {
            throw corrupt("tree height " + heights[0] + " differs from the header's " + height);
        }
    }

    private void readBox(long offset, float[] box) {
        for (int a = 0; a < 6; a++) {
            box[a] = store.readFloat(offset + 4L * a);
        }
    }

    private void checkBoxEquals(float[] box, long offset, String what) throws CorruptWorldFileException {
        for (int a = 0; a < 6; a++) {
            if (Float.floatToRawIntBits(box[a]) != Float.floatToRawIntBits(store.readFloat(offset + 4L * a))) {
                throw corrupt(what + " differs from the object record");
            }
        }
    }

    private boolean contains(float[] outer, long innerOffset) {
        for (int a = 0; a < 3; a++) {
            if (!(outer[a] <= store.readFloat(innerOffset + 4L * a))
                    || !(outer[3 + a] >= store.readFloat(innerOffset + 12 + 4L * a))) {
                return false;
            }
        }
        return true;
    }

    private static boolean containedIn(float[] inner, float[] outer) {
        for (int a = 0; a < 3; a++) {
            if (!(outer[a] <= inner[a]) || !(outer[3 + a] >= inner[3 + a])) {
                return false;
            }
        }
        return true;
    }

    /** Unmaps the file. Idempotent. Every query must have returned before (see the class comment). */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        store.release(owner);
        mappedFile.releaseLast();
        Unmapping.release(store, mappedFile);
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed;
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

    /** @return internal nodes on the longest root-to-leaf path (0 for fewer than two objects) */
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
     */
    public void getBounds(double[] dest) {
        checkOpen();
        toWorld(rootBounds[0], rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5], dest);
    }

    /**
     * Copies the tree into heap arrays, in the layout of the shared bulk builder, so that it can be adopted by an
     * in-memory index without a rebuild (for example spliced into a dynamic tree with the same origin). The
     * references are checked as by {@link FlatBvh#of}; boxes are copied as stored. Costs O(n) reads and
     * {@code 56 n} bytes of heap.
     *
     * @return the tree, with this world's origin
     * @throws CorruptWorldFileException if the stored references do not form a valid tree
     */
    public FlatBvh readTree() throws CorruptWorldFileException {
        checkOpen();
        float[] bounds = new float[12 * nodeCount];
        int[] refs = new int[2 * nodeCount];
        for (int k = 0; k < nodeCount; k++) {
            long base = nodesOffset + (long) WorldLayout.NODE_SIZE * k;
            for (int i = 0; i < 12; i++) {
                bounds[12 * k + i] = store.readFloat(base + 4L * i);
            }
            refs[2 * k] = store.readInt(base + WorldLayout.NODE_REF_A);
            refs[2 * k + 1] = store.readInt(base + WorldLayout.NODE_REF_B);
        }
        try {
            return FlatBvh.of(objectCount, originX, originY, originZ, bounds, refs, rootBounds.clone());
        } catch (IllegalArgumentException e) {
            throw corrupt("the stored tree is invalid: " + e.getMessage());
        }
    }

    /**
     * Copies the stored object boxes (floats relative to the origin, stride 6) into a heap array, as the
     * companion of {@link #readTree()}.
     *
     * @return the boxes of objects {@code 0 .. size() - 1}
     */
    public float[] readObjectBoxes() {
        checkOpen();
        float[] boxes = new float[6 * objectCount];
        for (int i = 0; i < objectCount; i++) {
            long o = objectsOffset + (long) WorldLayout.OBJECT_SIZE * i;
            for (int a = 0; a < 6; a++) {
                boxes[6 * i + a] = store.readFloat(o + 4L * a);
            }
        }
        return boxes;
    }

    /**
     * Copies every object's category bits into a heap array, as a companion of {@link #readTree()}.
     *
     * @return the category bits of objects {@code 0 .. size() - 1}
     */
    public long[] readCategories() {
        checkOpen();
        long[] bits = new long[objectCount];
        for (int i = 0; i < objectCount; i++) {
            bits[i] = categoryAt(i);
        }
        return bits;
    }

    /**
     * Copies every object's user value into a heap array, as a companion of {@link #readTree()}.
     *
     * @return the user values of objects {@code 0 .. size() - 1}
     */
    public long[] readUserValues() {
        checkOpen();
        long[] values = new long[objectCount];
        for (int i = 0; i < objectCount; i++) {
            values[i] = userValueAt(i);
        }
        return values;
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
        checkOpen();
        if (position < 0 || length < 0 || position > payloadLength() - length || destOffset < 0
                || destOffset > dest.length - length) {
            throw new IndexOutOfBoundsException("payload range [" + position + ", +" + length + ") of "
                    + payloadLength() + " bytes into an array of " + dest.length);
        }
        store.read(sectionOffsets[WorldLayout.SECTION_PAYLOAD] + position, dest, destOffset, length);
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
        checkHandle(handle);
        return userValueAt(handle);
    }

    @Override
    public long categoryBits(int handle) {
        checkHandle(handle);
        return categoryAt(handle);
    }

    /** The stored category bits of an object (unchecked index). */
    private long categoryAt(int object) {
        return store.readLong(objectsOffset + (long) WorldLayout.OBJECT_SIZE * object + WorldLayout.OBJECT_CATEGORY);
    }

    /** The stored user value of an object (unchecked index). */
    private long userValueAt(int object) {
        return store.readLong(userValuesOffset + (long) WorldLayout.USER_VALUE_SIZE * object);
    }

    @Override
    public void getTightBox(int handle, double[] dest) {
        checkHandle(handle);
        long o = objectsOffset + (long) WorldLayout.OBJECT_SIZE * handle;
        toWorld(store.readFloat(o), store.readFloat(o + 4), store.readFloat(o + 8),
                store.readFloat(o + 12), store.readFloat(o + 16), store.readFloat(o + 20), dest);
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
        checkOpen();
        region(BOX, minX - originX, minY - originY, minZ - originZ, maxX - originX, maxY - originY, maxZ - originZ,
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
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or null arguments
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
     * into the world's frame ({@code world - origin}, in double) and tested against the stored floats.
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
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    @Override
    public void querySphere(double centerX, double centerY, double centerZ, double radius, RegionMode mode,
                            long categoryMask, QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        requireSphere(centerX, centerY, centerZ, radius);
        requireRegionArguments(mode, visitor, stack);
        region(SPHERE, centerX - originX, centerY - originY, centerZ - originZ, radius, 0, 0, null, null, mode,
                categoryMask, filter, visitor, stack);
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
        region(BOX, minX - originX, minY - originY, minZ - originZ, maxX - originX, maxY - originY, maxZ - originZ,
                null, null, mode, categoryMask, filter, visitor, stack);
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
        // the centre moved into the world's frame, in the stack's double scratch (region queries use no other)
        double[] local = stack.fractions(ObbLayout.STRIDE);
        System.arraycopy(obb, offset, local, 0, ObbLayout.STRIDE);
        local[0] -= originX;
        local[1] -= originY;
        local[2] -= originZ;
        region(OBB, 0, 0, 0, 0, 0, 0, local, null, mode, categoryMask, filter, visitor, stack);
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
        region(CONVEX, 0, 0, 0, 0, 0, 0, null, region.translated(originX, originY, originZ), mode, categoryMask,
                filter, visitor, stack);
    }

    /** The sphere query's own checks, shared with composite worlds: a finite centre and radius, radius >= 0. */
    static void requireSphere(double centerX, double centerY, double centerZ, double radius) {
        Arguments.requireFinite("centerX", centerX);
        Arguments.requireFinite("centerY", centerY);
        Arguments.requireFinite("centerZ", centerZ);
        Arguments.requireFiniteNonNegative("radius", radius);
    }

    /** The convex query's own checks, shared with composite worlds: a region, and a bounded one for CROSSING. */
    static void requireConvexArguments(ConvexRegion region, RegionMode mode) {
        Arguments.requireNonNull("region", region);
        if (mode == RegionMode.CROSSING && !region.isBounded()) {
            throw new IllegalArgumentException("region must be bounded for the exact CROSSING mode; use"
                    + " CROSSING_CONSERVATIVE or add planes");
        }
    }

    private void requireRegionArguments(RegionMode mode, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireNonNull("mode", mode);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        checkOpen();
    }

    /**
     * The one region traversal over the mapped nodes (every region query and the box query); the shape is in the
     * world's frame: p0..p5 a box or a sphere, {@code obb} an oriented box at offset 0, or {@code convex}.
     * Hierarchical culling as the dynamic tree's region queries: a child outside the shape is skipped, a child
     * inside it is taken whole without further tests (Bullet's {@code btDbvt::collideKDOP}), and for convex
     * regions each child carries the planes it still crosses (Assarsson and Möller 2000). A leaf's box in its node
     * is the object's tight box, so the leaf decision ({@link RegionTests}) is made on it directly. Composite worlds
     * ({@link TiledWorld}) call it directly with the shape already in this world's frame and validated, so the
     * mode's null check is theirs too.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    boolean region(int kind, double p0, double p1, double p2, double p3, double p4, double p5, double[] obb,
                           ConvexRegion convex, RegionMode mode, long mask, QueryFilter filter,
                           OverlapVisitor visitor, TraversalStack stack) {
        if (objectCount == 0) {
            return true;
        }
        final int allPlanes = RegionTests.rootState(kind, convex);
        if (rootRef < 0) {
            stack.countVisits(0, 1);
            if (!RegionTests.acceptsObject(kind, p0, p1, p2, p3, p4, p5, obb, 0, convex, mode, allPlanes,
                    rootBounds[0], rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5])) {
                return true;
            }
            return reportOverlap(~rootRef, mask, false, filter, visitor);
        }
        int rootState = RegionTests.classifySubtree(kind, p0, p1, p2, p3, p4, p5, obb, 0, convex, mode, allPlanes,
                true, rootBounds[0], rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5]);
        if (rootState == FrustumAabb.CULLED) {
            return true;
        }
        final int fold = WorldLayout.foldCategories(mask);
        // (node, state) pairs; each popped node pushes at most 2: height + 2 pairs suffice for a valid file
        int[] st = stack.references(2 * (height + 2));
        final int capacity = st.length & ~1;
        int sp = 0;
        st[sp++] = 0;
        st[sp++] = rootState;
        long nodes = 0;
        long leaves = 0;
        while (sp > 0) {
            final int state = st[--sp];
            final int node = st[--sp];
            long base = openNode(++nodes, node);
            for (int c = 0; c < 2; c++) {
                if ((store.readInt(base + WorldLayout.NODE_CATEGORIES_A + 4 * c) & fold) == 0) {
                    continue;
                }
                long b = base + 24L * c;
                int ref = store.readInt(base + WorldLayout.NODE_REF_A + 4 * c);
                if (ref < 0) {
                    int object = checkObject(node, ref);
                    if (state != 0) {
                        leaves++;
                        if (!RegionTests.acceptsObject(kind, p0, p1, p2, p3, p4, p5, obb, 0, convex, mode, state,
                                store.readFloat(b), store.readFloat(b + 4), store.readFloat(b + 8),
                                store.readFloat(b + 12), store.readFloat(b + 16), store.readFloat(b + 20))) {
                            continue;
                        }
                    }
                    if (!reportOverlap(object, mask, true, filter, visitor)) {
                        stack.countVisits(nodes, leaves);
                        return false;
                    }
                    continue;
                }
                int childState = 0;
                if (state != 0) {
                    childState = RegionTests.classifySubtree(kind, p0, p1, p2, p3, p4, p5, obb, 0, convex, mode,
                            state, true, store.readFloat(b), store.readFloat(b + 4), store.readFloat(b + 8),
                            store.readFloat(b + 12), store.readFloat(b + 16), store.readFloat(b + 20));
                    if (childState == FrustumAabb.CULLED) {
                        continue;
                    }
                }
                if (sp == capacity) {
                    throw corruptAtQuery("the tree is deeper than its header says (" + height + ")");
                }
                st[sp++] = checkChild(node, ref);
                st[sp++] = childState;
            }
        }
        stack.countVisits(nodes, leaves);
        return true;
    }

    /**
     * Whether the leaf's folded category summary, already tested against the folded mask, decides the exact test:
     * with every mask bit set, {@code (bits & mask) != 0} means {@code bits != 0}, which is
     * {@code fold(bits) != 0}. The common all-categories query then reads no object record.
     */
    private static boolean categoryDecided(long mask, boolean summaryPassed) {
        return summaryPassed && mask == -1L;
    }

    /** Reports an object whose box the query accepted, after the exact category test and the filter. */
    private boolean reportOverlap(int object, long mask, boolean summaryPassed, QueryFilter filter,
                                  OverlapVisitor visitor) {
        if (!categoryDecided(mask, summaryPassed) && (categoryAt(object) & mask) == 0) {
            return true;
        }
        long userValue = userValueAt(object);
        if (filter != null && !filter.accept(object, userValue)) {
            return true;
        }
        return visitor.visit(object, userValue);
    }

    /**
     * Sweeps a box over one frame: each object whose stored tight box the box moving by {@code (dx, dy, dz)}
     * touches, with the first time of contact {@code u} in {@code [0, 1]} (0 when touching at the start), following
     * the {@link RayCastVisitor} protocol ({@code visitor.begin} gets the box centre, the displacement and
     * {@code maxFraction = 1}). The per-box decisions are the dynamic tree's ({@link SweepTests}, the same as
     * {@code SweepQueries.sweepBox}), so both report the same objects and times for the same stored boxes and
     * origin; times are computed against the whole frame, never a clipped one.
     *
     * @param minX         box min x at the start
     * @param minY         box min y at the start
     * @param minZ         box min z at the start
     * @param maxX         box max x at the start
     * @param maxY         box max y at the start
     * @param maxZ         box max z at the start
     * @param dx           displacement over the frame, x
     * @param dy           displacement over the frame, y
     * @param dz           displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor      receives the objects and steers the query
     * @param stack        the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite or inverted box, a non-finite displacement or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    public void sweepBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor,
                         TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        checkOpen();
        visitor.begin(0.5 * (minX + maxX), 0.5 * (minY + maxY), 0.5 * (minZ + maxZ), dx, dy, dz, 1.0);
        sweep(SweepTests.BOX, minX - originX, minY - originY, minZ - originZ, maxX - originX, maxY - originY,
                maxZ - originZ, dx, dy, dz, categoryMask, visitor, stack);
    }

    /**
     * Sweeps a sphere over one frame: each object whose stored tight box the sphere moving by {@code (dx, dy, dz)}
     * touches, with the exact first time of contact (the centre's path against the box rounded by the radius,
     * {@link SweepTests#exactContact}), following the {@link RayCastVisitor} protocol ({@code visitor.begin} gets
     * the centre, the displacement and {@code maxFraction = 1}); the same answers as the dynamic tree's
     * {@code SweepQueries.sweepSphere}.
     *
     * @param centerX      centre x at the start
     * @param centerY      centre y at the start
     * @param centerZ      centre z at the start
     * @param radius       radius, finite and {@code >= 0}
     * @param dx           displacement over the frame, x
     * @param dy           displacement over the frame, y
     * @param dz           displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor      receives the objects and steers the query
     * @param stack        the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    public void sweepSphere(double centerX, double centerY, double centerZ, double radius, double dx, double dy,
                            double dz, long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        Arguments.requireFinite("centerX", centerX);
        Arguments.requireFinite("centerY", centerY);
        Arguments.requireFinite("centerZ", centerZ);
        Arguments.requireFiniteNonNegative("radius", radius);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        checkOpen();
        visitor.begin(centerX, centerY, centerZ, dx, dy, dz, 1.0);
        sweep(SweepTests.SPHERE, centerX - originX, centerY - originY, centerZ - originZ, radius, 0, 0, dx, dy, dz,
                categoryMask, visitor, stack);
    }

    /**
     * The ordered sweep over the mapped nodes, shape in the world's frame. A node child is entered by its
     * conservative bound ({@link SweepTests#boundContact}); a leaf child's box is the object's tight box, so it is
     * pushed with its exact time ({@link SweepTests#exactContact}) and reported when popped: objects come out
     * roughly front to back, and a clip from the visitor drops every entry beyond it (the near-last push of
     * {@link TraversalStack#pushNearLast}, as the tree's sweeps).
     */
    private void sweep(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                       double dx, double dy, double dz, long mask, RayCastVisitor visitor, TraversalStack stack) {
        if (objectCount == 0) {
            return;
        }
        final double ix = SegmentAabb.inverse(dx);
        final double iy = SegmentAabb.inverse(dy);
        final double iz = SegmentAabb.inverse(dz);
        if (rootRef < 0) {
            stack.countVisits(0, 1);
            double t = SweepTests.exactContact(shape, p0, p1, p2, p3, p4, p5, dx, dy, dz, ix, iy, iz, rootBounds[0],
                    rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5]);
            if (t >= 0) {
                reportHit(~rootRef, t, mask, false, visitor);
            }
            return;
        }
        double rootEntry = SweepTests.boundContact(shape, p0, p1, p2, p3, p4, p5, ix, iy, iz, 1.0, rootBounds[0],
                rootBounds[1], rootBounds[2], rootBounds[3], rootBounds[4], rootBounds[5]);
        if (rootEntry < 0) {
            return;
        }
        final int fold = WorldLayout.foldCategories(mask);
        // each popped node pushes at most 2 entries and leaves at most one sibling per level behind
        int[] st = stack.references(height + 3);
        double[] sf = stack.fractions(height + 3);
        final int capacity = Math.min(st.length, sf.length);
        double max = 1.0;
        double popBound = Geom.ROBUST_FAR_SCALE;
        int sp = 0;
        st[sp] = 0;
        sf[sp++] = rootEntry;
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
                // an object, pushed with its exact time
                if (entry > max) {
                    continue;
                }
                double steer = reportHit(~ref, entry, mask, true, visitor);
                if (steer == 0.0) {
                    break;
                }
                if (steer > 0.0 && steer < max) {
                    max = steer;
                    popBound = steer * Geom.ROBUST_FAR_SCALE;
                }
                continue;
            }
            if (sp + 2 > capacity) {
                throw corruptAtQuery("the tree is deeper than its header says (" + height + ")");
            }
            long base = openNode(++nodes, ref);
            int refA = store.readInt(base + WorldLayout.NODE_REF_A);
            int refB = store.readInt(base + WorldLayout.NODE_REF_B);
            double tA = Geom.NO_HIT;
            double tB = Geom.NO_HIT;
            if ((store.readInt(base + WorldLayout.NODE_CATEGORIES_A) & fold) != 0) {
                tA = sweepEntry(shape, p0, p1, p2, p3, p4, p5, dx, dy, dz, ix, iy, iz, max, base, refA);
                if (refA < 0) {
                    leaves++;
                    checkObject(ref, refA);
                } else {
                    checkChild(ref, refA);
                }
            }
            if ((store.readInt(base + WorldLayout.NODE_CATEGORIES_B) & fold) != 0) {
                tB = sweepEntry(shape, p0, p1, p2, p3, p4, p5, dx, dy, dz, ix, iy, iz, max, base + 24, refB);
                if (refB < 0) {
                    leaves++;
                    checkObject(ref, refB);
                } else {
                    checkChild(ref, refB);
                }
            }
            sp = TraversalStack.pushNearLast(st, sf, sp, refA, tA, refB, tB);
        }
        stack.countVisits(nodes, leaves);
    }

    /** The entry of a child in a sweep: the exact time for a leaf (its box is the tight box), else the bound. */
    private double sweepEntry(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                              double dx, double dy, double dz, double ix, double iy, double iz, double max,
                              long box, int ref) {
        double x0 = store.readFloat(box);
        double y0 = store.readFloat(box + 4);
        double z0 = store.readFloat(box + 8);
        double x1 = store.readFloat(box + 12);
        double y1 = store.readFloat(box + 16);
        double z1 = store.readFloat(box + 20);
        if (ref < 0) {
            double t = SweepTests.exactContact(shape, p0, p1, p2, p3, p4, p5, dx, dy, dz, ix, iy, iz,
                    x0, y0, z0, x1, y1, z1);
            return t > max ? Geom.NO_HIT : t;
        }
        return SweepTests.boundContact(shape, p0, p1, p2, p3, p4, p5, ix, iy, iz, max, x0, y0, z0, x1, y1, z1);
    }

    /**
     * The object nearest to the point (a {@code k = 1} {@link #kNearest} query).
     *
     * @param x            point x
     * @param y            point y
     * @param z            point z
     * @param maxDistance  largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the limit, or {@code null}
     * @param exact        the exact distance of each candidate, or {@code null} for the tight-box distance
     * @param dest         receives at most one result
     * @throws IllegalArgumentException for non-finite coordinates, a negative or NaN maximum or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    public void nearest(double x, double y, double z, double maxDistance, long categoryMask, QueryFilter filter,
                        DistanceFunction exact, NearestNeighbours dest) {
        kNearest(x, y, z, 1, maxDistance, categoryMask, filter, exact, dest);
    }

    /**
     * The {@code k} objects nearest to the point, nearest first, by a best-first search over the mapped nodes
     * (Hjaltason and Samet 1999) on the primitive heap of {@link NearestNeighbours}, whose search step
     * ({@link NearestNeighbours#nextNode}) and keys ({@link RegionTests#squaredDistance} of {@code point - origin}
     * to the stored boxes) are the dynamic tree's ({@code NearestQueries.kNearest}): the same objects in the same
     * order for the same stored boxes and origin. The distance of an object is the Euclidean distance to its
     * stored tight box (0 inside or on it), or the {@link DistanceFunction}'s exact distance (which must not be
     * below the box distance; a negative value drops the object). Equal distances are ordered by the lower handle
     * (object index). Only objects with {@code (categoryBits & categoryMask) != 0} that the filter accepts count,
     * filtered before the {@code k} limit; {@code maxDistance} is closed. {@code k} above the object count returns
     * all of them. Nothing is allocated once {@code dest} has grown.
     *
     * @param x            point x
     * @param y            point y
     * @param z            point z
     * @param k            number of objects wanted, {@code >= 0}
     * @param maxDistance  largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the limit, or {@code null}
     * @param exact        the exact distance of each candidate, or {@code null} for the tight-box distance
     * @param dest         receives the results (cleared first)
     * @throws IllegalArgumentException for non-finite coordinates, a negative {@code k}, a negative or NaN maximum
     *                                  or null arguments
     * @throws IllegalStateException    if the world is closed
     */
    public void kNearest(double x, double y, double z, int k, double maxDistance, long categoryMask,
                         QueryFilter filter, DistanceFunction exact, NearestNeighbours dest) {
        Arguments.requireNearest(x, y, z, k, maxDistance, dest);
        checkOpen();
        dest.clear();
        if (k == 0 || objectCount == 0) {
            return;
        }
        final double px = x - originX;
        final double py = y - originY;
        final double pz = z - originZ;
        final double limit = maxDistance * maxDistance;
        if (rootRef < 0) {
            nearestCandidate(~rootRef, false, px, py, pz, limit, categoryMask, filter, exact, dest, objectsOffset);
            dest.nextNode(k, limit, exact, x, y, z);
            return;
        }
        final int fold = WorldLayout.foldCategories(categoryMask);
        dest.pushRoot(0);
        long nodes = 0;
        for (int node = dest.nextNode(k, limit, exact, x, y, z); node != NearestNeighbours.DONE;
                node = dest.nextNode(k, limit, exact, x, y, z)) {
            long base = openNode(++nodes, node);
            for (int c = 0; c < 2; c++) {
                if ((store.readInt(base + WorldLayout.NODE_CATEGORIES_A + 4 * c) & fold) == 0) {
                    continue;
                }
                long b = base + 24L * c;
                int ref = store.readInt(base + WorldLayout.NODE_REF_A + 4 * c);
                if (ref < 0) {
                    nearestCandidate(checkObject(node, ref), true, px, py, pz, limit, categoryMask, filter, exact,
                            dest, b);
                    continue;
                }
                double d = RegionTests.squaredDistance(px, py, pz, store.readFloat(b), store.readFloat(b + 4),
                        store.readFloat(b + 8), store.readFloat(b + 12), store.readFloat(b + 16),
                        store.readFloat(b + 20));
                if (d <= limit) {
                    dest.pushNode(d, checkChild(node, ref));
                }
            }
        }
    }

    /** Queues an object for a nearest query after the category test and the filter; {@code box}: offset of its tight box (in its leaf or object record). */
    private void nearestCandidate(int object, boolean summaryPassed, double px, double py, double pz, double limit,
                                  long mask, QueryFilter filter, DistanceFunction exact, NearestNeighbours dest,
                                  long box) {
        if (!categoryDecided(mask, summaryPassed) && (categoryAt(object) & mask) == 0) {
            return;
        }
        long userValue = userValueAt(object);
        if (filter != null && !filter.accept(object, userValue)) {
            return;
        }
        double d = RegionTests.squaredDistance(px, py, pz, store.readFloat(box), store.readFloat(box + 4),
                store.readFloat(box + 8), store.readFloat(box + 12), store.readFloat(box + 16),
                store.readFloat(box + 20));
        if (d <= limit) {
            dest.pushObject(d, object, userValue, exact != null);
        }
    }

    @Override
    public void rayCast(double originX, double originY, double originZ,
                        double translationX, double translationY, double translationZ, double maxFraction,
                        long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        Arguments.requireSegment(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        checkOpen();
        visitor.begin(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        castUnchecked(originX, originY, originZ, translationX, translationY, translationZ, maxFraction, maxFraction,
                categoryMask, visitor, stack);
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
            stack.countVisits(0, 1);
            double steer = reportHit(~rootRef, t, categoryMask, false, visitor);
            return steer == 0.0 ? STOPPED : steer > 0.0 && steer < max ? steer : max;
        }
        final int fold = WorldLayout.foldCategories(categoryMask);
        int[] refs = stack.references(height + 2);
        double[] entries = stack.fractions(height + 2);
        final int capacity = Math.min(refs.length, entries.length);
        int top = 0;
        refs[top] = 0;
        entries[top++] = t;
        long nodes = 0;
        long leaves = 0;
        while (top > 0) {
            int node = refs[--top];
            if (entries[top] > max) {
                continue;
            }
            long base = openNode(++nodes, node);
            double tA = Double.NaN;
            double tB = Double.NaN;
            if ((store.readInt(base + WorldLayout.NODE_CATEGORIES_A) & fold) != 0) {
                tA = SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, maxFraction, store.readFloat(base),
                        store.readFloat(base + 4), store.readFloat(base + 8), store.readFloat(base + 12),
                        store.readFloat(base + 16), store.readFloat(base + 20));
            }
            if ((store.readInt(base + WorldLayout.NODE_CATEGORIES_B) & fold) != 0) {
                tB = SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, maxFraction, store.readFloat(base + 24),
                        store.readFloat(base + 28), store.readFloat(base + 32), store.readFloat(base + 36),
                        store.readFloat(base + 40), store.readFloat(base + 44));
            }
            // fractions are computed against the initial maxFraction (as every index of the library does, so
            // answers are bit-equal) and compared with the clipped maximum
            boolean hitA = tA >= 0.0 && tA <= max;
            boolean hitB = tB >= 0.0 && tB <= max;
            if (!hitA && !hitB) {
                continue;
            }
            // nearer child first (Box2D visits the nearer child first; here by entry fraction): leaves are
            // reported at once, nodes pushed far first so the near one pops next
            int first = hitA && (!hitB || tA <= tB) ? 0 : 1;
            for (int i = 0; i < 2; i++) {
                int c = i == 0 ? first : 1 - first;
                double tc = c == 0 ? tA : tB;
                if (!(tc >= 0.0) || tc > max) {
                    continue;
                }
                int ref = store.readInt(base + WorldLayout.NODE_REF_A + 4 * c);
                if (ref < 0) {
                    leaves++;
                    double steer = reportHit(checkObject(node, ref), tc, categoryMask, true, visitor);
                    if (steer == 0.0) {
                        stack.countVisits(nodes, leaves);
                        return STOPPED;
                    }
                    if (steer > 0.0 && steer < max) {
                        max = steer;
                    }
                }
            }
            for (int i = 1; i >= 0; i--) {
                int c = i == 0 ? first : 1 - first;
                double tc = c == 0 ? tA : tB;
                if (!(tc >= 0.0) || tc > max) {
                    continue;
                }
                int ref = store.readInt(base + WorldLayout.NODE_REF_A + 4 * c);
                if (ref >= 0) {
                    if (top == capacity) {
                        throw corruptAtQuery("the tree is deeper than its header says (" + height + ")");
                    }
                    refs[top] = checkChild(node, ref);
                    entries[top++] = tc;
                }
            }
        }
        stack.countVisits(nodes, leaves);
        return max;
    }

    /** Calls the visitor for a leaf the segment enters; returns its steering value (negative: ignored). */
    private double reportHit(int object, double fraction, long mask, boolean summaryPassed,
                             RayCastVisitor visitor) {
        if (!categoryDecided(mask, summaryPassed) && (categoryAt(object) & mask) == 0) {
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
        return nodesOffset + (long) WorldLayout.NODE_SIZE * node;
    }

    private int checkObject(int node, int ref) {
        int object = ~ref;
        if (object >= objectCount) {
            throw corruptAtQuery("node " + node + " references object " + object + " of " + objectCount);
        }
        return object;
    }

    private int checkChild(int node, int ref) {
        if (ref <= node || ref >= nodeCount) {
            throw corruptAtQuery("node " + node + " references node " + ref + " (must be in (" + node + ", "
                    + nodeCount + "))");
        }
        return ref;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the world " + file + " is closed");
        }
    }

    private void checkHandle(int handle) {
        checkOpen();
        if (handle < 0 || handle >= objectCount) {
            throw new IllegalArgumentException("handle " + handle + " is not an object of this world (0 .. "
                    + (objectCount - 1) + ")");
        }
    }

    private CorruptWorldFileException corrupt(String what) {
        return new CorruptWorldFileException(file + ": " + what);
    }

    private UncheckedIOException corruptAtQuery(String what) {
        return new UncheckedIOException(corrupt(what + "; run verify()"));
    }

    /** The validated header fields. */
    static final class Header {
        int objectCount;
        int nodeCount;
        int rootRef;
        int height;
        final double[] origin = new double[3];
        final float[] rootBounds = new float[6];
        final long[] offsets = new long[WorldLayout.SECTION_COUNT];
        final long[] lengths = new long[WorldLayout.SECTION_COUNT];
        final int[] crcs = new int[WorldLayout.SECTION_COUNT];

        /** Reads and validates the header without mapping the file. */
        static Header read(Path file, long fileLength) throws IOException {
            if (fileLength < WorldLayout.HEADER_SIZE) {
                throw fail(file, "the file is " + fileLength + " bytes, shorter than the "
                        + WorldLayout.HEADER_SIZE + "-byte header");
            }
            ByteBuffer h = ByteBuffer.allocate(WorldLayout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                while (h.hasRemaining()) {
                    if (channel.read(h, h.position()) < 0) {
                        throw fail(file, "unexpected end of file in the header");
                    }
                }
            }
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
            return r;
        }

        private void parse(Path file, long fileLength, ByteBuffer h) throws CorruptWorldFileException {
            int flags = h.getInt(WorldLayout.FLAGS_OFFSET);
            if ((flags & ~WorldLayout.KNOWN_FLAGS) != 0) {
                throw fail(file, "unknown flags " + Integer.toHexString(flags));
            }
            long objects = h.getLong(WorldLayout.OBJECT_COUNT_OFFSET);
            if (objects < 0 || objects > BinnedSahBuilder.MAX_OBJECTS) {
                throw fail(file, "object count " + objects + " outside [0, " + BinnedSahBuilder.MAX_OBJECTS + "]");
            }
            objectCount = (int) objects;
            long nodes = h.getLong(WorldLayout.NODE_COUNT_OFFSET);
            if (nodes != Math.max(0, objects - 1)) {
                throw fail(file, "node count " + nodes + " for " + objects + " objects (must be objects - 1)");
            }
            nodeCount = (int) nodes;
            rootRef = h.getInt(WorldLayout.ROOT_REF_OFFSET);
            int expectedRoot = objects == 0 ? FlatBvh.NULL_REF : objects == 1 ? ~0 : 0;
            if (rootRef != expectedRoot) {
                throw fail(file, "root reference " + rootRef + " for " + objects + " objects");
            }
            height = h.getInt(WorldLayout.HEIGHT_OFFSET);
            int minHeight = nodes == 0 ? 0 : 64 - Long.numberOfLeadingZeros(objects - 1);
            if (height < minHeight || height > nodes) {
                throw fail(file, "tree height " + height + " impossible for " + objects + " objects");
            }
            for (int a = 0; a < 3; a++) {
                origin[a] = h.getDouble(WorldLayout.ORIGIN_OFFSET + 8 * a);
                if (!Double.isFinite(origin[a])) {
                    throw fail(file, "origin coordinate " + a + " is not finite: " + origin[a]);
                }
            }
            for (int a = 0; a < 6; a++) {
                rootBounds[a] = h.getFloat(WorldLayout.ROOT_BOUNDS_OFFSET + 4 * a);
                if (!Float.isFinite(rootBounds[a])) {
                    throw fail(file, "root bounds are not finite");
                }
            }
            if (objects > 0 && (rootBounds[0] > rootBounds[3] || rootBounds[1] > rootBounds[4]
                    || rootBounds[2] > rootBounds[5])) {
                throw fail(file, "root bounds are inverted");
            }
            long previousEnd = WorldLayout.HEADER_SIZE;
            for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
                int e = WorldLayout.sectionEntryOffset(s);
                String name = WorldLayout.SECTION_NAMES[s];
                long offset = h.getLong(e + WorldLayout.ENTRY_OFFSET);
                long length = h.getLong(e + WorldLayout.ENTRY_LENGTH);
                int recordSize = h.getInt(e + WorldLayout.ENTRY_RECORD_SIZE);
                if (recordSize != WorldLayout.RECORD_SIZES[s]) {
                    throw fail(file, name + " section record size " + recordSize + " instead of "
                            + WorldLayout.RECORD_SIZES[s]);
                }
                long expected = s == WorldLayout.SECTION_NODES ? nodes * WorldLayout.NODE_SIZE
                        : s == WorldLayout.SECTION_PAYLOAD ? length : objects * recordSize;
                if (s == WorldLayout.SECTION_PAYLOAD && (flags & WorldLayout.FLAG_PAYLOAD) == 0 && length != 0) {
                    throw fail(file, "payload section of " + length + " bytes without the payload flag");
                }
                if (length != expected || length < 0) {
                    throw fail(file, name + " section length " + length + " instead of " + expected);
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
