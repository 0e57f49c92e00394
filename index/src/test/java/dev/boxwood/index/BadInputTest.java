package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input is rejected with a message naming the argument, and leaves the tree exactly as it was. */
class BadInputTest {

    private static final double NAN = Double.NaN;
    private static final double INF = Double.POSITIVE_INFINITY;

    private DynamicAabbTree tree;
    private int live;
    private int stale;
    private final TraversalStack stack = new TraversalStack();

    @BeforeEach
    void fill() {
        tree = new DynamicAabbTree();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 200; i++) {
            double x = random.nextDouble() * 50;
            double y = random.nextDouble() * 50;
            double z = random.nextDouble() * 50;
            live = tree.add(x, y, z, x + 2, y + 2, z + 2, i, 1L << (i % 3));
        }
        stale = tree.add(0, 0, 0, 1, 1, 1, 7, 1);
        tree.remove(stale);
    }

    /** Everything observable: every object's handle, user value, category, tight and fat box; height; ratio. */
    private String snapshot() {
        tree.validate();
        AllOverlaps all = new AllOverlaps();
        tree.queryAabb(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9, -1L, all, stack);
        all.sort();
        StringBuilder sb = new StringBuilder();
        double[] box = new double[6];
        for (int i = 0; i < all.count(); i++) {
            int h = all.handle(i);
            sb.append(h).append(' ').append(tree.userValue(h)).append(' ').append(tree.categoryBits(h));
            tree.getTightBox(h, box);
            sb.append(Arrays.toString(box));
            tree.getFatBox(h, box);
            sb.append(Arrays.toString(box)).append('\n');
        }
        ClosestHit closest = new ClosestHit();
        tree.rayCast(-1, -1, -1, 60, 60, 60, 1, -1L, closest, stack);
        sb.append(closest.handle()).append(closest.fraction());
        return sb.append(tree.size()).append(tree.height()).append(tree.areaRatio()).toString();
    }

    private void assertRejected(String argument, Executable call) {
        String before = snapshot();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(argument), "message should name " + argument + ": " + e.getMessage());
        assertEquals(before, snapshot(), "tree changed by a rejected call");
    }

    @Test
    void shouldRejectNonFiniteAndInvertedBoxesOnAdd() {
        assertRejected("minX", () -> tree.add(NAN, 0, 0, 1, 1, 1, 0, 1));
        assertRejected("minY", () -> tree.add(0, -INF, 0, 1, 1, 1, 0, 1));
        assertRejected("maxZ", () -> tree.add(0, 0, 0, 1, 1, INF, 0, 1));
        assertRejected("maxY", () -> tree.add(0, 0, 0, 1, NAN, 1, 0, 1));
        assertRejected("minX", () -> tree.add(2, 0, 0, 1, 1, 1, 0, 1));
        assertRejected("minZ", () -> tree.add(0, 0, 1.5, 1, 1, 1, 0, 1));
    }

    @Test
    void shouldRejectBoxesBeyondTheFloatStorageRange() {
        assertRejected("minX", () -> tree.add(1.5e18, 0, 0, 1.6e18, 1, 1, 0, 1));
        assertRejected("maxY", () -> tree.add(0, 0, 0, 1, 1e19, 1, 0, 1));
        assertRejected("minZ", () -> tree.add(0, 0, -1e300, 1, 1, 1, 0, 1));
        assertRejected("minX", () -> tree.move(live, -1e39, 0, 0, 1, 1, 1));
        assertRejected("maxZ", () -> tree.move(live, 0, 0, 0, 1, 1, 2e18, 0, 0, 0));
    }

    @Test
    void shouldAcceptBoxesUpToTheStorageRangeAndKeepCostsFinite() {
        // the widest storable box, and fat boxes pushed to the limit by a huge margin and displacement: every stored
        // bound stays finite, so the costs and the area ratio do too
        DynamicAabbTree wide = new DynamicAabbTree(TreeConfig.defaults().withMargin(1e300, 1e300)
                .withPrediction(1e300));
        wide.add(-1e18, -1e18, -1e18, 1e18, 1e18, 1e18, 1, -1L);
        int small = wide.add(0, 0, 0, 1, 1, 1, 2, -1L);
        for (int i = 0; i < 50; i++) {
            wide.add(i, i, i, i + 1, i + 1, i + 1, 3 + i, -1L);
        }
        wide.move(small, 5, 5, 5, 6, 6, 6, 1e300, -1e300, 0);
        wide.validate();
        double[] fat = new double[6];
        wide.getFatBox(small, fat);
        for (double v : fat) {
            assertTrue(Double.isFinite(v), "fat bound " + v);
        }
        assertTrue(Double.isFinite(wide.areaRatio()), "area ratio " + wide.areaRatio());
        AllOverlaps all = new AllOverlaps();
        wide.queryAabb(5.5, 5.5, 5.5, 5.5, 5.5, 5.5, -1L, all, stack);
        all.sort();
        // the wide box, the moved one and the one of the row around the point
        assertEquals(3, all.count());
        ClosestHit closest = new ClosestHit();
        wide.rayCast(-9e17, 0.5, 0.5, 1.8e18, 0, 0, 1, -1L, closest, stack);
        assertEquals(0, closest.handle(), "the wide box, entered at the start");
        // every fat box, however far its margin or displacement reached, is one the builder takes: rebuilds work
        wide.rebuild(false);
        wide.validate();
        wide.rebuild(true);
        wide.validate();
        assertEquals(52, wide.size());
        // and a batch or a build near the edge, with margins reaching past it, goes in whole or not at all
        TreeConfig bigMargins = TreeConfig.defaults().withMargin(1e12, 0.125);
        double[] nearEdge = {1e18 - 1e13, 0, 0, 1e18, 1, 1, 0, 0, 0, 1, 1, 1};
        DynamicAabbTree batch = new DynamicAabbTree(bigMargins);
        assertEquals(2, batch.addAll(nearEdge, null, null).length);
        batch.validate();
        DynamicAabbTree built = DynamicAabbTree.build(bigMargins, nearEdge, null, null);
        built.validate();
        built.rebuild(true);
        built.validate();
        DynamicAabbTree far = new DynamicAabbTree(TreeConfig.defaults().withOrigin(1e30, 0, 0));
        far.add(1e30, 0, 0, 1e30 + 1, 1, 1, 0, -1L);
        far.validate();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> far.add(0, 0, 0, 1, 1, 1, 0, -1L));
        assertTrue(e.getMessage().contains("minX"), e.getMessage());
        assertEquals(1, far.size());
    }

    @Test
    void shouldRejectAShortBoxDestinationWithoutWritingIt() {
        double[] shortDest = {7, 7, 7};
        assertRejected("dest", () -> tree.getTightBox(live, shortDest));
        assertRejected("dest", () -> tree.getFatBox(live, shortDest));
        assertEquals("[7.0, 7.0, 7.0]", Arrays.toString(shortDest));
    }

    @Test
    void shouldTakeBackEveryBoxItReportsAtTheEdgeOfTheStorageRange() {
        // a coordinate within 1e18 is stored rounded outward, up to 1e18 rounded up to a float: the box reported
        // back must be accepted again, by move, add and addAll
        DynamicAabbTree edge = new DynamicAabbTree();
        int h = edge.add(1e18 - 1e9, 0, 0, 1e18 - 1e9, 1, 1, 0, -1L);
        int low = edge.add(-1e18 + 1e9, 0, 0, -1e18 + 1e9, 1, 1, 0, -1L);
        double[] box = new double[6];
        edge.getTightBox(h, box);
        assertTrue(box[3] > 1e18, "stored rounded outward: " + box[3]);
        edge.move(h, box[0], box[1], box[2], box[3], box[4], box[5]);
        edge.getTightBox(low, box);
        assertTrue(box[0] < -1e18, "stored rounded outward: " + box[0]);
        edge.move(low, box[0], box[1], box[2], box[3], box[4], box[5]);
        edge.add(box[0], box[1], box[2], box[3], box[4], box[5], 1, -1L);
        assertEquals(1, edge.addAll(box, null, null).length);
        edge.validate();
        assertEquals(4, edge.size());
        // one float further is still rejected
        assertThrows(IllegalArgumentException.class,
                () -> edge.add(0, 0, 0, Math.nextUp((double) OutwardFloat.MAX_STORED), 1, 1, 0, -1L));
        assertEquals(4, edge.size());
    }

    @Test
    void shouldRejectBadMovesAndStaleHandles() {
        assertRejected("maxX", () -> tree.move(live, 0, 0, 0, NAN, 1, 1));
        assertRejected("minY", () -> tree.move(live, 0, 3, 0, 1, 1, 1));
        assertRejected("displacementY", () -> tree.move(live, 0, 0, 0, 1, 1, 1, 0, INF, 0));
        assertRejected("displacementZ", () -> tree.move(live, 0, 0, 0, 1, 1, 1, 0, 0, NAN));
        assertRejected("handle", () -> tree.move(stale, 0, 0, 0, 1, 1, 1));
        assertRejected("handle", () -> tree.remove(stale));
        assertRejected("handle", () -> tree.userValue(stale));
        assertRejected("handle", () -> tree.categoryBits(stale));
        assertRejected("handle", () -> tree.getTightBox(stale, new double[6]));
        assertRejected("handle", () -> tree.move(-5, 0, 0, 0, 1, 1, 1));
        assertRejected("handle", () -> tree.remove(Integer.MAX_VALUE));
    }

    @Test
    void shouldRejectBadQueries() {
        AllOverlaps all = new AllOverlaps();
        ClosestHit closest = new ClosestHit();
        assertRejected("minZ", () -> tree.queryAabb(0, 0, NAN, 1, 1, 1, -1L, all, stack));
        assertRejected("maxX", () -> tree.queryAabb(0, 0, 0, -1, 1, 1, -1L, all, stack));
        assertRejected("visitor", () -> tree.queryAabb(0, 0, 0, 1, 1, 1, -1L, null, stack));
        assertRejected("stack", () -> tree.queryAabb(0, 0, 0, 1, 1, 1, -1L, all, null));
        assertRejected("originX", () -> tree.rayCast(NAN, 0, 0, 1, 1, 1, 1, -1L, closest, stack));
        assertRejected("translationZ", () -> tree.rayCast(0, 0, 0, 1, 1, INF, 1, -1L, closest, stack));
        assertRejected("maxFraction", () -> tree.rayCast(0, 0, 0, 1, 1, 1, -0.5, -1L, closest, stack));
        assertRejected("maxFraction", () -> tree.rayCast(0, 0, 0, 1, 1, 1, INF, -1L, closest, stack));
        assertRejected("maxFraction", () -> tree.rayCast(0, 0, 0, 1, 1, 1, NAN, -1L, closest, stack));
        assertRejected("visitor", () -> tree.rayCast(0, 0, 0, 1, 1, 1, 1, -1L, null, stack));
        // a radius whose square overflows would accept every box: a sphere of 2e154 at 1e160 reaches none here
        double huge = 2e154;
        assertRejected("radius", () -> RegionQueries.querySphere(tree, 1e160, 0, 0, huge, RegionMode.CROSSING, -1L,
                null, all, stack));
        assertRejected("radius", () -> SweepQueries.sweepSphere(tree, 1e160, 0, 0, huge, 0, 0, 0, -1L, closest,
                stack));
        try (BatchQueries batch = new BatchQueries(1)) {
            assertRejected("sphere 0", () -> batch.spheres(tree, new double[] {1e160, 0, 0, huge}, 1,
                    RegionMode.CROSSING, -1L, 1, new int[1], new int[1]));
        }
        RegionQueries.querySphere(tree, 0, 0, 0, Arguments.MAX_RADIUS, RegionMode.CROSSING, -1L, null, all, stack);
    }

    @Test
    void shouldRejectACastWhoseStartOverflowsInTheTreesFrame() {
        // an origin 1e300 from zero and a start near the largest double on its far side: the start's offset in the
        // frame is infinite, and the cast missed the object on its path without a word
        DynamicAabbTree far = new DynamicAabbTree(TreeConfig.defaults().withOrigin(-1e300, 0, 0));
        far.add(-1e300, -1, -1, -1e300, 1, 1, 7, 1L);
        ClosestHit closest = new ClosestHit();
        TraversalStack stack = new TraversalStack();
        far.rayCast(1.7e308, 0, 0, -1.7e308, 0, 0, 2.0, -1L, closest, stack);
        assertTrue(closest.hasHit(), "a start whose offset stays finite");
        double max = Double.MAX_VALUE;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> far.rayCast(max, 0, 0, -max, 0, 0, 2.0, -1L, closest, stack));
        assertTrue(e.getMessage().contains("overflows"), e.getMessage());
        assertTrue(closest.hasHit(), "the collector keeps the last cast's answer");
        // up to fraction 1 such a segment reaches nothing stored (its end is finite): a miss, not an error
        far.rayCast(max, 0, 0, -max, 0, 0, 1.0, -1L, closest, stack);
        assertTrue(!closest.hasHit());
        far.validate();
    }

    @Test
    void shouldRejectBadConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> TreeConfig.defaults().withOrigin(NAN, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> TreeConfig.defaults().withMargin(-1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> TreeConfig.defaults().withMargin(0.1, INF));
        assertThrows(IllegalArgumentException.class, () -> TreeConfig.defaults().withInitialCapacity(0));
        // more than a tree can hold: the node arrays' int indices would overflow
        assertThrows(IllegalArgumentException.class,
                () -> TreeConfig.defaults().withInitialCapacity(dev.boxwood.query.Handles.MAX_SLOTS));
        assertThrows(IllegalArgumentException.class, () -> new DynamicAabbTree(null));
    }
}
