package dev.boxwood.geom;

/**
 * Segment against oriented box (in {@link ObbLayout}), by the six-axis separating axis test without division
 * (Gomez 1999, "OBB-line segment test", and Ericson, Real-Time Collision Detection, 5.3.3): the segment is moved
 * into the box's frame and tested by {@link #testCentred}, which {@link SegmentAabb#testSeparatingAxes} shares.
 * Closed shapes (touching counts); the kernels do not validate.
 */
public final class SegmentObb {

    /**
     * Relative slack of the comparisons of {@link #testCentred}: bounds the rounding of the frame change and of
     * the products, so no touching segment is separated.
     */
    private static final double SLACK = 16.0 * Geom.UNIT_ROUNDOFF;
    /** Below this sum of lengths, {@link #testCentred} scales its input up by {@link #RESCALE}. */
    private static final double TINY_SIZE = 0x1p-450;
    /** Applied until the sum is at least {@link #TINY_SIZE} (twice at most), which leaves it below {@code 2^50}. */
    private static final double RESCALE = 0x1p500;

    private SegmentObb() {
    }

    /**
     * Whether the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, meets the closed oriented box.
     * Conservative: a segment that misses the box by a few ulps of the coordinates may be reported as meeting it.
     * For coordinates, extents and translations below about {@code 1e154}: above, its products overflow, and it can
     * miss a touch or report a clear miss as a hit.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @param obb array holding the oriented box in {@link ObbLayout}
     * @param offset offset of the oriented box
     * @return true if they meet (touching counts)
     */
    public static boolean test(double ox, double oy, double oz, double dx, double dy, double dz, double maxFraction,
                               double[] obb, int offset) {
        double tx = maxFraction * dx;
        double ty = maxFraction * dy;
        double tz = maxFraction * dz;
        double qx = ox - obb[offset];
        double qy = oy - obb[offset + 1];
        double qz = oz - obb[offset + 2];
        int a = offset + ObbLayout.AXES;
        int e = offset + ObbLayout.HALF_EXTENTS;
        // everything doubled (the test is homogeneous), so that halving does not round a subnormal translation
        // before the test's own rescaling could keep it; as before where doubled lengths could overflow
        double k = lengthScale(tx, ty, tz, 2.0 * qx, 2.0 * qy, 2.0 * qz, 2.0 * obb[e], 2.0 * obb[e + 1],
                2.0 * obb[e + 2]);
        double hx = k * tx;
        double hy = k * ty;
        double hz = k * tz;
        // the segment midpoint relative to the box centre, difference first, at the same scale
        double px = 2.0 * k * qx + hx;
        double py = 2.0 * k * qy + hy;
        double pz = 2.0 * k * qz + hz;
        return testCentred(
                obb[a] * px + obb[a + 1] * py + obb[a + 2] * pz,
                obb[a + 3] * px + obb[a + 4] * py + obb[a + 5] * pz,
                obb[a + 6] * px + obb[a + 7] * py + obb[a + 8] * pz,
                obb[a] * hx + obb[a + 1] * hy + obb[a + 2] * hz,
                obb[a + 3] * hx + obb[a + 4] * hy + obb[a + 5] * hz,
                obb[a + 6] * hx + obb[a + 7] * hy + obb[a + 8] * hz,
                2.0 * k * obb[e], 2.0 * k * obb[e + 1], 2.0 * k * obb[e + 2]);
    }

    /**
     * The factor of the doubled lengths (the full translation {@code t}, twice the offset {@code s}, the full
     * extents {@code w}) that {@link #testCentred} takes: 1, so that nothing is halved, where every one is below
     * {@code 2^1020} (their rotated sums stay finite); 0.5 beyond (the half translation, offset and extents, which
     * can then only round in the subnormal range where nothing is this large).
     */
    static double lengthScale(double tx, double ty, double tz, double sx, double sy, double sz, double wx, double wy,
                              double wz) {
        double largest = Math.max(Math.max(Math.max(Math.abs(tx), Math.abs(ty)), Math.max(Math.abs(tz),
                Math.abs(sx))), Math.max(Math.max(Math.abs(sy), Math.abs(sz)), Math.max(Math.abs(wx),
                Math.max(Math.abs(wy), Math.abs(wz)))));
        return largest <= 0x1p1020 ? 1.0 : 0.5;
    }

    /**
     * Six-axis test of a segment against a box centred at the origin and aligned with the axes: the segment has
     * midpoint {@code m} and half translation {@code h}, the box half extents {@code e}. The axes are the box's
     * three face normals and the cross products of the segment direction with them; they need no normalization
     * and no division is made. Each comparison allows a slack of a few roundings of the magnitudes involved, so
     * rounding never separates a touching pair (a zero {@code h} is a point-in-box test).
     */
    static boolean testCentred(double mx, double my, double mz, double hx, double hy, double hz,
                               double ex, double ey, double ez) {
        double ahx = Math.abs(hx);
        double ahy = Math.abs(hy);
        double ahz = Math.abs(hz);
        double amx = Math.abs(mx);
        double amy = Math.abs(my);
        double amz = Math.abs(mz);
        double size = amx + amy + amz + ex + ey + ez + ahx + ahy + ahz;
        if (size < TINY_SIZE && size > 0.0) {
            // products of two such lengths round in the subnormal range, where a relative slack underflows: the
            // same test on lengths scaled by a power of two (exact) keeps every bit
            return testCentred(mx * RESCALE, my * RESCALE, mz * RESCALE, hx * RESCALE, hy * RESCALE, hz * RESCALE,
                    ex * RESCALE, ey * RESCALE, ez * RESCALE);
        }
        double slack = SLACK * size;
        if (amx > ex + ahx + slack || amy > ey + ahy + slack || amz > ez + ahz + slack) {
            return false;
        }
        double crossSlack = slack * (ahx + ahy + ahz);
        return !(Math.abs(my * hz - mz * hy) > ey * ahz + ez * ahy + crossSlack
                || Math.abs(mz * hx - mx * hz) > ex * ahz + ez * ahx + crossSlack
                || Math.abs(mx * hy - my * hx) > ex * ahy + ey * ahx + crossSlack);
    }
}
