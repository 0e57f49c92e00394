package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link ConvexRegion#testBox}: accepted boxes are within the stated tolerance of the region, however shaped. */
class ConvexRegionBoxTest {

    /** The octahedron |x| + |y| + |z| <= 1. */
    private static ConvexRegion octahedron() {
        double[] planes = new double[32];
        int i = 0;
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                for (int sz = -1; sz <= 1; sz += 2) {
                    planes[i++] = sx;
                    planes[i++] = sy;
                    planes[i++] = sz;
                    planes[i++] = 1;
                }
            }
        }
        return new ConvexRegion(planes, 8);
    }

    @Test
    void shouldSeparateABoxLongAlongTheAxisAnEdgeAxisIsPerpendicularTo() {
        // the segment x = y = 0.5 + 1e-6 along z is 1.4e-6 from the octahedron on the axis (1, 1, 0), 900 times
        // the tolerance: the slack for the box's rounding once counted its length along z, which does not project
        ConvexRegion region = octahedron();
        double a = 0x1.0000218def417p-1;
        for (double half : new double[] {1, 1e6, 1e9, 0x1.2a05f2p33, 1e18, 1e300, Double.MAX_VALUE}) {
            assertFalse(region.testBox(a, a, -half, a, a, half), "half length " + half);
        }
        assertFalse(region.testBox(0.75, 0.75, -Double.MAX_VALUE, 0.75, 0.75, Double.MAX_VALUE));
        // the same boxes touching the region, and crossing it, stay in
        for (double half : new double[] {1, 1e9, 1e300, Double.MAX_VALUE}) {
            assertTrue(region.testBox(0.5, 0.5, -half, 0.5, 0.5, half), "touching, half length " + half);
            assertTrue(region.testBox(0.25, 0.25, -half, 0.25, 0.25, half), "crossing, half length " + half);
        }
    }

    @Test
    void shouldKeepTheVertexBoxAtTheApexOfANarrowWedge() {
        // z <= t x and -z <= t x force x >= 0 (a wedge of 2.4e-4 radians); planes 1, 3 and 4 meet at x = -2^-19,
        // outside plane 2 by 2^-31, under the planes' tolerance: taken for a vertex it stretched the vertex box to
        // x = -1.9e-6, 475 tolerances past the apex, and boxes there were accepted
        double t = 0x1p-13;
        ConvexRegion region = new ConvexRegion(new double[] {
            -t, 0, 1, 0, -t, 0, -1, 0, -t, 1, 0, 0, -t, -1, 0, 0x1p-31, 1, 0, 0, 1}, 5);
        assertEquals(6, region.vertexCount());
        for (double x : new double[] {-0x1p-20, -0x1p-21, -0x1p-23, -0x1p-25}) {
            assertFalse(region.testBox(x, -0x1p-10, -0x1p-10, x, 0x1p-10, 0x1p-10), "x = " + x);
        }
        // the apex itself and a box around it stay in
        assertTrue(region.testBox(0, 0, 0, 0, 0, 0));
        assertTrue(region.testBox(-0x1p-20, -0x1p-10, -0x1p-10, 0x1p-20, 0x1p-10, 0x1p-10));
    }
}
