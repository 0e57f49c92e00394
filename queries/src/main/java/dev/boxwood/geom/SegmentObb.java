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
        // everything doubled (the test is homogeneous): halving the translation would round a subnormal one
        // before the test's own rescaling could keep it
        double hx = maxFraction * dx;
        double hy = maxFraction * dy;
        double hz = maxFraction * dz;
        // twice the segment midpoint relative to the box centre, difference first
        double px = 2.0 * (ox - obb[offset]) + hx;
        double py = 2.0 * (oy - obb[offset + 1]) + hy;
        double pz = 2.0 * (oz - obb[offset + 2]) + hz;
        int a = offset + ObbLayout.AXES;
        int e = offset + ObbLayout.HALF_EXTENTS;
        return testCentred(
                obb[a] * px + obb[a + 1] * py + obb[a + 2] * pz,
                obb[a + 3] * px + obb[a + 4] * py + obb[a + 5] * pz,
                obb[a + 6] * px + obb[a + 7] * py + obb[a + 8] * pz,
                obb[a] * hx + obb[a + 1] * hy + obb[a + 2] * hz,
                obb[a + 3] * hx + obb[a + 4] * hy + obb[a + 5] * hz,
                obb[a + 6] * hx + obb[a + 7] * hy + obb[a + 8] * hz,
                2.0 * obb[e], 2.0 * obb[e + 1], 2.0 * obb[e + 2]);
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
