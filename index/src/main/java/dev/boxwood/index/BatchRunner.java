package dev.boxwood.index;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The frame of a batch runner ({@link BatchQueries}, the tiled world's batches, or one's own): a
 * {@link QueryExecutor} and the claim that keeps one batch at a time per instance. A batch method checks its
 * inputs, {@link #begin() claims} the instance, stores the inputs in a reusable task (so a batch allocates
 * nothing), {@link #runClaimed runs} it and {@link #release() releases} the instance; the claim comes before the
 * inputs are stored, as a second caller would otherwise overwrite them under the running batch's workers.
 */
public abstract class BatchRunner implements AutoCloseable {

    private final QueryExecutor executor;
    /** Set while a batch runs, from before its inputs are stored in the reusable task until it is done. */
    private final AtomicBoolean running = new AtomicBoolean();

    /**
     * @param threads the threads a batch runs on, the caller included, {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    protected BatchRunner(int threads) {
        executor = new QueryExecutor(threads);
    }

    /** @return the number of threads a batch runs on, the caller included */
    public final int threads() {
        return executor.threads();
    }

    /**
     * Claims the instance for one batch.
     *
     * @throws IllegalStateException if a batch of this instance runs (called from another thread, or from inside
     *                               a query); the running batch is left alone
     */
    protected final void begin() {
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("this " + getClass().getSimpleName() + " is running a batch already "
                    + "(called from another thread or from inside a query): one batch at a time per instance; give "
                    + "each thread its own");
        }
    }

    /**
     * Runs the claimed batch's {@code count} queries on the executor; the first throwable a query throws reaches
     * the caller once every thread has stopped (see {@link QueryExecutor#run}). The caller then lets go of what
     * the task holds and {@link #release() releases} the instance, in a {@code finally}, in that order: once
     * released, another caller may store its own inputs in the task.
     *
     * @param task the batch, its inputs stored
     * @param count the number of queries
     */
    protected final void runClaimed(QueryExecutor.Task task, int count) {
        executor.run(task, count);
    }

    /** Gives up the claim of {@link #begin()}: after the batch, or when something failed before it ran. */
    protected final void release() {
        running.set(false);
    }

    /**
     * Stops the worker threads, without waiting: a batch in progress on another thread is not cut short (it
     * finishes normally); batches started later throw {@link IllegalStateException}. Closing again does nothing.
     */
    @Override
    public void close() {
        executor.close();
    }
}
