package dev.boxwood.query;

import java.util.Arrays;

/**
 * A growable list of handle pairs {@code (first, second)}, the output of pair queries (overlapping objects within
 * one index or between two). Two parallel {@code int} arrays that grow by doubling and are then reused, so a
 * warmed-up buffer allocates nothing. Pairs accumulate until {@link #clear()}; {@link #sort()} orders them by
 * {@code (first, second)} in place. Not thread-safe.
 */
public final class PairBuffer extends HeapSorted {

    /**
     * The most pairs a buffer holds: the largest {@code int[]} length HotSpot allocates (a few below
     * {@code Integer.MAX_VALUE}, for the array header).
     */
    public static final int MAX_PAIRS = Integer.MAX_VALUE - 8;

    private int[] first;
    private int[] second;
    private int size;

    /** An empty buffer with room for 64 pairs. */
    public PairBuffer() {
        this(64);
    }

    /**
     * An empty buffer.
     *
     * @param initialCapacity initial room in pairs, {@code >= 1}
     * @throws IllegalArgumentException if {@code initialCapacity < 1}
     */
    public PairBuffer(int initialCapacity) {
        if (initialCapacity < 1) {
            throw new IllegalArgumentException("initialCapacity must be >= 1: " + initialCapacity);
        }
        first = new int[initialCapacity];
        second = new int[initialCapacity];
    }

    /**
     * Appends a pair.
     *
     * @param a the first handle
     * @param b the second handle
     * @throws IllegalStateException if the buffer already holds {@link #MAX_PAIRS} pairs (it is left as it was)
     */
    public void add(int a, int b) {
        if (size == first.length) {
            int capacity = grownCapacity(size);
            // both copies before either is kept: a copy that runs out of memory leaves the buffer as it was
            int[] grownFirst = Arrays.copyOf(first, capacity);
            int[] grownSecond = Arrays.copyOf(second, capacity);
            first = grownFirst;
            second = grownSecond;
        }
        first[size] = a;
        second[size] = b;
        size++;
    }

    /** The capacity after a full buffer of {@code size} pairs grows ({@link #grownCapacity(int, String)}). */
    static int grownCapacity(int size) {
        return grownCapacity(size, "a PairBuffer holds at most " + MAX_PAIRS + " pairs");
    }

    /**
     * The capacity after a full array of {@code size} entries grows: doubled, up to the largest array length the
     * JVMs allocate ({@link #MAX_PAIRS}); the growth of every buffer of the package that grows without a bound of
     * its own (pairs, a collector's results).
     *
     * @param whenFull the message of the exception for a full array
     * @throws IllegalStateException if the array already holds {@link #MAX_PAIRS} entries
     */
    static int grownCapacity(int size, String whenFull) {
        if (size >= MAX_PAIRS) {
            throw new IllegalStateException(whenFull);
        }
        return size > MAX_PAIRS / 2 ? MAX_PAIRS : 2 * size;
    }

    /** Removes every pair (keeps the arrays). */
    public void clear() {
        size = 0;
    }

    /** @return the number of pairs */
    public int size() {
        return size;
    }

    /**
     * @param i index in {@code [0, size())}
     * @return the first handle of pair {@code i}
     */
    public int first(int i) {
        checkIndex(i);
        return first[i];
    }

    /**
     * @param i index in {@code [0, size())}
     * @return the second handle of pair {@code i}
     */
    public int second(int i) {
        checkIndex(i);
        return second[i];
    }

    /** Heapsort by {@code (first, second)}: in place, no allocation, no recursion (Williams 1964). */
    public void sort() {
        heapSort(size);
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("pair index " + i + " out of [0, " + size + ")");
        }
    }

    @Override
    protected boolean less(int i, int j) {
        return first[i] < first[j] || first[i] == first[j] && second[i] < second[j];
    }

    @Override
    protected void swap(int i, int j) {
        int t = first[i];
        first[i] = first[j];
        first[j] = t;
        t = second[i];
        second[i] = second[j];
        second[j] = t;
    }
}
