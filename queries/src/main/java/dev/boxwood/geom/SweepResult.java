package dev.boxwood.geom;

/**
 * Mutable destination for kernels that produce an interval: the first and last fraction or normalized time at which
 * two shapes are in contact. Supplied by the caller and reused, so the kernels allocate nothing. After a hit,
 * {@code 0 <= first <= last}; after a miss, {@code hit} is false and both are {@link Geom#NO_HIT}.
 */
public final class SweepResult {

    /** First time (or fraction) of contact; {@link Geom#NO_HIT} after a miss. */
    public double first = Geom.NO_HIT;
    /** Last time (or fraction) of contact; {@link Geom#NO_HIT} after a miss. */
    public double last = Geom.NO_HIT;
    /** Whether the last kernel call found contact. */
    public boolean hit;

    /**
     * Records a hit.
     *
     * @param first first time of contact
     * @param last last time of contact
     * @return true
     */
    boolean set(double first, double last) {
        this.first = first;
        this.last = last;
        this.hit = true;
        return true;
    }

    /**
     * Records a miss.
     *
     * @return false
     */
    boolean miss() {
        this.first = Geom.NO_HIT;
        this.last = Geom.NO_HIT;
        this.hit = false;
        return false;
    }

    @Override
    public String toString() {
        return hit ? "SweepResult[" + first + ", " + last + "]" : "SweepResult[miss]";
    }
}
