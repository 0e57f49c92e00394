package dev.boxwood.query;

/**
 * Collects every object a region query visits. Objects arrive in traversal order; {@link #sort()} orders them
 * by handle. The arrays grow as needed and are reused, so a warmed-up collector allocates nothing. Results
 * accumulate until {@link #reset()}.
 */
public final class AllOverlaps implements OverlapVisitor {

    private final HitBuffer hits = new HitBuffer(16);

    /** An empty collector. */
    public AllOverlaps() {
    }

    /** Clears the results. */
    public void reset() {
        hits.clear();
    }

    @Override
    public boolean visit(int handle, long userValue) {
        hits.add(handle, userValue, 0.0);
        return true;
    }

    /** Sorts the objects by handle (in place, no allocation). */
    public void sort() {
        hits.sort();
    }

    /** @return the number of objects collected */
    public int count() {
        return hits.count();
    }

    /**
     * @param i index in {@code [0, count())}
     * @return the object's handle
     */
    public int handle(int i) {
        return hits.handle(i);
    }

    /**
     * @param i index in {@code [0, count())}
     * @return the object's user value
     */
    public long userValue(int i) {
        return hits.userValue(i);
    }
}
