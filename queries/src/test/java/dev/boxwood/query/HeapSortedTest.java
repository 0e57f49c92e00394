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
        boolean less(int a, int b) {
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
        void swap(int a, int b) {
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
    void shouldSortSmallBuffers() {
        for (int n = 0; n <= 40; n++) {
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = (i * 7919) % 13;
            }
            HeapSorted sorter = new HeapSorted() {
                @Override
                boolean less(int a, int b) {
                    return values[a] < values[b];
                }

                @Override
                void swap(int a, int b) {
                    int t = values[a];
                    values[a] = values[b];
                    values[b] = t;
                }
            };
            sorter.heapSort(n);
            for (int i = 1; i < n; i++) {
                assertTrue(values[i - 1] <= values[i], "n=" + n + " at " + i);
            }
        }
    }
}
