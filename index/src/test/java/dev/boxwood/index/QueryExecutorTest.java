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
            executor.run((w, from, to) -> {
                if (w == 1) {
                    worker.set(Thread.currentThread());
                }
                LockSupport.parkNanos(1_000_000); // slow chunks: the worker takes some
            }, 64);
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
    void shouldLetAHelperQueuedForAnEarlierBatchJoinTheNextInItsPlace() throws InterruptedException {
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
        assertEquals(2, held.size(), "a helper still queued is not handed over again");
        // helpers that start once their batch is over take no query, and can be handed over again
        AtomicInteger late = new AtomicInteger();
        QueryExecutor.Task counting = (w, from, to) -> late.addAndGet(to - from);
        List<Runnable> stale = new ArrayList<>(held);
        held.clear();
        for (Runnable r : stale) {
            r.run();
        }
        executor.run(counting, 100);
        assertEquals(100, late.get());
        assertEquals(2, held.size(), "handed over anew once they ran");
        // a queued helper that starts while a batch runs joins it, on its own index
        stale = new ArrayList<>(held);
        held.clear();
        List<Runnable> toStart = stale;
        AtomicReference<Thread> helperThread = new AtomicReference<>();
        Owners third = new Owners(10_000, 3, 0) {
            @Override
            public void run(int worker, int from, int to) {
                if (from == 0) {
                    Thread t = new Thread(toStart.get(0), "late-helper");
                    helperThread.set(t);
                    t.start();
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                super.run(worker, from, to);
            }
        };
        executor.run(third, third.runs.length());
        third.assertEveryQueryOnce(Thread.currentThread());
        assertSame(helperThread.get(), third.owner.get(1), "the helper of index 1 took the queries after the first");
        assertEquals(null, third.owner.get(2), "index 2's helper never started");
        assertTrue(held.isEmpty(), "no helper handed over twice");
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
}
