package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** {@link PerspectiveCamera#project} against {@link PerspectiveCamera#pickRay}: the two must be inverses. */
class PerspectiveCameraProjectTest {

    private static PerspectiveCamera randomCamera(SplittableRandom random) {
        return PerspectiveCamera.lookAt(random.nextDouble(-100, 100), random.nextDouble(-100, 100),
                random.nextDouble(-100, 100), random.nextDouble(-100, 100), random.nextDouble(-100, 100),
                random.nextDouble(-100, 100), random.nextDouble(-1, 1), 1, random.nextDouble(-1, 1),
                random.nextDouble(0.3, 2.5), random.nextDouble(0.5, 2.5), random.nextDouble(0.01, 1), 1000);
    }

    @Test
    void shouldProjectEveryPointOfAPickRayBackToItsScreenPoint() {
        SplittableRandom random = new SplittableRandom(41);
        double[] ray = new double[6];
        double[] screen = new double[3];
        for (int i = 0; i < 2000; i++) {
            PerspectiveCamera camera = randomCamera(random);
            double u = random.nextDouble(-0.5, 1.5);
            double v = random.nextDouble(-0.5, 1.5);
            camera.pickRay(u, v, ray);
            double t = random.nextDouble();
            double depth = Double.NaN;
            for (double f : new double[]{0, t, 1}) {
                assertTrue(camera.project(ray[0] + f * ray[3], ray[1] + f * ray[4], ray[2] + f * ray[5], screen));
                assertEquals(u, screen[0], 1e-9, "u");
                assertEquals(v, screen[1], 1e-9, "v");
                if (f == 0) {
                    // the ray starts on the near plane and ends on the far plane
                    assertEquals(camera.near(), screen[2], 1e-9 * camera.far());
                }
                depth = screen[2];
            }
            assertEquals(camera.far(), depth, 1e-9 * camera.far());
        }
    }

    @Test
    void shouldPlaceAProjectedPointOnThePickRayOfItsScreenPoint() {
        SplittableRandom random = new SplittableRandom(43);
        double[] ray = new double[6];
        double[] screen = new double[3];
        for (int i = 0; i < 2000; i++) {
            PerspectiveCamera camera = randomCamera(random);
            double x = random.nextDouble(-200, 200);
            double y = random.nextDouble(-200, 200);
            double z = random.nextDouble(-200, 200);
            if (!camera.project(x, y, z, screen)) {
                continue;
            }
            camera.pickRay(screen[0], screen[1], ray);
            // the ray reaches depth `screen[2]` at fraction (depth - near) / (far - near)
            double f = (screen[2] - camera.near()) / (camera.far() - camera.near());
            assertArrayEquals(new double[]{x, y, z},
                    new double[]{ray[0] + f * ray[3], ray[1] + f * ray[4], ray[2] + f * ray[5]}, 1e-7);
        }
    }

    @Test
    void shouldReportAPointBehindTheEyeAndMapTheCentreToTheMiddle() {
        PerspectiveCamera camera = PerspectiveCamera.lookAt(0, 0, 0, 0, 0, -10, 0, 1, 0, 1.0, 1.5, 0.1, 100);
        double[] screen = new double[3];
        assertFalse(camera.project(0, 0, 5, screen));
        assertEquals(-5, screen[2]);
        assertFalse(camera.project(3, 1, 0, screen), "a point in the eye's plane has no screen position");
        assertTrue(camera.project(0, 0, -7, screen));
        assertArrayEquals(new double[]{0.5, 0.5, 7}, screen, 1e-12);
        // up is +y and right is +x for this camera
        assertTrue(camera.project(1, 2, -7, screen));
        assertTrue(screen[0] > 0.5 && screen[1] > 0.5);
    }

    @Test
    void shouldRejectBadArgumentsNamingThem() {
        PerspectiveCamera camera = PerspectiveCamera.lookAt(0, 0, 0, 0, 0, -10, 0, 1, 0, 1.0, 1.5, 0.1, 100);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> camera.project(Double.NaN, 0, 0, new double[3]));
        assertTrue(e.getMessage().contains("x"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> camera.project(0, 0, -1, new double[2]));
        assertTrue(e.getMessage().contains("dest"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> camera.project(0, Double.POSITIVE_INFINITY, 0, new double[3]));
        assertThrows(IllegalArgumentException.class, () -> camera.project(0, 0, 0, null));
        e = assertThrows(IllegalArgumentException.class,
                () -> new PerspectiveCamera(0, 0, 0, 0, 0, -1, 0, 0, 1e-300, 1.0, 1.5, 0.1, 100));
        assertTrue(e.getMessage().contains("up"), e.getMessage());
    }

    @Test
    void shouldTakeTinyAndHugeDirectionsLikeUnitOnes() {
        PerspectiveCamera unit = new PerspectiveCamera(1, 2, 3, 0, 0, -1, 0, 1, 0, 1.0, 1.5, 0.1, 100);
        double[] expected = new double[6];
        double[] actual = new double[6];
        unit.pickRay(0.3, 0.8, expected);
        for (double scale : new double[] {1e-200, 1e-310, 1e200, Double.MAX_VALUE}) {
            PerspectiveCamera scaled = new PerspectiveCamera(1, 2, 3, 0, 0, -scale, 0, scale, 0, 1.0, 1.5, 0.1, 100);
            scaled.pickRay(0.3, 0.8, actual);
            assertArrayEquals(expected, actual, 1e-12, "scale " + scale);
        }
    }

    @Test
    void shouldNameTheScreenCoordinateOrAspectThatCannotMakeAFrustum() {
        PerspectiveCamera camera = new PerspectiveCamera(0, 0, 0, 0, 0, -1, 0, 1, 0, 1.0, 1.0, 0.1, 100);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> camera.frustum(0, 0, 1e308, 1));
        assertTrue(e.getMessage().startsWith("u1 = 1.0E308 is too far off screen"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> camera.frustum(0, -1e200, 1, 1));
        assertTrue(e.getMessage().startsWith("v0 = -1.0E200"), e.getMessage());
        // corners in either order: the message names the one given
        e = assertThrows(IllegalArgumentException.class, () -> camera.frustum(1e200, 0, 0, 1));
        assertTrue(e.getMessage().startsWith("u0 = 1.0E200"), e.getMessage());
        // far off screen but representable: still a region, bounded a long way past the screen
        assertTrue(camera.frustum(-1e6, 0, 1e6, 1).isBounded());
        PerspectiveCamera far = new PerspectiveCamera(0, 0, 1e300, 0, 0, -1, 0, 1, 0, 1.0, 1.0, 0.1, 100);
        e = assertThrows(IllegalArgumentException.class, () -> far.frustum(0, 0, 1e99, 1));
        assertTrue(e.getMessage().startsWith("the right plane's distance overflows"), e.getMessage());
        PerspectiveCamera farPlane = new PerspectiveCamera(1e308, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1e308);
        e = assertThrows(IllegalArgumentException.class, farPlane::frustum);
        assertTrue(e.getMessage().startsWith("the far plane's distance overflows"), e.getMessage());
        assertTrue(far.frustum().isBounded());
        e = assertThrows(IllegalArgumentException.class,
                () -> new PerspectiveCamera(0, 0, 0, 0, 0, -1, 0, 1, 0, 1.0, Double.MAX_VALUE, 0.1, 100));
        assertTrue(e.getMessage().contains("horizontal half-angle tangent"), e.getMessage());
    }

    @Test
    void shouldLookAtATargetWhoseOffsetFromThePositionOverflows() {
        // position and target are finite, so the direction between them is defined though their difference is not
        PerspectiveCamera camera = PerspectiveCamera.lookAt(-1e308, 0, 0, 1e308, 0, 0, 0, 0, 1, 1, 1, 0.1, 100);
        double[] screen = new double[3];
        assertTrue(camera.project(-1e308 + 50 * Math.ulp(1e308), 0, 0, screen));
        assertEquals(0.5, screen[0]);
        assertEquals(0.5, screen[1]);
        PerspectiveCamera tilted = PerspectiveCamera.lookAt(-1e308, 0, -1e308, 1e308, 0, 1e308, 0, 1, 0, 1, 1,
                0.1, 100);
        assertTrue(tilted.project(0, 0, 0, screen));
        assertEquals(0.5, screen[0], 1e-15);
        assertEquals(0.5, screen[1], 1e-15);
        // a subnormal offset is a direction too
        PerspectiveCamera tiny = PerspectiveCamera.lookAt(0, 0, 0, Double.MIN_VALUE, 0, 0, 0, 0, 1, 1, 1, 0.1, 100);
        assertTrue(tiny.project(1, 0, 0, screen));
        assertEquals(0.5, screen[0]);
    }
}
