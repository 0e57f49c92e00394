package dev.boxwood.geom;

/**
 * Sphere against axis-aligned box overlap, in the five variants of Zuo's circle-AABB summary ("How To Detect
 * Intersection Between A Circle And An AABB", after Arvo 1990 and Larsson, Akenine-Möller, Lengyel 2007, "On Faster
 * Sphere-Box Overlap Testing", JGT 12(1)).
 *
 * <p>All variants decide the same closed test: the squared distance from the centre {@code c} to the box
 * {@code [min, max]} is at most {@code r^2}, so touching counts, a radius of 0 is a point-in-box test and flat or
 * point boxes are valid. Per-axis distances are differences of coordinates ({@code c - max}, never
 * {@code c - centre} computed from a rounded centre), so the answer is exact except when the sphere surface is
 * within a few ulps of the box. The four min/max variants compute bit-identical distances and sums; they can
 * differ from one another only in that few-ulp band (an early rejection compares {@code |e| > r} where the others
 * compare rounded squares). {@link #testCentreExtent} takes the box as centre and half extents and is exact for
 * those inputs.
 *
 * <p>{@link #test} is the canonical entry point and computes the variant measured fastest by
 * {@code SphereAabbBenchmark}: Arvo's, on JDK 17 and 25 (figures in {@code docs/benchmarks.md}). Unlike the variants
 * it is exact up to about {@code 1e-29} of {@code r^2}: a squared distance within its rounding of {@code r^2}, on
 * either side, is taken again in compensated arithmetic, so a box corner or face point exactly on the sphere's
 * surface overlaps even where the squares round, and a sphere apart by more than that (a point {@code 2^-60} of
 * {@code r^2} outside, whose plain sum rounds to {@code r^2}) does not. The variants decide by the plain sums,
 * either way within their rounding (about {@code 2e-15} of {@code r^2}). The kernels do
 * not validate: {@code r >= 0}, {@code min <= max}, finite input. Squares are not rescaled (the queries' hot
 * path), so radii and distances must stay below about 1e150, where squares overflow and the variants disagree
 * (the indexes refuse larger radii, {@code Arguments.MAX_RADIUS}); gaps below about 1.5e-162 square to 0 and touch.
 */
public final class SphereAabb {

    /**
     * Relative error bound of {@code d - r^2} in {@link #test}: a rounded difference per axis (twice in its
     * square), the square, two sums, {@code r^2} and the subtraction, with one to spare.
     */
    private static final double PLAIN_BOUND = Geom.gamma(8);
    /** Absolute error of the products in the subnormal range, half a step each: at most this in all. */
    private static final double UNDERFLOW = 4 * Double.MIN_VALUE;

    private SphereAabb() {
    }

    /**
     * Whether the closed sphere and the closed box overlap (touching counts). Canonical entry point: the fastest
     * measured variant, with a squared distance within rounding of {@code r^2} decided again in compensated
     * arithmetic, so a touch is never missed and a gap beyond about {@code 1e-29} of {@code r^2} never touches (see
     * the class comment).
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if they overlap
     */
    public static boolean test(double cx, double cy, double cz, double r,
                               double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        // Arvo measured fastest on JDK 17 and 25 (SphereAabbBenchmark, docs/benchmarks.md): its branches predict
        // well and it skips the work of the axes where the centre is inside the slab. Its sum, computed here so that
        // a sum within rounding of r^2 can be decided again.
        double d = squaredDistanceOutside(cx, cy, cz, minX, minY, minZ, maxX, maxY, maxZ);
        double rr = r * r;
        // Decided by the plain sums only beyond their rounding, on either side: within it the squares are taken
        // again, so a sphere apart by the rounding is not a touch either (the answer stays monotone in the box:
        // a larger box has a smaller sum, decided plainly or again with a smaller bound). The one branch is the
        // rare one; the answer is a comparison (measured no slower than branching on it, docs/benchmarks.md).
        double bound = PLAIN_BOUND * (d + rr) + UNDERFLOW;
        boolean inside = rr - d > bound;
        // negated so that a NaN (both squares overflowed) takes the slow path too
        if (!inside && !(d - rr > bound)) {
            return touchesBeyondRounding(cx, cy, cz, r, minX, minY, minZ, maxX, maxY, maxZ, d, rr);
        }
        return inside;
    }

    /**
     * Whether the closed sphere contains the closed box: its farthest corner within the radius (surface points
     * count). Exact up to about {@code 1e-29} of {@code r^2} as {@link #test} is: the plain sum of the corner's
     * squared distances decides beyond its rounding, and within it the corner is taken again by {@link #test}.
     * Monotone: a box inside a contained box is contained, and passes {@link #test}.
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if every point of the box is within {@code r} of the centre
     */
    public static boolean contains(double cx, double cy, double cz, double r,
                                   double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double ax = Math.abs(minX - cx);
        double bx = Math.abs(maxX - cx);
        double ay = Math.abs(minY - cy);
        double by = Math.abs(maxY - cy);
        double az = Math.abs(minZ - cz);
        double bz = Math.abs(maxZ - cz);
        double fx = Math.max(ax, bx);
        double fy = Math.max(ay, by);
        double fz = Math.max(az, bz);
        double far = fx * fx + fy * fy + fz * fz;
        double rr = r * r;
        double bound = PLAIN_BOUND * (far + rr) + UNDERFLOW;
        boolean inside = rr - far > bound;
        if (!inside && !(far - rr > bound)) {
            return farCornersWithin(cx, cy, cz, r, minX, minY, minZ, maxX, maxY, maxZ, ax > bx, ay > by, az > bz,
                    (ax == bx && minX != maxX ? 1 : 0) | (ay == by && minY != maxY ? 2 : 0)
                            | (az == bz && minZ != maxZ ? 4 : 0));
        }
        return inside;
    }

    /**
     * {@link #contains} within rounding: the farthest corner by {@link #test}. Rounding keeps the order of a
     * corner's two distances on an axis but can make them equal (a centre far from a small box); the farther face
     * is then unknown, and the corners over such {@code tied} axes (bits 1, 2, 4 for x, y, z) are all tested.
     */
    private static boolean farCornersWithin(double cx, double cy, double cz, double r,
                                            double minX, double minY, double minZ, double maxX, double maxY,
                                            double maxZ, boolean minXFarther, boolean minYFarther,
                                            boolean minZFarther, int tied) {
        double fx = minXFarther ? minX : maxX;
        double fy = minYFarther ? minY : maxY;
        double fz = minZFarther ? minZ : maxZ;
        for (int swap = tied; ; swap = (swap - 1) & tied) {
            double x = (swap & 1) != 0 ? minX : fx;
            double y = (swap & 2) != 0 ? minY : fy;
            double z = (swap & 4) != 0 ? minZ : fz;
            if (!test(cx, cy, cz, r, x, y, z, x, y, z)) {
                return false;
            }
            if (swap == 0) {
                return true;
            }
        }
    }

    /**
     * Whether the sphere touches the box, for a squared distance {@code d} within its rounding of {@code rr}: with squares of more than 26 significant bits (offsets of a Pythagorean quadruple, or
     * coordinates far from the origin) an exact touch, a corner or face point exactly on the surface, can round
     * to a sum an ulp above {@code r^2}. The distances and squares are taken again in compensated arithmetic (each
     * difference's error by TwoSum, products split by fma, sums by TwoSum; Ogita, Rump and Oishi 2005, Dot2), whose
     * error is at most {@code u} of the result plus a few {@code u^2} of the terms: a result below twice
     * {@code PLAIN_BOUND^2} of the terms is a touch. So no touch is missed, and a sphere counts as touching only when
     * apart by less than about {@code 1e-29} of {@code r^2}.
     * Squares that overflowed, or whose sum did (a radius or a distance above about {@code 1e154}), are taken again
     * with every input divided by the power of two that brings the largest near {@code 2^500}, exact at that
     * magnitude (inputs below it by more than about {@code 1e-300} of it lose bits, far below the bound above), so a
     * huge sphere still holds the box at its centre and a point 20% beyond it is no touch.
     */
    private static boolean touchesBeyondRounding(double cx, double cy, double cz, double r,
                                                 double minX, double minY, double minZ,
                                                 double maxX, double maxY, double maxZ, double d, double rr) {
        // an overflowed square, or finite squares whose sum (in the bound) overflows
        if (!(d + rr < Double.POSITIVE_INFINITY)) {
            return overflowedTouch(cx, cy, cz, r, minX, minY, minZ, maxX, maxY, maxZ);
        }
        double ex = cx < minX ? cx - minX : cx > maxX ? cx - maxX : 0.0;
        double ey = cy < minY ? cy - minY : cy > maxY ? cy - maxY : 0.0;
        double ez = cz < minZ ? cz - minZ : cz > maxZ ? cz - maxZ : 0.0;
        double gx = ex == 0.0 ? 0.0 : differenceError(cx, cx < minX ? minX : maxX, ex);
        double gy = ey == 0.0 ? 0.0 : differenceError(cy, cy < minY ? minY : maxY, ey);
        double gz = ez == 0.0 ? 0.0 : differenceError(cz, cz < minZ ? minZ : maxZ, ez);
        double px = ex * ex;
        double py = ey * ey;
        double pz = ez * ez;
        // (e + g)^2 = e^2 + 2 e g + g^2, the last two far below e^2
        double error = Math.fma(ex, ex, -px) + Math.fma(ey, ey, -py) + Math.fma(ez, ez, -pz) - Math.fma(r, r, -rr)
                + (ex * (2 * gx) + gx * gx) + (ey * (2 * gy) + gy * gy) + (ez * (2 * gz) + gz * gz);
        return Geom.compensatedSum(px, py, pz, -rr, error) <= 2 * PLAIN_BOUND * (PLAIN_BOUND * (d + rr)) + UNDERFLOW;
    }

    /** {@link #test} on inputs scaled down by a power of two, for squares that overflowed (see the caller). */
    private static boolean overflowedTouch(double cx, double cy, double cz, double r, double minX, double minY,
                                           double minZ, double maxX, double maxY, double maxZ) {
        double largest = Math.max(Math.max(Math.max(Math.abs(cx), Math.abs(cy)), Math.max(Math.abs(cz), r)),
                Math.max(Math.max(Math.max(Math.abs(minX), Math.abs(minY)), Math.abs(minZ)),
                        Math.max(Math.max(Math.abs(maxX), Math.abs(maxY)), Math.abs(maxZ))));
        int shift = Math.getExponent(largest) - 500;
        if (!Double.isFinite(largest) || shift <= 0) {
            return false; // not finite input (the kernel does not validate): apart, as before
        }
        return test(Math.scalb(cx, -shift), Math.scalb(cy, -shift), Math.scalb(cz, -shift), Math.scalb(r, -shift),
                Math.scalb(minX, -shift), Math.scalb(minY, -shift), Math.scalb(minZ, -shift),
                Math.scalb(maxX, -shift), Math.scalb(maxY, -shift), Math.scalb(maxZ, -shift));
    }

    /** The exact error of {@code e = fl(c - face)} (TwoSum of {@code c} and {@code -face}; Knuth). */
    private static double differenceError(double c, double face, double e) {
        double v = e - c;
        return (c - (e - v)) + (-face - v);
    }

    /**
     * Arvo's test (Graphics Gems, 1990, "A Simple Method for Box-Sphere Intersection Testing"; Zuo's circle-AABB
     * summary): sum the squared per-axis distances outside the box, compare with {@code r^2}. Closed (touching counts).
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if they overlap
     */
    public static boolean testArvo(double cx, double cy, double cz, double r,
                                   double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        return squaredDistanceOutside(cx, cy, cz, minX, minY, minZ, maxX, maxY, maxZ) <= r * r;
    }

    /** Arvo's sum of the squared per-axis distances from the centre to the box (0 inside). */
    private static double squaredDistanceOutside(double cx, double cy, double cz, double minX, double minY,
                                                 double minZ, double maxX, double maxY, double maxZ) {
        return squaredOutside(cx - minX, cx - maxX)
                + squaredOutside(cy - minY, cy - maxY)
                + squaredOutside(cz - minZ, cz - maxZ);
    }

    /**
     * Arvo's test with quick rejections interleaved ("QRI", Larsson et al. 2007; Zuo's circle-AABB summary): an axis
     * whose distance alone exceeds {@code r} returns false at once. Closed (touching counts).
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if they overlap
     */
    public static boolean testQuickRejectInterleaved(double cx, double cy, double cz, double r,
                                                     double minX, double minY, double minZ,
                                                     double maxX, double maxY, double maxZ) {
        double sx = squaredOutsideOrReject(cx - minX, cx - maxX, r);
        if (sx < 0.0) {
            return false;
        }
        double sy = squaredOutsideOrReject(cy - minY, cy - maxY, r);
        if (sy < 0.0) {
            return false;
        }
        double sz = squaredOutsideOrReject(cz - minZ, cz - maxZ, r);
        if (sz < 0.0) {
            return false;
        }
        double d = sx + sy + sz;
        return d <= r * r;
    }

    /**
     * Arvo's test with the quick rejections first ("QRF", Larsson et al. 2007; Zuo's circle-AABB summary): reject when
     * the centre is outside the box grown by {@code r} on any axis, then sum squared distances. The growth is done on
     * the differences ({@code c - min < -r}), not on the box, so it costs no accuracy far from the origin. Closed.
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if they overlap
     */
    public static boolean testQuickRejectFirst(double cx, double cy, double cz, double r,
                                               double minX, double minY, double minZ,
                                               double maxX, double maxY, double maxZ) {
        double loX = cx - minX;
        double hiX = cx - maxX;
        double loY = cy - minY;
        double hiY = cy - maxY;
        double loZ = cz - minZ;
        double hiZ = cz - maxZ;
        if (loX < -r || hiX > r || loY < -r || hiY > r || loZ < -r || hiZ > r) {
            return false;
        }
        double d = squaredOutside(loX, hiX) + squaredOutside(loY, hiY) + squaredOutside(loZ, hiZ);
        return d <= r * r;
    }

    /**
     * Branch-free form (Larsson et al. 2007, Zuo's circle-AABB summary): the per-axis distance outside the box is
     * {@code max(min - c, 0) + max(c - max, 0)} (at most one term is non-zero), squared and summed, compared with
     * {@code r^2}. No data-dependent branch, suited to vectorization. Closed (touching counts).
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if they overlap
     */
    public static boolean testBranchFree(double cx, double cy, double cz, double r,
                                         double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double ex = Math.max(minX - cx, 0.0) + Math.max(cx - maxX, 0.0);
        double ey = Math.max(minY - cy, 0.0) + Math.max(cy - maxY, 0.0);
        double ez = Math.max(minZ - cz, 0.0) + Math.max(cz - maxZ, 0.0);
        return ex * ex + ey * ey + ez * ez <= r * r;
    }

    /**
     * Centre/extent form (Zuo's circle-AABB summary, "even faster"): fold the centre into the positive octant of the
     * box, {@code v = |c - centre|}, take the part beyond the half extents, {@code u = max(v - half, 0)}, and compare
     * {@code u · u} with {@code r^2}. Takes the box as centre and half extents; computing those from a min/max box
     * rounds, so min/max callers should use {@link #test}. Closed (touching counts).
     *
     * @param cx sphere centre x
     * @param cy sphere centre y
     * @param cz sphere centre z
     * @param r radius, {@code >= 0}
     * @param centreX box centre x
     * @param centreY box centre y
     * @param centreZ box centre z
     * @param halfX box half extent x, {@code >= 0}
     * @param halfY box half extent y, {@code >= 0}
     * @param halfZ box half extent z, {@code >= 0}
     * @return true if they overlap
     */
    public static boolean testCentreExtent(double cx, double cy, double cz, double r,
                                           double centreX, double centreY, double centreZ,
                                           double halfX, double halfY, double halfZ) {
        double ux = Math.max(Math.abs(cx - centreX) - halfX, 0.0);
        double uy = Math.max(Math.abs(cy - centreY) - halfY, 0.0);
        double uz = Math.max(Math.abs(cz - centreZ) - halfZ, 0.0);
        return ux * ux + uy * uy + uz * uz <= r * r;
    }

    /**
     * Squared distance outside one slab, given {@code lo = c - min} and {@code hi = c - max} (at most one of
     * {@code lo < 0}, {@code hi > 0} holds for a valid box).
     */
    private static double squaredOutside(double lo, double hi) {
        if (lo < 0.0) {
            return lo * lo;
        }
        if (hi > 0.0) {
            return hi * hi;
        }
        return 0.0;
    }

    /** As {@link #squaredOutside}, but -1 when the distance alone exceeds {@code r} (quick rejection). */
    private static double squaredOutsideOrReject(double lo, double hi, double r) {
        if (lo < 0.0) {
            return lo < -r ? -1.0 : lo * lo;
        }
        if (hi > 0.0) {
            return hi > r ? -1.0 : hi * hi;
        }
        return 0.0;
    }
}
