package dev.boxwood.query;

/**
 * Answers "does the segment hit anything" (line of sight, shadow rays): the first accepted hit stops the cast.
 * Which object is reported when several are hit is unspecified.
 */
public final class AnyHit extends SingleHitCollector {

    /** An empty collector. */
    public AnyHit() {
    }

    @Override
    double bound() {
        return maxFraction;
    }

    @Override
    double accept(int candidate, long candidateValue, double t, double boxFraction) {
        record(candidate, candidateValue, t);
        return 0.0;
    }
}
