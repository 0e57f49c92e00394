package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Geometric edge cases with answers worked out by hand: all coordinates and fractions below are exact in binary,
 * so the expected values are exact. Each case runs on the tree and on the brute-force oracle, so the oracle of
 * the differential tests is itself checked against hand-made answers.
 */
class EdgeCaseTest {

    private final TraversalStack stack = new TraversalStack();
    private final ClosestHit closest = new ClosestHit();
    private final AllHits all = new AllHits();
    private final AnyHit any = new AnyHit();

    /** A unit cube [0,1]^3 plus distant clutter so the tree has internal nodes. */
    private static SpatialIndex create(boolean brute, TreeConfig config) {
        return brute ? new BruteForceIndex(config.originX(), config.originY(), config.originZ())
                : new DynamicAabbTree(config);
    }

    private static void validate(SpatialIndex index) {
        if (index instanceof DynamicAabbTree) {
            ((DynamicAabbTree) index).validate();
        }
    }

    private SpatialIndex cubeTree(boolean brute, TreeConfig config, double offset) {
        SpatialIndex tree = create(brute, config);
        tree.add(offset, offset, offset, offset + 1, offset + 1, offset + 1, 100, 1);
        for (int i = 1; i <= 20; i++) {
            double x = offset + 10 * i;
            tree.add(x, offset + 10, offset, x + 1, offset + 11, offset + 1, i, 1);
        }
        validate(tree);
        return tree;
    }

    private double closestFraction(SpatialIndex tree, double ox, double oy, double oz,
                                   double dx, double dy, double dz) {
        tree.rayCast(ox, oy, oz, dx, dy, dz, 1.0, -1L, closest, stack);
        return closest.hasHit() ? closest.fraction() : -1;
    }

    @ParameterizedTest(name = "brute force: {0}")
    @ValueSource(booleans = {false, true})
    void shouldHitAlongAndParallelToFaces(boolean brute) {
        SpatialIndex tree = cubeTree(brute, TreeConfig.defaults(), 0);
        // Head on through the middle: enters x = 0 at t = 2/4.
        assertEquals(0.5, closestFraction(tree, -2, 0.5, 0.5, 4, 0, 0));
        assertEquals(100L, closest.userValue());
        // Parallel to the y = 1 face, inside its plane (touching counts).
        assertEquals(0.5, closestFraction(tree, -2, 1, 0.5, 4, 0, 0));
        // Along an edge (y = 0, z = 0).
        assertEquals(0.5, closestFraction(tree, -2, 0, 0, 4, 0, 0));
        // Parallel, just outside the face: a miss.
        assertEquals(-1, closestFraction(tree, -2, Math.nextUp(1.0f), 0.5, 4, 0, 0));
        // Ends exactly on the face: touching counts.
        assertEquals(1.0, closestFraction(tree, -2, 0.5, 0.5, 2, 0, 0));
        // Ends just short of the face.
        assertEquals(-1, closestFraction(tree, -2, 0.5, 0.5, 1.5, 0, 0));
    }

    @ParameterizedTest(name = "brute force: {0}")
    @ValueSource(booleans = {false, true})
    void shouldCollectEveryObjectAroundAPointProbe(boolean brute) {
        // maxFraction 0, and a zero translation: every box containing the start is entered at 0, and all of them
        // are collected (a collector continuing with "maxFraction" would stop the cast after the first)
        SpatialIndex tree = cubeTree(brute, TreeConfig.defaults(), 0);
        tree.add(0.5, 0.5, 0.5, 2, 2, 2, 200, 1);
        tree.add(-1, -1, -1, 0.5, 0.5, 0.5, 300, 1);
        validate(tree);
        tree.rayCast(0.5, 0.5, 0.5, 4, 0, 0, 0.0, -1L, all, stack);
        assertEquals(3, all.count());
        tree.rayCast(0.5, 0.5, 0.5, 0, 0, 0, 1.0, -1L, all, stack);
        assertEquals(3, all.count());
        all.sort();
        assertEquals(0.0, all.fraction(2));
    }

    @ParameterizedTest(name = "brute force: {0}")
    @ValueSource(booleans = {false, true})
    void shouldReturnZeroForStartsInsideOrOnTheBoundary(boolean brute) {
        SpatialIndex tree = cubeTree(brute, TreeConfig.defaults(), 0);
        assertEquals(0.0, closestFraction(tree, 0.5, 0.5, 0.5, 4, 0, 0));
        assertEquals(0.0, closestFraction(tree, 0, 0.5, 0.5, -4, 0, 0), "on a face, pointing away");
        assertEquals(0.0, closestFraction(tree, 1, 1, 1, 3, 3, 3), "on a corner");
        assertEquals(0.0, closestFraction(tree, 0.25, 0.25, 0.25, 0, 0, 0), "zero translation: point query");
        tree.rayCast(0.5, 0.5, 0.5, 1, 0, 0, 0.0, -1L, closest, stack);
        assertTrue(closest.hasHit(), "maxFraction 0 is a point query");
        assertEquals(-1, closestFraction(tree, 2, 2, 2, 0, 0, 0), "point outside");
    }

    @ParameterizedTest(name = "brute force: {0}")
    @ValueSource(booleans = {false, true})
    void shouldFindZeroSizeBoxesAndTouchingBoxes(boolean brute) {
        SpatialIndex tree = create(brute, TreeConfig.defaults());
        int point = tree.add(2, 2, 2, 2, 2, 2, 1, 1);
        int flat = tree.add(4, 0, 0, 4, 1, 1, 2, 1);
        int cube = tree.add(5, 0, 0, 6, 1, 1, 3, 1);
        validate(tree);
        tree.rayCast(0, 2, 2, 4, 0, 0, 1.0, -1L, closest, stack);
        assertEquals(point, closest.handle());
        assertEquals(0.5, closest.fraction());
        tree.rayCast(0, 0.5, 0.5, 8, 0, 0, 1.0, -1L, all, stack);
        all.sort();
        assertEquals(2, all.count());
        assertEquals(flat, all.handle(0));
        assertEquals(0.5, all.fraction(0));
        assertEquals(cube, all.handle(1));
        assertEquals(0.625, all.fraction(1));
        AllOverlaps overlaps = new AllOverlaps();
        tree.queryAabb(2, 2, 2, 2, 2, 2, -1L, overlaps, stack);   // a point query on a point box
        assertEquals(1, overlaps.count());
        overlaps.reset();
        tree.queryAabb(3, 0, 0, 4, 1, 1, -1L, overlaps, stack);   // touches the flat box's plane
        assertEquals(1, overlaps.count());
        assertEquals(flat, overlaps.handle(0));
        overlaps.reset();
        tree.queryAabb(6, 1, 1, 7, 2, 2, -1L, overlaps, stack);   // touches the cube at a corner
        assertEquals(1, overlaps.count());
        assertEquals(cube, overlaps.handle(0));
    }

    @ParameterizedTest(name = "brute force: {0}")
    @ValueSource(booleans = {false, true})
    void shouldBreakEqualFractionsByTheLowerHandle(boolean brute) {
        SpatialIndex tree = create(brute, TreeConfig.defaults());
        int[] handles = new int[8];
        for (int i = 0; i < handles.length; i++) {
            handles[i] = tree.add(1, i, 0, 2, i + 1, 1, i, 1);   // a wall of boxes y in [i, i + 1], face x = 1
        }
        tree.remove(handles[0]);
        tree.remove(handles[1]);
        // Reuses the slot of handles[0] with a new generation, so its handle is larger than handles[2]'s.
        int late = tree.add(1, 1, 0, 2, 2, 1, 99, 1);
        assertTrue(late > handles[2]);
        // The plane y = 2 touches 'late' (y in [1, 2]) and box 2 (y in [2, 3]) at the same fraction.
        tree.rayCast(0, 2, 0.5, 4, 0, 0, 1.0, -1L, closest, stack);
        assertEquals(handles[2], closest.handle());
        assertEquals(0.25, closest.fraction());
        tree.rayCast(0, 3, 0.5, 4, 0, 0, 1.0, -1L, closest, stack);
        assertEquals(handles[2], closest.handle());
        // Two boxes entered at fraction 0 (origin on their shared face): the lower handle still wins.
        tree.rayCast(1.5, 5, 0.5, 4, 0, 0, 1.0, -1L, closest, stack);
        assertEquals(handles[4], closest.handle());
        assertEquals(0.0, closest.fraction());
        tree.rayCast(1.5, 5, 0.5, 4, 0, 0, 1.0, -1L, any, stack);
        assertTrue(any.hasHit());
        assertTrue(any.handle() == handles[4] || any.handle() == handles[5]);
    }

    @ParameterizedTest(name = "brute force: {0}")
    @ValueSource(booleans = {false, true})
    void shouldBeExactFarFromTheOriginWithAMatchingTreeOrigin(boolean brute) {
        double offset = 1e9;
        SpatialIndex tree = cubeTree(brute, TreeConfig.defaults().withOrigin(offset, offset, offset), offset);
        assertEquals(0.5, closestFraction(tree, offset - 2, offset + 0.5, offset + 0.5, 4, 0, 0));
        assertEquals(-1, closestFraction(tree, offset - 2, offset + 1.001, offset + 0.5, 4, 0, 0));
        double[] box = new double[6];
        tree.getTightBox(closestHandle(tree, offset), box);
        assertEquals(offset + 1, box[3]);
        // Without a matching origin, float storage near 1e9 has a resolution of 64: answers stay conservative.
        SpatialIndex coarse = cubeTree(brute, TreeConfig.defaults(), offset);
        assertTrue(closestFraction(coarse, offset - 2, offset + 0.5, offset + 0.5, 4, 0, 0) >= 0);
    }

    private int closestHandle(SpatialIndex tree, double offset) {
        tree.rayCast(offset - 2, offset + 0.5, offset + 0.5, 4, 0, 0, 1.0, -1L, closest, stack);
        return closest.handle();
    }

    @ParameterizedTest(name = "brute force: {0}")
    @ValueSource(booleans = {false, true})
    void shouldPruneByCategoryAndStopWhenTheVisitorSaysSo(boolean brute) {
        SpatialIndex tree = create(brute, TreeConfig.defaults());
        for (int i = 0; i < 64; i++) {
            tree.add(i, 0, 0, i + 1, 1, 1, i, 1L << i);
        }
        tree.add(100, 0, 0, 101, 1, 1, 100, 0L);   // category 0: never reported
        AllOverlaps overlaps = new AllOverlaps();
        tree.queryAabb(-1, -1, -1, 200, 2, 2, (1L << 5) | (1L << 63), overlaps, stack);
        overlaps.sort();
        assertEquals(2, overlaps.count());
        assertEquals(5L, overlaps.userValue(0));
        assertEquals(63L, overlaps.userValue(1));
        tree.rayCast(-1, 0.5, 0.5, 300, 0, 0, 1.0, 1L << 40, closest, stack);
        assertEquals(40L, closest.userValue());
        int[] calls = new int[1];
        tree.queryAabb(-1, -1, -1, 200, 2, 2, -1L, (h, v) -> ++calls[0] < 3, stack);
        assertEquals(3, calls[0]);
        tree.rayCast(-1, 0.5, 0.5, 300, 0, 0, 1.0, -1L, (h, v, f) -> {
            calls[0]++;
            return 0;
        }, stack);
        assertEquals(4, calls[0], "returning 0 stops the cast");
    }
}
