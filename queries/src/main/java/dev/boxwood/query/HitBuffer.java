package dev.boxwood.query;

import java.util.Arrays;

/**
 * Growable parallel arrays (handle, user value, fraction, part) behind {@link AllHits} and {@link AllOverlaps}: the
 * storage, the index-checked reads and the sort both public collectors expose, so each of them only documents its
 * accessors.
 */
final class HitBuffer extends HeapSorted {

    int[] handles;
    long[] userValues;
    double[] fractions;
    int[] parts;
    int count;

    HitBuffer(int initialCapacity) {
        int capacity = Math.max(1, initialCapacity);
        handles = new int[capacity];
        userValues = new long[capacity];
        fractions = new double[capacity];
        parts = new int[capacity];
    }

    /**
     * The most entries a buffer holds: the largest array length HotSpot allocates (a few below
     * {@code Integer.MAX_VALUE}, for the array header), as {@link PairBuffer#MAX_PAIRS}.
     */
    static final int MAX_ENTRIES = PairBuffer.MAX_PAIRS;

    /**
     * The capacity after a full buffer of {@code count} entries grows.
     *
     * @throws IllegalStateException if the buffer already holds {@link #MAX_ENTRIES} entries
     */
    static int grownCapacity(int count) {
        return PairBuffer.grownCapacity(count, "a collector holds at most " + MAX_ENTRIES + " results: reset() it"
                + " between queries whose results are not wanted together");
    }

    /**
     * @throws IllegalStateException if the buffer already holds {@link #MAX_ENTRIES} entries (it is left as it was)
     */
    void add(int handle, long userValue, double fraction, int part) {
        if (count == handles.length) {
            int capacity = grownCapacity(count);
            // every copy before any is kept: a copy that runs out of memory leaves the buffer as it was
            int[] grownHandles = Arrays.copyOf(handles, capacity);
            long[] grownValues = Arrays.copyOf(userValues, capacity);
            double[] grownFractions = Arrays.copyOf(fractions, capacity);
            int[] grownParts = Arrays.copyOf(parts, capacity);
            handles = grownHandles;
            userValues = grownValues;
            fractions = grownFractions;
            parts = grownParts;
        }
        handles[count] = handle;
        userValues[count] = userValue;
        fractions[count] = fraction;
        parts[count] = part;
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

    int part(int i) {
        checkIndex(i);
        return parts[i];
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("hit index " + i + " out of [0, " + count + ")");
        }
    }

    /** Heapsort by (fraction, part, handle): in place, no allocation, no recursion (Williams 1964). */
    void sort() {
        heapSort(count);
    }

    @Override
    protected boolean less(int a, int b) {
        if (fractions[a] != fractions[b]) {
            return fractions[a] < fractions[b];
        }
        return parts[a] < parts[b] || (parts[a] == parts[b] && handles[a] < handles[b]);
    }

    @Override
    protected void swap(int a, int b) {
        int h = handles[a];
        handles[a] = handles[b];
        handles[b] = h;
        long v = userValues[a];
        userValues[a] = userValues[b];
        userValues[b] = v;
        double f = fractions[a];
        fractions[a] = fractions[b];
        fractions[b] = f;
        int p = parts[a];
        parts[a] = parts[b];
        parts[b] = p;
    }
}
