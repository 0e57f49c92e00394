package dev.boxwood.index;

import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sphere, box-window, oriented-box and convex-region queries against the brute-force oracle, and their geometry. */
class RegionQueriesTest {

    private final TraversalStack stack = new TraversalStack(2);
    private final AllOverlaps fromTree = new AllOverlaps();
    private final AllOverlaps fromBrute = new AllOverlaps();
    private long compared;
    private long reported;

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(41);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerRegionQueriesLikeBruteForceThroughMutations(QueryWorld w) {
        for (int op = 0; op < 400; op++) {
            w.mutate(Math.min(400, w.pool.size()));
            if (op % 4 == 0) {
                compareRandomQueries(w);
            }
        }
        assertTrue(reported > compared / 4, w + ": queries should mostly report objects, " + reported);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerRegionQueriesLikeBruteForceOnTheFullWorld(QueryWorld w) {
        w.addAll();
        for (int q = 0; q < 50; q++) {
            compareRandomQueries(w);
        }
        assertTrue(reported > compared / 4, w + ": queries should mostly report objects, " + reported);
    }

    @Test
    void shouldSelectTheSameBoxesAsTheBruteForceInAnOrientedWindowFlushWithANode() {
        // without margins the root's box is the larger box's: the window holds it with its half extent to the
        // last ulp, and the smaller box inside it must be decided as its own test decides it, not taken whole
        double[] outer = {4.103996276855469, 6.7386298179626465, 4.796705722808838, 6.243305683135986,
            7.053384780883789, 9.714531898498535};
        double[] inner = outer.clone();
        inner[1] = 6.78727388381958;
        double[] window = {4.2701498283560415, 1.3170034420191246, 0, 0.3840718817911529, 0.923303194848476, 0,
            -0.9233031948484759, 0.3840718817911529, 0, 0, 0, 1, 6.054252899255487, 100, 100};
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0, 0));
        dev.boxwood.testkit.BruteForceIndex brute = new dev.boxwood.testkit.BruteForceIndex();
        for (double[] b : new double[][] {outer, inner}) {
            tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, -1L);
            brute.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, -1L);
        }
        reset();
        RegionQueries.queryObb(tree, window, 0, RegionMode.WINDOW, -1L, null, fromTree, stack);
        brute.queryObb(window, 0, RegionMode.WINDOW, -1L, null, fromBrute);
        QueryWorld.assertSameSorted(fromBrute, fromTree, "oriented window flush with the root's box");
    }

    @Test
    void shouldTestAnOrientedBoxWithSlightlySkewAxesAsItsOrthonormalForm() {
        // axis 0 is 4e-6 too long (within the accepted tolerance); a point 0.999999 along it is inside the box
        double[] obb = {0, 0, 0, 1 + 4e-6, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
        double[] rotated = {0, 0, 0, 0.6, 0.8 + 4e-6, 0, -0.8, 0.6, 0, 0, 0, 1, 1, 1, 1};
        for (double[] o : new double[][] {obb, rotated}) {
            // 0.999999 along the axis's direction: inside the box that Obb.read makes of the array
            double length = Math.hypot(o[3], o[4]);
            double px = 0.999999 * o[3] / length;
            double py = 0.999999 * o[4] / length;
            for (double origin : new double[] {0, 1e6}) {
                DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin, 0, 0));
                dev.boxwood.testkit.BruteForceIndex brute = new dev.boxwood.testkit.BruteForceIndex(origin, 0, 0);
                tree.add(px, py, 0, px, py, 0, 7, -1L);
                brute.add(px, py, 0, px, py, 0, 7, -1L);
                for (RegionMode mode : new RegionMode[] {RegionMode.CROSSING, RegionMode.CROSSING_CONSERVATIVE}) {
                    reset();
                    RegionQueries.queryObb(tree, o, 0, mode, -1L, null, fromTree, stack);
                    brute.queryObb(o, 0, mode, -1L, null, fromBrute);
                    assertEquals(1, fromTree.count(), Arrays.toString(o) + " " + mode);
                    assertEquals(1, fromBrute.count(), Arrays.toString(o) + " " + mode);
                }
                assertTrue(Obb.read(o, 0).overlaps(new dev.boxwood.geom.Aabb(px, py, 0, px, py, 0)));
            }
        }
    }

    private void compareRandomQueries(QueryWorld w) {
        double[] p = new double[3];
        QueryFilter filter = w.random.nextInt(4) == 0 ? (handle, user) -> (user & 1) == 0 : null;
        for (RegionMode mode : RegionMode.values()) {
            long mask = w.randomMask();
            w.randomPoint(p);
            double r = w.randomReach();
            reset();
            RegionQueries.querySphere(w.tree, p[0], p[1], p[2], r, mode, mask, filter, fromTree, stack);
            w.brute.querySphere(p[0], p[1], p[2], r, mode, mask, filter, fromBrute);
            check(w + " sphere " + Arrays.toString(p) + " r " + r + " " + mode);

            double hx = w.randomReach();
            double hy = w.randomReach();
            double hz = w.randomReach();
            reset();
            RegionQueries.queryBox(w.tree, p[0] - hx, p[1] - hy, p[2] - hz, p[0] + hx, p[1] + hy, p[2] + hz, mode,
                    mask, filter, fromTree, stack);
            w.brute.queryBox(p[0] - hx, p[1] - hy, p[2] - hz, p[0] + hx, p[1] + hy, p[2] + hz, mode, mask, filter,
                    fromBrute);
            check(w + " box " + mode);

            double[] obb = randomObb(w.random, p, hx, hy, hz);
            reset();
            RegionQueries.queryObb(w.tree, obb, 3, mode, mask, filter, fromTree, stack);
            w.brute.queryObb(obb, 3, mode, mask, filter, fromBrute);
            check(w + " obb " + Arrays.toString(obb) + " " + mode);

            ConvexRegion region = w.random.nextBoolean() ? randomMarquee(w, p) : randomPolyhedron(w.random, p,
                    w.randomReach() + 1e-3 * w.scale);
            reset();
            RegionQueries.queryConvex(w.tree, region, mode, mask, filter, fromTree, stack);
            w.brute.queryConvex(region, mode, mask, filter, fromBrute);
            check(w + " convex " + Arrays.toString(region.planes()) + " " + mode);
        }
    }

    private void reset() {
        fromTree.reset();
        fromBrute.reset();
    }

    private void check(String where) {
        QueryWorld.assertSameSorted(fromBrute, fromTree, where);
        compared++;
        reported += fromBrute.count() > 0 ? 1 : 0;
    }

    /** A random rotation (from a random unit quaternion) around centre p, padded at offset 3 of the array. */
    static double[] randomObb(SplittableRandom random, double[] p, double hx, double hy, double hz) {
        double qw = random.nextGaussian();
        double qx = random.nextGaussian();
        double qy = random.nextGaussian();
        double qz = random.nextGaussian();
        double n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
        qw /= n;
        qx /= n;
        qy /= n;
        qz /= n;
        Obb obb = new Obb(p[0], p[1], p[2],
                1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qw * qz), 2 * (qx * qz - qw * qy),
                2 * (qx * qy - qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qw * qx),
                2 * (qx * qz + qw * qy), 2 * (qy * qz - qw * qx), 1 - 2 * (qx * qx + qy * qy),
                hx, hy, hz);
        double[] out = new double[3 + ObbLayout.STRIDE];
        obb.writeTo(out, 3);
        return out;
    }

    /** A camera some distance from p looking roughly at it, and a random marquee rectangle. */
    private static ConvexRegion randomMarquee(QueryWorld w, double[] p) {
        double distance = w.randomReach() * 3 + w.scale;
        double ex = p[0] + w.random.nextGaussian() * distance;
        double ey = p[1] + w.random.nextGaussian() * distance;
        double ez = p[2] + w.random.nextGaussian() * distance;
        PerspectiveCamera camera = PerspectiveCamera.lookAt(ex, ey, ez, p[0], p[1], p[2], 0, 0, 1,
                0.3 + w.random.nextDouble() * 1.5, 0.5 + w.random.nextDouble() * 2, distance * 0.05, distance * 3);
        double u0 = w.random.nextDouble();
        double v0 = w.random.nextDouble();
        return camera.frustum(u0, v0, u0 + w.random.nextDouble() * 0.5, v0 + w.random.nextDouble() * 0.5);
    }

    /** A random convex polyhedron: 4 to 20 planes tangent to a sphere around p, plus a bounding octahedron. */
    static ConvexRegion randomPolyhedron(SplittableRandom random, double[] p, double radius) {
        int count = 8 + random.nextInt(13);
        double[] planes = new double[4 * count];
        for (int i = 0; i < count; i++) {
            double nx;
            double ny;
            double nz;
            if (i < 8) {
                nx = (i & 1) == 0 ? 1 : -1;
                ny = (i & 2) == 0 ? 1 : -1;
                nz = (i & 4) == 0 ? 1 : -1;
            } else {
                nx = random.nextGaussian();
                ny = random.nextGaussian();
                nz = random.nextGaussian();
            }
            double n = Math.sqrt(nx * nx + ny * ny + nz * nz);
            nx /= n;
            ny /= n;
            nz /= n;
            double reach = i < 8 ? radius * 1.7 : radius * (0.6 + random.nextDouble());
            planes[4 * i] = nx;
            planes[4 * i + 1] = ny;
            planes[4 * i + 2] = nz;
            planes[4 * i + 3] = nx * p[0] + ny * p[1] + nz * p[2] + reach;
        }
        return new ConvexRegion(planes, count);
    }

    // ------------------------------------------------------------------------------------------------------
    // Geometry of the exact convex test
    // ------------------------------------------------------------------------------------------------------

    @Test
    void shouldNotReportABoxBeyondAFrustumCornerInExactCrossingMode() {
        PerspectiveCamera camera = PerspectiveCamera.lookAt(0, 0, 0, 10, 3, 2, 0, 0, 1, Math.PI / 3, 1.5, 1, 30);
        ConvexRegion frustum = camera.frustum();
        SplittableRandom random = new SplittableRandom(5);
        int found = 0;
        for (int i = 0; i < 20000 && found < 20; i++) {
            // a box around a random vertex of the frustum, where the plane test over-reports
            int v = random.nextInt(frustum.vertexCount());
            double[] box = new double[6];
            for (int a = 0; a < 3; a++) {
                double c = frustum.vertex(v, a) + random.nextGaussian() * 2;
                double h = random.nextDouble() * 2;
                box[a] = c - h;
                box[a + 3] = c + h;
            }
            boolean planeTestSaysCrossing = frustum.cull(frustum.allPlanes(), box[0], box[1], box[2], box[3],
                    box[4], box[5]) > 0;
            if (!planeTestSaysCrossing || !intersectionOfBoth(frustum, box).isEmpty()) {
                continue;
            }
            found++;
            DynamicAabbTree tree = new DynamicAabbTree();
            tree.add(box[0], box[1], box[2], box[3], box[4], box[5], 1, 1);
            AllOverlaps out = new AllOverlaps();
            RegionQueries.queryConvex(tree, frustum, RegionMode.CROSSING_CONSERVATIVE, -1L, null, out, stack);
            assertEquals(1, out.count(), "the conservative mode reports the box beyond the corner");
            out.reset();
            RegionQueries.queryConvex(tree, frustum, RegionMode.CROSSING, -1L, null, out, stack);
            assertEquals(0, out.count(), "the exact mode does not: " + Arrays.toString(box));
        }
        assertTrue(found >= 20, "false positives of the plane test found: " + found);
    }

    /** The polyhedron bounded by the region's planes and the box's six planes: empty iff they do not meet. */
    private static ConvexRegion intersectionOfBoth(ConvexRegion region, double[] box) {
        double[] planes = Arrays.copyOf(region.planes(), 4 * (region.planeCount() + 6));
        int at = 4 * region.planeCount();
        for (int a = 0; a < 3; a++) {
            planes[at + 8 * a + a] = -1;
            planes[at + 8 * a + 3] = -box[a];
            planes[at + 8 * a + 4 + a] = 1;
            planes[at + 8 * a + 7] = box[a + 3];
        }
        return new ConvexRegion(planes, region.planeCount() + 6);
    }

    @Test
    void shouldDecideConvexOverlapExactlyAgainstTheIntersectionOfBothPolyhedra() {
        SplittableRandom random = new SplittableRandom(7);
        int overlaps = 0;
        int disagreementsOfPlaneTest = 0;
        for (int i = 0; i < 3000; i++) {
            double[] p = {random.nextDouble() * 10, random.nextDouble() * 10, random.nextDouble() * 10};
            ConvexRegion region = randomPolyhedron(random, p, 1 + random.nextDouble() * 3);
            double[] box = new double[6];
            for (int a = 0; a < 3; a++) {
                double c = p[a] + random.nextGaussian() * 4;
                double h = random.nextDouble() * 2;
                box[a] = c - h;
                box[a + 3] = c + h;
            }
            // reference: the box and the region overlap iff the polyhedron bounded by both plane sets is not
            // empty (a non-empty bounded polyhedron has a vertex)
            boolean expected = !intersectionOfBoth(region, box).isEmpty();
            boolean actual = region.testBox(box[0], box[1], box[2], box[3], box[4], box[5]);
            assertEquals(expected, actual, "region " + Arrays.toString(region.planes()) + " box "
                    + Arrays.toString(box));
            overlaps += expected ? 1 : 0;
            boolean planeOnly = region.cull(region.allPlanes(), box[0], box[1], box[2], box[3], box[4], box[5]) >= 0;
            disagreementsOfPlaneTest += planeOnly != expected ? 1 : 0;
        }
        assertTrue(overlaps > 300 && overlaps < 2700, "mix of overlapping and separate cases: " + overlaps);
        assertTrue(disagreementsOfPlaneTest > 10, "the plane test alone should over-report some boxes: "
                + disagreementsOfPlaneTest);
    }

    @Test
    void shouldBoundTheMarqueeFrustumBetweenNearAndFarBehindTheRectangle() {
        PerspectiveCamera camera = PerspectiveCamera.lookAt(1, 2, 3, 11, 2, 3, 0, 0, 1, Math.PI / 3, 16.0 / 9, 0.5,
                50);
        ConvexRegion marquee = camera.frustum(0.25, 0.25, 0.75, 0.5);
        assertTrue(marquee.isBounded());
        assertEquals(8, marquee.vertexCount());
        double[] ray = new double[6];
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200; i++) {
            double u = random.nextDouble();
            double v = random.nextDouble();
            double t = random.nextDouble();
            camera.pickRay(u, v, ray);
            double x = ray[0] + t * ray[3];
            double y = ray[1] + t * ray[4];
            double z = ray[2] + t * ray[5];
            boolean inRectangle = u >= 0.25 && u <= 0.75 && v >= 0.25 && v <= 0.5;
            double eps = 1e-9;
            if (Math.abs(u - 0.25) > eps && Math.abs(u - 0.75) > eps && Math.abs(v - 0.25) > eps
                    && Math.abs(v - 0.5) > eps) {
                assertEquals(inRectangle, marquee.containsBox(x, y, z, x, y, z), "u " + u + " v " + v + " t " + t);
            }
        }
        // depth: the pick ray starts on the near plane and ends on the far plane (camera looks along +x)
        camera.pickRay(0.5, 0.5, ray);
        assertEquals(1.5, ray[0], 1e-12);
        assertEquals(51, ray[0] + ray[3], 1e-12);
    }

    @Test
    void shouldRejectBadInputNamingTheArgument() {
        DynamicAabbTree tree = new DynamicAabbTree();
        AllOverlaps out = new AllOverlaps();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                RegionQueries.querySphere(tree, 0, 0, 0, -1, RegionMode.CROSSING, -1L, null, out, stack));
        assertTrue(e.getMessage().contains("radius"));
        e = assertThrows(IllegalArgumentException.class, () ->
                RegionQueries.querySphere(tree, Double.NaN, 0, 0, 1, RegionMode.CROSSING, -1L, null, out, stack));
        assertTrue(e.getMessage().contains("centerX"));
        double[] skewed = new double[ObbLayout.STRIDE];
        skewed[ObbLayout.AXES] = 1;
        skewed[ObbLayout.AXES + 3] = 1;
        skewed[ObbLayout.AXES + 8] = 1;
        e = assertThrows(IllegalArgumentException.class, () ->
                RegionQueries.queryObb(tree, skewed, 0, RegionMode.CROSSING, -1L, null, out, stack));
        assertTrue(e.getMessage().contains("obb"));
        ConvexRegion halfSpace = new ConvexRegion(new double[] {0, 0, 1, 0}, 1);
        assertFalse(halfSpace.isBounded());
        e = assertThrows(IllegalArgumentException.class, () ->
                RegionQueries.queryConvex(tree, halfSpace, RegionMode.CROSSING, -1L, null, out, stack));
        assertTrue(e.getMessage().contains("region"));
        // the reference refuses it alike (it reported only the boxes holding the origin)
        dev.boxwood.testkit.BruteForceIndex brute = new dev.boxwood.testkit.BruteForceIndex();
        brute.add(0, 0, -2, 1, 1, -1, 0, 1);
        IllegalArgumentException fromBrute = assertThrows(IllegalArgumentException.class, () ->
                brute.queryConvex(halfSpace, RegionMode.CROSSING, -1L, null, out));
        assertEquals(e.getMessage(), fromBrute.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ConvexRegion(new double[] {0, 0, 0, 1}, 1));
        assertTrue(e.getMessage().contains("planes[0]"));
        e = assertThrows(IllegalArgumentException.class, () ->
                new PerspectiveCamera(0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 1, 1, 2));
        assertTrue(e.getMessage().contains("up"));
        // the conservative and window modes work on unbounded regions
        tree.add(0, 0, -2, 1, 1, -1, 0, 1);
        RegionQueries.queryConvex(tree, halfSpace, RegionMode.WINDOW, -1L, null, out, stack);
        assertEquals(1, out.count());
    }

    /**
     * The planes {@code PerspectiveCamera.lookAt(0, 0, 0, 2, 1, -3, 0, 1, 0, PI / 3, 1.5, 0.1, 100)} makes for the
     * marquee {@code frustum(-5.773190298287291E11, 0, 1, 1)}, before they are normalized (written out so that no
     * tangent's last bit decides the test): bounded by the slimmest margin.
     */
    private static final double[] AT_THE_BOUNDEDNESS_THRESHOLD = {
        -5.344935617979216E11, -2.6724678089854477E11, 8.017403426950796E11, 0.0,
        0.369140244451568, -0.23145502494313785, 1.2490652710546426, 0.0,
        -0.16035683659196356, -1.1179274616215236, 0.24053525488794533, 0.0,
        -0.4568565632564041, 0.8093207616973398, 0.6852848448846061, 0.0,
        -0.5345224838248488, -0.2672612419124244, 0.8017837257372732, -0.1,
        0.5345224838248488, 0.2672612419124244, -0.8017837257372732, 100.0};

    @Test
    void shouldReportTheSameObjectsOfARegionAtTheBoundednessThresholdWhateverTheOrigin() {
        ConvexRegion region = new ConvexRegion(AT_THE_BOUNDEDNESS_THRESHOLD, 6);
        assertTrue(region.isBounded());
        double q = 10 / Math.sqrt(14);
        for (double[] origin : new double[][] {{0, 0, 0}, {1, 2, 3}}) {
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin[0], origin[1],
                    origin[2]));
            BruteForceIndex brute = new BruteForceIndex(origin[0], origin[1], origin[2]);
            // around the eye, over the near plane; and inside the region, 10 along the view axis
            tree.add(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 1, -1L);
            brute.add(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 1, -1L);
            tree.add(2 * q - 0.1, q - 0.1, -3 * q - 0.1, 2 * q + 0.1, q + 0.1, -3 * q + 0.1, 2, -1L);
            brute.add(2 * q - 0.1, q - 0.1, -3 * q - 0.1, 2 * q + 0.1, q + 0.1, -3 * q + 0.1, 2, -1L);
            reset();
            RegionQueries.queryConvex(tree, region, RegionMode.CROSSING, -1L, null, fromTree, stack);
            brute.queryConvex(region, RegionMode.CROSSING, -1L, null, fromBrute);
            String where = "origin " + Arrays.toString(origin);
            assertArrayEquals(new long[] {1, 2}, QueryWorld.sortedUserValues(fromTree), where);
            assertArrayEquals(new long[] {1, 2}, QueryWorld.sortedUserValues(fromBrute), where);
        }
    }

    @Test
    void shouldSelectObjectsFarAlongAMarqueeReachingFarOffScreen() {
        PerspectiveCamera camera = PerspectiveCamera.lookAt(0, 0, 0, 2, 1, -3, 0, 1, 0, Math.PI / 3, 1.5, 0.1, 100);
        ConvexRegion marquee = camera.frustum(-1e8, 0, 1, 1);
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex brute = new BruteForceIndex();
        double[] ray = new double[6];
        // 1e6 screen widths to the left, some 7e7 from the eye (float steps of 8): inside the region, and the last
        // one over the far plane
        double[][] points = {{0.5, 0.4}, {0.45, 0.5}, {0.55, 0.6}, {0.5, 1}};
        for (int i = 0; i < points.length; i++) {
            camera.pickRay(-1e6, points[i][0], ray);
            double t = points[i][1];
            double x = ray[0] + t * ray[3];
            double y = ray[1] + t * ray[4];
            double z = ray[2] + t * ray[5];
            double h = i == 3 ? 1e3 : 1;
            tree.add(x - h, y - h, z - h, x + h, y + h, z + h, i, -1L);
            brute.add(x - h, y - h, z - h, x + h, y + h, z + h, i, -1L);
        }
        reset();
        RegionQueries.queryConvex(tree, marquee, RegionMode.WINDOW, -1L, null, fromTree, stack);
        brute.queryConvex(marquee, RegionMode.WINDOW, -1L, null, fromBrute);
        assertArrayEquals(new long[] {0, 1, 2}, QueryWorld.sortedUserValues(fromBrute), "brute force, window");
        assertArrayEquals(new long[] {0, 1, 2}, QueryWorld.sortedUserValues(fromTree), "tree, window");
        reset();
        RegionQueries.queryConvex(tree, marquee, RegionMode.CROSSING, -1L, null, fromTree, stack);
        brute.queryConvex(marquee, RegionMode.CROSSING, -1L, null, fromBrute);
        assertArrayEquals(new long[] {0, 1, 2, 3}, QueryWorld.sortedUserValues(fromBrute), "brute force, crossing");
        assertArrayEquals(new long[] {0, 1, 2, 3}, QueryWorld.sortedUserValues(fromTree), "tree, crossing");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldSelectObjectsInsideAMarqueeWhateverHowFarItReachesOffScreenUntilTheRegionIsUnbounded(boolean corner) {
        // the side planes turn towards the view direction as the marquee's left edge (and, for a corner, its bottom
        // edge too) moves off screen: its far corners come from ever more nearly singular plane triples, which must
        // be solved while the region is still bounded (dropped, the exact test rejected boxes inside the region)
        PerspectiveCamera camera = PerspectiveCamera.lookAt(0, 0, 0, 2, 1, -3, 0, 1, 0, Math.PI / 3, 1.5, 0.1, 100);
        double[] ray = new double[6];
        int bounded = 0;
        for (double u = -1e4; ; u *= 1.25) {
            ConvexRegion marquee = camera.frustum(u, corner ? u : 0, 1, 1);
            DynamicAabbTree tree = new DynamicAabbTree();
            BruteForceIndex brute = new BruteForceIndex();
            // screen point and depth (0 near, 1 far): near the far-off corners, half way, and on screen
            double[][] points = corner
                    ? new double[][] {{0.999 * u, 0.999 * u, 0.01}, {0.999 * u, 0.999 * u, 0.99},
                        {0.5 * u, 0.999 * u, 0.5}, {0.5, 0.5, 0.5}}
                    : new double[][] {{0.999 * u, 0.5, 0.01}, {0.999 * u, 0.5, 0.99}, {0.5 * u, 0.01, 0.5},
                        {0.5, 0.5, 0.5}};
            for (int i = 0; i < points.length; i++) {
                camera.pickRay(points[i][0], points[i][1], ray);
                double t = points[i][2];
                double x = ray[0] + t * ray[3];
                double y = ray[1] + t * ray[4];
                double z = ray[2] + t * ray[5];
                double h = (Math.abs(x) + Math.abs(y) + Math.abs(z)) * 1e-6;
                tree.add(x - h, y - h, z - h, x + h, y + h, z + h, i, -1L);
                brute.add(x - h, y - h, z - h, x + h, y + h, z + h, i, -1L);
            }
            if (!marquee.isBounded()) {
                assertThrows(IllegalArgumentException.class, () -> RegionQueries.queryConvex(tree, marquee,
                        RegionMode.CROSSING, -1L, null, fromTree, stack));
                break;
            }
            bounded++;
            reset();
            RegionQueries.queryConvex(tree, marquee, RegionMode.CROSSING, -1L, null, fromTree, stack);
            brute.queryConvex(marquee, RegionMode.CROSSING, -1L, null, fromBrute);
            assertArrayEquals(new long[] {0, 1, 2, 3}, QueryWorld.sortedUserValues(fromBrute), "brute force, u = " + u);
            assertArrayEquals(new long[] {0, 1, 2, 3}, QueryWorld.sortedUserValues(fromTree), "tree, u = " + u);
        }
        assertTrue(bounded > 60, "bounded up to 1e4 * 1.25^" + bounded + " screen widths");
    }

    @Test
    void shouldQueryAnObliquePlaneNearTheEndOfTheRangeInAFarFrame() {
        // fits once normalized (0.8 * MAX_VALUE over a unit normal); in the tree's frame it lies 1.4e300 farther
        ConvexRegion region = new ConvexRegion(new double[] {0.6, 0.8, 0, 0.8 * Double.MAX_VALUE}, 1);
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(-1e300, -1e300, 0));
        tree.add(-1e300, -1e300, 0, -1e300, -1e300, 0, 7, -1L);
        reset();
        RegionQueries.queryConvex(tree, region, RegionMode.WINDOW, -1L, null, fromTree, stack);
        assertArrayEquals(new long[] {7}, QueryWorld.sortedUserValues(fromTree));
    }

    @Test
    void shouldReportABoxTouchingAnObliqueFaceOfAConvexRegion() {
        // the tetrahedron x, y, z >= 0, x + y + z <= 1; the point (2^-10, 0.09375, 0.9052734375) lies on its
        // oblique face exactly (the normalized face has equal normal components and d equal to them), but its
        // distance to the face rounds to one unit in the last place above 0
        ConvexRegion tetrahedron = new ConvexRegion(new double[] {
            -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 1, 1, 1, 1}, 4);
        double x = 0x1p-10;
        double y = 0.09375;
        double z = 0.9052734375;
        assertEquals(1, x + y + z);
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex brute = new BruteForceIndex();
        tree.add(x, y, z, x, y, z, 1, -1L);
        brute.add(x, y, z, x, y, z, 1, -1L);
        for (RegionMode mode : new RegionMode[] {RegionMode.CROSSING, RegionMode.CROSSING_CONSERVATIVE}) {
            reset();
            RegionQueries.queryConvex(tree, tetrahedron, mode, -1L, null, fromTree, stack);
            brute.queryConvex(tetrahedron, mode, -1L, null, fromBrute);
            assertArrayEquals(new long[] {1}, QueryWorld.sortedUserValues(fromTree), "tree, " + mode);
            assertArrayEquals(new long[] {1}, QueryWorld.sortedUserValues(fromBrute), "brute force, " + mode);
        }
        assertTrue(tetrahedron.testBox(x, y, z, x, y, z));
    }

    @Test
    void shouldReportABoxTouchedBySphereWhoseSquaredOffsetsRound() {
        // the sphere's surface passes through the box corner (0, 0, 0) exactly: 44076023^2 + 184745854^2
        // + 42115414^2 = 194544171^2, though the squares have more than 53 bits and round
        double[] origins = {0, 1 << 20};
        for (double origin : origins) {
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin, -origin, origin));
            BruteForceIndex brute = new BruteForceIndex(origin, -origin, origin);
            tree.add(origin, -origin, origin, origin + 1, 1 - origin, origin + 1, 1, -1L);
            brute.add(origin, -origin, origin, origin + 1, 1 - origin, origin + 1, 1, -1L);
            double cx = origin - 44076023;
            double cy = -origin - 184745854;
            double cz = origin - 42115414;
            for (RegionMode mode : new RegionMode[] {RegionMode.CROSSING, RegionMode.CROSSING_CONSERVATIVE}) {
                reset();
                RegionQueries.querySphere(tree, cx, cy, cz, 194544171, mode, -1L, null, fromTree, stack);
                brute.querySphere(cx, cy, cz, 194544171, mode, -1L, null, fromBrute);
                assertArrayEquals(new long[] {1}, QueryWorld.sortedUserValues(fromTree), "tree, " + mode);
                assertArrayEquals(new long[] {1}, QueryWorld.sortedUserValues(fromBrute), "brute force, " + mode);
            }
        }
    }

    /**
     * A needle: four side planes at {@code s} radians from the x axis meeting at the apex {@code (0, 2^17, 2^17)},
     * capped at x = -10. Just beyond the apex a box is within rounding of every side plane (each distance is
     * {@code s x}, below half an ulp of the planes' offsets) while it lies farther from the region than the
     * tolerance; a subtree there was culled by the vertex box while the same object on its own passed the planes.
     */
    @Test
    void shouldAgreeWithTheBruteForceBeyondANeedleSharpCorner() {
        double apex = 131072;
        SplittableRandom random = new SplittableRandom(41);
        int reported = 0;
        int beyond = 0;
        for (double s : new double[] {1e-9, 1e-8, 1e-6}) {
            ConvexRegion needle = new ConvexRegion(new double[] {
                s, 1, 0, apex,
                s, -1, 0, -apex,
                s, 0, 1, apex,
                s, 0, -1, -apex,
                -1, 0, 0, 10}, 5);
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0, 0));
            BruteForceIndex brute = new BruteForceIndex();
            // the reproducer: a point 2^-10 beyond the apex (user value 1) and one 1 beyond it (2)
            java.util.Set<Long> farBeyond = new java.util.HashSet<>(java.util.List.of(1L, 2L));
            tree.add(0x1p-10, apex, apex, 0x1p-10, apex, apex, 1, -1L);
            brute.add(0x1p-10, apex, apex, 0x1p-10, apex, apex, 1, -1L);
            tree.add(1, apex, apex, 1, apex, apex, 2, -1L);
            brute.add(1, apex, apex, 1, apex, apex, 2, -1L);
            for (int i = 0; i < 300; i++) {
                // x from 1e-7 to 10 on either side of the apex, off the axis by up to 1e-3 of that
                double x = Math.copySign(Math.pow(10, random.nextDouble(-7, 1)), random.nextDouble(-1, 1));
                double off = Math.abs(x) * Math.pow(10, random.nextDouble(-12, -3));
                double y = apex + random.nextDouble(-off, off);
                double z = apex + random.nextDouble(-off, off);
                double e = random.nextBoolean() ? 0 : off * random.nextDouble();
                tree.add(x, y, z, x + e, y + e, z + e, 1_000 + i, -1L);
                brute.add(x, y, z, x + e, y + e, z + e, 1_000 + i, -1L);
                if (x > 1e-3) {
                    // at least x from the apex, the region's nearest point: beyond the tolerance of 3.9e-4
                    farBeyond.add(1_000L + i);
                    beyond++;
                }
            }
            tree.validate();
            for (RegionMode mode : RegionMode.values()) {
                fromTree.reset();
                fromBrute.reset();
                RegionQueries.queryConvex(tree, needle, mode, -1L, null, fromTree, stack);
                brute.queryConvex(needle, mode, -1L, null, fromBrute);
                long[] expected = QueryWorld.sortedUserValues(fromBrute);
                assertArrayEquals(expected, QueryWorld.sortedUserValues(fromTree), "s = " + s + ", " + mode);
                if (mode != RegionMode.CROSSING_CONSERVATIVE) {
                    reported += expected.length;
                    // nothing beyond the apex by more than the tolerance in an exact mode
                    for (long value : expected) {
                        assertFalse(farBeyond.contains(value), "object " + value + " beyond the apex, s = " + s
                                + ", " + mode);
                    }
                }
            }
            // the region's own predicates say the same of the point beyond the apex
            assertFalse(needle.testBox(0x1p-10, apex, apex, 0x1p-10, apex, apex));
            assertFalse(needle.containsBox(0x1p-10, apex, apex, 0x1p-10, apex, apex));
            assertTrue(needle.testBox(-1, apex, apex, -1, apex, apex));
            assertTrue(needle.containsBox(-1, apex, apex, -1, apex, apex));
        }
        assertTrue(reported > 300, "objects inside the needle are reported: " + reported);
        assertTrue(beyond > 100);
    }
}
