package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.LevelScenes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Region queries on a mapped world against the brute-force scan with the same origin (same floats, same handles). */
@ExtendWith(TracedReferences.class)
class MappedRegionQueriesTest {

    private static final long[] MASKS = {-1L, 0x00F0_0000_0000_0001L};
    private static final QueryFilter SOME = (handle, userValue) -> (userValue & 3) != 0;

    @TempDir
    Path dir;

    private final TraversalStack stack = new TraversalStack();
    private final AllOverlaps actual = new AllOverlaps();
    private final AllOverlaps expected = new AllOverlaps();
    private int nonEmpty;

    static Stream<TestWorld> worlds() {
        return Stream.of(
                TestWorld.empty(),
                TestWorld.single(false),
                TestWorld.clustered(20_000, 5),
                TestWorld.level(LevelScenes.Level.BOUNDS02));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldSelectExactlyLikeTheBruteForceScanInEveryMode(TestWorld world) throws IOException {
        Path file = dir.resolve(world.name + ".bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            BruteForceIndex oracle = world.oracle(mapped);
            double[] queries = world.boxQueries(60, 7);
            SplittableRandom random = new SplittableRandom(8);
            nonEmpty = 0;
            for (int q = 0; q < queries.length; q += 6) {
                double[] b = Arrays.copyOfRange(queries, q, q + 6);
                double[] around = centreAndSize(b);
                double cx = around[0];
                double cy = around[1];
                double cz = around[2];
                double size = around[3];
                double[] obb = randomObb(random, cx, cy, cz, size);
                ConvexRegion frustum = randomFrustum(random, cx, cy, cz, size);
                for (RegionMode mode : RegionMode.values()) {
                    for (long mask : MASKS) {
                        for (QueryFilter filter : new QueryFilter[] {null, SOME}) {
                            String what = world.name + " query " + q / 6 + " " + mode + " mask " + mask
                                    + (filter == null ? "" : " filtered");
                            compare("sphere " + what,
                                    v -> mapped.querySphere(cx, cy, cz, 0.5 * size, mode, mask, filter, v, stack),
                                    v -> oracle.querySphere(cx, cy, cz, 0.5 * size, mode, mask, filter, v));
                            compare("box " + what,
                                    v -> mapped.queryBox(b[0], b[1], b[2], b[3], b[4], b[5], mode, mask, filter, v,
                                            stack),
                                    v -> oracle.queryBox(b[0], b[1], b[2], b[3], b[4], b[5], mode, mask, filter, v));
                            compare("obb " + what,
                                    v -> mapped.queryObb(obb, 0, mode, mask, filter, v, stack),
                                    v -> oracle.queryObb(obb, 0, mode, mask, filter, v));
                            compare("frustum " + what,
                                    v -> mapped.queryConvex(frustum, mode, mask, filter, v, stack),
                                    v -> oracle.queryConvex(frustum, mode, mask, filter, v));
                        }
                    }
                }
            }
            assertTrue(world.size() < 2 || nonEmpty > 100, "the queries select something: " + nonEmpty);
        }
    }

    /**
     * Boxes around the apex of a needle (side planes at 1e-9 radians from the x axis, capped at x = -10): beyond
     * the apex a box can be within rounding of every plane yet farther from the region than its tolerance, and the
     * stored tree's subtrees must be decided as the objects alone are.
     */
    @Test
    void shouldSelectLikeTheBruteForceScanBeyondANeedleSharpCorner() throws IOException {
        double apex = 131072;
        double s = 1e-9;
        ConvexRegion needle = new ConvexRegion(new double[] {
            s, 1, 0, apex, s, -1, 0, -apex, s, 0, 1, apex, s, 0, -1, -apex, -1, 0, 0, 10}, 5);
        SplittableRandom random = new SplittableRandom(43);
        double[] boxes = new double[6 * 4000];
        for (int i = 0; i < 4000; i++) {
            double x = Math.copySign(Math.pow(10, random.nextDouble(-7, -1)), random.nextDouble(-1, 1));
            double off = Math.abs(x) * Math.pow(10, random.nextDouble(-12, -3));
            double y = apex + random.nextDouble(-off, off);
            double z = apex + random.nextDouble(-off, off);
            double e = random.nextBoolean() ? 0 : off * random.nextDouble();
            double[] box = {x, y, z, x + e, y + e, z + e};
            System.arraycopy(box, 0, boxes, 6 * i, 6);
        }
        // one box as far on the other side, so that the world's origin is far from the apex (as the tree's origin
        // 0 is): in a frame centred on the apex the plane distances round finely and nothing is in doubt
        double[] far = {-5, -apex, -apex, -5, -apex, -apex};
        System.arraycopy(far, 0, boxes, 0, 6);
        TestWorld world = new TestWorld("needle", boxes, 44, false);
        Path file = dir.resolve("needle.bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            BruteForceIndex oracle = world.oracle(mapped);
            nonEmpty = 0;
            for (RegionMode mode : RegionMode.values()) {
                compare("needle " + mode, v -> mapped.queryConvex(needle, mode, -1L, null, v, stack),
                        v -> oracle.queryConvex(needle, mode, -1L, null, v));
            }
            assertTrue(nonEmpty == 3, "every mode selects something");
        }
    }

    @Test
    void shouldStopWhenTheVisitorSaysSoAndRejectBadArguments() throws IOException {
        TestWorld world = TestWorld.clustered(2_000, 9);
        Path file = dir.resolve("w.bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            double[] b = new double[6];
            mapped.getBounds(b);
            int[] seen = new int[1];
            OverlapVisitor firstOnly = (handle, userValue) -> ++seen[0] < 1;
            mapped.queryBox(b[0], b[1], b[2], b[3], b[4], b[5], RegionMode.WINDOW, -1L, null, firstOnly, stack);
            assertTrue(seen[0] == 1, "stopped after one object, saw " + seen[0]);
            assertThrows(IllegalArgumentException.class, () -> mapped.queryBox(1, 0, 0, 0, 1, 1, RegionMode.WINDOW,
                    -1L, null, actual, stack));
            assertThrows(IllegalArgumentException.class, () -> mapped.querySphere(0, 0, 0, -1, RegionMode.WINDOW,
                    -1L, null, actual, stack));
            assertThrows(IllegalArgumentException.class, () -> mapped.querySphere(0, 0, 0, 1, null, -1L, null,
                    actual, stack));
            assertThrows(IllegalArgumentException.class, () -> mapped.queryObb(new double[ObbLayout.STRIDE], 0,
                    RegionMode.CROSSING, -1L, null, actual, stack));
            ConvexRegion halfSpace = new ConvexRegion(new double[] {0, 0, 1, 0}, 1);
            assertThrows(IllegalArgumentException.class, () -> mapped.queryConvex(halfSpace, RegionMode.CROSSING,
                    -1L, null, actual, stack));
            mapped.close();
            assertThrows(IllegalStateException.class, () -> mapped.queryBox(0, 0, 0, 1, 1, 1, RegionMode.WINDOW,
                    -1L, null, actual, stack));
        }
    }

    private void compare(String what, Consumer<OverlapVisitor> mapped, Consumer<OverlapVisitor> oracle) {
        actual.reset();
        expected.reset();
        mapped.accept(actual);
        oracle.accept(expected);
        actual.sort();
        expected.sort();
        assertArrayEquals(handles(expected), handles(actual), what);
        if (expected.count() > 0) {
            nonEmpty++;
        }
    }

    private static int[] handles(AllOverlaps overlaps) {
        int[] h = new int[overlaps.count()];
        for (int i = 0; i < h.length; i++) {
            h[i] = overlaps.handle(i);
        }
        return h;
    }

    /** The centre of a query box and its largest edge (at least 1e-3): where the other shapes are put. */
    static double[] centreAndSize(double[] b) {
        return new double[] {0.5 * (b[0] + b[3]), 0.5 * (b[1] + b[4]), 0.5 * (b[2] + b[5]),
            Math.max(1e-3, Math.max(b[3] - b[0], Math.max(b[4] - b[1], b[5] - b[2])))};
    }

    /** An oriented box around the point, from a random unit quaternion. */
    static double[] randomObb(SplittableRandom r, double cx, double cy, double cz, double size) {
        double qw = r.nextDouble(-1, 1);
        double qx = r.nextDouble(-1, 1);
        double qy = r.nextDouble(-1, 1);
        double qz = r.nextDouble(-1, 1);
        double n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
        qw /= n;
        qx /= n;
        qy /= n;
        qz /= n;
        Obb obb = new Obb(cx, cy, cz,
                1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qw * qz), 2 * (qx * qz - qw * qy),
                2 * (qx * qy - qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qw * qx),
                2 * (qx * qz + qw * qy), 2 * (qy * qz - qw * qx), 1 - 2 * (qx * qx + qy * qy),
                size * r.nextDouble(0.1, 1), size * r.nextDouble(0.1, 1), size * r.nextDouble(0.1, 1));
        double[] out = new double[ObbLayout.STRIDE];
        obb.writeTo(out, 0);
        return out;
    }

    /** A camera a few sizes away looking at the point; the whole frustum or a marquee part of it. */
    static ConvexRegion randomFrustum(SplittableRandom r, double cx, double cy, double cz, double size) {
        double d = size * r.nextDouble(1, 4);
        double ex = cx + d * r.nextDouble(-1, 1);
        double ey = cy + d * r.nextDouble(-1, 1);
        double ez = cz + d * r.nextDouble(0.2, 1);
        PerspectiveCamera camera = PerspectiveCamera.lookAt(ex, ey, ez, cx, cy, cz, 0, 0, 1,
                r.nextDouble(0.3, 1.5), r.nextDouble(0.5, 2), d * 0.05, d * 3);
        if (r.nextBoolean()) {
            return camera.frustum();
        }
        double u0 = r.nextDouble(0, 0.5);
        double v0 = r.nextDouble(0, 0.5);
        return camera.frustum(u0, v0, u0 + r.nextDouble(0.1, 0.5), v0 + r.nextDouble(0.1, 0.5));
    }
}
