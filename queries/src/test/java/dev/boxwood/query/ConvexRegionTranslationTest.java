package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.geom.FrustumAabb;
import dev.boxwood.geom.Plane;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ConvexRegion#translated}: the same solid in a frame whose origin is elsewhere. */
class ConvexRegionTranslationTest {

    /** The cube [-1, 1]^3 around (cx, cy, cz) cut by the plane x + y + z <= cx + cy + cz + 1. */
    private static ConvexRegion cutCube(double cx, double cy, double cz) {
        double s = 1 / Math.sqrt(3);
        return new ConvexRegion(new double[] {
            1, 0, 0, cx + 1, -1, 0, 0, -cx + 1,
            0, 1, 0, cy + 1, 0, -1, 0, -cy + 1,
            0, 0, 1, cz + 1, 0, 0, -1, -cz + 1,
            s, s, s, s * (cx + cy + cz + 1)}, 7);
    }

    @Test
    void shouldKeepTheCopiesOfTheLastSixteenOrigins() {
        ConvexRegion world = cutCube(5, 5, 5);
        ConvexRegion[] copies = new ConvexRegion[17];
        for (int i = 0; i < 16; i++) {
            copies[i] = world.translated(i + 1, 0, 0);
        }
        for (int i = 0; i < 16; i++) {
            assertSame(copies[i], world.translated(i + 1, 0, 0), "origin " + (i + 1));
        }
        copies[16] = world.translated(100, 0, 0);
        assertSame(copies[16], world.translated(100, 0, 0));
        assertNotSame(copies[0], world.translated(1, 0, 0), "the oldest copy gives way to the seventeenth origin");
        for (int i = 2; i < 16; i++) {
            assertSame(copies[i], world.translated(i + 1, 0, 0), "origin " + (i + 1));
        }
    }

    @Test
    void shouldNormalizeTinyAndHugeNormalsLikeUnitOnes() {
        ConvexRegion unit = cutCube(3, -2, 1);
        for (double scale : new double[] {1e-200, 1e-300, 1e200}) {
            double[] planes = unit.planes().clone();
            for (int i = 0; i < planes.length; i++) {
                planes[i] *= scale;
            }
            ConvexRegion scaled = new ConvexRegion(planes, unit.planeCount());
            double[] normalized = scaled.planes();
            for (int i = 0; i < planes.length; i++) {
                assertEquals(unit.planes()[i], normalized[i], 1e-14, "scale " + scale + ", entry " + i);
            }
            assertTrue(scaled.isBounded());
            assertEquals(unit.vertexCount(), scaled.vertexCount());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ConvexRegion(new double[] {1e-200, 0, 0, 1e200}, 1));
        assertTrue(e.getMessage().contains("planes[0]"), e.getMessage());
    }

    @Test
    void shouldDecideBoxesMovedIntoTheNewFrameLikeTheOriginalRegion() {
        double ox = 1e6 + 0.25;
        double oy = -3e5;
        double oz = 42;
        ConvexRegion world = cutCube(ox + 3, oy - 2, oz + 1);
        ConvexRegion local = world.translated(ox, oy, oz);
        ConvexRegion expected = cutCube(3, -2, 1);
        assertSame(local, world.translated(ox, oy, oz), "the copy is kept");
        assertSame(world, world.translated(0, 0, 0));
        assertEquals(world.vertexCount(), local.vertexCount());
        SplittableRandom random = new SplittableRandom(0xC0_4E);
        int inside = 0;
        int crossing = 0;
        for (int n = 0; n < 5000; n++) {
            double x = 3 + random.nextDouble(-2.5, 2.5);
            double y = -2 + random.nextDouble(-2.5, 2.5);
            double z = 1 + random.nextDouble(-2.5, 2.5);
            double h = random.nextDouble(0, 0.7);
            int want = expected.cull(expected.allPlanes(), x - h, y - h, z - h, x + h, y + h, z + h);
            int got = local.cull(local.allPlanes(), x - h, y - h, z - h, x + h, y + h, z + h);
            assertEquals(want, got, "box at " + x + ", " + y + ", " + z + " half " + h);
            assertEquals(expected.testBox(x - h, y - h, z - h, x + h, y + h, z + h),
                    local.testBox(x - h, y - h, z - h, x + h, y + h, z + h));
            inside += got == 0 ? 1 : 0;
            crossing += got > 0 ? 1 : 0;
        }
        assertTrue(inside > 30 && crossing > 100, "inside " + inside + ", crossing " + crossing);
    }

    /**
     * The planes {@code PerspectiveCamera.lookAt(0, 0, 0, 2, 1, -3, 0, 1, 0, PI / 3, 1.5, 0.1, 100)} makes for the
     * marquee {@code frustum(-5.773190298287291E11, 0, 1, 1)}, before they are normalized (written out so that no
     * tangent's last bit decides the test): its left side lies so far off screen that the region is bounded by
     * the slimmest margin.
     */
    private static final double[] AT_THE_BOUNDEDNESS_THRESHOLD = {
        -5.344935617979216E11, -2.6724678089854477E11, 8.017403426950796E11, 0.0,
        0.369140244451568, -0.23145502494313785, 1.2490652710546426, 0.0,
        -0.16035683659196356, -1.1179274616215236, 0.24053525488794533, 0.0,
        -0.4568565632564041, 0.8093207616973398, 0.6852848448846061, 0.0,
        -0.5345224838248488, -0.2672612419124244, 0.8017837257372732, -0.1,
        0.5345224838248488, 0.2672612419124244, -0.8017837257372732, 100.0};

    @Test
    void shouldKeepARegionAtTheBoundednessThresholdBoundedInEveryFrame() {
        ConvexRegion world = new ConvexRegion(AT_THE_BOUNDEDNESS_THRESHOLD, 6);
        assertTrue(world.isBounded());
        ConvexRegion local = world.translated(1, 2, 3);
        // an unbounded copy has no vertices, and the exact test of the copy would reject every box crossing a plane
        assertTrue(local.isBounded(), "a translation cannot open a bounded region");
        assertEquals(world.vertexCount(), local.vertexCount());
        for (int i = 0; i < 6; i++) {
            assertArrayEquals(Arrays.copyOfRange(world.planes(), 4 * i, 4 * i + 3),
                    Arrays.copyOfRange(local.planes(), 4 * i, 4 * i + 3), "the copy keeps normal " + i);
        }
        // a box straddling the near plane on the view axis (0.5345, 0.2673, -0.8018), 0.1 from the eye at 0
        double[] box = {-0.5, -0.5, -0.5, 0.5, 0.5, 0.5};
        assertTrue(world.testBox(box[0], box[1], box[2], box[3], box[4], box[5]));
        assertTrue(local.testBox(box[0] - 1, box[1] - 2, box[2] - 3, box[3] - 1, box[4] - 2, box[5] - 3));
    }

    @Test
    void shouldFindTheFarVerticesOfAMarqueeReachingFarOffScreen() {
        PerspectiveCamera camera = PerspectiveCamera.lookAt(0, 0, 0, 2, 1, -3, 0, 1, 0, Math.PI / 3, 1.5, 0.1, 100);
        double[] ray = new double[6];
        for (double u0 : new double[] {-1e7, -1e8, -1e9, -1e10}) {
            ConvexRegion marquee = camera.frustum(u0, 0, 1, 1);
            assertTrue(marquee.isBounded());
            // the far corners lie some |u0| times farther from the eye (the origin) than any plane: their rounding
            // is beyond a tolerance taken from the planes' distances alone
            assertEquals(8, marquee.vertexCount(), "u0 " + u0);
            for (double u : new double[] {u0, 0.999 * u0, 0.5 * u0, 0.5}) {
                for (double v : new double[] {0, 0.1, 0.5, 1}) {
                    for (double t : new double[] {0, 0.5, 1}) {
                        camera.pickRay(u, v, ray);
                        double x = ray[0] + t * ray[3];
                        double y = ray[1] + t * ray[4];
                        double z = ray[2] + t * ray[5];
                        String where = "u0 " + u0 + ", point " + u + ", " + v + ", " + t;
                        // a point of the region (away from its boundary, which the point's rounding may cross),
                        // and a box around any point of its closure, reaching over its planes
                        if (u != u0 && v > 0 && v < 1 && t > 0 && t < 1) {
                            assertTrue(marquee.testBox(x, y, z, x, y, z), where);
                        }
                        double h = 1e-3 * (Math.abs(x) + Math.abs(y) + Math.abs(z));
                        assertTrue(marquee.testBox(x - h, y - h, z - h, x + h, y + h, z + h), where);
                    }
                }
            }
        }
    }

    @Test
    void shouldAcceptAnObliquePlaneWhoseDistanceFitsOnceDividedByTheNormalsLength() {
        // d over the largest component (0.8) overflows, d over the length (1) does not
        ConvexRegion region = new ConvexRegion(new double[] {0.6, 0.8, 0, 1.5e308}, 1);
        assertEquals(1.5e308, region.planes()[3], 1e293);
        assertEquals(1.5e308, new Plane(0.6, 0.8, 0, 1.5e308).d(), 1e293);
    }

    @Test
    void shouldTranslateAnObliquePlaneNearTheEndOfTheRangeIntoAFarFrame() {
        // fits once normalized; moved 1.4e300 outward by the frame its distance no longer fits over 0.8
        ConvexRegion region = new ConvexRegion(new double[] {0.6, 0.8, 0, 0.8 * Double.MAX_VALUE}, 1);
        ConvexRegion local = region.translated(-1e300, -1e300, 0);
        assertTrue(local.containsBox(-1e18, -1e18, -1e18, 1e18, 1e18, 1e18));
        assertEquals(region.planes()[0], local.planes()[0]);
    }

    @Test
    void shouldTakeNoFarPointOfNearlySingularPlanesForAVertexOfAThinMarquee() {
        // a thin marquee whose right side reaches 5.7e10 screen widths off screen: its bottom and top planes meet
        // along a line through the eye that the near and far planes cross some 1e14 and 1e17 away, just outside
        // the right side, and those points are no corners of the region
        PerspectiveCamera camera = PerspectiveCamera.lookAt(7.8, -7.2, -0.4, 8.56, -7.56, 0.81, 0, 1, 0, Math.PI / 3,
                1.5, 0.1, 100);
        double u1 = 5.681512866159528E10;
        ConvexRegion marquee = camera.frustum(0.5, 0.3, u1, 0.31);
        assertTrue(marquee.isBounded());
        assertEquals(8, marquee.vertexCount());
        // the corners lie between the near and far ends of the pick rays through the rectangle's corners
        double[] ray = new double[6];
        double maxX = Double.NEGATIVE_INFINITY;
        for (double u : new double[] {0.5, u1}) {
            for (double v : new double[] {0.3, 0.31}) {
                camera.pickRay(u, v, ray);
                maxX = Math.max(maxX, Math.max(ray[0], ray[0] + ray[3]));
            }
        }
        assertTrue(maxX < 60, "the region reaches x = " + maxX);
        // a box from x = 8e6, beyond the region by some 600 times the tolerance (1e-9 of the far corners' reach of
        // 1.3e13), yet crossing its planes: the box face axis x separates them
        assertNotEquals(FrustumAabb.CULLED, marquee.cull(marquee.allPlanes(), 8063391.146581829,
                -1.4477797770622685E9, -5.368095001144809E8, 3.075630118777253E8, 1.5285400608175802E8,
                2.3056905101705152E8));
        assertFalse(marquee.testBox(8063391.146581829, -1.4477797770622685E9, -5.368095001144809E8,
                3.075630118777253E8, 1.5285400608175802E8, 2.3056905101705152E8));
    }
}
