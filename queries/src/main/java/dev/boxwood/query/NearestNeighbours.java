package dev.boxwood.query;

import java.util.Arrays;

/**
 * Caller-owned scratch memory and result list of a nearest-neighbour query: the objects found, nearest first, ties
 * broken by the lower handle, and the reusable primitive min-heap the best-first search runs on. Arrays grow as
 * needed and are reused, so a warmed-up instance allocates nothing. Not thread-safe: one per thread. Each query
 * clears the previous results.
 */
public final class NearestNeighbours {

    // results
    private int[] handles = new int[8];
    private long[] userValues = new long[8];
    private double[] distances = new double[8];
    private int count;

    // the search heap: squared distance, then a tie key (kind << 32 | handle), then the reference
    private double[] heapKeys = new double[64];
    private long[] heapTies = new long[64];
    private int[] heapRefs = new int[64];
    private int heapSize;

    /** An empty result list. */
    public NearestNeighbours() {
    }

    /** @return the number of objects found */
    public int count() {
        return count;
    }

    /**
     * @param i result index in {@code [0, count())}, 0 the nearest
     * @return the object's handle
     */
    public int handle(int i) {
        checkIndex(i);
        return handles[i];
    }

    /**
     * @param i result index in {@code [0, count())}
     * @return the object's user value
     */
    public long userValue(int i) {
        checkIndex(i);
        return userValues[i];
    }

    /**
     * @param i result index in {@code [0, count())}
     * @return the object's distance (to its tight box, or the exact distance when a {@link DistanceFunction} was
     *     given)
     */
    public double distance(int i) {
        checkIndex(i);
        return distances[i];
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("result index " + i + " out of [0, " + count + ")");
        }
    }

    // ---- for indexes ------------------------------------------------------------------------------------

    /** Clears the results and the heap; indexes call it at the start of a query. */
    public void clear() {
        count = 0;
        heapSize = 0;
    }

    /**
     * Appends a result; indexes call it in increasing order of (distance, handle).
     *
     * @param handle the object
     * @param userValue its user value
     * @param distance its distance
     */
    public void addResult(int handle, long userValue, double distance) {
        if (count == handles.length) {
            handles = Arrays.copyOf(handles, 2 * count);
            userValues = Arrays.copyOf(userValues, 2 * count);
            distances = Arrays.copyOf(distances, 2 * count);
        }
        handles[count] = handle;
        userValues[count] = userValue;
        distances[count] = distance;
        count++;
    }

    /** @return whether the search heap is empty */
    public boolean heapIsEmpty() {
        return heapSize == 0;
    }

    /**
     * Pushes a search entry.
     *
     * @param key the squared distance (the order)
     * @param tie the tie-break among equal keys, smaller first
     * @param ref the index's reference
     */
    public void push(double key, long tie, int ref) {
        if (heapSize == heapKeys.length) {
            heapKeys = Arrays.copyOf(heapKeys, 2 * heapSize);
            heapTies = Arrays.copyOf(heapTies, 2 * heapSize);
            heapRefs = Arrays.copyOf(heapRefs, 2 * heapSize);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(key, tie, heapKeys[parent], heapTies[parent])) {
                break;
            }
            heapKeys[i] = heapKeys[parent];
            heapTies[i] = heapTies[parent];
            heapRefs[i] = heapRefs[parent];
            i = parent;
        }
        heapKeys[i] = key;
        heapTies[i] = tie;
        heapRefs[i] = ref;
    }

    /** @return the key of the smallest entry (heap not empty) */
    public double topKey() {
        return heapKeys[0];
    }

    /** @return the tie of the smallest entry (heap not empty) */
    public long topTie() {
        return heapTies[0];
    }

    /** @return the reference of the smallest entry (heap not empty) */
    public int topRef() {
        return heapRefs[0];
    }

    /** Removes the smallest entry (heap not empty). */
    public void pop() {
        int last = --heapSize;
        double key = heapKeys[last];
        long tie = heapTies[last];
        int ref = heapRefs[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && less(heapKeys[child + 1], heapTies[child + 1], heapKeys[child], heapTies[child])) {
                child++;
            }
            if (!less(heapKeys[child], heapTies[child], key, tie)) {
                break;
            }
            heapKeys[i] = heapKeys[child];
            heapTies[i] = heapTies[child];
            heapRefs[i] = heapRefs[child];
            i = child;
        }
        heapKeys[i] = key;
        heapTies[i] = tie;
        heapRefs[i] = ref;
    }

    private static boolean less(double k1, long t1, double k2, long t2) {
        return k1 < k2 || k1 == k2 && t1 < t2;
    }
}
