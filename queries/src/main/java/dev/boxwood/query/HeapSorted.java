package dev.boxwood.query;

/**
 * The in-place sort of the result buffers, whose entries live in parallel primitive arrays: heapsort (Williams
 * 1964) with Floyd's bottom-up heap construction; no allocation, no recursion. A subclass says how two entries
 * compare and how they swap.
 */
abstract class HeapSorted {

    HeapSorted() {
    }

    /** Whether entry {@code a} sorts before entry {@code b}. */
    abstract boolean less(int a, int b);

    /** Exchanges entries {@code a} and {@code b} in every parallel array. */
    abstract void swap(int a, int b);

    /** Sorts entries {@code [0, count)} ascending by {@link #less}. */
    final void heapSort(int count) {
        for (int i = count / 2 - 1; i >= 0; i--) {
            siftDown(i, count);
        }
        for (int end = count - 1; end > 0; end--) {
            swap(0, end);
            siftDown(0, end);
        }
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
