package dev.boxwood.query;

import java.math.BigDecimal;

import dev.boxwood.geom.Geom;

/**
 * Outward rounding of double coordinates to float, the storage rule shared by every index of the library.
 *
 * <p>Indexes store boxes as floats relative to a double origin: each coordinate's offset {@code x - origin} is
 * rounded <em>outward</em>, as the exact difference ({@link #below}, {@link #above}): a min coordinate down to the
 * largest float not above it, a max coordinate up to the smallest float not below it. The stored box therefore
 * contains the given box exactly, moved into the frame (never a false miss), and is at most one float ulp larger
 * per side. Queries translate their own coordinates by the same origin in double and are answered exactly against
 * the stored float boxes; translation rounded to double is monotonic and the stored bounds lie outside the exact
 * offsets, so a query box that touches a given box touches its stored box. Two indexes with the same origin store
 * the same boxes, which makes them comparable bit for bit.
 *
 * <p>A stored coordinate must lie within {@link #MAX_OFFSET} of its origin: every index rejects a box beyond it
 * ({@link Arguments#requireStorableBox}). Without the limit a coordinate beyond the float range would be stored as
 * an infinity, and the differences, areas and margins the indexes compute from stored boxes would turn into
 * infinities and NaNs that silently corrupt the hierarchy's costs.
 */
public final class OutwardFloat {

    /**
     * The largest distance a stored coordinate may have from its origin on each axis, 1e18. Floats are 6.9e10 apart
     * there (precision comes from the origin, not from the range), and sums and products of such coordinates (the
     * dynamic tree clamps its fat bounds here too) stay far inside the float range.
     */
    public static final double MAX_OFFSET = 1e18;

    /**
     * The largest magnitude of an index's origin on each axis, 1e300: far beyond any world, and near enough to zero
     * that moving a query into the index's frame stays finite (a stored coordinate plus the origin, a query point
     * minus it, a plane's distance {@code d - n · origin} for any plane not itself near the end of the double
     * range; {@link ConvexRegion#translated} clamps those). Every index and the world file reader refuse an origin
     * beyond it ({@link Arguments#requireOrigin}).
     */
    public static final double MAX_ORIGIN = 1e300;

    /** The largest magnitude a stored coordinate can have: {@link #MAX_OFFSET} rounded outward to a float. */
    public static final float MAX_STORED = up(MAX_OFFSET);

    private OutwardFloat() {
    }

    /**
     * Whether a coordinate already relative to its origin (a stored float, or one moved into another origin's
     * frame) lies within the stored range, {@code |relative| <= }{@link #MAX_STORED}.
     *
     * @param relative the coordinate minus its origin
     * @return false beyond the range, and for NaN
     */
    public static boolean withinStoredRange(double relative) {
        return relative >= -MAX_STORED && relative <= MAX_STORED;
    }

    /**
     * Whether a coordinate can be stored relative to an origin: {@code |value - origin| <= }{@link #MAX_OFFSET},
     * give or take the rounding at the limit: a coordinate up to {@link #MAX_STORED} (1e18 rounded up to a float)
     * is accepted too, so that a box an index reports back (its stored floats, rounded outward) can be given to it
     * again.
     *
     * @param value a coordinate (world frame)
     * @param origin the storage origin on the same axis
     * @return false for a coordinate beyond the limit, and for NaN
     */
    public static boolean storable(double value, double origin) {
        double d = value - origin;
        return d >= -MAX_STORED && d <= MAX_STORED;
    }

    /**
     * The largest float not above {@code v} (a min coordinate).
     *
     * @param v a finite double
     * @return a float {@code <= v}
     */
    public static float down(double v) {
        // Branch-free: whether the nearest float overshot is a coin toss for real coordinates, and a mispredicted
        // branch per coordinate cost more than the rest of a move. Stepping the bits by one toward -infinity is
        // nextDown for every float here, -0.0 (to -MIN_VALUE) and +infinity (to MAX_VALUE) included; +0.0 never
        // overshoots (a negative v rounds to -0.0), and NaN never compares greater.
        float f = (float) v;
        int bits = Float.floatToRawIntBits(f);
        int step = f > v ? 1 : 0;
        int sign = bits >> 31;
        return Float.intBitsToFloat(bits - ((step ^ sign) - sign));
    }

    /**
     * The smallest float not below {@code v} (a max coordinate).
     *
     * @param v a finite double
     * @return a float {@code >= v}
     */
    public static float up(double v) {
        // As down, mirrored: one step toward +infinity in magnitude-ordered bits (+0.0 to MIN_VALUE).
        float f = (float) v;
        int bits = Float.floatToRawIntBits(f);
        int step = f < v ? 1 : 0;
        int sign = bits >> 31;
        return Float.intBitsToFloat(bits + ((step ^ sign) - sign));
    }

    /**
     * The stored min coordinate of {@code x} relative to {@code origin}: the largest float not above the exact
     * {@code x - origin}. The difference rounded to double can lie above the exact one (by up to half a double
     * step) and be a float itself, which {@link #down} would keep; its exact rounding error (Knuth's TwoSum,
     * {@link Geom#sumError}) decides then, so a box touching a shape in world coordinates is never stored short of
     * it. Computed only where the rounded difference is a float, so a branch that input data takes one way or the
     * other almost always.
     *
     * @param x a finite coordinate
     * @param origin the storage origin on the same axis
     * @return a float {@code <= x - origin}, exactly, but not below {@code -}{@link #MAX_STORED} (an offset
     *     {@link #storable} accepts can exceed the limit by less than half a double step)
     */
    public static float below(double x, double origin) {
        double v = x - origin;
        float f = down(v);
        if (f == v && Geom.sumError(x, -origin, v) < 0.0) {
            // not below -MAX_STORED: storable accepts an offset that rounds onto the limit, and an index never
            // stores beyond it (there the stored bound falls short of the exact one by less than half a double step)
            f = Math.max(Math.nextDown(f), -MAX_STORED);
        }
        return f;
    }

    /**
     * The stored max coordinate of {@code x} relative to {@code origin}: the smallest float not below the exact
     * {@code x - origin} ({@link #below} mirrored).
     *
     * @param x a finite coordinate
     * @param origin the storage origin on the same axis
     * @return a float {@code >= x - origin}, exactly, but not above {@link #MAX_STORED}
     */
    public static float above(double x, double origin) {
        double v = x - origin;
        float f = up(v);
        if (f == v && Geom.sumError(x, -origin, v) > 0.0) {
            f = Math.min(Math.nextUp(f), MAX_STORED);
        }
        return f;
    }

    /**
     * A stored min bound re-stored relative to another origin: a float not above the coordinate, in the frame of
     * {@code to}, of any world point that the frame of {@code from} stores at or above {@code stored}. Queries move a
     * world coordinate {@code x} into a frame as {@code x - origin} rounded to double, so those points are the ones
     * with {@code x - from} no lower than {@code stored} less half a double step; this takes that bound, adds
     * {@code from - to} exactly (Knuth's TwoSum, TAOCP vol. 2, 4.2.2; {@link Geom#sumError}) and rounds every remaining operation
     * down. A box re-stored this way still holds every point it answered for, so nothing its old frame found is
     * missed; it is at most about one double step of {@code stored} plus one float step of the result larger. An
     * unchanged origin keeps the bound as it is, and so does a shift that is exact and lands on a float, unless the
     * bound moves nearer zero across a power of two (where the old frame's half-step reach exceeds the new frame's
     * rounding): moving the origin by whole multiples of the coordinates' float step, such as whole metres for
     * coordinates within 2^24 m of it, re-stores such bounds exactly instead of widening them at every move.
     *
     * @param stored a finite stored min bound in the frame of {@code from}
     * @param from the origin it is stored relative to, on this axis (within {@link #MAX_ORIGIN})
     * @param to the new origin on this axis (within {@link #MAX_ORIGIN})
     * @return the bound in the frame of {@code to}, which may lie beyond the storage range (check it); a bound whose
     *     exact shift {@code stored + from - to} is within the range but whose half-step reach rounds beyond it is
     *     {@code -MAX_STORED}, short of that reach by less than half a double step, as {@link #below} stores an
     *     offset that rounds onto the limit
     */
    public static float rebaseDown(float stored, double from, double to) {
        if (from == to) {
            return stored;
        }
        float r = down(rebased(stored, from, to, false));
        return r < -MAX_STORED && exactShiftWithin(stored, from, to) ? -MAX_STORED : r;
    }

    /**
     * A stored max bound re-stored relative to another origin: {@link #rebaseDown} mirrored, a float not below the
     * new-frame coordinate of any world point stored at or below {@code stored}.
     *
     * @param stored a finite stored max bound in the frame of {@code from}
     * @param from the origin it is stored relative to, on this axis (within {@link #MAX_ORIGIN})
     * @param to the new origin on this axis (within {@link #MAX_ORIGIN})
     * @return the bound in the frame of {@code to}, which may lie beyond the storage range (check it); clamped to
     *     {@code MAX_STORED} as {@link #rebaseDown} is to {@code -MAX_STORED}
     */
    public static float rebaseUp(float stored, double from, double to) {
        if (from == to) {
            return stored;
        }
        float r = up(rebased(stored, from, to, true));
        return r > MAX_STORED && exactShiftWithin(stored, from, to) ? MAX_STORED : r;
    }

    /**
     * Whether {@code stored + from - to}, exactly, lies within {@code [-MAX_STORED, MAX_STORED]}. Only asked where a
     * re-stored bound rounded beyond the limit, so the exact sum's allocation stays off every common path.
     */
    private static boolean exactShiftWithin(float stored, double from, double to) {
        BigDecimal shifted = new BigDecimal(stored).add(new BigDecimal(from)).subtract(new BigDecimal(to));
        return shifted.abs().compareTo(new BigDecimal(MAX_STORED)) <= 0;
    }

    /**
     * The double bound of {@link #rebaseDown} ({@code up} false) or {@link #rebaseUp}, before the float rounding.
     *
     * <p>Where the shift loses nothing it is the bound shifted, unrounded. The old frame stored the points {@code x}
     * with {@code x - from}, rounded to double, at or above {@code stored} (a min bound): those down to half the
     * double gap below {@code stored} (a tie rounds to {@code stored}, whose double is even, being a float). Shifted
     * exactly, they reach down to half that gap below the new bound {@code w}; the new frame rounds them to {@code w}
     * or above if its own double gap below {@code w} is no narrower (a float {@code w} is even too). So when the shift
     * and the sum are exact in double, the sum is a float, and the bound does not move nearer zero across a power of
     * two, the bound is re-stored as it is: moving the origin by whole multiples of the coordinates' float step
     * widens nothing.
     */
    private static double rebased(float stored, double from, double to, boolean up) {
        double f = stored;
        double s = from - to;
        double es = Geom.sumError(from, -to, s);
        double a = f + s;
        double ea = Geom.sumError(f, s, a);
        if (es == 0.0 && ea == 0.0 && (float) a == a
                && (up ? Math.nextUp(a) - a >= Math.nextUp(f) - f : a - Math.nextDown(a) >= f - Math.nextDown(f))) {
            return a;
        }
        // a + ea + es is f + (from - to) exactly; the ulp of f bounds the half step beyond it. Each rounding after
        // the exact parts is stepped outward once, so the sum of the rounded parts stays outside the exact one.
        double err = ea + es;
        return up ? Math.nextUp(a + Math.nextUp(Math.nextUp(err) + Math.ulp(f)))
                : Math.nextDown(a + Math.nextDown(Math.nextDown(err) - Math.ulp(f)));
    }

    /**
     * Stores a box the library's way: translated by the origin and rounded outward from the exact offsets
     * ({@link #below}, {@link #above}), into {@code dest[offset .. offset + 5]} as minX, minY, minZ, maxX, maxY,
     * maxZ.
     *
     * @param dest the float storage
     * @param offset index of minX
     * @param originX storage origin x
     * @param originY storage origin y
     * @param originZ storage origin z
     * @param minX min x
     * @param minY min y
     * @param minZ min z
     * @param maxX max x
     * @param maxY max y
     * @param maxZ max z
     */
    public static void storeBox(float[] dest, int offset, double originX, double originY, double originZ,
                                double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        dest[offset] = below(minX, originX);
        dest[offset + 1] = below(minY, originY);
        dest[offset + 2] = below(minZ, originZ);
        dest[offset + 3] = above(maxX, originX);
        dest[offset + 4] = above(maxY, originY);
        dest[offset + 5] = above(maxZ, originZ);
    }

    /**
     * The world coordinates of a stored box: {@code origin + stored}, computed in double, into
     * {@code dest[0 .. 5]}.
     *
     * @param src the float storage
     * @param offset index of minX
     * @param originX storage origin x
     * @param originY storage origin y
     * @param originZ storage origin z
     * @param dest receives minX, minY, minZ, maxX, maxY, maxZ
     */
    public static void loadBox(float[] src, int offset, double originX, double originY, double originZ,
                               double[] dest) {
        dest[0] = originX + src[offset];
        dest[1] = originY + src[offset + 1];
        dest[2] = originZ + src[offset + 2];
        dest[3] = originX + src[offset + 3];
        dest[4] = originY + src[offset + 4];
        dest[5] = originZ + src[offset + 5];
    }
}
