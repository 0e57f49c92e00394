package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bulk build through the binned-SAH builder: structure, handles, per-object state, queries, bad input. */
class TreeBuildTest {

    private static final TreeConfig DENSE = TreeConfig.defaults().withMargin(0.05, 0.125);

    /** A compact clustered world (100 m across) so objects overlap and queries hit many. */
    private static BoxSet world(int n, long seed) {
        return SyntheticWorld.clustered(n, seed, WorldFrame.scaled(0.01)).boxes();
    }

    private static long[] randomLongs(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(3) == 0 ? 1L << random.nextInt(64) : random.nextLong();
        }
        return values;
    }

    @Test
    void shouldGiveEveryObjectTheStateAddWouldGiveItWithHandlesInInputOrder() {
        assertBuiltLikeAdded(3000);
    }

    @Test
    void shouldFillLargeInputsInSlicesWithTheSameResult() {
        // more objects than one slice of the parallel fill and of the node writing
        assertBuiltLikeAdded(70_000);
    }

    /** A build's input: boxes with random user values and categories, all from one seed. */
    private record Input(BoxSet boxes, long[] users, long[] categories) {
        static Input of(int n, long seed) {
            BoxSet boxes = world(n, seed);
            return new Input(boxes, randomLongs(boxes.size(), seed + 1), randomLongs(boxes.size(), seed + 2));
        }

        /** The bulk build of this input, handles in input order. */
        DynamicAabbTree buildInInputOrder() {
            return DynamicAabbTree.build(DENSE, boxes.toInterleaved(), users, categories);
        }
    }

    private static void assertBuiltLikeAdded(int n) {
        Input input = Input.of(n, 1);
        BoxSet boxes = input.boxes();
        long[] users = input.users();
        long[] categories = input.categories();
        DynamicAabbTree built = input.buildInInputOrder();
        built.validate();
        // the build chose its origin from the boxes; the same origin makes the adds store the same floats
        DynamicAabbTree added = new DynamicAabbTree(DENSE.withOrigin(built.originX(), built.originY(),
                built.originZ()));
        for (int i = 0; i < boxes.size(); i++) {
            assertEquals(i, added.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i],
                    boxes.maxZ[i], users[i], categories[i]));
        }
        assertEquals(boxes.size(), built.size());
        for (int i = 0; i < boxes.size(); i++) {
            assertTrue(built.contains(i));
            assertEquals(users[i], built.userValue(i));
            assertSameObjectState(added, i, built, i, "box " + i);
        }
        assertFalse(built.contains(boxes.size()));
    }

    @Test
    void shouldGiveOutHandlesInDepthFirstOrderOverTheSameHierarchy() {
        assertBuiltInTreeOrder(3000);
        // more objects than one slice of the parallel fill
        assertBuiltInTreeOrder(70_000);
    }

    private static void assertBuiltInTreeOrder(int n) {
        Input input = Input.of(n, 21);
        BoxSet boxes = input.boxes();
        long[] users = input.users();
        long[] categories = input.categories();
        DynamicAabbTree inInputOrder = input.buildInInputOrder();
        int[] handles = new int[boxes.size()];
        java.util.Arrays.fill(handles, -1);
        DynamicAabbTree tree = DynamicAabbTree.build(DENSE, boxes.toInterleaved(), users, categories, handles);
        tree.validate();
        assertEquals(boxes.size(), tree.size());
        boolean[] given = new boolean[boxes.size()];
        for (int i = 0; i < boxes.size(); i++) {
            int h = handles[i];
            assertTrue(h >= 0 && h < boxes.size() && !given[h], "handle " + h + " of box " + i);
            given[h] = true;
            assertEquals(users[i], tree.userValue(h));
            assertSameObjectState(inInputOrder, i, tree, h, "box " + i);
        }
        // the same hierarchy as the input-order build
        assertEquals(inInputOrder.areaRatio(), tree.areaRatio());
        assertEquals(inInputOrder.height(), tree.height());
        // depth first, side 0 first, the objects come in handle order: every subtree's handles are consecutive
        int[] next = {0};
        tree.visitNodes((depth, handle, x0, y0, z0, x1, y1, z1) -> {
            if (handle >= 0) {
                assertEquals(next[0]++, handle, "depth-first position of handle " + handle);
            }
        }, new TraversalStack());
        assertEquals(boxes.size(), next[0]);
    }

    @Test
    void shouldAnswerQueriesLikeBruteForceWhenBuiltInTreeOrder() {
        BoxSet boxes = world(4000, 24);
        long[] users = randomLongs(boxes.size(), 25);
        long[] categories = randomLongs(boxes.size(), 26);
        int[] handles = new int[boxes.size()];
        DynamicAabbTree tree = DynamicAabbTree.build(DENSE, boxes.toInterleaved(), users, categories, handles);
        // the brute-force index gives handles in add order: add in the tree's handle order to compare handles
        int[] boxOf = new int[boxes.size()];
        for (int i = 0; i < boxes.size(); i++) {
            boxOf[handles[i]] = i;
        }
        BruteForceIndex brute = new BruteForceIndex();
        for (int h = 0; h < boxes.size(); h++) {
            int i = boxOf[h];
            assertEquals(h, brute.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i],
                    boxes.maxZ[i], users[i], categories[i]));
        }
        compareQueries(tree, brute, world(300, 27), 28);
        // built objects move, leave and make room like any others
        SplittableRandom random = new SplittableRandom(29);
        for (int k = 0; k < 400; k++) {
            int h = handles[random.nextInt(boxes.size())];
            if (!tree.contains(h)) {
                continue;
            }
            if (random.nextInt(4) == 0) {
                tree.remove(h);
                brute.remove(h);
            } else {
                double d = random.nextDouble() * 20;
                int i = boxOf[h];
                tree.move(h, boxes.minX[i] + d, boxes.minY[i], boxes.minZ[i] - d, boxes.maxX[i] + d, boxes.maxY[i],
                        boxes.maxZ[i] - d);
                brute.move(h, boxes.minX[i] + d, boxes.minY[i], boxes.minZ[i] - d, boxes.maxX[i] + d,
                        boxes.maxY[i], boxes.maxZ[i] - d);
            }
            tree.validate();
        }
        compareQueries(tree, brute, world(300, 30), 31);
    }

    @Test
    void shouldDefaultToUserValueZeroAndAllCategories() {
        BoxSet boxes = world(50, 4);
        DynamicAabbTree tree = DynamicAabbTree.build(DENSE, boxes.toInterleaved(), null, null);
        tree.validate();
        for (int i = 0; i < boxes.size(); i++) {
            assertEquals(0L, tree.userValue(i));
            assertEquals(-1L, tree.categoryBits(i));
        }
    }

    @Test
    void shouldAnswerQueriesLikeBruteForce() {
        BoxSet boxes = world(4000, 5);
        long[] users = randomLongs(boxes.size(), 6);
        long[] categories = randomLongs(boxes.size(), 7);
        DynamicAabbTree tree = DynamicAabbTree.build(DENSE, boxes.toInterleaved(), users, categories);
        BruteForceIndex brute = new BruteForceIndex();
        for (int i = 0; i < boxes.size(); i++) {
            brute.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    users[i], categories[i]);
        }
        compareQueries(tree, brute, world(300, 8), 9);
    }

    /** Box queries and closest-hit rays from the boxes of {@code probes}, random masks; returns nothing. */
    static void compareQueries(DynamicAabbTree tree, BruteForceIndex brute, BoxSet probes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        TraversalStack stack = new TraversalStack(4);
        AllOverlaps a = new AllOverlaps();
        AllOverlaps b = new AllOverlaps();
        ClosestHit ca = new ClosestHit();
        ClosestHit cb = new ClosestHit();
        long hits = 0;
        for (int q = 0; q < probes.size(); q++) {
            long mask = random.nextInt(3) == 0 ? random.nextLong() : -1L;
            double grow = random.nextDouble() * 3;
            double x0 = probes.minX[q] - grow;
            double y0 = probes.minY[q] - grow;
            double z0 = probes.minZ[q] - grow;
            double x1 = probes.maxX[q] + grow;
            double y1 = probes.maxY[q] + grow;
            double z1 = probes.maxZ[q] + grow;
            a.reset();
            b.reset();
            tree.queryAabb(x0, y0, z0, x1, y1, z1, mask, a, stack);
            brute.queryAabb(x0, y0, z0, x1, y1, z1, mask, b, stack);
            a.sort();
            b.sort();
            assertEquals(b.count(), a.count(), "box query " + q);
            for (int i = 0; i < b.count(); i++) {
                assertEquals(b.handle(i), a.handle(i), "box query " + q);
            }
            hits += b.count();
            double tx = (random.nextDouble() - 0.5) * 60;
            double ty = (random.nextDouble() - 0.5) * 60;
            double tz = (random.nextDouble() - 0.5) * 4;
            tree.rayCast(x0, y0, z0, tx, ty, tz, 1.0, mask, ca, stack);
            brute.rayCast(x0, y0, z0, tx, ty, tz, 1.0, mask, cb, stack);
            assertEquals(cb.hasHit(), ca.hasHit(), "ray " + q);
            assertEquals(cb.handle(), ca.handle(), "ray " + q);
            assertEquals(cb.fraction(), ca.fraction(), "ray " + q);
        }
        assertTrue(hits > probes.size(), "queries should hit: " + hits);
    }

    @Test
    void shouldMoveAndRemoveBuiltObjectsAndAddMore() {
        BoxSet boxes = world(800, 10);
        DynamicAabbTree tree = DynamicAabbTree.build(DENSE, boxes.toInterleaved(), null, null);
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < boxes.size(); i += 2) {
            double d = random.nextDouble() * 5;
            tree.move(i, boxes.minX[i] + d, boxes.minY[i], boxes.minZ[i], boxes.maxX[i] + d, boxes.maxY[i],
                    boxes.maxZ[i], d, 0, 0);
            tree.validate();
        }
        for (int i = 1; i < boxes.size(); i += 4) {
            tree.remove(i);
            tree.validate();
            assertFalse(tree.contains(i));
        }
        int added = tree.add(0, 0, 0, 1, 1, 1, 7L, 1L);
        tree.validate();
        assertEquals(7L, tree.userValue(added));
        assertEquals(boxes.size() - boxes.size() / 4 + 1, tree.size());
    }

    @Test
    void shouldBuildEmptyAndOneObjectTrees() {
        DynamicAabbTree empty = DynamicAabbTree.build(TreeConfig.defaults(), new double[0], new long[0], null);
        empty.validate();
        assertEquals(0, empty.size());
        assertEquals(0, empty.add(0, 0, 0, 1, 1, 1, 0, -1L));
        empty.validate();

        DynamicAabbTree one = DynamicAabbTree.build(TreeConfig.defaults(), new double[] {1, 2, 3, 4, 5, 6},
                new long[] {9}, new long[] {2});
        one.validate();
        assertEquals(1, one.size());
        assertEquals(0, one.height());
        assertEquals(9L, one.userValue(0));
        assertEquals(2L, one.categoryBits(0));
        one.remove(0);
        one.validate();
        assertEquals(0, one.size());
    }

    @Test
    void shouldKeepALargerInitialCapacityForObjectsAddedLater() {
        BoxSet boxes = world(100, 12);
        DynamicAabbTree tree = DynamicAabbTree.build(DENSE.withInitialCapacity(5000), boxes.toInterleaved(), null,
                null);
        DynamicAabbTree exact = DynamicAabbTree.build(DENSE, boxes.toInterleaved(), null, null);
        long reserved = tree.memoryBytes();
        assertTrue(reserved > 20 * exact.memoryBytes(), reserved + " against " + exact.memoryBytes());
        for (int i = 0; i < 4800; i++) {
            tree.add(i, 0, 0, i + 1, 1, 1, i, -1L);
        }
        tree.validate();
        assertEquals(reserved, tree.memoryBytes(), "no array grew");
    }

    @Test
    void shouldBuildPointAndCoincidentBoxes() {
        double[] boxes = new double[6 * 100];
        for (int i = 0; i < 100; i++) {
            double x = i % 3;
            boxes[6 * i] = x;
            boxes[6 * i + 3] = x;
        }
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes, null, null);
        tree.validate();
        assertEquals(100, tree.size());
    }

    /**
     * Far from zero without an origin in the settings, the build takes the boxes' centre as the static world writer
     * does: a 0.2 m gap 1e7 from zero stays a gap (relative to zero floats there are 1 m apart, and the stored box
     * would swallow it), while an origin set explicitly is kept.
     */
    @Test
    void shouldChooseTheOriginFromTheBoxesUnlessTheSettingsSetOne() {
        double x = 1e7;
        double[] boxes = {x, 0, 0, x + 0.3, 1, 1, x + 0.5, 0, 0, x + 0.8, 1, 1};
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes, null, null);
        tree.validate();
        assertEquals(x + 0.4, tree.originX(), 0.01);
        assertEquals(0.5, tree.originY(), 0.01);
        AllOverlaps hits = new AllOverlaps();
        TraversalStack stack = new TraversalStack();
        // touching the first box's right face, and 0.2 m short of the second
        tree.queryAabb(x + 0.3, 0, 0, x + 0.3, 1, 1, -1L, hits, stack);
        assertEquals(1, hits.count());
        assertEquals(0, hits.handle(0));
        hits.reset();
        tree.queryAabb(x + 0.31, 0, 0, x + 0.49, 1, 1, -1L, hits, stack);
        assertEquals(0, hits.count(), "the gap between the boxes");

        DynamicAabbTree atZero = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(0, 0, 0), boxes, null, null);
        assertEquals(0.0, atZero.originX());
        hits.reset();
        atZero.queryAabb(x + 0.31, 0, 0, x + 0.49, 1, 1, -1L, hits, stack);
        assertEquals(2, hits.count(), "1e7 from its origin a float box is whole metres: the gap is gone");
    }

    @Test
    void shouldRejectBadInputNamingTheArgument() {
        TreeConfig c = TreeConfig.defaults();
        double[] good = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
        assertMessage("config", () -> DynamicAabbTree.build(null, good, null, null));
        assertMessage("boxes", () -> DynamicAabbTree.build(c, null, null, null));
        assertMessage("boxes", () -> DynamicAabbTree.build(c, new double[7], null, null));
        double[] nan = good.clone();
        nan[4] = Double.NaN;
        assertMessage("boxes", () -> DynamicAabbTree.build(c, nan, null, null));
        double[] infinite = good.clone();
        infinite[9] = Double.POSITIVE_INFINITY;
        assertMessage("boxes", () -> DynamicAabbTree.build(c, infinite, null, null));
        double[] inverted = good.clone();
        inverted[8] = 4;
        assertMessage("boxes", () -> DynamicAabbTree.build(c, inverted, null, null));
        // storable relative to the configured origin, not to zero; without one the build takes the boxes' centre
        double[] far = {1e30, 0, 0, 1e30 + 1e15, 1, 1};
        assertMessage("reaches more than", () -> DynamicAabbTree.build(c.withOrigin(0, 0, 0), far, null, null));
        DynamicAabbTree.build(c.withOrigin(1e30, 0, 0), far, null, null).validate();
        DynamicAabbTree.build(c, far, null, null).validate();
        assertMessage("centred at", () -> DynamicAabbTree.build(c, new double[] {-1e301, 0, 0, -1e301, 1, 1},
                null, null));
        assertMessage("userValues", () -> DynamicAabbTree.build(c, good, new long[3], null));
        assertMessage("categories", () -> DynamicAabbTree.build(c, good, null, new long[1]));
        assertMessage("handles", () -> DynamicAabbTree.build(c, good, null, null, null));
        int[] handles = {-1, -1, -1};
        assertMessage("handles", () -> DynamicAabbTree.build(c, good, null, null, handles));
        assertArrayEquals(new int[] {-1, -1, -1}, handles, "nothing written");
        assertMessage("boxes", () -> DynamicAabbTree.build(c, nan, null, null, new int[2]));
    }

    @Test
    void shouldBuildEmptyAndOneObjectTreesInTreeOrder() {
        DynamicAabbTree empty = DynamicAabbTree.build(TreeConfig.defaults(), new double[0], null, null, new int[0]);
        empty.validate();
        assertEquals(0, empty.size());
        int[] handle = {-1};
        DynamicAabbTree one = DynamicAabbTree.build(TreeConfig.defaults(), new double[] {1, 2, 3, 4, 5, 6},
                new long[] {9}, new long[] {2}, handle);
        one.validate();
        assertEquals(0, handle[0]);
        assertEquals(9L, one.userValue(0));
        assertEquals(2L, one.categoryBits(0));
    }

    /**
     * Asserts that object {@code hb} of {@code b} has the user value, categories, tight and fat box of object
     * {@code ha} of {@code a}.
     */
    static void assertSameObjectState(DynamicAabbTree a, int ha, DynamicAabbTree b, int hb, String what) {
        assertEquals(a.userValue(ha), b.userValue(hb), "user value of " + what);
        assertEquals(a.categoryBits(ha), b.categoryBits(hb), "categories of " + what);
        double[] expected = new double[6];
        double[] actual = new double[6];
        a.getTightBox(ha, expected);
        b.getTightBox(hb, actual);
        assertArrayEquals(expected, actual, "tight box of " + what);
        a.getFatBox(ha, expected);
        b.getFatBox(hb, actual);
        assertArrayEquals(expected, actual, "fat box of " + what);
    }

    private static void assertMessage(String argument, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(argument), e.getMessage());
    }
}
