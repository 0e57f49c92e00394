package dev.boxwood.testkit;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Exact reference decisions for the region queries and segment casts, in {@link BigDecimal} arithmetic and
 * independent of the library's kernels: every double and float is taken at its exact binary value, and nothing is
 * rounded except where a method says so.
 *
 * <p>All methods work in an index's frame: the caller moves the query into it by the documented frame rule
 * ({@code world - origin} in double, {@link #toFrame}) and passes the stored float tight boxes as they are
 * ({@code getStoredTightBox} on a tree or view, {@code readObjectBoxes} on a mapped world). Boxes are closed.
 */
public final class ExactGeometry {

    /** Precision of the decimal fractions reported for segment entries (decisions themselves are exact). */
    public static final MathContext FRACTION_CONTEXT = new MathContext(60, RoundingMode.HALF_EVEN);

    private ExactGeometry() {
    }

    /**
     * The frame rule: a world coordinate moved into an index's frame, in double.
     *
     * @param world the world coordinate
     * @param origin the index's origin on that axis
     * @return {@code world - origin} rounded to double
     */
    public static double toFrame(double world, double origin) {
        return world - origin;
    }

    /** @return the exact value of a double */
    public static BigDecimal x(double v) {
        return new BigDecimal(v);
    }

    // ------------------------------------------------------------------------------------------------ boxes

    /**
     * Whether two closed boxes overlap (touching counts). Comparisons of doubles are exact.
     *
     * @param q query box (min x, y, z, max x, y, z)
     * @param b stored box
     * @return whether they overlap
     */
    public static boolean boxOverlaps(double[] q, double[] b) {
        return q[0] <= b[3] && b[0] <= q[3] && q[1] <= b[4] && b[1] <= q[4] && q[2] <= b[5] && b[2] <= q[5];
    }

    /**
     * Whether the stored box lies inside the closed query box.
     *
     * @param q query box
     * @param b stored box
     * @return whether b is inside q
     */
    public static boolean boxContains(double[] q, double[] b) {
        return q[0] <= b[0] && q[1] <= b[1] && q[2] <= b[2] && b[3] <= q[3] && b[4] <= q[4] && b[5] <= q[5];
    }

    // ------------------------------------------------------------------------------------------------ spheres

    /**
     * The exact squared distance from the point to the closed box (0 inside).
     *
     * @param c point (x, y, z)
     * @param b box
     * @return the squared distance, exact
     */
    public static BigDecimal squaredDistance(double[] c, double[] b) {
        BigDecimal sum = BigDecimal.ZERO;
        for (int k = 0; k < 3; k++) {
            BigDecimal e;
            if (c[k] < b[k]) {
                e = x(b[k]).subtract(x(c[k]));
            } else if (c[k] > b[k + 3]) {
                e = x(c[k]).subtract(x(b[k + 3]));
            } else {
                continue;
            }
            sum = sum.add(e.multiply(e));
        }
        return sum;
    }

    /**
     * The exact squared distance from the point to the box's farthest corner.
     *
     * @param c point
     * @param b box
     * @return the squared distance, exact
     */
    public static BigDecimal squaredFarthest(double[] c, double[] b) {
        BigDecimal sum = BigDecimal.ZERO;
        for (int k = 0; k < 3; k++) {
            BigDecimal lo = x(b[k]).subtract(x(c[k])).abs();
            BigDecimal hi = x(b[k + 3]).subtract(x(c[k])).abs();
            BigDecimal e = lo.max(hi);
            sum = sum.add(e.multiply(e));
        }
        return sum;
    }

    /**
     * Signed exact comparison of a squared distance with {@code r^2}, relative to {@code r^2}:
     * {@code (d2 - r^2) / max(r^2, tiny)} rounded to double (its sign is exact).
     *
     * @param d2 a squared distance
     * @param r the radius
     * @return the relative excess (negative or zero: within the sphere)
     */
    public static double relativeExcess(BigDecimal d2, double r) {
        BigDecimal rr = x(r).multiply(x(r));
        BigDecimal diff = d2.subtract(rr);
        if (diff.signum() == 0) {
            return 0.0;
        }
        if (rr.signum() == 0) {
            return diff.signum() * Double.POSITIVE_INFINITY;
        }
        double rel = diff.divide(rr, MathContext.DECIMAL64).doubleValue();
        // never let the rounding of the quotient lose the sign
        return rel == 0.0 ? diff.signum() * Double.MIN_VALUE : rel;
    }

    // ------------------------------------------------------------------------------------------------ planes

    /**
     * The exact signed distance term {@code n . p - d} of the box corner farthest along the normal (the box is
     * inside the closed half-space iff it is {@code <= 0}) or nearest ({@code nearest = true}: the box meets the
     * half-space iff it is {@code <= 0}).
     *
     * @param nx normal x
     * @param ny normal y
     * @param nz normal z
     * @param d the plane's distance, exact
     * @param b box
     * @param nearest whether to take the nearest corner
     * @return the exact value
     */
    public static BigDecimal planeCorner(double nx, double ny, double nz, BigDecimal d, double[] b, boolean nearest) {
        double[] n = {nx, ny, nz};
        BigDecimal s = d.negate();
        for (int k = 0; k < 3; k++) {
            boolean useMax = (n[k] >= 0) != nearest;
            s = s.add(x(n[k]).multiply(x(useMax ? b[k + 3] : b[k])));
        }
        return s;
    }

    /**
     * The exact distance term of a plane {@code (nx, ny, nz, d)} moved into a frame by {@code origin}:
     * {@code d - n . origin}, exact (the library computes it in double; compare with a tolerance).
     *
     * @param plane the plane (nx, ny, nz, d) at offset {@code at}
     * @param at offset
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @return the exact moved distance
     */
    public static BigDecimal movedPlaneDistance(double[] plane, int at, double ox, double oy, double oz) {
        return x(plane[at + 3]).subtract(x(plane[at]).multiply(x(ox))).subtract(x(plane[at + 1]).multiply(x(oy)))
                .subtract(x(plane[at + 2]).multiply(x(oz)));
    }

    // ------------------------------------------------------------------------------------------------ segments

    /** An exact rational {@code num / den}, {@code den > 0}. */
    public static final class Rational implements Comparable<Rational> {
        /** Numerator. */
        public final BigDecimal num;
        /** Denominator, positive. */
        public final BigDecimal den;

        Rational(BigDecimal num, BigDecimal den) {
            if (den.signum() < 0) {
                num = num.negate();
                den = den.negate();
            }
            this.num = num;
            this.den = den;
        }

        @Override
        public int compareTo(Rational o) {
            return num.multiply(o.den).compareTo(o.num.multiply(den));
        }

        /** @return the value to {@link #FRACTION_CONTEXT} */
        public BigDecimal value() {
            return num.divide(den, FRACTION_CONTEXT);
        }

        @Override
        public String toString() {
            return value().round(MathContext.DECIMAL64).toString();
        }
    }

    /** The exact result of a segment against a box. */
    public static final class SegmentResult {
        /** Whether the closed segment meets the closed box. */
        public final boolean hit;
        /** The entry fraction (the largest slab entry, at least 0) whether or not the segment meets the box. */
        public final Rational entry;
        /** The exit fraction (the smallest slab exit, at most maxFraction); null if a zero-direction axis misses. */
        public final Rational exit;
        /**
         * The axis whose slab is entered last (-1: the start, fraction 0), and the plane coordinate entered (as the
         * box's min or max value): hits that tie exactly with the same entry plane round to the same fraction in
         * every index.
         */
        public final int entryAxis;
        /** The coordinate of the entry plane (meaningless for entryAxis -1). */
        public final double entryPlane;

        SegmentResult(boolean hit, Rational entry, Rational exit, int entryAxis, double entryPlane) {
            this.hit = hit;
            this.entry = entry;
            this.exit = exit;
            this.entryAxis = entryAxis;
            this.entryPlane = entryPlane;
        }

        /**
         * How far the segment misses the box, relative: {@code (entry - exit) / max(exit, tiny)}; 0 for a hit, +inf
         * for a miss on an axis without motion or an exit before 0.
         *
         * @return the relative miss
         */
        public double relativeMiss() {
            if (hit) {
                return 0.0;
            }
            if (exit == null || exit.num.signum() < 0) {
                return Double.POSITIVE_INFINITY;
            }
            if (exit.num.signum() == 0) {
                return Double.POSITIVE_INFINITY;
            }
            BigDecimal gap = entry.num.multiply(exit.den).subtract(exit.num.multiply(entry.den));
            BigDecimal scale = exit.num.multiply(entry.den);
            return gap.divide(scale, MathContext.DECIMAL64).doubleValue();
        }
    }

    /**
     * The segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, against the closed box, exactly.
     *
     * @param o origin in the index's frame
     * @param d translation
     * @param maxFraction the maximum fraction
     * @param b stored box
     * @return the result
     */
    public static SegmentResult segment(double[] o, double[] d, double maxFraction, double[] b) {
        Rational lo = new Rational(BigDecimal.ZERO, BigDecimal.ONE);
        Rational hi = new Rational(x(maxFraction), BigDecimal.ONE);
        int axis = -1;
        double plane = 0;
        boolean zeroMiss = false;
        for (int k = 0; k < 3; k++) {
            if (d[k] == 0.0) {
                if (o[k] < b[k] || o[k] > b[k + 3]) {
                    zeroMiss = true;
                }
                continue;
            }
            double nearPlane = d[k] > 0 ? b[k] : b[k + 3];
            double farPlane = d[k] > 0 ? b[k + 3] : b[k];
            Rational tNear = new Rational(x(nearPlane).subtract(x(o[k])), x(d[k]));
            Rational tFar = new Rational(x(farPlane).subtract(x(o[k])), x(d[k]));
            if (tNear.compareTo(lo) > 0) {
                lo = tNear;
                axis = k;
                plane = nearPlane;
            }
            if (tFar.compareTo(hi) < 0) {
                hi = tFar;
            }
        }
        if (zeroMiss) {
            return new SegmentResult(false, lo, null, axis, plane);
        }
        return new SegmentResult(lo.compareTo(hi) <= 0, lo, hi, axis, plane);
    }

    /**
     * Whether a fraction an index reported agrees with the exact entry to {@code ulps} units in the last place of
     * the larger of the two (or is within {@code absolute}).
     *
     * @param reported the index's fraction
     * @param exact the exact entry
     * @param ulps allowed ulps
     * @param absolute allowed absolute difference
     * @return whether they agree
     */
    public static boolean fractionAgrees(double reported, Rational exact, double ulps, double absolute) {
        BigDecimal diff = x(reported).subtract(exact.value()).abs();
        double e = exact.value().doubleValue();
        double allowed = Math.max(absolute, ulps * Math.ulp(Math.max(Math.abs(reported), Math.abs(e))));
        return diff.compareTo(x(allowed)) <= 0;
    }
}
