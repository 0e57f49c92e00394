package dev.boxwood.geom2d;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class Closest2Test {

    private final Vector2 q = new Vector2();

    private void assertPoint(double x, double y, double tolerance) {
        assertEquals(x, q.x, tolerance, "x");
        assertEquals(y, q.y, tolerance, "y");
    }

    @Test
    void shouldProjectOntoTheSegmentAndClampToItsEnds() {
        assertEquals(4.0, Closest2.closestPointSegment(1, 2, 0, 0, 4, 0, q));
        assertPoint(1, 0, 0);
        assertEquals(1.0, Closest2.closestPointSegment(-1, 0, 0, 0, 4, 0, q));
        assertPoint(0, 0, 0);
        assertEquals(2.0, Closest2.closestPointSegment(5, 1, 0, 0, 4, 0, q));
        assertPoint(4, 0, 0);
    }

    @Test
    void shouldReturnEndpointsExactlyFarFromTheOrigin() {
        double ax = 1e7 + 0.1;
        double ay = -3e6 + 0.3;
        double bx = 1e7 + 7.7;
        double by = -3e6 - 2.9;
        Closest2.closestPointSegment(bx + 5, by - 1, ax, ay, bx, by, q); // beyond b
        assertPoint(bx, by, 0);
        Closest2.closestPointSegment(ax - 5, ay + 3, ax, ay, bx, by, q); // beyond a
        assertPoint(ax, ay, 0);
    }

    @Test
    void shouldTreatAZeroLengthSegmentAsAPoint() {
        assertEquals(25.0, Closest2.closestPointSegment(3, 4, 0, 0, 0, 0, q));
        assertPoint(0, 0, 0);
    }

    @Test
    void shouldReturnThePointInsideAndTheRimOutsideACircle() {
        assertEquals(0.0, Closest2.closestPointCircle(1, 1, 0, 0, 2, q));
        assertPoint(1, 1, 0);
        assertEquals(25.0, Closest2.closestPointCircle(6, 8, 0, 0, 5, q), 1e-12);
        assertPoint(3, 4, 1e-15);
        assertEquals(0.0, Closest2.closestPointCircle(3, 4, 0, 0, 5, q)); // on the rim
        assertPoint(3, 4, 0);
        Closest2.closestPointCircle(6, 8, 0, 0, 0, q); // zero radius: the centre
        assertPoint(0, 0, 0);
        Closest2.closestPointCircle(1e7 + 6, 1e7 + 8, 1e7, 1e7, 5, q);
        assertPoint(1e7 + 3, 1e7 + 4, 4e-9);
    }

    @Test
    void shouldFindTheSameClosestPointsAtEveryScale() {
        // the same query at 2^e: the point scales exactly; the products of two lengths once overflowed above about
        // 1e154 (a segment's parameter came out inf / inf, a NaN point; a point far outside a large circle read as
        // inside) and underflowed below about 1e-162 (a segment read as its endpoint a)
        Vector2 unit = new Vector2();
        java.util.SplittableRandom random = new java.util.SplittableRandom(0xC105E);
        for (int i = 0; i < 20_000; i++) {
            double[] v = new double[7];
            for (int j = 0; j < 7; j++) {
                v[j] = random.nextInt(-8, 9) * 0.25;
            }
            double r = Math.abs(v[6]);
            double segment = Closest2.closestPointSegment(v[0], v[1], v[2], v[3], v[4], v[5], unit);
            double ux = unit.x;
            double uy = unit.y;
            double circle = Closest2.closestPointCircle(v[0], v[1], v[2], v[3], r, unit);
            double cx = unit.x;
            double cy = unit.y;
            for (int e : new int[] {-900, -600, -300, 300, 600, 900}) {
                double k = Math.scalb(1.0, e);
                String what = java.util.Arrays.toString(v) + " at 2^" + e;
                double d2 = Closest2.closestPointSegment(k * v[0], k * v[1], k * v[2], k * v[3], k * v[4], k * v[5],
                        q);
                assertEquals(k * ux, q.x, what + " (segment)");
                assertEquals(k * uy, q.y, what + " (segment)");
                assertEquals(Math.scalb(segment, 2 * e), d2, Math.abs(Math.scalb(segment, 2 * e)) * 1e-15,
                        what + " (segment)");
                d2 = Closest2.closestPointCircle(k * v[0], k * v[1], k * v[2], k * v[3], k * r, q);
                assertEquals(k * cx, q.x, what + " (circle)");
                assertEquals(k * cy, q.y, what + " (circle)");
                assertEquals(Math.scalb(circle, 2 * e), d2, Math.abs(Math.scalb(circle, 2 * e)) * 1e-15,
                        what + " (circle)");
            }
        }
        // the reported cases: a point 1 above the middle of a segment 2e200 long (a NaN point), and one 2^510
        // (about 3e153) outside a circle of radius about 2^520 (inside, distance 0)
        assertEquals(1.0, Closest2.closestPointSegment(0, 1, -1e200, 0, 1e200, 0, q));
        assertPoint(0, 0, 0);
        double r = Math.scalb(1.0, 520) - Math.scalb(1.0, 510);
        assertEquals(Math.scalb(1.0, 1020), Closest2.closestPointCircle(Math.scalb(1.0, 520), 0, 0, 0, r, q));
        assertPoint(r, 0, 0);
    }

    @Test
    void shouldClampToTheRectangle() {
        assertEquals(0.0, Closest2.closestPointRect(0.5, 0.5, 0, 0, 1, 1, q));
        assertPoint(0.5, 0.5, 0);
        assertEquals(2.0, Closest2.closestPointRect(2, -1, 0, 0, 1, 1, q));
        assertPoint(1, 0, 0);
        assertEquals(9.0, Closest2.closestPointRect(0.5, 4, 0, 0, 1, 1, q));
        assertPoint(0.5, 1, 0);
        assertEquals(1.0, Closest2.closestPointRect(1, 1, 2, 1, 2, 1, q)); // point rectangle
        assertPoint(2, 1, 0);
    }

    @Test
    void shouldFindTheNearestFeatureOfATriangleInEitherWinding() {
        double[][] windings = {{0, 0, 4, 0, 0, 4}, {0, 0, 0, 4, 4, 0}};
        for (double[] t : windings) {
            // inside
            assertEquals(0.0, Closest2.closestPointTriangle(1, 1, t[0], t[1], t[2], t[3], t[4], t[5], q));
            assertPoint(1, 1, 0);
            // vertex region of (4, 0)
            assertEquals(2.0, Closest2.closestPointTriangle(5, -1, t[0], t[1], t[2], t[3], t[4], t[5], q));
            assertPoint(4, 0, 0);
            // edge region of the hypotenuse x + y = 4: (3, 3) projects to (2, 2)
            assertEquals(2.0, Closest2.closestPointTriangle(3, 3, t[0], t[1], t[2], t[3], t[4], t[5], q), 1e-15);
            assertPoint(2, 2, 1e-15);
            // edge region of the bottom edge
            assertEquals(4.0, Closest2.closestPointTriangle(2, -2, t[0], t[1], t[2], t[3], t[4], t[5], q));
            assertPoint(2, 0, 0);
        }
    }

    @Test
    void shouldTreatACollinearTriangleAsItsSegment() {
        // vertices on y = x, the hull is the segment (0, 0)-(4, 4)
        assertEquals(0.0, Closest2.closestPointTriangle(1, 1, 0, 0, 4, 4, 2, 2, q));
        assertPoint(1, 1, 0);
        assertEquals(2.0, Closest2.closestPointTriangle(2, 0, 0, 0, 4, 4, 2, 2, q), 1e-15);
        assertPoint(1, 1, 1e-15);
        assertEquals(2.0, Closest2.closestPointTriangle(5, 5, 0, 0, 4, 4, 2, 2, q));
        assertPoint(4, 4, 0);
        assertEquals(2.0, Closest2.closestPointTriangle(1, 1, 2, 2, 2, 2, 2, 2, q)); // a point
        assertPoint(2, 2, 0);
    }

    @Test
    void shouldGiveACollinearTriangleTheSamePointInEveryVertexOrder() {
        // two edges overlap and round their closest points differently: the point must not depend on the order
        int[][] orders = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
        java.util.SplittableRandom random = new java.util.SplittableRandom(17);
        for (int i = 0; i < 20000; i++) {
            double px = random.nextInt(-10, 11);
            double py = random.nextInt(-10, 11);
            double ax = random.nextInt(-10, 11);
            double ay = random.nextInt(-10, 11);
            double dx = random.nextInt(-5, 6);
            double dy = random.nextInt(-5, 6);
            double[] v = {ax, ay, ax + dx * random.nextInt(-3, 4), ay + dy * random.nextInt(-3, 4),
                ax + dx * random.nextInt(-3, 4), ay + dy * random.nextInt(-3, 4)};
            if (i == 0) {
                // the edges (3, -8)-(-6, -8) and (-6, -8)-(10, -8) give (1.9999999999999996, -8) and (2, -8)
                v = new double[] {3, -8, -6, -8, 10, -8};
                px = 2;
                py = -5;
            }
            double d2 = Closest2.closestPointTriangle(px, py, v[0], v[1], v[2], v[3], v[4], v[5], q);
            double x = q.x;
            double y = q.y;
            for (int[] o : orders) {
                double e2 = Closest2.closestPointTriangle(px, py, v[2 * o[0]], v[2 * o[0] + 1], v[2 * o[1]],
                        v[2 * o[1] + 1], v[2 * o[2]], v[2 * o[2] + 1], q);
                String what = java.util.Arrays.toString(v) + " p " + px + ", " + py + " order "
                        + java.util.Arrays.toString(o);
                assertEquals(d2, e2, what);
                assertEquals(x, q.x, what);
                assertEquals(y, q.y, what);
            }
        }
    }
}
