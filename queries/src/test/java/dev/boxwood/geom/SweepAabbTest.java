package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sweep kernels of {@link SweepAabb}: the moving box against the exact segment/box reference on the Minkowski
 * difference and against {@link AabbAabb#sweep}; the moving sphere against a numeric reference (convex distance,
 * ternary search and bisection), which exercises the face, edge and corner pieces of the rounded box.
 */
class SweepAabbTest {

    @Test
    void shouldAgreeWithTheExactReferenceForAMovingBox() {
        SplittableRandom random = new SplittableRandom(0x5A5A_0004L);
        int hits = 0;
        int skipped = 0;
        int cases = 0;
        for (double base : new double[] {0, 1e5, 1e7}) {
            for (int n = 0; n < 4000; n++, cases++) {
                double[] moving = randomBox(random, base);
                double[] still = randomBox(random, base);
                double[] d = new double[3];
                for (int i = 0; i < 3; i++) {
                    d[i] = random.nextInt(5) == 0 ? 0 : random.nextGaussian() * 8;
                }
                double maxFraction = random.nextBoolean() ? 1.0 : random.nextDouble(0, 3);
                double t = SweepAabb.intersectMovingAabb(SegmentAabb.inverse(d[0]), SegmentAabb.inverse(d[1]),
                        SegmentAabb.inverse(d[2]), maxFraction, moving[0], moving[1], moving[2], moving[3],
                        moving[4], moving[5], still[0], still[1], still[2], still[3], still[4], still[5]);
                // the origin moving by d through the exact Minkowski difference [stillMin - movingMax,
                // stillMax - movingMin]
                BigDecimal[] zero = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
                BigDecimal[] min = new BigDecimal[3];
                BigDecimal[] max = new BigDecimal[3];
                for (int i = 0; i < 3; i++) {
                    min[i] = ExactReference.exact(still[i]).subtract(ExactReference.exact(moving[i + 3]));
                    max[i] = ExactReference.exact(still[i + 3]).subtract(ExactReference.exact(moving[i]));
                }
                ExactReference.SegmentBox expected = ExactReference.segmentBox(zero, ExactReference.exact(d),
                        ExactReference.exact(maxFraction), min, max);
                if (Math.abs(expected.margin) < 1e-12) {
                    skipped++;
                    continue;
                }
                String where = "case " + n + " base " + base;
                if (expected.hit()) {
                    hits++;
                    assertEquals(expected.fraction, t, 1e-12 * (1 + Math.abs(base)), where);
                } else {
                    assertEquals(Geom.NO_HIT, t, where);
                }
            }
        }
        assertTrue(hits > cases / 10 && hits < cases * 9 / 10, "mix of contacts and misses: " + hits);
        assertTrue(skipped < cases / 100, "skipped " + skipped);
    }

    @Test
    void shouldMatchTheFirstTimeOfTheBoxBoxSweep() {
        SplittableRandom random = new SplittableRandom(9);
        SweepResult result = new SweepResult();
        int contacts = 0;
        for (int i = 0; i < 20000; i++) {
            double[] a = randomBox(random, 0);
            double[] q = randomBox(random, 0);
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
            double[] box = randomBox(random, 0);
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
            double maxFraction = random.nextInt(4) == 0 ? random.nextDouble() : 1.0;
            double t = SweepAabb.intersectMovingSphere(cx, cy, cz, r, dx, dy, dz, maxFraction,
                    box[0], box[1], box[2], box[3], box[4], box[5]);
            double expected = referenceFirstContact(cx, cy, cz, r, dx, dy, dz, maxFraction, box);
            String where = "c " + cx + "," + cy + "," + cz + " r " + r + " d " + dx + "," + dy + "," + dz
                    + " max " + maxFraction + " box " + Arrays.toString(box);
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

    @Test
    void shouldReportAStartInContactAtTimeZero() {
        assertEquals(0.0, SweepAabb.intersectMovingSphere(0, 0, 0, 1, 5, 0, 0, 1, 1, -1, -1, 2, 1, 1), "touching");
        assertEquals(0.0, SweepAabb.intersectMovingSphere(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), "point box");
        assertEquals(Geom.NO_HIT, SweepAabb.intersectMovingSphere(0, 0, 0, 1, -5, 0, 0, 1, 2.5, -1, -1, 3, 1, 1),
                "moving away");
        assertEquals(0.0, SweepAabb.intersectMovingAabb(SegmentAabb.inverse(0), SegmentAabb.inverse(0),
                SegmentAabb.inverse(0), 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2), "corners touching, not moving");
    }

    @Test
    void shouldStopAtTheMaximumFraction() {
        // the leading face x = 1 + 20 u reaches 10 at u = 9/20
        assertEquals(9.0 / 20.0, SweepAabb.intersectMovingAabb(SegmentAabb.inverse(20), SegmentAabb.inverse(0),
                SegmentAabb.inverse(0), 1, 0, 0, 0, 1, 1, 1, 10, -5, -5, 10.1, 5, 5));
        assertEquals(Geom.NO_HIT, SweepAabb.intersectMovingAabb(SegmentAabb.inverse(20), SegmentAabb.inverse(0),
                SegmentAabb.inverse(0), 0.4, 0, 0, 0, 1, 1, 1, 10, -5, -5, 10.1, 5, 5));
        assertEquals(9.0 / 20.0, SweepAabb.intersectMovingSphere(0.5, 0.5, 0.5, 0.5, 20, 0, 0, 1,
                10, -5, -5, 10.1, 5, 5));
        assertEquals(Geom.NO_HIT, SweepAabb.intersectMovingSphere(0.5, 0.5, 0.5, 0.5, 20, 0, 0, 0.4,
                10, -5, -5, 10.1, 5, 5));
        // a corner: the sphere centre moving along the diagonal reaches distance 1 from (1, 1, 1)
        double t = SweepAabb.intersectMovingSphere(3, 3, 3, 1, -3, -3, -3, 1, 0, 0, 0, 1, 1, 1);
        assertEquals((2.0 - 1.0 / Math.sqrt(3.0)) / 3.0, t, 1e-15);
    }

    /**
     * Numeric reference: the distance from the moving centre to the box is convex in time, so the contact set is
     * an interval; ternary search finds the closest approach, bisection the first time within r. Returns -1 for a
     * miss and NaN when the closest approach is within the reference's own resolution of r.
     */
    private static double referenceFirstContact(double cx, double cy, double cz, double r,
                                                double dx, double dy, double dz, double maxFraction, double[] box) {
        double lo = 0;
        double hi = maxFraction;
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

    private static double[] randomBox(SplittableRandom random, double base) {
        double[] box = new double[6];
        for (int a = 0; a < 3; a++) {
            double c = base + random.nextGaussian() * 4;
            double h = random.nextDouble() * 3;
            box[a] = c - h;
            box[a + 3] = c + h;
        }
        return box;
    }

    @Test
    void shouldGiveTheSameTimeForAMovingSphereAtEveryScale() {
        // the first contact is scale-free: start, motion, radius and box scaled by a power of two give the same time;
        // at 2^-400 and 2^+400 (about 1e-120 and 1e120) the corner and edge quadratics' products of squares would
        // underflow or overflow without the kernel's own rescaling (below about 1e-154 the start test's squared
        // distances underflow themselves: a documented limit of the sphere tests)
        SplittableRandom random = new SplittableRandom(23);
        int hits = 0;
        int cornersAndEdges = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] box = {0, 0, 0, random.nextDouble(0, 2), random.nextDouble(0, 2), random.nextDouble(0, 2)};
            double r = random.nextDouble(0, 1);
            double[] c = new double[3];
            double[] d = new double[3];
            for (int a = 0; a < 3; a++) {
                c[a] = random.nextDouble(-3, 5);
                d[a] = random.nextDouble(-4, 4);
            }
            double t = moving(c, r, d, box, 1);
            boolean nearCornerOrEdge = t > 0 && outsideAxes(c, d, t, box) >= 2;
            cornersAndEdges += nearCornerOrEdge ? 1 : 0;
            hits += t >= 0 ? 1 : 0;
            for (double scale : new double[] {0x1p-400, 0x1p-450, 0x1p400, 0x1p500}) {
                assertEquals(t, moving(c, r, d, box, scale), "case " + i + " at scale " + scale + ": c "
                        + Arrays.toString(c) + " r " + r + " d " + Arrays.toString(d) + " box " + Arrays.toString(box));
            }
        }
        assertTrue(hits > 500 && cornersAndEdges > 200, hits + " hits, " + cornersAndEdges + " at corners and edges");
    }

    @Test
    void shouldScaleTheTimeExactlyWhenOnlyTheMotionIsScaled() {
        // start, radius and box as they are, the motion scaled by 2^e and the largest time by 2^-e: the time scales
        // exactly (the corner and edge quadratics once took one scale for all, and a start far smaller than the
        // motion underflowed to a touching start: a late time or a false miss)
        SplittableRandom random = new SplittableRandom(29);
        int cornersAndEdges = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] box = {0, 0, 0, random.nextDouble(0, 2), random.nextDouble(0, 2), random.nextDouble(0, 2)};
            double r = random.nextDouble(0, 1);
            double[] c = new double[3];
            double[] d = new double[3];
            for (int a = 0; a < 3; a++) {
                c[a] = random.nextDouble(-3, 5);
                d[a] = random.nextDouble(-4, 4);
            }
            double t = moving(c, r, d, box, 1);
            cornersAndEdges += t > 0 && outsideAxes(c, d, t, box) >= 2 ? 1 : 0;
            for (int e : new int[] {-600, 200, 600}) {
                double k = Math.scalb(1.0, e);
                double scaled = SweepAabb.intersectMovingSphere(c[0], c[1], c[2], r, d[0] * k, d[1] * k, d[2] * k,
                        Math.scalb(1.0, -e), box[0], box[1], box[2], box[3], box[4], box[5]);
                assertEquals(t < 0 ? t : Math.scalb(t, -e), scaled, "case " + i + ", motion scaled by 2^" + e);
            }
        }
        assertTrue(cornersAndEdges > 200, cornersAndEdges + " at corners and edges");
        // the reported case: the corner sphere at the origin reached at 2 - 1/sqrt(3) of the motion's 1e200
        double expected = (2 - 1 / Math.sqrt(3)) / 1e200;
        assertEquals(expected, SweepAabb.intersectMovingSphere(-2, -2, -2, 1, 1e200, 1e200, 1e200, 1, 0, 0, 0, 1, 1, 1),
                1e-12 * expected);
        assertEquals(expected, SweepAabb.intersectMovingSphere(-2, -2, -2, 1, 1e200, 1e200, 1e200, 1.5e-200, 0, 0, 0,
                1, 1, 1), 1e-12 * expected);
    }

    @Test
    void shouldNotMissWithARadiusBelowAnUlpOfTheBox() {
        // box [1e6, 1e6 + 1]: r = 4e-11 is below half an ulp of 1e6, so the box grown by r, rounded to nearest, was
        // the box itself, and a centre passing within r of a face but outside it missed
        double lo = 1e6;
        double r = 4e-11;
        for (int axis = 0; axis < 3; axis++) {
            double[] c = {lo + 0.5, lo + 0.5, lo + 0.5};
            double[] d = new double[3];
            c[axis] = Math.nextDown(lo); // 1.16e-10 from the face: within r after a motion of 1e-10
            d[axis] = 1e-10;
            double t = SweepAabb.intersectMovingSphere(c[0], c[1], c[2], r, d[0], d[1], d[2], 1, lo, lo, lo, lo + 1,
                    lo + 1, lo + 1);
            assertTrue(t >= 0 && t <= 1, "axis " + axis + ": " + t);
            c[axis] = Math.nextUp(lo + 1);
            d[axis] = -1e-10;
            t = SweepAabb.intersectMovingSphere(c[0], c[1], c[2], r, d[0], d[1], d[2], 1, lo, lo, lo, lo + 1, lo + 1,
                    lo + 1);
            assertTrue(t >= 0 && t <= 1, "axis " + axis + " from above: " + t);
        }
    }

    private static double moving(double[] c, double r, double[] d, double[] box, double k) {
        return SweepAabb.intersectMovingSphere(c[0] * k, c[1] * k, c[2] * k, r * k, d[0] * k, d[1] * k, d[2] * k, 1.0,
                box[0] * k, box[1] * k, box[2] * k, box[3] * k, box[4] * k, box[5] * k);
    }

    /** On how many axes the centre at time {@code t} lies outside the box (2 or 3: a contact at an edge or corner). */
    private static int outsideAxes(double[] c, double[] d, double t, double[] box) {
        int n = 0;
        for (int a = 0; a < 3; a++) {
            double p = c[a] + t * d[a];
            n += p < box[a] || p > box[3 + a] ? 1 : 0;
        }
        return n;
    }
}
