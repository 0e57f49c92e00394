package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AabbAabbTest {

    private static boolean overlap(double[] a, double[] b) {
        boolean ab = AabbAabb.test(a[0], a[1], a[2], a[3], a[4], a[5], b[0], b[1], b[2], b[3], b[4], b[5]);
        boolean ba = AabbAabb.test(b[0], b[1], b[2], b[3], b[4], b[5], a[0], a[1], a[2], a[3], a[4], a[5]);
        assertEquals(ab, ba, "symmetry");
        return ab;
    }

    @Test
    void shouldOverlapWhenSharingAFaceEdgeOrCorner() {
        double[] unit = {0, 0, 0, 1, 1, 1};
        assertTrue(overlap(unit, new double[] {1, 0, 0, 2, 1, 1}));
        assertTrue(overlap(unit, new double[] {1, 1, 0, 2, 2, 1}));
        assertTrue(overlap(unit, new double[] {1, 1, 1, 2, 2, 2}));
        assertFalse(overlap(unit, new double[] {Math.nextUp(1.0), 0, 0, 2, 1, 1}));
        assertTrue(overlap(unit, new double[] {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}), "point inside");
        assertTrue(overlap(unit, new double[] {-1, -1, 1, 2, 2, 1}), "flat box on the top face");
        assertTrue(overlap(unit, new double[] {0.2, 0.2, 0.2, 0.3, 0.3, 0.3}), "contained");
    }

    @Test
    void shouldAgreeBetweenMinMaxAndCentreExtentForms() {
        SplittableRandom random = new SplittableRandom(0xAABB_0001L);
        for (double base : new double[] {0, 1e5, 1e6, 1e7}) {
            for (int n = 0; n < 10_000; n++) {
                // on a 2^-10 grid so both forms describe the same boxes exactly; many touching pairs
                double[] a = gridBox(random, base);
                double[] b = gridBox(random, base);
                boolean expected = overlap(a, b);
                boolean centred = AabbAabb.testCentreExtent(
                        (a[0] + a[3]) / 2, (a[1] + a[4]) / 2, (a[2] + a[5]) / 2,
                        (a[3] - a[0]) / 2, (a[4] - a[1]) / 2, (a[5] - a[2]) / 2,
                        (b[0] + b[3]) / 2, (b[1] + b[4]) / 2, (b[2] + b[5]) / 2,
                        (b[3] - b[0]) / 2, (b[4] - b[1]) / 2, (b[5] - b[2]) / 2);
                assertEquals(expected, centred, "base " + base + " case " + n);
            }
        }
    }

    private static double[] gridBox(SplittableRandom random, double base) {
        double grid = 0x1p-10;
        double[] box = new double[6];
        for (int i = 0; i < 3; i++) {
            box[i] = base + random.nextInt(-64, 64) * grid;
            box[i + 3] = box[i] + random.nextInt(0, 64) * grid;
        }
        return box;
    }

    private static SweepResult sweep(double[] a, double[] va, double[] b, double[] vb) {
        SweepResult r = new SweepResult();
        boolean hit = AabbAabb.sweep(a[0], a[1], a[2], a[3], a[4], a[5], va[0], va[1], va[2],
                b[0], b[1], b[2], b[3], b[4], b[5], vb[0], vb[1], vb[2], r);
        assertEquals(hit, r.hit);
        SweepResult s = new SweepResult();
        AabbAabb.sweep(b[0], b[1], b[2], b[3], b[4], b[5], vb[0], vb[1], vb[2],
                a[0], a[1], a[2], a[3], a[4], a[5], va[0], va[1], va[2], s);
        assertEquals(r.toString(), s.toString(), "symmetry");
        return r;
    }

    @Test
    void shouldSweepBoxesTowardsEachOther() {
        double[] zero = {0, 0, 0};
        SweepResult r = sweep(new double[] {0, 0, 0, 1, 1, 1}, new double[] {2, 0, 0},
                new double[] {4, 0, 0, 5, 1, 1}, new double[] {-2, 0, 0});
        assertTrue(r.hit);
        assertEquals(0.75, r.first);
        assertEquals(1.0, r.last);
        r = sweep(new double[] {0, 0, 0, 1, 1, 1}, zero, new double[] {3, 0.5, 0, 4, 1.5, 1}, new double[] {-8, 0, 0});
        assertEquals(0.25, r.first);
        assertEquals(0.5, r.last, "passes through and leaves");
        r = sweep(new double[] {0, 0, 0, 1, 1, 1}, zero, new double[] {3, 2, 0, 4, 3, 1}, new double[] {-8, 0, 0});
        assertFalse(r.hit, "passes beside");
        assertEquals(Geom.NO_HIT, r.first);
        r = sweep(new double[] {0, 0, 0, 1, 1, 1}, zero, new double[] {3, 1, 0, 4, 2, 1}, new double[] {-8, 0, 0});
        assertTrue(r.hit, "slides along the top face: touching counts");
        assertEquals(0.25, r.first);
    }

    @Test
    void shouldStartAtZeroAndReportTheTrueLastTimeWhenOverlappingAtTheStart() {
        double[] zero = {0, 0, 0};
        SweepResult r = sweep(new double[] {0, 0, 0, 1, 1, 1}, zero, new double[] {0.5, 0, 0, 1.5, 1, 1},
                new double[] {3, 0, 0});
        assertEquals(0.0, r.first);
        assertEquals(0.5 / 3, r.last, 1e-16);
        r = sweep(new double[] {0, 0, 0, 1, 1, 1}, zero, new double[] {0.5, 0, 0, 1.5, 1, 1}, zero);
        assertEquals(0.0, r.first);
        assertEquals(1.0, r.last, "no relative motion");
        r = sweep(new double[] {0, 0, 0, 1, 1, 1}, new double[] {1, 1, 1}, new double[] {2, 0, 0, 3, 1, 1},
                new double[] {1, 1, 1});
        assertFalse(r.hit, "same motion, apart");
        r = sweep(new double[] {0, 0, 0, 1, 1, 1}, zero, new double[] {1, 0, 0, 2, 1, 1}, new double[] {1, 0, 0});
        assertEquals(0.0, r.first, "touching at the start and moving apart");
        assertEquals(0.0, r.last);
    }

    /**
     * Random sweeps against exact interval arithmetic (per-axis times as exact rationals), plus brute-force
     * sampling of the overlap at times inside and outside the reported interval.
     */
    @Test
    void shouldAgreeWithExactIntervalsAndSampling() {
        SplittableRandom random = new SplittableRandom(0xAABB_0002L);
        SweepResult r = new SweepResult();
        int hits = 0;
        int skipped = 0;
        int cases = 0;
        for (double base : new double[] {0, 1e5, 1e6}) {
            for (int n = 0; n < 1500; n++, cases++) {
                double[] a = new double[6];
                double[] b = new double[6];
                double[] va = new double[3];
                double[] vb = new double[3];
                for (int i = 0; i < 3; i++) {
                    a[i] = base + random.nextDouble(-3, 3);
                    a[i + 3] = a[i] + (random.nextInt(6) == 0 ? 0 : random.nextDouble(0, 2));
                    b[i] = base + random.nextDouble(-3, 3);
                    b[i + 3] = b[i] + (random.nextInt(6) == 0 ? 0 : random.nextDouble(0, 2));
                    va[i] = random.nextInt(5) == 0 ? 0 : random.nextDouble(-4, 4);
                    vb[i] = random.nextInt(5) == 0 ? va[i] : random.nextDouble(-4, 4);
                }
                boolean aimed = random.nextBoolean();
                if (aimed) {
                    // aim b at a, so that about half the sweeps meet
                    double scale = random.nextDouble(0, 2);
                    for (int i = 0; i < 3; i++) {
                        vb[i] = va[i] + (a[i] - b[i]) * scale;
                    }
                }
                AabbAabb.sweep(a[0], a[1], a[2], a[3], a[4], a[5], va[0], va[1], va[2],
                        b[0], b[1], b[2], b[3], b[4], b[5], vb[0], vb[1], vb[2], r);
                // exact: b moves by v relative to a; overlap on axis i while lo_i <= v_i u <= hi_i
                BigDecimal[] exactV = new BigDecimal[3];
                for (int i = 0; i < 3; i++) {
                    exactV[i] = ExactReference.exact(vb[i]).subtract(ExactReference.exact(va[i]));
                }
                ExactReference.SegmentBox exact = exactSweep(a, b, exactV);
                if (exact.hit()) {
                    hits++;
                    assertTrue(r.hit, "false miss, case " + n + " base " + base);
                    assertEquals(exact.fraction, r.first, 1e-14, "first, case " + n);
                } else if (exact.margin < -1e-13) {
                    assertFalse(r.hit, "false hit, case " + n + " base " + base + " " + r);
                } else {
                    // aimed sweeps of flat boxes often graze exactly: within rounding by construction
                    skipped += aimed ? 0 : 1;
                }
                if (r.hit) {
                    assertTrue(0 <= r.first && r.first <= r.last && r.last <= 1, r.toString());
                    // sampled times inside the interval overlap (up to rounding); outside it they do not
                    for (int k = 0; k <= 8; k++) {
                        double u = k / 8.0;
                        double m = overlapMargin(a, va, b, vb, u);
                        if (u > r.first + 1e-9 && u < r.last - 1e-9) {
                            assertTrue(m >= -1e-9, "sampled gap inside the interval, case " + n);
                        } else if (u < r.first - 1e-9 || u > r.last + 1e-9) {
                            assertTrue(m <= 1e-9, "sampled overlap outside the interval, case " + n);
                        }
                    }
                }
            }
        }
        assertTrue(hits > cases / 5, "hits " + hits);
        assertTrue(skipped < cases / 100, "skipped " + skipped);
    }

    /**
     * The sweep as the exact cast of the point 0 along {@code v} through the exact Minkowski box
     * {@code [aMin - bMax, aMax - bMin]} over {@code u} in [0, 1].
     */
    private static ExactReference.SegmentBox exactSweep(double[] a, double[] b, BigDecimal[] v) {
        BigDecimal[] lo = new BigDecimal[3];
        BigDecimal[] hi = new BigDecimal[3];
        for (int i = 0; i < 3; i++) {
            lo[i] = ExactReference.exact(a[i]).subtract(ExactReference.exact(b[i + 3]));
            hi[i] = ExactReference.exact(a[i + 3]).subtract(ExactReference.exact(b[i]));
        }
        BigDecimal[] origin = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
        return ExactReference.segmentBox(origin, v, BigDecimal.ONE, lo, hi);
    }

    /** Smallest per-axis overlap of the boxes at time u (negative: the gap). */
    private static double overlapMargin(double[] a, double[] va, double[] b, double[] vb, double u) {
        double m = Double.POSITIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            double shift = u * (vb[i] - va[i]);
            m = Math.min(m, Math.min((a[i + 3] - b[i]) - shift, shift - (a[i] - b[i + 3])));
        }
        return m;
    }
}
