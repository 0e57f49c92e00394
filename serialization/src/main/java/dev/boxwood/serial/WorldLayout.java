package dev.boxwood.serial;

/**
 * Byte layout of a static world file, format version {@value #FORMAT_VERSION} (described in full in
 * {@code docs/format.md}). All values are little-endian; every offset and length is a 64-bit byte count, so
 * files may be far larger than 2 GiB.
 *
 * <pre>
 *  header (256 bytes, at 0)
 *  +0    u64  magic "BXWWORLD"               +48   f64 x3  origin x, y, z
 *  +8    u32  format version                 +72   f32 x6  root bounds (min xyz, max xyz), relative to origin
 *  +12   u32  byte-order mark 0x01020304     +96   section table: 4 entries of 32 bytes
 *  +16   u32  header size (256)                    +0 u64 offset  +8 u64 length  +16 u32 CRC32C
 *  +20   u32  flags (bit 0: payload present)       +20 u32 record size  +24 u64 reserved (0)
 *  +24   u64  object count                   +224  28 reserved bytes (0)
 *  +32   u64  internal node count            +252  u32 CRC32C of bytes [0, 252)
 *  +40   i32  root reference
 *  +44   u32  tree height (internal nodes on the longest root-to-leaf path)
 *
 *  node record (64 bytes, one cache line, depth-first order, section offset a multiple of 64)
 *  +0  f32 x6 box of child A   +24 f32 x6 box of child B   +48 i32 ref A   +52 i32 ref B
 *  +56 u32 category summary of A   +60 u32 category summary of B
 *
 *  object record (32 bytes, in object index order)
 *  +0  f32 x6 tight box   +24 u64 category bits
 *
 *  user value record (8 bytes, in object index order): u64 user value
 * </pre>
 * A reference {@code r >= 0} names internal node {@code r}; {@code r < 0} names object {@code ~r}. A category
 * summary is the OR of the folded category bits ({@code (int) (bits | bits >>> 32)}) of every object below the
 * child, a conservative pre-filter for the category mask.
 */
public final class WorldLayout {

    /** "BXWWORLD" read as a little-endian long. */
    public static final long MAGIC = 0x444C524F57575842L;
    /** The format version this library writes and reads. */
    public static final int FORMAT_VERSION = 1;
    /** Written as a little-endian int; read back unchanged only with the right byte order. */
    public static final int BYTE_ORDER_MARK = 0x01020304;
    /** Header size in bytes. */
    public static final int HEADER_SIZE = 256;
    /** Flag: the payload section is present. */
    public static final int FLAG_PAYLOAD = 1;
    /** All flags this version knows. */
    public static final int KNOWN_FLAGS = FLAG_PAYLOAD;
    /** Alignment of every section offset (a cache line). */
    public static final int SECTION_ALIGNMENT = 64;

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
    static final int SECTION_ENTRY_SIZE = 32;
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
    /** Section index of the object records. */
    public static final int SECTION_OBJECTS = 1;
    /** Section index of the user values. */
    public static final int SECTION_USER_VALUES = 2;
    /** Section index of the opaque user payload. */
    public static final int SECTION_PAYLOAD = 3;
    /** Number of sections. */
    public static final int SECTION_COUNT = 4;

    /** Node record size. */
    public static final int NODE_SIZE = 64;
    static final int NODE_BOX_A = 0;
    static final int NODE_BOX_B = 24;
    static final int NODE_REF_A = 48;
    static final int NODE_REF_B = 52;
    static final int NODE_CATEGORIES_A = 56;
    static final int NODE_CATEGORIES_B = 60;

    /** Object record size. */
    public static final int OBJECT_SIZE = 32;
    static final int OBJECT_BOX = 0;
    static final int OBJECT_CATEGORY = 24;

    /** User value record size. */
    public static final int USER_VALUE_SIZE = 8;

    /** Record size of each section, 0 for the payload. */
    static final int[] RECORD_SIZES = {NODE_SIZE, OBJECT_SIZE, USER_VALUE_SIZE, 0};

    /** Section names for messages. */
    static final String[] SECTION_NAMES = {"nodes", "objects", "user values", "payload"};

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
     * Folds 64 category bits into the 32-bit summary stored in nodes; if {@code (a & b) != 0} then
     * {@code (fold(a) & fold(b)) != 0}, so a summary test never rejects a match.
     *
     * @param categoryBits category bits or a mask
     * @return the folded bits
     */
    public static int foldCategories(long categoryBits) {
        return (int) (categoryBits | (categoryBits >>> 32));
    }

    static long alignUp(long offset) {
        return (offset + SECTION_ALIGNMENT - 1) & -SECTION_ALIGNMENT;
    }
}
