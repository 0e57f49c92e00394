package dev.boxwood.query;

/**
 * Collects every accepted hit of a segment cast (the cast is never clipped). Hits arrive in traversal order;
 * {@link #sort()} orders them by fraction, ties by lower part ({@link #enterPart}), then lower handle. The arrays grow
 * as needed and are reused, so a warmed-up collector allocates nothing.
 *
 * <p>A collector holds at most {@link PairBuffer#MAX_PAIRS} results (the largest array): one more throws
 * {@link IllegalStateException}, out of the query that found it, and leaves the results as they were.
 */
public final class AllHits extends SegmentCollector {

    private final HitBuffer hits = new HitBuffer(16);

    /** An empty collector. */
    public AllHits() {
    }

    @Override
    public void reset() {
        hits.clear();
    }

    @Override
    double bound() {
        return maxFraction;
    }

    @Override
    double accept(int handle, long userValue, double fraction, double boxFraction) {
        hits.add(handle, userValue, fraction, currentPart);
        // Not maxFraction: a cast with maxFraction 0 would read it as 0, "stop", and lose every other hit at 0.
        return Double.POSITIVE_INFINITY;
    }

    /** Sorts the hits by fraction, ties by lower part, then lower handle (in place, no allocation). */
    public void sort() {
        hits.sort();
    }

    /** @return the number of hits */
    public int count() {
        return hits.count();
    }

    /**
     * @param i hit index in {@code [0, count())}
     * @return the hit's handle
     */
    public int handle(int i) {
        return hits.handle(i);
    }

    /**
     * @param i hit index in {@code [0, count())}
     * @return the hit's user value
     */
    public long userValue(int i) {
        return hits.userValue(i);
    }

    /**
     * @param i hit index in {@code [0, count())}
     * @return the hit's fraction
     */
    public double fraction(int i) {
        return hits.fraction(i);
    }

    /**
     * @param i hit index in {@code [0, count())}
     * @return the part of the index the hit's handle belongs to ({@link #enterPart}: the tile of a tiled world; 0
     *         in an index of one part)
     */
    public int part(int i) {
        return hits.part(i);
    }
}
