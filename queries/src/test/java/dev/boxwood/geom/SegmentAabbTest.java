package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SegmentAabbTest {

    /** Unit box [0,1]^3 unless stated otherwise. */
    private static double cast(double ox, double oy, double oz, double dx, double dy, double dz, double maxFraction) {
        return cast(ox, oy, oz, dx, dy, dz, maxFraction, 0, 0, 0, 1, 1, 1);
    }

    /** Runs all three forms, checks they agree, returns the fraction. */
    private static double cast(double ox, double oy, double oz, double dx, double dy, double dz, double maxFraction,
                               double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double f = SegmentAabb.intersect(ox, oy, oz, dx, dy, dz, maxFraction, minX, minY, minZ, maxX, maxY, maxZ);
        double g = SegmentAabb.intersectInverse(ox, oy, oz, SegmentAabb.inverse(dx), SegmentAabb.inverse(dy),
                SegmentAabb.inverse(dz), maxFraction, minX, minY, minZ, maxX, maxY, maxZ);
        boolean h = SegmentAabb.testDivisionFree(ox, oy, oz, dx, dy, dz, maxFraction,
                minX, minY, minZ, maxX, maxY, maxZ);
        assertEquals(f, g, "intersect and intersectInverse");
        assertEquals(f != Geom.NO_HIT, h, "intersect and testDivisionFree");
        // the separating-axis form is conservative by a few ulps of the coordinates: a hit must be a hit
        assertTrue(f == Geom.NO_HIT || SegmentAabb.testSeparatingAxes(ox, oy, oz, dx, dy, dz, maxFraction,
                minX, minY, minZ, maxX, maxY, maxZ), "intersect and testSeparatingAxes");
        SweepResult interval = new SweepResult();
        assertEquals(f != Geom.NO_HIT, SegmentAabb.intersectInverse(ox, oy, oz, SegmentAabb.inverse(dx),
                SegmentAabb.inverse(dy), SegmentAabb.inverse(dz), maxFraction, minX, minY, minZ, maxX, maxY, maxZ,
                interval));
        assertEquals(f, interval.first, "entry of the interval form");
        assertFalse(Double.isNaN(f));
        return f;
    }

    @Test
    void shouldReturnEntryFractionThroughTheMiddle() {
        assertEquals(0.5, cast(-2, 0.5, 0.5, 4, 0, 0, 1));
        assertEquals(0.25, cast(0.5, 0.5, -1, 0, 0, 4, 1));
        assertEquals(0.5, cast(1.5, 2, 0.5, -1, -2, 0, 1));
    }

    @Test
    void shouldMissWhenTheSegmentStopsShortOrPointsAway() {
        assertEquals(Geom.NO_HIT, cast(-2, 0.5, 0.5, 1, 0, 0, 1));
        assertEquals(Geom.NO_HIT, cast(-2, 0.5, 0.5, 4, 0, 0, 0.49));
        assertEquals(Geom.NO_HIT, cast(-2, 0.5, 0.5, -4, 0, 0, 1));
        assertEquals(Geom.NO_HIT, cast(-1, 3.5, 0.5, 1, -1, 0, 10));
        assertEquals(2.0, cast(-1, 3, 0.5, 1, -1, 0, 10), "grazing the edge x = 1, y = 1");
    }

    @Test
    void shouldHitWhenTheSegmentEndsExactlyOnAFace() {
        assertEquals(1.0, cast(-1, 0.5, 0.5, 1, 0, 0, 1));
        assertEquals(2.0, cast(-2, 0.5, 0.5, 1, 0, 0, 2));
    }

    @Test
    void shouldReturnZeroWhenStartingInsideOrOnTheBoundary() {
        assertEquals(0.0, cast(0.5, 0.5, 0.5, 7, -3, 2, 1));
        assertEquals(0.0, cast(0, 0.5, 0.5, -1, 0, 0, 1), "on a face, moving away");
        assertEquals(0.0, cast(1, 1, 1, 1, 1, 1, 1), "on a corner, moving away");
        assertEquals(0.0, cast(1, 0.5, 0.5, -1, 0, 0, 1), "on a face, moving in");
    }

    @Test
    void shouldHandleParallelSegmentsInsideOnAndOutsideASlab() {
        for (double zero : new double[] {0.0, -0.0}) {
            assertEquals(0.5, cast(-1, 0.5, 0.5, 2, zero, zero, 1), "inside both slabs");
            assertEquals(0.5, cast(-1, 1, 0.5, 2, zero, zero, 1), "on the max plane of y");
            assertEquals(0.5, cast(-1, 0, 0, 2, zero, zero, 1), "on the min planes of y and z");
            assertEquals(0.5, cast(-1, 1, 1, 2, zero, zero, 1), "along an edge");
            assertEquals(Geom.NO_HIT, cast(-1, Math.nextUp(1.0), 0.5, 2, zero, zero, 1), "just above y");
            assertEquals(Geom.NO_HIT, cast(-1, Math.nextDown(0.0), 0.5, 2, zero, zero, 1), "just below y");
        }
    }

    @Test
    void shouldHitFlatAndPointBoxes() {
        // rectangle z = 0.5
        assertEquals(0.5, cast(0.5, 0.5, 0, 0, 0, 1, 1, 0, 0, 0.5, 1, 1, 0.5));
        assertEquals(0.0, cast(0.5, 0.5, 0.5, 0, 0, 1, 1, 0, 0, 0.5, 1, 1, 0.5), "start on the rectangle");
        assertEquals(0.25, cast(-0.5, 0.5, 0.5, 2, 0, 0, 1, 0, 0, 0.5, 1, 1, 0.5), "in its plane, dz = 0");
        assertEquals(Geom.NO_HIT, cast(-0.5, 0.5, 0.5, 2, 0, 1e-9, 1, 0, 0, 0.5, 1, 1, 0.4), "above, parallel");
        // point box
        assertEquals(0.5, cast(0, 0, 0, 2, 4, 6, 1, 1, 2, 3, 1, 2, 3));
        assertEquals(Geom.NO_HIT, cast(0, 0, 0, 2, 4, 6, 1, 1, 2, 3.5, 1, 2, 3.5));
        // point box, zero-length segment on it: both are points, NaN on every axis
        assertEquals(0.0, cast(1, 2, 3, 0, 0, 0, 1, 1, 2, 3, 1, 2, 3));
    }

    @Test
    void shouldTestThePointForAZeroLengthSegment() {
        assertEquals(0.0, cast(0.5, 0.5, 0.5, 0, 0, 0, 1));
        assertEquals(0.0, cast(1, 0, 1, 0, -0.0, 0, 1), "corner");
        assertEquals(Geom.NO_HIT, cast(1.5, 0.5, 0.5, 0, 0, 0, 1));
        assertEquals(0.0, cast(0.5, 0.5, 0.5, 5, 5, 5, 0), "maxFraction 0");
        assertEquals(Geom.NO_HIT, cast(-0.5, 0.5, 0.5, 5, 0, 0, 0), "maxFraction 0, outside");
    }

    @Test
    void shouldReturnPositiveZeroForAMaxFractionOfNegativeZero() {
        // -0.0 is a valid maxFraction (>= 0); the entry of a start inside or on the box is still the fraction 0
        // (assertEquals on doubles compares bit patterns: -0.0 would fail)
        assertEquals(0.0, cast(0.5, 0.5, 0.5, 1, 0, 0, -0.0));
        assertEquals(0.0, cast(0, 0.5, 0.5, -1, 2, 0, -0.0));
        assertEquals(0.0, cast(0.5, 0.5, 0.5, 0, 0, 0, -0.0));
        assertEquals(Geom.NO_HIT, cast(-1, 0.5, 0.5, 1, 0, 0, -0.0));
    }

    @Test
    void shouldWorkFarFromTheOrigin() {
        double b = 1e7;
        assertEquals(0.5, cast(b - 2, b + 0.5, b + 0.5, 4, 0, 0, 1, b, b, b, b + 1, b + 1, b + 1));
        assertEquals(0.5, cast(b - 1, b + 1, b + 1, 2, 0, 0, 1, b, b, b, b + 1, b + 1, b + 1), "along an edge");
        double above = Math.nextUp(b + 1);
        assertEquals(Geom.NO_HIT, cast(b - 1, above, b + 1, 2, 0, 0, 1, b, b, b, b + 1, b + 1, b + 1));
        // through the corner (b, b) at t = 1
        assertEquals(1.0, cast(b - 3, b - 5, b + 0.5, 3, 5, 0, 1, b, b, b, b + 1, b + 1, b + 1));
        assertEquals(Geom.NO_HIT, cast(b - 3, b - 5.5, b + 0.5, 3, 5, 0, 1, b, b, b, b + 1, b + 1, b + 1));
    }

    @Test
    void shouldAcceptEitherInfinityForAZeroComponent() {
        double[][] origins = {{-1, 1, 0.5}, {-1, 0, 0}, {-1, 0.5, 0.5}, {-1, 1.5, 0.5}};
        for (double[] o : origins) {
            double expected = SegmentAabb.intersect(o[0], o[1], o[2], 2, 0, 0, 1, 0, 0, 0, 1, 1, 1);
            for (double inf : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
                assertEquals(expected, SegmentAabb.intersectInverse(o[0], o[1], o[2], 0.5, inf, inf, 1,
                        0, 0, 0, 1, 1, 1));
            }
        }
    }

    @Test
    void shouldAgreeWithTheExactReferenceAtUnitScale() {
        differential(0xB0C5_0001L, 0.0, 10_000);
    }

    @Test
    void shouldAgreeWithTheExactReferenceFarFromTheOrigin() {
        differential(0xB0C5_0002L, 1e5, 5_000);
        differential(0xB0C5_0003L, 1e6, 5_000);
        differential(0xB0C5_0004L, 1e7, 3_000);
    }

    /**
     * Random segments and boxes near {@code base}: plain, snapped onto box planes, with zero components, flat
     * boxes, and segments aimed exactly (up to rounding) at a box corner or edge. An exact hit must always be a
     * kernel hit (no false misses), with the fraction within a few ulps; an exact miss must be a kernel miss unless
     * it is within rounding distance of the boundary.
     */
    private static void differential(long seed, double base, int cases) {
        SplittableRandom random = new SplittableRandom(seed);
        int hits = 0;
        int misses = 0;
        int skipped = 0;
        double[] o = new double[3];
        double[] d = new double[3];
        double[] min = new double[3];
        double[] max = new double[3];
        for (int n = 0; n < cases; n++) {
            boolean aimedAtBoundary = randomCase(random, base, o, d, min, max);
            double maxFraction = random.nextInt(10) == 0 ? 0.0 : random.nextDouble(0.0, 2.0);
            ExactReference.SegmentBox exact = ExactReference.segmentBox(o, d, maxFraction, min, max);
            double f = SegmentAabb.intersect(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction,
                    min[0], min[1], min[2], max[0], max[1], max[2]);
            double g = SegmentAabb.intersectInverse(o[0], o[1], o[2], SegmentAabb.inverse(d[0]),
                    SegmentAabb.inverse(d[1]), SegmentAabb.inverse(d[2]), maxFraction,
                    min[0], min[1], min[2], max[0], max[1], max[2]);
            boolean h = SegmentAabb.testDivisionFree(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction,
                    min[0], min[1], min[2], max[0], max[1], max[2]);
            boolean sat = SegmentAabb.testSeparatingAxes(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction,
                    min[0], min[1], min[2], max[0], max[1], max[2]);
            String where = "seed " + seed + " case " + n;
            assertEquals(f, g, where);
            if (exact.hit()) {
                hits++;
                if (f == Geom.NO_HIT || !h || !sat) {
                    fail("false miss " + where + " f=" + f + " divisionFree=" + h + " separatingAxes=" + sat
                            + " margin=" + exact.margin);
                }
                assertTrue(f >= 0 && f <= maxFraction, where);
                assertEquals(exact.fraction, f, 8 * Geom.UNIT_ROUNDOFF * exact.fraction, where);
            } else if (exact.margin < -64 * Geom.UNIT_ROUNDOFF) {
                misses++;
                assertEquals(Geom.NO_HIT, f, where + " margin=" + exact.margin);
                assertFalse(h, where + " margin=" + exact.margin);
                // the separating-axis slack is absolute (a few ulps of the coordinates), so allow a wider band
                assertTrue(!sat || exact.margin > -1e-9, where + " separatingAxes, margin=" + exact.margin);
            } else if (!aimedAtBoundary) {
                skipped++;
            }
        }
        assertTrue(hits > cases / 5 && misses > cases / 5, "hits " + hits + " misses " + misses);
        assertTrue(skipped < cases / 100, "skipped (not aimed at the boundary) " + skipped);
    }

    /** Fills a random case; returns true if it was aimed at the box boundary (often within rounding of it). */
    private static boolean randomCase(SplittableRandom random, double base, double[] o, double[] d,
                                   double[] min, double[] max) {
        for (int i = 0; i < 3; i++) {
            double lo = base + random.nextDouble(-4, 4);
            double size = random.nextInt(8) == 0 ? 0.0 : random.nextDouble(0, 4);
            min[i] = lo;
            max[i] = lo + size;
            d[i] = random.nextInt(8) == 0 ? (random.nextBoolean() ? 0.0 : -0.0) : random.nextDouble(-8, 8);
        }
        int kind = random.nextInt(4);
        if (kind >= 2) {
            // aim at a point on the box boundary (a corner or an edge point), or inside the box
            double t0 = random.nextDouble(0.05, 1.5);
            for (int i = 0; i < 3; i++) {
                double target = random.nextBoolean() ? min[i] : max[i];
                if (kind == 3 || i == 2 && random.nextBoolean()) {
                    target = random.nextDouble(min[i], Math.nextUp(max[i]));
                }
                o[i] = target - t0 * d[i];
            }
            return kind == 2;
        }
        for (int i = 0; i < 3; i++) {
            o[i] = base + random.nextDouble(-8, 8);
            if (kind == 1 && random.nextInt(3) == 0) {
                o[i] = random.nextBoolean() ? min[i] : max[i];
            }
        }
        return false;
    }

    @Test
    void shouldHitACornerTouchAtCoordinatesNear1e154InEveryForm() {
        // an exact hit just inside the corner at coordinates near 2^-514, where the cross products of the
        // division-free and separating-axis forms round in the subnormal range (they are taken again scaled up)
        double ox = 0x1.f8816ebea2e91p-517;
        double oy = 0x1.5eace6286e00ap-515;
        double dx = 0x1.b917b5e8a4438p-513;
        double dy = 0x1.5efbd4e002b28p-511;
        double minX = 0x1.03ac48276d488p-515;
        double maxX = 0x1.0dd23cdc334a8p-512;
        double minY = -0x1.ac55854c19fb8p-514;
        double maxY = 0x1.83de1748612p-514;
        assertTrue(SegmentAabb.intersect(ox, oy, 0, dx, dy, 0, 1.0, minX, minY, 0, maxX, maxY, 0) >= 0);
        assertTrue(SegmentAabb.intersectInverse(ox, oy, 0, SegmentAabb.inverse(dx), SegmentAabb.inverse(dy),
                SegmentAabb.inverse(0), 1.0, minX, minY, 0, maxX, maxY, 0) >= 0);
        assertTrue(SegmentAabb.testDivisionFree(ox, oy, 0, dx, dy, 0, 1.0, minX, minY, 0, maxX, maxY, 0));
        assertTrue(SegmentAabb.testSeparatingAxes(ox, oy, 0, dx, dy, 0, 1.0, minX, minY, 0, maxX, maxY, 0));
        // segments from dyadic starts through the corner (0, u) of the square [0, u]^2, every coordinate exact:
        // into the square (both entries at one fraction), grazing it (the x entry and the y exit at one fraction,
        // the corner the only common point), and the grazing one lifted by a tenth of the square (a clear miss);
        // u from 2^-470 to 2^-540 (1e-141 to 1e-163); the oriented box is the same square
        SplittableRandom random = new SplittableRandom(17);
        for (int exponent = -470; exponent >= -540; exponent -= 10) {
            double unit = Math.scalb(1.0, exponent);
            double half = 0.5 * unit;
            double[] obb = {half, half, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, half, half, 0};
            for (int i = 0; i < 20_000; i++) {
                double p = (1 + random.nextInt(1 << 20)) * 0x1p-20 * unit;
                double q = (1 + random.nextInt(1 << 20)) * 0x1p-20 * unit;
                double k = 1 + random.nextInt(8);
                String at = "2^" + exponent + ", case " + i;
                assertCornerCase(true, -p, unit + q, k * p, -k * q, unit, obb, at + ", into");
                assertCornerCase(true, -p, unit - q, k * p, k * q, unit, obb, at + ", grazing");
                assertCornerCase(false, -p, unit - q + 0.1 * unit, k * p, k * q, unit, obb, at + ", lifted");
            }
        }
    }

    @Test
    void shouldHitAlongAFaceWithAZeroComponentAtCoordinatesNear1e250InEveryForm() {
        // sliding along the top face y = 2e250 with no motion in y or z: the zero cross products sit next to
        // factors near 1e250, which the rescaling of tiny products must not turn into NaN
        double min = 1e250;
        double max = 2e250;
        double[] obb = {1.5e250, 1.5e250, 1.5e250, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5e250, 0.5e250, 0.5e250};
        assertTrue(SegmentAabb.intersect(0.5e250, max, max, 1e250, 0, 0, 1.0, min, min, min, max, max, max) >= 0);
        assertTrue(SegmentAabb.testDivisionFree(0.5e250, max, max, 1e250, 0, 0, 1.0, min, min, min, max, max, max));
        assertTrue(SegmentAabb.testSeparatingAxes(0.5e250, max, max, 1e250, 0, 0, 1.0, min, min, min, max, max, max));
        assertTrue(SegmentObb.test(0.5e250, max, max, 1e250, 0, 0, 1.0, obb, 0));
        // and a hair above it, by far more than rounding: a miss
        double above = 2.000001e250;
        assertFalse(SegmentAabb.testDivisionFree(0.5e250, above, max, 1e250, 0, 0, 1.0, min, min, min, max, max, max));
        assertFalse(SegmentAabb.testSeparatingAxes(0.5e250, above, max, 1e250, 0, 0, 1.0,
                min, min, min, max, max, max));
    }

    /** Every form of the segment test on the square [0, u]^2 (z = 0) agrees with {@code hit}. */
    private static void assertCornerCase(boolean hit, double x0, double y0, double dx, double dy, double unit,
                                         double[] obb, String at) {
        assertEquals(hit, SegmentAabb.intersect(x0, y0, 0, dx, dy, 0, 1.0, 0, 0, 0, unit, unit, 0) >= 0, at);
        assertEquals(hit, SegmentAabb.intersectInverse(x0, y0, 0, SegmentAabb.inverse(dx), SegmentAabb.inverse(dy),
                SegmentAabb.inverse(0), 1.0, 0, 0, 0, unit, unit, 0) >= 0, at);
        assertEquals(hit, SegmentAabb.testDivisionFree(x0, y0, 0, dx, dy, 0, 1.0, 0, 0, 0, unit, unit, 0), at);
        assertEquals(hit, SegmentAabb.testSeparatingAxes(x0, y0, 0, dx, dy, 0, 1.0, 0, 0, 0, unit, unit, 0), at);
        assertEquals(hit, SegmentObb.test(x0, y0, 0, dx, dy, 0, 1.0, obb, 0), at);
    }
}
