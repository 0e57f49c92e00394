package dev.boxwood.index;

import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.SegmentCollector;
import dev.boxwood.query.SegmentIntersector;
import dev.boxwood.query.SpatialQueries;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The frame of a batch runner ({@link BatchQueries}, the tiled world's batches, or one's own): a
 * {@link QueryExecutor} and the claim that keeps one batch at a time per instance. A batch method checks its
 * inputs, {@link #begin() claims} the instance, stores the inputs in a reusable {@link Batch} (so a batch allocates
 * nothing; the claim comes first, as a second caller would otherwise overwrite them under the running batch's
 * workers) and hands it to {@link #runAndRelease}, which prepares, runs, finishes and clears it and releases the
 * instance whatever happens. Nothing but plain field stores may come between the two calls.
 */
public abstract class BatchRunner implements AutoCloseable {

    /**
     * A reusable batch: its inputs are stored in its fields after {@link #begin()}, and dropped by {@link #clear()}.
     */
    protected abstract static class Batch implements QueryExecutor.Task {

        /** Constructor for subclasses. */
        protected Batch() {
        }

        /**
         * Work of the calling thread before the queries run, under the claim (checks that need the index, scratch
         * to reserve): what it throws reaches the caller and releases the instance. Does nothing by default.
         */
        protected void prepare() {
        }

        /**
         * Work of the calling thread once every query ran without throwing, still under the claim and before
         * {@link #clear()}: checks of the batch as a whole (that the index did not change while it ran), whose
         * exception reaches the caller. Does nothing by default.
         */
        protected void finish() {
        }

        /** Drops the references to the batch's inputs and outputs, before the instance is released. */
        protected abstract void clear();
    }

    /**
     * What a batch's queries of {@code index} should run on, from {@link Batch#prepare()}: a {@link DynamicAabbTree}
     * with its pending deferred adds taken in (once, here, rather than by the first of its queries on one of the
     * batch's threads), the frozen tree of a {@link ReadView} (the arrays the single queries traverse), any other
     * index as it is.
     *
     * @param index the index as the caller gave it, or {@code null}
     * @param <T> its type
     * @return what to query, or {@code null} for {@code null}
     */
    protected static <T extends SpatialQueries> T queriedIndex(T index) {
        if (index instanceof ReadableTree readable) {
            @SuppressWarnings("unchecked")
            T storage = (T) readable.storage();
            return storage;
        }
        return index;
    }

    /**
     * The change count of what a batch queries ({@link #queriedIndex}), read in {@link Batch#prepare()} and handed
     * to {@link #checkUnchanged} in {@link Batch#finish()}: a tree's count of structural changes, 0 for any other
     * index (which this check leaves to the index).
     *
     * @param queried what the batch queries, or {@code null}
     * @return its change count
     */
    protected static int changeCount(SpatialQueries queried) {
        return queried instanceof DynamicAabbTree t ? t.modCount : 0;
    }

    /**
     * Each query on a tree checks that the tree did not change under it; this checks a batch as a whole, so that
     * another thread's change between two of its queries is caught too (when the calling thread sees it: the
     * tree's count is a plain field). Does nothing for an index that is not a tree.
     *
     * @param queried what the batch queried, or {@code null}
     * @param changeCount {@link #changeCount} when the batch began
     * @throws java.util.ConcurrentModificationException if the tree changed since
     */
    protected static void checkUnchanged(SpatialQueries queried, int changeCount) {
        if (queried instanceof DynamicAabbTree t) {
            t.checkUnchanged(changeCount);
        }
    }

    private final QueryExecutor executor;
    /** Set while a batch runs, from before its inputs are stored in the reusable task until it is done. */
    private final AtomicBoolean running = new AtomicBoolean();

    /**
     * @param threads the threads a batch runs on, the caller included, {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    protected BatchRunner(int threads) {
        this(null, threads);
    }

    /**
     * A runner on the calling thread and up to {@code threads - 1} threads of an application's executor, which the
     * runner does not own ({@link QueryExecutor#QueryExecutor(Executor, int)}).
     *
     * @param executor the application's executor, or null for threads of the runner's own
     * @param threads the most threads a batch runs on, the caller included, {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    protected BatchRunner(Executor executor, int threads) {
        this.executor = new QueryExecutor(threads, executor, name());
    }

    /**
     * For the public constructors that take an application's executor: refuses a null one.
     *
     * @param executor the executor given
     * @return {@code executor}
     * @throws IllegalArgumentException if it is null
     */
    protected static Executor requireExecutor(Executor executor) {
        return QueryExecutor.requireExecutor(executor);
    }

    /** The runner's class as its callers know it: what the messages call the instance. */
    private String name() {
        return getClass().getSimpleName().isEmpty() ? getClass().getName() : getClass().getSimpleName();
    }

    /** @return the number of threads a batch runs on, the caller included */
    public final int threads() {
        return executor.threads();
    }

    /**
     * Claims the instance for one batch; follow it with the stores of the batch's inputs and
     * {@link #runAndRelease}.
     *
     * @throws IllegalStateException if a batch of this instance runs (called from another thread, or from inside
     *                               a query); the running batch is left alone
     */
    protected final void begin() {
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("this " + name() + " is running a batch already (called from another "
                    + "thread or from inside a query): one batch at a time per instance; give each thread its own");
        }
    }

    /**
     * Changes settings the batches' threads read (their collectors' filters, say) while no batch runs: claims the
     * instance as {@link #begin()} does, so a change cannot land under a running batch, runs {@code change} on the
     * calling thread and releases the instance. The next batch's hand-over to the executor's threads publishes the
     * change to them.
     *
     * @param change what to change
     * @throws IllegalStateException if a batch of this instance runs (called from another thread, or from inside
     *                               a query); nothing is changed
     */
    protected final void configure(Runnable change) {
        begin();
        try {
            change.run();
        } finally {
            running.set(false);
        }
    }

    /**
     * The {@code setRayTests} of the batch classes: gives every collector of the given per-thread sets the filter
     * and exact test, through {@link #configure}.
     *
     * @param filter the filter, or {@code null}
     * @param exactTest the exact test, or {@code null}
     * @param perThread the collector arrays, one collector per thread each
     * @throws IllegalStateException if a batch of this instance runs; nothing is changed
     */
    protected final void configureRayTests(QueryFilter filter, SegmentIntersector exactTest,
                                           SegmentCollector[]... perThread) {
        configure(() -> {
            for (SegmentCollector[] collectors : perThread) {
                for (SegmentCollector c : collectors) {
                    c.setFilter(filter);
                    c.setExactTest(exactTest);
                }
            }
        });
    }

    /**
     * Prepares and runs the claimed batch's {@code count} queries on the executor and finishes it, then clears it and
     * releases the instance, also when something throws: the first throwable a query throws reaches the caller once
     * every thread has stopped (see {@link QueryExecutor#run}), and the instance takes the next batch.
     *
     * @param batch the batch, its inputs stored after {@link #begin()}
     * @param count the number of queries
     */
    protected final void runAndRelease(Batch batch, int count) {
        try {
            batch.prepare();
            executor.run(batch, count);
            batch.finish();
        } finally {
            // cleared before the release: once released, another caller may store its own inputs in the batch
            batch.clear();
            running.set(false);
        }
    }

    /**
     * Stops the worker threads, without waiting (an application's executor is left running): a batch in progress on
     * another thread is not cut short (it finishes normally); batches started later throw
     * {@link IllegalStateException}. Closing again does nothing.
     */
    @Override
    public void close() {
        executor.close();
    }
}
