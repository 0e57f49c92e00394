package dev.boxwood.query;

/**
 * Collects the closest hit of a segment cast: the accepted object with the smallest fraction, ties broken by the
 * lower handle (in an index of several parts, the lower part first), so the answer is deterministic and the same
 * for every index.
 *
 * <p>Each accepted hit clips the cast to its fraction, or to the fraction at which the cast entered its box when an
 * exact test ({@link #setExactTest}) puts the hit before that (by rounding: the exact test works in world
 * coordinates, the index in its own frame), so objects entered at the same box fraction are still visited and the
 * tie-break holds whichever the index visits first. With an exact test the clip is widened further, by a few ulps
 * and by the rounding of the segment's start into the index's frame ({@link #frame}), so an object whose exact hit
 * ties with the best or comes first is visited even when its box fraction comes after that hit; the answer is then
 * the same whatever order the index visits objects in (but for a segment that grazes a face, along an axis it
 * crosses so flatly that the start's rounding moves the crossing by more than 2^-20 of the segment: the grazing
 * casts {@code docs/conventions.md} exempts, Large worlds). A hit at fraction 0 clips to {@link Double#MIN_VALUE}
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
    double accept(int candidate, long candidateValue, double t, double boxFraction) {
        if (!hit || t < fraction || (t == fraction && (currentPart < hitPart
                || currentPart == hitPart && candidate < handle))) {
            record(candidate, candidateValue, t);
            // Never below the box fraction: an exact test may put the hit a few ulps before it (it works in world
            // coordinates, the index in its own frame), and a clip there would skip the objects that tie with this
            // one at the same box fraction (equal shapes), whichever of them the index happened to visit first.
            double clip = Math.max(t, boxFraction);
            return clip > 0.0 ? clip : Double.MIN_VALUE;
        }
        return -1.0;
    }
}
