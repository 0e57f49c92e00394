package dev.boxwood.query;

/**
 * Receives the objects a segment (or ray) cast enters, and steers the cast (the protocol of Box2D's ray-cast
 * callback).
 *
 * <p>A segment is {@code p(t) = origin + t * translation} for {@code t} in {@code [0, maxFraction]}; a
 * <em>fraction</em> is that {@code t}, in units of the translation. The index calls {@link #visit} for each
 * object whose stored tight box the segment enters at a fraction not above the current maximum fraction
 * (closed: an entry exactly at the maximum is reported), with the entry fraction into that box; a segment that
 * starts inside or on the box enters it at 0. That fraction is computed against the cast's initial
 * {@code maxFraction} (never against a clipped one), so it does not depend on the order of the visits and every
 * index reports the same fraction for the same object. The return value of {@code visit}:
 * <ul>
 *   <li>{@code 0} (or {@code -0.0}): stop the cast at once;</li>
 *   <li>a negative value: ignore this object and continue unchanged;</li>
 *   <li>a value {@code v} in {@code (0, current maximum)}: clip: the maximum fraction becomes {@code v} for
 *       everything visited afterwards (objects entered at exactly {@code v} are still reported);</li>
 *   <li>the current maximum (or anything larger, or NaN): continue unchanged.</li>
 * </ul>
 * To continue unconditionally return {@link Double#POSITIVE_INFINITY}, not the maximum fraction: a cast whose
 * maximum is 0 (a point probe) would read that 0 as "stop". Likewise a visitor that clips to a hit at fraction 0
 * returns {@link Double#MIN_VALUE} to keep finding other objects entered at 0, as {@link ClosestHit} does.
 * Indexes visit near objects first where they cheaply can, but the order is not part of the contract: a
 * visitor that wants the closest hit must compare fractions itself (see {@link ClosestHit}).
 */
public interface RayCastVisitor extends PartAware {

    /**
     * Called once by the index at the start of each cast, before any {@link #visit}, with the validated segment
     * in world coordinates. Collectors use it to reset their results and remember the segment for exact tests.
     * The default does nothing.
     *
     * @param originX origin x
     * @param originY origin y
     * @param originZ origin z
     * @param translationX translation x
     * @param translationY translation y
     * @param translationZ translation z
     * @param maxFraction the initial maximum fraction
     */
    default void begin(double originX, double originY, double originZ,
                       double translationX, double translationY, double translationZ, double maxFraction) {
    }

    /**
     * Called by an index after {@link #begin}, for a ray cast, with the origin of a frame it computes box entry
     * fractions in (the tree's or mapped world's origin; in a tiled world each tile the segment may enter): the
     * segment's start moves into that frame as {@code start - frameOrigin} rounded to double, so a box fraction
     * can exceed the fraction at which the segment, exactly in world coordinates, reaches the box. A collector with
     * an exact test ({@link SegmentCollector#setExactTest}) widens its clipping by that error, so that an object
     * whose exact hit comes first is not cut off by its box fraction. The default does nothing.
     *
     * @param frameOriginX the frame's origin x
     * @param frameOriginY the frame's origin y
     * @param frameOriginZ the frame's origin z
     */
    default void frame(double frameOriginX, double frameOriginY, double frameOriginZ) {
    }

    /**
     * Visits one object the segment enters.
     *
     * @param handle the object's handle
     * @param userValue the value given when the object was added
     * @param fraction the entry fraction into the object's stored tight box, in {@code [0, current maximum]}
     * @return the steering value described in the interface comment
     */
    double visit(int handle, long userValue, double fraction);

    /** What {@link #nextMaxFraction} returns when the visitor stopped the cast. */
    double STOP = -1.0;

    /**
     * The protocol above in one place, for the indexes: the cast's maximum fraction after a visit returned
     * {@code steer}.
     *
     * @param steer the value {@link #visit} returned
     * @param max the current maximum fraction ({@code >= 0})
     * @return {@link #STOP} when {@code steer} is 0; {@code steer} when it lies in {@code (0, max)}; else {@code max}
     */
    static double nextMaxFraction(double steer, double max) {
        if (steer == 0.0) {
            return STOP;
        }
        return steer > 0.0 && steer < max ? steer : max;
    }
}
