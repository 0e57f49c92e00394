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

    // ------------------------------------------------------------------------------------------------ oriented boxes

    /** The 18 axes of {@link #obb}: the box's faces, the oriented axes, their cross products, the solid's faces. */
    public static final String[] OBB_AXES = {"x", "y", "z", "a0", "a1", "a2", "a0 x x", "a0 x y", "a0 x z",
        "a1 x x", "a1 x y", "a1 x z", "a2 x x", "a2 x y", "a2 x z", "a1 x a2", "a2 x a0", "a0 x a1"};

    /**
     * The exact decision of a closed oriented box (as an index tests it: in {@link dev.boxwood.geom.ObbLayout}, in the
     * index's frame, axes as re-orthonormalized in double) against a closed stored box.
     */
    public static final class ObbVerdict {
        /**
         * Whether the solid {@code c + s0 h0 a0 + s1 h1 a1 + s2 h2 a2}, {@code s} in {@code [-1, 1]^3}, meets the
         * box, exactly (a parallelepiped: the double axes are orthonormal only to rounding). Decided by the complete
         * set of separating axes of two convex polyhedra: the box's faces, the solid's faces {@code a_j x a_k} and
         * the edge pairs {@code a_i x e_k}.
         */
        public final boolean overlaps;
        /**
         * The largest margin of the box beyond the solid over the 18 axes of {@link #OBB_AXES}, on the axes as they
         * are (not normalized, as the kernel takes its edge axes): positive where that axis separates them.
         */
        public final BigDecimal separation;
        /** Index into {@link #OBB_AXES} of the axis of {@link #separation}. */
        public final int axis;
        /**
         * The window rule of {@code RegionTests.classifyObb}, exactly: the largest excess over {@code i} of the
         * box's projection on {@code a_i} (relative to the centre) beyond {@code h_i}; inside iff {@code <= 0}.
         */
        public final BigDecimal insideExcess;
        /**
         * The kernel's scale (rounded to double): the box's reach from the centre (per axis the farther face),
         * plus its half extents, plus the oriented box's half extents.
         */
        public final double size;
        /** The sum of the oriented box's half extents. */
        public final double halfSum;
        /**
         * Whether the window rule's projections are computed without rounding: axes with components 0 and
         * {@code ±1} only (a signed permutation) and every corner offset {@code box - centre} a double, so each
         * projection is one exact term and the decision must be exact.
         */
        public final boolean exactCorners;

        ObbVerdict(boolean overlaps, BigDecimal separation, int axis, BigDecimal insideExcess, double size,
                   double halfSum, boolean exactCorners) {
            this.exactCorners = exactCorners;
            this.overlaps = overlaps;
            this.separation = separation;
            this.axis = axis;
            this.insideExcess = insideExcess;
            this.size = size;
            this.halfSum = halfSum;
        }
    }

    /**
     * The closed oriented box against the closed box, exactly.
     *
     * @param obb the oriented box in {@code ObbLayout} at offset 0, in the index's frame, axes as the index uses them
     * @param b the stored box
     * @return the verdict
     */
    public static ObbVerdict obb(double[] obb, double[] b) {
        return obb(new BigDecimal[] {x(obb[0]), x(obb[1]), x(obb[2])}, obb, b);
    }

    /**
     * {@link #obb(double[], double[])} with the oriented box's centre given exactly, in place of {@code obb[0..2]}:
     * for a box moved into a frame by a subtraction that rounds, the solid as given in world coordinates.
     *
     * @param centre the exact centre in the index's frame
     * @param obb the oriented box's axes and half extents in {@code ObbLayout} at offset 0 (its centre unused but
     *            for the {@link ObbVerdict#exactCorners} check, which needs it to equal {@code centre})
     * @param b the stored box
     * @return the verdict
     */
    public static ObbVerdict obb(BigDecimal[] centre, double[] obb, double[] b) {
        BigDecimal[] lo = new BigDecimal[3];
        BigDecimal[] hi = new BigDecimal[3];
        BigDecimal reach = BigDecimal.ZERO;
        BigDecimal halves = BigDecimal.ZERO;
        for (int k = 0; k < 3; k++) {
            lo[k] = x(b[k]).subtract(centre[k]);
            hi[k] = x(b[k + 3]).subtract(centre[k]);
            reach = reach.add(lo[k].abs().max(hi[k].abs()));
            halves = halves.add(x(b[k + 3]).subtract(x(b[k])));
        }
        BigDecimal[][] a = new BigDecimal[3][3];
        BigDecimal[] h = new BigDecimal[3];
        BigDecimal hs = BigDecimal.ZERO;
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) {
                a[i][k] = x(obb[3 + 3 * i + k]);
            }
            h[i] = x(obb[12 + i]);
            hs = hs.add(h[i]);
        }
        BigDecimal[][] axes = new BigDecimal[18][];
        for (int k = 0; k < 3; k++) {
            BigDecimal[] e = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
            e[k] = BigDecimal.ONE;
            axes[k] = e;
        }
        for (int i = 0; i < 3; i++) {
            axes[3 + i] = a[i];
            for (int k = 0; k < 3; k++) {
                BigDecimal[] e = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
                e[k] = BigDecimal.ONE;
                axes[6 + 3 * i + k] = cross(a[i], e);
            }
        }
        axes[15] = cross(a[1], a[2]);
        axes[16] = cross(a[2], a[0]);
        axes[17] = cross(a[0], a[1]);
        boolean overlaps = true;
        BigDecimal worst = null;
        int worstAxis = -1;
        for (int n = 0; n < 18; n++) {
            BigDecimal[] v = axes[n];
            BigDecimal r = BigDecimal.ZERO;
            for (int i = 0; i < 3; i++) {
                r = r.add(h[i].multiply(dot(a[i], v).abs()));
            }
            BigDecimal pLo = BigDecimal.ZERO;
            BigDecimal pHi = BigDecimal.ZERO;
            for (int k = 0; k < 3; k++) {
                BigDecimal u = v[k].multiply(lo[k]);
                BigDecimal w = v[k].multiply(hi[k]);
                pLo = pLo.add(u.min(w));
                pHi = pHi.add(u.max(w));
            }
            BigDecimal margin = pLo.subtract(r).max(r.negate().subtract(pHi));
            if (worst == null || margin.compareTo(worst) > 0) {
                worst = margin;
                worstAxis = n;
            }
            // any axis with a positive margin separates (the projections are exact); the box's faces, the edge
            // pairs and the solid's faces are a complete set, so none separating means they meet
            if (margin.signum() > 0) {
                overlaps = false;
            }
        }
        BigDecimal inside = null;
        for (int i = 0; i < 3; i++) {
            BigDecimal pLo = BigDecimal.ZERO;
            BigDecimal pHi = BigDecimal.ZERO;
            for (int k = 0; k < 3; k++) {
                BigDecimal u = a[i][k].multiply(lo[k]);
                BigDecimal w = a[i][k].multiply(hi[k]);
                pLo = pLo.add(u.min(w));
                pHi = pHi.add(u.max(w));
            }
            BigDecimal excess = pHi.subtract(h[i]).max(pLo.negate().subtract(h[i]));
            inside = inside == null ? excess : inside.max(excess);
        }
        double size = reach.add(halves.multiply(new BigDecimal("0.5"))).add(hs).doubleValue();
        boolean exactCorners = true;
        for (int i = 0; i < 9; i++) {
            double v = obb[3 + i];
            exactCorners &= v == 0 || v == 1 || v == -1;
        }
        for (int k = 0; k < 3; k++) {
            exactCorners &= x(obb[k]).compareTo(centre[k]) == 0
                    && x(b[k] - obb[k]).compareTo(lo[k]) == 0 && x(b[k + 3] - obb[k]).compareTo(hi[k]) == 0;
        }
        return new ObbVerdict(overlaps, worst, worstAxis, inside, size, hs.doubleValue(), exactCorners);
    }

    private static BigDecimal[] cross(BigDecimal[] u, BigDecimal[] v) {
        return new BigDecimal[] {u[1].multiply(v[2]).subtract(u[2].multiply(v[1])),
            u[2].multiply(v[0]).subtract(u[0].multiply(v[2])), u[0].multiply(v[1]).subtract(u[1].multiply(v[0]))};
    }

    private static BigDecimal dot(BigDecimal[] u, BigDecimal[] v) {
        return u[0].multiply(v[0]).add(u[1].multiply(v[1])).add(u[2].multiply(v[2]));
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
