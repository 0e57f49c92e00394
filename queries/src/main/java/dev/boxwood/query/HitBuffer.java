package dev.boxwood.query;

import java.util.Arrays;

/**
 * Growable parallel arrays (handle, user value, fraction) behind {@link AllHits} and {@link AllOverlaps}: the storage,
 * the index-checked reads and the sort both public collectors expose, so each of them only documents its accessors.
 */
final class HitBuffer extends HeapSorted {

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

    /** Forgets the entries; the arrays are kept for reuse. */
    void clear() {
        count = 0;
    }

    int count() {
        return count;
    }

    int handle(int i) {
        checkIndex(i);
        return handles[i];
    }

    long userValue(int i) {
        checkIndex(i);
        return userValues[i];
    }

    double fraction(int i) {
        checkIndex(i);
        return fractions[i];
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("hit index " + i + " out of [0, " + count + ")");
        }
    }

    /** Heapsort by (fraction, handle): in place, no allocation, no recursion (Williams 1964). */
    void sort() {
        heapSort(count);
    }

    @Override
    boolean less(int a, int b) {
        return fractions[a] < fractions[b] || (fractions[a] == fractions[b] && handles[a] < handles[b]);
    }

    @Override
    void swap(int a, int b) {
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
