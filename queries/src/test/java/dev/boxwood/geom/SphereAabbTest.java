package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SphereAabbTest {

    /** All five variants on the box [min, max], which must be exactly min = centre - half, max = centre + half. */
    private static boolean[] variants(double cx, double cy, double cz, double r, double[] min, double[] max) {
        double[] centre = new double[3];
        double[] half = new double[3];
        for (int i = 0; i < 3; i++) {
            centre[i] = (min[i] + max[i]) / 2;
            half[i] = (max[i] - min[i]) / 2;
            assertEquals(min[i], centre[i] - half[i], "test box not exact in centre/extent form");
            assertEquals(max[i], centre[i] + half[i], "test box not exact in centre/extent form");
        }
        return new boolean[] {
            SphereAabb.test(cx, cy, cz, r, min[0], min[1], min[2], max[0], max[1], max[2]),
            SphereAabb.testArvo(cx, cy, cz, r, min[0], min[1], min[2], max[0], max[1], max[2]),
            SphereAabb.testQuickRejectInterleaved(cx, cy, cz, r, min[0], min[1], min[2], max[0], max[1], max[2]),
            SphereAabb.testQuickRejectFirst(cx, cy, cz, r, min[0], min[1], min[2], max[0], max[1], max[2]),
            SphereAabb.testBranchFree(cx, cy, cz, r, min[0], min[1], min[2], max[0], max[1], max[2]),
            SphereAabb.testCentreExtent(cx, cy, cz, r, centre[0], centre[1], centre[2], half[0], half[1], half[2]),
        };
    }

    private static void assertAll(boolean expected, double cx, double cy, double cz, double r,
                                  double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        boolean[] got = variants(cx, cy, cz, r, new double[] {minX, minY, minZ}, new double[] {maxX, maxY, maxZ});
        for (int v = 0; v < got.length; v++) {
            assertEquals(expected, got[v], "variant " + v);
        }
    }

    @Test
    void shouldOverlapWhenTheCentreIsInside() {
        assertAll(true, 0.5, 0.5, 0.5, 0.1, 0, 0, 0, 1, 1, 1);
        assertAll(true, 0.5, 0.5, 0.5, 0.0, 0, 0, 0, 1, 1, 1);
    }

    @Test
    void shouldCountTouchingOnFacesEdgesAndCorners() {
        assertAll(true, 3, 0.5, 0.5, 2, 0, 0, 0, 1, 1, 1);
        assertAll(false, 3, 0.5, 0.5, Math.nextDown(2.0), 0, 0, 0, 1, 1, 1);
        // edge: offsets (3, 4) from the edge x = 1, y = 1, distance 5
        assertAll(true, 4, 5, 0.5, 5, 0, 0, 0, 1, 1, 1);
        assertAll(false, 4, 5, 0.5, Math.nextDown(5.0), 0, 0, 0, 1, 1, 1);
        // corner: offsets (-1, -2, -2) from (0, 0, 0), distance 3
        assertAll(true, -1, -2, -2, 3, 0, 0, 0, 1, 1, 1);
        assertAll(false, -1, -2, -2, Math.nextDown(3.0), 0, 0, 0, 1, 1, 1);
    }

    @Test
    void shouldTreatRadiusZeroAsAPointAndAcceptFlatBoxes() {
        assertAll(true, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1);
        assertAll(false, Math.nextUp(1.0), 1, 1, 0, 0, 0, 0, 1, 1, 1);
        assertAll(true, 0.5, 0.5, 2, 1.5, 0, 0, 0.5, 1, 1, 0.5);
        assertAll(false, 0.5, 0.5, 2, 1.25, 0, 0, 0.5, 1, 1, 0.5);
        assertAll(true, 2, 2, 2, 0, 2, 2, 2, 2, 2, 2);
    }

    @Test
    void shouldWorkFarFromTheOrigin() {
        double b = 1e7;
        assertAll(true, b + 4, b + 5, b + 0.5, 5, b, b, b, b + 1, b + 1, b + 1);
        assertAll(false, b + 4, b + 5, b + 0.5, Math.nextDown(5.0), b, b, b, b + 1, b + 1, b + 1);
        assertAll(true, b - 1, b - 2, b - 2, 3, b, b, b, b + 1, b + 1, b + 1);
        assertAll(false, b - 1, b - 2, b - 2, Math.nextDown(3.0), b, b, b, b + 1, b + 1, b + 1);
    }

    @Test
    void shouldAgreeWithTheExactReferenceAndWithEachOther() {
        differential(0x5A5A_0001L, 0.0, 10_000);
        differential(0x5A5A_0002L, 1e5, 5_000);
        differential(0x5A5A_0003L, 1e6, 5_000);
        differential(0x5A5A_0004L, 1e7, 3_000);
    }

    /**
     * Random boxes that are exact in both min/max and centre/extent form (coordinates on a 2^-20 grid), spheres
     * near them with radii that often put the surface right at the box. All variants must give the exact answer
     * unless the surface is within a few ulps of the box.
     */
    private static void differential(long seed, double base, int cases) {
        SplittableRandom random = new SplittableRandom(seed);
        double grid = 0x1p-20;
        double[] min = new double[3];
        double[] max = new double[3];
        double[] c = new double[3];
        int hits = 0;
        int misses = 0;
        int skipped = 0;
        for (int n = 0; n < cases; n++) {
            BigDecimal[] outside = new BigDecimal[3];
            double scale = Math.max(Math.abs(base), 1.0);
            for (int i = 0; i < 3; i++) {
                min[i] = base + random.nextInt(-4 << 20, 4 << 20) * grid;
                max[i] = min[i] + (random.nextInt(8) == 0 ? 0 : random.nextInt(0, 4 << 20) * grid);
                c[i] = base + random.nextDouble(-8, 8);
                if (random.nextInt(4) == 0) {
                    c[i] = random.nextBoolean() ? min[i] : max[i];
                }
                outside[i] = ExactReference.outside(c[i], min[i], max[i]);
            }
            double distance = 0;
            for (BigDecimal v : outside) {
                distance += v.doubleValue() * v.doubleValue();
            }
            distance = Math.sqrt(distance);
            double r = random.nextBoolean() ? random.nextDouble(0, 6) : distance * random.nextDouble(0.999, 1.001);
            double margin = ExactReference.sphereMargin(outside, r);
            boolean[] got = variants(c[0], c[1], c[2], r, min, max);
            // the exact margin computed from the centre/extent inputs must be the same problem
            for (int i = 0; i < 3; i++) {
                double centre = (min[i] + max[i]) / 2;
                double half = (max[i] - min[i]) / 2;
                assertEquals(0, outside[i].compareTo(ExactReference.outsideCentred(c[i], centre, half)));
            }
            // a centre in the box is decided exactly (all distances 0); elsewhere skip the few-ulp band
            if (distance != 0 && Math.abs(margin) < 16 * Math.ulp(scale + r)) {
                skipped++;
                continue;
            }
            boolean expected = margin >= 0;
            if (expected) {
                hits++;
            } else {
                misses++;
            }
            for (int v = 0; v < got.length; v++) {
                assertEquals(expected, got[v], "seed " + seed + " case " + n + " variant " + v + " margin " + margin);
            }
        }
        assertTrue(hits > cases / 5 && misses > cases / 5, "hits " + hits + " misses " + misses);
        assertTrue(skipped < cases / 100, "skipped " + skipped);
    }

    @Test
    void shouldNotCountAGapWithinTheRoundingOfTheSquaresAsATouch() {
        // squared distance 1 + 2^-60 from the centre of a unit sphere: the plain sum rounds to exactly 1
        double e = 0x1p-30;
        assertEquals(1.0, 1.0 + e * e);
        assertFalse(SphereAabb.test(0, 0, 0, 1, 1, e, 0, 1, e, 0));
        assertTrue(SphereAabb.test(0, 0, 0, 1, 1, 0, 0, 1, e, 0));
        // and away from the origin (b + e is still a double)
        double b = 0x1p20;
        assertFalse(SphereAabb.test(b, b, b, 1, b + 1, b + e, b, b + 1, b + e, b));
    }

    @Test
    void shouldNeverMissAnExactTouchWhoseSquaresRound() {
        // offsets from the corner (0, 0, 0) of a Pythagorean quadruple: 44076023^2 + 184745854^2 + 42115414^2 is
        // exactly 194544171^2, but the squares have more than 53 bits and their rounded sum exceeds the rounded r^2
        assertTrue(SphereAabb.test(-44076023, -184745854, -42115414, 194544171, 0, 0, 0, 1, 1, 1));
        assertFalse(SphereAabb.test(-44076023, -184745854, -42115414, Math.nextDown(194544171.0), 0, 0, 0, 1, 1, 1));
        SplittableRandom random = new SplittableRandom(0x5A5A_0005L);
        int touches = 0;
        int attempts = 0;
        while (touches < 20_000 && attempts++ < 1_000_000) {
            // (m^2 + n^2 - p^2 - q^2, 2 (m q + n p), 2 (n q - m p)) has length m^2 + n^2 + p^2 + q^2
            long m = random.nextLong(1, 1 << 13);
            long n = random.nextLong(1, 1 << 13);
            long p = random.nextLong(1 << 13);
            long q = random.nextLong(1 << 13);
            double scale = Math.scalb(1.0, random.nextInt(-30, 30));
            double[] offset = {
                (m * m + n * n - p * p - q * q) * scale, 2 * (m * q + n * p) * scale, 2 * (n * q - m * p) * scale};
            double r = (m * m + n * n + p * p + q * q) * scale;
            // a box corner on a grid far from the origin (1e6 to 1e12), the centre beyond it on every axis
            double grid = Math.scalb(1.0, random.nextInt(-4, 4));
            double[] min = new double[3];
            double[] max = new double[3];
            double[] c = new double[3];
            BigDecimal[] outside = new BigDecimal[3];
            boolean representable = true;
            for (int i = 0; i < 3; i++) {
                double corner = Math.rint(random.nextDouble(1e6, 1e12) / grid) * grid;
                boolean below = random.nextBoolean();
                min[i] = below ? corner : corner - 5;
                max[i] = below ? corner + 5 : corner;
                c[i] = below ? corner - Math.abs(offset[i]) : corner + Math.abs(offset[i]);
                outside[i] = ExactReference.outside(c[i], min[i], max[i]);
                representable &= outside[i].compareTo(new BigDecimal(Math.abs(offset[i]))) == 0;
            }
            // only exact touches count (the box's offsets as constructed, the margin exactly 0 in BigDecimal)
            if (!representable || ExactReference.sphereMargin(outside, r) != 0.0) {
                continue;
            }
            touches++;
            assertTrue(SphereAabb.test(c[0], c[1], c[2], r, min[0], min[1], min[2], max[0], max[1], max[2]),
                    "touch " + touches + ": centre " + Arrays.toString(c) + " r " + r);
            // an ulp below r is apart by about 2^-52 of r^2, which the plain squares can round away; it is no touch
            assertFalse(SphereAabb.test(c[0], c[1], c[2], Math.nextDown(r), min[0], min[1], min[2],
                    max[0], max[1], max[2]), "apart by an ulp of r " + touches);
            assertFalse(SphereAabb.test(c[0], c[1], c[2], r * (1 - 0x1p-40), min[0], min[1], min[2],
                    max[0], max[1], max[2]), "apart " + touches);
        }
        assertEquals(20_000, touches, "exact touches constructed in " + attempts + " attempts");
    }

    @Test
    void shouldDecideHugeSpheresAndFarBoxesWhoseSquaresOverflow() {
        // radii and distances above about 1e154: r^2 or the squared distance overflows; decided on inputs scaled down
        for (double r : new double[] {1e155, 1e200, 1e300, Double.MAX_VALUE}) {
            assertTrue(SphereAabb.test(0, 0, 0, r, -1, -1, -1, 1, 1, 1), "the box at the centre, r " + r);
            assertTrue(SphereAabb.contains(0, 0, 0, r, -1, -1, -1, 1, 1, 1), "contained, r " + r);
            assertTrue(new Sphere(0, 0, 0, r).overlaps(new Aabb(-1, -1, -1, 1, 1, 1)), "value type, r " + r);
        }
        double r = 0x1p700;
        // a face, an edge (offsets 3, 4 of 5) and a corner (1, 2, 2 of 3) exactly on the surface, and just beyond
        assertTrue(SphereAabb.test(0, 0, 0, r, r, -1, -1, 2 * r, 1, 1));
        assertFalse(SphereAabb.test(0, 0, 0, r, r * (1 + 0x1p-40), -1, -1, 2 * r, 1, 1));
        double u = 0x1p690;
        assertTrue(SphereAabb.test(0, 0, 0, 5 * u, 3 * u, 4 * u, -1, 6 * u, 6 * u, 1));
        assertFalse(SphereAabb.test(0, 0, 0, 5 * u * (1 - 0x1p-40), 3 * u, 4 * u, -1, 6 * u, 6 * u, 1));
        assertTrue(SphereAabb.test(0, 0, 0, 3 * u, u, 2 * u, 2 * u, 9 * u, 9 * u, 9 * u));
        assertFalse(SphereAabb.test(0, 0, 0, 3 * u, u * (1 + 0x1p-40), 2 * u, 2 * u, 9 * u, 9 * u, 9 * u));
        // finite squares whose sum overflows: a point 20% beyond the surface is apart
        assertFalse(SphereAabb.test(0, 0, 0, 1e154, 1.2e154, 0, 0, 1.2e154, 0, 0));
        assertFalse(SphereAabb.contains(0, 0, 0, 1e154, 0, 0, 0, 1.2e154, 0, 0));
        assertTrue(SphereAabb.test(0, 0, 0, 1e154, 0.8e154, 0, 0, 1.2e154, 0, 0));
        // a far box and a moderate sphere: the squared distance overflows, apart
        assertFalse(SphereAabb.test(0, 0, 0, 1, 1e200, 1e200, 1e200, 2e200, 2e200, 2e200));
        assertFalse(SphereAabb.contains(0, 0, 0, 1e200, -1e200, -1e200, -1e200, 1e200, 1e200, 1e200),
                "the corner at sqrt 3 r lies outside");
        assertTrue(SphereAabb.contains(0, 0, 0, 2e200, -1e200, -1e200, -1e200, 1e200, 1e200, 1e200));
    }
}
