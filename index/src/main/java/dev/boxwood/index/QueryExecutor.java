package dev.boxwood.index;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one batch of queries at a time, split into chunks claimed from a shared counter, on the calling thread and
 * either a small fixed pool of daemon threads of its own or the threads of an application's {@link Executor}.
 * It runs the batches of {@link BatchQueries}, and any batch of one's own over an index's thread-safe queries (the
 * tiled world's batches run on it too), each thread with scratch state of its own. One batch at a time:
 * {@link #run} called while a batch runs (from another thread, or from inside a task) throws
 * {@link IllegalStateException}.
 *
 * <p>With threads of its own, a call allocates nothing: the batch is a reusable {@link Task} object, workers are
 * woken by unparking and the caller waits by spinning briefly, then parking in short slices; the threads live until
 * {@link #close()}. On an application's executor (a server's worker pool, {@link
 * java.util.concurrent.ForkJoinPool#commonPool()}), a batch hands {@code threads - 1} reusable helper tasks to it and
 * works on the calling thread meanwhile; a helper that starts while the batch still has chunks to hand out takes
 * part, one that starts later does nothing. So the batch never waits for a thread the executor has not given it: a
 * saturated executor, one that rejects the helpers, or a caller that is itself the executor's only thread leaves the
 * calling thread to answer the queries alone, more slowly but with the same answers. Each batch hands its helpers
 * over again, so one the executor discarded or still holds costs that batch a thread, not later ones; a helper
 * claims its thread index when it joins, so a late one from an earlier batch and the current one never share an
 * index's scratch. The executor's {@code execute} must not block (a rejection handler that waits for queue space,
 * say): a batch called from one of its threads would wait for itself. Such a batch allocates what the executor
 * allocates per task it is given ({@code ForkJoinPool} wraps each one, for example).
 */
public final class QueryExecutor implements AutoCloseable {

    /**
     * A batch of {@code count} queries, answered chunk by chunk on the executor's threads.
     */
    @FunctionalInterface
    public interface Task {
        /**
         * Answers queries {@code [from, to)}.
         *
         * @param worker the index in {@code [0, threads())} of the scratch state to use, which no other thread
         *               uses during the batch (0 is the caller's, but an application's executor that runs a task
         *               in the calling thread runs it there under its own index: tie scratch state to the index,
         *               never to the thread)
         * @param from first query
         * @param to one past the last query
         */
        void run(int worker, int from, int to);
    }

    private final Thread[] workers;
    /** The application's executor, or null when the executor runs threads of its own ({@link #workers}). */
    private final Executor external;
    /** On an application's executor: the reusable helper task of each thread index from 1 on. */
    private final Helper[] helpers;
    /**
     * On an application's executor: the helpers that took part in the running batch and have not finished, plus
     * {@link #SHUT} once the batch hands out no more places (set by its caller once its own work is done). A helper
     * joins only while the bit is clear, so the caller waits for exactly those that joined.
     */
    private final AtomicInteger joined = new AtomicInteger(SHUT);
    private static final int SHUT = Integer.MIN_VALUE;
    /** The next query to claim; a long, so that claims past a count near {@code Integer.MAX_VALUE} cannot wrap. */
    private final AtomicLong next = new AtomicLong();
    private final AtomicInteger pending = new AtomicInteger();
    /** Set while a batch runs: {@link #run} is not reentrant. */
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile int generation;
    private volatile boolean closed;
    private volatile Throwable failure;
    private Task task;
    private int count;
    private int chunk;
    /** What the messages call the executor: the runner that owns it, whose class is all its callers know. */
    private final String name;

    /**
     * A pool of {@code threads - 1} worker threads of its own plus the caller.
     *
     * @param threads total threads per batch, {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public QueryExecutor(int threads) {
        this(threads, null, "QueryExecutor");
    }

    /**
     * Batches on the calling thread and up to {@code threads - 1} threads of {@code executor}, which the
     * application owns: {@link #close()} does not shut it down (see the class comment for what happens when it
     * does not give the batch a thread).
     *
     * @param executor the application's executor
     * @param threads the most threads a batch runs on, the caller included, {@code >= 1}
     * @throws IllegalArgumentException if {@code executor} is null or {@code threads < 1}
     */
    public QueryExecutor(Executor executor, int threads) {
        this(threads, requireExecutor(executor), "QueryExecutor");
    }

    /**
     * An executor whose messages name its owner: a {@link BatchRunner}'s callers see the runner's class, not this
     * one.
     *
     * @param threads total threads per batch, {@code >= 1}
     * @param executor the application's executor, or null for threads of its own
     * @param name what the messages call it ("this BatchQueries is closed")
     */
    QueryExecutor(int threads, Executor executor, String name) {
        this.name = name;
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        external = executor;
        if (executor != null) {
            workers = new Thread[0];
            helpers = new Helper[threads];
            for (int i = 1; i < threads; i++) {
                helpers[i] = new Helper(i);
            }
            return;
        }
        helpers = null;
        workers = new Thread[threads - 1];
        try {
            for (int i = 0; i < workers.length; i++) {
                int index = i + 1;
                Thread t = new Thread(() -> workLoop(index), "boxwood-query-" + index);
                t.setDaemon(true);
                t.start();
                workers[i] = t;
            }
        } catch (RuntimeException | Error e) {
            // for example an OutOfMemoryError "unable to create native thread": stop the ones already started
            close();
            throw e;
        }
    }

    /**
     * @param executor an application's executor
     * @return {@code executor}
     * @throws IllegalArgumentException if it is null
     */
    static Executor requireExecutor(Executor executor) {
        if (executor == null) {
            throw new IllegalArgumentException("executor must not be null");
        }
        return executor;
    }

    /** @return the number of threads a batch runs on, the caller included */
    public int threads() {
        return helpers != null ? helpers.length : workers.length + 1;
    }

    /**
     * Runs {@code task} over {@code [0, count)} on all threads and returns when every chunk is done. If a chunk
     * throws, the chunks not yet begun are skipped and, once every thread has stopped, the first throwable is
     * rethrown as it was (an unchecked one; later ones from other threads are added to it as suppressed; a
     * checked one, thrown by a task that hides it from the compiler, is wrapped in {@link IllegalStateException},
     * the later ones suppressed in the checked one). The executor then takes the next batch.
     *
     * @param task the batch
     * @param count the number of queries, {@code >= 0}
     * @throws IllegalStateException if the executor is closed, or runs a batch already (called from another thread
     *                               or from inside a task; the running batch goes on undisturbed)
     * @throws IllegalArgumentException for a null task or a negative count
     */
    public void run(Task task, int count) {
        if (task == null || count < 0) {
            throw new IllegalArgumentException(task == null ? "task must not be null" : "count must be >= 0: " + count);
        }
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("this " + name + " is running a batch already (called from another thread "
                    + "or from inside a task): one batch at a time");
        }
        try {
            runClaimed(task, count);
        } finally {
            running.set(false);
        }
    }

    private void runClaimed(Task task, int count) {
        synchronized (workers) {
            // with close() under the same lock: a batch either starts before the close, and then every worker
            // takes part in it (see workLoop), or not at all
            if (closed) {
                throw new IllegalStateException("this " + name + " is closed");
            }
            if (count == 0) {
                return;
            }
            this.task = task;
            this.count = count;
            this.chunk = Math.max(1, Math.min(64, count / (8 * threads())));
            next.set(0);
            failure = null;
            if (external == null) {
                pending.set(workers.length);
                generation++;
            }
        }
        if (external == null) {
            for (Thread w : workers) {
                LockSupport.unpark(w);
            }
            work(0);
            awaitValue(pending, 0);
        } else {
            runWithHelpers();
        }
        this.task = null;
        Throwable f = failure;
        if (f instanceof RuntimeException e) {
            throw e;
        }
        if (f instanceof Error e) {
            throw e;
        }
        if (f != null) {
            throw new IllegalStateException("a batch query failed: " + f, f);
        }
    }

    /** The batch on the application's executor: the caller works while the helpers it hands over join. */
    private void runWithHelpers() {
        // opening the places publishes the batch's fields to the helpers that join (they read them after their CAS)
        joined.set(0);
        try {
            for (int i = 1; i < helpers.length; i++) {
                try {
                    external.execute(helpers[i]);
                } catch (RejectedExecutionException e) {
                    // a saturated or shut-down executor: the threads that do run take this share
                }
            }
            work(0);
        } catch (RuntimeException | Error e) {
            // the executor itself failed (not a query, work() keeps those): stop handing out chunks, and leave the
            // batch only once no helper can touch it
            next.set(count);
            throw e;
        } finally {
            // the count is not negative until now, so adding SHUT sets the bit and keeps the count
            joined.getAndAdd(SHUT);
            awaitValue(joined, SHUT);
        }
    }

    /**
     * Waits until {@code counter} holds {@code value}: spins briefly, then parks in short slices. An interrupt of the
     * caller is kept for it, but set it would make every park return at once, and the wait would spin on a core:
     * cleared while waiting, set again after.
     */
    private static void awaitValue(AtomicInteger counter, int value) {
        boolean interrupted = false;
        for (int spins = 0; counter.get() != value; spins++) {
            if (spins < 1000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(10_000);
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The reusable task that puts one thread index of an application's executor into a batch. Handed over once per
     * batch, so the executor may hold several at once (some from earlier batches); the claim of the index keeps one
     * thread per index's scratch.
     */
    private final class Helper implements Runnable {
        private final int index;
        /** Whether a thread works on this index (its scratch) in the running batch. */
        private final AtomicBoolean claimed = new AtomicBoolean();

        Helper(int index) {
            this.index = index;
        }

        @Override
        public void run() {
            int s;
            do {
                s = joined.get();
                if (s < 0) {
                    // the batch has handed out its last place (this helper was handed over for an earlier one, or
                    // came too late): nothing to do
                    return;
                }
            } while (!joined.compareAndSet(s, s + 1));
            try {
                if (claimed.compareAndSet(false, true)) {
                    try {
                        work(index);
                    } finally {
                        claimed.set(false);
                    }
                }
            } finally {
                joined.decrementAndGet();
            }
        }
    }

    private void work(int worker) {
        try {
            for (long from = next.getAndAdd(chunk); from < count; from = next.getAndAdd(chunk)) {
                task.run(worker, (int) from, (int) Math.min(count, from + chunk));
            }
        } catch (Throwable t) {
            // the first failure reaches the caller as it was thrown; later ones (other threads) ride along
            synchronized (next) {
                if (failure == null) {
                    failure = t;
                } else if (failure != t) {
                    try {
                        failure.addSuppressed(t);
                    } catch (Throwable lost) {
                        // out of memory for the suppressed list: the first failure stands, and this worker must
                        // still count down, or the caller would wait for it for ever
                    }
                }
            }
            next.set(count);
        }
    }

    private void workLoop(int index) {
        int seen = 0;
        while (true) {
            while (generation == seen && !closed) {
                LockSupport.park(this);
                // an interrupt that reaches the idle worker (meant for a query that has returned: a late timeout)
                // would make every later park return at once, and the worker would spin on a core
                Thread.interrupted();
            }
            if (generation == seen) {
                return;
            }
            // a batch started before any close: the caller counts on this worker's share and count-down, so it
            // runs even if the executor was closed since
            seen = generation;
            work(index);
            // a query may leave this thread's interrupt flag set (restoring it after an InterruptedException, as
            // blocking code should); park would then return at once, and the idle worker would spin on a core
            Thread.interrupted();
            pending.decrementAndGet();
        }
    }

    /**
     * Stops the worker threads (an application's executor is left running). A batch in progress finishes first (its
     * caller returns normally); a batch started afterwards throws {@link IllegalStateException}. Closing again does
     * nothing.
     */
    @Override
    public void close() {
        synchronized (workers) {
            closed = true;
        }
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
    }
}
