package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.NearestQueries;
import dev.boxwood.index.SweepQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.SegmentCollector;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.NearestRecorder;
import dev.boxwood.testkit.scenes.LevelScenes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Swept and nearest queries on a mapped world against the brute-force scan and the dynamic tree built over the
 * same boxes with the same origin (same stored floats, same handles): same objects, same times and distances.
 */
@ExtendWith(TracedReferences.class)
class MappedSweepNearestTest {

    private static final long[] MASKS = {-1L, 0x00F0_0000_0000_0001L};
    private static final QueryFilter SOME = (handle, userValue) -> (userValue & 3) != 0;

    @TempDir
    Path dir;

    private final TraversalStack stack = new TraversalStack();
    private int nonEmpty;

    static Stream<TestWorld> worlds() {
        return Stream.of(
                TestWorld.empty(),
                TestWorld.single(false),
                TestWorld.clustered(20_000, 5),
                farFromOrigin(TestWorld.clustered(5_000, 6), 3e7, -2e7, 1e7),
                TestWorld.level(LevelScenes.Level.BOUNDS01),
                TestWorld.level(LevelScenes.Level.BOUNDS03));
    }

    /** The same world moved far from the origin, where float steps are metres: the frame rule must hold. */
    static TestWorld farFromOrigin(TestWorld world, double x, double y, double z) {
        double[] moved = world.boxes.clone();
        for (int i = 0; i < moved.length; i += 3) {
            moved[i] += x;
            moved[i + 1] += y;
            moved[i + 2] += z;
        }
        return new TestWorld("far-" + world.name, moved, 11, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldSweepLikeTheBruteForceScanAndTheTree(TestWorld world) throws IOException {
        Path file = dir.resolve(world.name + ".bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            BruteForceIndex oracle = world.oracle(mapped);
            DynamicAabbTree tree = tree(world, mapped);
            double[] queries = world.boxQueries(40, 3);
            double[] segments = world.segments(queries.length / 6, 4);
            SplittableRandom random = new SplittableRandom(12);
            nonEmpty = 0;
            for (int q = 0; q < queries.length; q += 6) {
                double[] b = java.util.Arrays.copyOfRange(queries, q, q + 6);
                // a fraction of the world's diagonal per frame, so sweeps cross many objects
                double scale = random.nextDouble(0.05, 0.5);
                double dx = segments[q + 3] * scale;
                double dy = segments[q + 4] * scale;
                double dz = segments[q + 5] * scale;
                double cx = 0.5 * (b[0] + b[3]);
                double cy = 0.5 * (b[1] + b[4]);
                double cz = 0.5 * (b[2] + b[5]);
                double r = 0.25 * (b[3] - b[0]);
                for (long mask : MASKS) {
                    String what = world.name + " query " + q / 6 + " mask " + mask;
                    compareCasts("box " + what,
                            v -> mapped.sweepBox(b[0], b[1], b[2], b[3], b[4], b[5], dx, dy, dz, mask, v, stack),
                            v -> oracle.sweepBox(b[0], b[1], b[2], b[3], b[4], b[5], dx, dy, dz, mask, v),
                            v -> SweepQueries.sweepBox(tree, b[0], b[1], b[2], b[3], b[4], b[5], dx, dy, dz, mask, v,
                                    stack));
                    compareCasts("sphere " + what,
                            v -> mapped.sweepSphere(cx, cy, cz, r, dx, dy, dz, mask, v, stack),
                            v -> oracle.sweepSphere(cx, cy, cz, r, dx, dy, dz, mask, v),
                            v -> SweepQueries.sweepSphere(tree, cx, cy, cz, r, dx, dy, dz, mask, v, stack));
                }
            }
            assertTrue(world.size() < 2 || nonEmpty > 10, "the sweeps hit something: " + nonEmpty);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldFindTheNearestLikeTheBruteForceScanAndTheTree(TestWorld world) throws IOException {
        Path file = dir.resolve(world.name + ".bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            BruteForceIndex oracle = world.oracle(mapped);
            DynamicAabbTree tree = tree(world, mapped);
            double[] queries = world.boxQueries(40, 5);
            SplittableRandom random = new SplittableRandom(13);
            NearestNeighbours actual = new NearestNeighbours();
            NearestNeighbours browsed = new NearestNeighbours();
            NearestRecorder recorder = new NearestRecorder();
            NearestNeighbours fromTree = new NearestNeighbours();
            int n = world.size();
            int[] handles = new int[Math.max(1, n)];
            double[] distances = new double[Math.max(1, n)];
            nonEmpty = 0;
            for (int q = 0; q < queries.length; q += 6) {
                double x = queries[q];
                double y = queries[q + 4];
                double z = 0.5 * (queries[q + 2] + queries[q + 5]);
                double extent = queries[q + 3] - queries[q];
                int k = random.nextInt(4) == 0 ? n + 3 : 1 + random.nextInt(20);
                double maxDistance = random.nextBoolean() ? Double.POSITIVE_INFINITY : extent * random.nextDouble(0, 3);
                // an exact distance above the box distance that reorders objects (and drops a few)
                DistanceFunction exact = random.nextBoolean() ? null : (h, uv, px, py, pz) -> {
                    if ((uv & 15) == 0) {
                        return -1;
                    }
                    double[] box = new double[6];
                    mapped.getTightBox(h, box);
                    double dx = Math.max(0, Math.max(box[0] - px, px - box[3]));
                    double dy = Math.max(0, Math.max(box[1] - py, py - box[4]));
                    double dz = Math.max(0, Math.max(box[2] - pz, pz - box[5]));
                    return Math.sqrt(dx * dx + dy * dy + dz * dz) + 1 + (uv >>> 60);
                };
                for (long mask : MASKS) {
                    for (QueryFilter filter : new QueryFilter[] {null, SOME}) {
                        String what = world.name + " query " + q / 6 + " k " + k + " max " + maxDistance + " mask "
                                + mask + (filter == null ? "" : " filtered") + (exact == null ? "" : " exact");
                        int count = oracle.kNearest(x, y, z, k, maxDistance, mask, filter, exact, handles, distances);
                        mapped.kNearest(x, y, z, k, maxDistance, mask, filter, exact, actual);
                        NearestQueries.kNearest(tree, x, y, z, k, maxDistance, mask, filter, exact, fromTree);
                        assertEquals(count, actual.count(), what);
                        assertEquals(count, fromTree.count(), what);
                        for (int i = 0; i < count; i++) {
                            assertEquals(handles[i], actual.handle(i), what + " result " + i);
                            assertEquals(distances[i], actual.distance(i), what + " result " + i);
                            assertEquals(mapped.userValue(handles[i]), actual.userValue(i), what);
                            assertEquals(handles[i], fromTree.handle(i), what + " tree result " + i);
                            assertEquals(distances[i], fromTree.distance(i), what + " tree result " + i);
                        }
                        if (count > 0) {
                            nonEmpty++;
                        }
                        if (k > 0) {
                            mapped.browseNearest(x, y, z, maxDistance, mask, filter, exact, recorder.reset(k),
                                    browsed);
                            assertNull(recorder.differenceFrom(actual, what + " browsed"));
                            assertEquals(Math.min(k, count), recorder.count(), what + " browsed");
                        }
                    }
                }
                if (n > 0) {
                    mapped.nearest(x, y, z, Double.POSITIVE_INFINITY, -1L, null, null, actual);
                    oracle.kNearest(x, y, z, 1, Double.POSITIVE_INFINITY, -1L, null, null, handles, distances);
                    assertEquals(handles[0], actual.handle(0), world.name + " nearest");
                }
            }
            assertTrue(n < 2 || nonEmpty > 60, "the queries find something: " + nonEmpty);
        }
    }

    @Test
    void shouldStopAndClipAndRejectBadArguments() throws IOException {
        TestWorld world = TestWorld.clustered(2_000, 9);
        Path file = dir.resolve("w.bxw");
        world = world.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            double[] b = new double[6];
            mapped.getBounds(b);
            double dx = b[3] - b[0];
            int[] seen = new int[1];
            RayCastVisitor firstOnly = new RayCastVisitor() {
                @Override
                public double visit(int handle, long userValue, double fraction) {
                    seen[0]++;
                    return 0.0;
                }
            };
            mapped.sweepSphere(b[0], b[1], b[2], 0.5 * dx, dx, 0, 0, -1L, firstOnly, stack);
            assertEquals(1, seen[0], "stopped after one object");
            AnyHit any = new AnyHit();
            mapped.sweepBox(b[0], b[1], b[2], b[3], b[4], b[5], 1, 0, 0, -1L, any, stack);
            assertTrue(any.hasHit());
            NearestNeighbours dest = new NearestNeighbours();
            mapped.kNearest(0, 0, 0, 0, 1, -1L, null, null, dest);
            assertEquals(0, dest.count());
            assertThrows(IllegalArgumentException.class, () -> mapped.sweepBox(1, 0, 0, 0, 1, 1, 1, 1, 1, -1L, any,
                    stack));
            assertThrows(IllegalArgumentException.class, () -> mapped.sweepBox(0, 0, 0, 1, 1, 1, Double.NaN, 1, 1,
                    -1L, any, stack));
            assertThrows(IllegalArgumentException.class, () -> mapped.sweepSphere(0, 0, 0, -1, 1, 1, 1, -1L, any,
                    stack));
            assertThrows(IllegalArgumentException.class, () -> mapped.kNearest(0, 0, 0, -1, 1, -1L, null, null,
                    dest));
            assertThrows(IllegalArgumentException.class, () -> mapped.kNearest(0, 0, 0, 1, Double.NaN, -1L, null,
                    null, dest));
            assertThrows(IllegalArgumentException.class, () -> mapped.kNearest(Double.NaN, 0, 0, 1, 1, -1L, null,
                    null, dest));
            assertThrows(IllegalArgumentException.class, () -> mapped.browseNearest(0, 0, 0, 1, -1L, null, null,
                    null, dest));
            // a point so far that squared distances would overflow, and a short box destination: rejected
            assertThrows(IllegalArgumentException.class, () -> mapped.kNearest(mapped.originX() + 2e150, 0, 0, 1,
                    Double.POSITIVE_INFINITY, -1L, null, null, dest));
            double[] shortBox = {7, 7, 7};
            assertThrows(IllegalArgumentException.class, () -> mapped.getTightBox(0, shortBox));
            assertEquals(7.0, shortBox[2]);
            // maxDistance is closed on the reported distance: the nearest is found again within its own distance
            java.util.SplittableRandom random = new java.util.SplittableRandom(3);
            for (int q = 0; q < 300; q++) {
                double x = b[0] + random.nextDouble() * dx;
                double y = b[1] + random.nextDouble() * (b[4] - b[1]);
                double z = b[2] + random.nextDouble() * (b[5] - b[2]);
                mapped.nearest(x, y, z, Double.POSITIVE_INFINITY, -1L, null, null, dest);
                int nearest = dest.handle(0);
                double d = dest.distance(0);
                mapped.nearest(x, y, z, d, -1L, null, null, dest);
                assertEquals(1, dest.count(), "within the reported distance " + d);
                assertEquals(nearest, dest.handle(0));
            }
            mapped.close();
            assertThrows(IllegalStateException.class, () -> mapped.kNearest(0, 0, 0, 1, 1, -1L, null, null, dest));
            assertThrows(IllegalStateException.class, () -> mapped.browseNearest(0, 0, 0, 1, -1L, null, null,
                    new NearestRecorder(), dest));
            assertThrows(IllegalStateException.class, () -> mapped.sweepSphere(0, 0, 0, 1, 1, 1, 1, -1L, any,
                    stack));
        }
    }

    /** The dynamic tree over the same boxes, in the world's frame, so it stores the same floats. */
    private static DynamicAabbTree tree(TestWorld world, MappedWorld mapped) {
        return DynamicAabbTree.build(TreeConfig.defaults().withOrigin(mapped.originX(), mapped.originY(),
                mapped.originZ()), world.boxes, world.userValues, world.categories);
    }

    /** Closest, any and all hits of the three indexes agree (all hits: same handles and times). */
    private void compareCasts(String what, Consumer<RayCastVisitor> mapped, Consumer<RayCastVisitor> oracle,
                              Consumer<RayCastVisitor> tree) {
        AllHits[] all = {new AllHits(), new AllHits(), new AllHits()};
        ClosestHit[] closest = {new ClosestHit(), new ClosestHit(), new ClosestHit()};
        AnyHit[] any = {new AnyHit(), new AnyHit(), new AnyHit()};
        run(mapped, all[0], closest[0], any[0]);
        run(oracle, all[1], closest[1], any[1]);
        run(tree, all[2], closest[2], any[2]);
        for (int i : new int[] {0, 2}) {
            String who = (i == 0 ? "mapped " : "tree ") + what;
            assertArrayEquals(hits(all[1]), hits(all[i]), who + " all hits");
            assertEquals(closest[1].hasHit(), closest[i].hasHit(), who + " closest");
            if (closest[1].hasHit()) {
                assertEquals(closest[1].handle(), closest[i].handle(), who + " closest handle");
                assertEquals(closest[1].fraction(), closest[i].fraction(), who + " closest fraction");
            }
            assertEquals(any[1].hasHit(), any[i].hasHit(), who + " any");
        }
        if (all[1].count() > 0) {
            nonEmpty++;
        }
    }

    private static void run(Consumer<RayCastVisitor> query, AllHits all, ClosestHit closest, AnyHit any) {
        for (SegmentCollector c : new SegmentCollector[] {all, closest, any}) {
            c.reset();
            query.accept(c);
        }
        all.sort();
    }

    private static double[] hits(AllHits all) {
        double[] h = new double[2 * all.count()];
        for (int i = 0; i < all.count(); i++) {
            h[2 * i] = all.handle(i);
            h[2 * i + 1] = all.fraction(i);
        }
        return h;
    }
}
