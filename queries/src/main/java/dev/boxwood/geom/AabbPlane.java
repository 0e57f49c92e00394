package dev.boxwood.geom;

/**
 * Axis-aligned box against a plane {@code n · x = d} whose positive side {@code n · x > d} is outside (the kernel
 * convention). The normal need not be unit length: only signs are decided. Uses the corners that extend farthest
 * along and against the normal (the "p-vertex" and "n-vertex", Haines and Wallace 1994; Greene 1994), picked by
 * the signs of the normal, so no rounded box centre enters the result. A box is outside only when the nearest
 * corner's distance is certainly positive despite its rounding, so a box touching the plane is never found outside.
 * The other way the rounded sign is taken as it is: a box outside by up to about {@code 1e-16} of the distance's terms
 * (a distance that rounds to zero or below) may count as crossing, and one reaching outside by that much as inside
 * ({@link #classify}); a rounded distance above zero but within its rounding is taken again in compensated
 * arithmetic, which decides it to about {@code 1e-31} of the terms. The kernels do not validate.
 */
public final class AabbPlane {

    /**
     * Relative error bound of a corner's distance in double ({@link #outside}): its four roundings, and a fifth for
     * the bound's own.
     */
    private static final double PLAIN_BOUND = Geom.gamma(5);
    /** Absolute error of products in the subnormal range, half a step each: at most this in all. */
    private static final double UNDERFLOW = 4 * Double.MIN_VALUE;

    private AabbPlane() {
    }

    /**
     * Classifies the closed box against the closed inside half-space {@code n · x <= d}: {@link Geom#INSIDE} if the
     * whole box is in it (touching the plane from inside counts as inside), {@link Geom#OUTSIDE} if no point of the
     * box is in it, {@link Geom#CROSSING} otherwise (the box has points strictly outside and points inside or on the
     * plane; outside only beyond the rounding of the distance, see the class comment). Gomez 1999, "box-plane test",
     * in corner form.
     *
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @param nx plane normal x (any non-zero length)
     * @param ny plane normal y
     * @param nz plane normal z
     * @param d plane offset
     * @return {@link Geom#INSIDE}, {@link Geom#CROSSING} or {@link Geom#OUTSIDE}
     */
    public static int classify(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                               double nx, double ny, double nz, double d) {
        if (outside(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d)) {
            return Geom.OUTSIDE;
        }
        return extendsOutside(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d) ? Geom.CROSSING : Geom.INSIDE;
    }

    /**
     * Whether the closed box touches or crosses the plane surface (it has points on both closed sides).
     *
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @param nx plane normal x (any non-zero length)
     * @param ny plane normal y
     * @param nz plane normal z
     * @param d plane offset
     * @return true if the box meets the plane
     */
    public static boolean test(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                               double nx, double ny, double nz, double d) {
        // on both closed sides: outside neither this half-space nor the opposite one, each beyond rounding
        return !outside(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d)
                && !outside(minX, minY, minZ, maxX, maxY, maxZ, -nx, -ny, -nz, -d);
    }

    /**
     * Whether the closed box is outside the closed half-space {@code n · x <= d}, its nearest corner's distance
     * {@code ((nx x + ny y) + nz z) - d} certainly positive. In double the distance carries at most four roundings
     * ({@link Geom#gamma gamma(4)} of the sum of its terms' magnitudes, and half a subnormal step per product where
     * they underflow), and a corner on the plane can round to a small positive distance (a point on an oblique face
     * of a polyhedron), which read as outside culled boxes that touch the region. Within that bound the distance is
     * taken again in compensated arithmetic (Ogita, Rump and Oishi 2005, Dot2: products split by fma, sums by
     * TwoSum), whose error is at most {@code u} of the distance
     * plus {@code gamma(4)^2} of the terms: a distance above twice that is positive. Where a product overflows the
     * bound is infinite and the box is not outside. Where the products are finite but a partial sum overflows to
     * either infinity (terms near the end of the double range of opposite signs, whose exact sum is finite), the
     * distance says nothing: it is taken again with every term divided by 4.
     */
    static boolean outside(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                           double nx, double ny, double nz, double d) {
        double x = nx >= 0.0 ? minX : maxX;
        double y = ny >= 0.0 ? minY : maxY;
        double z = nz >= 0.0 ? minZ : maxZ;
        return positiveBeyondRounding(nx, x, ny, y, nz, z, d, 1.0);
    }

    /**
     * Decides {@code scale (n · x - d) > 0} beyond rounding, every term scaled by the power of two {@code scale}
     * before it is summed ({@link #outside}'s test). A sum that overflowed at scale 1 is taken again at 1/4, out of
     * line, so the common path stays small enough to be inlined into the culling loops: four terms of at most
     * {@code Double.MAX_VALUE / 4} cannot overflow again, and the power of two keeps the sign and the relative bounds
     * (terms that become subnormal lose at most half a step, far below a bound at the range's end).
     */
    private static boolean positiveBeyondRounding(double nx, double x, double ny, double y, double nz, double z,
                                                  double d, double scale) {
        double ux = nx * x;
        double uy = ny * y;
        double uz = nz * z;
        double px = scale * ux;
        double py = scale * uy;
        double pz = scale * uz;
        double sd = scale * d;
        double distance = px + py + pz - sd;
        if (!(distance > 0.0)) {
            // minus infinity from finite terms: a partial sum overflowed, the exact distance may be positive
            return distance == Double.NEGATIVE_INFINITY && scale == 1.0
                    && positiveBeyondRounding(nx, x, ny, y, nz, z, d, 0.25);
        }
        // terms scaled before they are summed: finite terms cannot overflow the bound
        double bound = PLAIN_BOUND * Math.abs(px) + PLAIN_BOUND * Math.abs(py) + PLAIN_BOUND * Math.abs(pz)
                + PLAIN_BOUND * Math.abs(sd) + UNDERFLOW;
        if (distance > bound) {
            // infinite with a finite bound: finite products of opposite signs whose partial sum overflowed
            return distance < Double.POSITIVE_INFINITY
                    || scale == 1.0 && positiveBeyondRounding(nx, x, ny, y, nz, z, d, 0.25);
        }
        double error = scale * (Math.fma(nx, x, -ux) + Math.fma(ny, y, -uy) + Math.fma(nz, z, -uz));
        // twice gamma(5) * bound covers gamma(4)^2 of the terms twice over; products in the subnormal range are not
        // split exactly by fma
        return Geom.compensatedSum(px, py, pz, -sd, error) > 2 * PLAIN_BOUND * bound + UNDERFLOW;
    }

    /**
     * Whether the corner that extends farthest along the normal (the largest distance over the box) has a distance
     * {@code n · x - d} above zero as rounded: the box has points outside (or within rounding of the plane). Where
     * the finite products' partial sums overflow, an infinite distance says nothing of the sign (minus infinity read
     * as inside dropped a plane the box crosses): it is taken again, out of line, with every term divided by 4.
     */
    static boolean extendsOutside(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                                  double nx, double ny, double nz, double d) {
        double distance = distance(nx, nx >= 0.0 ? maxX : minX, ny, ny >= 0.0 ? maxY : minY,
                nz, nz >= 0.0 ? maxZ : minZ, d, 1.0);
        if (Math.abs(distance) < Double.POSITIVE_INFINITY) {
            return distance > 0.0;
        }
        return overflowedDistancePositive(nx, nx >= 0.0 ? maxX : minX, ny, ny >= 0.0 ? maxY : minY,
                nz, nz >= 0.0 ? maxZ : minZ, d);
    }

    /** The sign of a distance whose sum overflowed, on terms divided by 4 (which cannot overflow again). */
    private static boolean overflowedDistancePositive(double nx, double x, double ny, double y, double nz, double z,
                                                      double d) {
        return distance(nx, x, ny, y, nz, z, d, 0.25) > 0.0;
    }

    /** {@code scale (n · x - d)}, each term scaled by the power of two {@code scale} before it is summed. */
    private static double distance(double nx, double x, double ny, double y, double nz, double z, double d,
                                   double scale) {
        return scale * (nx * x) + scale * (ny * y) + scale * (nz * z) - scale * d;
    }
}
