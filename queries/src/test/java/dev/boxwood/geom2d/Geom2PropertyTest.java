package dev.boxwood.geom2d;

import static dev.boxwood.geom2d.Exact2.big;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.geom2d.CaseGenerator.Scale;
import java.math.BigDecimal;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Properties on seeded random cases, near-boundary ones included: symmetric tests are symmetric and triangle tests
 * do not depend on the winding or the first vertex, bit for bit; the circle-rectangle push-out leaves the circle
 * touching the rectangle, and is the smallest such translation.
 */
class Geom2PropertyTest {

    private static final int CASES = 2000;
    private static final double UNIT_ROUNDOFF = 0x1p-53;

    /** The six orders of three vertices: three rotations of each winding. */
    private static final int[][] ORDERS = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

    private static double[] reorder(double[] t, int[] order) {
        return new double[] {t[2 * order[0]], t[2 * order[0] + 1], t[2 * order[1]], t[2 * order[1] + 1],
            t[2 * order[2]], t[2 * order[2] + 1]};
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldGiveSymmetricAnswersForSymmetricTests(Scale scale) {
        CaseGenerator g = new CaseGenerator(21, scale);
        int overlaps = 0;
        for (int i = 0; i < CASES; i++) {
            g.next();
            double[] a = g.circle();
            double[] b = g.circle();
            assertEquals(Intersect2.testCircleCircle(a[0], a[1], a[2], b[0], b[1], b[2]),
                    Intersect2.testCircleCircle(b[0], b[1], b[2], a[0], a[1], a[2]));
            double[] r = g.rect();
            double[] s = g.rect();
            assertEquals(Intersect2.testRectRect(r[0], r[1], r[2], r[3], s[0], s[1], s[2], s[3]),
                    Intersect2.testRectRect(s[0], s[1], s[2], s[3], r[0], r[1], r[2], r[3]));
            double[] t = g.triangle();
            double[] u = g.triangle();
            boolean forward = Intersect2.testTriangleTriangle(t[0], t[1], t[2], t[3], t[4], t[5],
                    u[0], u[1], u[2], u[3], u[4], u[5]);
            assertEquals(forward, Intersect2.testTriangleTriangle(u[0], u[1], u[2], u[3], u[4], u[5],
                    t[0], t[1], t[2], t[3], t[4], t[5]), Arrays.toString(t) + Arrays.toString(u));
            overlaps += forward ? 1 : 0;
        }
        assertTrue(overlaps > CASES / 20 && overlaps < CASES - CASES / 20, "overlaps: " + overlaps);
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldNotDependOnWindingOrFirstVertex(Scale scale) {
        CaseGenerator g = new CaseGenerator(22, scale);
        Vector2 q = new Vector2();
        for (int i = 0; i < CASES; i++) {
            g.next();
            double[] t = g.triangle();
            double[] u = g.triangle();
            double px = g.x();
            double py = g.y();
            double r = g.size();
            boolean inside = Intersect2.testPointTriangle(px, py, t[0], t[1], t[2], t[3], t[4], t[5]);
            boolean circle = Intersect2.testCircleTriangle(px, py, r, t[0], t[1], t[2], t[3], t[4], t[5]);
            boolean pair = Intersect2.testTriangleTriangle(t[0], t[1], t[2], t[3], t[4], t[5],
                    u[0], u[1], u[2], u[3], u[4], u[5]);
            double d2 = Closest2.closestPointTriangle(px, py, t[0], t[1], t[2], t[3], t[4], t[5], q);
            for (int[] order : ORDERS) {
                double[] v = reorder(t, order);
                double[] w = reorder(u, ORDERS[(i + order[0]) % ORDERS.length]);
                String what = Arrays.toString(v) + " " + px + ", " + py + ", " + r;
                assertEquals(inside, Intersect2.testPointTriangle(px, py, v[0], v[1], v[2], v[3], v[4], v[5]), what);
                assertEquals(circle, Intersect2.testCircleTriangle(px, py, r, v[0], v[1], v[2], v[3], v[4], v[5]),
                        what);
                assertEquals(pair, Intersect2.testTriangleTriangle(v[0], v[1], v[2], v[3], v[4], v[5],
                        w[0], w[1], w[2], w[3], w[4], w[5]), what + Arrays.toString(w));
                assertEquals(d2, Closest2.closestPointTriangle(px, py, v[0], v[1], v[2], v[3], v[4], v[5], q),
                        what);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldPushACircleOutOfARectangleUntilItJustTouches(Scale scale) {
        CaseGenerator g = new CaseGenerator(23, scale);
        Vector2 push = new Vector2();
        int pushed = 0;
        int centreInside = 0;
        for (int i = 0; i < CASES; i++) {
            g.next();
            double cx = g.x();
            double cy = g.y();
            double cr = g.size();
            double[] b = g.rect();
            String what = cx + ", " + cy + ", " + cr + " " + Arrays.toString(b);
            boolean overlapping = Intersect2.testCircleRect(cx, cy, cr, b[0], b[1], b[2], b[3]);
            assertEquals(overlapping, Response2.pushOutCircleRect(cx, cy, cr, b[0], b[1], b[2], b[3], push), what);
            if (!overlapping) {
                assertEquals(0.0, push.x, what);
                assertEquals(0.0, push.y, what);
                continue;
            }
            pushed++;
            // the exact signed distance from the centre to the boundary: the push must be the exact depth r - s
            double before = Exact2.signedDistanceToRect(cx, cy, b[0], b[1], b[2], b[3]);
            centreInside += before < 0 ? 1 : 0;
            double tolerance = 8 * UNIT_ROUNDOFF * g.magnitude();
            assertEquals(Math.max(cr - before, 0), Math.hypot(push.x, push.y), tolerance, what);
            // after the push the circle touches: the moved centre is r from the rectangle, in exact arithmetic
            double movedX = cx + push.x;
            double movedY = cy + push.y;
            BigDecimal d2 = Exact2.squaredDistanceToRect(movedX, movedY, b[0], b[1], b[2], b[3]);
            assertEquals(cr, Math.sqrt(d2.doubleValue()), tolerance, what);
            assertTrue(Exact2.signedDistanceToRect(movedX, movedY, b[0], b[1], b[2], b[3]) >= cr - tolerance, what);
            assertTrue(big(movedX).subtract(big(cx)).abs().doubleValue() <= Math.abs(push.x) + tolerance, what);
        }
        assertTrue(pushed > CASES / 10 && centreInside > CASES / 50, pushed + " pushed, " + centreInside + " inside");
    }

    @Test
    void shouldPushACircleOutAlikeAtEveryScale() {
        // the same push at 2^e scales exactly; squares of the offset and the radius once overflowed above about
        // 1e154 (a NaN push, or a circle farther than its radius pushed) and underflowed below about 1e-162 (a
        // centre just outside pushed out through a side)
        Vector2 unit = new Vector2();
        Vector2 scaled = new Vector2();
        java.util.SplittableRandom random = new java.util.SplittableRandom(0x9054);
        int pushed = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] v = new double[7];
            for (int j = 0; j < 7; j++) {
                v[j] = random.nextInt(-8, 9) * 0.25;
            }
            double r = Math.abs(v[2]);
            double minX = Math.min(v[3], v[5]);
            double minY = Math.min(v[4], v[6]);
            double maxX = Math.max(v[3], v[5]);
            double maxY = Math.max(v[4], v[6]);
            boolean overlapping = Response2.pushOutCircleRect(v[0], v[1], r, minX, minY, maxX, maxY, unit);
            pushed += overlapping ? 1 : 0;
            for (int e : new int[] {-900, -600, -300, 300, 600, 900}) {
                double k = Math.scalb(1.0, e);
                String what = Arrays.toString(v) + " at 2^" + e;
                assertEquals(overlapping, Response2.pushOutCircleRect(k * v[0], k * v[1], k * r, k * minX, k * minY,
                        k * maxX, k * maxY, scaled), what);
                assertEquals(k * unit.x, scaled.x, what);
                assertEquals(k * unit.y, scaled.y, what);
            }
        }
        assertTrue(pushed > 2000 && pushed < 18_000, "pushed " + pushed);
        // the reported case: a circle of radius 1e200 overlapping a rectangle 1e160 away
        Vector2 push = new Vector2();
        assertTrue(Response2.pushOutCircleRect(0, 0, 1e200, 1e160, 0, 2e160, 1, push));
        assertEquals(-1e200, push.x, 1e185);
        assertEquals(0.0, push.y);
    }
}
