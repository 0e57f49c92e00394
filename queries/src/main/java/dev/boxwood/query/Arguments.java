package dev.boxwood.query;

import dev.boxwood.geom.BoxMessages;

/**
 * Validation of the arguments of index entry points, shared so every index rejects the same input with the same
 * message. Each method throws {@link IllegalArgumentException} naming the offending argument and returns normally
 * otherwise; callers validate everything before they change any state.
 */
public final class Arguments {

    private Arguments() {
    }

    /** The collectors' check of {@code enterPart}'s argument: a part is an index, {@code >= 0}. */
    static int requirePart(int part) {
        if (part < 0) {
            throw new IllegalArgumentException("part must be >= 0: " + part);
        }
        return part;
    }

    /**
     * Requires a finite value.
     *
     * @param name the argument's name for the message
     * @param value the value
     * @throws IllegalArgumentException if NaN or infinite
     */
    public static void requireFinite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite: " + value);
        }
    }

    /**
     * Requires an index's origin coordinate: finite and at most {@link OutwardFloat#MAX_ORIGIN} in magnitude.
     *
     * @param name the argument's name, for the message
     * @param value the coordinate
     * @throws IllegalArgumentException if NaN, infinite or beyond {@link OutwardFloat#MAX_ORIGIN}
     */
    public static void requireOrigin(String name, double value) {
        if (!(Math.abs(value) <= OutwardFloat.MAX_ORIGIN)) {
            throw new IllegalArgumentException(name + " must be finite and within " + OutwardFloat.MAX_ORIGIN
                    + " of zero: " + value);
        }
    }

    /**
     * Requires an array that can receive a box: non-null, at least 6 long (minX, minY, minZ, maxX, maxY, maxZ).
     *
     * @param dest the destination
     * @throws IllegalArgumentException if null or shorter than 6
     */
    public static void requireBoxDestination(double[] dest) {
        requireNonNull("dest", dest);
        if (dest.length < 6) {
            throw new IllegalArgumentException("dest must hold 6 doubles (minX, minY, minZ, maxX, maxY, maxZ), has "
                    + dest.length);
        }
    }

    /**
     * How far from an index's origin the point of a nearest query may lie: objects are stored within about 1e18 of
     * the origin, so every squared distance stays finite (below 3.1e300) when the point lies within this.
     */
    public static final double NEAREST_REACH = 1e150;

    /**
     * Requires the point of a nearest query, relative to the index's origin, within {@link #NEAREST_REACH} on
     * every axis: farther, squared distances overflow to infinity and could no longer order the objects.
     *
     * @param px point x minus the origin's x
     * @param py point y minus the origin's y
     * @param pz point z minus the origin's z
     * @throws IllegalArgumentException if the point lies farther
     */
    public static void requireWithinNearestReach(double px, double py, double pz) {
        if (!(Math.abs(px) <= NEAREST_REACH && Math.abs(py) <= NEAREST_REACH && Math.abs(pz) <= NEAREST_REACH)) {
            throw new IllegalArgumentException("the query point lies more than " + NEAREST_REACH
                    + " from the index's origin on some axis (squared distances would overflow): offset (" + px
                    + ", " + py + ", " + pz + ")");
        }
    }

    /**
     * Requires a segment's start to stay finite when moved into an index's frame, where the segment can reach
     * stored objects: an origin may lie up to {@code TreeConfig.MAX_ORIGIN} (1e300) from zero, so a start near
     * {@code ±Double.MAX_VALUE} on its far side moves to an infinite offset, and the cast would miss everything
     * without a word. Up to fraction 1 such a segment cannot reach the objects (they lie within the storage range
     * of the origin, and its end {@code start + translation} is finite): a miss is then the answer, and only a
     * {@code maxFraction} above 1 is refused.
     *
     * @param startX the start's x
     * @param startY the start's y
     * @param startZ the start's z
     * @param maxFraction the cast's maximum fraction
     * @param frameX the frame origin's x
     * @param frameY the frame origin's y
     * @param frameZ the frame origin's z
     * @throws IllegalArgumentException if an offset overflows and {@code maxFraction > 1}
     */
    public static void requireStartInFrame(double startX, double startY, double startZ, double maxFraction,
                                           double frameX, double frameY, double frameZ) {
        if (maxFraction > 1.0 && !(Double.isFinite(startX - frameX) && Double.isFinite(startY - frameY)
                && Double.isFinite(startZ - frameZ))) {
            throw new IllegalArgumentException("the segment's start (" + startX + ", " + startY + ", " + startZ
                    + ") lies farther than Double.MAX_VALUE from the index's origin (" + frameX + ", " + frameY + ", "
                    + frameZ + ") on some axis, and maxFraction " + maxFraction + " > 1 lets it reach the objects:"
                    + " its offset in the index's frame overflows");
        }
    }

    /**
     * Requires a finite value {@code >= 0}.
     *
     * @param name the argument's name for the message
     * @param value the value
     * @throws IllegalArgumentException if NaN, infinite or negative
     */
    public static void requireFiniteNonNegative(String name, double value) {
        requireFinite(name, value);
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
    }

    /**
     * The largest radius of a sphere query or sweep: the sphere tests compare squared distances with the squared
     * radius, which stays finite up to here (a larger one would overflow to infinity and accept every box).
     */
    public static final double MAX_RADIUS = 1e150;

    /**
     * Requires a sphere's radius: finite, {@code >= 0} and at most {@link #MAX_RADIUS}.
     *
     * @param name the argument's name for the message
     * @param radius the radius
     * @throws IllegalArgumentException if NaN, infinite, negative or above {@link #MAX_RADIUS}
     */
    public static void requireRadius(String name, double radius) {
        requireFiniteNonNegative(name, radius);
        if (radius > MAX_RADIUS) {
            throw new IllegalArgumentException(name + " must be at most " + MAX_RADIUS
                    + " (its square would overflow): " + radius);
        }
    }

    /**
     * Requires a valid closed box: finite coordinates and {@code min <= max} on each axis (zero extent allowed).
     *
     * @param minX min x
     * @param minY min y
     * @param minZ min z
     * @param maxX max x
     * @param maxY max y
     * @param maxZ max z
     * @throws IllegalArgumentException naming the first axis whose bounds are NaN, infinite or inverted, and both
     *                                  bounds on it, in the wording of {@link BoxMessages} ({@code "box is inverted
     *                                  on axis x: minX = 2.0 > maxX = 1.0"})
     */
    public static void requireBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        requireBounds("box", 0, minX, maxX);
        requireBounds("box", 1, minY, maxY);
        requireBounds("box", 2, minZ, maxZ);
    }

    /**
     * Requires a valid closed box of an array, as {@link #requireBox} does, with messages that name the array and
     * the box's index ({@code "boxes: box 3 is inverted on axis x: minX = 2.0 > maxX = 1.0"}).
     *
     * @param name the array's name for the message
     * @param index the box's index in the array (in boxes, not in doubles)
     * @param minX min x
     * @param minY min y
     * @param minZ min z
     * @param maxX max x
     * @param maxY max y
     * @param maxZ max z
     * @throws IllegalArgumentException naming the box and the first axis whose bounds are NaN, infinite or inverted
     */
    public static void requireBox(String name, int index, double minX, double minY, double minZ, double maxX,
                                  double maxY, double maxZ) {
        // the plain test first, so that a valid box builds no message
        if (!(valid(minX, maxX) && valid(minY, maxY) && valid(minZ, maxZ))) {
            String subject = name + ": box " + index;
            requireBounds(subject, 0, minX, maxX);
            requireBounds(subject, 1, minY, maxY);
            requireBounds(subject, 2, minZ, maxZ);
        }
    }

    /**
     * Requires a box an index can store relative to its origin: a valid box ({@link #requireBox}) whose every
     * coordinate lies within {@link OutwardFloat#MAX_OFFSET} of the origin on its axis.
     *
     * @param originX the index's origin x
     * @param originY the index's origin y
     * @param originZ the index's origin z
     * @param minX min x
     * @param minY min y
     * @param minZ min z
     * @param maxX max x
     * @param maxY max y
     * @param maxZ max z
     * @throws IllegalArgumentException naming the first axis whose bounds are NaN, infinite or inverted, else the
     *                                  first beyond the storage range, and both bounds on it ({@link BoxMessages})
     */
    public static void requireStorableBox(double originX, double originY, double originZ, double minX, double minY,
                                          double minZ, double maxX, double maxY, double maxZ) {
        requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        requireStorableBounds(0, minX, maxX, originX);
        requireStorableBounds(1, minY, maxY, originY);
        requireStorableBounds(2, minZ, maxZ, originZ);
    }

    private static boolean valid(double min, double max) {
        return Double.isFinite(min) && Double.isFinite(max) && min <= max;
    }

    private static void requireBounds(String subject, int axis, double min, double max) {
        if (!valid(min, max)) {
            throw BoxMessages.invalid(subject, axis, min, max);
        }
    }

    private static void requireStorableBounds(int axis, double min, double max, double origin) {
        if (!OutwardFloat.storable(min, origin) || !OutwardFloat.storable(max, origin)) {
            throw BoxMessages.beyond("box", axis, min, max, OutwardFloat.MAX_OFFSET, "the origin " + origin);
        }
    }

    /**
     * Requires a coordinate an index can store relative to its origin ({@link OutwardFloat#storable}).
     *
     * @param name the argument's name for the message
     * @param value the coordinate
     * @param origin the index's origin on the same axis
     * @throws IllegalArgumentException if NaN, infinite or more than {@link OutwardFloat#MAX_OFFSET} from the origin
     */
    public static void requireStorable(String name, double value, double origin) {
        if (!OutwardFloat.storable(value, origin)) {
            throw new IllegalArgumentException(name + " must lie within " + OutwardFloat.MAX_OFFSET
                    + " of the origin " + origin + " (the float storage range): " + value);
        }
    }

    /**
     * Requires a valid segment: finite origin and translation, finite {@code maxFraction >= 0}.
     *
     * @param originX origin x
     * @param originY origin y
     * @param originZ origin z
     * @param translationX translation x
     * @param translationY translation y
     * @param translationZ translation z
     * @param maxFraction the largest fraction
     * @throws IllegalArgumentException naming the first bad argument
     */
    public static void requireSegment(double originX, double originY, double originZ,
                                      double translationX, double translationY, double translationZ,
                                      double maxFraction) {
        requireFinite("originX", originX);
        requireFinite("originY", originY);
        requireFinite("originZ", originZ);
        requireFinite("translationX", translationX);
        requireFinite("translationY", translationY);
        requireFinite("translationZ", translationZ);
        requireFiniteNonNegative("maxFraction", maxFraction);
    }

    /**
     * Requires the arguments of a nearest-neighbour query: a finite point, {@code k >= 0} and a maximum distance
     * {@code >= 0} (infinity allowed, NaN not), and a result list.
     *
     * @param x point x
     * @param y point y
     * @param z point z
     * @param k number of objects wanted
     * @param maxDistance largest distance reported
     * @param dest the result list
     * @throws IllegalArgumentException naming the first bad argument
     */
    public static void requireNearest(double x, double y, double z, int k, double maxDistance, Object dest) {
        requireFinite("x", x);
        requireFinite("y", y);
        requireFinite("z", z);
        if (k < 0) {
            throw new IllegalArgumentException("k must be >= 0: " + k);
        }
        if (!(maxDistance >= 0)) {
            throw new IllegalArgumentException("maxDistance must be >= 0: " + maxDistance);
        }
        requireNonNull("dest", dest);
    }

    /**
     * Requires a finite displacement vector (the prediction argument of a move).
     *
     * @param displacementX displacement x
     * @param displacementY displacement y
     * @param displacementZ displacement z
     * @throws IllegalArgumentException naming the first non-finite component
     */
    public static void requireDisplacement(double displacementX, double displacementY, double displacementZ) {
        requireFinite("displacementX", displacementX);
        requireFinite("displacementY", displacementY);
        requireFinite("displacementZ", displacementZ);
    }

    /**
     * Requires a non-null reference.
     *
     * @param name the argument's name for the message
     * @param value the reference
     * @throws IllegalArgumentException if null
     */
    public static void requireNonNull(String name, Object value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }
}
