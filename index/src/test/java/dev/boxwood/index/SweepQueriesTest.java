package dev.boxwood.index;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SweepAabb;
import dev.boxwood.geom.SweepResult;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Box and sphere sweeps against the brute-force oracle; the moving-sphere kernel against a numeric reference. */
class SweepQueriesTest {

    private final TraversalStack stack = new TraversalStack(2);
    private final ClosestHit treeClosest = new ClosestHit();
    private final ClosestHit bruteClosest = new ClosestHit();
    private final AnyHit treeAny = new AnyHit();
    private final AllHits treeAll = new AllHits();
    private final AllHits bruteAll = new AllHits();
    private long hits;

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(43);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldSweepLikeBruteForceThroughMutations(QueryWorld w) {
        for (int op = 0; op < 400; op++) {
            w.mutate(Math.min(400, w.pool.size()));
            if (op % 4 == 0) {
                compareRandomSweeps(w);
            }
        }
        w.addAll();
        for (int q = 0; q < 40; q++) {
            compareRandomSweeps(w);
        }
        assertTrue(hits > 20, w + ": sweeps should hit: " + hits);
    }

    private void compareRandomSweeps(QueryWorld w) {
        double[] a = new double[3];
        double[] b = new double[3];
        w.randomPoint(a);
        w.randomPoint(b);
        double h = w.randomReach() * 0.5;
        long mask = w.randomMask();
        double dx = b[0] - a[0];
        double dy = b[1] - a[1];
        double dz = w.random.nextInt(4) == 0 ? 0 : b[2] - a[2];
        String where = w + " sweep from " + Arrays.toString(a) + " by " + dx + ", " + dy + ", " + dz + " h " + h;
        for (int kind = 0; kind < 2; kind++) {
            for (int collector = 0; collector < 3; collector++) {
                if (kind == 0) {
                    SweepQueries.sweepBox(w.tree, a[0] - h, a[1] - h, a[2] - h, a[0] + h, a[1] + h, a[2] + 2 * h,
                            dx, dy, dz, mask, collector == 0 ? treeClosest : collector == 1 ? treeAny : treeAll,
                            stack);
                    w.brute.sweepBox(a[0] - h, a[1] - h, a[2] - h, a[0] + h, a[1] + h, a[2] + 2 * h, dx, dy, dz,
                            mask, collector == 0 ? bruteClosest : bruteAll);
                } else {
                    SweepQueries.sweepSphere(w.tree, a[0], a[1], a[2], h, dx, dy, dz, mask,
                            collector == 0 ? treeClosest : collector == 1 ? treeAny : treeAll, stack);
                    w.brute.sweepSphere(a[0], a[1], a[2], h, dx, dy, dz, mask,
                            collector == 0 ? bruteClosest : bruteAll);
                }
            }
            assertEquals(bruteClosest.handle(), treeClosest.handle(), where);
            assertEquals(bruteClosest.fraction(), treeClosest.fraction(), where);
            assertEquals(bruteClosest.hasHit(), treeAny.hasHit(), where);
            treeAll.sort();
            bruteAll.sort();
            assertEquals(bruteAll.count(), treeAll.count(), where);
            for (int i = 0; i < bruteAll.count(); i++) {
                assertEquals(bruteAll.handle(i), treeAll.handle(i), where);
                assertEquals(bruteAll.fraction(i), treeAll.fraction(i), where);
            }
            hits += bruteAll.count();
        }
    }

    @Test
    void shouldFindTheContactThatAPerFrameOverlapCheckTunnelsThrough() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int wall = tree.add(10, -5, -5, 10.1, 5, 5, 7, 1);
        AllOverlaps overlaps = new AllOverlaps();
        // a 1 m bullet at x in [0, 1] moving 20 m in one frame: before and after the frame it is clear of the wall
        tree.queryAabb(0, 0, 0, 1, 1, 1, -1L, overlaps, stack);
        tree.queryAabb(20, 0, 0, 21, 1, 1, -1L, overlaps, stack);
        assertEquals(0, overlaps.count(), "the per-frame overlap check misses the wall");
        ClosestHit hit = new ClosestHit();
        SweepQueries.sweepBox(tree, 0, 0, 0, 1, 1, 1, 20, 0, 0, -1L, hit, stack);
        assertTrue(hit.hasHit());
        assertEquals(wall, hit.handle());
        // contact when the leading face x = 1 + 20 u reaches 10
        assertEquals(9.0 / 20.0, hit.fraction(), 1e-15);
        SweepQueries.sweepSphere(tree, 0.5, 0.5, 0.5, 0.5, 20, 0, 0, -1L, hit, stack);
        assertEquals(wall, hit.handle());
        assertEquals(9.0 / 20.0, hit.fraction(), 1e-15);
    }

    @Test
    void shouldMatchTheFirstTimeOfTheKernelBoxSweep() {
        SplittableRandom random = new SplittableRandom(9);
        SweepResult result = new SweepResult();
        int contacts = 0;
        for (int i = 0; i < 20000; i++) {
            double[] a = randomBox(random);
            double[] q = randomBox(random);
            double dx = random.nextGaussian() * 8;
            double dy = random.nextGaussian() * 8;
            double dz = random.nextInt(3) == 0 ? 0 : random.nextGaussian() * 8;
            boolean hit = AabbAabb.sweep(a[0], a[1], a[2], a[3], a[4], a[5], 0, 0, 0,
                    q[0], q[1], q[2], q[3], q[4], q[5], dx, dy, dz, result);
            double t = SweepAabb.intersectMovingAabb(SegmentAabb.inverse(dx), SegmentAabb.inverse(dy),
                    SegmentAabb.inverse(dz), 1.0, q[0], q[1], q[2], q[3], q[4], q[5], a[0], a[1], a[2], a[3], a[4],
                    a[5]);
            assertEquals(hit ? result.first : Geom.NO_HIT, t);
            contacts += hit ? 1 : 0;
        }
        assertTrue(contacts > 1000 && contacts < 19000, "mix of contacts and misses: " + contacts);
    }

    @Test
    void shouldFindTheFirstContactOfAMovingSphereLikeANumericReference() {
        SplittableRandom random = new SplittableRandom(11);
        int contacts = 0;
        int edgeOrCorner = 0;
        for (int i = 0; i < 20000; i++) {
            double[] box = randomBox(random);
            if (random.nextInt(4) == 0) {
                box[3] = box[0]; // flat box
            }
            double r = random.nextInt(8) == 0 ? 0 : random.nextDouble() * 2;
            double cx = random.nextGaussian() * 6;
            double cy = random.nextGaussian() * 6;
            double cz = random.nextGaussian() * 6;
            double dx = random.nextGaussian() * 8;
            double dy = random.nextGaussian() * 8;
            double dz = random.nextGaussian() * 8;
            double t = SweepAabb.intersectMovingSphere(cx, cy, cz, r, dx, dy, dz, 1.0,
                    box[0], box[1], box[2], box[3], box[4], box[5]);
            double expected = referenceFirstContact(cx, cy, cz, r, dx, dy, dz, box);
            String where = "c " + cx + "," + cy + "," + cz + " r " + r + " d " + dx + "," + dy + "," + dz + " box "
                    + Arrays.toString(box);
            if (Double.isNaN(expected)) {
                continue; // grazing within the reference's resolution
            }
            if (expected < 0) {
                assertEquals(Geom.NO_HIT, t, where);
            } else {
                assertEquals(expected, t, 1e-9, where);
                contacts++;
                double px = cx + t * dx;
                double py = cy + t * dy;
                double pz = cz + t * dz;
                int outside = (px < box[0] || px > box[3] ? 1 : 0) + (py < box[1] || py > box[4] ? 1 : 0)
                        + (pz < box[2] || pz > box[5] ? 1 : 0);
                edgeOrCorner += outside >= 2 ? 1 : 0;
            }
        }
        assertTrue(contacts > 500, "contacts: " + contacts);
        assertTrue(edgeOrCorner > 50, "contacts near edges and corners: " + edgeOrCorner);
    }

    /**
     * Numeric reference: the squared distance from the moving centre to the box is convex in time, so the contact
     * set is an interval; ternary search finds the closest approach, bisection the first time within r.
     * Returns -1 for a miss and NaN when the closest approach is within the reference's own resolution of r.
     */
    private static double referenceFirstContact(double cx, double cy, double cz, double r,
                                                double dx, double dy, double dz, double[] box) {
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 200; i++) {
            double m1 = lo + (hi - lo) / 3;
            double m2 = hi - (hi - lo) / 3;
            if (excess(m1, cx, cy, cz, r, dx, dy, dz, box) <= excess(m2, cx, cy, cz, r, dx, dy, dz, box)) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        double closest = 0.5 * (lo + hi);
        double best = excess(closest, cx, cy, cz, r, dx, dy, dz, box);
        if (Math.abs(best) < 1e-9) {
            return Double.NaN;
        }
        if (best > 0) {
            return -1;
        }
        if (excess(0, cx, cy, cz, r, dx, dy, dz, box) <= 0) {
            return 0;
        }
        double a = 0;
        double b = closest;
        for (int i = 0; i < 200; i++) {
            double m = 0.5 * (a + b);
            if (excess(m, cx, cy, cz, r, dx, dy, dz, box) <= 0) {
                b = m;
            } else {
                a = m;
            }
        }
        return b;
    }

    /** Distance from the centre at time t to the box, minus r. */
    private static double excess(double t, double cx, double cy, double cz, double r, double dx, double dy, double dz,
                                 double[] box) {
        double x = cx + t * dx;
        double y = cy + t * dy;
        double z = cz + t * dz;
        double ex = Math.max(box[0] - x, 0) + Math.max(x - box[3], 0);
        double ey = Math.max(box[1] - y, 0) + Math.max(y - box[4], 0);
        double ez = Math.max(box[2] - z, 0) + Math.max(z - box[5], 0);
        return Math.sqrt(ex * ex + ey * ey + ez * ez) - r;
    }

    private static double[] randomBox(SplittableRandom random) {
        double[] box = new double[6];
        for (int a = 0; a < 3; a++) {
            double c = random.nextGaussian() * 4;
            double h = random.nextDouble() * 3;
            box[a] = c - h;
            box[a + 3] = c + h;
        }
        return box;
    }

    @Test
    void shouldReportAStartInContactAtTimeZero() {
        assertEquals(0.0, SweepAabb.intersectMovingSphere(0, 0, 0, 1, 5, 0, 0, 1, 1, -1, -1, 2, 1, 1));
        assertFalse(SweepAabb.intersectMovingSphere(0, 0, 0, 1, -5, 0, 0, 1, 2.5, -1, -1, 3, 1, 1) >= 0);
    }
}
