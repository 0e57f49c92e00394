package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicIntegerArray;

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
        assertThrows(IllegalStateException.class, () -> executor.run((w, f, t) -> { }, 1));
    }
}
