package dev.boxwood.index;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A small fixed pool of daemon threads that runs one batch of queries at a time, split into chunks claimed from a
 * shared counter; the calling thread works too. A call allocates nothing: the batch is a reusable {@link Task}
 * object, workers are woken by unparking and the caller waits by spinning briefly, then parking in short slices.
 * It runs the batches of {@link BatchQueries}, and any batch of one's own over an index's thread-safe queries
 * (the tiled world's batches run on it too), each worker with scratch state of its own. One batch at a time:
 * {@link #run} called while a batch runs (from another thread, or from inside a task) throws
 * {@link IllegalStateException}. The worker threads live until {@link #close()}.
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
         * @param worker the thread's index in {@code [0, threads())} (0 is the caller's thread): the scratch state
         *               to use, which no other thread uses during the batch
         * @param from first query
         * @param to one past the last query
         */
        void run(int worker, int from, int to);
    }

    private final Thread[] workers;
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
     * A pool of {@code threads - 1} worker threads plus the caller.
     *
     * @param threads total threads per batch, {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public QueryExecutor(int threads) {
        this(threads, "QueryExecutor");
    }

    /**
     * A pool whose messages name its owner: a {@link BatchRunner}'s callers see the runner's class, not this one.
     *
     * @param threads total threads per batch, {@code >= 1}
     * @param name what the messages call it ("this BatchQueries is closed")
     */
    QueryExecutor(int threads, String name) {
        this.name = name;
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
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

    /** @return the number of threads a batch runs on, the caller included */
    public int threads() {
        return workers.length + 1;
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
            pending.set(workers.length);
            generation++;
        }
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
        work(0);
        for (int spins = 0; pending.get() != 0; spins++) {
            if (spins < 1000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(10_000);
            }
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
     * Stops the worker threads. A batch in progress finishes first (its caller returns normally); a batch started
     * afterwards throws {@link IllegalStateException}. Closing again does nothing.
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
