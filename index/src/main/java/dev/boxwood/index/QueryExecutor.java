package dev.boxwood.index;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A small fixed pool of daemon threads that runs one batch of queries at a time, split into chunks claimed from a
 * shared counter; the calling thread works too. A call allocates nothing: the batch is a reusable {@link Task}
 * object, workers are woken by unparking and the caller waits by spinning briefly, then parking in short slices.
 * One batch at a time: {@link #run} is not reentrant and must be called from one thread at a time (its one caller,
 * {@link BatchQueries}, makes sure of that). The worker threads live until {@link #close()}.
 */
public final class QueryExecutor implements AutoCloseable {

    /** A batch: {@code run(worker, from, to)} answers queries {@code [from, to)} with worker {@code worker}'s scratch. */
    interface Task {
        void run(int worker, int from, int to);
    }

    private final Thread[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile int generation;
    private volatile boolean closed;
    private volatile Throwable failure;
    private Task task;
    private int count;
    private int chunk;

    /**
     * A pool of {@code threads - 1} worker threads plus the caller.
     *
     * @param threads total threads per batch, {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public QueryExecutor(int threads) {
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
     * rethrown as it was (an unchecked one; later ones from other threads are added to it as suppressed).
     */
    void run(Task task, int count) {
        synchronized (workers) {
            // with close() under the same lock: a batch either starts before the close, and then every worker
            // takes part in it (see workLoop), or not at all
            if (closed) {
                throw new IllegalStateException("executor is closed");
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
            for (int from = next.getAndAdd(chunk); from < count; from = next.getAndAdd(chunk)) {
                task.run(worker, from, Math.min(count, from + chunk));
            }
        } catch (Throwable t) {
            // the first failure reaches the caller as it was thrown; later ones (other threads) ride along
            synchronized (next) {
                if (failure == null) {
                    failure = t;
                } else if (failure != t) {
                    failure.addSuppressed(t);
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
