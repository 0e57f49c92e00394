package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SegmentSphere;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.SegmentIntersector;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;

/**
 * A closest-hit cast with an exact test clips to each exact hit, but an object's box fraction can come after its
 * exact hit (the slab test rounds; the start rounds into the index's frame): the clip must not cut off an object
 * whose exact hit ties with the best or comes first, or the answer depends on the order the index visits objects
 * in (the tree nearer box first, the brute force in storage order). Both must give the documented answer: the
 * smallest exact fraction, ties to the lower handle.
 */
class ExactTestClipTest {

    private final TraversalStack stack = new TraversalStack();

    @Test
    void shouldBreakATieOfExactHitsByTheLowerHandleWhateverTheBoxFractions() {
        // both shapes are hit just before 0.5; the box of handle 0 is entered at 0.5, that of handle 1 at 0.25
        double t = Math.nextDown(0.5);
        assertBothIndexesFindHandle0At(t, (handle, userValue, sx, sy, sz, tx, ty, tz, maxFraction) -> t);
    }

    @Test
    void shouldFindTheEarlierExactHitWhoseBoxIsEnteredLater() {
        // handle 0's shape is hit two ulps before 0.5, handle 1's one ulp before: handle 0 first, though its box is
        // entered after handle 1's hit
        double t0 = Math.nextDown(Math.nextDown(0.5));
        double t1 = Math.nextDown(0.5);
        assertBothIndexesFindHandle0At(t0,
                (handle, userValue, sx, sy, sz, tx, ty, tz, maxFraction) -> userValue == 0 ? t0 : t1);
    }

    /**
     * Handle 0's box entered at 0.5 (x from 2), handle 1's at 0.25 (x from 1), by the ray from x 0 over 4, at origin
     * 0: both indexes report handle 0 at {@code fraction}.
     */
    private void assertBothIndexesFindHandle0At(double fraction, SegmentIntersector shapes) {
        ClosestHit closest = new ClosestHit();
        closest.setExactTest(shapes);
        for (SpatialIndex index : indexes(0)) {
            assertEquals(0, index.add(2, 0, 0, 3, 1, 1, 0, 1L));
            assertEquals(1, index.add(1, 0, 0, 3, 1, 1, 1, 1L));
            index.rayCast(0, 0.5, 0.5, 4, 0, 0, 1, -1L, closest, stack);
            assertEquals(0, closest.handle(), index.getClass().getSimpleName());
            assertEquals(fraction, closest.fraction());
        }
    }

    @Test
    void shouldFindTheEarlierExactHitWhereTheStartRoundsIntoAFarFrame() {
        // a box tested exactly in world coordinates and a sphere whose exact hit lies just after the box's, both
        // 1e6 from the tree's origin: the start's rounding puts the box fraction about 1e-12 after its exact hit,
        // after the sphere's exact hit, which clipped the cast there when the sphere was visited first
        double[] box = {10, 0, 0, 11, 1, 1};
        double cx = 10.5;
        double cy = 1.3660254037844495;
        double cz = 0.5;
        SegmentIntersector shapes = (handle, userValue, sx, sy, sz, tx, ty, tz, maxFraction) -> userValue == 0
                ? SegmentAabb.intersect(sx, sy, sz, tx, ty, tz, maxFraction, box[0], box[1], box[2], box[3], box[4],
                        box[5])
                : SegmentSphere.intersect(sx, sy, sz, tx, ty, tz, maxFraction, cx, cy, cz, 1);
        double boxHit = SegmentAabb.intersect(0.1, 0.5, 0.5, 20, 0, 0, 1, box[0], box[1], box[2], box[3], box[4],
                box[5]);
        double sphereHit = SegmentSphere.intersect(0.1, 0.5, 0.5, 20, 0, 0, 1, cx, cy, cz, 1);
        assertTrue(boxHit < sphereHit, boxHit + " " + sphereHit);
        ClosestHit closest = new ClosestHit();
        closest.setExactTest(shapes);
        for (SpatialIndex index : indexes(1e6)) {
            index.add(box[0], box[1], box[2], box[3], box[4], box[5], 0, 1L);
            index.add(cx - 1, cy - 1, cz - 1, cx + 1, cy + 1, cz + 1, 1, 1L);
            index.rayCast(0.1, 0.5, 0.5, 20, 0, 0, 1, -1L, closest, stack);
            assertEquals(0, closest.userValue(), index.getClass().getSimpleName());
            assertEquals(boxHit, closest.fraction());
        }
    }

    @Test
    void shouldKeepCullingForACastAlmostParallelToAnAxisFarFromTheOrigin() {
        // a translation component of 1e-12 turned the start's rounding on that axis (6e-11) into a slack of 58
        // segments: the clip never tightened, and all 1000 boxes on the ray went through the exact test
        for (double dy : new double[] {0, 1e-6, 1e-12}) {
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(1e6, 1e6, 0));
            for (int i = 0; i < 1000; i++) {
                tree.add(10 + i, 0, 0, 10.5 + i, 1, 1, i, 1L);
            }
            int[] calls = {0};
            ClosestHit closest = new ClosestHit();
            closest.setExactTest((handle, userValue, sx, sy, sz, tx, ty, tz, maxFraction) -> {
                calls[0]++;
                return SegmentAabb.intersect(sx, sy, sz, tx, ty, tz, maxFraction, 10 + userValue, 0, 0,
                        10.5 + userValue, 1, 1);
            });
            tree.rayCast(0.1, 0.3, 0.5, 2000, dy, 0, 1, -1L, closest, stack);
            assertEquals(0, closest.userValue());
            assertTrue(calls[0] <= 4, calls[0] + " exact tests for dy " + dy);
        }
    }

    private static SpatialIndex[] indexes(double originX) {
        return new SpatialIndex[] {new DynamicAabbTree(TreeConfig.defaults().withOrigin(originX, 0, 0)),
            new BruteForceIndex(originX, 0, 0)};
    }
}
