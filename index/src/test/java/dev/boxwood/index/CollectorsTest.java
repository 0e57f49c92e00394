package dev.boxwood.index;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.SegmentIntersector;
import dev.boxwood.query.SingleHitCollector;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collectors' filter, ignored handles and exact test, checked on both indexes against a direct computation:
 * every object's exact fraction computed independently, then the minimum by (fraction, handle).
 */
class CollectorsTest {

    private final BoxSet boxes = SyntheticWorld.clustered(2000, 51, WorldFrame.scaled(0.01)).boxes();
    private final int[] handles = new int[boxes.size()];

    /** The "user geometry": each object's box shrunk to its middle half on every axis. */
    private final SegmentIntersector innerBox = (handle, userValue, ox, oy, oz, tx, ty, tz, maxFraction) -> {
        int i = (int) userValue;
        double qx = (boxes.maxX[i] - boxes.minX[i]) * 0.25;
        double qy = (boxes.maxY[i] - boxes.minY[i]) * 0.25;
        double qz = (boxes.maxZ[i] - boxes.minZ[i]) * 0.25;
        return SegmentAabb.intersect(ox, oy, oz, tx, ty, tz, maxFraction,
                boxes.minX[i] + qx, boxes.minY[i] + qy, boxes.minZ[i] + qz,
                boxes.maxX[i] - qx, boxes.maxY[i] - qy, boxes.maxZ[i] - qz);
    };

    /** Accepts objects with an even index. */
    private final QueryFilter even = (handle, userValue) -> (userValue & 1) == 0;

    private void fill(SpatialIndex index) {
        for (int i = 0; i < boxes.size(); i++) {
            handles[i] = index.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i],
                    boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1);
        }
    }

    @Test
    void shouldApplyFilterIgnoredHandlesAndExactTestOnBothIndexes() {
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex brute = new BruteForceIndex();
        fill(brute);
        fill(tree);
        double[] b = boxes.bounds();
        SplittableRandom random = new SplittableRandom(52);
        TraversalStack stack = new TraversalStack();
        ClosestHit closest = new ClosestHit();
        AnyHit any = new AnyHit();
        AllHits all = new AllHits();
        for (SpatialIndex index : new SpatialIndex[] {tree, brute}) {
            for (var c : new dev.boxwood.query.SegmentCollector[] {closest, any, all}) {
                c.setFilter(even);
                c.setExactTest(innerBox);
            }
            int hits = 0;
            for (int q = 0; q < 400; q++) {
                double ox = b[0] + (b[3] - b[0]) * random.nextDouble();
                double oy = b[1] + (b[4] - b[1]) * random.nextDouble();
                double oz = b[2] + (b[5] - b[2]) * random.nextDouble();
                // Aimed through the centre of a random object, so most segments hit something.
                int target = random.nextInt(boxes.size());
                double tx = 2 * ((boxes.minX[target] + boxes.maxX[target]) * 0.5 - ox);
                double ty = 2 * ((boxes.minY[target] + boxes.maxY[target]) * 0.5 - oy);
                double tz = 2 * ((boxes.minZ[target] + boxes.maxZ[target]) * 0.5 - oz);
                // Ignore the second and third objects the segment enters (by box), like a caster and its target.
                int[] firstTwo = firstTwoByBox(index, ox, oy, oz, tx, ty, tz);
                for (var c : new dev.boxwood.query.SegmentCollector[] {closest, any, all}) {
                    c.setIgnored(firstTwo[0], firstTwo[1]);
                }
                // Independent expectation.
                int bestHandle = Handles.NONE;
                double bestFraction = Double.NaN;
                int count = 0;
                for (int i = 0; i < boxes.size(); i++) {
                    int h = handles[i];
                    if ((i & 1) != 0 || h == firstTwo[0] || h == firstTwo[1]) {
                        continue;
                    }
                    double t = innerBox.intersect(h, i, ox, oy, oz, tx, ty, tz, 1.0);
                    if (t < 0) {
                        continue;
                    }
                    count++;
                    if (bestHandle == Handles.NONE || t < bestFraction || (t == bestFraction && h < bestHandle)) {
                        bestHandle = h;
                        bestFraction = t;
                    }
                }
                index.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, closest, stack);
                assertEquals(bestHandle, closest.handle(), "closest, query " + q);
                if (bestHandle != Handles.NONE) {
                    assertEquals(bestFraction, closest.fraction(), "fraction, query " + q);
                    hits++;
                }
                index.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, any, stack);
                assertEquals(bestHandle != Handles.NONE, any.hasHit(), "any, query " + q);
                index.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, all, stack);
                assertEquals(count, all.count(), "all, query " + q);
            }
            assertTrue(hits > 100, "enough segments should hit: " + hits);
        }
    }

    @Test
    void shouldReportAMissAsTheBatchesAndKernelsDo() {
        DynamicAabbTree tree = new DynamicAabbTree();
        tree.add(0, 0, 0, 1, 1, 1, 7L, -1L);
        TraversalStack stack = new TraversalStack();
        ClosestHit closest = new ClosestHit();
        AnyHit any = new AnyHit();
        tree.rayCast(-5, 0.5, 0.5, 10, 0, 0, 1, -1L, closest, stack);
        assertEquals(0.5, closest.fraction());
        // a miss after a hit: every field back at its miss value, the fraction Geom.NO_HIT as a batch writes it
        tree.rayCast(-5, 5, 0.5, 10, 0, 0, 1, -1L, closest, stack);
        tree.rayCast(-5, 5, 0.5, 10, 0, 0, 1, -1L, any, stack);
        for (SingleHitCollector miss : new SingleHitCollector[] {closest, any}) {
            assertTrue(!miss.hasHit());
            assertEquals(Geom.NO_HIT, miss.fraction());
            assertEquals(Handles.NONE, miss.handle());
            assertEquals(0L, miss.userValue());
            assertEquals(-1, miss.part());
        }
        try (BatchQueries batch = new BatchQueries(1)) {
            int[] handles = {3};
            double[] fractions = {3};
            batch.closestRays(tree, new double[] {-5, 5, 0.5}, new double[] {10, 0, 0}, 1, 1, -1L, handles, fractions);
            assertEquals(Handles.NONE, handles[0]);
            assertEquals(closest.fraction(), fractions[0]);
        }
    }

    @Test
    void shouldReportAnExactTestsNegativeZeroAsFractionZero() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int h = tree.add(0, 0, 0, 1, 1, 1, 7L, 1L);
        SegmentIntersector negativeZero = (handle, userValue, ox, oy, oz, tx, ty, tz, maxFraction) -> -0.0;
        TraversalStack stack = new TraversalStack();
        ClosestHit closest = new ClosestHit();
        AllHits all = new AllHits();
        closest.setExactTest(negativeZero);
        all.setExactTest(negativeZero);
        tree.rayCast(-1, 0.5, 0.5, 3, 0, 0, 1.0, -1L, closest, stack);
        tree.rayCast(-1, 0.5, 0.5, 3, 0, 0, 1.0, -1L, all, stack);
        assertEquals(h, closest.handle());
        // assertEquals on doubles compares bit patterns: -0.0 would fail here.
        assertEquals(0.0, closest.fraction());
        assertEquals(1, all.count());
        assertEquals(0.0, all.fraction(0));
    }

    @Test
    void shouldReportFractionZeroForAMaxFractionOfNegativeZero() {
        // -0.0 passes as a maxFraction (it is >= 0): a start inside is still hit at the documented fraction 0
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex brute = new BruteForceIndex();
        for (SpatialIndex index : new SpatialIndex[] {tree, brute}) {
            index.add(0, 0, 0, 1, 1, 1, 7L, 1L);
        }
        TraversalStack stack = new TraversalStack();
        ClosestHit closest = new ClosestHit();
        AllHits all = new AllHits();
        for (SpatialIndex index : new SpatialIndex[] {tree, brute}) {
            index.rayCast(0.5, 0.5, 0.5, 1, 0, 0, -0.0, -1L, closest, stack);
            index.rayCast(0.5, 0.5, 0.5, 1, 0, 0, -0.0, -1L, all, stack);
            // assertEquals on doubles compares bit patterns: -0.0 would fail here.
            assertEquals(0.0, closest.fraction());
            assertEquals(1, all.count());
            assertEquals(0.0, all.fraction(0));
        }
        try (BatchQueries batch = new BatchQueries(1)) {
            int[] handles = {3};
            double[] fractions = {3};
            batch.closestRays(tree, new double[] {0.5, 0.5, 0.5}, new double[] {1, 0, 0}, 1, -0.0, -1L, handles,
                    fractions);
            assertEquals(0.0, fractions[0]);
        }
    }

    @Test
    void shouldBreakTiesByLowerHandleWhenTheExactFractionRoundsBelowTheBoxEntry() {
        // Four objects with the same box, each's shape that box. Far from the tree's origin the index computes the
        // box fraction in its frame and the exact test in world coordinates, which round differently: the exact
        // fraction is often an ulp below the box's, and the tie must still go to the lowest handle.
        double o = 1e6;
        double[] box = {o + 1e5, o + 1, o + 1, o + 1e5 + 1, o + 2, o + 2};
        SegmentIntersector ownBox = (handle, userValue, ox, oy, oz, tx, ty, tz, maxFraction) ->
                SegmentAabb.intersect(ox, oy, oz, tx, ty, tz, maxFraction, box[0], box[1], box[2], box[3], box[4],
                        box[5]);
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(o, o, o));
        BruteForceIndex brute = new BruteForceIndex(o, o, o);
        for (int i = 0; i < 4; i++) {
            assertEquals(i, tree.add(box[0], box[1], box[2], box[3], box[4], box[5], i, 1L));
            assertEquals(i, brute.add(box[0], box[1], box[2], box[3], box[4], box[5], i, 1L));
        }
        ClosestHit closest = new ClosestHit();
        closest.setExactTest(ownBox);
        TraversalStack stack = new TraversalStack();
        SplittableRandom random = new SplittableRandom(53);
        int below = 0;
        for (int q = 0; q < 500; q++) {
            double ox = 0.1 + 1000 * random.nextDouble();
            double oy = o + 1 + random.nextDouble();
            double oz = o + 1 + random.nextDouble();
            double exact = ownBox.intersect(0, 0, ox, oy, oz, 2e6, 0, 0, 1.0);
            double inFrame = SegmentAabb.intersect(ox - o, oy - o, oz - o, 2e6, 0, 0, 1.0, 1e5, 1, 1, 1e5 + 1, 2, 2);
            if (exact < inFrame) {
                below++;
            }
            for (SpatialIndex index : new SpatialIndex[] {tree, brute}) {
                index.rayCast(ox, oy, oz, 2e6, 0, 0, 1.0, -1L, closest, stack);
                assertEquals(0, closest.handle(), "query " + q + " on " + index.getClass().getSimpleName());
                assertEquals(exact, closest.fraction(), "query " + q);
            }
        }
        assertTrue(below > 20, "the exact fraction should often round below the box's: " + below);
    }

    /** The handles of the second and third objects whose boxes the segment enters (or NONE). */
    private static int[] firstTwoByBox(SpatialIndex index, double ox, double oy, double oz,
                                       double tx, double ty, double tz) {
        AllHits boxHits = new AllHits();
        index.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, boxHits, new TraversalStack());
        boxHits.sort();
        return new int[] {
            boxHits.count() > 1 ? boxHits.handle(1) : Handles.NONE,
            boxHits.count() > 2 ? boxHits.handle(2) : Handles.NONE};
    }
}
