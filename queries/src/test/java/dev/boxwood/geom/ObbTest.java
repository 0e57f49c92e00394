package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ObbTest {

    /** A box in ObbLayout with a random rotation (from a random unit quaternion). */
    static double[] randomObb(SplittableRandom random, double base, double spread, double size) {
        double[] q = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
        double[] obb = new double[ObbLayout.STRIDE];
        for (int i = 0; i < 3; i++) {
            obb[i] = base + random.nextDouble(-spread, spread);
            obb[ObbLayout.HALF_EXTENTS + i] = random.nextInt(8) == 0 ? 0 : random.nextDouble(0, size);
        }
        setRotation(obb, q);
        return obb;
    }

    /** Axes = rows of the rotation matrix of quaternion (w, x, y, z), normalized first. */
    static void setRotation(double[] obb, double[] q) {
        double n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        double w = q[0] / n;
        double x = q[1] / n;
        double y = q[2] / n;
        double z = q[3] / n;
        double[] m = {
            1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
        };
        System.arraycopy(m, 0, obb, ObbLayout.AXES, 9);
    }

    private static BigDecimal[] axis(double[] obb, int i) {
        int at = ObbLayout.AXES + 3 * i;
        return new BigDecimal[] {ExactReference.exact(obb[at]), ExactReference.exact(obb[at + 1]),
            ExactReference.exact(obb[at + 2])};
    }

    private static BigDecimal dot(BigDecimal[] p, BigDecimal[] q) {
        return p[0].multiply(q[0]).add(p[1].multiply(q[1])).add(p[2].multiply(q[2]));
    }

    private static BigDecimal[] cross(BigDecimal[] p, BigDecimal[] q) {
        return new BigDecimal[] {p[1].multiply(q[2]).subtract(p[2].multiply(q[1])),
            p[2].multiply(q[0]).subtract(p[0].multiply(q[2])), p[0].multiply(q[1]).subtract(p[1].multiply(q[0]))};
    }

    /**
     * Exact separating-axis reference over the 15 candidate axes, in BigDecimal: the largest separation
     * {@code (|T·L| - rA - rB) / |L|} (positive: separated by that distance). Near-degenerate cross products are
     * left out (they carry no direction). Also reports which kind of axis separates most.
     */
    static double[] exactSeparation(double[] a, double[] b) {
        BigDecimal[][] axesA = {axis(a, 0), axis(a, 1), axis(a, 2)};
        BigDecimal[][] axesB = {axis(b, 0), axis(b, 1), axis(b, 2)};
        BigDecimal[] t = new BigDecimal[3];
        for (int i = 0; i < 3; i++) {
            t[i] = ExactReference.exact(b[i]).subtract(ExactReference.exact(a[i]));
        }
        BigDecimal[][] candidates = new BigDecimal[15][];
        for (int i = 0; i < 3; i++) {
            candidates[i] = axesA[i];
            candidates[3 + i] = axesB[i];
            for (int j = 0; j < 3; j++) {
                candidates[6 + 3 * i + j] = cross(axesA[i], axesB[j]);
            }
        }
        double best = Double.NEGATIVE_INFINITY;
        double kind = 0;
        for (int k = 0; k < 15; k++) {
            BigDecimal[] l = candidates[k];
            double length = Math.sqrt(dot(l, l).doubleValue());
            if (length < 1e-6) {
                continue;
            }
            BigDecimal sep = dot(t, l).abs();
            for (int i = 0; i < 3; i++) {
                sep = sep.subtract(ExactReference.exact(a[ObbLayout.HALF_EXTENTS + i]).multiply(dot(axesA[i], l).abs()));
                sep = sep.subtract(ExactReference.exact(b[ObbLayout.HALF_EXTENTS + i]).multiply(dot(axesB[i], l).abs()));
            }
            double s = sep.doubleValue() / length;
            if (s > best) {
                best = s;
                kind = k < 6 ? 0 : 1;
            }
        }
        return new double[] {best, kind};
    }

    @Test
    void shouldAgreeWithTheExactSeparatingAxisReference() {
        SplittableRandom random = new SplittableRandom(0x0BB0_0001L);
        int overlaps = 0;
        int separated = 0;
        int separatedByAnEdgeAxisOnly = 0;
        int skipped = 0;
        int cases = 0;
        for (double base : new double[] {0, 1e5, 1e6}) {
            for (int n = 0; n < 1200; n++, cases++) {
                double[] a = randomObb(random, base, 2, 2);
                double[] b = randomObb(random, base, 2, 2);
                if (n % 4 == 0) {
                    // nearly or exactly parallel edges: b shares a's rotation, maybe slightly perturbed
                    System.arraycopy(a, ObbLayout.AXES, b, ObbLayout.AXES, 9);
                    if (n % 8 == 0) {
                        double e = 1e-12;
                        setRotation(b, new double[] {1, random.nextDouble(-e, e), random.nextDouble(-e, e), 0});
                        System.arraycopy(a, ObbLayout.AXES, b, ObbLayout.AXES, 9);
                        b[ObbLayout.AXES] += random.nextDouble(-e, e);
                    }
                }
                boolean ab = ObbObb.test(a, 0, b, 0);
                boolean ba = ObbObb.test(b, 0, a, 0);
                double[] exact = exactSeparation(a, b);
                double scale = 0;
                for (int i = 0; i < 3; i++) {
                    scale += a[ObbLayout.HALF_EXTENTS + i] + b[ObbLayout.HALF_EXTENTS + i];
                }
                if (exact[0] <= 0) {
                    overlaps++;
                    assertTrue(ab && ba, "false separation, case " + n + " base " + base + " by " + exact[0]);
                } else if (exact[0] > 1e-8 * (1 + scale)) {
                    separated++;
                    separatedByAnEdgeAxisOnly += exact[1] == 1 && faceSeparation(a, b) <= 0 ? 1 : 0;
                    assertFalse(ab || ba, "false overlap, case " + n + " base " + base + " by " + exact[0]);
                } else {
                    skipped++;
                }
            }
        }
        assertTrue(overlaps > cases / 5 && separated > cases / 5, overlaps + " / " + separated);
        assertTrue(separatedByAnEdgeAxisOnly > 5, "edge-edge separations " + separatedByAnEdgeAxisOnly);
        assertTrue(skipped < cases / 100, "skipped " + skipped);
    }

    /** Largest separation over all 15 axes in double arithmetic: good to about 1e-12 here. */
    private static double approximateSeparation(double[] a, double[] b) {
        double best = faceSeparation(a, b);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                int ai = ObbLayout.AXES + 3 * i;
                int bj = ObbLayout.AXES + 3 * j;
                double[] l = {a[ai + 1] * b[bj + 2] - a[ai + 2] * b[bj + 1], a[ai + 2] * b[bj] - a[ai] * b[bj + 2],
                    a[ai] * b[bj + 1] - a[ai + 1] * b[bj]};
                double length = Math.sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
                if (length < 1e-6) {
                    continue;
                }
                double t = Math.abs((b[0] - a[0]) * l[0] + (b[1] - a[1]) * l[1] + (b[2] - a[2]) * l[2]);
                for (int k = 0; k < 3; k++) {
                    int ak = ObbLayout.AXES + 3 * k;
                    t -= a[ObbLayout.HALF_EXTENTS + k] * Math.abs(a[ak] * l[0] + a[ak + 1] * l[1] + a[ak + 2] * l[2]);
                    t -= b[ObbLayout.HALF_EXTENTS + k] * Math.abs(b[ak] * l[0] + b[ak + 1] * l[1] + b[ak + 2] * l[2]);
                }
                best = Math.max(best, t / length);
            }
        }
        return best;
    }

    /** Largest separation over the six face axes only. */
    private static double faceSeparation(double[] a, double[] b) {
        double best = Double.NEGATIVE_INFINITY;
        for (double[][] pair : new double[][][] {{a, b}, {b, a}}) {
            double[] p = pair[0];
            double[] q = pair[1];
            for (int i = 0; i < 3; i++) {
                int at = ObbLayout.AXES + 3 * i;
                double[] l = {p[at], p[at + 1], p[at + 2]};
                double t = Math.abs((q[0] - p[0]) * l[0] + (q[1] - p[1]) * l[1] + (q[2] - p[2]) * l[2]);
                double r = p[ObbLayout.HALF_EXTENTS + i];
                for (int j = 0; j < 3; j++) {
                    int bt = ObbLayout.AXES + 3 * j;
                    r += q[ObbLayout.HALF_EXTENTS + j] * Math.abs(q[bt] * l[0] + q[bt + 1] * l[1] + q[bt + 2] * l[2]);
                }
                best = Math.max(best, t - r);
            }
        }
        return best;
    }

    @Test
    void shouldAgreeWithTheAabbTestsForIdentityAxes() {
        SplittableRandom random = new SplittableRandom(0x0BB0_0002L);
        double[] obb = new double[ObbLayout.STRIDE];
        double[] asObb = new double[ObbLayout.STRIDE];
        for (double base : new double[] {0, 1e6}) {
            for (int n = 0; n < 20_000; n++) {
                double[] a = new double[6];
                double[] b = new double[6];
                for (int i = 0; i < 3; i++) {
                    a[i] = base + random.nextDouble(-2, 2);
                    a[i + 3] = a[i] + random.nextDouble(0, 2);
                    b[i] = base + random.nextDouble(-2, 2);
                    b[i + 3] = b[i] + random.nextDouble(0, 2);
                }
                new Obb(0.5 * (a[0] + a[3]), 0.5 * (a[1] + a[4]), 0.5 * (a[2] + a[5]), 1, 0, 0, 0, 1, 0, 0, 0, 1,
                        0.5 * (a[3] - a[0]), 0.5 * (a[4] - a[1]), 0.5 * (a[5] - a[2])).writeTo(obb, 0);
                Obb.of(new Aabb(b[0], b[1], b[2], b[3], b[4], b[5])).writeTo(asObb, 0);
                double gap = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < 3; i++) {
                    gap = Math.max(gap, Math.max(a[i] - b[i + 3], b[i] - a[i + 3]));
                }
                if (Math.abs(gap) < 1e-8) {
                    continue;
                }
                boolean expected = AabbAabb.test(a[0], a[1], a[2], a[3], a[4], a[5], b[0], b[1], b[2], b[3], b[4], b[5]);
                assertEquals(expected, ObbAabb.test(obb, 0, b[0], b[1], b[2], b[3], b[4], b[5]), "case " + n);
                assertEquals(expected, ObbObb.test(obb, 0, asObb, 0), "case " + n);
            }
        }
    }

    @Test
    void shouldAgreeBetweenObbAabbAndObbObb() {
        SplittableRandom random = new SplittableRandom(0x0BB0_0003L);
        double[] asObb = new double[ObbLayout.STRIDE];
        for (int n = 0; n < 5000; n++) {
            double[] a = randomObb(random, 0, 2, 2);
            double[] b = new double[6];
            for (int i = 0; i < 3; i++) {
                b[i] = random.nextDouble(-3, 3);
                b[i + 3] = b[i] + random.nextDouble(0, 3);
            }
            Obb.of(new Aabb(b[0], b[1], b[2], b[3], b[4], b[5])).writeTo(asObb, 0);
            if (Math.abs(approximateSeparation(a, asObb)) < 1e-6) {
                continue;
            }
            assertEquals(ObbObb.test(a, 0, asObb, 0), ObbAabb.test(a, 0, b[0], b[1], b[2], b[3], b[4], b[5]));
        }
    }

    @Test
    void shouldDetectTouchingAndSeparatedBoxes() {
        double[] a = new double[ObbLayout.STRIDE];
        double[] b = new double[ObbLayout.STRIDE];
        new Obb(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1).writeTo(a, 0);
        double s = Math.sqrt(0.5);
        // b rotated 45 degrees about z: its edge reaches sqrt(2) along x from its centre
        new Obb(1 + Math.sqrt(2) - 1e-6, 0, 0, s, s, 0, -s, s, 0, 0, 0, 1, 1, 1, 1).writeTo(b, 0);
        assertTrue(ObbObb.test(a, 0, b, 0));
        new Obb(1 + Math.sqrt(2) + 1e-6, 0, 0, s, s, 0, -s, s, 0, 0, 0, 1, 1, 1, 1).writeTo(b, 0);
        assertFalse(ObbObb.test(a, 0, b, 0));
        new Obb(2, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1).writeTo(b, 0);
        assertTrue(ObbObb.test(a, 0, b, 0), "sharing a face, parallel edges");
        new Obb(2, 2, 2, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1).writeTo(b, 0);
        assertTrue(ObbObb.test(a, 0, b, 0), "sharing a corner, permuted axes");
        new Obb(2 + 1e-6, 2, 2, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1).writeTo(b, 0);
        assertFalse(ObbObb.test(a, 0, b, 0));
        assertTrue(ObbAabb.test(a, 0, 1, 1, 1, 3, 3, 3), "corner contact with an AABB");
        assertFalse(ObbAabb.test(a, 0, 1 + 1e-6, 1, 1, 3, 3, 3));
    }

    @Test
    void shouldNeverSeparateASmallObbTouchingALargeBoxOrAPointOnAFace() {
        // a point box on a face, rotated: its offset, rotated into its frame and back, rounded past the face
        double s = Math.sqrt(0.5);
        double[] point = new double[ObbLayout.STRIDE];
        new Obb(1.0, 0.4, 0.5, s, s, 0, -s, s, 0, 0, 0, 1, 0, 0, 0).writeTo(point, 0);
        assertTrue(ObbAabb.test(point, 0, 1, 0, 0, 2, 1, 1), "point on the face x = 1");
        double[] face = new double[ObbLayout.STRIDE];
        Obb.of(new Aabb(1, 0, 0, 2, 1, 1)).writeTo(face, 0);
        assertTrue(ObbObb.test(point, 0, face, 0) && ObbObb.test(face, 0, point, 0));
        // a small rotated box whose lowest x corner touches (or just enters) the face x = max of a box far larger
        // than it: the offset between the centres is rounded by ulps of the large box, not of the small one
        SplittableRandom random = new SplittableRandom(0x0BB0_0002L);
        double[] large = new double[ObbLayout.STRIDE];
        for (double size : new double[] {1e-3, 1}) {
            for (double half : new double[] {1e4, 1e6, 1e9}) {
                for (int n = 0; n < 2000; n++) {
                    double[] small = randomObb(random, 5, 5, size);
                    BigDecimal lowest = ExactReference.exact(small[0]);
                    for (int i = 0; i < 3; i++) {
                        lowest = lowest.subtract(ExactReference.exact(small[ObbLayout.HALF_EXTENTS + i])
                                .multiply(ExactReference.exact(Math.abs(small[ObbLayout.AXES + 3 * i]))));
                    }
                    double maxX = lowest.doubleValue();
                    if (ExactReference.exact(maxX).compareTo(lowest) < 0) {
                        maxX = Math.nextUp(maxX);
                    }
                    double[] box = {maxX - 2 * half, small[1] - half, small[2] - half, maxX, small[1] + half,
                        small[2] + half};
                    String where = "size " + size + ", box half extent " + half + ", case " + n;
                    assertTrue(ObbAabb.test(small, 0, box[0], box[1], box[2], box[3], box[4], box[5]), where);
                    Obb.of(new Aabb(box[0], box[1], box[2], box[3], box[4], box[5])).writeTo(large, 0);
                    // Obb.of rounds the large box's centre and extents: it still reaches maxX up to its ulps
                    if (large[0] + large[ObbLayout.HALF_EXTENTS] >= maxX) {
                        assertTrue(ObbObb.test(small, 0, large, 0) && ObbObb.test(large, 0, small, 0), where);
                    }
                }
            }
        }
    }

    /** The oriented box's exact half extent along world axis {@code k}: {@code sum_i h_i |axis_i[k]|}. */
    private static BigDecimal exactExtent(double[] obb, int k) {
        BigDecimal extent = BigDecimal.ZERO;
        for (int i = 0; i < 3; i++) {
            extent = extent.add(ExactReference.exact(obb[ObbLayout.HALF_EXTENTS + i])
                    .multiply(ExactReference.exact(Math.abs(obb[ObbLayout.AXES + 3 * i + k]))));
        }
        return extent;
    }

    @Test
    void shouldEncloseAnObbWhoseHalfExtentsAreSubnormal() {
        // each product h_i |axis_i[k]| can lose half a subnormal step, beyond any relative bound: the z extent of
        // this box is 4.21 steps, and enclose gave 4
        SplittableRandom random = new SplittableRandom(0x0BB0_0005L);
        double[] bounds = new double[6];
        for (int n = 0; n < 20_000; n++) {
            double[] obb = randomObb(random, 0, 5, 3);
            for (int k = 0; k < 3; k++) {
                obb[k] = 0;
                obb[ObbLayout.HALF_EXTENTS + k] = random.nextInt(9) * Double.MIN_VALUE * (n % 2 == 0 ? 1 : 1 << 20);
            }
            ObbAabb.enclose(obb, 0, bounds, 0);
            for (int k = 0; k < 3; k++) {
                BigDecimal extent = exactExtent(obb, k);
                assertTrue(ExactReference.exact(bounds[k]).compareTo(extent.negate()) <= 0, "min, case " + n);
                assertTrue(ExactReference.exact(bounds[k + 3]).compareTo(extent) >= 0, "max, case " + n);
            }
        }
    }

    @Test
    void shouldEncloseTheObbTightlyAndConservatively() {
        SplittableRandom random = new SplittableRandom(0x0BB0_0004L);
        double[] bounds = new double[6];
        for (double base : new double[] {0, 1e5, 1e7}) {
            for (int n = 0; n < 500; n++) {
                double[] obb = randomObb(random, base, 5, 3);
                ObbAabb.enclose(obb, 0, bounds, 0);
                for (int k = 0; k < 3; k++) {
                    BigDecimal extent = exactExtent(obb, k);
                    BigDecimal c = ExactReference.exact(obb[k]);
                    BigDecimal min = c.subtract(extent);
                    BigDecimal max = c.add(extent);
                    assertTrue(ExactReference.exact(bounds[k]).compareTo(min) <= 0, "min contains, case " + n);
                    assertTrue(ExactReference.exact(bounds[k + 3]).compareTo(max) >= 0, "max contains, case " + n);
                    double slack = 8 * Math.ulp(Math.abs(base) + 20);
                    assertTrue(min.subtract(ExactReference.exact(bounds[k])).doubleValue() < slack, "tight min");
                    assertTrue(ExactReference.exact(bounds[k + 3]).subtract(max).doubleValue() < slack, "tight max");
                }
            }
        }
    }

    @Test
    void shouldTestSegmentsAgainstRotatedBoxesLikeTheSlabTestInTheBoxFrame() {
        SplittableRandom random = new SplittableRandom(0x0BB0_0005L);
        int hits = 0;
        int cases = 0;
        for (double base : new double[] {0, 1e5, 1e6}) {
            for (int n = 0; n < 1500; n++, cases++) {
                double[] obb = randomObb(random, base, 2, 2);
                double[] o = new double[3];
                double[] d = new double[3];
                boolean aimed = random.nextBoolean();
                for (int i = 0; i < 3; i++) {
                    o[i] = base + random.nextDouble(-4, 4);
                    d[i] = random.nextInt(8) == 0 ? 0
                            : aimed ? (obb[i] + random.nextDouble(-1, 1) - o[i]) * random.nextDouble(0.5, 2)
                            : random.nextDouble(-6, 6);
                }
                double maxFraction = random.nextInt(8) == 0 ? 0 : random.nextDouble(aimed ? 0.8 : 0, 1.5);
                boolean got = SegmentObb.test(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction, obb, 0);
                // reference: the exact local problem (rounded to double once) against the slab reference
                double[] localO = new double[3];
                double[] localD = new double[3];
                double[] lo = new double[3];
                double[] hi = new double[3];
                for (int i = 0; i < 3; i++) {
                    BigDecimal[] l = axis(obb, i);
                    BigDecimal[] p = new BigDecimal[3];
                    for (int k = 0; k < 3; k++) {
                        p[k] = ExactReference.exact(o[k]).subtract(ExactReference.exact(obb[k]));
                    }
                    localO[i] = dot(l, p).doubleValue();
                    localD[i] = dot(l, new BigDecimal[] {ExactReference.exact(d[0]), ExactReference.exact(d[1]),
                        ExactReference.exact(d[2])}).doubleValue();
                    hi[i] = obb[ObbLayout.HALF_EXTENTS + i];
                    lo[i] = -hi[i];
                }
                ExactReference.SegmentBox exact = ExactReference.segmentBox(localO, localD, maxFraction, lo, hi);
                if (Math.abs(exact.margin) < 1e-9) {
                    continue;
                }
                hits += exact.hit() ? 1 : 0;
                assertEquals(exact.hit(), got, "case " + n + " base " + base + " margin " + exact.margin);
            }
        }
        assertTrue(hits > cases / 8, "hits " + hits);
    }

    @Test
    void shouldValidateFlatBoxesLikeTheConstructor() {
        SplittableRandom random = new SplittableRandom(0x0BB0_0001L);
        for (int n = 0; n < 200; n++) {
            double[] obb = randomObb(random, 1e6, 100, 10);
            Obb.validate("obb", obb, 0);
            Obb.read(obb, 0).writeTo(obb, 0);
            Obb.validate("obb", obb, 0);
        }
        double[] good = new double[ObbLayout.STRIDE + 2];
        new Obb(1, 2, 3, 1, 0, 0, 0, 1, 0, 0, 0, 1, 4, 5, 6).writeTo(good, 2);
        Obb.validate("box", good, 2);
        rejects("box", () -> Obb.validate("box", null, 0));
        rejects("box", () -> Obb.validate("box", good, 3));
        rejects("box", () -> Obb.validate("box", good, -1));
        double[] skewed = good.clone();
        skewed[2 + ObbLayout.AXES + 3] = 0.1; // axis 1 no longer orthogonal to axis 0
        rejects("box axis0 and axis1", () -> Obb.validate("box", skewed, 2));
        rejects("axis0 and axis1", () -> Obb.read(skewed, 2));
        double[] negative = good.clone();
        negative[2 + ObbLayout.HALF_EXTENTS + 1] = -1;
        rejects("box half1", () -> Obb.validate("box", negative, 2));
        double[] nan = good.clone();
        nan[2 + ObbLayout.AXES + 7] = Double.NaN;
        rejects("box axis2y", () -> Obb.validate("box", nan, 2));
        double[] far = good.clone();
        far[2] = Double.POSITIVE_INFINITY;
        rejects("box cx", () -> Obb.validate("box", far, 2));
    }

    @Test
    void shouldNeverPassABoxInsideOneThatFails() {
        // a box and its container an ulp larger in max x, 1.06e-9 from the unit cube: the container failed and the
        // box passed, the centre and half extents rounding either way (an index culling the container as a node
        // left out what a scan reported)
        double[] cube = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
        double[] node = {0x1.0000000489efep0, -0x1.bfc75a4c58f4ap0, -1, 0x1.fe00109ade8e8p0, 0x1.d2b50de0ae568p-1, 1};
        double[] box = {0x1.0000000489efep0, -0x1.bfc75a4c58f4ap0, -1, 0x1.fe00109ade8e7p0, 0x1.d2b50de0ae568p-1, 1};
        assertTrue(ObbAabb.test(cube, 0, node[0], node[1], node[2], node[3], node[4], node[5])
                || !ObbAabb.test(cube, 0, box[0], box[1], box[2], box[3], box[4], box[5]));
        // containers moved onto the decision's boundary (bisecting along a random direction), then boxes inside
        // them: flush with faces, an ulp in, random, points; with nearly parallel edges too
        SplittableRandom random = new SplittableRandom(0x0BB5);
        int failedContainers = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] obb = randomObb(random, 0, 4, 4);
            if (i % 2 == 0) {
                // a rotation within 1e-3 of the identity: edges nearly parallel to the coordinate axes
                setRotation(obb, new double[] {1, random.nextDouble(-1e-3, 1e-3), random.nextDouble(-1e-3, 1e-3),
                    random.nextDouble(-1e-3, 1e-3)});
            }
            double[] size = {random.nextDouble(0, 3), random.nextDouble(0, 3), random.nextDouble(0, 3)};
            double[] dir = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
            double in = 0;
            double out = 100;
            for (int step = 0; step < 80; step++) {
                double mid = 0.5 * (in + out);
                if (ObbAabb.test(obb, 0, obb[0] + mid * dir[0], obb[1] + mid * dir[1], obb[2] + mid * dir[2],
                        obb[0] + mid * dir[0] + size[0], obb[1] + mid * dir[1] + size[1],
                        obb[2] + mid * dir[2] + size[2])) {
                    in = mid;
                } else {
                    out = mid;
                }
            }
            double[] container = {obb[0] + out * dir[0], obb[1] + out * dir[1], obb[2] + out * dir[2],
                obb[0] + out * dir[0] + size[0], obb[1] + out * dir[1] + size[1], obb[2] + out * dir[2] + size[2]};
            if (ObbAabb.test(obb, 0, container[0], container[1], container[2], container[3], container[4],
                    container[5])) {
                continue;
            }
            failedContainers++;
            for (int j = 0; j < 8; j++) {
                double[] b = new double[6];
                for (int k = 0; k < 3; k++) {
                    double lo = container[k];
                    double hi = container[3 + k];
                    switch (j % 4) {
                        case 0: // one face an ulp in
                            b[k] = random.nextBoolean() ? Math.nextUp(lo) : lo;
                            b[3 + k] = Math.max(b[k], random.nextBoolean() ? Math.nextDown(hi) : hi);
                            break;
                        case 1: // a random part
                            double u = random.nextDouble(lo, hi + Double.MIN_VALUE);
                            double v = random.nextDouble(lo, hi + Double.MIN_VALUE);
                            b[k] = Math.min(Math.max(Math.min(u, v), lo), hi);
                            b[3 + k] = Math.min(Math.max(Math.max(u, v), lo), hi);
                            break;
                        case 2: // flush with the lower faces
                            b[k] = lo;
                            b[3 + k] = Math.min(hi, lo + random.nextDouble() * (hi - lo));
                            break;
                        default: // a point of the upper faces
                            b[k] = hi;
                            b[3 + k] = hi;
                            break;
                    }
                }
                assertFalse(ObbAabb.test(obb, 0, b[0], b[1], b[2], b[3], b[4], b[5]), "case " + i + "." + j);
            }
        }
        assertTrue(failedContainers > 10_000, "containers: " + failedContainers);
    }

    private static void rejects(String message, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void shouldEncloseTheAxisAlignedBoxItIsMadeOf() {
        // the reported case: a box one ulp wide has no representable centre; its corner touches the point box
        double e = Math.ulp(1.0);
        Aabb a = new Aabb(1, 1, 1, 1 + e, 1 + e, 1 + e);
        Aabb p = new Aabb(1 + e, 1, 1, 1 + e, 1, 1);
        assertTrue(a.overlaps(p));
        assertTrue(Obb.of(a).overlaps(p));
        assertTrue(Obb.of(a).overlaps(Obb.of(p)));
        java.util.SplittableRandom random = new java.util.SplittableRandom(71);
        double[] o = new double[ObbLayout.STRIDE];
        for (double base : new double[] {0, 1, 1e6, 1e15, -3e15, 1e300}) {
            for (int i = 0; i < 2000; i++) {
                double[] b = new double[6];
                for (int axis = 0; axis < 3; axis++) {
                    double min = base + random.nextInt(-50, 50) * Math.ulp(base == 0 ? 1 : base);
                    double max = min;
                    for (int k = random.nextInt(0, 6); k > 0; k--) {
                        max = Math.nextUp(max);
                    }
                    b[axis] = min;
                    b[3 + axis] = max;
                }
                Obb.of(new Aabb(b[0], b[1], b[2], b[3], b[4], b[5])).writeTo(o, 0);
                for (int axis = 0; axis < 3; axis++) {
                    double c = o[axis];
                    double h = o[ObbLayout.HALF_EXTENTS + axis];
                    String what = base + " axis " + axis + ": " + b[axis] + " .. " + b[3 + axis];
                    assertTrue(c - h <= b[axis] && c + h >= b[3 + axis], what);
                    // and no more than an ulp of the coordinates beyond it
                    assertTrue(c - h >= b[axis] - 2 * Math.ulp(b[axis])
                            && c + h <= b[3 + axis] + 2 * Math.ulp(b[3 + axis]), what);
                }
            }
        }
        // a box wider than the largest double's half still makes an oriented box
        Obb.of(new Aabb(-1.5e308, 0, 0, 1.5e308, 1, 1)).writeTo(o, 0);
        assertEquals(1.5e308, o[ObbLayout.HALF_EXTENTS]);
    }
}
