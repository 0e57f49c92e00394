package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SphereSweepTest {

    private final SweepResult r = new SweepResult();

    @Test
    void shouldOverlapSpheresThatTouch() {
        assertTrue(SphereSphere.test(0, 0, 0, 1, 3, 4, 0, 4));
        assertFalse(SphereSphere.test(0, 0, 0, 0, 3, 4, 0, Math.nextDown(5.0)));
        assertTrue(SphereSphere.test(1e7, 1e7, 1e7, 1, 1e7 + 3, 1e7 + 4, 1e7, 4));
        assertFalse(SphereSphere.test(1e7, 1e7, 1e7, 0, 1e7 + 3, 1e7 + 4, 1e7, Math.nextDown(5.0)));
    }

    @Test
    void shouldSweepSpheresHeadOn() {
        assertTrue(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 1, -16, 0, 0, r));
        assertEquals(0.5, r.first);
        assertEquals(12.0 / 16, r.last);
        assertTrue(SphereSphere.sweep(1e6, 0, 0, 1, 8, 0, 0, 1e6 + 10, 0, 0, 1, -8, 0, 0, r), "both moving");
        assertEquals(0.5, r.first);
        assertFalse(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 1, -7, 0, 0, r), "stops short");
        assertFalse(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 1, 7, 0, 0, r), "moving apart");
        assertFalse(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 10, 3, 0, 1, -20, 0, 0, r), "passes beside");
        assertTrue(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 10, 2, 0, 1, -20, 0, 0, r), "grazes");
        assertEquals(0.5, r.first);
        assertEquals(0.5, r.last);
    }

    @Test
    void shouldGiveHugeAndTinySpheresTheAnswersOfUnitOnes() {
        SplittableRandom random = new SplittableRandom(61);
        SweepResult unit = new SweepResult();
        int hits = 0;
        for (int i = 0; i < 20000; i++) {
            double[] v = new double[14];
            for (int j = 0; j < 14; j++) {
                v[j] = random.nextInt(-8, 9) * 0.5;
            }
            v[3] = Math.abs(v[3]);
            v[10] = Math.abs(v[10]);
            boolean hit = SphereSphere.sweep(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
                    v[12], v[13], unit);
            boolean overlap = SphereSphere.test(v[0], v[1], v[2], v[3], v[7], v[8], v[9], v[10]);
            hits += hit ? 1 : 0;
            for (int exponent : new int[] {-1060, -600, -330, 330, 500, 1000}) {
                double k = Math.scalb(1.0, exponent);
                String what = java.util.Arrays.toString(v) + " scaled by 2^" + exponent;
                assertEquals(hit, SphereSphere.sweep(k * v[0], k * v[1], k * v[2], k * v[3], k * v[4], k * v[5],
                        k * v[6], k * v[7], k * v[8], k * v[9], k * v[10], k * v[11], k * v[12], k * v[13], r), what);
                if (hit) {
                    assertEquals(unit.first, r.first, what);
                    assertEquals(unit.last, r.last, what);
                }
                assertEquals(overlap, SphereSphere.test(k * v[0], k * v[1], k * v[2], k * v[3], k * v[7], k * v[8],
                        k * v[9], k * v[10]), what);
            }
        }
        assertTrue(hits > 1000 && hits < 19000, "hits " + hits);
        // the reported cases: a head-on pair at 1e100 and an oblique one whose discriminant was inf - inf
        assertTrue(SphereSphere.sweep(0, 0, 0, 1e100, 0, 0, 0, 3e100, 0, 0, 0, -4e100, 0, 0, r));
        assertEquals(0.5, r.first, 1e-15);
        assertEquals(1.0, r.last);
        boolean oblique = SphereSphere.sweep(0, 0, 0, 1e150, 0, 0, 0, 3e150, 1e150, 0, 0, -4e150, 0, 0, r);
        assertTrue(!oblique || !Double.isNaN(r.first) && !Double.isNaN(r.last), r.first + " " + r.last);
        assertFalse(SphereSphere.test(0, 0, 0, 1e160, 1e200, 0, 0, 1e160));
    }

    @Test
    void shouldScaleTimesExactlyWhenOnlyTheMotionIsScaled() {
        // offset and motion of very different sizes: times scale by the inverse power of two, and a pair that is apart
        // and moving apart stays a miss (the squares of the offset once underflowed at the motion's scale, which made
        // the pair touch at the start)
        SplittableRandom random = new SplittableRandom(0x5F5F_0003L);
        SweepResult unit = new SweepResult();
        int hits = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] v = new double[14];
            for (int j = 0; j < 14; j++) {
                v[j] = random.nextInt(-8, 9) * 0.5;
            }
            v[3] = Math.abs(v[3]);
            v[10] = Math.abs(v[10]);
            boolean hit = SphereSphere.sweep(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
                    v[12], v[13], unit);
            hits += hit && unit.first > 0 ? 1 : 0;
            for (int e : new int[] {200, 600, 1000}) {
                double k = Math.scalb(1.0, e);
                String what = java.util.Arrays.toString(v) + " motion scaled by 2^" + e;
                boolean scaled = SphereSphere.sweep(v[0], v[1], v[2], v[3], k * v[4], k * v[5], k * v[6], v[7], v[8],
                        v[9], v[10], k * v[11], k * v[12], k * v[13], r);
                if (hit) {
                    assertTrue(scaled, what);
                    assertEquals(Math.scalb(unit.first, -e), r.first, what);
                } else if (scaled) {
                    // a pair the unit motion does not bring together within the frame, but the larger one does
                    assertTrue(r.first > 0, what);
                }
            }
        }
        assertTrue(hits > 1000, "hits " + hits);
        assertFalse(SphereSphere.sweep(0, 0, 0, 0.1, 0, 0, 0, 1, 0, 0, 0.1, 1e170, 0, 0, r), "apart, moving apart");
        assertFalse(SphereSphere.sweep(0, 0, 0, 0.1, 0, 0, 0, 1, 0, 0, 0.1, 0, 1e200, 0, r), "apart, passing by");
        assertFalse(SphereSphere.sweep(0, 0, 0, 1e-171, 0, 0, 0, 1e-170, 0, 0, 1e-171, 1, 0, 0, r), "tiny, apart");
        assertTrue(SphereSphere.sweep(0, 0, 0, 0.1, 0, 0, 0, 1, 0, 0, 0.1, -1e170, 0, 0, r), "apart, closing in");
        assertEquals(0.8e-170, r.first, 1e-184);
    }

    @Test
    void shouldStartAtZeroWhenOverlappingAtTheStart() {
        assertTrue(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, r));
        assertEquals(0.0, r.first);
        assertEquals(1.0, r.last, "no relative motion");
        assertTrue(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 4, 0, 0, r));
        assertEquals(0.0, r.first);
        assertEquals(0.25, r.last, "separates at distance 2");
        assertTrue(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, -4, 0, 0, r));
        assertEquals(0.75, r.last, "passes through, separates on the other side");
        assertTrue(SphereSphere.sweep(0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 1, 4, 0, 0, r), "touching, moving apart");
        assertEquals(0.0, r.first);
        assertEquals(0.0, r.last);
    }

    /**
     * Random sweeps against the exact predicate: contact iff the minimum over [0, 1] of
     * {@code |s + u v|^2 - R^2} is {@code <= 0}, evaluated in BigDecimal at the exact minimizer.
     */
    @Test
    void shouldAgreeWithTheExactPredicate() {
        SplittableRandom random = new SplittableRandom(0x5F5F_0001L);
        int hits = 0;
        int skipped = 0;
        int cases = 0;
        for (double base : new double[] {0, 1e5, 1e6}) {
            for (int n = 0; n < 5000; n++, cases++) {
                double[] a = new double[3];
                double[] b = new double[3];
                double[] va = new double[3];
                double[] vb = new double[3];
                for (int i = 0; i < 3; i++) {
                    a[i] = base + random.nextDouble(-5, 5);
                    b[i] = base + random.nextDouble(-5, 5);
                    va[i] = random.nextDouble(-3, 3);
                    vb[i] = random.nextDouble(-3, 3) + (random.nextBoolean() ? a[i] - b[i] : 0);
                }
                double ra = random.nextDouble(0, 2);
                double rb = random.nextInt(5) == 0 ? 0 : random.nextDouble(0, 2);
                SphereSphere.sweep(a[0], a[1], a[2], ra, va[0], va[1], va[2], b[0], b[1], b[2], rb,
                        vb[0], vb[1], vb[2], r);
                BigDecimal[] s = new BigDecimal[3];
                BigDecimal[] v = new BigDecimal[3];
                for (int i = 0; i < 3; i++) {
                    s[i] = ExactReference.exact(b[i]).subtract(ExactReference.exact(a[i]));
                    v[i] = ExactReference.exact(vb[i]).subtract(ExactReference.exact(va[i]));
                }
                BigDecimal rr = ExactReference.exact(ra).add(ExactReference.exact(rb));
                BigDecimal vv = dot(v, v);
                BigDecimal vs = dot(v, s);
                BigDecimal ss = dot(s, s);
                // minimum of f(u) = vv u^2 + 2 vs u + ss over [0, 1], minus R^2, scaled to squared length units
                BigDecimal gap;
                if (vs.signum() >= 0 || vv.signum() == 0) {
                    gap = ss.subtract(rr.multiply(rr));
                } else if (vs.negate().compareTo(vv) >= 0) {
                    gap = vv.add(vs.add(vs)).add(ss).subtract(rr.multiply(rr));
                } else {
                    gap = ss.subtract(vs.multiply(vs).divide(vv, ExactReference.CONTEXT)).subtract(rr.multiply(rr));
                }
                double scale = ss.doubleValue() + vv.doubleValue() + rr.doubleValue() * rr.doubleValue() + 1e-300;
                double margin = -gap.doubleValue() / scale;
                if (Math.abs(margin) < 1e-12) {
                    skipped++;
                    continue;
                }
                assertEquals(margin > 0, r.hit, "case " + n + " base " + base + " margin " + margin);
                if (r.hit) {
                    hits++;
                    assertTrue(0 <= r.first && r.first <= r.last && r.last <= 1, r.toString());
                    // at the first time the spheres touch (or overlap at u = 0)
                    double distanceAtFirst = distance(s, v, r.first);
                    double rSum = rr.doubleValue();
                    if (r.first > 0) {
                        assertEquals(rSum, distanceAtFirst, 1e-6 * (1 + rSum), "touch at first, case " + n);
                    } else {
                        assertTrue(distanceAtFirst <= rSum * (1 + 1e-9), "overlap at the start, case " + n);
                    }
                }
            }
        }
        assertTrue(hits > cases / 10, "hits " + hits);
        assertTrue(skipped < cases / 100, "skipped " + skipped);
    }

    @Test
    void shouldBeSymmetricInTheTwoSpheres() {
        SplittableRandom random = new SplittableRandom(0x5F5F_0002L);
        SweepResult other = new SweepResult();
        for (int n = 0; n < 20_000; n++) {
            double[] p = new double[16];
            for (int i = 0; i < p.length; i++) {
                p[i] = random.nextDouble(-3, 3);
            }
            double ra = Math.abs(p[3]);
            double rb = Math.abs(p[10]);
            assertEquals(SphereSphere.test(p[0], p[1], p[2], ra, p[7], p[8], p[9], rb),
                    SphereSphere.test(p[7], p[8], p[9], rb, p[0], p[1], p[2], ra));
            SphereSphere.sweep(p[0], p[1], p[2], ra, p[4], p[5], p[6], p[7], p[8], p[9], rb, p[11], p[12], p[13], r);
            SphereSphere.sweep(p[7], p[8], p[9], rb, p[11], p[12], p[13], p[0], p[1], p[2], ra, p[4], p[5], p[6],
                    other);
            // swapping negates s and v: the same quadratic up to rounding of the negations (exact)
            assertEquals(r.toString(), other.toString(), "case " + n);
        }
    }

    private static BigDecimal dot(BigDecimal[] p, BigDecimal[] q) {
        return p[0].multiply(q[0]).add(p[1].multiply(q[1])).add(p[2].multiply(q[2]));
    }

    private static double distance(BigDecimal[] s, BigDecimal[] v, double u) {
        double sum = 0;
        for (int i = 0; i < 3; i++) {
            double c = s[i].add(v[i].multiply(ExactReference.exact(u))).doubleValue();
            sum += c * c;
        }
        return Math.sqrt(sum);
    }

    @Test
    void shouldSweepASphereThroughAPlaneFromEitherSide() {
        // plane z = 2, sphere radius 1 from z = 5 down to z = -3 (translation -8)
        assertTrue(SpherePlane.sweep(0, 0, 5, 1, 0, 0, -8, 0, 0, 1, 2, r));
        assertEquals(0.25, r.first);
        assertEquals(0.5, r.last);
        // from the inside side upwards
        assertTrue(SpherePlane.sweep(0, 0, -3, 1, 0, 0, 8, 0, 0, 1, 2, r));
        assertEquals(0.5, r.first);
        assertEquals(0.75, r.last);
        // stops short, moves away
        assertFalse(SpherePlane.sweep(0, 0, 5, 1, 0, 0, -1.5, 0, 0, 1, 2, r));
        assertFalse(SpherePlane.sweep(0, 0, 5, 1, 0, 0, 1, 0, 0, 1, 2, r));
        // far from the origin
        assertTrue(SpherePlane.sweep(1e6, 1e6, 1e6 + 5, 1, 0, 0, -8, 0, 0, 1, 1e6 + 2, r));
        assertEquals(0.25, r.first);
        assertEquals(0.5, r.last);
    }

    @Test
    void shouldSweepASphereTouchingOrParallelToAPlane() {
        assertTrue(SpherePlane.sweep(0, 0, 3, 1, 0, 0, 4, 0, 0, 1, 2, r), "touching at the start, moving away");
        assertEquals(0.0, r.first);
        assertEquals(0.0, r.last);
        assertTrue(SpherePlane.sweep(0, 0, 2.5, 1, 0, 0, 1, 0, 0, 1, 2, r), "crossing at the start");
        assertEquals(0.0, r.first);
        assertEquals(0.5, r.last);
        assertTrue(SpherePlane.sweep(0, 0, 3, 1, 5, 5, 0, 0, 0, 1, 2, r), "parallel, touching");
        assertEquals(0.0, r.first);
        assertEquals(1.0, r.last);
        assertFalse(SpherePlane.sweep(0, 0, Math.nextUp(3.0), 1, 5, 5, 0, 0, 0, 1, 2, r), "parallel, apart");
        assertTrue(SpherePlane.sweep(0, 0, 5, 0, 0, 0, -3, 0, 0, 1, 2, r), "radius 0 reaching the plane");
        assertEquals(1.0, r.first);
        assertTrue(SpherePlane.test(0, 0, 3, 1, 0, 0, 1, 2));
        assertFalse(SpherePlane.test(0, 0, 3, Math.nextDown(1.0), 0, 0, 1, 2));
    }

    @Test
    void shouldKeepTheIntervalOrderedAtAGrazingPass() {
        // a pass that just misses in exact arithmetic (discriminant -4.4e-16 of a R^2): the two roots are one time,
        // reached through differently rounded terms; the later came out 20 ulps before the first
        SweepResult sweep = new SweepResult();
        assertTrue(SphereSphere.sweep(0.8874606685692554, 0.0933060371945843, 0.7355158390769413,
                1.0702860161728505, 0, 0, 0,
                0.4950336783307119, -0.5374864229051256, 1.5141219383303022, 0.0,
                -1.4897629455981627, 0.567260526895569, -0.5337777662734413, sweep));
        assertTrue(sweep.first <= sweep.last, sweep.toString());
        // paths passing within 1e-15 of contact, halfway through the frame: every hit an ordered interval
        SplittableRandom random = new SplittableRandom(29);
        int hits = 0;
        for (int i = 0; i < 20_000; i++) {
            double vx = random.nextDouble(-2, 2);
            double vy = random.nextDouble(-2, 2);
            double vz = random.nextDouble(-2, 2);
            // a direction across the motion: v x e, for a random e
            double ex = random.nextDouble(-1, 1);
            double ey = random.nextDouble(-1, 1);
            double ez = random.nextDouble(-1, 1);
            double wx = vy * ez - vz * ey;
            double wy = vz * ex - vx * ez;
            double wz = vx * ey - vy * ex;
            double w = Math.sqrt(wx * wx + wy * wy + wz * wz);
            double ra = random.nextDouble(0.1, 1);
            double rb = random.nextDouble(0, 1);
            double miss = (ra + rb) * (1 + random.nextDouble(-1e-15, 1e-15)) / w;
            double t = random.nextDouble(0.2, 0.8);
            double bx = wx * miss - t * vx;
            double by = wy * miss - t * vy;
            double bz = wz * miss - t * vz;
            if (SphereSphere.sweep(0, 0, 0, ra, 0, 0, 0, bx, by, bz, rb, vx, vy, vz, sweep)) {
                hits++;
                assertTrue(sweep.first <= sweep.last && sweep.first >= 0 && sweep.last <= 1,
                        "case " + i + ": " + sweep);
            }
        }
        assertTrue(hits > 1_000, "grazing hits: " + hits);
    }
}
