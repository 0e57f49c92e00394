package dev.boxwood.query;

/**
 * A binary heap over entries that live in parallel primitive arrays, and the in-place sort built on it: heapsort
 * (Williams 1964) with Floyd's bottom-up heap construction; no allocation, no recursion. A subclass says how two
 * entries compare and how they swap. Used whole by the result buffers ({@link #heapSort}), and as a priority queue
 * ({@link #heapify}, {@link #removeTop}) where only the first few entries in order are wanted, such as the tiles a
 * tiled world's nearest search visits nearest first.
 */
public abstract class HeapSorted {

    /** For subclasses. */
    protected HeapSorted() {
    }

    /**
     * Whether entry {@code a} sorts before entry {@code b}.
     *
     * @param a an entry
     * @param b another entry
     * @return whether {@code a} sorts first
     */
    protected abstract boolean less(int a, int b);

    /**
     * Exchanges entries {@code a} and {@code b} in every parallel array.
     *
     * @param a an entry
     * @param b another entry
     */
    protected abstract void swap(int a, int b);

    /**
     * Sorts entries {@code [0, count)} ascending by {@link #less}.
     *
     * @param count the number of entries
     */
    protected final void heapSort(int count) {
        heapify(count);
        for (int end = count; end > 1; ) {
            end = removeTop(end);
        }
    }

    /**
     * Makes entries {@code [0, count)} a heap whose top, entry 0, is one that sorts last by {@link #less}: O(count).
     *
     * @param count the number of entries
     */
    protected final void heapify(int count) {
        for (int i = count / 2 - 1; i >= 0; i--) {
            siftDown(i, count);
        }
    }

    /**
     * Moves the top of the heap {@code [0, count)} to {@code count - 1} and makes {@code [0, count - 1)} a heap
     * again: O(log count).
     *
     * @param count the heap's size, {@code >= 1}
     * @return the heap's new size, {@code count - 1}; the removed top is entry {@code count - 1}
     */
    protected final int removeTop(int count) {
        int end = count - 1;
        swap(0, end);
        siftDown(0, end);
        return end;
    }

    private void siftDown(int i, int end) {
        while (true) {
            // 2 * i + 1 >= end, decided without computing it: past 2^30 entries it overflows
            if (i >= end >>> 1) {
                return;
            }
            int child = 2 * i + 1;
            if (child + 1 < end && less(child, child + 1)) {
                child++;
            }
            if (!less(i, child)) {
                return;
            }
            swap(i, child);
            i = child;
        }
    }
}
