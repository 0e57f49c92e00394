package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Batched line of sight, closest rays and sphere queries on several threads, against the brute-force oracle. */
class BatchQueriesTest {

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(53);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerEachBatchedQueryLikeBruteForce(QueryWorld w) {
        w.addAll();
        int n = 500;
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        int[] ignoreA = new int[n];
        int[] ignoreB = new int[n];
        double[] spheres = new double[4 * n];
        double[] p = new double[3];
        for (int i = 0; i < n; i++) {
            w.randomPoint(p);
            System.arraycopy(p, 0, from, 3 * i, 3);
            spheres[4 * i] = p[0];
            spheres[4 * i + 1] = p[1];
            spheres[4 * i + 2] = p[2];
            spheres[4 * i + 3] = w.randomReach();
            w.randomPoint(p);
            System.arraycopy(p, 0, to, 3 * i, 3);
            ignoreA[i] = w.live[w.random.nextInt(w.liveCount)];
            ignoreB[i] = w.random.nextBoolean() ? w.live[w.random.nextInt(w.liveCount)] : Handles.NONE;
        }
        double[] translations = new double[3 * n];
        for (int i = 0; i < 3 * n; i++) {
            translations[i] = to[i] - from[i];
        }
        boolean[] visible = new boolean[n];
        int[] handles = new int[n];
        double[] fractions = new double[n];
        int max = 8;
        int[] found = new int[n * max];
        int[] counts = new int[n];
        TraversalStack stack = new TraversalStack();
        AnyHit any = new AnyHit();
        ClosestHit closest = new ClosestHit();
        AllOverlaps all = new AllOverlaps();
        try (BatchQueries batch = new BatchQueries(3)) {
            for (int round = 0; round < 3; round++) {
                long mask = round == 0 ? -1L : w.random.nextLong();
                batch.lineOfSight(w.tree, from, to, ignoreA, ignoreB, n, mask, visible);
                batch.closestRays(w.tree, from, translations, n, 1.0, mask, handles, fractions);
                batch.spheres(w.tree, spheres, n, RegionMode.CROSSING, mask, max, found, counts);
                int blocked = 0;
                int overflowing = 0;
                for (int i = 0; i < n; i++) {
                    any.setIgnored(ignoreA[i], ignoreB[i]);
                    w.brute.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], translations[3 * i],
                            translations[3 * i + 1], translations[3 * i + 2], 1.0, mask, any, stack);
                    assertEquals(!any.hasHit(), visible[i], w + " line of sight " + i);
                    blocked += any.hasHit() ? 1 : 0;
                    w.brute.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], translations[3 * i],
                            translations[3 * i + 1], translations[3 * i + 2], 1.0, mask, closest, stack);
                    assertEquals(closest.hasHit() ? closest.handle() : Handles.NONE, handles[i], w + " ray " + i);
                    assertEquals(closest.hasHit() ? closest.fraction() : -1.0, fractions[i], w + " ray " + i);
                    all.reset();
                    w.brute.querySphere(spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2], spheres[4 * i + 3],
                            RegionMode.CROSSING, mask, null, all);
                    all.sort();
                    assertEquals(all.count(), counts[i], w + " sphere " + i);
                    overflowing += all.count() > max ? 1 : 0;
                    for (int k = 0; k < Math.min(max, all.count()); k++) {
                        assertEquals(all.handle(k), found[i * max + k], w + " sphere " + i);
                    }
                }
                if (round == 0) {
                    assertTrue(blocked > 5 && blocked < n, w + ": blocked lines " + blocked);
                    // the kept handles are the lowest of more than max found, not merely the first ones
                    assertTrue(overflowing > 5, w + ": spheres finding more than " + max + ": " + overflowing);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldCombineStaticGeometryAndEntitiesInOneLineOfSightBatch(QueryWorld w) {
        // the entities: the world's tree; the static geometry: a second world of the same kind, other seed
        QueryWorld statics = QueryWorld.worlds(97).filter(s -> s.name.equals(w.name)).findFirst().orElseThrow();
        w.addAll();
        statics.addAll();
        int n = 500;
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        int[] ignoreA = new int[n];
        int[] ignoreB = new int[n];
        double[] p = new double[3];
        for (int i = 0; i < n; i++) {
            w.randomPoint(p);
            System.arraycopy(p, 0, from, 3 * i, 3);
            w.randomPoint(p);
            System.arraycopy(p, 0, to, 3 * i, 3);
            ignoreA[i] = w.live[w.random.nextInt(w.liveCount)];
            ignoreB[i] = w.random.nextBoolean() ? w.live[w.random.nextInt(w.liveCount)] : Handles.NONE;
            if (i % 3 == 0) {
                // a wall half way along every third line, so that the static geometry blocks lines on its own
                double r = 0.05 * w.scale;
                double[] m = new double[3];
                for (int a = 0; a < 3; a++) {
                    m[a] = 0.5 * (from[3 * i + a] + to[3 * i + a]);
                }
                int h = statics.tree.add(m[0] - r, m[1] - r, m[2] - r, m[0] + r, m[1] + r, m[2] + r, i, 1L << (i % 64));
                assertEquals(h, statics.brute.add(m[0] - r, m[1] - r, m[2] - r, m[0] + r, m[1] + r, m[2] + r, i,
                        1L << (i % 64)));
            }
        }
        statics.tree.validate();
        boolean[] visible = new boolean[n];
        TraversalStack stack = new TraversalStack();
        AnyHit any = new AnyHit();
        try (BatchQueries batch = new BatchQueries(3)) {
            for (int round = 0; round < 4; round++) {
                long entityMask = round == 0 ? -1L : w.random.nextLong();
                long staticMask = round == 0 ? -1L : w.random.nextLong();
                // the views a game thread publishes serve as well as the trees
                SpatialQueries entities = round == 3 ? published(w.tree) : w.tree;
                SpatialQueries staticIndex = round == 3 ? published(statics.tree) : statics.tree;
                batch.lineOfSight(staticIndex, entities, from, to, ignoreA, ignoreB, n, staticMask, entityMask,
                        visible);
                int byEntities = 0;
                int byStaticsOnly = 0;
                for (int i = 0; i < n; i++) {
                    int a = 3 * i;
                    any.setIgnored(ignoreA[i], ignoreB[i]);
                    w.brute.rayCast(from[a], from[a + 1], from[a + 2], to[a] - from[a], to[a + 1] - from[a + 1],
                            to[a + 2] - from[a + 2], 1.0, entityMask, any, stack);
                    boolean clear = !any.hasHit();
                    byEntities += clear ? 0 : 1;
                    if (clear) {
                        // the ignored handles are the entities': the static world's objects of the same numbers block
                        any.setIgnored(Handles.NONE, Handles.NONE);
                        statics.brute.rayCast(from[a], from[a + 1], from[a + 2], to[a] - from[a],
                                to[a + 1] - from[a + 1], to[a + 2] - from[a + 2], 1.0, staticMask, any, stack);
                        clear = !any.hasHit();
                        byStaticsOnly += clear ? 0 : 1;
                    }
                    assertEquals(clear, visible[i], w + " round " + round + " line of sight " + i);
                }
                if (round == 0) {
                    assertTrue(byEntities > 5 && byStaticsOnly > 5 && byEntities + byStaticsOnly < n - 5, w
                            + ": " + byEntities + " blocked by entities, " + byStaticsOnly + " by statics only");
                }
                if (round == 3) {
                    ((ReadView) entities).close();
                    ((ReadView) staticIndex).close();
                }
            }
            // bad input: refused before any query runs, nothing written
            boolean[] untouched = new boolean[n];
            Arrays.fill(untouched, true);
            assertNamed("statics", () -> batch.lineOfSight(null, w.tree, from, to, null, null, n, -1L, -1L,
                    untouched));
            assertNamed("entities", () -> batch.lineOfSight(statics.tree, null, from, to, null, null, n, -1L, -1L,
                    untouched));
            assertNamed("ignoreFirst", () -> batch.lineOfSight(statics.tree, w.tree, from, to, new int[n - 1], null,
                    n, -1L, -1L, untouched));
            double[] nan = to.clone();
            nan[3 * 41 + 2] = Double.NaN;
            assertNamed("segment 41", () -> batch.lineOfSight(statics.tree, w.tree, from, nan, null, null, n, -1L,
                    -1L, untouched));
            assertNamed("visible", () -> batch.lineOfSight(statics.tree, w.tree, from, to, null, null, n, -1L, -1L,
                    new boolean[n - 1]));
            for (boolean v : untouched) {
                assertTrue(v, "nothing written");
            }
        }
    }

    private static ReadView published(DynamicAabbTree tree) {
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        snapshots.publish();
        return snapshots.acquire();
    }

    @Test
    void shouldRejectABadQueryByItsIndexBeforeAnsweringAny() {
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < 100; i++) {
            tree.add(i, 0, 0, i + 1, 1, 1, i, -1L);
        }
        int n = 40;
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        double[] spheres = new double[4 * n];
        for (int i = 0; i < n; i++) {
            from[3 * i] = -5;
            from[3 * i + 1] = 0.5;
            to[3 * i] = 200;
            to[3 * i + 1] = 0.5;
            spheres[4 * i] = i;
            spheres[4 * i + 3] = 1;
        }
        boolean[] visible = new boolean[n];
        int[] handles = new int[n];
        double[] fractions = new double[n];
        int[] found = new int[n];
        int[] counts = new int[n];
        Arrays.fill(visible, true);
        Arrays.fill(handles, 7);
        Arrays.fill(counts, 7);
        try (BatchQueries batch = new BatchQueries(2)) {
            double[] nanFrom = from.clone();
            nanFrom[3 * 31 + 2] = Double.NaN;
            assertNamed("segment 31", () -> batch.lineOfSight(tree, nanFrom, to, null, null, n, -1L, visible));
            double[] farTo = to.clone();
            farTo[3 * 12] = Double.MAX_VALUE;
            double[] farFrom = from.clone();
            farFrom[3 * 12] = -Double.MAX_VALUE;
            assertNamed("segment 12", () -> batch.lineOfSight(tree, farFrom, farTo, null, null, n, -1L, visible));
            assertNamed("ignoreSecond", () -> batch.lineOfSight(tree, from, to, null, new int[n - 1], n, -1L,
                    visible));
            assertNamed("ignoreFirst", () -> batch.lineOfSight(tree, from, to, new int[0], new int[n], n, -1L,
                    visible));
            double[] infinite = to.clone();
            infinite[3 * 25 + 1] = Double.POSITIVE_INFINITY;
            assertNamed("ray 25", () -> batch.closestRays(tree, from, infinite, n, 1, -1L, handles, fractions));
            // beyond fraction 1 a start near the largest double may overflow in a far index's frame, which a single
            // cast refuses: refused before any ray runs, naming it
            double[] nearMax = from.clone();
            nearMax[3 * 17 + 2] = -Double.MAX_VALUE;
            assertNamed("ray 17", () -> batch.closestRays(tree, nearMax, to, n, 1.5, -1L, handles, fractions));
            double[] negative = spheres.clone();
            negative[4 * 9 + 3] = -1;
            assertNamed("sphere 9", () -> batch.spheres(tree, negative, n, RegionMode.CROSSING, -1L, 1, found,
                    counts));
            double[] nanSphere = spheres.clone();
            nanSphere[4 * 33 + 1] = Double.NaN;
            assertNamed("sphere 33", () -> batch.spheres(tree, nanSphere, n, RegionMode.CROSSING, -1L, 1, found,
                    counts));
            // an answer array that is also an input: answers written early would change later queries' inputs
            double[] shared = to.clone();
            assertNamed("fractions and translations are the same array", () -> batch.closestRays(tree, from, shared,
                    n, 1, -1L, handles, shared));
            assertArrayEquals(to, shared, "nothing written");
            assertNamed("fractions and origins", () -> batch.closestRays(tree, shared, to, n, 1, -1L, handles,
                    shared));
            assertNamed("handles and counts", () -> batch.spheres(tree, spheres, n, RegionMode.CROSSING, -1L, 1,
                    counts, counts));
            assertNamed("count", () -> batch.closestRays(tree, from, to, -1, 1, -1L, handles, fractions));
            assertNamed("origins", () -> batch.closestRays(tree, from, to, Integer.MAX_VALUE, 1, -1L, handles,
                    fractions));
            boolean[] untouchedVisible = new boolean[n];
            Arrays.fill(untouchedVisible, true);
            assertArrayEquals(untouchedVisible, visible, "no line of sight answered (every answer would be false)");
            int[] untouched = new int[n];
            Arrays.fill(untouched, 7);
            assertArrayEquals(untouched, handles, "no ray answered");
            assertArrayEquals(untouched, counts, "no sphere answered");
            // and the same batch object still answers good input
            batch.lineOfSight(tree, from, to, null, null, n, -1L, visible);
            assertTrue(!visible[0]);
        }
    }

    @Test
    void shouldFinishTheBatchInProgressWhenClosedAndRefuseLaterOnes() throws InterruptedException {
        DynamicAabbTree tree = crateRows(2000, 50);
        int n = 64;
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        for (int i = 0; i < n; i++) {
            from[3 * i + 1] = i * 0.6;
            to[3 * i] = 50;
            to[3 * i + 1] = 40 - i * 0.6;
            to[3 * i + 2] = 2;
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        // a close racing a batch: every worker must take part in a batch that started before the close, or the
        // caller waits for its count-down for ever
        for (int attempt = 0; attempt < 200; attempt++) {
            BatchQueries batch = new BatchQueries(2);
            Throwable[] unexpected = new Throwable[1];
            Thread caller = new Thread(() -> {
                boolean[] visible = new boolean[n];
                try {
                    while (true) {
                        batch.lineOfSight(tree, from, to, null, null, n, -1L, visible);
                    }
                } catch (IllegalStateException closed) {
                    if (!closed.getMessage().equals("this BatchQueries is closed")) {
                        unexpected[0] = closed;
                    }
                } catch (Throwable t) {
                    unexpected[0] = t;
                }
            });
            caller.setDaemon(true);
            caller.start();
            java.util.concurrent.locks.LockSupport.parkNanos(random.nextInt(2_000_000));
            batch.close();
            caller.join(10_000);
            assertTrue(!caller.isAlive(), "attempt " + attempt + ": the batch hung after close");
            assertTrue(unexpected[0] == null, "attempt " + attempt + ": " + unexpected[0]);
            batch.close();
        }
    }

    @Test
    void shouldNameTheBatchQueriesInstanceWhenClosed() {
        DynamicAabbTree tree = crateRows(20, 5);
        BatchQueries batch = new BatchQueries(2);
        batch.close();
        double[] from = new double[3];
        double[] to = {1, 0, 0};
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> batch.lineOfSight(tree, from, to, null, null, 1, -1L, new boolean[1]));
        assertEquals("this BatchQueries is closed", e.getMessage());
        // also a batch of no queries: the instance refuses before looking at the count
        e = assertThrows(IllegalStateException.class,
                () -> batch.lineOfSight(tree, from, to, null, null, 0, -1L, new boolean[1]));
        assertEquals("this BatchQueries is closed", e.getMessage());
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void shouldRefuseASecondBatchWhileOneRunsAndLeaveTheRunningOneIntact() throws Exception {
        DynamicAabbTree tree = crateRows(500, 25);
        int n = 40;
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        for (int i = 0; i < n; i++) {
            from[3 * i + 1] = i * 0.5;
            from[3 * i + 2] = 2;
            to[3 * i] = 25;
            to[3 * i + 1] = 20 - i * 0.5;
            to[3 * i + 2] = i % 2 == 0 ? 0.5 : 3;
        }
        boolean[] expected = new boolean[n];
        try (BatchQueries reference = new BatchQueries(1)) {
            reference.lineOfSight(tree, from, to, null, null, n, -1L, expected);
        }
        int visibleCount = 0;
        for (boolean v : expected) {
            visibleCount += v ? 1 : 0;
        }
        assertTrue(visibleCount > 0 && visibleCount < n, "a mix of visible and blocked: " + visibleCount);

        java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        BlockingIndex blocking = new BlockingIndex(tree, inside, release);
        try (BatchQueries batch = new BatchQueries(2)) {
            boolean[] visible = new boolean[n];
            Throwable[] failure = new Throwable[1];
            Thread first = new Thread(() -> {
                try {
                    batch.lineOfSight(blocking, from, to, null, null, n, -1L, visible);
                } catch (Throwable t) {
                    failure[0] = t;
                }
            });
            first.start();
            assertTrue(inside.await(10, java.util.concurrent.TimeUnit.SECONDS), "the first batch started");
            // a second thread: refused at once, before it can touch the running batch's inputs
            boolean[] other = new boolean[n];
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> batch.lineOfSight(tree, to, from, null, null, n, -1L, other));
            assertTrue(e.getMessage().contains("one batch at a time"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> batch.closestRays(tree, from, to, n, 1.0, -1L,
                    new int[n], new double[n]));
            release.countDown();
            first.join(10_000);
            assertTrue(!first.isAlive() && failure[0] == null, "the first batch finished: " + failure[0]);
            assertArrayEquals(expected, visible, "the running batch's answers are intact");
            // and the instance takes the next batch
            Arrays.fill(visible, false);
            batch.lineOfSight(tree, from, to, null, null, n, -1L, visible);
            assertArrayEquals(expected, visible);

            // from inside a query of its own batch: the query fails (the batch reports it), the instance survives
            BlockingIndex reentrant = new BlockingIndex(tree, null, null);
            reentrant.onCast = () -> batch.lineOfSight(tree, from, to, null, null, n, -1L, other);
            IllegalStateException failed = assertThrows(IllegalStateException.class,
                    () -> batch.lineOfSight(reentrant, from, to, null, null, n, -1L, visible));
            assertTrue(failed.getMessage().contains("one batch at a time"), failed.getMessage());
            Arrays.fill(visible, false);
            batch.lineOfSight(tree, from, to, null, null, n, -1L, visible);
            assertArrayEquals(expected, visible);
        }
    }

    /** 200 boxes in a row along x, box i over [i, i + 0.5] x [0, 1] x [0, 1], user value i. */
    private static DynamicAabbTree row() {
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < 200; i++) {
            tree.add(i, 0, 0, i + 0.5, 1, 1, i, 1L);
        }
        return tree;
    }

    /** Ray i starts under box i % 200 of {@link #row()}; with {@link #rayTranslations} it enters it at 1/3. */
    private static double[] rayOrigins(int n) {
        double[] origins = new double[3 * n];
        for (int i = 0; i < n; i++) {
            origins[3 * i] = i % 200 + 0.25;
            origins[3 * i + 2] = -1;
        }
        return origins;
    }

    private static double[] rayTranslations(int n) {
        double[] translations = new double[3 * n];
        for (int i = 0; i < n; i++) {
            translations[3 * i + 2] = 3;
        }
        return translations;
    }

    /** A tree seen through another index type, whose first ray cast can wait for a latch or run a callback. */
    private static final class BlockingIndex extends DelegatingIndex {
        private final java.util.concurrent.CountDownLatch inside;
        private final java.util.concurrent.CountDownLatch release;
        private final java.util.concurrent.atomic.AtomicBoolean first =
                new java.util.concurrent.atomic.AtomicBoolean(true);
        Runnable onCast;
        /** Run before every cast, on whichever thread casts. */
        Runnable eachCast;

        BlockingIndex(DynamicAabbTree tree, java.util.concurrent.CountDownLatch inside,
                      java.util.concurrent.CountDownLatch release) {
            super(tree);
            this.inside = inside;
            this.release = release;
        }

        @Override
        public void rayCast(double originX, double originY, double originZ, double translationX,
                            double translationY, double translationZ, double maxFraction, long categoryMask,
                            dev.boxwood.query.RayCastVisitor visitor, TraversalStack stack) {
            if (eachCast != null) {
                eachCast.run();
            }
            if (first.getAndSet(false)) {
                if (inside != null) {
                    inside.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                if (onCast != null) {
                    onCast.run();
                }
            }
            tree.rayCast(originX, originY, originZ, translationX, translationY, translationZ, maxFraction,
                    categoryMask, visitor, stack);
        }
    }

    /** Half-unit crates at the whole-unit points of rows {@code perRow} long, user value = index. */
    private static DynamicAabbTree crateRows(int count, int perRow) {
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < count; i++) {
            tree.add(i % perRow, i / perRow, 0, i % perRow + 0.5, i / perRow + 0.5, 1, i, -1L);
        }
        return tree;
    }

    private static void assertNamed(String what, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void shouldTakeAnyMaxPerQueryAndKeepItsWorkersParkedAfterAQueryInterruptsThem() throws Exception {
        DynamicAabbTree tree = row();
        try (BatchQueries batch = new BatchQueries(3)) {
            // room for maxPerQuery handles per thread was made up front: Integer.MAX_VALUE ran out of memory and
            // left the instance claimed, so every later batch threw; no answer needs more room than the objects
            batch.spheres(tree, new double[0], 0, RegionMode.CROSSING, -1L, Integer.MAX_VALUE, new int[0],
                    new int[0]);
            int[] found = new int[5 * 300];
            int[] counts = new int[5];
            batch.spheres(tree, new double[] {10, 0.5, 0.5, 3, 50, 0.5, 0.5, 1000, 0, 0, 0, 0, 100, 0.5, 0.5, 0.2,
                199, 0.5, 0.5, 0.6}, 5, RegionMode.CROSSING, -1L, 300, found, counts);
            assertArrayEquals(new int[] {7, 200, 1, 1, 2}, counts);
            int[] all = Arrays.copyOfRange(found, 300, 500);
            for (int i = 0; i < 200; i++) {
                assertEquals(tree.handles.handleOf(i), all[i]);
            }

            // a query that leaves a worker's interrupt flag set (as blocking code restoring it does) made the idle
            // worker's park return at once, for good: a core spinning until close
            BlockingIndex interrupting = new BlockingIndex(tree, null, null);
            interrupting.eachCast = () -> {
                if (Thread.currentThread().getName().startsWith("boxwood-query-")) {
                    Thread.currentThread().interrupt();
                }
            };
            int n = 20_000;
            double[] origins = rayOrigins(n);
            double[] translations = rayTranslations(n);
            int[] handles = new int[n];
            double[] fractions = new double[n];
            batch.closestRays(interrupting, origins, translations, n, 1.0, -1L, handles, fractions);
            for (int i = 0; i < n; i++) {
                assertEquals(tree.handles.handleOf(i % 200), handles[i]);
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long[] workers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("boxwood-query-")).mapToLong(Thread::getId).toArray();
            assertTrue(workers.length >= 2, "workers " + workers.length);
            Thread.sleep(200);
            long before = 0;
            for (long id : workers) {
                before += threads.getThreadCpuTime(id);
            }
            Thread.sleep(500);
            long after = 0;
            for (long id : workers) {
                after += threads.getThreadCpuTime(id);
            }
            // parked workers take no CPU; spinning ones took about 60% of the half second each here
            assertTrue(after - before < 100_000_000L, "idle workers used " + (after - before) / 1e6 + " ms");
        }
    }

    @Test
    void shouldReleaseTheInstanceWhenTheIndexFailsBeforeAnyQueryRuns() {
        DynamicAabbTree tree = row();
        // an index whose size() fails (closed, say): the sphere batch asks it while reserving room, after the claim
        dev.boxwood.query.ShapeQueries failing = (dev.boxwood.query.ShapeQueries) java.lang.reflect.Proxy
                .newProxyInstance(getClass().getClassLoader(), new Class<?>[] {dev.boxwood.query.ShapeQueries.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("size")) {
                                throw new IllegalStateException("index closed");
                            }
                            try {
                                return method.invoke(tree, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
        double[] spheres = {0.5, 0.5, 0.5, 1};
        int[] handles = new int[4];
        int[] counts = new int[1];
        try (BatchQueries batch = new BatchQueries(2)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> batch.spheres(failing, spheres, 1, RegionMode.CROSSING, -1L, 4, handles, counts));
            assertEquals("index closed", e.getMessage());
            // before, the instance stayed claimed: "running a batch already" for good
            batch.spheres(tree, spheres, 1, RegionMode.CROSSING, -1L, 4, handles, counts);
            assertTrue(counts[0] > 0);
        }
    }

    @Test
    void shouldHandTheCallerWhatAQueryThrewAndTakeTheNextBatch() {
        DynamicAabbTree tree = row();
        int n = 5_000;
        double[] origins = rayOrigins(n);
        double[] translations = rayTranslations(n);
        int[] handles = new int[n];
        double[] fractions = new double[n];
        for (int threads : new int[] {1, 3}) {
            try (BatchQueries batch = new BatchQueries(threads)) {
                int[] calls = new int[1];
                // a failure anywhere in the batch, the caller's thread or a worker, reaches the caller as thrown
                // (it came wrapped in an IllegalStateException, the type that also says the instance is busy)
                BlockingIndex failing = new BlockingIndex(tree, null, null);
                failing.eachCast = () -> {
                    synchronized (calls) {
                        if (++calls[0] == 2_000) {
                            throw new ArithmeticException("query 2000");
                        }
                    }
                };
                ArithmeticException e = assertThrows(ArithmeticException.class, () -> batch.closestRays(failing,
                        origins, translations, n, 1.0, -1L, handles, fractions));
                assertEquals("query 2000", e.getMessage());
                calls[0] = 0;
                BlockingIndex erring = new BlockingIndex(tree, null, null);
                erring.eachCast = () -> {
                    synchronized (calls) {
                        if (++calls[0] == 10) {
                            throw new StackOverflowError("query 10");
                        }
                    }
                };
                assertThrows(StackOverflowError.class, () -> batch.lineOfSight(erring, origins, origins, null, null,
                        n, -1L, new boolean[n]));
                // the instance is released and answers the next batch in full
                batch.closestRays(tree, origins, translations, n, 1.0, -1L, handles, fractions);
                for (int i = 0; i < n; i++) {
                    assertEquals(tree.handles.handleOf(i % 200), handles[i]);
                }
            }
        }
    }
}
