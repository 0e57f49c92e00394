package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ValueTypesTest {

    private static void assertRejects(String argument, Executable construction) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, construction);
        assertTrue(e.getMessage().contains(argument), "message names " + argument + ": " + e.getMessage());
    }

    @Test
    void shouldRejectBadBoxes() {
        assertRejects("minX", () -> new Aabb(Double.NaN, 0, 0, 1, 1, 1));
        assertRejects("maxY", () -> new Aabb(0, 0, 0, 1, Double.POSITIVE_INFINITY, 1));
        assertRejects("minZ", () -> new Aabb(0, 0, 2, 1, 1, 1));
        assertEquals(1.0, new Aabb(0, 0, 1, 1, 1, 1).minZ(), "flat box is valid");
    }

    @Test
    void shouldDelegateFromTheValueTypesToTheKernels() {
        Aabb box = new Aabb(0, 0, 0, 1, 1, 1);
        assertTrue(box.overlaps(new Aabb(1, 1, 1, 2, 2, 2)));
        assertTrue(!box.overlaps(new Aabb(1.5, 1, 1, 2, 2, 2)));
        assertEquals(0.5, box.intersectSegment(-2, 0.5, 0.5, 4, 0, 0, 1));
        Sphere sphere = new Sphere(-1, 0.5, 0.5, 1);
        assertTrue(sphere.overlaps(box));
        assertTrue(!new Sphere(-1, 0.5, 0.5, Math.nextDown(1.0)).overlaps(box));
        assertTrue(sphere.overlaps(new Sphere(1, 0.5, 0.5, 1)));
        assertEquals(Geom.INSIDE, new Plane(0, 0, 1, 1).classify(box));
        assertEquals(Geom.OUTSIDE, new Plane(0, 0, -1, -2).classify(box));
        Obb obb = Obb.of(box);
        assertTrue(obb.overlaps(Obb.of(new Aabb(1, 0, 0, 2, 1, 1))));
        assertEquals(box.minX(), obb.get(ObbLayout.CENTRE) - obb.get(ObbLayout.HALF_EXTENTS));
    }

    @Test
    void shouldRejectBadSegmentsOnTheValueTypes() {
        Aabb box = new Aabb(0, 0, 0, 1, 1, 1);
        assertRejects("dx", () -> box.intersectSegment(5, 5, 5, Double.NaN, 0, 0, 1));
        assertRejects("oy", () -> box.intersectSegment(0, Double.POSITIVE_INFINITY, 0, 1, 0, 0, 1));
        assertRejects("maxFraction", () -> box.intersectSegment(0, 0, 0, 1, 0, 0, -1));
        Frustum slab = new Frustum(new Plane(1, 0, 0, 1), new Plane(-1, 0, 0, 1));
        assertRejects("ox", () -> slab.intersectSegment(Double.NaN, 5, 5, 1, 0, 0, 1));
        assertRejects("maxFraction", () -> slab.intersectSegment(0, 0, 0, 1, 0, 0, Double.NaN));
        assertEquals(0.25, slab.intersectSegment(-2, 0, 0, 4, 0, 0, 1));
    }

    @Test
    void shouldCompareSpheresNearTheDoubleRange() {
        double max = Double.MAX_VALUE;
        // centres 2 * 1.7e308 apart on each axis, radii 1e308 each: far apart, though the difference overflows
        assertTrue(!new Sphere(-max, -max, -max, 1e308).overlaps(new Sphere(max, max, max, 1e308)));
        // radii whose sum overflows, centres at the ends of the range: they reach each other
        assertTrue(new Sphere(-max, 0, 0, max).overlaps(new Sphere(max, 0, 0, max)));
        assertTrue(!new Sphere(-max, 0, 0, 0.5 * max).overlaps(new Sphere(max, 0, 0, 0.5 * max)));
        assertRejects("beyond the double range", () -> Obb.of(new Aabb(-max, -1, -1, max, 1, 1)).enclosingAabb()
                .minX());
    }

    @Test
    void shouldRejectBadSpheres() {
        assertRejects("radius", () -> new Sphere(0, 0, 0, -1));
        assertRejects("radius", () -> new Sphere(0, 0, 0, Double.NaN));
        assertRejects("y", () -> new Sphere(0, Double.NEGATIVE_INFINITY, 0, 1));
        assertEquals(0.0, new Sphere(0, 0, 0, 0).radius(), "point sphere is valid");
    }

    @Test
    void shouldRejectBadPlanesAndNormalizeGoodOnes() {
        assertRejects("normal", () -> new Plane(0, 0, 0, 1));
        assertRejects("normal", () -> new Plane(Double.NaN, 0, 1, 1));
        assertRejects("d", () -> new Plane(0, 0, 1, Double.NaN));
        assertRejects("px", () -> Plane.throughPoint(Double.NaN, 0, 0, 0, 0, 1));
        Plane p = new Plane(0, 0, 2, 4);
        assertEquals(1.0, p.nz());
        assertEquals(2.0, p.d());
        Plane q = Plane.throughPoint(5, 5, 3, 0, 0, -7);
        assertEquals(-1.0, q.nz());
        assertEquals(-3.0, q.d());
        assertEquals(1.0, q.distance(0, 0, 2), "z = 2 is outside of z >= 3");
        // tiny and huge normals are non-zero: their squares must not underflow to 0 or overflow to infinity
        for (double scale : new double[] {1e-200, 1e-310, 1e200, Double.MAX_VALUE}) {
            Plane r = new Plane(0, scale, 0, 3 * Math.min(scale, 1));
            assertEquals(1.0, r.ny(), "normal of length " + scale);
            assertEquals(3 * Math.min(scale, 1) / scale, r.d(), "d of length " + scale);
            Plane t = new Plane(scale, scale, 0, 0);
            assertEquals(Math.sqrt(0.5), t.nx(), 1e-15);
            assertEquals(t.nx(), t.ny());
            assertEquals(1.0, Plane.throughPoint(0, 0, 7, 0, 0, scale).nz());
        }
        assertRejects("d", () -> new Plane(1e-200, 0, 0, 1e200));
    }

    @Test
    void shouldNormalizeVectorsWithoutUnderflowOrOverflow() {
        double[][] cases = {{3e-200, 0, -4e-200, 1e-200}, {0, -3e200, 4e200, 5e200}, {Double.MAX_VALUE,
            Double.MAX_VALUE, 0, 1}, {0, 0, -Double.MIN_VALUE, Double.MIN_VALUE}, {1, 1, 1, 0}};
        double[][] expected = {{0.6, 0, -0.8, 0.2}, {0, -0.6, 0.8, 1}, {Math.sqrt(0.5), Math.sqrt(0.5), 0, 0},
            {0, 0, -1, 1}, {1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3), 0}};
        for (int c = 0; c < cases.length; c++) {
            double[] v = cases[c].clone();
            assertTrue(Geom.normalize(v, 0, 4));
            for (int k = 0; k < 4; k++) {
                assertEquals(expected[c][k], v[k], 1e-15, "case " + c + ", entry " + k);
            }
        }
        double[] zero = {0, -0.0, 0, 7};
        assertTrue(!Geom.normalize(zero, 0, 4));
        assertEquals(7.0, zero[3], "unchanged");
    }

    @Test
    void shouldRejectBadFrustums() {
        assertRejects("planes", Frustum::new);
        assertRejects("planes[1]", () -> new Frustum(new Plane(1, 0, 0, 1), null));
        assertRejects("planes", () -> new Frustum(new Plane[FrustumAabb.MAX_PLANES + 1]));
        Frustum f = new Frustum(new Plane(1, 0, 0, 1), new Plane(-1, 0, 0, 1));
        assertEquals(Geom.CROSSING, f.classify(new Aabb(0, 0, 0, 2, 1, 1)));
        assertEquals(0.25, f.intersectSegment(-2, 0, 0, 4, 0, 0, 1));
    }

    @Test
    void shouldRejectBadObbs() {
        assertRejects("cx", () -> new Obb(Double.NaN, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1));
        assertRejects("axis1y", () -> new Obb(0, 0, 0, 1, 0, 0, 0, Double.NaN, 0, 0, 0, 1, 1, 1, 1));
        assertRejects("half2", () -> new Obb(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, -1));
        assertRejects("axis0", () -> new Obb(0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1));
        assertRejects("axis1 and axis2", () -> new Obb(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0.1, 1, 1, 1, 1));
        // within the tolerance: accepted and re-orthonormalized
        Obb o = new Obb(0, 0, 0, 1, 1e-7, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1);
        double dot = o.get(ObbLayout.AXES) * o.get(ObbLayout.AXES + 3) + o.get(ObbLayout.AXES + 1)
                * o.get(ObbLayout.AXES + 4) + o.get(ObbLayout.AXES + 2) * o.get(ObbLayout.AXES + 5);
        assertEquals(0.0, dot, 1e-16);
        assertTrue(o.overlaps(new Aabb(0.5, 0.5, 0.5, 2, 2, 2)));
        assertTrue(!o.overlaps(new Aabb(1.5, 0, 0, 2, 2, 2)));
        double[] layout = new double[ObbLayout.STRIDE + 2];
        o.writeTo(layout, 2);
        assertEquals(o.get(ObbLayout.AXES + 4), Obb.read(layout, 2).get(ObbLayout.AXES + 4));
        layout[2 + ObbLayout.HALF_EXTENTS] = -1;
        assertRejects("half0", () -> Obb.read(layout, 2));
        Aabb enclosing = o.enclosingAabb();
        assertTrue(enclosing.minX() <= -1 && enclosing.maxX() >= 1);
    }
}
