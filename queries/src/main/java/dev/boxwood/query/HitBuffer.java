package dev.boxwood.query;

import java.util.Arrays;

/** Growable parallel arrays (handle, user value, fraction) behind {@link AllHits} and {@link AllOverlaps}. */
final class HitBuffer {

    int[] handles;
    long[] userValues;
    double[] fractions;
    int count;

    HitBuffer(int initialCapacity) {
        int capacity = Math.max(1, initialCapacity);
        handles = new int[capacity];
        userValues = new long[capacity];
        fractions = new double[capacity];
    }

    void add(int handle, long userValue, double fraction) {
        if (count == handles.length) {
            int capacity = count * 2;
            handles = Arrays.copyOf(handles, capacity);
            userValues = Arrays.copyOf(userValues, capacity);
            fractions = Arrays.copyOf(fractions, capacity);
        }
        handles[count] = handle;
        userValues[count] = userValue;
        fractions[count] = fraction;
        count++;
    }

    void checkIndex(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("hit index " + i + " out of [0, " + count + ")");
        }
    }

    /** Heapsort by (fraction, handle): in place, no allocation, no recursion (Williams 1964). */
    void sort() {
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
            int child = 2 * i + 1;
            if (child >= end) {
                return;
            }
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

    private boolean less(int a, int b) {
        return fractions[a] < fractions[b] || (fractions[a] == fractions[b] && handles[a] < handles[b]);
    }

    private void swap(int a, int b) {
        int h = handles[a];
        handles[a] = handles[b];
        handles[b] = h;
        long v = userValues[a];
        userValues[a] = userValues[b];
        userValues[b] = v;
        double f = fractions[a];
        fractions[a] = fractions[b];
        fractions[b] = f;
    }
}
