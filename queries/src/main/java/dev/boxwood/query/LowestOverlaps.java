package dev.boxwood.query;

/**
 * A bounded overlap collector: counts every object a region query reports and keeps the {@code max} lowest by
 * part, then handle ({@link PartAware#enterPart}: the tile of a tiled world; 0 in an index of one part), with their
 * user values, in a max-heap (Williams 1964). Its memory is {@code max} entries whatever the number of answers, so
 * a query batch that keeps a fixed number of results per query allocates nothing however large one answer is (a
 * list of every answer would grow with the largest). Not thread-safe; reusable: {@link #reset} starts a new query.
 * Handles must be non-negative (every index's are).
 */
public final class LowestOverlaps implements OverlapVisitor {

    private long[] keys = new long[0];
    private long[] values = new long[0];
    private int size;
    private int max;
    private int count;
    private long part;

    /**
     * Starts a new query that keeps up to {@code max} results; allocates only when {@code max} is larger than
     * ever before.
     *
     * @param max results to keep, {@code >= 0}
     * @throws IllegalArgumentException if {@code max < 0}
     */
    public void reset(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must be >= 0: " + max);
        }
        if (keys.length < max) {
            keys = new long[max];
            values = new long[max];
        }
        this.max = max;
        size = 0;
        count = 0;
        part = 0;
    }

    /** @return the number of objects reported since {@link #reset}, kept or not */
    public int count() {
        return count;
    }

    /** @return the number of results kept, {@code min(count(), max)} */
    public int kept() {
        return size;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if {@code part < 0} (it would sort before part 0); the current part is kept
     */
    @Override
    public void enterPart(int part) {
        this.part = Arguments.requirePart(part);
    }

    @Override
    public boolean visit(int handle, long userValue) {
        count++;
        long key = part << 32 | handle;
        if (size < max) {
            // sift up from the new leaf
            int i = size++;
            while (i > 0 && keys[(i - 1) >>> 1] < key) {
                keys[i] = keys[(i - 1) >>> 1];
                values[i] = values[(i - 1) >>> 1];
                i = (i - 1) >>> 1;
            }
            keys[i] = key;
            values[i] = userValue;
        } else if (size > 0 && key < keys[0]) {
            siftDown(key, userValue, size);
        }
        return true;
    }

    /** Puts the entry at the root of the first {@code n} slots and sifts it down. */
    private void siftDown(long key, long value, int n) {
        int i = 0;
        for (int c = 1; c < n; c = 2 * i + 1) {
            if (c + 1 < n && keys[c + 1] > keys[c]) {
                c++;
            }
            if (keys[c] <= key) {
                break;
            }
            keys[i] = keys[c];
            values[i] = values[c];
            i = c;
        }
        keys[i] = key;
        values[i] = value;
    }

    /**
     * Writes the kept results in ascending (part, handle) order to {@code [at, at + kept())} of the given arrays,
     * and empties the heap.
     *
     * @param parts receives the parts, or null when not wanted
     * @param handles receives the handles
     * @param userValues receives the user values, or null when not wanted
     * @param at the first index written
     * @throws IllegalArgumentException if {@code handles} is null, {@code parts} is also {@code handles}, {@code at}
     *                                  is negative or an array is shorter than {@code at + kept()} (nothing written,
     *                                  the results kept)
     */
    public void drainSorted(int[] parts, int[] handles, long[] userValues, int at) {
        Arguments.requireNonNull("handles", handles);
        BatchArguments.requireDistinct("parts", parts, "handles", handles);
        if (at < 0) {
            throw new IllegalArgumentException("at must be >= 0: " + at);
        }
        long end = (long) at + size;
        requireRoom("handles", handles.length, end);
        if (parts != null) {
            requireRoom("parts", parts.length, end);
        }
        if (userValues != null) {
            requireRoom("userValues", userValues.length, end);
        }
        for (int n = size; n > 0; n--) {
            long key = keys[0];
            long value = values[0];
            siftDown(keys[n - 1], values[n - 1], n - 1);
            if (parts != null) {
                parts[at + n - 1] = (int) (key >>> 32);
            }
            handles[at + n - 1] = (int) key;
            if (userValues != null) {
                userValues[at + n - 1] = value;
            }
        }
        size = 0;
    }

    private static void requireRoom(String name, int length, long end) {
        if (length < end) {
            throw new IllegalArgumentException(name + " must hold at least " + end + " values to drain into, has "
                    + length);
        }
    }
}
