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
