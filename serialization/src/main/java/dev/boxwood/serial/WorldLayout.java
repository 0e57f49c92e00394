package dev.boxwood.serial;

import dev.boxwood.geom.BoxMessages;
import dev.boxwood.query.OutwardFloat;

/**
 * Byte layout of a static world file, format version {@value #FORMAT_VERSION} (described in full in
 * {@code docs/format.md}). All values are little-endian; every offset and length is a 64-bit byte count, so
 * files may be far larger than 2 GiB.
 *
 * <pre>
 *  header (256 bytes, at 0)
 *  +0    u64  magic "BXWWORLD"               +48   f64 x3  origin x, y, z
 *  +8    u32  format version (2)             +72   f32 x6  root bounds (min xyz, max xyz), relative to origin
 *  +12   u32  byte-order mark 0x01020304     +96   section table: 6 entries of 24 bytes
 *  +16   u32  header size (256)                    +0 u64 offset  +8 u64 length  +16 u32 CRC32C
 *  +20   u32  flags (payload, palette,             +20 u32 record size
 *             no zero category bits)         +240  12 reserved bytes (0)
 *  +24   u64  object count n                 +252  u32 CRC32C of bytes [0, 252)
 *  +32   u64  internal node count
 *  +40   i32  root reference
 *  +44   u32  tree height (internal nodes on the longest root-to-leaf path)
 *
 *  node record (40 bytes, depth-first pre-order; child A, when internal, is the next node)
 *  +0  u16 x6 quantized box of child A   +12 u16 x6 quantized box of child B
 *  +24 i32 ref A   +28 i32 ref B   +32 u32 category summary of A   +36 u32 category summary of B
 *
 *  per object, in storage (leaf) order, which is handle order:
 *    box record (24 bytes): f32 x6 tight box
 *    category record: u16 palette index (palette flag) or u64 category bits
 *    user value record (8 bytes): u64
 *  palette: u64 per distinct category value, strictly ascending (palette flag; else empty)
 * </pre>
 * A reference {@code r >= 0} names internal node {@code r}; {@code r < 0} names a leaf, the run of objects
 * {@code [first, first + count)} with {@code ~r = (first << 3) | (count - 1)}, {@code 1 <= count <=}
 * {@value #MAX_LEAF_SIZE}. A category summary is the OR of the folded category bits
 * ({@code (int) (bits | bits >>> 32)}) of every object below the child, a conservative pre-filter for the mask.
 *
 * <p>Quantized boxes are relative to the decoded box of the node holding them (the root's is the header's root
 * bounds), as compressed wide BVHs quantize children to their parent's frame (Ylitie, Karras and Laine 2017,
 * "Efficient incoherent ray traversal on GPUs through compressed wide BVHs"): see {@link #decode} and
 * {@link #scale}. Decoded boxes always contain what is below them; answers are exact because objects are tested
 * on their stored float boxes.
 */
public final class WorldLayout {

    /** "BXWWORLD" read as a little-endian long. */
    public static final long MAGIC = 0x444C524F57575842L;
    /** The format version this library writes and reads. */
    public static final int FORMAT_VERSION = 2;
    /** Written as a little-endian int; read back unchanged only with the right byte order. */
    public static final int BYTE_ORDER_MARK = 0x01020304;
    /** Header size in bytes. */
    public static final int HEADER_SIZE = 256;
    /** Flag: the payload section is present. */
    public static final int FLAG_PAYLOAD = 1;
    /** Flag: category records are u16 indices into the palette section (at most 65536 distinct values). */
    public static final int FLAG_CATEGORY_PALETTE = 2;
    /**
     * Flag: no object has category bits 0, so a query with the mask {@code -1L} needs no per-object category
     * test (every object matches it).
     */
    public static final int FLAG_NO_ZERO_CATEGORY = 4;
    /** All flags this version knows. */
    public static final int KNOWN_FLAGS = FLAG_PAYLOAD | FLAG_CATEGORY_PALETTE | FLAG_NO_ZERO_CATEGORY;
    /** Alignment of every section offset (a cache line). */
    public static final int SECTION_ALIGNMENT = 64;
    /** The largest number of objects in one leaf; the writer fills leaves up to it. */
    public static final int MAX_LEAF_SIZE = 8;
    /** The largest number of distinct category values stored through the palette. */
    public static final int MAX_PALETTE_SIZE = 1 << 16;
    /** The largest quantized coordinate. */
    public static final int MAX_QUANTIZED = 0xFFFF;
    /**
     * The quantization step factor: a node's step is {@code (max - min) * K}. {@code 65535 * K} exceeds 1 by
     * 0.8 %, far more than the rounding of the float operations, so the largest code always reaches the node's max
     * ({@link #scale} raises the rare subnormal step that would not).
     */
    public static final float QUANTIZATION_FACTOR = 1f / 65000f;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int BYTE_ORDER_OFFSET = 12;
    static final int HEADER_SIZE_OFFSET = 16;
    static final int FLAGS_OFFSET = 20;
    static final int OBJECT_COUNT_OFFSET = 24;
    static final int NODE_COUNT_OFFSET = 32;
    static final int ROOT_REF_OFFSET = 40;
    static final int HEIGHT_OFFSET = 44;
    static final int ORIGIN_OFFSET = 48;
    static final int ROOT_BOUNDS_OFFSET = 72;
    static final int SECTION_TABLE_OFFSET = 96;
    static final int SECTION_ENTRY_SIZE = 24;
    static final int RESERVED_OFFSET = 240;
    static final int HEADER_CRC_OFFSET = 252;

    /** Section entry field: offset. */
    public static final int ENTRY_OFFSET = 0;
    /** Section entry field: length in bytes. */
    public static final int ENTRY_LENGTH = 8;
    /** Section entry field: CRC32C of the section's bytes. */
    public static final int ENTRY_CRC = 16;
    /** Section entry field: record size (0 for the payload). */
    public static final int ENTRY_RECORD_SIZE = 20;

    /** Section index of the node records. */
    public static final int SECTION_NODES = 0;
    /** Section index of the object boxes. */
    public static final int SECTION_BOXES = 1;
    /** Section index of the per-object category records. */
    public static final int SECTION_CATEGORIES = 2;
    /** Section index of the category palette. */
    public static final int SECTION_PALETTE = 3;
    /** Section index of the user values. */
    public static final int SECTION_USER_VALUES = 4;
    /** Section index of the opaque user payload. */
    public static final int SECTION_PAYLOAD = 5;
    /** Number of sections. */
    public static final int SECTION_COUNT = 6;

    /** Node record size. */
    public static final int NODE_SIZE = 40;
    /** Node field: the quantized boxes of child A then child B, 6 u16 each. */
    public static final int NODE_BOXES = 0;
    /** Node field: reference to child A (i32), followed by the reference to child B. */
    public static final int NODE_REF_A = 24;
    /** Node field: reference to child B. */
    public static final int NODE_REF_B = 28;
    /** Node field: category summary of child A (u32), followed by that of child B. */
    public static final int NODE_CATEGORIES_A = 32;
    /** Node field: category summary of child B. */
    public static final int NODE_CATEGORIES_B = 36;

    /** Box record size. */
    public static final int BOX_SIZE = 24;
    /** Category record size with the palette flag. */
    public static final int PALETTE_INDEX_SIZE = 2;
    /** Category record size without the palette flag. */
    public static final int CATEGORY_SIZE = 8;
    /** Palette entry size. */
    public static final int PALETTE_ENTRY_SIZE = 8;
    /** User value record size. */
    public static final int USER_VALUE_SIZE = 8;

    /** Section names for messages. */
    static final String[] SECTION_NAMES = {"nodes", "boxes", "categories", "palette", "user values", "payload"};

    private WorldLayout() {
    }

    /**
     * @param section a section index
     * @return the header offset of that section's table entry
     */
    public static int sectionEntryOffset(int section) {
        return SECTION_TABLE_OFFSET + section * SECTION_ENTRY_SIZE;
    }

    /**
     * @param section a section index
     * @param flags   the header flags
     * @return the record size of that section for those flags, 0 for the payload
     */
    static int recordSize(int section, int flags) {
        switch (section) {
            case SECTION_NODES:
                return NODE_SIZE;
            case SECTION_BOXES:
                return BOX_SIZE;
            case SECTION_CATEGORIES:
                return (flags & FLAG_CATEGORY_PALETTE) != 0 ? PALETTE_INDEX_SIZE : CATEGORY_SIZE;
            case SECTION_PALETTE:
                return PALETTE_ENTRY_SIZE;
            case SECTION_USER_VALUES:
                return USER_VALUE_SIZE;
            default:
                return 0;
        }
    }

    /**
     * Folds 64 category bits into the 32-bit summary stored in nodes; if {@code (a & b) != 0} then
     * {@code (fold(a) & fold(b)) != 0}, so a summary test never rejects a match.
     *
     * @param categoryBits category bits or a mask
     * @return the folded bits
     */
    public static int foldCategories(long categoryBits) {
        return (int) (categoryBits | (categoryBits >>> 32));
    }

    /**
     * The quantization step of one axis of a node whose decoded box spans {@code [min, max]}: float arithmetic,
     * so writer and reader compute the same bits. Unvalidated kernel.
     *
     * @param min the node's decoded min coordinate
     * @param max the node's decoded max coordinate
     * @return {@code fl(fl(max - min) * K)}, raised to the next float until {@code decode(65535) >= max} where
     *         that product is subnormal
     */
    public static float scale(float min, float max) {
        float scale = (max - min) * QUANTIZATION_FACTOR;
        if (scale < Float.MIN_NORMAL && scale >= 0f) {
            // a subnormal product loses the 0.8 % margin to its absolute rounding (an extent below about 1e-40
            // gives a step of 0 or one denormal), so decode(65535) could fall short of max and cull a match;
            // one or two steps up restore it, and normal extents never come here, so their codes are unchanged
            // (nor do the inverted extents of a corrupt node, which would take up to 2^17 steps)
            while (decode(min, scale, MAX_QUANTIZED) < max) {
                scale = Math.nextUp(scale);
            }
        }
        return scale;
    }

    /**
     * A decoded child coordinate: {@code fl(min + fl(q * scale))}. Monotone in {@code q}; {@code decode(0)} is the
     * node's min and {@code decode(65535)} is at least its max. Unvalidated kernel.
     *
     * @param min   the node's decoded min coordinate on the axis
     * @param scale {@link #scale} of the axis
     * @param q     the quantized coordinate, {@code 0 .. 65535}
     * @return the decoded coordinate
     */
    public static float decode(float min, float scale, int q) {
        return min + q * scale;
    }

    /**
     * The quantized code of a child's min coordinate: the largest {@code q} whose decoded value is not above
     * {@code value} (0 if none is). The writer's rule, also used by {@code verify()} to check stored codes.
     *
     * @param min   the node's decoded min coordinate
     * @param scale the axis' {@link #scale}
     * @param value the child's min coordinate
     * @return the code
     */
    static int quantizeMin(float min, float scale, float value) {
        // decode is monotone in q but flat over runs of codes where a step is below the float spacing of the
        // coordinates (small nodes far from the origin): a binary search costs 16 steps whatever the plateaus
        int lo = 0;
        int hi = MAX_QUANTIZED;
        if (decode(min, scale, hi) <= value) {
            return hi;
        }
        // invariant: decode(hi) > value; the answer is below hi
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (decode(min, scale, mid) <= value) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * The quantized code of a child's max coordinate: the smallest {@code q} whose decoded value is not below
     * {@code value} (65535 if none is).
     *
     * @param min   the node's decoded min coordinate
     * @param scale the axis' {@link #scale}
     * @param value the child's max coordinate
     * @return the code
     */
    static int quantizeMax(float min, float scale, float value) {
        int lo = 0;
        int hi = MAX_QUANTIZED;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (decode(min, scale, mid) >= value) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * Encodes a leaf reference.
     *
     * @param first the first object of the run
     * @param count the number of objects, {@code 1 ..} {@value #MAX_LEAF_SIZE}
     * @return the reference, negative
     */
    static int leafRef(int first, int count) {
        return ~((first << 3) | (count - 1));
    }

    /**
     * @param ref a leaf reference
     * @return its first object
     */
    static int leafFirst(int ref) {
        return ~ref >>> 3;
    }

    /**
     * @param ref a leaf reference
     * @return its object count
     */
    static int leafCount(int ref) {
        return (~ref & 7) + 1;
    }

    /**
     * What is wrong with a stored object box, or {@code null} if it is one a writer stores: on every axis finite,
     * {@code min <= max}, and within {@link OutwardFloat#MAX_STORED} of the origin (the rule every index stores
     * boxes by). The writer refuses such a box and the reader reports it as corruption: one rule on both sides, so
     * the writer never writes a box the reader rejects.
     *
     * @param boxes float boxes, stride 6
     * @param at    index of the box's {@code minX}
     * @return the problem, as a predicate of "the box" in the wording of {@link BoxMessages} (for example
     *         {@code "is inverted on axis x: minX = 2.0 > maxX = 1.0"})
     */
    static String storedBoxProblem(float[] boxes, int at) {
        for (int a = 0; a < 3; a++) {
            float lo = boxes[at + a];
            float hi = boxes[at + 3 + a];
            if (!(Float.isFinite(lo) && Float.isFinite(hi) && lo <= hi)) {
                return BoxMessages.problem(a, lo, hi);
            }
            if (!OutwardFloat.withinStoredRange(lo) || !OutwardFloat.withinStoredRange(hi)) {
                return BoxMessages.beyondStorage(a, lo, hi, OutwardFloat.MAX_OFFSET, "the origin");
            }
        }
        return null;
    }

    static long alignUp(long offset) {
        return (offset + SECTION_ALIGNMENT - 1) & -SECTION_ALIGNMENT;
    }
}
