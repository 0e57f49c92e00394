package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.RegionQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorldSplicerTest {

    @TempDir
    Path dir;

    private final TraversalStack stack = new TraversalStack();

    /** A tree holding some dynamic objects (some added then removed, so slots are reused), and their oracle. */
    private static final class Scene {
        final DynamicAabbTree tree;
        final BruteForceIndex oracle;
        final List<int[]> pairs = new ArrayList<>();

        Scene(TreeConfig config, int objects, long seed) {
            tree = new DynamicAabbTree(config);
            oracle = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
            SplittableRandom r = new SplittableRandom(seed);
            for (int i = 0; i < objects; i++) {
                double x = r.nextDouble(0, 10_000);
                double y = r.nextDouble(0, 200);
                double z = r.nextDouble(0, 10_000);
                double e = r.nextDouble(0.1, 20);
                long bits = 1L << r.nextInt(64);
                long user = 1_000_000_000_000L + i;
                int h = tree.add(x, y, z, x + e, y + e, z + e, user, bits);
                int o = oracle.add(x, y, z, x + e, y + e, z + e, user, bits);
                pairs.add(new int[] {h, o});
            }
            for (int i = 0; i < objects / 4; i++) {
                int[] p = pairs.remove(r.nextInt(pairs.size()));
                tree.remove(p[0]);
                oracle.remove(p[1]);
            }
            // a full quarantine behind those slots, so that the objects added next take them back first
            int[][] spare = new int[Handles.QUARANTINE][];
            for (int i = 0; i < spare.length; i++) {
                spare[i] = new int[] {tree.add(0, 0, 0, 1, 1, 1, 0, -1L), oracle.add(0, 0, 0, 1, 1, 1, 0, -1L)};
            }
            for (int[] p : spare) {
                tree.remove(p[0]);
                oracle.remove(p[1]);
            }
        }
    }

    @Test
    void shouldSpliceAWorldWithTheSameOriginBitExactly() throws IOException {
        TestWorld world = TestWorld.clustered(5_000, 11);
        Path file = dir.resolve("tile.bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            TreeConfig config = TreeConfig.defaults().withOrigin(mapped.originX(), mapped.originY(),
                    mapped.originZ());
            Scene scene = new Scene(config, 2_000, 12);
            int before = scene.tree.size();
            int[] handles = WorldSplicer.splice(mapped, scene.tree);
            scene.tree.validate();
            assertEquals(before + world.size(), scene.tree.size());
            double[] expected = new double[6];
            double[] actual = new double[6];
            for (int i = 0; i < world.size(); i++) {
                mapped.getTightBox(i, expected);
                scene.tree.getTightBox(handles[i], actual);
                assertArrayEquals(expected, actual, "box of object " + i);
                assertEquals(world.userValues[i], scene.tree.userValue(handles[i]));
                assertEquals(world.categories[i], scene.tree.categoryBits(handles[i]));
                // the input box, stored by the oracle relative to the same origin: the file's floats exactly
                double[] in = world.boxes;
                scene.oracle.add(in[6 * i], in[6 * i + 1], in[6 * i + 2], in[6 * i + 3], in[6 * i + 4],
                        in[6 * i + 5], world.userValues[i], world.categories[i]);
            }
            assertSameAnswers(scene.tree, scene.oracle, world, 13);
        }
    }

    @Test
    void shouldSpliceWorldsWithOtherOriginsIntoAnEmptyAndAFilledTree() throws IOException {
        TestWorld first = TestWorld.clustered(3_000, 21);
        TestWorld second = TestWorld.clustered(1, 22);
        TestWorld third = new TestWorld("pair", new double[] {5, 5, 5, 6, 6, 6, 7, 5, 5, 8, 6, 6}, 23, false);
        // far from the worlds' origins: every box is re-rounded into the tree's frame
        TreeConfig config = TreeConfig.defaults().withOrigin(-12_345.678, 3.25, 1e5 + 0.1);
        DynamicAabbTree tree = new DynamicAabbTree(config);
        BruteForceIndex oracle = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
        int tile = 0;
        for (TestWorld world : new TestWorld[] {first, second, third}) {
            Path file = dir.resolve("tile" + tile++ + ".bxw");
            world = world.writeStored(file);
            try (MappedWorld mapped = MappedWorld.open(file)) {
                int[] handles = WorldSplicer.splice(mapped, tree, 1L << 5);
                tree.validate();
                double[] box = new double[6];
                double[] stored = new double[6];
                for (int i = 0; i < world.size(); i++) {
                    mapped.getTightBox(i, box);
                    tree.getTightBox(handles[i], stored);
                    for (int a = 0; a < 3; a++) {
                        assertTrue(stored[a] <= box[a] && stored[3 + a] >= box[3 + a], "box " + i + " contained");
                    }
                    assertEquals(1L << 5, tree.categoryBits(handles[i]));
                    oracle.add(box[0], box[1], box[2], box[3], box[4], box[5], world.userValues[i], 1L << 5);
                }
            }
        }
        assertEquals(first.size() + second.size() + third.size(), tree.size());
        assertSameAnswers(tree, oracle, first, 24);
    }

    @Test
    void shouldKeepSplicedObjectsMovableAndRemovable() throws IOException {
        TestWorld world = TestWorld.clustered(2_000, 31);
        Path file = dir.resolve("tile.bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            Scene scene = new Scene(TreeConfig.defaults(), 500, 32);
            int[] handles = WorldSplicer.splice(mapped, scene.tree);
            int[] oracleHandles = new int[handles.length];
            double[] box = new double[6];
            for (int i = 0; i < world.size(); i++) {
                mapped.getTightBox(i, box);
                oracleHandles[i] = scene.oracle.add(box[0], box[1], box[2], box[3], box[4], box[5],
                        world.userValues[i], world.categories[i]);
            }
            SplittableRandom r = new SplittableRandom(33);
            for (int step = 0; step < 600; step++) {
                int i = r.nextInt(handles.length);
                if (handles[i] < 0) {
                    continue;
                }
                if (r.nextInt(3) == 0) {
                    scene.tree.remove(handles[i]);
                    scene.oracle.remove(oracleHandles[i]);
                    handles[i] = -1;
                } else {
                    scene.tree.getTightBox(handles[i], box);
                    double dx = r.nextDouble(-30, 30);
                    double dz = r.nextDouble(-30, 30);
                    scene.tree.move(handles[i], box[0] + dx, box[1], box[2] + dz, box[3] + dx, box[4], box[5] + dz);
                    scene.oracle.move(oracleHandles[i], box[0] + dx, box[1], box[2] + dz, box[3] + dx, box[4],
                            box[5] + dz);
                }
            }
            scene.tree.validate();
            scene.tree.rebuild(false);
            scene.tree.validate();
            assertSameAnswers(scene.tree, scene.oracle, world, 34);
        }
    }

    @Test
    void shouldRejectBadSubtreeArgumentsAndLeaveTheTreeUnchanged() throws IOException {
        TestWorld world = TestWorld.clustered(100, 41);
        Path file = dir.resolve("tile.bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            Scene scene = new Scene(TreeConfig.defaults(), 50, 42);
            int size = scene.tree.size();
            float[] boxes = mapped.readObjectBoxes();
            assertThrows(IllegalArgumentException.class, () -> scene.tree.spliceSubtree(null, boxes, null, null));
            assertThrows(IllegalArgumentException.class,
                    () -> scene.tree.spliceSubtree(mapped.readTree(), Arrays.copyOf(boxes, 6), null, null));
            assertThrows(IllegalArgumentException.class,
                    () -> scene.tree.spliceSubtree(mapped.readTree(), boxes, new long[3], null));
            assertThrows(IllegalArgumentException.class,
                    () -> scene.tree.spliceSubtree(mapped.readTree(), boxes, null, new long[101]));
            float[] inverted = boxes.clone();
            inverted[6 * 7] = inverted[6 * 7 + 3] + 1;
            assertThrows(IllegalArgumentException.class,
                    () -> scene.tree.spliceSubtree(mapped.readTree(), inverted, null, null));
            float[] nan = boxes.clone();
            nan[6 * 9 + 4] = Float.NaN;
            assertThrows(IllegalArgumentException.class,
                    () -> scene.tree.spliceSubtree(mapped.readTree(), nan, null, null));
            // finite floats in the world's frame, but beyond the float storage range of the tree's origin
            float[] far = boxes.clone();
            far[6 * 11 + 3] = 3e18f;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> scene.tree.spliceSubtree(mapped.readTree(), far, null, null));
            assertTrue(e.getMessage().contains("box 11"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> WorldSplicer.splice(mapped, null));
            assertThrows(IllegalArgumentException.class, () -> WorldSplicer.splice(null, scene.tree));
            assertEquals(size, scene.tree.size());
            scene.tree.validate();
        }
    }

    @Test
    void shouldReportACorruptBoxSectionAsCorruptionAndLeaveTheTreeUnchanged() throws IOException {
        byte[] valid = Files.readAllBytes(clusteredTile("tile.bxw", 51));
        Scene scene = new Scene(TreeConfig.defaults(), 50, 52);
        int size = scene.tree.size();
        // {object, coordinate, new value}: NaN, a min above the max, a finite coordinate no writer stores (beyond
        // the float storage range of the file's origin) and an infinity; the checksums are made to match each change
        float[][] changes = {{9, 4, Float.NaN}, {7, 0, box(valid, 7, 3) + 1}, {11, 3, 1e30f},
            {3, 2, Float.NEGATIVE_INFINITY}};
        for (int t = 0; t < changes.length; t++) {
            int object = (int) changes[t][0];
            Path corrupt = dir.resolve("corrupt-" + t + ".bxw");
            Files.write(corrupt, withBox(valid, object, (int) changes[t][1], changes[t][2]));
            try (MappedWorld mapped = MappedWorld.open(corrupt)) {
                String message = spliceFailure(mapped, scene.tree);
                assertTrue(message.startsWith(corrupt.toString()) && message.contains("object " + object), message);
                assertThrows(CorruptWorldFileException.class, () -> WorldSplicer.splice(mapped, scene.tree, 1L));
                assertThrows(CorruptWorldFileException.class, mapped::readObjectBoxes);
                assertThrows(CorruptWorldFileException.class, mapped::verify);
            }
            assertEquals(size, scene.tree.size());
            scene.tree.validate();
        }
    }

    @Test
    void shouldReportABadPaletteIndexAsCorruptionAndLeaveTheTreeUnchanged() throws IOException {
        Path file = clusteredTile("palette.bxw", 54);
        try (MappedWorld valid = MappedWorld.open(file)) {
            assertTrue(valid.paletteSize() > 0, "the test world's categories are a palette");
        }
        Path corrupt = dir.resolve("palette-corrupt.bxw");
        Files.write(corrupt, resealed(Files.readAllBytes(file), WorldLayout.SECTION_CATEGORIES,
                (b, indices) -> b.putShort(indices + WorldLayout.PALETTE_INDEX_SIZE * 13, (short) -1)));
        Scene scene = new Scene(TreeConfig.defaults(), 50, 55);
        int size = scene.tree.size();
        try (MappedWorld mapped = MappedWorld.open(corrupt)) {
            String message = spliceFailure(mapped, scene.tree);
            assertTrue(message.contains("object 13") && message.contains("palette index"), message);
            assertThrows(CorruptWorldFileException.class, mapped::readCategories);
            // with the categories given, the stored ones are not read: the splice goes through
            assertEquals(100, WorldSplicer.splice(mapped, scene.tree, 1L).length);
        }
        assertEquals(size + 100, scene.tree.size());
        scene.tree.validate();
    }

    @Test
    void shouldStillRejectAWorldBeyondTheTreesStorageRangeAsAnArgument() throws IOException {
        // a valid world whose origin is 2e18 from the tree's: its boxes cannot be stored relative to the tree's
        Path file = dir.resolve("far.bxw");
        StaticWorldWriter.write(file, new double[] {2e18, 0, 0, 2e18 + 1e6, 1, 1, 2e18 + 2e6, 0, 0, 2e18 + 3e6, 1, 1},
                null, null, null);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            mapped.verify();
            Scene scene = new Scene(TreeConfig.defaults(), 50, 53);
            int size = scene.tree.size();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> WorldSplicer.splice(mapped, scene.tree));
            assertTrue(e.getMessage().contains("tree's origin"), e.getMessage());
            assertEquals(size, scene.tree.size());
            scene.tree.validate();
        }
    }

    /** Coordinate {@code a} of the stored box of object {@code object} (a handle) in a world file's bytes. */
    /** A valid world file of 100 clustered objects, to be damaged by a test. */
    private Path clusteredTile(String name, long seed) throws IOException {
        Path file = dir.resolve(name);
        TestWorld.clustered(100, seed).write(file);
        return file;
    }

    /** The message of the {@link CorruptWorldFileException} splicing {@code mapped} into {@code tree} must throw. */
    private static String spliceFailure(MappedWorld mapped, DynamicAabbTree tree) {
        return assertThrows(CorruptWorldFileException.class, () -> WorldSplicer.splice(mapped, tree)).getMessage();
    }

    private static float box(byte[] file, int object, int a) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        long boxes = b.getLong(WorldLayout.sectionEntryOffset(WorldLayout.SECTION_BOXES) + WorldLayout.ENTRY_OFFSET);
        return b.getFloat((int) boxes + WorldLayout.BOX_SIZE * object + 4 * a);
    }

    /**
     * A copy of a world file with one stored box coordinate changed, and the box section's checksum and the header's
     * made to match, as {@code CorruptionTest} reseals: only the structure can tell.
     */
    private static byte[] withBox(byte[] file, int object, int a, float value) {
        return resealed(file, WorldLayout.SECTION_BOXES,
                (b, boxes) -> b.putFloat(boxes + WorldLayout.BOX_SIZE * object + 4 * a, value));
    }

    /**
     * A copy of a world file changed within one section ({@code change} gets the buffer and the section's offset),
     * with that section's checksum and the header's made to match.
     */
    private static byte[] resealed(byte[] file, int section, java.util.function.ObjIntConsumer<ByteBuffer> change) {
        byte[] bytes = file.clone();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int entry = WorldLayout.sectionEntryOffset(section);
        int offset = (int) b.getLong(entry + WorldLayout.ENTRY_OFFSET);
        change.accept(b, offset);
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, (int) b.getLong(entry + WorldLayout.ENTRY_LENGTH));
        b.putInt(entry + WorldLayout.ENTRY_CRC, (int) crc.getValue());
        crc.reset();
        crc.update(bytes, 0, WorldLayout.HEADER_CRC_OFFSET);
        b.putInt(WorldLayout.HEADER_CRC_OFFSET, (int) crc.getValue());
        return bytes;
    }

    /**
     * Box queries, closest-hit rays and a window selection: the same objects (by user value, unique in these
     * scenes) and the same closest fractions as the brute-force scan over the union.
     */
    private void assertSameAnswers(DynamicAabbTree tree, SpatialIndex oracle, TestWorld world, long seed) {
        double[] queries = world.boxQueries(150, seed);
        double[] segments = world.segments(150, seed + 1);
        AllOverlaps a = new AllOverlaps();
        AllOverlaps b = new AllOverlaps();
        for (long mask : new long[] {-1L, 1L << 5, 0x00F0_0000_0000_0001L}) {
            for (int q = 0; q < queries.length; q += 6) {
                a.reset();
                b.reset();
                tree.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3], queries[q + 4],
                        queries[q + 5], mask, a, stack);
                oracle.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3], queries[q + 4],
                        queries[q + 5], mask, b, stack);
                assertArrayEquals(TestWorld.sortedUserValues(b), TestWorld.sortedUserValues(a), "box query " + q / 6 + " mask " + mask);
                a.reset();
                b.reset();
                RegionQueries.queryBox(tree, queries[q], queries[q + 1], queries[q + 2], queries[q + 3],
                        queries[q + 4], queries[q + 5], RegionMode.WINDOW, mask, null, a, stack);
                ((BruteForceIndex) oracle).queryBox(queries[q], queries[q + 1], queries[q + 2], queries[q + 3],
                        queries[q + 4], queries[q + 5], RegionMode.WINDOW, mask, null, b);
                assertArrayEquals(TestWorld.sortedUserValues(b), TestWorld.sortedUserValues(a), "window query " + q / 6 + " mask " + mask);
            }
            ClosestHit ca = new ClosestHit();
            ClosestHit cb = new ClosestHit();
            for (int s = 0; s < segments.length; s += 6) {
                tree.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3], segments[s + 4],
                        segments[s + 5], 1.0, mask, ca, stack);
                oracle.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3], segments[s + 4],
                        segments[s + 5], 1.0, mask, cb, stack);
                assertEquals(cb.hasHit(), ca.hasHit(), "ray " + s / 6);
                if (cb.hasHit()) {
                    assertEquals(cb.fraction(), ca.fraction(), "ray " + s / 6);
                }
            }
        }
    }
}
