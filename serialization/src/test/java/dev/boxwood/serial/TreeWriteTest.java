package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.ReadView;
import dev.boxwood.index.ReadableTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.index.TreeSnapshots;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trees written as static worlds ({@code StaticWorldWriter.write(Path, ReadableTree, int[], byte[], Progress)}). */
class TreeWriteTest {

    @TempDir
    Path dir;

    private final TraversalStack stack = new TraversalStack();

    /**
     * A tree that went through adds, removes (so slots are reused and handles are not in add order) and moves,
     * with some objects pending under deferred adds; clustered boxes of 0.1 to 20 m around {@code (cx, cy, cz)}.
     */
    private static DynamicAabbTree editedTree(TreeConfig config, double cx, double cy, double cz, int objects,
                                              long seed) {
        DynamicAabbTree tree = new DynamicAabbTree(config);
        SplittableRandom r = new SplittableRandom(seed);
        int[] handles = new int[objects];
        for (int i = 0; i < objects; i++) {
            double x = cx + (i % 3 == 0 ? r.nextDouble(0, 2_000) : r.nextGaussian() * 100);
            double y = cy + r.nextDouble(0, 200);
            double z = cz + (i % 3 == 0 ? r.nextDouble(0, 2_000) : r.nextGaussian() * 100);
            double e = r.nextDouble(0.1, 20);
            long bits = r.nextInt(40) == 0 ? 0L : 1L << r.nextInt(64);
            handles[i] = tree.add(x, y, z, x + e, y + 0.5 * e, z + e, r.nextLong(), bits);
        }
        for (int i = 0; i < objects; i += 4) {
            tree.remove(handles[i]);
        }
        for (int i = 1; i < objects; i += 3) {
            if (i % 4 == 0) {
                continue; // removed above
            }
            double[] box = new double[6];
            tree.getTightBox(handles[i], box);
            double dx = r.nextDouble(-30, 30);
            tree.move(handles[i], box[0] + dx, box[1], box[2] - dx, box[3] + dx, box[4], box[5] - dx, 0, 0, 0);
        }
        // a full quarantine behind the removed slots, so that the adds below take them back first
        int[] spare = new int[Handles.QUARANTINE];
        for (int i = 0; i < spare.length; i++) {
            spare[i] = tree.add(cx, cy, cz, cx + 1, cy + 1, cz + 1, 0, -1L);
        }
        for (int h : spare) {
            tree.remove(h);
        }
        for (int i = 0; i < objects / 8; i++) {
            double x = cx + r.nextDouble(0, 2_000);
            double z = cz + r.nextDouble(0, 2_000);
            tree.add(x, cy, z, x + 1, cy + 2, z + 3, r.nextLong(), -1L);
        }
        return tree;
    }

    @Test
    void shouldWriteEveryObjectOfATreeSoThatTheWorldAnswersAsTheTreeDoes() throws IOException {
        for (double far : new double[] {0, 1e6}) {
            TreeConfig config = TreeConfig.defaults().withOrigin(far + 1_000, 100, far - 1_000)
                    .withDeferredAdds(true);
            DynamicAabbTree tree = editedTree(config, far, 0, far - 2_000, 4_000, 5);
            assertTrue(tree.pendingAdds() > 0, "objects pending under deferred adds are written too");
            int[] handles = tree.liveHandles();
            assertEquals(tree.size(), handles.length);
            assertTrue(tree.pendingAdds() > 0, "listing the handles takes nothing in");
            Path file = dir.resolve("edited-" + far + ".bxw");
            byte[] payload = {1, 2, 3};
            WrittenWorld written = StaticWorldWriter.write(file, tree, handles, payload, null);
            tree.validate();
            try (MappedWorld world = MappedWorld.open(file)) {
                assertEquals(tree.size(), world.size());
                assertEquals(tree.originX(), world.originX());
                assertEquals(tree.originZ(), world.originZ());
                byte[] stored = new byte[(int) world.payloadLength()];
                world.readPayload(0, stored, 0, stored.length);
                assertArrayEquals(payload, stored);
                float[] treeFloats = new float[6];
                float[] worldFloats = world.readObjectBoxes();
                double[] treeBox = new double[6];
                double[] worldBox = new double[6];
                for (int i = 0; i < handles.length; i++) {
                    int w = written.handleOf(i);
                    tree.getStoredTightBox(handles[i], treeFloats);
                    assertArrayEquals(treeFloats, Arrays.copyOfRange(worldFloats, 6 * w, 6 * w + 6),
                            "the tree's floats, object " + i);
                    tree.getTightBox(handles[i], treeBox);
                    world.getTightBox(w, worldBox);
                    assertArrayEquals(treeBox, worldBox, "object " + i);
                    assertEquals(tree.userValue(handles[i]), world.userValue(w));
                    assertEquals(tree.categoryBits(handles[i]), world.categoryBits(w));
                }
                assertSameAnswers(tree, world, far, far - 2_000, 7);
            }
        }
    }

    @Test
    void shouldWriteTheChosenObjectsInTheOrderGiven() throws IOException {
        DynamicAabbTree tree = editedTree(TreeConfig.defaults(), 0, 0, 0, 1_000, 9);
        int[] all = tree.liveHandles();
        // every third object, last first
        int[] chosen = new int[all.length / 3];
        for (int i = 0; i < chosen.length; i++) {
            chosen[i] = all[all.length - 1 - 3 * i];
        }
        Path file = dir.resolve("chosen.bxw");
        WrittenWorld written = StaticWorldWriter.write(file, tree, chosen, null, null);
        try (MappedWorld world = MappedWorld.open(file)) {
            assertEquals(chosen.length, world.size());
            double[] a = new double[6];
            double[] b = new double[6];
            for (int i = 0; i < chosen.length; i++) {
                tree.getTightBox(chosen[i], a);
                world.getTightBox(written.handleOf(i), b);
                assertArrayEquals(a, b, "input " + i);
                assertEquals(tree.userValue(chosen[i]), world.userValue(written.handleOf(i)));
            }
        }
        Path empty = dir.resolve("empty.bxw");
        StaticWorldWriter.write(empty, tree, new int[0], null, null);
        try (MappedWorld world = MappedWorld.open(empty)) {
            assertEquals(0, world.size());
        }
    }

    @Test
    void shouldWriteAReadViewWhileTheTreeGoesOnChanging() throws IOException {
        DynamicAabbTree tree = editedTree(TreeConfig.defaults(), 0, 0, 0, 2_000, 13);
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        snapshots.publish();
        Path file = dir.resolve("view.bxw");
        try (ReadView view = snapshots.acquire()) {
            int[] handles = view.liveHandles();
            // the game goes on: the tree changes, the view does not
            tree.remove(handles[0]);
            tree.add(5, 5, 5, 6, 6, 6, 42L, -1L);
            assertFalse(tree.contains(handles[0]));
            StaticWorldWriter.write(file, view, handles, null, null);
            try (MappedWorld world = MappedWorld.open(file)) {
                assertEquals(view.size(), world.size());
                assertSameAnswers(view, world, 0, 0, 17);
            }
        }
    }

    @Test
    void shouldRefuseStaleAndRepeatedHandlesLeavingTheTargetUntouched() throws IOException {
        DynamicAabbTree tree = editedTree(TreeConfig.defaults(), 0, 0, 0, 200, 19);
        int[] handles = tree.liveHandles();
        Path file = dir.resolve("kept.bxw");
        StaticWorldWriter.write(file, tree, handles, null, null);
        byte[] before = Files.readAllBytes(file);

        int removed = handles[7];
        tree.remove(removed);
        IllegalArgumentException stale = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, tree, handles, null, null));
        assertTrue(stale.getMessage().contains("handles[7]") && stale.getMessage().contains("not a live handle"),
                stale.getMessage());
        int[] repeated = Arrays.copyOf(tree.liveHandles(), 6);
        repeated[5] = repeated[2];
        IllegalArgumentException repeat = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, tree, repeated, null, null));
        assertTrue(repeat.getMessage().contains("handles[5]") && repeat.getMessage().contains("repeats handles[2]"),
                repeat.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, tree, null, null, null));
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, (ReadableTree) null, handles, null, null));
        assertArrayEquals(before, Files.readAllBytes(file));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left");
        }
        tree.validate();
    }

    /** Box, window, sphere and closest-hit answers, as sorted user values and fractions, under three masks. */
    private void assertSameAnswers(ShapeQueries tree, ShapeQueries world, double cx, double cz, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        AllOverlaps a = new AllOverlaps();
        AllOverlaps b = new AllOverlaps();
        ClosestHit ca = new ClosestHit();
        ClosestHit cb = new ClosestHit();
        int hits = 0;
        int rayHits = 0;
        for (long mask : new long[] {-1L, 1L << 5, 0x00F0_0000_0000_0001L}) {
            for (int q = 0; q < 150; q++) {
                double x = cx + (q % 2 == 0 ? r.nextDouble(-200, 2_200) : r.nextGaussian() * 150);
                double y = r.nextDouble(-20, 220);
                double z = cz + (q % 2 == 0 ? r.nextDouble(-200, 2_200) : r.nextGaussian() * 150);
                double e = r.nextDouble(1, 300);
                String where = "query " + q + " mask " + mask;
                for (RegionMode mode : RegionMode.values()) {
                    a.reset();
                    b.reset();
                    tree.queryBox(x, y, z, x + e, y + e, z + e, mode, mask, null, a, stack);
                    world.queryBox(x, y, z, x + e, y + e, z + e, mode, mask, null, b, stack);
                    assertArrayEquals(TestWorld.sortedUserValues(a), TestWorld.sortedUserValues(b), "box " + mode + " " + where);
                    hits += a.count();
                    a.reset();
                    b.reset();
                    tree.querySphere(x, y, z, e, mode, mask, null, a, stack);
                    world.querySphere(x, y, z, e, mode, mask, null, b, stack);
                    assertArrayEquals(TestWorld.sortedUserValues(a), TestWorld.sortedUserValues(b), "sphere " + mode + " " + where);
                }
                // towards the cluster
                double dx = cx + r.nextGaussian() * 50 - x;
                double dy = r.nextDouble(0, 200) - y;
                double dz = cz + r.nextGaussian() * 50 - z;
                tree.rayCast(x, y, z, dx, dy, dz, 1.0, mask, ca, stack);
                world.rayCast(x, y, z, dx, dy, dz, 1.0, mask, cb, stack);
                // the fraction, not the object: equal fractions go to the lower handle, and handles differ
                assertEquals(ca.hasHit(), cb.hasHit(), "ray " + where);
                if (ca.hasHit()) {
                    assertEquals(ca.fraction(), cb.fraction(), "ray " + where);
                    rayHits++;
                }
            }
        }
        assertTrue(hits > 1_000, "the queries find objects: " + hits);
        assertTrue(rayHits > 50, "the rays hit objects: " + rayHits);
    }
}
