package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicInteger;
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
}
