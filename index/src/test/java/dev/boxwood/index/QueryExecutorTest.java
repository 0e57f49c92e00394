package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/** The executor as a public building block: every query once, one batch at a time, failures handed back. */
class QueryExecutorTest {

    @Test
    void shouldRunEveryQueryOnceOnEveryThreadsScratch() {
        try (QueryExecutor executor = new QueryExecutor(3)) {
            AtomicIntegerArray runs = new AtomicIntegerArray(100_000);
            AtomicIntegerArray byWorker = new AtomicIntegerArray(executor.threads());
            executor.run((worker, from, to) -> {
                for (int i = from; i < to; i++) {
                    runs.incrementAndGet(i);
                }
                byWorker.addAndGet(worker, to - from);
            }, runs.length());
            for (int i = 0; i < runs.length(); i++) {
                assertEquals(1, runs.get(i), "query " + i);
            }
            int total = 0;
            for (int w = 0; w < byWorker.length(); w++) {
                total += byWorker.get(w);
            }
            assertEquals(runs.length(), total);
            executor.run((worker, from, to) -> {
                throw new AssertionError("no query to run");
            }, 0);
        }
    }

    @Test
    void shouldRefuseABatchFromInsideARunningOneAndTakeTheNext() {
        try (QueryExecutor executor = new QueryExecutor(2)) {
            AtomicReference<IllegalStateException> nested = new AtomicReference<>();
            AtomicInteger done = new AtomicInteger();
            executor.run((worker, from, to) -> {
                if (from == 0) {
                    nested.set(assertThrows(IllegalStateException.class,
                            () -> executor.run((w, f, t) -> { }, 1)));
                }
                done.addAndGet(to - from);
            }, 1000);
            assertTrue(nested.get().getMessage().contains("one batch at a time"), nested.get().getMessage());
            assertEquals(1000, done.get(), "the running batch went on");
            RuntimeException thrown = new IllegalStateException("query 7 failed");
            assertSame(thrown, assertThrows(RuntimeException.class, () -> executor.run((worker, from, to) -> {
                if (from <= 7 && 7 < to) {
                    throw thrown;
                }
            }, 1000)));
            done.set(0);
            executor.run((worker, from, to) -> done.addAndGet(to - from), 500);
            assertEquals(500, done.get(), "the next batch runs after a failure");
        }
    }

    @Test
    void shouldRejectBadArgumentsAndRefuseBatchesOnceClosed() {
        QueryExecutor executor = new QueryExecutor(2);
        assertThrows(IllegalArgumentException.class, () -> executor.run(null, 1));
        assertThrows(IllegalArgumentException.class, () -> executor.run((w, f, t) -> { }, -1));
        assertThrows(IllegalArgumentException.class, () -> new QueryExecutor(0));
        executor.close();
        executor.close();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> executor.run((w, f, t) -> { }, 1));
        assertEquals("this QueryExecutor is closed", e.getMessage());
    }

    @Test
    void shouldHandOutOnlyQueriesOfTheBatchUpToTheLargestCount() {
        // the chunk counter ran past Integer.MAX_VALUE after the last chunk: a negative start, below the count,
        // was handed to the task, and the batch started over from there
        try (QueryExecutor executor = new QueryExecutor(1)) {
            AtomicLong done = new AtomicLong();
            AtomicReference<String> wrong = new AtomicReference<>();
            executor.run((worker, from, to) -> {
                if (from < 0 || to <= from) {
                    wrong.compareAndSet(null, "[" + from + ", " + to + ")");
                    throw new IllegalStateException("query range [" + from + ", " + to + ")");
                }
                done.addAndGet(to - from);
            }, Integer.MAX_VALUE);
            assertEquals(null, wrong.get());
            assertEquals(Integer.MAX_VALUE, done.get());
        }
    }

    @Test
    void shouldKeepAnIdleWorkerParkedWhenItIsInterruptedBetweenBatches() throws InterruptedException {
        // an interrupt landing on a parked worker (a query timeout firing late, say) made its park return at once,
        // for good: a core spinning until the next batch or the close
        try (QueryExecutor executor = new QueryExecutor(2)) {
            AtomicReference<Thread> worker = new AtomicReference<>();
            // slow chunks: the worker takes some, once it is scheduled in time (batches until it has, up to 30 s)
            for (long end = System.nanoTime() + 30_000_000_000L; worker.get() == null && System.nanoTime() < end; ) {
                executor.run((w, from, to) -> {
                    if (w == 1) {
                        worker.set(Thread.currentThread());
                    }
                    LockSupport.parkNanos(1_000_000);
                }, 64);
            }
            Thread thread = worker.get();
            assertTrue(thread != null, "the worker ran no chunk");
            Thread.sleep(50);
            thread.interrupt();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            Thread.sleep(50);
            long before = threads.getThreadCpuTime(thread.getId());
            Thread.sleep(300);
            long used = threads.getThreadCpuTime(thread.getId()) - before;
            assertTrue(used < 50_000_000L, "the idle worker used " + used / 1e6 + " ms of CPU in 300 ms");
            AtomicInteger done = new AtomicInteger();
            executor.run((w, from, to) -> done.addAndGet(to - from), 1_000);
            assertEquals(1_000, done.get(), "the next batch runs on");
        }
    }
    /** Records which thread runs each index's chunks: one thread per index per batch, the caller on index 0. */
    private static class Owners implements QueryExecutor.Task {
        final AtomicIntegerArray runs;
        final AtomicReferenceArray<Thread> owner;
        final AtomicReference<String> clash = new AtomicReference<>();
        final long nanosPerChunk;

        Owners(int count, int threads, long nanosPerChunk) {
            runs = new AtomicIntegerArray(count);
            owner = new AtomicReferenceArray<>(threads);
            this.nanosPerChunk = nanosPerChunk;
        }

        @Override
        public void run(int worker, int from, int to) {
            Thread me = Thread.currentThread();
            if (!owner.compareAndSet(worker, null, me) && owner.get(worker) != me) {
                clash.compareAndSet(null, "index " + worker + " on " + owner.get(worker) + " and " + me);
            }
            for (int i = from; i < to; i++) {
                runs.incrementAndGet(i);
            }
            if (nanosPerChunk > 0) {
                LockSupport.parkNanos(nanosPerChunk);
            }
        }

        void assertEveryQueryOnce(Thread caller) {
            assertEquals(null, clash.get());
            for (int i = 0; i < runs.length(); i++) {
                assertEquals(1, runs.get(i), "query " + i);
            }
            assertTrue(owner.get(0) == null || owner.get(0) == caller, "index 0 ran on " + owner.get(0));
        }

        int indexesUsed() {
            int used = 0;
            for (int w = 0; w < owner.length(); w++) {
                used += owner.get(w) != null ? 1 : 0;
            }
            return used;
        }
    }

    @Test
    void shouldRunEveryQueryOnceOnAnApplicationsExecutorWithOneThreadPerIndex() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (QueryExecutor executor = new QueryExecutor(pool, 4)) {
            assertEquals(4, executor.threads());
            int mostIndexes = 0;
            for (int round = 0; round < 40; round++) {
                // slow chunks in some rounds, so that the pool's threads join before the caller is done
                Owners task = new Owners(round % 2 == 0 ? 3_000 : 20_000, 4, round % 2 == 0 ? 200_000 : 0);
                executor.run(task, task.runs.length());
                task.assertEveryQueryOnce(Thread.currentThread());
                mostIndexes = Math.max(mostIndexes, task.indexesUsed());
            }
            assertTrue(mostIndexes > 1, "no thread of the pool ever took part");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldAnswerOnTheCallerWhenTheExecutorGivesNoThread() throws Exception {
        // the caller is the executor's only thread: the helpers wait behind it, and the batch must not wait for them
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            QueryExecutor executor = new QueryExecutor(single, 3);
            Future<Owners> done = single.submit(() -> {
                Owners task = new Owners(5_000, 3, 0);
                executor.run(task, task.runs.length());
                task.assertEveryQueryOnce(Thread.currentThread());
                return task;
            });
            assertEquals(1, done.get(30, TimeUnit.SECONDS).indexesUsed());
        } finally {
            single.shutdownNow();
        }
        // an executor that rejects every task (saturated, or shut down)
        QueryExecutor rejecting = new QueryExecutor(r -> {
            throw new RejectedExecutionException("full");
        }, 3);
        Owners task = new Owners(5_000, 3, 0);
        rejecting.run(task, task.runs.length());
        task.assertEveryQueryOnce(Thread.currentThread());
        assertEquals(1, task.indexesUsed());
        // an executor that runs each task on the thread that hands it over (a caller-runs policy)
        QueryExecutor direct = new QueryExecutor(Runnable::run, 3);
        for (int round = 0; round < 3; round++) {
            Owners t = new Owners(5_000, 3, 0);
            direct.run(t, t.runs.length());
            t.assertEveryQueryOnce(Thread.currentThread());
        }
    }

    @Test
    void shouldHandHelpersOverEveryBatchAndNeverPutTwoOnOneIndex() throws InterruptedException {
        List<Runnable> held = new ArrayList<>();
        Executor holding = held::add;
        QueryExecutor executor = new QueryExecutor(holding, 3);
        Owners first = new Owners(1_000, 3, 0);
        executor.run(first, first.runs.length());
        first.assertEveryQueryOnce(Thread.currentThread());
        assertEquals(2, held.size(), "both helpers handed over");
        Owners second = new Owners(1_000, 3, 0);
        executor.run(second, second.runs.length());
        second.assertEveryQueryOnce(Thread.currentThread());
        assertEquals(4, held.size(), "handed over again: the executor may have dropped the first ones");
        // helpers that start once their batch is over take no query
        AtomicInteger late = new AtomicInteger();
        List<Runnable> stale = new ArrayList<>(held);
        held.clear();
        for (Runnable r : stale) {
            r.run();
        }
        executor.run((w, from, to) -> late.addAndGet(to - from), 100);
        assertEquals(100, late.get(), "only the caller's queries");
        // every helper held so far (two per index) starts while a batch runs, each on a thread of its own: one
        // thread per index takes queries, the others find their index taken
        List<Runnable> all = new ArrayList<>(held);
        held.clear();
        all.addAll(stale);
        // each index's first chunk waits (up to 30 s) until the other helper index has one too, so that neither
        // takes every chunk before the other's thread is scheduled
        CountDownLatch bothHelpersIn = new CountDownLatch(2);
        Owners third = new Owners(20_000, 3, 20_000) {
            @Override
            public void run(int worker, int from, int to) {
                if (worker != 0 && owner.get(worker) == null) {
                    bothHelpersIn.countDown();
                    try {
                        bothHelpersIn.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                if (from == 0) {
                    List<Thread> starters = new ArrayList<>();
                    for (Runnable r : all) {
                        Thread t = new Thread(r, "late-helper");
                        t.start();
                        starters.add(t);
                    }
                    for (Thread t : starters) {
                        try {
                            t.join();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
                super.run(worker, from, to);
            }
        };
        executor.run(third, third.runs.length());
        third.assertEveryQueryOnce(Thread.currentThread());
        assertTrue(third.owner.get(1) != null && third.owner.get(2) != null, "the late helpers took part");
        assertEquals(2, held.size(), "the batch's own helpers");
    }

    @Test
    void shouldUseHelpersAgainAfterTheExecutorDiscardedSome() {
        // a pool that silently drops the first helpers handed to it (a discard policy under load)
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            AtomicInteger dropped = new AtomicInteger();
            Executor discarding = r -> {
                if (dropped.getAndIncrement() < 2) {
                    return;
                }
                pool.execute(r);
            };
            QueryExecutor executor = new QueryExecutor(discarding, 3);
            Owners alone = new Owners(500, 3, 0);
            executor.run(alone, alone.runs.length());
            alone.assertEveryQueryOnce(Thread.currentThread());
            assertEquals(1, alone.indexesUsed(), "both helpers dropped");
            int most = 0;
            for (long end = System.nanoTime() + 30_000_000_000L; most < 3 && System.nanoTime() < end; ) {
                Owners task = new Owners(2_000, 3, 200_000);
                executor.run(task, task.runs.length());
                task.assertEveryQueryOnce(Thread.currentThread());
                most = Math.max(most, task.indexesUsed());
            }
            assertEquals(3, most, "the helpers take part again");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldNotSpinWhileAnInterruptedCallerWaitsForTheHelpers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            QueryExecutor executor = new QueryExecutor(pool, 2);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            AtomicLong cpu = new AtomicLong();
            AtomicReference<Boolean> kept = new AtomicReference<>();
            AtomicReference<Thread> callerThread = new AtomicReference<>();
            java.util.concurrent.atomic.AtomicBoolean helperIn = new java.util.concurrent.atomic.AtomicBoolean();
            Thread caller = new Thread(() -> {
                long before = threads.getCurrentThreadCpuTime();
                // the helper takes the second query, interrupts the caller and sleeps 1 s: the caller, done
                // with the first, waits for it interrupted
                executor.run((w, from, to) -> {
                    if (w == 0) {
                        while (!helperIn.get()) {
                            LockSupport.parkNanos(1_000_000);
                        }
                        return;
                    }
                    helperIn.set(true);
                    callerThread.get().interrupt();
                    long end = System.nanoTime() + 1_000_000_000L;
                    while (System.nanoTime() < end) {
                        LockSupport.parkNanos(end - System.nanoTime());
                    }
                }, 2);
                cpu.set(threads.getCurrentThreadCpuTime() - before);
                kept.set(Thread.currentThread().isInterrupted());
            });
            callerThread.set(caller);
            caller.start();
            caller.join(30_000);
            assertEquals(Boolean.TRUE, kept.get(), "the caller's interrupt is kept");
            // a caller spinning while it waits uses about the helper's second; a parked one a few ms, its
            // timed wake-ups more on a virtual machine
            assertTrue(cpu.get() < 500_000_000L, "the waiting caller used " + cpu.get() / 1e6 + " ms of CPU");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldHandBackQueryFailuresAndExecutorFailuresAndLeaveTheExecutorRunningWhenClosed() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            QueryExecutor executor = new QueryExecutor(pool, 3);
            RuntimeException thrown = new IllegalStateException("query 500 failed");
            for (int round = 0; round < 5; round++) {
                assertSame(thrown, assertThrows(RuntimeException.class, () -> executor.run((w, from, to) -> {
                    LockSupport.parkNanos(100_000);
                    if (from <= 500 && 500 < to) {
                        throw thrown;
                    }
                }, 2_000)));
            }
            Owners after = new Owners(2_000, 3, 0);
            executor.run(after, after.runs.length());
            after.assertEveryQueryOnce(Thread.currentThread());
            executor.close();
            assertFalse(pool.isShutdown(), "the application's executor is its own");
            IllegalStateException closed = assertThrows(IllegalStateException.class,
                    () -> executor.run((w, f, t) -> { }, 1));
            assertEquals("this QueryExecutor is closed", closed.getMessage());
        } finally {
            pool.shutdownNow();
        }
        // an executor failing otherwise than by rejection: the batch ends with its exception, and the next one
        // hands the helper over again
        AtomicInteger calls = new AtomicInteger();
        IllegalStateException broken = new IllegalStateException("broken executor");
        QueryExecutor failing = new QueryExecutor(r -> {
            if (calls.incrementAndGet() == 1) {
                throw broken;
            }
            r.run();
        }, 2);
        assertSame(broken, assertThrows(IllegalStateException.class, () -> failing.run((w, f, t) -> { }, 10)));
        Owners next = new Owners(1_000, 2, 0);
        failing.run(next, next.runs.length());
        next.assertEveryQueryOnce(Thread.currentThread());
        assertEquals(2, calls.get(), "the helper was handed over again");
        assertThrows(IllegalArgumentException.class, () -> new QueryExecutor(null, 2));
        assertThrows(IllegalArgumentException.class, () -> new QueryExecutor(Runnable::run, 0));
    }
    /**
     * Several callers, each with its own executor instance, sharing one small pool with a discard-oldest queue (and
     * the common pool), random batch sizes, slow chunks and interrupted callers: every query once, one thread per
     * index in each batch. Long profile; {@code -Dboxwood.executor.stressSeconds=N} (default 30).
     */
    @Test
    @org.junit.jupiter.api.Tag("long")
    void shouldStayCorrectUnderContentionOnASharedDroppingPool() throws InterruptedException {
        long seconds = Long.getLong("boxwood.executor.stressSeconds", 30);
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(2, 2, 1,
                TimeUnit.SECONDS, new java.util.concurrent.ArrayBlockingQueue<>(2),
                new java.util.concurrent.ThreadPoolExecutor.DiscardOldestPolicy());
        AtomicLong batches = new AtomicLong();
        AtomicReference<String> problem = new AtomicReference<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] callers = new Thread[3];
        try {
            for (int c = 0; c < callers.length; c++) {
                int id = c;
                callers[c] = new Thread(() -> {
                    QueryExecutor executor = new QueryExecutor(
                            id == 2 ? java.util.concurrent.ForkJoinPool.commonPool() : pool, 4);
                    java.util.SplittableRandom r = new java.util.SplittableRandom(id);
                    while (System.nanoTime() < end && problem.get() == null) {
                        Owners task = new Owners(r.nextInt(1, 3000), 4, r.nextInt(4) == 0 ? 20_000 : 0);
                        if (r.nextInt(10) == 0) {
                            Thread.currentThread().interrupt();
                        }
                        try {
                            executor.run(task, task.runs.length());
                        } catch (RuntimeException | Error e) {
                            problem.compareAndSet(null, e.toString());
                        }
                        Thread.interrupted();
                        if (task.clash.get() != null) {
                            problem.compareAndSet(null, task.clash.get());
                        }
                        for (int i = 0; i < task.runs.length(); i++) {
                            if (task.runs.get(i) != 1) {
                                problem.compareAndSet(null, "query " + i + " ran " + task.runs.get(i) + " times");
                                break;
                            }
                        }
                        batches.incrementAndGet();
                    }
                }, "caller-" + c);
                callers[c].start();
            }
            for (Thread t : callers) {
                t.join();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(null, problem.get());
        assertTrue(batches.get() > 1000, "batches run: " + batches.get());
        System.out.println("executor contention: " + batches.get() + " batches");
    }
}
