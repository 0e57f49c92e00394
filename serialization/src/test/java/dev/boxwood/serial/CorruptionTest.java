package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.TraversalStack;
import net.openhft.chronicle.core.io.AbstractReferenceCounted;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged and hostile files: every corruption is reported by {@link MappedWorld#open} or {@link MappedWorld#verify()}
 * as a {@link CorruptWorldFileException}, and queries on a damaged but opened world either answer or throw an
 * {@link UncheckedIOException} wrapping one; nothing else (no index exception, no JVM crash).
 */
class CorruptionTest {

    @TempDir
    Path dir;

    private byte[] valid;
    private ByteBuffer header;
    private int trial;

    @BeforeEach
    void writeValidWorld() throws IOException {
        AbstractReferenceCounted.enableReferenceTracing();
        Path file = dir.resolve("valid.bxw");
        TestWorld.clustered(500, 77).write(file);
        valid = Files.readAllBytes(file);
        header = ByteBuffer.wrap(valid).order(ByteOrder.LITTLE_ENDIAN);
        try (MappedWorld world = MappedWorld.open(file)) {
            world.verify();
        }
    }

    @AfterEach
    void assertEverythingUnmapped() {
        AbstractReferenceCounted.assertReferencesReleased();
    }

    private long sectionOffset(int section) {
        return header.getLong(WorldLayout.sectionEntryOffset(section) + WorldLayout.ENTRY_OFFSET);
    }

    private long sectionLength(int section) {
        return header.getLong(WorldLayout.sectionEntryOffset(section) + WorldLayout.ENTRY_LENGTH);
    }

    /** Writes the bytes to a new file and returns the rejection message; fails if the world is accepted. */
    private String assertRejected(byte[] bytes, String what) throws IOException {
        Path file = dir.resolve("trial-" + (trial++) + ".bxw");
        Files.write(file, bytes);
        try (MappedWorld world = MappedWorld.open(file)) {
            exercise(world, what);
            world.verify();
        } catch (CorruptWorldFileException e) {
            assertTrue(e.getMessage().startsWith(file.toString()), "message names the file: " + e.getMessage());
            Files.delete(file);
            return e.getMessage();
        }
        throw new AssertionError(what + ": the corrupt world was accepted");
    }

    /** Queries a possibly corrupt world: it may answer or throw a wrapped CorruptWorldFileException only. */
    private static void exercise(MappedWorld world, String what) {
        TraversalStack stack = new TraversalStack(1);
        double[] b = new double[6];
        try {
            world.getBounds(b);
            world.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, new AllOverlaps(), stack);
            world.queryAabb(b[0], b[1], b[2], (b[0] + b[3]) / 2, b[4], b[5], 0x0F0FL, new AllOverlaps(), stack);
            world.querySphere((b[0] + b[3]) / 2, (b[1] + b[4]) / 2, b[2], (b[3] - b[0]) / 3, -1L, new AllOverlaps(),
                    stack);
            world.rayCast(b[0], b[1], b[2], b[3] - b[0], b[4] - b[1], b[5] - b[2], 1.0, -1L, new AllHits(), stack);
            world.rayCast(b[3], b[1], b[5], b[0] - b[3], b[4] - b[1], b[2] - b[5], 1.0, -1L, new AllHits(), stack);
            world.rayCast(b[3], b[1], b[5], b[0] - b[3], b[4] - b[1], b[2] - b[5], 1.0, 0x0F0FL, new ClosestHit(),
                    stack);
            world.sweepSphere(b[0], b[1], b[2], (b[3] - b[0]) / 20, b[3] - b[0], b[4] - b[1], b[5] - b[2], -1L,
                    new AllHits(), stack);
            world.sweepBox(b[0], b[1], b[2], b[0] + 1, b[1] + 1, b[2] + 1, b[3] - b[0], 0, b[5] - b[2], 0x0F0FL,
                    new ClosestHit(), stack);
            world.kNearest((b[0] + b[3]) / 2, b[1], b[5], 7, Double.POSITIVE_INFINITY, -1L, null, null,
                    new NearestNeighbours());
            for (int i = 0; i < world.size(); i += 37) {
                world.userValue(i);
                world.categoryBits(i);
                world.getTightBox(i, b);
            }
        } catch (UncheckedIOException e) {
            assertInstanceOf(CorruptWorldFileException.class, e.getCause(), what);
        }
    }

    private byte[] mutated(Consumer<ByteBuffer> change, boolean resealSections) {
        byte[] bytes = valid.clone();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        change.accept(b);
        if (resealSections) {
            for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
                int e = WorldLayout.sectionEntryOffset(s);
                CRC32C crc = new CRC32C();
                crc.update(bytes, (int) sectionOffset(s), (int) sectionLength(s));
                b.putInt(e + WorldLayout.ENTRY_CRC, (int) crc.getValue());
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, WorldLayout.HEADER_CRC_OFFSET);
        b.putInt(WorldLayout.HEADER_CRC_OFFSET, (int) crc.getValue());
        return bytes;
    }

    @Test
    void shouldDetectRandomBitFlipsInEverySectionAndInThePadding() throws IOException {
        SplittableRandom r = new SplittableRandom(1234);
        long[][] regions = new long[WorldLayout.SECTION_COUNT + 2][];
        regions[0] = new long[] {0, WorldLayout.HEADER_SIZE};
        for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
            regions[s + 1] = new long[] {sectionOffset(s), sectionOffset(s) + sectionLength(s)};
        }
        // the alignment gap after the palette indices (500 * 2 bytes is not a multiple of 64)
        long indicesEnd = sectionOffset(WorldLayout.SECTION_CATEGORIES) + sectionLength(WorldLayout.SECTION_CATEGORIES);
        regions[WorldLayout.SECTION_COUNT + 1] = new long[] {indicesEnd, sectionOffset(WorldLayout.SECTION_PALETTE)};
        assertTrue(regions[WorldLayout.SECTION_COUNT + 1][1] > indicesEnd, "the fixture has padding to damage");
        for (long[] region : regions) {
            assertTrue(region[1] > region[0]);
            for (int t = 0; t < 25; t++) {
                byte[] bytes = valid.clone();
                int flips = t < 15 ? 1 : 1 + r.nextInt(16);
                for (int f = 0; f < flips; f++) {
                    int at = (int) (region[0] + r.nextLong(region[1] - region[0]));
                    bytes[at] ^= (byte) (1 << r.nextInt(8));
                }
                if (!Arrays.equals(bytes, valid)) {
                    assertRejected(bytes, flips + " flips in [" + region[0] + ", " + region[1] + ")");
                }
            }
        }
    }

    @Test
    void shouldRejectTruncatedAndExtendedFiles() throws IOException {
        int[] lengths = {0, 1, 8, WorldLayout.HEADER_SIZE - 1, WorldLayout.HEADER_SIZE, WorldLayout.HEADER_SIZE + 64,
            valid.length / 2, valid.length - 8, valid.length - 1};
        for (int length : lengths) {
            String message = assertRejected(Arrays.copyOf(valid, length), "truncated to " + length);
            assertTrue(message.contains("shorter") || message.contains("truncated") || message.contains("past the end"),
                    message);
        }
        assertTrue(assertRejected(Arrays.copyOf(valid, valid.length + 1), "one byte appended").contains("appended"));
    }

    @Test
    void shouldNameWhatIsWrongInTheHeader() throws IOException {
        assertMessage(mutated(b -> b.putLong(WorldLayout.MAGIC_OFFSET, 0x1234L), false), "magic");
        assertMessage(mutated(b -> b.putInt(WorldLayout.VERSION_OFFSET, 1), false), "unsupported format version 1");
        assertMessage(mutated(b -> b.putInt(WorldLayout.VERSION_OFFSET, 3), false), "unsupported format version 3");
        assertMessage(mutated(b -> b.putInt(WorldLayout.BYTE_ORDER_OFFSET,
                Integer.reverseBytes(WorldLayout.BYTE_ORDER_MARK)), false), "big-endian");
        assertMessage(mutated(b -> b.putInt(WorldLayout.HEADER_SIZE_OFFSET, 512), false), "header size");
        assertMessage(mutated(b -> b.putInt(WorldLayout.FLAGS_OFFSET, 9), false), "unknown flags");
        assertMessage(mutated(b -> b.put(WorldLayout.RESERVED_OFFSET + 3, (byte) 1), false), "reserved");
        byte[] badCrc = valid.clone();
        badCrc[WorldLayout.HEADER_CRC_OFFSET] ^= 1;
        assertMessage(badCrc, "header checksum");
    }

    @Test
    void shouldRejectLyingCountsAndOffsetsEvenWithValidChecksums() throws IOException {
        long objects = header.getLong(WorldLayout.OBJECT_COUNT_OFFSET);
        assertMessage(mutated(b -> b.putLong(WorldLayout.NODE_COUNT_OFFSET, 0), true), "node count");
        assertMessage(mutated(b -> b.putLong(WorldLayout.NODE_COUNT_OFFSET, objects), true), "node count");
        assertMessage(mutated(b -> b.putLong(WorldLayout.OBJECT_COUNT_OFFSET, objects + 1), true), "section length");
        assertMessage(mutated(b -> b.putLong(WorldLayout.OBJECT_COUNT_OFFSET, -5), true), "object count");
        assertMessage(mutated(b -> b.putLong(WorldLayout.OBJECT_COUNT_OFFSET, Long.MAX_VALUE), true), "object count");
        for (int s = 0; s < WorldLayout.SECTION_COUNT; s++) {
            int e = WorldLayout.sectionEntryOffset(s);
            assertMessage(mutated(b -> b.putLong(e + WorldLayout.ENTRY_OFFSET, 1L << 62), true), "offset");
            assertMessage(mutated(b -> b.putLong(e + WorldLayout.ENTRY_OFFSET, -64), true), "offset");
            assertRejected(mutated(b -> b.putLong(e + WorldLayout.ENTRY_LENGTH, b.getLong(e + WorldLayout.ENTRY_LENGTH)
                    + 64), true), "section " + s + " longer");
            assertRejected(mutated(b -> b.putLong(e + WorldLayout.ENTRY_LENGTH, Long.MAX_VALUE), true),
                    "section " + s + " huge");
            assertMessage(mutated(b -> b.putInt(e + WorldLayout.ENTRY_RECORD_SIZE, 16), true), "record size");
        }
        assertMessage(mutated(b -> b.putInt(WorldLayout.ROOT_REF_OFFSET, 3), true), "root reference");
        assertMessage(mutated(b -> b.putInt(WorldLayout.HEIGHT_OFFSET, 100_000), true), "height");
        assertMessage(mutated(b -> b.putDouble(WorldLayout.ORIGIN_OFFSET, Double.NaN), true), "origin");
        // finite, but so far out that a query moved into the frame would overflow
        assertMessage(mutated(b -> b.putDouble(WorldLayout.ORIGIN_OFFSET + 16, -1e308), true), "origin");
        assertMessage(mutated(b -> b.putDouble(WorldLayout.ORIGIN_OFFSET + 8, Math.nextUp(1e300)), true), "origin");
        assertMessage(mutated(b -> b.putFloat(WorldLayout.ROOT_BOUNDS_OFFSET, Float.POSITIVE_INFINITY), true),
                "root bounds");
    }

    @Test
    void shouldSurviveHostileTreesWithValidChecksums() throws IOException {
        long nodes = sectionOffset(WorldLayout.SECTION_NODES);
        int nodeCount = (int) header.getLong(WorldLayout.NODE_COUNT_OFFSET);
        int objects = (int) header.getLong(WorldLayout.OBJECT_COUNT_OFFSET);
        int height = header.getInt(WorldLayout.HEIGHT_OFFSET);
        // a header that understates the height: traversal stacks would overflow
        int least = 64 - Long.numberOfLeadingZeros(nodeCount);
        assertTrue(height > least);
        assertRejected(mutated(b -> b.putInt(WorldLayout.HEIGHT_OFFSET, least), true), "height " + least);
        SplittableRandom r = new SplittableRandom(99);
        int[] hostileRefs = {0, -1, nodeCount, nodeCount + 5, Integer.MAX_VALUE, WorldLayout.leafRef(objects - 1, 2),
            WorldLayout.leafRef(objects + 7, 1), Integer.MIN_VALUE, WorldLayout.leafRef(0, 8)};
        for (int t = 0; t < 60; t++) {
            int node = t < hostileRefs.length ? 3 : r.nextInt(nodeCount);
            int field = r.nextBoolean() ? WorldLayout.NODE_REF_A : WorldLayout.NODE_REF_B;
            long at = nodes + (long) WorldLayout.NODE_SIZE * node + field;
            int original = header.getInt((int) at);
            int value = t < hostileRefs.length ? hostileRefs[t] : t % 3 == 0 ? node
                    : t % 3 == 1 ? WorldLayout.leafRef(r.nextInt(objects), 1 + r.nextInt(8)) : r.nextInt(nodeCount + 3);
            if (value == original) {
                continue;
            }
            assertRejected(mutated(b -> b.putInt((int) at, value), true), "node " + node + " ref " + value);
        }
        // a reference to an earlier node: a cycle that must not hang or overflow a query
        assertRejected(mutated(b -> b.putInt((int) (nodes + (long) WorldLayout.NODE_SIZE * (nodeCount - 1)
                + WorldLayout.NODE_REF_B), 1), true), "back reference");
        // quantized boxes that shrink (codes moved inward) or grow (outward, still containing): both are not the
        // writer's codes
        for (int t = 0; t < 40; t++) {
            int node = r.nextInt(nodeCount);
            int coordinate = r.nextInt(12);
            long at = nodes + (long) WorldLayout.NODE_SIZE * node + WorldLayout.NODE_BOXES + 2L * coordinate;
            int code = Short.toUnsignedInt(header.getShort((int) at));
            boolean isMin = coordinate % 6 < 3;
            int moved = t % 2 == 0 ? (isMin ? Math.min(0xFFFF, code + 1 + r.nextInt(3000)) : Math.max(0, code - 1
                    - r.nextInt(3000))) : isMin ? Math.max(0, code - 1 - r.nextInt(50)) : Math.min(0xFFFF, code + 1
                    + r.nextInt(50));
            if (moved != code) {
                assertRejected(mutated(b -> b.putShort((int) at, (short) moved), true), "node " + node
                        + " code " + coordinate + " " + code + " -> " + moved);
            }
        }
        assertRejected(mutated(b -> b.putInt((int) (nodes + WorldLayout.NODE_SIZE * 2 + WorldLayout.NODE_CATEGORIES_B),
                0), true), "category summary");
        long boxesAt = sectionOffset(WorldLayout.SECTION_BOXES);
        // an object box growing out of its leaf's box (a change inside it is a valid world of other boxes: only the
        // checksum can tell, as the bit flips above show)
        assertRejected(mutated(b -> b.putFloat((int) boxesAt, b.getFloat((int) boxesAt) - 1000), true), "object box");
        assertRejected(mutated(b -> b.putFloat((int) boxesAt + 24 * 7 + 16, b.getFloat((int) boxesAt + 24 * 7 + 16)
                + 1000), true), "object box max");
        assertMessage(mutated(b -> b.putFloat((int) boxesAt + 24 * 9 + 4, b.getFloat((int) boxesAt + 24 * 9 + 16)
                + 1), true), "the box of object 9 is inverted on axis y: minY = ");
        assertRejected(mutated(b -> b.putFloat((int) boxesAt + 200, Float.NaN), true), "NaN object box");
        // palette indices out of range, a palette out of order, a lying no-zero flag
        long indicesAt = sectionOffset(WorldLayout.SECTION_CATEGORIES);
        assertMessage(mutated(b -> b.putShort((int) indicesAt + 14, (short) -1), true), "palette index");
        long paletteAt = sectionOffset(WorldLayout.SECTION_PALETTE);
        assertMessage(mutated(b -> {
            long first = b.getLong((int) paletteAt);
            b.putLong((int) paletteAt, b.getLong((int) paletteAt + 8));
            b.putLong((int) paletteAt + 8, first);
        }, true), "ascending");
        assertMessage(mutated(b -> b.putInt(WorldLayout.FLAGS_OFFSET, b.getInt(WorldLayout.FLAGS_OFFSET)
                ^ WorldLayout.FLAG_NO_ZERO_CATEGORY), true), "no-zero");
    }

    @Test
    void shouldNameANegativeSectionLengthAsSuch() throws IOException {
        int payload = WorldLayout.sectionEntryOffset(WorldLayout.SECTION_PAYLOAD) + WorldLayout.ENTRY_LENGTH;
        // one bit flip (the sign) of the fixture's payload length, header checksum resealed
        String message = assertRejected(mutated(b -> b.putLong(payload, b.getLong(payload) | Long.MIN_VALUE), false),
                "negative payload length");
        assertTrue(message.contains("payload section length") && message.contains("negative"), message);
        assertFalse(message.contains("instead of"), message);
        for (int s = 0; s < WorldLayout.SECTION_PAYLOAD; s++) {
            int length = WorldLayout.sectionEntryOffset(s) + WorldLayout.ENTRY_LENGTH;
            assertMessage(mutated(b -> b.putLong(length, -WorldLayout.SECTION_ALIGNMENT), false), "negative");
        }
    }

    @Test
    void shouldReportAFileThatCannotBeMappedAsAnIOExceptionNamingIt() throws IOException {
        // sysfs files report a page of length but refuse to be mapped (ENODEV)
        Path unmappable = Path.of("/sys/devices/system/cpu/online");
        Assumptions.assumeTrue(Files.isReadable(unmappable) && Files.size(unmappable) >= WorldLayout.HEADER_SIZE,
                "no sysfs file to map");
        for (int attempt = 0; attempt < 3; attempt++) {
            IOException e = assertThrows(IOException.class, () -> MappedWorld.open(unmappable));
            assertTrue(e.getMessage().startsWith(unmappable.toString()) && e.getMessage().contains("mapped"),
                    e.getMessage());
        }
    }

    @Test
    void shouldRejectVersionOneFilesWithAClearMessage() throws IOException {
        // a version 1 header (as written by earlier releases): same magic, version 1
        byte[] bytes = valid.clone();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(WorldLayout.VERSION_OFFSET, 1);
        Path file = dir.resolve("old.bxw");
        Files.write(file, bytes);
        CorruptWorldFileException e = org.junit.jupiter.api.Assertions.assertThrows(CorruptWorldFileException.class,
                () -> MappedWorld.open(file));
        assertTrue(e.getMessage().contains("unsupported format version 1"), e.getMessage());
    }

    private void assertMessage(byte[] bytes, String expected) throws IOException {
        String message = assertRejected(bytes, expected);
        assertNotNull(message);
        assertTrue(message.contains(expected), "expected '" + expected + "' in: " + message);
    }

    @Test
    void shouldOpenAndVerifyTheUntouchedFile() throws IOException {
        Path file = dir.resolve("copy.bxw");
        Files.write(file, valid);
        try (MappedWorld world = MappedWorld.open(file)) {
            world.verify();
            assertEquals(500, world.size());
        }
    }
}
