package dev.boxwood.geom;

/**
 * Constants shared by the 3D geometry kernel and its callers.
 *
 * <p>Conventions of the whole kernel (see also {@code docs/conventions.md}):
 * <ul>
 *   <li>Shapes are closed: touching counts as overlap or hit. Zero-size shapes are valid and behave as their
 *       limits.</li>
 *   <li>A segment is {@code p(t) = origin + t * translation} for {@code t} in {@code [0, maxFraction]}; a
 *       fraction is that {@code t}. A segment that starts inside a solid hits it at fraction 0. A miss returns
 *       {@link #NO_HIT}; no kernel returns NaN for finite input.</li>
 *   <li>Planes are {@code n · x = d}; the positive half-space {@code n · x > d} is <em>outside</em>. A convex
 *       polyhedron (and a frustum) is the intersection of the closed inside half-spaces {@code n · x <= d}.</li>
 *   <li>The static kernels on primitive doubles do not validate their input; the value types do.</li>
 * </ul>
 */
public final class Geom {

    /** The fraction returned by segment and ray kernels on a miss. Every real fraction is {@code >= 0}. */
    public static final double NO_HIT = -1.0;

    /** Unit roundoff of double arithmetic, {@code 2^-53}: the largest relative error of one rounded operation. */
    public static final double UNIT_ROUNDOFF = 0x1p-53;

    /**
     * Factor by which slab tests enlarge their far bound before comparing it with the near bound, so that
     * rounding never turns a hit into a miss: {@code 1 + 2 * gamma(5)}, which is {@code 1 + 10 * 2^-53}, 5 ulps
     * above 1 (Ize 2013, "Robust BVH Ray Traversal", JCGT 2(2); pbrt-v3 {@code Bounds3::IntersectP} uses
     * {@code gamma(3)}). A slab distance carries at most four roundings here (the AABB sweep subtracts twice before
     * inverting and multiplying); the fifth covers the multiplication by this factor. Callers that inline their
     * own slab loop should use it too.
     */
    public static final double ROBUST_FAR_SCALE = 1.0 + 2.0 * gamma(5);

    /** Relative rounding bound of {@code |m|^2 - r^2} in {@link #within}: that of {@link SphereSphere#test}. */
    private static final double WITHIN_BOUND = gamma(8);

    /** Classification result: the shape has no point in the region (closed region: touching is not outside). */
    public static final int OUTSIDE = 0;
    /** Classification result: the shape is partly inside the region and partly outside. */
    public static final int CROSSING = 1;
    /** Classification result: the shape lies entirely in the closed region. */
    public static final int INSIDE = 2;

    private Geom() {
    }

    /**
     * The midpoint of {@code [min, max]}, never outside it: {@code (min + max) / 2}, rounded once, and where that
     * sum overflows (coordinates near the double range) the two halves added instead, which are exact there;
     * halving each first everywhere would round subnormal halves, and the midpoint of a box at the smallest
     * subnormal could come out as 0, outside it.
     *
     * @param min the lower end
     * @param max the upper end, {@code >= min}
     * @return the midpoint
     */
    public static double midpoint(double min, double max) {
        double centre = 0.5 * (min + max);
        return Double.isInfinite(centre) ? 0.5 * min + 0.5 * max : centre;
    }

    /**
     * Divides {@code v[at .. at + count)} by the Euclidean length of its first three entries, a vector's own
     * direction or a plane's {@code (n, d)}, without underflow or overflow of the squares: the entries are first
     * divided by the largest of the three magnitudes (as {@link Math#hypot} scales two), so {@code (1e-200, 0, 0)}
     * and {@code (1e308, 1e308, 0)} normalize like {@code (1, 0, 0)} and {@code (1, 1, 0)}. Entries beyond the
     * third become infinite only if their quotient by the length does not fit (a large {@code d} over a tiny normal);
     * callers check them.
     *
     * @param v     the entries, the first three finite
     * @param at    where they start
     * @param count how many to divide, at least 3
     * @return false, leaving the entries unchanged, if the first three are all zero
     */
    public static boolean normalize(double[] v, int at, int count) {
        double largest = Math.max(Math.abs(v[at]), Math.max(Math.abs(v[at + 1]), Math.abs(v[at + 2])));
        if (!(largest > 0)) {
            return false;
        }
        for (int k = at; k < at + 3; k++) {
            v[k] /= largest;
        }
        // the largest entry is now 1 in magnitude: the sum of squares is in [1, 3]
        double length = Math.sqrt(v[at] * v[at] + v[at + 1] * v[at + 1] + v[at + 2] * v[at + 2]);
        for (int k = at; k < at + 3; k++) {
            v[k] /= length;
        }
        for (int k = at + 3; k < at + count; k++) {
            double scaled = v[k] / largest;
            // a largest magnitude below 1 (an oblique unit normal) can take a d near the end of the range past it,
            // although its quotient by the whole length fits: then divide by the length first
            v[k] = Double.isInfinite(scaled) && Double.isFinite(v[k]) ? v[k] / length / largest : scaled / length;
        }
        return true;
    }

    /**
     * Whether the vector {@code m} is shorter than {@code r >= 0} (or as long, if {@code closed}), scaled by a power
     * of two first so that no square overflows or underflows: the tests of a start in the interior of a ball or
     * a capsule (closed for {@link SegmentCapsule#intersect}, open for the {@code surface} methods). The closed test
     * never misses a vector exactly as long as {@code r} whose squares round (components of more than 26 significant
     * bits): a sum of squares above {@code r^2} by no more than its rounding is taken again in compensated arithmetic
     * ({@link SphereSphere#touchesBeyondRounding}); a vector whose squares round to at most {@code r^2} counts as
     * within, so one longer by less than that rounding (at most about {@code 2e-15} of {@code r^2}) may.
     *
     * @return {@code |m| < r}, or {@code |m| <= r} if {@code closed}
     */
    static boolean within(double mx, double my, double mz, double r, boolean closed) {
        double s = powerOfTwo(-scaleExponent(mx, my, mz, r));
        mx *= s;
        my *= s;
        mz *= s;
        r *= s;
        double mm = mx * mx + my * my + mz * mz;
        double rr = r * r;
        // within the rounding bound of SphereSphere.test (and its subnormal steps) of the surface: taken again
        return mm < rr || closed && (mm == rr || mm - rr <= WITHIN_BOUND * (mm + rr) + 4 * Double.MIN_VALUE
                && SphereSphere.touchesBeyondRounding(mx, 0.0, my, 0.0, mz, 0.0, r, 0.0, mm, rr));
    }

    /**
     * {@code 2^n}, exactly: {@link Math#scalb(double, int) Math.scalb(1.0, n)}, built from its bits where it is a
     * normal double ({@code n} in {@code [-1022, 1023]}), which the scaled kernels need several times per test and
     * {@code Math.scalb} takes a few branches for.
     *
     * @param n the exponent
     * @return {@code 2^n}: 0 below {@code -1074}, infinity above 1023
     */
    public static double powerOfTwo(int n) {
        return n >= Double.MIN_EXPONENT && n <= Double.MAX_EXPONENT
                ? Double.longBitsToDouble((long) (n + 1023) << 52) : Math.scalb(1.0, n);
    }

    /**
     * {@code value * 2^n} as {@link Math#scalb(double, int)} gives it (exact unless the result leaves the normal
     * range), by one multiplication where {@code 2^n} is a normal double.
     *
     * @param value the value
     * @param n the exponent
     * @return {@code value * 2^n}
     */
    public static double scalb(double value, int n) {
        return n >= Double.MIN_EXPONENT && n <= Double.MAX_EXPONENT ? value * powerOfTwo(n) : Math.scalb(value, n);
    }

    /**
     * The binary exponent of the largest magnitude among some inputs, 0 for 0 or non-finite: the power of two a
     * scale-free computation (a contact time) divides its inputs by before squaring them, so that squares and
     * their products neither overflow nor underflow at extreme magnitudes. Scaling by a power of two is exact, so
     * results at ordinary magnitudes are unchanged bit for bit.
     *
     * @param max the largest magnitude among the inputs, {@code >= 0}
     * @return the exponent ({@link Math#getExponent(double)} for finite {@code max > 0})
     */
    public static int scaleExponent(double max) {
        return max > 0.0 && max < Double.POSITIVE_INFINITY ? Math.getExponent(max) : 0;
    }

    /**
     * {@link #scaleExponent(double)} of the largest magnitude among three components and a radius ({@code >= 0}),
     * found on the magnitudes' bits (the bits of non-negative doubles order as the values do). The kernels scale by
     * the cheaper {@link #sumExponent} and take this only where the sum of the magnitudes overflows.
     *
     * @param x a component
     * @param y a component
     * @param z a component
     * @param r a radius, or 0
     * @return the exponent
     */
    public static int scaleExponent(double x, double y, double z, double r) {
        return scaleExponent(Double.longBitsToDouble(magnitudeBits(x, y, z, r)));
    }

    /**
     * The exponent a scaled kernel divides three components and a radius ({@code >= 0}) by: that of the sum of their
     * magnitudes ({@link #sumExponent}).
     *
     * @return the exponent
     */
    static int kernelExponent(double x, double y, double z, double r) {
        double sum = Math.abs(x) + Math.abs(y) + Math.abs(z) + r;
        return sum < Double.POSITIVE_INFINITY ? sumExponent(sum) : scaleExponent(x, y, z, r);
    }

    /**
     * The exponent a scaled kernel divides its inputs by, from the sum of their magnitudes: the sum lies between
     * the largest magnitude and a few times it, so its power of two brings the largest input into
     * {@code [1/16, 2)} (for up to 16 inputs), where no product of four inputs overflows or underflows for inputs of
     * comparable size. It needs no branch, where the largest magnitude's exponent (a maximum over the inputs) costs
     * mispredicted branches on every call; a power of two is exact either way, and the sum scales exactly with the
     * inputs, so answers do not depend on the scale. The caller takes {@link #scaleExponent} of the largest input
     * instead when the sum overflows.
     *
     * @param sum the sum of the inputs' magnitudes, finite
     * @return its exponent, 0 for 0
     */
    static int sumExponent(double sum) {
        return sum > 0.0 ? Math.getExponent(sum) : 0;
    }

    /**
     * The largest magnitude among four values, as the bits of a non-negative double (NaN above infinity).
     *
     * @return the bits
     */
    static long magnitudeBits(double x, double y, double z, double w) {
        return Math.max(Math.max(Double.doubleToRawLongBits(x) & Long.MAX_VALUE,
                Double.doubleToRawLongBits(y) & Long.MAX_VALUE), Math.max(
                Double.doubleToRawLongBits(z) & Long.MAX_VALUE, Double.doubleToRawLongBits(w) & Long.MAX_VALUE));
    }

    /**
     * {@link #scaleExponent(double)} of the largest magnitude among nine values (three points).
     *
     * @return the exponent
     */
    static int scaleExponent(double ax, double ay, double az, double bx, double by, double bz, double cx, double cy,
                             double cz) {
        long bits = Math.max(Math.max(magnitudeBits(ax, ay, az, bx), magnitudeBits(by, bz, cx, cy)),
                Double.doubleToRawLongBits(cz) & Long.MAX_VALUE);
        return scaleExponent(Double.longBitsToDouble(bits));
    }

    /**
     * {@code a - b} rounded toward negative infinity instead of to nearest (the exact error of the rounded
     * difference by Knuth's TwoSum): a bound moved outward by a distance far below its ulp stays outward.
     *
     * @param a the bound
     * @param b the distance
     * @return the largest double not above {@code a - b}, for finite results
     */
    static double subtractDown(double a, double b) {
        double s = a - b;
        double bv = s - a;
        double error = (a - (s - bv)) + (-b - bv);
        return error < 0.0 ? Math.nextDown(s) : s;
    }

    /**
     * Whether a positive root of a contact quadratic that came out beyond {@code maxFraction} lies within the slab
     * test's robust bound of it (Ize 2013): a contact at {@code maxFraction} whose root rounded a few ulps high, as
     * the round kernels take it. An infinite root (none found) or an overflowing bound is never within it.
     *
     * @param root the computed root, {@code > maxFraction}
     * @param maxFraction the largest fraction
     * @return whether the root counts as a contact at {@code maxFraction}
     */
    static boolean justBeyond(double root, double maxFraction) {
        return root > 0.0 && root < Double.POSITIVE_INFINITY && root <= maxFraction * ROBUST_FAR_SCALE;
    }

    /**
     * @param x a value
     * @param y a value
     * @param z a value
     * @return whether all three are finite (a point a kernel computed, such as a segment's end, may overflow)
     */
    static boolean isFinite(double x, double y, double z) {
        return Double.isFinite(x) && Double.isFinite(y) && Double.isFinite(z);
    }

    /**
     * {@code a + b} rounded toward positive infinity (see {@link #subtractDown}).
     *
     * @param a the bound
     * @param b the distance
     * @return the smallest double not below {@code a + b}, for finite results
     */
    public static double addUp(double a, double b) {
        double s = a + b;
        double bv = s - a;
        double error = (a - (s - bv)) + (b - bv);
        return error > 0.0 ? Math.nextUp(s) : s;
    }

    /**
     * Higham's bound {@code gamma(n) = n u / (1 - n u)} on the relative error of {@code n} chained roundings.
     *
     * @param n the number of rounded operations
     * @return the bound
     */
    static double gamma(int n) {
        return n * UNIT_ROUNDOFF / (1.0 - n * UNIT_ROUNDOFF);
    }

    /**
     * The larger of a bound and a slab distance, keeping the bound when the distance is NaN ({@code 0 * inf}: zero
     * direction component with the origin on that plane, which cannot cut the segment). {@code Math.max} would
     * propagate the NaN.
     */
    static double later(double bound, double t) {
        return t > bound ? t : bound;
    }

    /** The smaller of a bound and a slab distance, keeping the bound when the distance is NaN (see {@link #later}). */
    static double earlier(double bound, double t) {
        return t < bound ? t : bound;
    }

    /**
     * The exact error of the rounded sum {@code s = fl(a + b)}: {@code a + b - s}, by Knuth's TwoSum (exact for any
     * finite operands whose sum does not overflow). The compensated touch checks recover rounded differences with it,
     * and {@link dev.boxwood.query.OutwardFloat#rebaseDown} the exact shift between two origins.
     *
     * @param a an operand
     * @param b the other operand
     * @param s {@code a + b} as rounded
     * @return {@code (a + b) - s}, exactly
     */
    public static double sumError(double a, double b, double s) {
        double v = s - a;
        return (a - (s - v)) + (b - v);
    }

    /**
     * {@code a + b + c + d + error} summed in compensated arithmetic: each partial sum's rounding error is recovered
     * exactly by TwoSum (Knuth; Ogita, Rump and Oishi 2005, Sum2) and added back at the end, so the result is good to
     * about {@code u} of itself plus {@code gamma(3)^2} of the terms' magnitudes. The compensated kernels' final step
     * ({@link AabbPlane}, {@link SphereAabb}) with {@code error} the products' exact errors from fma.
     */
    static double compensatedSum(double a, double b, double c, double d, double error) {
        double sum = a;
        for (int term = 0; term < 3; term++) {
            double next = term == 0 ? b : term == 1 ? c : d;
            double s = sum + next;
            double v = s - sum;
            error += (sum - (s - v)) + (next - v);
            sum = s;
        }
        return sum + error;
    }
}
