package dev.boxwood.query;

/**
 * Collects the closest hit of a segment cast: the accepted object with the smallest fraction, ties broken by the
 * lower handle (in an index of several parts, the lower part first), so the answer is deterministic and the same
 * for every index.
 *
 * <p>Each accepted hit clips the cast to its fraction. A hit at fraction 0 clips to {@link Double#MIN_VALUE}
 * rather than returning 0 (which would stop the cast), so another object also entered at 0 with a lower handle is
 * still found.
 */
public final class ClosestHit extends SingleHitCollector {

    /** An empty collector. */
    public ClosestHit() {
    }

    @Override
    double bound() {
        return hit ? fraction : maxFraction;
    }

    @Override
    double accept(int candidate, long candidateValue, double t) {
        if (!hit || t < fraction || (t == fraction && (currentPart < hitPart
                || currentPart == hitPart && candidate < handle))) {
            record(candidate, candidateValue, t);
            return t > 0.0 ? t : Double.MIN_VALUE;
        }
        return -1.0;
    }
}
