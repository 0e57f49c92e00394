package dev.boxwood.serial;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Counts the threads reading a mapping so that closing it never unmaps memory under a reader: {@link #close()}
 * stops new readers at once, and the mapping is released by whoever sees the last reader leave (the closer, when
 * none is reading).
 *
 * <p>The count is striped over cells a cache-line pair apart, chosen by thread id (twice as many cells as
 * processors, at most 64), so that threads reading the same mapping at once mostly use lines of their own (the
 * striping of {@code java.util.concurrent}'s {@code LongAdder}). A reader increments its cell and then reads the
 * closed flag; the closer sets the flag and then reads every cell. Both are sequentially consistent, so either the
 * reader sees the flag and backs out without reading, or the closer sees the reader's increment (the store-load
 * order of Dekker's mutual exclusion).
 * A reader leaves the cell it entered, so no cell ever goes below zero and a reader inside keeps its cell above
 * zero: all cells read as zero after the flag is set means no reader is inside. (A {@link StackOverflowError}
 * striking a reader's exit before its decrement would leave the count up, and the mapping is then never released:
 * a leak, never a release under a reader.)
 */
final class ReaderCount {

    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Longs between cells: 128 bytes, as the adjacent-line prefetcher pulls lines in pairs. */
    private static final int STRIDE = 16;
    private static final int MAX_CELLS = 64;

    private final long[] cells;
    private final int cellMask;
    private final Runnable release;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * @param release what frees the mapping: run once, by the thread that finds it closed and unread
     */
    ReaderCount(Runnable release) {
        int wanted = Math.min(MAX_CELLS, 2 * Math.max(1, Runtime.getRuntime().availableProcessors()));
        int count = Integer.highestOneBit(wanted - 1) << 1;
        this.cells = new long[count * STRIDE];
        this.cellMask = count - 1;
        this.release = release;
    }

    /**
     * Enters as a reader.
     *
     * @return the cell to pass to {@link #exit}, or {@code -1} if closed (then nothing is to be read or exited)
     */
    int enter() {
        int cell = ((int) Thread.currentThread().getId() & cellMask) * STRIDE;
        CELLS.getAndAdd(cells, cell, 1L);
        if (closed) {
            exit(cell);
            return -1;
        }
        return cell;
    }

    /** Leaves as a reader; releases the mapping if it was closed and this was the last reader. */
    void exit(int cell) {
        CELLS.getAndAdd(cells, cell, -1L);
        if (closed) {
            releaseIfUnread();
        }
    }

    /** Stops new readers; releases the mapping now if nobody reads it, else when the last reader leaves. */
    void close() {
        closed = true;
        releaseIfUnread();
    }

    /** @return whether {@link #close()} was called (the mapping may still be in use by readers inside) */
    boolean isClosed() {
        return closed;
    }

    /** @return whether the mapping has been released */
    boolean isReleased() {
        return released.get();
    }

    private void releaseIfUnread() {
        for (int c = 0; c < cells.length; c += STRIDE) {
            if ((long) CELLS.getVolatile(cells, c) != 0) {
                return;
            }
        }
        if (released.compareAndSet(false, true)) {
            release.run();
        }
    }
}
