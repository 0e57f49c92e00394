package dev.boxwood.geom2d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SurfaceHit;
import org.junit.jupiter.api.Test;

/**
 * Hit points and normals in the plane ({@code Intersect2.surface...}): they agree with the 2D casts' entry points
 * and sides, lie in the plane, and follow the conventions of the 3D kernel (starts inside and on the boundary,
 * degenerate targets).
 */
class Surface2Test {

    private final SurfaceHit hit = new SurfaceHit();
    private final SegmentHit2 cast = new SegmentHit2();
    private final Hit2 edge = new Hit2();

    @Test
    void shouldPutRectangleHitsOnTheEnteredSide() {
        SplittableRandom random = new SplittableRandom(0x2D);
        int checked = 0;
        for (int i = 0; i < 20_000; i++) {
            double base = i % 3 == 0 ? 1e6 : 0;
            double minX = base + random.nextDouble(-5, 5);
            double minY = base + random.nextDouble(-5, 5);
            double maxX = minX + (i % 9 == 0 ? 0 : random.nextDouble(0, 4));
            double maxY = minY + random.nextDouble(0, 4);
            double ox = base + random.nextDouble(-15, 15);
            double oy = base + random.nextDouble(-15, 15);
            double dx = (random.nextDouble(minX - 1, maxX + 1) - ox) * 1.5;
            double dy = (random.nextDouble(minY - 1, maxY + 1) - oy) * 1.5;
            double t = Intersect2.intersectSegmentRect(ox, oy, dx, dy, 1, minX, minY, maxX, maxY, cast);
            if (!(t > 0)) {
                continue;
            }
            checked++;
            assertTrue(Intersect2.surfaceSegmentRect(ox, oy, dx, dy, t, minX, minY, maxX, maxY, hit));
            assertFalse(hit.startInside);
            assertEquals(0.0, hit.z);
            assertEquals(0.0, hit.normalZ);
            assertEquals(1.0, Math.abs(hit.normalX) + Math.abs(hit.normalY), hit.toString());
            // the side: the cast's entry point lies on it exactly (its coordinate across the side is the side's)
            if (hit.normalX != 0) {
                double side = hit.normalX < 0 ? minX : maxX;
                assertEquals(side, hit.x, hit.toString());
                assertTrue(dx * hit.normalX < 0, "the side faces the start: " + hit);
                assertEquals(cast.entryX, hit.x, 1e-9 * (1 + Math.abs(base)));
            } else {
                double side = hit.normalY < 0 ? minY : maxY;
                assertEquals(side, hit.y, hit.toString());
                assertTrue(dy * hit.normalY < 0, "the side faces the start: " + hit);
                assertEquals(cast.entryY, hit.y, 1e-9 * (1 + Math.abs(base)));
            }
            assertTrue(hit.x >= minX && hit.x <= maxX && hit.y >= minY && hit.y <= maxY, hit.toString());
        }
        assertTrue(checked > 8_000, checked + " checked");
        // a start inside; on a side; on a corner, the side most against the translation
        Intersect2.surfaceSegmentRect(0.5, 0.5, 3, 4, 0, 0, 0, 1, 1, hit);
        assertTrue(hit.startInside);
        assertNormal(-0.6, -0.8);
        Intersect2.surfaceSegmentRect(1, 0.5, -1, 0, 0, 0, 0, 1, 1, hit);
        assertFalse(hit.startInside);
        assertNormal(1, 0);
        Intersect2.surfaceSegmentRect(1, 1, -1, -3, 0, 0, 0, 1, 1, hit);
        assertNormal(0, 1);
        // a zero-height rectangle (a segment) met from below: the low side
        double t = Intersect2.intersectSegmentRect(0.5, -1, 0, 2, 1, 0, 0, 1, 0, cast);
        Intersect2.surfaceSegmentRect(0.5, -1, 0, 2, t, 0, 0, 1, 0, hit);
        assertNormal(0, -1);
    }

    @Test
    void shouldPointCircleNormalsFromTheCentre() {
        SplittableRandom random = new SplittableRandom(0xC1);
        int checked = 0;
        for (int i = 0; i < 20_000; i++) {
            double cx = random.nextDouble(-5, 5);
            double cy = random.nextDouble(-5, 5);
            double r = random.nextDouble(0.1, 3);
            double ox = random.nextDouble(-15, 15);
            double oy = random.nextDouble(-15, 15);
            double dx = (cx + random.nextDouble(-r, r) - ox) * 1.5;
            double dy = (cy + random.nextDouble(-r, r) - oy) * 1.5;
            double t = Intersect2.intersectSegmentCircle(ox, oy, dx, dy, 1, cx, cy, r, cast);
            if (!(t > 0)) {
                continue;
            }
            checked++;
            Intersect2.surfaceSegmentCircle(ox, oy, dx, dy, t, cx, cy, r, hit);
            assertEquals(cast.entryX, hit.x, 1e-12);
            assertEquals(cast.entryY, hit.y, 1e-12);
            double length = Math.hypot(hit.x - cx, hit.y - cy);
            assertEquals(r, length, 1e-9);
            assertEquals((hit.x - cx) / length, hit.normalX, 1e-9);
            assertEquals((hit.y - cy) / length, hit.normalY, 1e-9);
            assertEquals(0.0, hit.normalZ);
        }
        assertTrue(checked > 8_000, checked + " checked");
        Intersect2.surfaceSegmentCircle(0.5, 0, 0, 2, 0, 0, 0, 1, hit);
        assertTrue(hit.startInside);
        assertNormal(0, -1);
    }

    @Test
    void shouldFaceEdgeNormalsTowardTheStart() {
        SplittableRandom random = new SplittableRandom(0xED);
        int checked = 0;
        for (int i = 0; i < 20_000; i++) {
            double base = i % 2 == 0 ? 1e7 : 0;
            double ax = base + random.nextDouble(-5, 5);
            double ay = base + random.nextDouble(-5, 5);
            double bx = base + random.nextDouble(-5, 5);
            double by = base + random.nextDouble(-5, 5);
            double ox = base + random.nextDouble(-15, 15);
            double oy = base + random.nextDouble(-15, 15);
            double s = random.nextDouble();
            double dx = (ax + s * (bx - ax) - ox) * 1.5;
            double dy = (ay + s * (by - ay) - oy) * 1.5;
            double t = Intersect2.intersectSegmentSegment(ox, oy, dx, dy, 1, ax, ay, bx, by, edge);
            if (!(t > 0)) {
                continue;
            }
            checked++;
            Intersect2.surfaceSegmentSegment(ox, oy, dx, dy, t, ax, ay, bx, by, hit);
            assertEquals(edge.x, hit.x, 1e-9 * (1 + base));
            assertEquals(edge.y, hit.y, 1e-9 * (1 + base));
            double ex = bx - ax;
            double ey = by - ay;
            double length = Math.hypot(ex, ey);
            assertEquals(0, (hit.normalX * ex + hit.normalY * ey) / length, 1e-12, "perpendicular: " + hit);
            assertEquals(1, Math.hypot(hit.normalX, hit.normalY), 1e-15);
            assertTrue(hit.normalX * dx + hit.normalY * dy < 0, "faces the start: " + hit);
            assertEquals(0.0, hit.normalZ);
        }
        assertTrue(checked > 8_000, checked + " checked");
        // a zero-length cast on the edge: its right-hand side; a point target: the reversed translation
        Intersect2.surfaceSegmentSegment(0.5, 0, 0, 0, 0, 0, 0, 1, 0, hit);
        assertNormal(0, -1);
        Intersect2.surfaceSegmentSegment(-1, 2, 3, -4, 0.5, 0.5, 0, 0.5, 0, hit);
        assertNormal(-0.6, 0.8);
        assertFalse(Intersect2.surfaceSegmentSegment(0, 0, 1, 0, Geom.NO_HIT, 0, 0, 1, 0, hit));
        assertFalse(hit.hit);
    }

    private void assertNormal(double x, double y) {
        assertEquals(x, hit.normalX, 1e-15, hit.toString());
        assertEquals(y, hit.normalY, 1e-15, hit.toString());
        assertEquals(0.0, hit.normalZ, hit.toString());
    }
}
