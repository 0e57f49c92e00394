package dev.boxwood.geom2d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.geom.Geom;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Hand-worked cases: touching, collinear, degenerate, inside starts and far from the origin. */
class Intersect2Test {

    /** A large offset with a coarse ulp (about 2e-9), so that careless arithmetic shows. */
    private static final double FAR = 1.2345678e7;

    private final Hit2 hit = new Hit2();
    private final SegmentHit2 through = new SegmentHit2();

    @Test
    void shouldCountTheRimOfACircle() {
        assertTrue(Intersect2.testPointCircle(3, 4, 0, 0, 5));
        assertFalse(Intersect2.testPointCircle(3, 4.000001, 0, 0, 5));
        assertTrue(Intersect2.testPointCircle(FAR + 3, FAR + 4, FAR, FAR, 5));
        assertFalse(Intersect2.testPointCircle(FAR + 3, FAR + 4.00001, FAR, FAR, 5));
        assertTrue(Intersect2.testPointCircle(2, 2, 2, 2, 0)); // zero radius: the centre only
        assertFalse(Intersect2.testPointCircle(2, Math.nextUp(2.0), 2, 2, 0));
    }

    @Test
    void shouldCountTheBoundaryOfARectangle() {
        assertTrue(Intersect2.testPointRect(0, 0, 0, 0, 2, 1));
        assertTrue(Intersect2.testPointRect(2, 0.5, 0, 0, 2, 1));
        assertFalse(Intersect2.testPointRect(Math.nextUp(2.0), 0.5, 0, 0, 2, 1));
        assertTrue(Intersect2.testPointRect(1, 1, 1, 1, 1, 1)); // point rectangle
        assertFalse(Intersect2.testPointRect(1, Math.nextUp(1.0), 1, 1, 1, 1));
    }

    @Test
    void shouldCountTheBoundaryOfATriangleInEitherWinding() {
        double[][] windings = {{0, 0, 4, 0, 0, 4}, {0, 0, 0, 4, 4, 0}, {4, 0, 0, 4, 0, 0}};
        for (double[] t : windings) {
            assertTrue(Intersect2.testPointTriangle(1, 1, t[0], t[1], t[2], t[3], t[4], t[5]));
            assertTrue(Intersect2.testPointTriangle(0, 4, t[0], t[1], t[2], t[3], t[4], t[5])); // vertex
            assertTrue(Intersect2.testPointTriangle(2, 2, t[0], t[1], t[2], t[3], t[4], t[5])); // hypotenuse
            assertTrue(Intersect2.testPointTriangle(2, 0, t[0], t[1], t[2], t[3], t[4], t[5])); // bottom edge
            assertFalse(Intersect2.testPointTriangle(2.5, 2, t[0], t[1], t[2], t[3], t[4], t[5]));
            assertFalse(Intersect2.testPointTriangle(-1, -1, t[0], t[1], t[2], t[3], t[4], t[5]));
            // far from the origin
            assertTrue(Intersect2.testPointTriangle(FAR + 2, FAR + 2, FAR + t[0], FAR + t[1], FAR + t[2],
                    FAR + t[3], FAR + t[4], FAR + t[5]));
            assertFalse(Intersect2.testPointTriangle(FAR + 2.00001, FAR + 2, FAR + t[0], FAR + t[1], FAR + t[2],
                    FAR + t[3], FAR + t[4], FAR + t[5]));
        }
    }

    @Test
    void shouldTreatDegenerateTrianglesAsSegmentsAndPoints() {
        assertTrue(Intersect2.testPointTriangle(1, 1, 0, 0, 4, 4, 2, 2));
        assertTrue(Intersect2.testPointTriangle(4, 4, 0, 0, 4, 4, 2, 2));
        assertFalse(Intersect2.testPointTriangle(5, 5, 0, 0, 4, 4, 2, 2)); // on the line, past the end
        assertFalse(Intersect2.testPointTriangle(1, 2, 0, 0, 4, 4, 2, 2));
        assertTrue(Intersect2.testPointTriangle(3, 3, 3, 3, 3, 3, 3, 3));
        assertFalse(Intersect2.testPointTriangle(3, 4, 3, 3, 3, 3, 3, 3));
    }

    @Test
    void shouldCountTouchingCircles() {
        assertTrue(Intersect2.testCircleCircle(0, 0, 1, 2, 0, 1));
        assertFalse(Intersect2.testCircleCircle(0, 0, 1, 2.000001, 0, 1));
        assertTrue(Intersect2.testCircleCircle(FAR, -FAR, 1.5, FAR + 3, -FAR + 4, 3.5));
        assertFalse(Intersect2.testCircleCircle(FAR, -FAR, 1.5, FAR + 3, -FAR + 4.00001, 3.5));
        assertTrue(Intersect2.testCircleCircle(1, 1, 0, 1, 1, 0)); // two points
        assertTrue(Intersect2.testCircleCircle(0, 0, 5, 1, 1, 0.5)); // one inside the other
    }

    @Test
    void shouldCountACircleTouchingARectangleCorner() {
        // corner (1, 1) is 5 from (4, 5)
        assertTrue(Intersect2.testCircleRect(4, 5, 5, 0, 0, 1, 1));
        assertFalse(Intersect2.testCircleRect(4, 5.00001, 5, 0, 0, 1, 1));
        assertTrue(Intersect2.testCircleRect(0.5, 0.5, 0, 0, 0, 1, 1)); // centre inside, zero radius
        assertTrue(Intersect2.testCircleRect(2, 0, 1, 1, -1, 1, 1)); // flat rectangle: a segment
        assertTrue(Intersect2.testCircleRect(FAR + 4, FAR + 5, 5, FAR, FAR, FAR + 1, FAR + 1));
        assertFalse(Intersect2.testCircleRect(FAR + 4, FAR + 5.00001, 5, FAR, FAR, FAR + 1, FAR + 1));
    }

    @Test
    void shouldCountACircleTangentToATriangle() {
        assertTrue(Intersect2.testCircleTriangle(2, -1, 1, 0, 0, 4, 0, 0, 4)); // tangent to the bottom edge
        assertFalse(Intersect2.testCircleTriangle(2, -1.00001, 1, 0, 0, 4, 0, 0, 4));
        assertTrue(Intersect2.testCircleTriangle(1, 1, 0, 0, 0, 4, 0, 0, 4)); // centre inside, zero radius
        assertTrue(Intersect2.testCircleTriangle(5, 5, Math.sqrt(2), 0, 0, 4, 4, 2, 2)); // collinear triangle
        assertFalse(Intersect2.testCircleTriangle(5, 5, 1.41, 0, 0, 4, 4, 2, 2));
        assertTrue(Intersect2.testCircleTriangle(FAR + 2, FAR - 1, 1, FAR, FAR, FAR + 4, FAR, FAR, FAR + 4));
        assertFalse(Intersect2.testCircleTriangle(FAR + 2, FAR - 1.00001, 1, FAR, FAR, FAR + 4, FAR, FAR, FAR + 4));
    }

    @Test
    void shouldCountRectanglesSharingAnEdgeOrACorner() {
        assertTrue(Intersect2.testRectRect(0, 0, 1, 1, 1, 0, 2, 1));
        assertTrue(Intersect2.testRectRect(0, 0, 1, 1, 1, 1, 2, 2));
        assertFalse(Intersect2.testRectRect(0, 0, 1, 1, Math.nextUp(1.0), 0, 2, 1));
        assertTrue(Intersect2.testRectRect(0, 0, 4, 4, 1, 1, 2, 2)); // containment
        assertTrue(Intersect2.testRectRect(0, 0, 4, 4, 2, 2, 2, 2)); // point rectangle inside
    }

    @Test
    void shouldTestTrianglesForOverlap() {
        // sharing a vertex, sharing an edge, one inside the other, apart
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 2, 0, 0, 2, 2, 0, 4, 0, 4, 2));
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 2, 2));
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 9, 0, 0, 9, 1, 1, 2, 1, 1, 2));
        assertFalse(Intersect2.testTriangleTriangle(0, 0, 2, 0, 0, 2, 1.1, 1.1, 3, 1, 1, 3));
        // star of David: every vertex outside the other triangle, edges cross
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 6, 0, 3, 5, 0, 3.5, 6, 3.5, 3, -1.5));
        // only the far side of an edge separates: the second triangle sits beyond the first one's apex
        assertFalse(Intersect2.testTriangleTriangle(0, 0, 4, 0, 2, 1, -5, 2, 9, 2, 2, 7));
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 4, 0, 2, 2, -5, 2, 9, 2, 2, 7));
        // far from the origin
        assertTrue(Intersect2.testTriangleTriangle(FAR, FAR, FAR + 2, FAR, FAR, FAR + 2,
                FAR + 1, FAR + 1, FAR + 3, FAR + 1, FAR + 1, FAR + 3));
        assertFalse(Intersect2.testTriangleTriangle(FAR, FAR, FAR + 2, FAR, FAR, FAR + 2,
                FAR + 1.00001, FAR + 1, FAR + 3, FAR + 1, FAR + 1.00001, FAR + 3));
    }

    @Test
    void shouldTestDegenerateTrianglesAsTheirLimits() {
        // two segments on the line y = 0: apart, touching, overlapping
        assertFalse(Intersect2.testTriangleTriangle(0, 0, 2, 0, 1, 0, 3, 0, 5, 0, 4, 0));
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 2, 0, 1, 0, 2, 0, 5, 0, 4, 0));
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 3, 0, 1, 0, 2, 0, 5, 0, 2, 0));
        // parallel segments on different lines, crossing segments
        assertFalse(Intersect2.testTriangleTriangle(0, 0, 2, 0, 2, 0, 0, 1, 2, 1, 0, 1));
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 2, 2, 2, 2, 0, 2, 2, 0, 2, 0));
        // points: equal, apart, on a segment, on a triangle's edge, off it
        assertTrue(Intersect2.testTriangleTriangle(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
        assertFalse(Intersect2.testTriangleTriangle(1, 1, 1, 1, 1, 1, 1, 2, 1, 2, 1, 2));
        assertTrue(Intersect2.testTriangleTriangle(1, 1, 1, 1, 1, 1, 0, 0, 2, 2, 2, 2));
        assertFalse(Intersect2.testTriangleTriangle(3, 3, 3, 3, 3, 3, 0, 0, 2, 2, 2, 2));
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 4, 0, 0, 4, 2, 2, 2, 2, 2, 2));
        assertFalse(Intersect2.testTriangleTriangle(0, 0, 4, 0, 0, 4, 2, 2.5, 2, 2.5, 2, 2.5));
        // a segment poking into a triangle, and one lying beyond its edge
        assertTrue(Intersect2.testTriangleTriangle(0, 0, 4, 0, 0, 4, 1, 1, 5, 5, 3, 3));
        assertFalse(Intersect2.testTriangleTriangle(0, 0, 4, 0, 0, 4, 3, 3, 5, 5, 4, 4));
    }

    @Test
    void shouldFindTheCrossingOfTwoSegments() {
        assertEquals(0.5, Intersect2.intersectSegmentSegment(0, 0, 2, 2, 1, 0, 2, 2, 0, hit));
        assertTrue(hit.hit);
        assertEquals(0.5, hit.fraction);
        assertEquals(1.0, hit.x);
        assertEquals(1.0, hit.y);
        // touching at the end of the cast and at the end of the target
        assertEquals(1.0, Intersect2.intersectSegmentSegment(0, 0, 1, 0, 1, 1, -1, 1, 1, hit));
        assertEquals(0.25, Intersect2.intersectSegmentSegment(0, 0, 4, 0, 1, 1, 0, 1, 3, hit));
        // maxFraction bounds the cast
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0, 0, 1, 0, 0.5, 0.6, -1, 0.6, 1, hit));
        assertFalse(hit.hit);
        assertEquals(0.6, Intersect2.intersectSegmentSegment(0, 0, 1, 0, 2, 0.6, -1, 0.6, 1, hit));
        // missing the target
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0, 0, 1, 0, 1, 2, -1, 2, 1, hit));
        // far from the origin
        assertEquals(0.5, Intersect2.intersectSegmentSegment(FAR, -FAR, 2, 2, 1, FAR, -FAR + 2, FAR + 2, -FAR,
                hit));
        assertEquals(FAR + 1, hit.x);
        assertEquals(-FAR + 1, hit.y);
    }

    @Test
    void shouldCastSegmentsAgainstSegmentsOfEveryScaleAlike() {
        // the same cast at 2^e: fractions do not depend on the scale; cross products of two lengths underflowed
        // below about 1e-162 (crossing segments read as parallel, collinear fractions as 0 / 0: a hit at NaN) and
        // overflowed above about 1e154
        Hit2 unit = new Hit2();
        Hit2 scaled = new Hit2();
        java.util.SplittableRandom random = new java.util.SplittableRandom(0x5E65E6);
        int hits = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] v = new double[8];
            for (int j = 0; j < 8; j++) {
                v[j] = random.nextInt(-8, 9) * 0.25;
            }
            if (i % 4 == 0) {
                v[6] = v[4]; // a point target
                v[7] = v[5];
            }
            if (i % 5 == 0) {
                v[4] = v[0] + 0.5 * v[2]; // a target on the cast's line
                v[5] = v[1] + 0.5 * v[3];
                v[6] = v[0] + v[2] * (i % 3);
                v[7] = v[1] + v[3] * (i % 3);
            }
            double t = Intersect2.intersectSegmentSegment(v[0], v[1], v[2], v[3], 1, v[4], v[5], v[6], v[7], unit);
            hits += t >= 0 ? 1 : 0;
            for (int e : new int[] {-900, -600, -300, 300, 600, 900}) {
                double k = Math.scalb(1.0, e);
                String what = java.util.Arrays.toString(v) + " at 2^" + e;
                assertEquals(t, Intersect2.intersectSegmentSegment(k * v[0], k * v[1], k * v[2], k * v[3], 1,
                        k * v[4], k * v[5], k * v[6], k * v[7], scaled), what);
                assertEquals(unit.hit, scaled.hit, what);
                assertEquals(k * unit.x, scaled.x, what);
                assertEquals(k * unit.y, scaled.y, what);
                // the translation alone scaled, and the largest fraction with it inversely: fractions scale exactly
                double kd = Math.scalb(1.0, e / 3);
                double moved = Intersect2.intersectSegmentSegment(v[0], v[1], kd * v[2], kd * v[3], 1 / kd, v[4],
                        v[5], v[6], v[7], scaled);
                assertEquals(t < 0 ? t : t / kd, moved, what + " (translation only)");
            }
        }
        assertTrue(hits > 2000 && hits < 18_000, "hits " + hits);
        // the reported cases: a point target on the start, and two crossing segments, 1e-200 long
        assertEquals(0.0, Intersect2.intersectSegmentSegment(0, 0, 1e-200, 0, 1, 0, 0, 0, 0, hit));
        assertEquals(0.5, Intersect2.intersectSegmentSegment(0, 0, 1e-200, 0, 1, 5e-201, -1e-201, 5e-201, 1e-201,
                hit));
        assertEquals(5e-201, hit.x);
    }

    @Test
    void shouldReportTheFirstPointOfACollinearOverlap() {
        // target reversed, entered at its endpoint (3, 0), reported exactly
        assertEquals(0.3, Intersect2.intersectSegmentSegment(0, 0, 10, 0, 1, 7, 0, 3, 0, hit), 1e-16);
        assertEquals(3.0, hit.x);
        assertEquals(0.0, hit.y);
        // origin on the target
        assertEquals(0.0, Intersect2.intersectSegmentSegment(0, 0, 10, 0, 1, -1, 0, 5, 0, hit));
        assertEquals(0.0, hit.x);
        // touching end to end, and a diagonal far from the origin
        assertEquals(1.0, Intersect2.intersectSegmentSegment(0, 0, 2, 2, 1, 2, 2, 5, 5, hit));
        assertEquals(0.5, Intersect2.intersectSegmentSegment(FAR, FAR, 4, 4, 1, FAR + 6, FAR + 6, FAR + 2,
                FAR + 2, hit));
        assertEquals(FAR + 2, hit.x);
        assertEquals(FAR + 2, hit.y);
        // collinear but apart, parallel on another line
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0, 0, 10, 0, 1, 11, 0, 12, 0, hit));
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0, 0, 10, 0, 1, 0, 1, 10, 1, hit));
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0, 0, 10, 0, 1, -3, 0, -1, 0, hit));
    }

    @Test
    void shouldMissSegmentsLyingNearlyOnOneLineButApart() {
        // the cast covers y 0 to 0.5, the target (on its line as rounded) y 2.5 to 6: their cross product is
        // rounding noise, whose quotients once put the crossing at the origin
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0.0, 0.0, 0x1.999999999999ap-4, 0x1.0p-1, 1.0,
                0x1.0p-1, 0x1.4p1, 0x1.3333333333333p0, 0x1.8p2, hit));
        assertFalse(hit.hit);
        // 1.9e90 apart near 1e91, once a hit at fraction 1
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0x1.20903fc3876c1p300, -0x1.21f3f112acbb2p297,
                -0x1.9f7a93f9b465ep298, 0x1.63090f020eeffp300, 1.0, 0x1.d09c04033d026p298, 0x1.1489293edcad7p301,
                -0x1.46a5517ccec18p299, 0x1.7915da8006829p302, hit));
        // targets on the cast's line as rounded, beyond either end by half the cast or more: at unit scale, far
        // from the origin and at scales from 1e-160 to 1e150
        SplittableRandom random = new SplittableRandom(808);
        for (int i = 0; i < 100_000; i++) {
            int mode = i % 3;
            double scale = mode == 2 ? Math.pow(10, -160 + 310 * random.nextDouble()) : 1;
            double baseX = mode == 1 ? farCoordinate(random) : 0;
            double baseY = mode == 1 ? farCoordinate(random) : 0;
            double ox = baseX + scale * random.nextDouble(-5, 5);
            double oy = baseY + scale * random.nextDouble(-5, 5);
            double dx = scale * random.nextDouble(-5, 5);
            double dy = scale * random.nextDouble(-5, 5);
            double q1 = random.nextDouble(1.5, 4.5);
            double q2 = q1 + random.nextDouble(3);
            if (random.nextBoolean()) {
                q1 = -0.5 - (q1 - 1.5);
                q2 = q1 - random.nextDouble(3);
            }
            assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(ox, oy, dx, dy, 1.0, ox + q1 * dx,
                    oy + q1 * dy, ox + q2 * dx, oy + q2 * dy, hit), "case " + i);
        }
    }

    /** 1e5 to 1e7 from the origin, either sign. */
    private static double farCoordinate(SplittableRandom random) {
        return Math.copySign(Math.pow(10, 5 + 2 * random.nextDouble()), random.nextDouble() - 0.5);
    }

    @Test
    void shouldReportAZeroFractionAsPositiveZero() {
        // a zero numerator with a negative denominator made -0.0, which sorts below 0 in Double.compare
        double t = Intersect2.intersectSegmentSegment(0, 0, 1, -1, 1, 1, 0, -1, 0, hit);
        assertEquals(0, Double.compare(0.0, t));
        assertEquals(0, Double.compare(0.0, hit.fraction));
        // the exit through a side at the origin, cast with a negative direction
        assertEquals(0.0, Intersect2.intersectSegmentRect(0, 0, -1, -1, 1, 0, -1, 1, 0, through));
        assertEquals(0, Double.compare(0.0, through.exitFraction));
    }

    @Test
    void shouldTreatZeroLengthSegmentsAsPoints() {
        assertEquals(0.0, Intersect2.intersectSegmentSegment(1, 1, 0, 0, 1, 0, 0, 2, 2, hit));
        assertEquals(0.0, Intersect2.intersectSegmentSegment(1, 1, 5, 5, 0, 0, 0, 2, 2, hit)); // maxFraction 0
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(1, 1.5, 0, 0, 1, 0, 0, 2, 2, hit));
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(3, 3, 0, 0, 1, 0, 0, 2, 2, hit));
        // a point target: hit at its own fraction, reported exactly
        assertEquals(0.75, Intersect2.intersectSegmentSegment(0, 0, 4, 0, 1, 3, 0, 3, 0, hit));
        assertEquals(3.0, hit.x);
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentSegment(0, 0, 4, 0, 1, 3, 1, 3, 1, hit));
        // both points
        assertEquals(0.0, Intersect2.intersectSegmentSegment(3, 1, 0, 0, 1, 3, 1, 3, 1, hit));
    }

    @Test
    void shouldEnterAndLeaveACircle() {
        assertEquals(0.4, Intersect2.intersectSegmentCircle(-5, 0, 10, 0, 1, 0, 0, 1, through), 1e-15);
        assertTrue(through.hit);
        assertEquals(0.6, through.exitFraction, 1e-15);
        assertEquals(-1.0, through.entryX, 1e-14);
        assertEquals(1.0, through.exitX, 1e-14);
        // start inside: entry 0 at the origin; end inside: exit at maxFraction
        assertEquals(0.0, Intersect2.intersectSegmentCircle(0.5, 0, 10, 0, 1, 0, 0, 1, through));
        assertEquals(0.5, through.entryX);
        assertEquals(0.05, through.exitFraction, 1e-15);
        assertEquals(0.4, Intersect2.intersectSegmentCircle(-5, 0, 10, 0, 0.5, 0, 0, 1, through), 1e-15);
        assertEquals(0.5, through.exitFraction);
        // tangent: entry and exit at the touching point
        assertEquals(0.5, Intersect2.intersectSegmentCircle(-5, 1, 10, 0, 1, 0, 0, 1, through));
        assertEquals(0.5, through.exitFraction);
        assertEquals(0.0, through.entryX);
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentCircle(-5, 1.000001, 10, 0, 1, 0, 0, 1, through));
        assertFalse(through.hit);
        // moving away, and stopping short
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentCircle(-5, 0, -10, 0, 1, 0, 0, 1, through));
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentCircle(-5, 0, 10, 0, 0.39, 0, 0, 1, through));
    }

    @Test
    void shouldCastThroughCirclesOfEveryScaleAlike() {
        // the same cast at 2^e: fractions do not depend on the scale; products of four lengths once overflowed from
        // about 1e77 (a start outside reported inside) and underflowed below 1e-77
        SegmentHit2 unit = new SegmentHit2();
        SegmentHit2 scaled = new SegmentHit2();
        java.util.SplittableRandom random = new java.util.SplittableRandom(0xC1C1E);
        int hits = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] v = new double[7];
            for (int j = 0; j < 7; j++) {
                v[j] = random.nextInt(-16, 17) * 0.25;
            }
            double r = Math.abs(v[6]);
            double entry = Intersect2.intersectSegmentCircle(v[0], v[1], v[2], v[3], 1, v[4], v[5], r, unit);
            hits += entry >= 0 ? 1 : 0;
            for (int e : new int[] {-900, -300, 260, 300, 900}) {
                double k = Math.scalb(1.0, e);
                String what = java.util.Arrays.toString(v) + " at 2^" + e;
                assertEquals(entry, Intersect2.intersectSegmentCircle(k * v[0], k * v[1], k * v[2], k * v[3], 1,
                        k * v[4], k * v[5], k * r, scaled), what);
                assertEquals(unit.exitFraction, scaled.exitFraction, what);
                // the translation alone scaled, and the largest fraction with it inversely: fractions scale exactly
                double kd = Math.scalb(1.0, e / 3);
                double moved = Intersect2.intersectSegmentCircle(v[0], v[1], kd * v[2], kd * v[3], 1 / kd, v[4], v[5],
                        r, scaled);
                assertEquals(entry < 0 ? entry : entry / kd, moved, what + " (translation only)");
            }
        }
        assertTrue(hits > 2000 && hits < 18_000, "hits " + hits);
        // the reported case: a circle of radius 1e100 crossed from outside
        double k = 1e100;
        assertEquals(0.35566243270259357, Intersect2.intersectSegmentCircle(-3 * k, 0.5 * k, 6 * k, 0, 1, 0, 0, k,
                through), 1e-15);
        assertEquals(0.6443375672974064, through.exitFraction, 1e-15);
    }

    @Test
    void shouldCastThroughCirclesAsTheirLimits() {
        // zero radius: the segment through the centre touches it
        assertEquals(0.5, Intersect2.intersectSegmentCircle(-1, 0, 2, 0, 1, 0, 0, 0, through));
        assertEquals(0.5, through.exitFraction);
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentCircle(-1, 1e-9, 2, 0, 1, 0, 0, 0, through));
        // zero-length segment: a point test at fraction 0, inside for the whole cast
        assertEquals(0.0, Intersect2.intersectSegmentCircle(0.5, 0.5, 0, 0, 1, 0, 0, 1, through));
        assertEquals(1.0, through.exitFraction);
        assertEquals(0.0, Intersect2.intersectSegmentCircle(0.5, 0.5, 1, 0, 0, 0, 0, 1, through));
        assertEquals(0.0, through.exitFraction);
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentCircle(1, 1, 0, 0, 1, 0, 0, 1, through));
        // start on the rim, moving out: touches at 0
        assertEquals(0.0, Intersect2.intersectSegmentCircle(1, 0, 1, 0, 1, 0, 0, 1, through));
        assertEquals(0.0, through.exitFraction);
    }

    @Test
    void shouldCastThroughACircleFarFromTheOrigin() {
        // a long cast (length 2e6) from near one far point to the circle: cancellation would lose every digit
        double cx = FAR + 0.25;
        double cy = -FAR;
        assertEquals(0.5 - 0.5e-6, Intersect2.intersectSegmentCircle(cx - 1e6, cy, 2e6, 0, 1, cx, cy, 1, through),
                1e-15);
        assertEquals(0.5 + 0.5e-6, through.exitFraction, 1e-15);
        assertEquals(cx - 1, through.entryX, 1e-8);
        assertEquals(cy, through.entryY);
    }

    @Test
    void shouldEnterAndLeaveARectangleThroughItsSides() {
        assertEquals(1.0 / 3, Intersect2.intersectSegmentRect(-1, 0.5, 3, 0, 1, 0, 0, 1, 1, through), 1e-16);
        assertEquals(2.0 / 3, through.exitFraction, 1e-16);
        assertEquals(0.0, through.entryX); // on the side, exactly
        assertEquals(0.5, through.entryY);
        assertEquals(1.0, through.exitX);
        // start inside, end inside
        assertEquals(0.0, Intersect2.intersectSegmentRect(0.5, 0.5, 3, 0, 0.1, 0, 0, 1, 1, through));
        assertEquals(0.1, through.exitFraction);
        assertEquals(0.5, through.entryX);
        // through two corners, and grazing the top side
        assertEquals(0.5, Intersect2.intersectSegmentRect(-1, 2, 2, -2, 1, 0, 0, 1, 1, through));
        assertEquals(1.0, through.exitFraction);
        assertEquals(1.0 / 3, Intersect2.intersectSegmentRect(-1, 1, 3, 0, 1, 0, 0, 1, 1, through), 1e-16);
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentRect(-1, Math.nextUp(1.0), 3, 0, 1, 0, 0, 1, 1,
                through));
        // touching a corner only
        assertEquals(0.5, Intersect2.intersectSegmentRect(-1, 0, 2, 2, 1, 0, 0, 1, 1, through));
        assertEquals(0.5, through.exitFraction);
        // stopping short, moving away
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentRect(-1, 0.5, 3, 0, 0.3, 0, 0, 1, 1, through));
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentRect(-1, 0.5, -3, 0, 1, 0, 0, 1, 1, through));
    }

    @Test
    void shouldCastThroughDegenerateRectanglesAndFromPoints() {
        assertEquals(0.5, Intersect2.intersectSegmentRect(0, -1, 0, 2, 1, -1, 0, 1, 0, through)); // flat
        assertEquals(0.5, through.exitFraction);
        assertEquals(0.5, Intersect2.intersectSegmentRect(0, -1, 0, 2, 1, 0, 0, 0, 0, through)); // point
        // d = 0: a point, inside for the whole cast
        assertEquals(0.0, Intersect2.intersectSegmentRect(0.5, 0.5, 0, 0, 1, 0, 0, 1, 1, through));
        assertEquals(1.0, through.exitFraction);
        assertEquals(Geom.NO_HIT, Intersect2.intersectSegmentRect(2, 0.5, 0, 0, 1, 0, 0, 1, 1, through));
        assertEquals(0.0, Intersect2.intersectSegmentRect(0.5, 0.5, 1, 1, 0, 0, 0, 1, 1, through)); // max 0
    }

    @Test
    void shouldCastThroughARectangleFarFromTheOrigin() {
        assertEquals(0.25, Intersect2.intersectSegmentRect(FAR - 1, -FAR + 0.5, 4, 0, 1,
                FAR, -FAR, FAR + 1, -FAR + 1, through));
        assertEquals(0.5, through.exitFraction);
        assertEquals(FAR, through.entryX);
        assertEquals(-FAR + 0.5, through.entryY);
        assertEquals(FAR + 1, through.exitX);
    }
}
