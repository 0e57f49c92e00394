package dev.boxwood.index;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Read views: a held view keeps its version while the writer goes on; released views are recycled; and a stress
 * run where readers check every answer against a brute-force scan of the version they read.
 */
class ReadViewTest {

    /** The live objects of one published version: handles and world tight boxes (origin 0: floats exactly). */
    private static final class Version {
        final int[] handles;
        final double[][] boxes;

        Version(DynamicAabbTree tree, int[] live, int count) {
            handles = Arrays.copyOf(live, count);
            Arrays.sort(handles);
            boxes = new double[count][6];
            for (int i = 0; i < count; i++) {
                tree.getTightBox(handles[i], boxes[i]);
            }
        }

        int[] box(double[] q) {
            return select(i -> AabbAabb.test(boxes[i][0], boxes[i][1], boxes[i][2], boxes[i][3], boxes[i][4],
                    boxes[i][5], q[0], q[1], q[2], q[3], q[4], q[5]));
        }

        int[] sphere(double[] c, double r) {
            return select(i -> RegionTests.accepts(RegionMode.CROSSING, RegionTests.classifySphere(c[0], c[1], c[2], r,
                    boxes[i][0], boxes[i][1], boxes[i][2], boxes[i][3], boxes[i][4], boxes[i][5])));
        }

        private int[] select(java.util.function.IntPredicate p) {
            return java.util.stream.IntStream.range(0, handles.length).filter(p).map(i -> handles[i]).toArray();
        }

        /** Closest hit (lowest fraction, then lowest handle) as {handle, fraction bits}, or null. */
        double[] closest(double[] o, double[] t) {
            double best = -1;
            int bestHandle = -1;
            for (int i = 0; i < handles.length; i++) {
                double f = SegmentAabb.intersectInverse(o[0], o[1], o[2], SegmentAabb.inverse(t[0]),
                        SegmentAabb.inverse(t[1]), SegmentAabb.inverse(t[2]), 1.0, boxes[i][0], boxes[i][1],
                        boxes[i][2], boxes[i][3], boxes[i][4], boxes[i][5]);
                if (f >= 0 && (bestHandle < 0 || f < best)) {
                    best = f;
                    bestHandle = handles[i];
                }
            }
            return bestHandle < 0 ? null : new double[] {bestHandle, best};
        }

        int[] nearest(double[] p, int k) {
            Integer[] order = new Integer[handles.length];
            double[] d = new double[handles.length];
            for (int i = 0; i < handles.length; i++) {
                order[i] = i;
                d[i] = RegionTests.squaredDistance(p[0], p[1], p[2], boxes[i][0], boxes[i][1], boxes[i][2],
                        boxes[i][3], boxes[i][4], boxes[i][5]);
            }
            Arrays.sort(order, (x, y) -> d[x] != d[y] ? Double.compare(d[x], d[y]) : Integer.compare(x, y));
            int n = Math.min(k, handles.length);
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                out[i] = handles[order[i]];
            }
            return out;
        }
    }

    @Test
    void shouldKeepAHeldViewWhileTheWriterGoesOnAndRecycleReleasedViews() {
        DynamicAabbTree tree = new DynamicAabbTree();
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        assertThrows(IllegalStateException.class, snapshots::acquire);
        int a = tree.add(0, 0, 0, 1, 1, 1, 7, -1L);
        assertEquals(1, snapshots.publish());
        TraversalStack stack = new TraversalStack();
        AllOverlaps found = new AllOverlaps();
        try (ReadView held = snapshots.acquire()) {
            assertEquals(1, held.version());
            tree.remove(a);
            int b = tree.add(5, 5, 5, 6, 6, 6, 8, -1L);
            assertEquals(2, snapshots.publish());
            held.queryAabb(-10, -10, -10, 10, 10, 10, -1L, found, stack);
            assertEquals(1, found.count());
            assertEquals(a, found.handle(0));
            assertTrue(held.contains(a));
            assertFalse(held.contains(b));
            assertEquals(7, held.userValue(a));
            try (ReadView fresh = snapshots.acquire()) {
                assertNotSame(held, fresh);
                assertEquals(2, fresh.version());
                assertTrue(fresh.contains(b));
                assertFalse(fresh.contains(a));
                fresh.validate();
            }
            held.validate();
        }
        // nobody holds a view: publishing alternates between two views
        for (int i = 0; i < 10; i++) {
            tree.add(i, 0, 0, i + 1, 1, 1, i, -1L);
            snapshots.publish();
            try (ReadView v = snapshots.acquire()) {
                assertEquals(tree.size(), v.size());
                v.validate();
            }
        }
        assertEquals(2, snapshots.viewCount());
        ReadView v = snapshots.acquire();
        v.close();
        assertThrows(IllegalStateException.class, v::close);
        ReadView again = snapshots.acquire();
        assertSame(v, again);
        again.close();
    }

    @Test
    void shouldTrimRecycledViewsOnceTheTreeWasCompacted() {
        DynamicAabbTree tree = new DynamicAabbTree();
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        int[] handles = new int[20_000];
        for (int i = 0; i < handles.length; i++) {
            handles[i] = tree.add(i, 0, 0, i + 0.5, 1, 1, i, -1L);
        }
        snapshots.publish();
        snapshots.publish();
        for (int i = 1_000; i < handles.length; i++) {
            tree.remove(handles[i]);
        }
        tree.compact();
        int treeRecords = tree.records.length;
        for (int i = 0; i < 2; i++) {
            snapshots.publish();
            try (ReadView v = snapshots.acquire()) {
                // before, each view kept the node arrays of 20,000 objects: a compacted tree's views held ~20x more
                assertTrue(v.frozen.records.length <= treeRecords, v.frozen.records.length + " > " + treeRecords);
                assertTrue(v.frozen.parentEntries.length <= tree.parentEntries.length);
                assertEquals(1_000, v.size());
                v.validate();
            }
        }
        assertEquals(2, snapshots.viewCount());
    }

    @Test
    void shouldAnswerEveryReaderLikeBruteForceOnTheVersionItReadWhileTheWriterMutates() throws Exception {
        BoxSet pool = SyntheticWorld.clustered(1500, 91, WorldFrame.scaled(0.01)).boxes();
        DynamicAabbTree tree = new DynamicAabbTree();
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        Map<Long, Version> versions = new ConcurrentHashMap<>();
        int readers = 3;
        AtomicLongArray reading = new AtomicLongArray(readers);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong checked = new AtomicLong();
        // 2.5 s at least, and until both sides did over 100 rounds (a slow machine), at most 60 s
        long start = System.nanoTime();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        double[] extents = pool.bounds();

        int[] live = new int[pool.size()];
        int[] count = {0};
        SplittableRandom random = new SplittableRandom(92);
        for (int i = 0; i < 400; i++) {
            live[count[0]++] = tree.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i],
                    pool.maxZ[i], i, -1L);
        }
        versions.put(1L, new Version(tree, live, count[0]));
        snapshots.publish();
        for (int r = 0; r < readers; r++) {
            reading.set(r, Long.MAX_VALUE);
        }

        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            int id = r;
            threads.add(new Thread(() -> {
                SplittableRandom rr = new SplittableRandom(100 + id);
                TraversalStack stack = new TraversalStack();
                AllOverlaps found = new AllOverlaps();
                ClosestHit closest = new ClosestHit();
                NearestNeighbours nearest = new NearestNeighbours();
                try {
                    while (!done.get() && failure.get() == null) {
                        reading.set(id, snapshots.publishedVersion());
                        try (ReadView view = snapshots.acquire()) {
                            Version ref = versions.get(view.version());
                            assertTrue(ref != null, "no reference for version " + view.version());
                            assertEquals(ref.handles.length, view.size());
                            double[] p = point(rr, extents);
                            double reach = rr.nextDouble() * 30;
                            double[] q = {p[0] - reach, p[1] - reach, p[2] - reach, p[0] + reach, p[1] + reach,
                                    p[2] + reach};
                            found.reset();
                            view.queryAabb(q[0], q[1], q[2], q[3], q[4], q[5], -1L, found, stack);
                            found.sort();
                            assertArrayEqualsHandles(ref.box(q), found, "box, version " + view.version());
                            found.reset();
                            RegionQueries.querySphere(view, p[0], p[1], p[2], reach, RegionMode.CROSSING, -1L,
                                    null, found, stack);
                            found.sort();
                            assertArrayEqualsHandles(ref.sphere(p, reach), found, "sphere");
                            double[] t = {rr.nextDouble() * 200 - 100, rr.nextDouble() * 200 - 100,
                                    rr.nextDouble() * 10 - 5};
                            view.rayCast(p[0], p[1], p[2], t[0], t[1], t[2], 1.0, -1L, closest, stack);
                            double[] expected = ref.closest(p, t);
                            assertEquals(expected != null, closest.hasHit(), "ray hit");
                            if (expected != null) {
                                assertEquals((int) expected[0], closest.handle(), "ray handle");
                                assertEquals(expected[1], closest.fraction(), "ray fraction");
                            }
                            NearestQueries.kNearest(view, p[0], p[1], p[2], 5, Double.POSITIVE_INFINITY, -1L,
                                    null, null, nearest);
                            int[] near = ref.nearest(p, 5);
                            assertEquals(near.length, nearest.count(), "nearest count");
                            for (int i = 0; i < near.length; i++) {
                                assertEquals(near[i], nearest.handle(i), "nearest " + i);
                            }
                            if (rr.nextInt(50) == 0) {
                                view.validate();
                            }
                            checked.incrementAndGet();
                        } finally {
                            reading.set(id, Long.MAX_VALUE);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "reader-" + r));
        }
        threads.forEach(Thread::start);
        long publications = 0;
        while (failure.get() == null && System.nanoTime() - start < 60_000_000_000L
                && (System.nanoTime() - start < 2_500_000_000L || publications <= 100 || checked.get() <= 100)) {
            for (int op = 0, n = 1 + random.nextInt(30); op < n; op++) {
                int choice = random.nextInt(10);
                if (count[0] < 300 || choice < 2 && count[0] < pool.size()) {
                    int i = random.nextInt(pool.size());
                    live[count[0]++] = tree.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i],
                            pool.maxY[i], pool.maxZ[i], i, -1L);
                } else if (choice < 4) {
                    int k = random.nextInt(count[0]);
                    tree.remove(live[k]);
                    live[k] = live[--count[0]];
                } else {
                    int h = live[random.nextInt(count[0])];
                    double[] b = new double[6];
                    tree.getTightBox(h, b);
                    double dx = random.nextDouble() * 4 - 2;
                    double dy = random.nextDouble() * 4 - 2;
                    tree.move(h, b[0] + dx, b[1] + dy, b[2], b[3] + dx, b[4] + dy, b[5]);
                }
            }
            long next = snapshots.publishedVersion() + 1;
            versions.put(next, new Version(tree, live, count[0]));
            assertEquals(next, snapshots.publish());
            publications++;
            long oldestRead = Long.MAX_VALUE;
            for (int r = 0; r < readers; r++) {
                oldestRead = Math.min(oldestRead, reading.get(r));
            }
            long keepFrom = Math.min(oldestRead, next) - 1;
            versions.keySet().removeIf(v -> v < keepFrom);
            Thread.onSpinWait();
        }
        done.set(true);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("reader failed", failure.get());
        }
        tree.validate();
        assertTrue(publications > 100, "publications " + publications);
        assertTrue(checked.get() > 100, "reader checks " + checked.get());
        assertTrue(snapshots.viewCount() <= readers + 2, "views " + snapshots.viewCount());
    }

    private static double[] point(SplittableRandom r, double[] e) {
        return new double[] {e[0] + r.nextDouble() * (e[3] - e[0]), e[1] + r.nextDouble() * (e[4] - e[1]),
                e[2] + r.nextDouble() * (e[5] - e[2])};
    }

    private static void assertArrayEqualsHandles(int[] expected, AllOverlaps actual, String where) {
        assertEquals(expected.length, actual.count(), where + ": count");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual.handle(i), where);
        }
    }
}
