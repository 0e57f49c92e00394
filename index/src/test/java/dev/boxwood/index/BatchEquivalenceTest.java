package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactGeometry;
import org.junit.jupiter.api.Test;

/**
 * Every answer of {@link BatchQueries} equals the single query's for the same input, bit for bit, on 1..4 threads
 * (its own, or borrowed from an application's executor) and batch sizes 0, 1, odd and not divisible by the chunking; rejected batches write nothing; the single answers
 * agree with the exact reference on a sample; concurrent single queries on one tree equal sequential ones.
 * Larger runs: {@code -Dboxwood.batcheq.queries=N} (default 700 per batch).
 */
class BatchEquivalenceTest {

    private static final int QUERIES = Integer.getInteger("boxwood.batcheq.queries", 700);
    /** An application's pool of two threads: fewer than the batches of four threads ask for. */
    private static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "application-pool");
        t.setDaemon(true);
        return t;
    });
    private static final int[] COUNTS = {0, 1, 2, 3, 7, 31, 63, 64, 65, 129, 257, QUERIES | 1};

    /** A grid world about a far origin: boxes touching along faces, flat and point boxes, three categories. */
    private static DynamicAabbTree world(long seed, double ox, double oy, double oz, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(ox, oy, oz));
        for (int i = 0; i < n; i++) {
            double[] b = new double[6];
            for (int a = 0; a < 3; a++) {
                int lo = r.nextInt(40) - 20;
                int w = r.nextInt(6) == 0 ? 0 : r.nextInt(4);
                double o = a == 0 ? ox : a == 1 ? oy : oz;
                b[a] = o + lo;
                b[a + 3] = o + lo + w;
            }
            tree.add(b[0], b[1], b[2], b[3], b[4], b[5], i * 7L, 1L << r.nextInt(3));
        }
        // a few removals, so handles have gaps
        for (int h = 0; h < n; h += 11) {
            tree.remove(h);
        }
        return tree;
    }

    /** A brute-force copy of the tree with its origin and stored boxes (the same handles). */
    private static dev.boxwood.testkit.BruteForceIndex brute(DynamicAabbTree tree) {
        dev.boxwood.testkit.BruteForceIndex b = new dev.boxwood.testkit.BruteForceIndex(tree.originX(),
                tree.originY(), tree.originZ());
        double[] box = new double[6];
        int[] live = tree.liveHandles();
        int max = live.length == 0 ? 0 : Arrays.stream(live).max().getAsInt();
        java.util.Set<Integer> alive = new java.util.HashSet<>();
        for (int h : live) {
            alive.add(h);
        }
        List<Integer> dead = new ArrayList<>();
        for (int h = 0; h <= max; h++) {
            if (alive.contains(h)) {
                tree.getTightBox(h, box);
                assertEquals(h, b.add(box[0], box[1], box[2], box[3], box[4], box[5], tree.userValue(h),
                        tree.categoryBits(h)));
            } else {
                assertEquals(h, b.add(0, 0, 0, 0, 0, 0, 0, 0));
                dead.add(h);
            }
        }
        for (int h : dead) {
            b.remove(h);
        }
        return b;
    }

    /** Segments on the grid: from, to (3 each), half-integer starts, axis-parallel ones lying on faces. */
    private static double[][] segments(long seed, double ox, double oy, double oz, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(4);
            for (int a = 0; a < 3; a++) {
                double o = a == 0 ? ox : a == 1 ? oy : oz;
                double s = o + r.nextInt(50) - 25 + (r.nextInt(4) == 0 ? 0.5 : 0);
                double e = kind == 0 && a != 0 ? s : o + r.nextInt(50) - 25;
                if (kind == 1) {
                    e = s; // zero length
                }
                from[3 * i + a] = s;
                to[3 * i + a] = e;
            }
        }
        return new double[][] {from, to};
    }

    @Test
    void batchesShouldEqualSingleQueriesBitForBit() {
        double[][] origins = {{0, 0, 0}, {1e6 + 0.5, -2e7, 3e5}, {-1e12, 1e12, 4}};
        int checked = 0;
        for (int oi = 0; oi < origins.length; oi++) {
            double[] o = origins[oi];
            DynamicAabbTree tree = world(11 + oi, o[0], o[1], o[2], 900);
            DynamicAabbTree statics = world(101 + oi, o[0], o[1], o[2], 300);
            TreeSnapshots snaps = new TreeSnapshots(tree);
            snaps.publish();
            try (ReadView view = snaps.acquire()) {
                for (int threads = 1; threads <= 4; threads++) {
                    // threads of its own, then an application's pool and the common pool (fewer threads than the
                    // batch asks for, busy with other work, or shared by the runners)
                    for (int kind = 0; kind < 3; kind++) {
                        try (BatchQueries batch = kind == 0 ? new BatchQueries(threads)
                                : new BatchQueries(kind == 1 ? POOL : ForkJoinPool.commonPool(), threads)) {
                            for (int count : COUNTS) {
                                long seed = 1000L * oi + 10L * threads + count;
                                SpatialQueries index = (count & 1) == 0 ? tree : view;
                                checked += compare(batch, index, statics, seed, count, o, tree);
                                if (count < 100 && kind == 0) {
                                    checked += compare(batch, brute(tree), statics, seed, count, o, tree);
                                }
                            }
                        }
                    }
                }
            }
        }
        System.out.println("batch equivalence: " + checked + " answers compared");
    }

    private int compare(BatchQueries batch, SpatialQueries index, DynamicAabbTree statics, long seed, int count,
                        double[] o, DynamicAabbTree tree) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] seg = segments(seed, o[0], o[1], o[2], count);
        double[] from = seg[0];
        double[] to = seg[1];
        int[] ig1 = new int[count];
        int[] ig2 = new int[count];
        for (int i = 0; i < count; i++) {
            ig1[i] = r.nextInt(3) == 0 ? Handles.NONE : r.nextInt(900);
            ig2[i] = r.nextInt(2) == 0 ? Handles.NONE : r.nextInt(900);
        }
        long mask = r.nextBoolean() ? -1L : 1 + r.nextInt(6);
        TraversalStack stack = new TraversalStack();
        AnyHit any = new AnyHit();
        ClosestHit closest = new ClosestHit();
        // line of sight, with and without ignored handles, with and without statics
        for (int variant = 0; variant < 4; variant++) {
            boolean[] visible = new boolean[count + 1];
            visible[count] = true; // beyond count: untouched
            int[] a = variant % 2 == 0 ? ig1 : null;
            int[] b = variant % 2 == 0 ? ig2 : null;
            if (variant < 2) {
                batch.lineOfSight(index, from, to, a, b, count, mask, visible);
            } else {
                batch.lineOfSight(statics, index, from, to, a, b, count, 3L, mask, visible);
            }
            assertTrue(visible[count]);
            for (int i = 0; i < count; i++) {
                any.setIgnored(a == null ? Handles.NONE : a[i], b == null ? Handles.NONE : b[i]);
                double tx = to[3 * i] - from[3 * i];
                double ty = to[3 * i + 1] - from[3 * i + 1];
                double tz = to[3 * i + 2] - from[3 * i + 2];
                index.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], tx, ty, tz, 1.0, mask, any, stack);
                boolean clear = !any.hasHit();
                if (clear && variant >= 2) {
                    any.setIgnored(Handles.NONE, Handles.NONE);
                    statics.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], tx, ty, tz, 1.0, 3L, any, stack);
                    clear = !any.hasHit();
                }
                assertEquals(clear, visible[i], "line of sight " + i + " variant " + variant + " count " + count);
            }
        }
        // closest rays: origins = from, translations = to - from, some maxFraction
        double[] trans = new double[3 * count];
        for (int i = 0; i < 3 * count; i++) {
            trans[i] = to[i] - from[i];
        }
        double maxFraction = r.nextBoolean() ? 1.0 : 0.5 + r.nextInt(3);
        int[] handles = new int[count + 1];
        double[] fractions = new double[count + 1];
        handles[count] = 12345;
        fractions[count] = 42.0;
        batch.closestRays(index, from, trans, count, maxFraction, mask, handles, fractions);
        assertEquals(12345, handles[count]);
        assertEquals(42.0, fractions[count]);
        int sampled = 0;
        for (int i = 0; i < count; i++) {
            index.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], trans[3 * i], trans[3 * i + 1],
                    trans[3 * i + 2], maxFraction, mask, closest, stack);
            assertEquals(closest.handle(), handles[i], "closest handle " + i);
            assertEquals(Double.doubleToRawLongBits(closest.fraction()), Double.doubleToRawLongBits(fractions[i]),
                    "closest fraction " + i);
            if (i % 17 == 0) {
                exactClosest(tree, from, trans, i, maxFraction, mask, handles[i], fractions[i]);
                sampled++;
            }
        }
        if (!(index instanceof dev.boxwood.query.ShapeQueries)) {
            // the brute-force reference: its batch answers equal the tree's single ones (same origin, same floats)
            for (int i = 0; i < count; i++) {
                tree.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], trans[3 * i], trans[3 * i + 1],
                        trans[3 * i + 2], maxFraction, mask, closest, stack);
                assertEquals(closest.handle(), handles[i], "tree vs brute force " + i);
                assertEquals(closest.fraction(), fractions[i], "tree vs brute force " + i);
            }
            return count * 5;
        }
        // spheres
        RegionMode[] modes = RegionMode.values();
        double[] spheres = new double[4 * count];
        for (int i = 0; i < count; i++) {
            spheres[4 * i] = from[3 * i];
            spheres[4 * i + 1] = from[3 * i + 1];
            spheres[4 * i + 2] = from[3 * i + 2];
            spheres[4 * i + 3] = r.nextInt(5) == 0 ? 0 : r.nextInt(8) * 0.5;
        }
        for (int maxPer : new int[] {0, 1, 3, 2000}) {
            RegionMode mode = modes[r.nextInt(modes.length)];
            if (maxPer == 2000 && count > 100) {
                continue;
            }
            int[] sh = new int[count * maxPer + 1];
            Arrays.fill(sh, -7);
            int[] counts = new int[count + 1];
            counts[count] = -9;
            batch.spheres((dev.boxwood.query.ShapeQueries) index, spheres, count, mode, mask, maxPer, sh, counts);
            assertEquals(-9, counts[count]);
            assertEquals(-7, sh[count * maxPer]);
            AllOverlaps all = new AllOverlaps();
            for (int i = 0; i < count; i++) {
                all.reset();
                ((dev.boxwood.query.ShapeQueries) index).querySphere(spheres[4 * i], spheres[4 * i + 1],
                        spheres[4 * i + 2], spheres[4 * i + 3], mode, mask, null, all, stack);
                int[] hs = new int[all.count()];
                for (int k = 0; k < hs.length; k++) {
                    hs[k] = all.handle(k);
                }
                Arrays.sort(hs);
                assertEquals(hs.length, counts[i], "sphere count " + i + " mode " + mode);
                int kept = Math.min(hs.length, maxPer);
                assertArrayEquals(Arrays.copyOf(hs, kept), Arrays.copyOfRange(sh, i * maxPer, i * maxPer + kept),
                        "sphere handles " + i + " mode " + mode + " maxPer " + maxPer);
                for (int k = i * maxPer + kept; k < (i + 1) * maxPer; k++) {
                    assertEquals(-7, sh[k], "slot beyond the kept handles written " + i);
                }
            }
        }
        return count * 7 + sampled;
    }

    /** The closest hit of ray {@code i} against the exact entries into the stored boxes. */
    private static void exactClosest(DynamicAabbTree tree, double[] from, double[] trans, int i, double maxFraction,
                                     long mask, int handle, double fraction) {
        double[] o = {from[3 * i] - tree.originX(), from[3 * i + 1] - tree.originY(), from[3 * i + 2] - tree.originZ()};
        double[] d = {trans[3 * i], trans[3 * i + 1], trans[3 * i + 2]};
        ExactGeometry.Rational best = null;
        float[] f = new float[6];
        ExactGeometry.Rational chosen = null;
        for (int h : tree.liveHandles()) {
            if ((tree.categoryBits(h) & mask) == 0) {
                continue;
            }
            tree.getStoredTightBox(h, f);
            double[] b = new double[6];
            for (int k = 0; k < 6; k++) {
                b[k] = f[k];
            }
            ExactGeometry.SegmentResult x = ExactGeometry.segment(o, d, maxFraction, b);
            if (x.hit && (best == null || x.entry.compareTo(best) < 0)) {
                best = x.entry;
            }
            if (h == handle) {
                chosen = x.entry;
                assertTrue(x.hit || x.relativeMiss() < 1e-14, "closest object not hit exactly " + i);
            }
        }
        if (best == null) {
            assertEquals(Handles.NONE, handle, "exact miss, reported " + handle + " ray " + i);
        } else {
            ExactGeometry.Rational b2 = best;
            assertTrue(handle != Handles.NONE, "exact hit missed, ray " + i);
            assertTrue(chosen != null && ExactGeometry.fractionAgrees(fraction, chosen, 4, 0));
            // the kept object enters at the exact minimum, or (a near miss within the slab slack) no later
            assertTrue(ExactGeometry.fractionAgrees(fraction, best, 4, 0) || chosen.compareTo(best) <= 0,
                    () -> "closest " + fraction + " vs " + b2 + " ray " + i);
        }
    }

    @Test
    void rejectedBatchesShouldWriteNothing() {
        DynamicAabbTree tree = world(5, 1e6, 0, 0, 100);
        try (BatchQueries batch = new BatchQueries(3)) {
            int count = 9;
            double[][] seg = segments(6, 1e6, 0, 0, count);
            double[] bad = seg[0].clone();
            bad[3 * 7 + 1] = Double.NaN;
            boolean[] visible = new boolean[count];
            Arrays.fill(visible, true);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> batch.lineOfSight(tree, bad, seg[1], null, null, count, -1L, visible));
            assertTrue(e.getMessage().contains("7"), e.getMessage());
            for (boolean v : visible) {
                assertTrue(v);
            }
            double[] inf = seg[1].clone();
            inf[3 * 8 + 2] = Double.POSITIVE_INFINITY;
            assertThrows(IllegalArgumentException.class,
                    () -> batch.lineOfSight(tree, tree, seg[0], inf, null, null, count, -1L, -1L, visible));
            // overflowing difference
            double[] far = seg[1].clone();
            far[0] = Double.MAX_VALUE;
            double[] farFrom = seg[0].clone();
            farFrom[0] = -Double.MAX_VALUE;
            assertThrows(IllegalArgumentException.class,
                    () -> batch.lineOfSight(tree, farFrom, far, null, null, count, -1L, visible));
            for (boolean v : visible) {
                assertTrue(v);
            }
            int[] handles = new int[count];
            double[] fractions = new double[count];
            Arrays.fill(handles, 77);
            Arrays.fill(fractions, 77);
            double[] tr = seg[1].clone();
            tr[5] = Double.NaN;
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(tree, seg[0], tr, count, 1.0, -1L, handles, fractions));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(tree, seg[0], seg[1], count, Double.NaN, -1L, handles, fractions));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(tree, seg[0], seg[1], count, -0.5, -1L, handles, fractions));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(tree, seg[0], seg[1], count, 1.0, -1L, handles, seg[0]));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(tree, seg[0], seg[1], -1, 1.0, -1L, handles, fractions));
            for (int i = 0; i < count; i++) {
                assertEquals(77, handles[i]);
                assertEquals(77.0, fractions[i]);
            }
            double[] spheres = new double[4 * count];
            int[] sh = new int[4 * count];
            int[] counts = new int[count];
            Arrays.fill(sh, 5);
            Arrays.fill(counts, 5);
            for (double badValue : new double[] {Double.NaN, -1.0, Double.POSITIVE_INFINITY, 1e151}) {
                double[] s = spheres.clone();
                s[4 * 4 + 3] = badValue;
                assertThrows(IllegalArgumentException.class,
                        () -> batch.spheres(tree, s, count, RegionMode.CROSSING, -1L, 4, sh, counts));
            }
            double[] s2 = spheres.clone();
            s2[4 * 2] = Double.NaN;
            assertThrows(IllegalArgumentException.class,
                    () -> batch.spheres(tree, s2, count, RegionMode.CROSSING, -1L, 4, sh, counts));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.spheres(tree, spheres, count, RegionMode.CROSSING, -1L, -1, sh, counts));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.spheres(tree, spheres, count, RegionMode.CROSSING, -1L, 5, sh, counts));
            for (int v : sh) {
                assertEquals(5, v);
            }
            for (int v : counts) {
                assertEquals(5, v);
            }
            // the instance still takes the next batch
            batch.closestRays(tree, seg[0], seg[1], count, 1.0, -1L, handles, fractions);
        }
    }

    @Test
    void aFailingQueryShouldReachTheCallerAndFreeTheInstance() {
        DynamicAabbTree tree = world(9, 0, 0, 0, 200);
        int count = 301;
        double[][] seg = segments(10, 0, 0, 0, count);
        double[] trans = new double[3 * count];
        for (int i = 0; i < 3 * count; i++) {
            trans[i] = seg[1][i] - seg[0][i];
        }
        seg[0][3 * 150] = 1e9; // marker
        RuntimeException boom = new IllegalStateException("boom");
        try (BatchQueries batch = new BatchQueries(3)) {
            SpatialQueries failing = new DelegatingIndex(tree) {
                @Override public void rayCast(double ox, double oy, double oz, double tx, double ty, double tz,
                                              double max, long m, dev.boxwood.query.RayCastVisitor v,
                                              TraversalStack s) {
                    if (ox == 1e9) {
                        throw boom;
                    }
                    tree.rayCast(ox, oy, oz, tx, ty, tz, max, m, v, s);
                }
            };
            int[] h = new int[count];
            double[] f = new double[count];
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> batch.closestRays(failing, seg[0], trans, count, 1.0, -1L, h, f));
            assertTrue(e == boom, String.valueOf(e));
            seg[0][3 * 150] = 0;
            batch.closestRays(failing, seg[0], trans, count, 1.0, -1L, h, f);
            // a batch started from inside a query of the same instance is refused
            boolean[] vis = new boolean[count];
            SpatialQueries reentrant = new DelegatingIndex(tree) {
                @Override public void rayCast(double ox, double oy, double oz, double tx, double ty, double tz,
                                              double max, long m, dev.boxwood.query.RayCastVisitor v,
                                              TraversalStack s) {
                    batch.closestRays(tree, seg[0], trans, 1, 1.0, -1L, new int[1], new double[1]);
                }
            };
            assertThrows(IllegalStateException.class,
                    () -> batch.lineOfSight(reentrant, seg[0], seg[1], null, null, count, -1L, vis));
            batch.closestRays(tree, seg[0], trans, count, 1.0, -1L, h, f);
        }
    }

    @Test
    void concurrentSingleQueriesShouldEqualSequentialOnes() throws Exception {
        DynamicAabbTree tree = world(77, -3e6, 5e6, 0.5, 1500);
        int n = 3000;
        double[][] seg = segments(78, -3e6, 5e6, 0.5, n);
        double[] trans = new double[3 * n];
        for (int i = 0; i < 3 * n; i++) {
            trans[i] = seg[1][i] - seg[0][i];
        }
        int[] wantH = new int[n];
        double[] wantF = new double[n];
        int[] wantCount = new int[n];
        run(tree, seg[0], trans, 0, n, wantH, wantF, wantCount);
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Object[]>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    int[] h = new int[n];
                    double[] f = new double[n];
                    int[] c = new int[n];
                    start.await();
                    for (int rep = 0; rep < 3; rep++) {
                        run(tree, seg[0], trans, 0, n, h, f, c);
                    }
                    return new Object[] {h, f, c};
                }));
            }
            start.countDown();
            for (Future<Object[]> fu : futures) {
                Object[] got = fu.get();
                assertArrayEquals(wantH, (int[]) got[0]);
                assertArrayEquals(wantF, (double[]) got[1]);
                assertArrayEquals(wantCount, (int[]) got[2]);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void run(DynamicAabbTree tree, double[] from, double[] trans, int a, int b, int[] h, double[] f,
                            int[] c) {
        TraversalStack stack = new TraversalStack();
        ClosestHit hit = new ClosestHit();
        AllOverlaps all = new AllOverlaps();
        for (int i = a; i < b; i++) {
            tree.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], trans[3 * i], trans[3 * i + 1],
                    trans[3 * i + 2], 1.0, -1L, hit, stack);
            h[i] = hit.handle();
            f[i] = hit.fraction();
            all.reset();
            tree.queryAabb(from[3 * i] - 1, from[3 * i + 1] - 1, from[3 * i + 2] - 1, from[3 * i] + 1,
                    from[3 * i + 1] + 1, from[3 * i + 2] + 1, -1L, all, stack);
            c[i] = all.count();
        }
    }
}
