package dev.boxwood.query;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapSortedTest {

    /** Entries that exist only as indices: every index the sort names must lie in {@code [0, count)}. */
    private static final class Indices extends HeapSorted {
        final int count;
        int comparisons;

        Indices(int count) {
            this.count = count;
        }

        @Override
        protected boolean less(int a, int b) {
            check(a);
            check(b);
            if (++comparisons == 64) {
                // far enough: the sort of two billion entries is not the point, its index arithmetic is
                throw new IllegalStateException("stop");
            }
            // a parent always sorts before its children: every sift goes down as far as the heap reaches
            return true;
        }

        @Override
        protected void swap(int a, int b) {
            check(a);
            check(b);
        }

        private void check(int i) {
            assertTrue(i >= 0 && i < count, "entry " + i + " of " + count);
        }
    }

    @Test
    void shouldSiftDownTheLargestBuffersWithoutOverflowingAChildIndex() {
        for (int count : new int[] {(1 << 30) + 2, Integer.MAX_VALUE - 8}) {
            Indices heap = new Indices(count);
            IllegalStateException stop = assertThrows(IllegalStateException.class, () -> heap.heapSort(count));
            assertEquals("stop", stop.getMessage());
        }
    }

    @Test
    void shouldHandOutTheTopInOrderAsAPriorityQueue() {
        // heapify once, then removeTop: each removal yields the entry that sorts last among those left (ties in any
        // order), so a caller that stops early orders only what it takes
        for (int n = 1; n <= 40; n++) {
            int[] values = values(n);
            HeapSorted queue = over(values);
            queue.heapify(n);
            int previous = Integer.MAX_VALUE;
            for (int size = n; size > 0; ) {
                int top = values[0];
                size = queue.removeTop(size);
                assertEquals(top, values[size], "the removed top sits at the new size");
                assertTrue(top <= previous, "n=" + n + " took " + top + " after " + previous);
                previous = top;
            }
        }
    }

    @Test
    void shouldSortSmallBuffers() {
        for (int n = 0; n <= 40; n++) {
            int[] values = values(n);
            HeapSorted sorter = over(values);
            sorter.heapSort(n);
            for (int i = 1; i < n; i++) {
                assertTrue(values[i - 1] <= values[i], "n=" + n + " at " + i);
            }
        }
    }

    /** {@code n} values in [0, 13) with repeats, not in order. */
    private static int[] values(int n) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = (i * 7919) % 13;
        }
        return values;
    }

    /** A heap over the values themselves. */
    private static HeapSorted over(int[] values) {
        return new HeapSorted() {
            @Override
            protected boolean less(int a, int b) {
                return values[a] < values[b];
            }

            @Override
            protected void swap(int a, int b) {
                int t = values[a];
                values[a] = values[b];
                values[b] = t;
            }
        };
    }
}
