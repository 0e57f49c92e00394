package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.geom.Frustum.ClipDepth;
import dev.boxwood.geom.Frustum.MatrixLayout;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.PerspectiveCamera;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link Frustum#fromViewProjection} against the two definitions of a camera's frustum: the clip-space test of a
 * point ({@code -w <= x, y <= w} and the depth range) and the planes {@link PerspectiveCamera} builds from the same
 * camera. The matrices are built here by the usual formulas (gluLookAt, gluPerspective, glOrtho and their
 * zero-to-one, reversed-Z and infinite forms), row-major {@code m[4 r + c]}.
 */
class FrustumViewProjectionTest {

    private static final ClipDepth GL = ClipDepth.NEGATIVE_ONE_TO_ONE;
    private static final ClipDepth ZO = ClipDepth.ZERO_TO_ONE;

    /** The view matrix of gluLookAt: right = forward x up, up' = right x forward, the eye looking down -z. */
    private static double[] lookAt(double[] eye, double[] target, double[] up) {
        double[] f = unit(new double[] {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]});
        double[] s = unit(cross(f, up));
        double[] u = cross(s, f);
        return new double[] {
            s[0], s[1], s[2], -dot(s, eye),
            u[0], u[1], u[2], -dot(u, eye),
            -f[0], -f[1], -f[2], dot(f, eye),
            0, 0, 0, 1};
    }

    /** gluPerspective, or its zero-to-one form (Direct3D's right-handed one, GLM's perspectiveRH_ZO). */
    private static double[] perspective(double fovY, double aspect, double near, double far, ClipDepth depth) {
        double f = 1 / Math.tan(fovY / 2);
        double a = depth == GL ? (far + near) / (near - far) : far / (near - far);
        double b = depth == GL ? 2 * far * near / (near - far) : far * near / (near - far);
        return projection(f / aspect, f, a, b);
    }

    /** Zero-to-one reversed-Z: depth 1 at the near plane, 0 at the far one. */
    private static double[] reversedPerspective(double fovY, double aspect, double near, double far) {
        double f = 1 / Math.tan(fovY / 2);
        return projection(f / aspect, f, near / (far - near), far * near / (far - near));
    }

    private static double[] projection(double fx, double fy, double a, double b) {
        return new double[] {fx, 0, 0, 0, 0, fy, 0, 0, 0, 0, a, b, 0, 0, -1, 0};
    }

    /** glOrtho, or its zero-to-one form. */
    private static double[] ortho(double l, double r, double b, double t, double n, double f, ClipDepth depth) {
        return new double[] {
            2 / (r - l), 0, 0, -(r + l) / (r - l),
            0, 2 / (t - b), 0, -(t + b) / (t - b),
            0, 0, depth == GL ? -2 / (f - n) : -1 / (f - n), depth == GL ? -(f + n) / (f - n) : -n / (f - n),
            0, 0, 0, 1};
    }

    private static double[] multiply(double[] p, double[] v) {
        double[] m = new double[16];
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++) {
                for (int k = 0; k < 4; k++) {
                    m[4 * r + c] += p[4 * r + k] * v[4 * k + c];
                }
            }
        }
        return m;
    }

    /** The row-major matrix stored in {@code layout} at {@code offset} of a longer array filled with NaN. */
    private static double[] stored(double[] m, MatrixLayout layout, int offset) {
        double[] out = new double[offset + 16 + 3];
        Arrays.fill(out, Double.NaN);
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++) {
                out[offset + (layout == MatrixLayout.COLUMN_MAJOR ? 4 * c + r : 4 * r + c)] = m[4 * r + c];
            }
        }
        return out;
    }

    private static double[] unit(double[] v) {
        double l = Math.sqrt(dot(v, v));
        return new double[] {v[0] / l, v[1] / l, v[2] / l};
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    /** A camera and its view-projection matrix, and a way to sample points in and around its frustum. */
    private record Camera(double[] eye, double[] target, double[] up, double fovY, double aspect, double near,
                          double far, double[] matrix) {

        static Camera random(SplittableRandom random, ClipDepth depth, boolean reversed) {
            double[] eye = {random.nextDouble(-100, 100), random.nextDouble(-100, 100), random.nextDouble(-100, 100)};
            double[] target = {random.nextDouble(-100, 100), random.nextDouble(-100, 100),
                random.nextDouble(-100, 100)};
            double[] up = {random.nextDouble(-1, 1), 1, random.nextDouble(-1, 1)};
            double fovY = random.nextDouble(0.3, 2.5);
            double aspect = random.nextDouble(0.5, 2.5);
            double near = random.nextDouble(0.01, 1);
            double far = random.nextDouble(50, 1000);
            double[] projection = reversed ? reversedPerspective(fovY, aspect, near, far)
                    : perspective(fovY, aspect, near, far, depth);
            return new Camera(eye, target, up, fovY, aspect, near, far,
                    multiply(projection, lookAt(eye, target, up)));
        }

        PerspectiveCamera helper() {
            return PerspectiveCamera.lookAt(eye[0], eye[1], eye[2], target[0], target[1], target[2], up[0], up[1],
                    up[2], fovY, aspect, near, far);
        }

        /** A point around the frustum: depth from behind the eye to beyond the far plane, sides out to 1.5 times. */
        double[] point(SplittableRandom random) {
            double[] f = unit(new double[] {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]});
            double[] s = unit(cross(f, up));
            double[] u = cross(s, f);
            // half near the near plane, where the depth planes are close together
            double d = random.nextBoolean() ? random.nextDouble(-0.1 * far, 1.1 * far)
                    : random.nextDouble(-near, 3 * near);
            double tanY = Math.tan(fovY / 2);
            double x = random.nextDouble(-1.5, 1.5) * Math.abs(d) * tanY * aspect;
            double y = random.nextDouble(-1.5, 1.5) * Math.abs(d) * tanY;
            return new double[] {eye[0] + d * f[0] + x * s[0] + y * u[0], eye[1] + d * f[1] + x * s[1] + y * u[1],
                eye[2] + d * f[2] + x * s[2] + y * u[2]};
        }
    }

    private static final int UNDECIDED = 2;

    /**
     * The clip-space test: inside iff {@code x0 w <= x <= x1 w}, {@code y0 w <= y <= y1 w} and the depth range,
     * or {@link #UNDECIDED} if a margin is within 1e-9 of the terms it is made of (rounding may decide it).
     */
    private static int clipTest(double[] m, ClipDepth depth, double[] p, double[] ndc) {
        double[] clip = new double[4];
        double[] size = new double[4];
        for (int r = 0; r < 4; r++) {
            clip[r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] + m[4 * r + 3];
            size[r] = Math.abs(m[4 * r] * p[0]) + Math.abs(m[4 * r + 1] * p[1]) + Math.abs(m[4 * r + 2] * p[2])
                    + Math.abs(m[4 * r + 3]);
        }
        double w = clip[3];
        double low = depth == GL ? -1 : 0;
        double[] margins = {clip[0] - ndc[0] * w, ndc[1] * w - clip[0], clip[1] - ndc[2] * w, ndc[3] * w - clip[1],
            clip[2] - low * w, w - clip[2]};
        int[] rows = {0, 0, 1, 1, 2, 2};
        boolean inside = true;
        for (int i = 0; i < 6; i++) {
            if (Math.abs(margins[i]) <= 1e-9 * (size[rows[i]] + 2 * size[3])) {
                return UNDECIDED;
            }
            inside &= margins[i] > 0;
        }
        return inside ? 1 : 0;
    }

    private static boolean contains(Frustum frustum, double[] p) {
        return frustum.classify(new Aabb(p[0], p[1], p[2], p[0], p[1], p[2])) != Geom.OUTSIDE;
    }

    /** Points in and around the frustum: the planes' verdict is the clip-space test's where rounding cannot decide. */
    private static void assertClassifiesAsClipSpace(Camera camera, ClipDepth depth, double[] ndc, Frustum frustum,
                                                    SplittableRandom random) {
        int inside = 0;
        int undecided = 0;
        int n = 400;
        for (int i = 0; i < n; i++) {
            double[] p = camera.point(random);
            int expected = clipTest(camera.matrix(), depth, p, ndc);
            if (expected == UNDECIDED) {
                undecided++;
                continue;
            }
            assertEquals(expected == 1, contains(frustum, p), () -> "point " + Arrays.toString(p));
            inside += expected;
        }
        assertTrue(undecided < n / 100, "undecided " + undecided);
        assertTrue(inside > n / 20 && inside < n - n / 20, "inside " + inside + " of " + n);
    }

    @Test
    void shouldClassifyPointsAsTheClipSpaceTestForPerspectiveMatricesInBothLayoutsAndDepthRanges() {
        SplittableRandom random = new SplittableRandom(71);
        double[] whole = {-1, 1, -1, 1};
        for (int trial = 0; trial < 200; trial++) {
            ClipDepth depth = trial % 2 == 0 ? GL : ZO;
            boolean reversed = depth == ZO && trial % 4 == 1;
            Camera camera = Camera.random(random, depth, reversed);
            MatrixLayout layout = trial % 3 == 0 ? MatrixLayout.ROW_MAJOR : MatrixLayout.COLUMN_MAJOR;
            int offset = trial % 5;
            Frustum frustum = Frustum.fromViewProjection(stored(camera.matrix(), layout, offset), offset, layout,
                    depth);
            assertEquals(6, frustum.planeCount());
            assertClassifiesAsClipSpace(camera, depth, whole, frustum, random);
        }
    }

    @Test
    void shouldClassifyPointsAsTheClipSpaceTestForOrthographicMatrices() {
        SplittableRandom random = new SplittableRandom(73);
        for (int trial = 0; trial < 200; trial++) {
            ClipDepth depth = trial % 2 == 0 ? GL : ZO;
            double l = random.nextDouble(-50, 0);
            double r = l + random.nextDouble(1, 50);
            double b = random.nextDouble(-50, 0);
            double t = b + random.nextDouble(1, 50);
            double n = random.nextDouble(-10, 10);
            double f = n + random.nextDouble(1, 100);
            Camera camera = Camera.random(random, depth, false);
            double[] matrix = multiply(ortho(l, r, b, t, n, f, depth), lookAt(camera.eye(), camera.target(),
                    camera.up()));
            MatrixLayout layout = trial % 3 == 0 ? MatrixLayout.ROW_MAJOR : MatrixLayout.COLUMN_MAJOR;
            Frustum frustum = Frustum.fromViewProjection(stored(matrix, layout, 2), 2, layout, depth);
            double[] eye = camera.eye();
            double[] target = camera.target();
            double[] fwd = unit(new double[] {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]});
            double[] s = unit(cross(fwd, camera.up()));
            double[] u = cross(s, fwd);
            int inside = 0;
            for (int i = 0; i < 400; i++) {
                // the view-space box [l, r] x [b, t] x [-f, -n], grown by half on every side
                double x = random.nextDouble(l - (r - l) / 2, r + (r - l) / 2);
                double y = random.nextDouble(b - (t - b) / 2, t + (t - b) / 2);
                double d = random.nextDouble(n - (f - n) / 2, f + (f - n) / 2);
                double[] p = {eye[0] + x * s[0] + y * u[0] + d * fwd[0], eye[1] + x * s[1] + y * u[1] + d * fwd[1],
                    eye[2] + x * s[2] + y * u[2] + d * fwd[2]};
                int expected = clipTest(matrix, depth, p, new double[] {-1, 1, -1, 1});
                if (expected != UNDECIDED) {
                    assertEquals(expected == 1, contains(frustum, p));
                    inside += expected;
                }
            }
            assertTrue(inside > 20 && inside < 380, "inside " + inside);
        }
    }

    /**
     * Two sets of planes alike: unit normals within 1e-12, offsets within 1e-12 of the camera's reach. The depth
     * planes are looser by {@code far / near}: a matrix holds the far plane only as the difference of its last two
     * rows, which differ by about {@code near / far} of their size (of the far plane's normal and offset, the matrix
     * entries keep that much fewer digits).
     */
    private static void assertSamePlanes(double[] expected, double[] actual, double reach, double farOverNear) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            double tolerance = (i % 4 == 3 ? reach : 1) * (i < 16 ? 1e-12 : 1e-13 * farOverNear);
            assertEquals(expected[i], actual[i], tolerance, "plane " + i / 4 + " entry " + i % 4);
        }
    }

    private static Frustum fromPlanes(double[] flat) {
        Plane[] planes = new Plane[flat.length / 4];
        for (int i = 0; i < planes.length; i++) {
            planes[i] = new Plane(flat[4 * i], flat[4 * i + 1], flat[4 * i + 2], flat[4 * i + 3]);
        }
        return new Frustum(planes);
    }

    /**
     * Boxes in and around the frustum: both frustums give every box the same class, except boxes within 1e-9 of
     * a plane of the camera's.
     */
    private static void assertClassifiesBoxesAlike(Camera camera, Frustum expected, Frustum actual,
                                                   SplittableRandom random, int[] classes) {
        double[] planes = expected.planes();
        for (int i = 0; i < 200; i++) {
            double[] p = camera.point(random);
            double half = random.nextDouble() * random.nextDouble() * camera.far() / 10;
            Aabb box = new Aabb(p[0] - half, p[1] - half, p[2] - half, p[0] + half, p[1] + half, p[2] + half);
            boolean nearPlane = false;
            for (int k = 0; k < planes.length; k += 4) {
                double centre = planes[k] * p[0] + planes[k + 1] * p[1] + planes[k + 2] * p[2] - planes[k + 3];
                double radius = half * (Math.abs(planes[k]) + Math.abs(planes[k + 1]) + Math.abs(planes[k + 2]));
                double reach = 1e-9 * (1 + Math.abs(planes[k + 3]) + Math.abs(p[0]) + Math.abs(p[1]) + Math.abs(p[2]));
                nearPlane |= Math.abs(centre - radius) < reach || Math.abs(centre + radius) < reach;
            }
            if (nearPlane) {
                continue;
            }
            int c = expected.classify(box);
            assertEquals(c, actual.classify(box), () -> box.toString());
            classes[c - Geom.OUTSIDE]++;
        }
    }

    @Test
    void shouldGiveThePlanesOfTheCameraHelperForTheSameCameraAndMarquee() {
        SplittableRandom random = new SplittableRandom(79);
        int[] classes = new int[3];
        for (int trial = 0; trial < 300; trial++) {
            ClipDepth depth = trial % 2 == 0 ? GL : ZO;
            Camera camera = Camera.random(random, depth, depth == ZO && trial % 4 == 1);
            PerspectiveCamera helper = camera.helper();
            double reach = Math.abs(camera.eye()[0]) + Math.abs(camera.eye()[1]) + Math.abs(camera.eye()[2])
                    + camera.far();
            double[] stored = stored(camera.matrix(), MatrixLayout.COLUMN_MAJOR, 0);

            Frustum whole = Frustum.fromViewProjection(stored, 0, MatrixLayout.COLUMN_MAJOR, depth);
            double[] expected = helper.frustum().planes();
            if (depth == ZO && trial % 4 == 1) {
                // reversed-Z: the depth planes come far first
                double[] swapped = expected.clone();
                System.arraycopy(expected, 16, swapped, 20, 4);
                System.arraycopy(expected, 20, swapped, 16, 4);
                expected = swapped;
            }
            assertSamePlanes(expected, whole.planes(), reach, camera.far() / camera.near());
            assertClassifiesBoxesAlike(camera, fromPlanes(expected), whole, random, classes);

            // a marquee, corners in either order, reaching past the screen at times
            double u0 = random.nextDouble(-0.5, 1.5);
            double v0 = random.nextDouble(-0.5, 1.5);
            double u1 = random.nextDouble(-0.5, 1.5);
            double v1 = random.nextDouble(-0.5, 1.5);
            Frustum marquee = Frustum.fromViewProjection(stored, 0, MatrixLayout.COLUMN_MAJOR, depth, u0, v0, u1,
                    v1);
            double[] marqueePlanes = helper.frustum(u0, v0, u1, v1).planes();
            assertSamePlanes(Arrays.copyOf(marqueePlanes, 16),
                    Arrays.copyOf(marquee.planes(), 16), reach, 1);
            double[] ndc = {2 * Math.min(u0, u1) - 1, 2 * Math.max(u0, u1) - 1, 2 * Math.min(v0, v1) - 1,
                2 * Math.max(v0, v1) - 1};
            if (ndc[1] - ndc[0] > 0.05 && ndc[3] - ndc[2] > 0.05) {
                for (int i = 0; i < 100; i++) {
                    double[] p = camera.point(random);
                    int clip = clipTest(camera.matrix(), depth, p, ndc);
                    if (clip != UNDECIDED) {
                        assertEquals(clip == 1, contains(marquee, p));
                    }
                }
            }
        }
        for (int c = 0; c < 3; c++) {
            assertTrue(classes[c] > 100, "outside, crossing, inside: " + Arrays.toString(classes));
        }
    }

    @Test
    void shouldBoundTheClipCubeWithUnitNormalsPointingOutAndKeepItClosed() {
        double[] identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        Frustum cube = Frustum.fromViewProjection(identity, 0, MatrixLayout.COLUMN_MAJOR, GL);
        assertArrayEquals(new double[] {-1, 0, 0, 1, 1, 0, 0, 1, 0, -1, 0, 1, 0, 1, 0, 1, 0, 0, -1, 1, 0, 0, 1, 1},
                cube.planes());
        Frustum slab = Frustum.fromViewProjection(identity, 0, MatrixLayout.COLUMN_MAJOR, ZO);
        assertArrayEquals(new double[] {-1, 0, 0, 1, 1, 0, 0, 1, 0, -1, 0, 1, 0, 1, 0, 1, 0, 0, -1, 0, 0, 0, 1, 1},
                slab.planes());
        // the same clip space scaled: the same planes, normalized
        double[] doubled = new double[16];
        for (int i = 0; i < 16; i++) {
            doubled[i] = 2 * identity[i];
        }
        assertArrayEquals(cube.planes(), Frustum.fromViewProjection(doubled, 0, MatrixLayout.ROW_MAJOR, GL)
                .planes());
        // closed: the corners are inside, a point an ulp beyond a face is not
        assertTrue(contains(cube, new double[] {1, -1, 1}));
        assertTrue(contains(slab, new double[] {-1, 1, 0}));
        assertFalse(contains(cube, new double[] {Math.nextUp(1.0), 0, 0}));
        assertFalse(contains(slab, new double[] {0, 0, -1e-300}));
        // a marquee of the middle half: x and y in [-0.5, 0.5]
        Frustum middle = Frustum.fromViewProjection(identity, 0, MatrixLayout.COLUMN_MAJOR, GL, 0.75, 0.75, 0.25,
                0.25);
        assertArrayEquals(new double[] {-1, 0, 0, 0.5, 1, 0, 0, 0.5, 0, -1, 0, 0.5, 0, 1, 0, 0.5},
                Arrays.copyOf(middle.planes(), 16));
        // the translation is the last column: read from index 12 column-major, from index 3 row-major
        double[] shifted = identity.clone();
        shifted[12] = 5;
        assertTrue(contains(Frustum.fromViewProjection(shifted, 0, MatrixLayout.COLUMN_MAJOR, GL),
                new double[] {-5.5, 0, 0}));
        double[] shiftedRows = identity.clone();
        shiftedRows[3] = 5;
        assertTrue(contains(Frustum.fromViewProjection(shiftedRows, 0, MatrixLayout.ROW_MAJOR, GL),
                new double[] {-5.5, 0, 0}));
        assertFalse(contains(Frustum.fromViewProjection(shiftedRows, 0, MatrixLayout.COLUMN_MAJOR, GL),
                new double[] {-5.5, 0, 0}));
    }

    @Test
    void shouldLeaveOutTheFarPlaneOfAnInfiniteProjection() {
        double[] view = lookAt(new double[] {1, 2, 0}, new double[] {1, 2, -10}, new double[] {0, 1, 0});
        double near = 0.1;
        double f = 1 / Math.tan(0.5);
        // OpenGL's infinite projection: z = -z_eye - 2 near, so z <= w everywhere; reversed-Z: z = near
        double[] gl = multiply(projection(f, f, -1, -2 * near), view);
        double[] reversed = multiply(projection(f, f, 0, near), view);
        for (Frustum frustum : new Frustum[] {Frustum.fromViewProjection(gl, 0, MatrixLayout.ROW_MAJOR, GL),
            Frustum.fromViewProjection(reversed, 0, MatrixLayout.ROW_MAJOR, ZO)}) {
            assertEquals(5, frustum.planeCount());
            assertTrue(contains(frustum, new double[] {1, 2, -1e15}), "far along the view");
            assertFalse(contains(frustum, new double[] {1, 2, -near / 2}), "before the near plane");
            assertTrue(contains(frustum, new double[] {1, 2, -near}), "on the near plane");
            assertFalse(ConvexRegion.of(frustum).isBounded());
        }
        // turned inside out: nothing lies within the far plane at infinity
        double[] negated = new double[16];
        for (int i = 0; i < 16; i++) {
            negated[i] = -gl[i];
        }
        assertRejected("the matrix puts no point inside its far plane",
                () -> Frustum.fromViewProjection(negated, 0, MatrixLayout.ROW_MAJOR, GL));
    }

    private static void assertRejected(String start, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
    }

    @Test
    void shouldRefuseBadMatricesNamingTheProblem() {
        double[] good = perspective(1, 1.5, 0.1, 100, GL);
        MatrixLayout column = MatrixLayout.COLUMN_MAJOR;
        assertRejected("matrix must not be null", () -> Frustum.fromViewProjection(null, 0, column, GL));
        assertRejected("layout must not be null", () -> Frustum.fromViewProjection(good, 0, null, GL));
        assertRejected("depth must not be null", () -> Frustum.fromViewProjection(good, 0, column, null));
        assertRejected("matrix must hold 16 doubles from offset 1, has length 16",
                () -> Frustum.fromViewProjection(good, 1, column, GL));
        assertRejected("matrix must hold 16 doubles from offset -1",
                () -> Frustum.fromViewProjection(new double[20], -1, column, GL));
        double[] nan = stored(good, column, 4);
        nan[4 + 4 * 2 + 1] = Double.NaN;
        assertRejected("matrix[13] (row 1, column 2) must be finite, was NaN",
                () -> Frustum.fromViewProjection(nan, 4, column, GL));
        double[] infinite = good.clone();
        infinite[3] = Double.NEGATIVE_INFINITY;
        assertRejected("matrix[3] (row 0, column 3) must be finite, was -Infinity",
                () -> Frustum.fromViewProjection(infinite, 0, MatrixLayout.ROW_MAJOR, GL));
        // singular: all zeros, a near distance of 0 (the depth row equals the w row), no extent along x
        assertRejected("matrix is singular", () -> Frustum.fromViewProjection(new double[16], 0, column, ZO));
        assertRejected("matrix is singular",
                () -> Frustum.fromViewProjection(perspective(1, 1.5, 0, 100, ZO), 0, column, ZO));
        double[] flat = good.clone();
        flat[0] = 0;
        assertRejected("matrix is singular", () -> Frustum.fromViewProjection(flat, 0, column, GL));
        // 0 exactly though the double sum rounds: the third row twice the first, their minors in different sums
        double[] dependent = {0.1, 0.7, 1.3, 0.3, 0.3, 2.1, 3.7, 0.9, 0, 0, 0, 0, 0.6, 0.5, 1, 4};
        for (int c = 0; c < 4; c++) {
            dependent[8 + c] = dependent[c] * 2;
        }
        assertRejected("matrix is singular",
                () -> Frustum.fromViewProjection(dependent, 0, MatrixLayout.ROW_MAJOR, GL));
        // one whose determinant is tiny beside its terms but not 0 is taken: an ulp off the dependent one, and an
        // orthographic depth of 1e15
        double[] nearlyDependent = dependent.clone();
        nearlyDependent[9] = Math.nextUp(nearlyDependent[9]);
        assertEquals(6, Frustum.fromViewProjection(nearlyDependent, 0, MatrixLayout.ROW_MAJOR, GL).planeCount());
        assertEquals(6, Frustum.fromViewProjection(ortho(-1, 1, -1, 1, 0, 1e15, GL), 0, MatrixLayout.ROW_MAJOR, GL)
                .planeCount());
        // planes beyond the double range
        double[] huge = good.clone();
        huge[0] = 1.7e308;
        huge[12] = 1.7e308;
        assertRejected("the left plane overflows the double range",
                () -> Frustum.fromViewProjection(huge, 0, MatrixLayout.ROW_MAJOR, GL));
        // a plane whose offset over its normal's length leaves the double range
        double[] steep = {1e-300, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1e300};
        assertRejected("the left plane of the matrix cannot be normalized",
                () -> Frustum.fromViewProjection(steep, 0, MatrixLayout.ROW_MAJOR, GL));
        assertRejected("u1 must be finite",
                () -> Frustum.fromViewProjection(good, 0, column, GL, 0, 0, Double.NaN, 1));
        double[] scaled = good.clone();
        for (int i = 0; i < 16; i++) {
            scaled[i] *= 1e300;
        }
        assertRejected("the right plane overflows the double range",
                () -> Frustum.fromViewProjection(scaled, 0, column, GL, 0, 0, 1e10, 1));
        assertEquals(6, Frustum.fromViewProjection(scaled, 0, column, GL).planeCount(), "large but finite");
    }

    @Test
    void pointsExactlyOnAClipPlaneAreInside() {
        // xc = wc = 9 at (3, 0, -9): on the right plane, whose normalized form rounds it outside
        double[] m = {3, 0, 0, 0, 0, 3, 0, 0, 0, 0, -101.0 / 99, -200.0 / 99, 0, 0, -1, 0};
        Frustum frustum = Frustum.fromViewProjection(m, 0, MatrixLayout.ROW_MAJOR, ClipDepth.NEGATIVE_ONE_TO_ONE);
        ConvexRegion region = ConvexRegion.of(frustum);
        // the far plane is at z = -100: k up to 8 lies on the right plane inside the depth range, 16 beyond it
        assertEquals(Geom.OUTSIDE, frustum.classify(new Aabb(48, 0, -144, 48, 0, -144)));
        for (int k = 1; k <= 8; k *= 2) {
            Aabb point = new Aabb(3 * k, 0, -9 * k, 3 * k, 0, -9 * k);
            assertTrue(frustum.classify(point) != Geom.OUTSIDE, "k " + k);
            assertTrue(region.cull(region.allPlanes(), 3 * k, 0, -9 * k, 3 * k, 0, -9 * k) != FrustumAabb.CULLED,
                    "k " + k);
        }
        // integer cameras (a signed axis permutation, an integer translation, an integer projection) and marquees
        // on eighths of the screen: points whose clip coordinates lie exactly on a side plane
        SplittableRandom random = new SplittableRandom(29);
        int onSides = 0;
        for (int trial = 0; trial < 3000; trial++) {
            long fx = random.nextLong(1, 50);
            long fy = random.nextLong(1, 50);
            long a = -1; // an infinite far plane: every point in front of the near plane has its depth in range
            long b = -random.nextLong(1, 1000);
            int[] axis = {0, 1, 2};
            for (int i = 2; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = axis[i];
                axis[i] = axis[j];
                axis[j] = t;
            }
            long[] sign = {random.nextBoolean() ? 1 : -1, random.nextBoolean() ? 1 : -1, random.nextBoolean() ? 1 : -1};
            long[] shift = {random.nextLong(-1_000_000, 1_000_000), random.nextLong(-1_000_000, 1_000_000),
                random.nextLong(-1_000_000, 1_000_000)};
            // view (x, y, z) = sign * (p[axis] - shift[axis]); clip = (fx x, fy y, a z + b, -z)
            double[] vp = new double[16];
            long[] rowScale = {fx, fy, a};
            for (int r = 0; r < 3; r++) {
                vp[4 * r + axis[r]] = rowScale[r] * sign[r];
                vp[4 * r + 3] = -rowScale[r] * sign[r] * shift[axis[r]] + (r == 2 ? b : 0);
            }
            vp[12 + axis[2]] = -sign[2];
            vp[15] = sign[2] * shift[axis[2]];
            double u0 = random.nextInt(-4, 13) / 8.0;
            double u1 = random.nextInt(-4, 13) / 8.0;
            double v0 = random.nextInt(-4, 13) / 8.0;
            double v1 = random.nextInt(-4, 13) / 8.0;
            boolean gl = random.nextBoolean();
            Frustum marquee = Frustum.fromViewProjection(vp, 0, MatrixLayout.ROW_MAJOR,
                    gl ? ClipDepth.NEGATIVE_ONE_TO_ONE : ClipDepth.ZERO_TO_ONE, u0, v0, u1, v1);
            ConvexRegion marqueeRegion = ConvexRegion.of(marquee);
            for (int i = 0; i < 10; i++) {
                long k = fx * fy * random.nextLong(1, 200); // so that the view coordinates come out whole
                long w = 8 * k;
                long z = -w;
                long zc = a * z + b;
                if (zc < (gl ? -w : 0) || zc > w) {
                    continue;
                }
                // xc on the left or right side of the marquee: xc = (2 u - 1) w = 8 (2 u - 1) k
                long mx = Math.round(8 * (2 * (random.nextBoolean() ? Math.min(u0, u1) : Math.max(u0, u1)) - 1));
                long my = Math.round(8 * (2 * Math.min(v0, v1) - 1)) + random.nextLong(0,
                        Math.round(16 * Math.abs(v1 - v0)) + 1);
                long xc = mx * k;
                long yc = my * k;
                if (xc % fx != 0 || yc % fy != 0) {
                    continue;
                }
                long[] view = {xc / fx, yc / fy, z};
                double[] p = new double[3];
                for (int r = 0; r < 3; r++) {
                    p[axis[r]] = sign[r] * view[r] + shift[axis[r]];
                }
                onSides++;
                Aabb point = new Aabb(p[0], p[1], p[2], p[0], p[1], p[2]);
                String at = "trial " + trial + ": " + Arrays.toString(p);
                assertTrue(marquee.classify(point) != Geom.OUTSIDE, at);
                assertTrue(marqueeRegion.cull(marqueeRegion.allPlanes(), p[0], p[1], p[2], p[0], p[1], p[2])
                        != FrustumAabb.CULLED, at);
            }
        }
        assertTrue(onSides > 1000, "points on a side: " + onSides);
    }
}
