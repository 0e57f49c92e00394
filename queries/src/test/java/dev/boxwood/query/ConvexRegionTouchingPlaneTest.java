package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.boxwood.geom.FrustumAabb;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Closed regions: a box touching a plane as the caller gave it is never culled, although the region's normalized
 * planes round {@code n} and {@code d} apart and can move the plane across the point of contact (for
 * {@code 3x + 4y <= d}, dividing by 5 rounds {@code d / 5} for most integers {@code d}); nor in a frame whose
 * origin is elsewhere, where moving the plane rounds {@code d - n · origin}.
 */
class ConvexRegionTouchingPlaneTest {

    private static final int CULLED = FrustumAabb.CULLED;

    @Test
    void boxesTouchingAGivenPlaneFromOutsideAreNotCulled() {
        SplittableRandom random = new SplittableRandom(17);
        int touching = 0;
        for (int trial = 0; trial < 2000; trial++) {
            // an integer normal of any length (not unit), and an integer d
            int a = 1 + random.nextInt(9);
            int b = 1 + random.nextInt(9);
            int c = random.nextInt(5);
            int d = random.nextInt(-500, 500);
            ConvexRegion region = new ConvexRegion(new double[] {a, b, c, d}, 1);
            // integer corners on the plane: a x + b y + c z = d with x, z chosen and y solved where it is whole
            int x = random.nextInt(-60, 60);
            int z = random.nextInt(-10, 10);
            int rest = d - a * x - c * z;
            if (rest % b != 0) {
                continue;
            }
            int y = rest / b;
            touching++;
            // the box's nearest corner on the plane, the rest of it outside: touching counts
            assertNotEquals(CULLED, region.cull(region.allPlanes(), x, y, z, x + 1, y + 1, z + 1),
                    () -> a + "x + " + b + "y + " + c + "z <= " + d + ", box from " + x + ", " + y + ", " + z);
            // the box's farthest corner on the plane, the rest inside: inside the closed region, crossing nothing
            assertEquals(0, region.cull(region.allPlanes(), x - 1, y - 1, z - 1, x, y, z),
                    () -> a + "x + " + b + "y + " + c + "z <= " + d + ", box to " + x + ", " + y + ", " + z);
        }
        assertEquals(true, touching > 200, "touching cases: " + touching);
    }

    @Test
    void aBoxTouchingAVertexOfADiamondIsKept() {
        // |x - 18.5| + |y - 17.5| <= 6.5, 1 <= z <= 5: normals of length sqrt 2; the box touches the vertex (18.5, 11)
        double cx = 18.5;
        double cy = 17.5;
        double r = 6.5;
        ConvexRegion diamond = new ConvexRegion(new double[] {
            1, 1, 0, cx + cy + r, 1, -1, 0, cx - cy + r, -1, 1, 0, -cx + cy + r, -1, -1, 0, -cx - cy + r,
            0, 0, 1, 5, 0, 0, -1, -1}, 6);
        assertNotEquals(CULLED, diamond.cull(diamond.allPlanes(), 18.5, 10.5, 4.5, 19.5, 11.0, 6.0));
        assertEquals(true, diamond.testBox(18.5, 10.5, 4.5, 19.5, 11.0, 6.0));
    }

    @Test
    void boxesTouchingAPlaneInWorldCoordinatesAreNotCulledInAFrameElsewhere() {
        SplittableRandom random = new SplittableRandom(23);
        // origins with full mantissas: a o and b o round, while (a + b) o, a power of two times o, does not
        double[] origins = {12_345_678.123456789, -330_000.0123456789, 987_654.3210987, -7_700.987654321};
        int[][] normals = {{3, 1}, {1, 3}, {5, 3}, {3, 5}, {7, 1}, {1, 7}, {5, 11}, {13, 3}, {9, 7}};
        int touching = 0;
        for (int trial = 0; trial < 2000; trial++) {
            int[] normal = normals[random.nextInt(normals.length)];
            int a = normal[0];
            int b = normal[1];
            int d = random.nextInt(-500, 500);
            double o = origins[random.nextInt(origins.length)];
            // the plane a x + b y <= d around the local frame, given in world coordinates: a (X - o) + b (Y - o) <= d
            double worldD = d + (a + b) * o;
            if (new BigDecimal(worldD).subtract(new BigDecimal(o).multiply(BigDecimal.valueOf(a + b)))
                    .compareTo(BigDecimal.valueOf(d)) != 0) {
                continue; // the world plane is not exactly the local one moved: no exact contact to test
            }
            ConvexRegion local = new ConvexRegion(new double[] {a, b, 0, worldD}, 1).translated(o, o, 0);
            int x = random.nextInt(-60, 60);
            int rest = d - a * x;
            if (rest % b != 0) {
                continue;
            }
            int y = rest / b;
            touching++;
            assertNotEquals(CULLED, local.cull(local.allPlanes(), x, y, 0, x + 1, y + 1, 1),
                    () -> a + "x + " + b + "y <= " + d + " about " + o + ", box from " + x + ", " + y);
        }
        assertEquals(true, touching > 100, "touching cases: " + touching);
    }

    @Test
    void aSmallRegionFarFromZeroMovedToAnOriginBesideItKeepsTheBoxesAtItsCorners() {
        // a box 2^-10 on a side, rotated (edges along (3, 4, 0), (-4, 3, 0), (0, 0, 1)), with a corner at the
        // origin of a frame 1e7 from zero: its corners are exact doubles, and exact floats in the frame
        double g = 0x1p-10;
        double[] o = {1e7 + 0.375, 2e6 + 0.625, -1e6 + 0.125};
        int[][][] edgeSets = {{{3, 4, 0}, {-4, 3, 0}, {0, 0, 1}}, {{1, 2, 2}, {2, 1, -2}, {2, -2, 1}}};
        for (int[][] f : edgeSets) {
            double[] planes = new double[24];
            for (int e = 0; e < 3; e++) {
                double dot = 0;
                double square = 0;
                for (int c = 0; c < 3; c++) {
                    dot += f[e][c] * o[c];
                    square += f[e][c] * f[e][c];
                    planes[8 * e + c] = -f[e][c];
                    planes[8 * e + 4 + c] = f[e][c];
                }
                // 0 <= f . (x - o) <= |f|^2 g
                planes[8 * e + 3] = -dot;
                planes[8 * e + 7] = dot + square * g;
            }
            ConvexRegion local = new ConvexRegion(planes, 6).translated(o[0], o[1], o[2]);
            for (int corner = 0; corner < 8; corner++) {
                double[] p = new double[3];
                for (int c = 0; c < 3; c++) {
                    p[c] = g * ((corner & 1) * f[0][c] + ((corner >> 1) & 1) * f[1][c] + ((corner >> 2) & 1) * f[2][c]);
                }
                String what = "edges " + java.util.Arrays.deepToString(f) + ", corner " + corner;
                assertNotEquals(CULLED, local.cull(local.allPlanes(), p[0], p[1], p[2], p[0], p[1], p[2]), what);
                assertEquals(true, local.testBox(p[0], p[1], p[2], p[0], p[1], p[2]), what);
                assertEquals(true, local.containsBox(p[0], p[1], p[2], p[0], p[1], p[2]), what);
            }
        }
    }

    @Test
    void planesMovedIntoAFarFrameStayTightAndPlanesWithUnscalableNormalsStillCull() {
        // x - y <= 0 moved into a frame at (1e15, 1e15, 0): every step is exact, so the moved plane is x - y <= 0
        // to a few ulps of 0, not grown by the rounding bound of terms of 1e15
        ConvexRegion local = new ConvexRegion(new double[] {1, -1, 0, 0}, 1).translated(1e15, 1e15, 0);
        assertEquals(CULLED, local.cull(local.allPlanes(), 0.5, 0, 0, 0.5, 0, 0), "outside by 0.5");
        assertNotEquals(CULLED, local.cull(local.allPlanes(), 0, 0, 0, 0, 0, 0), "on the plane");
        // components 4e299 and 5e-9: not scalable exactly by one power of two; the plane must still cull
        ConvexRegion odd = new ConvexRegion(new double[] {4e299, 5e-9, 0, 0}, 1);
        assertEquals(CULLED, odd.cull(odd.allPlanes(), 1e10, 0, 0, 2e10, 1, 1));
        ConvexRegion oddLocal = odd.translated(1e9, 0, 0);
        assertEquals(CULLED, oddLocal.cull(oddLocal.allPlanes(), 1e10, 0, 0, 2e10, 1, 1));
        assertNotEquals(CULLED, oddLocal.cull(oddLocal.allPlanes(), -2e9, 0, 0, -1e9, 1, 1));
    }
}
