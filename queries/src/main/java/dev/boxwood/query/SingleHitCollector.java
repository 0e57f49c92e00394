package dev.boxwood.query;

import dev.boxwood.geom.Geom;

/**
 * Base of the collectors that keep one hit ({@link ClosestHit}, {@link AnyHit}): its handle, user value,
 * fraction and part.
 */
public abstract class SingleHitCollector extends SegmentCollector {

    boolean hit;
    int handle;
    long userValue;
    double fraction;
    int hitPart;

    /** Package-private: only this package's collectors extend it. */
    SingleHitCollector() {
        reset();
    }

    @Override
    public final void reset() {
        hit = false;
        handle = Handles.NONE;
        userValue = 0;
        fraction = Geom.NO_HIT;
        hitPart = -1;
    }

    /** Records the hit. */
    final void record(int candidate, long candidateValue, double t) {
        hit = true;
        handle = candidate;
        userValue = candidateValue;
        fraction = t;
        hitPart = currentPart;
    }

    /** @return whether the last cast hit anything */
    public final boolean hasHit() {
        return hit;
    }

    /** @return the handle of the hit, or {@link Handles#NONE} */
    public final int handle() {
        return handle;
    }

    /** @return the user value of the hit, or 0 */
    public final long userValue() {
        return userValue;
    }

    /**
     * @return the fraction of the hit, or {@link Geom#NO_HIT} (-1, as the kernels and the batches report a miss)
     *         if none
     */
    public final double fraction() {
        return fraction;
    }

    /**
     * @return the part of the index the hit's handle belongs to ({@link #enterPart}: the tile of a tiled world; 0
     *         in an index of one part), or -1 if none
     */
    public final int part() {
        return hitPart;
    }
}
