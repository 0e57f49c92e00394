package dev.boxwood.query;

/**
 * Collects every object a region query visits. Objects arrive in traversal order; {@link #sort()} orders them by part
 * ({@link #enterPart}: the tile of a tiled world; 0 in an index of one part), then by handle. The part stays current
 * after a query (a tiled world leaves its last tile's): to gather the results of several indexes in one collector, call
 * {@link #enterPart} with a distinct part before each index's query. The arrays grow as needed and are reused, so a
 * warmed-up collector allocates nothing.
 *
 * <p>Results accumulate until {@link #reset()}: a query does not clear them, so that one collector can gather the
 * objects of several indexes (a static world and a dynamic tree). This is unlike the segment collectors
 * ({@link ClosestHit}, {@link AnyHit}, {@link AllHits}), which clear their results at the start of every cast: reusing
 * an {@code AllOverlaps} for a new, unrelated query needs a {@link #reset()} first.
 *
 * <p>A collector holds at most {@link PairBuffer#MAX_PAIRS} results (the largest array): one more throws
 * {@link IllegalStateException}, out of the query that found it, and leaves the results as they were.
 */
public final class AllOverlaps implements OverlapVisitor {

    private final HitBuffer hits = new HitBuffer(16);
    private int currentPart;

    /** An empty collector. */
    public AllOverlaps() {
    }

    /** Clears the results, and the current part back to 0. */
    public void reset() {
        hits.clear();
        currentPart = 0;
    }

    @Override
    public boolean visit(int handle, long userValue) {
        hits.add(handle, userValue, 0.0, currentPart);
        return true;
    }

    /**
     * {@inheritDoc} The part stays current until the next call or {@link #reset()}.
     *
     * @throws IllegalArgumentException if {@code part} is negative
     */
    @Override
    public void enterPart(int part) {
        currentPart = Arguments.requirePart(part);
    }

    /** Sorts the objects by part ({@link #enterPart}), then handle (in place, no allocation). */
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

    /**
     * @param i index in {@code [0, count())}
     * @return the part of the index the object's handle belongs to ({@link #enterPart}: the tile of a tiled world;
     *         0 in an index of one part)
     */
    public int part(int i) {
        return hits.part(i);
    }
}
