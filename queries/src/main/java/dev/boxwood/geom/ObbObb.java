package dev.boxwood.geom;

/**
 * Oriented box against oriented box, and the separating-axis core shared with {@link ObbAabb}: the 15-axis test of
 * Gottschalk, Lin, Manocha 1996 ("OBBTree"), in the form of Ericson, Real-Time Collision Detection, 4.4.1, and seed
 * 004 (Listing 6). Boxes are in {@link ObbLayout}; they are closed (touching counts).
 *
 * <p>Robustness: when an edge of one box is (nearly) parallel to an edge of the other, their cross product is
 * (nearly) zero and the test on that axis compares rounding noise. As Ericson does, {@link #EPSILON} is added to
 * every entry of the absolute rotation matrix, which lifts the projected radii just above the noise. That lift
 * scales with the extents only, while the projected offset between the centres carries a rounding error of a few
 * ulps of its length (a point box on a face of a large box far away was separated), so every axis also gets
 * {@code EPSILON} times the sum of the offset's components and of all six half extents. The test is therefore
 * conservative: it never separates overlapping boxes, and may report boxes separated by less than about
 * {@code EPSILON} times their extents plus their distance as overlapping; where the separating axis is the cross
 * product of two edges at an angle {@code θ} (not normalised, of length {@code sin θ}), by less than about
 * {@code EPSILON / sin θ} times that. The translation between centres is
 * formed (subtracted) before it is rotated, and each box's face axes see it projected straight onto them, not
 * through the other box's frame, so the test keeps its accuracy far from the origin. The kernels do not validate.
 */
public final class ObbObb {

    /**
     * Added to each {@code |R[i][j]|}: covers the rounding of dot products of unit vectors (a few {@code 1e-16})
     * with a wide margin, and axes that are orthonormal only to about {@code 1e-12}.
     */
    public static final double EPSILON = 1e-10;

    private ObbObb() {
    }

    /**
     * Whether two closed oriented boxes overlap (touching counts); symmetric except within the false-overlap band
     * of the slack, where the two argument orders round differently (never a false separation either way).
     *
     * @param a array holding box a in {@link ObbLayout}
     * @param aOffset offset of box a
     * @param b array holding box b in {@link ObbLayout}
     * @param bOffset offset of box b
     * @return true if they overlap
     */
    public static boolean test(double[] a, int aOffset, double[] b, int bOffset) {
        int ax = aOffset + ObbLayout.AXES;
        int bx = bOffset + ObbLayout.AXES;
        double tx = b[bOffset] - a[aOffset];
        double ty = b[bOffset + 1] - a[aOffset + 1];
        double tz = b[bOffset + 2] - a[aOffset + 2];
        int ah = aOffset + ObbLayout.HALF_EXTENTS;
        int bh = bOffset + ObbLayout.HALF_EXTENTS;
        return overlapInFrameOfA(
                dot(a, ax, tx, ty, tz), dot(a, ax + 3, tx, ty, tz), dot(a, ax + 6, tx, ty, tz),
                dot(b, bx, tx, ty, tz), dot(b, bx + 3, tx, ty, tz), dot(b, bx + 6, tx, ty, tz),
                dot(a, ax, b, bx), dot(a, ax, b, bx + 3), dot(a, ax, b, bx + 6),
                dot(a, ax + 3, b, bx), dot(a, ax + 3, b, bx + 3), dot(a, ax + 3, b, bx + 6),
                dot(a, ax + 6, b, bx), dot(a, ax + 6, b, bx + 3), dot(a, ax + 6, b, bx + 6),
                a[ah], a[ah + 1], a[ah + 2], b[bh], b[bh + 1], b[bh + 2]);
    }

    private static double dot(double[] v, int at, double x, double y, double z) {
        return v[at] * x + v[at + 1] * y + v[at + 2] * z;
    }

    private static double dot(double[] u, int uAt, double[] v, int vAt) {
        return u[uAt] * v[vAt] + u[uAt + 1] * v[vAt + 1] + u[uAt + 2] * v[vAt + 2];
    }

    /**
     * The 15-axis separating axis test in a's frame: {@code t} is the centre of b minus the centre of a in a's
     * axes, {@code s} the same offset in b's axes, {@code r[i][j] = aAxis_i · bAxis_j}, {@code a*} and {@code b*}
     * the half extents. True if no axis separates (touching counts).
     */
    static boolean overlapInFrameOfA(double t0, double t1, double t2,
                                     double s0, double s1, double s2,
                                     double r00, double r01, double r02,
                                     double r10, double r11, double r12,
                                     double r20, double r21, double r22,
                                     double a0, double a1, double a2, double b0, double b1, double b2) {
        double q00 = Math.abs(r00) + EPSILON;
        double q01 = Math.abs(r01) + EPSILON;
        double q02 = Math.abs(r02) + EPSILON;
        double q10 = Math.abs(r10) + EPSILON;
        double q11 = Math.abs(r11) + EPSILON;
        double q12 = Math.abs(r12) + EPSILON;
        double q20 = Math.abs(r20) + EPSILON;
        double q21 = Math.abs(r21) + EPSILON;
        double q22 = Math.abs(r22) + EPSILON;
        // the offset's projections are rounded by a few ulps of its length, and the half extents by an ulp of
        // theirs; the matrix epsilon covers neither when a box is small or flat, so every axis gets this too
        double slack = EPSILON * (Math.abs(t0) + Math.abs(t1) + Math.abs(t2) + a0 + a1 + a2 + b0 + b1 + b2);
        // a's face axes
        if (Math.abs(t0) > a0 + b0 * q00 + b1 * q01 + b2 * q02 + slack
                || Math.abs(t1) > a1 + b0 * q10 + b1 * q11 + b2 * q12 + slack
                || Math.abs(t2) > a2 + b0 * q20 + b1 * q21 + b2 * q22 + slack) {
            return false;
        }
        // b's face axes
        if (Math.abs(s0) > a0 * q00 + a1 * q10 + a2 * q20 + b0 + slack
                || Math.abs(s1) > a0 * q01 + a1 * q11 + a2 * q21 + b1 + slack
                || Math.abs(s2) > a0 * q02 + a1 * q12 + a2 * q22 + b2 + slack) {
            return false;
        }
        // the nine edge-edge cross products aAxis_i x bAxis_j
        return !(Math.abs(t2 * r10 - t1 * r20) > a1 * q20 + a2 * q10 + b1 * q02 + b2 * q01 + slack
                || Math.abs(t2 * r11 - t1 * r21) > a1 * q21 + a2 * q11 + b0 * q02 + b2 * q00 + slack
                || Math.abs(t2 * r12 - t1 * r22) > a1 * q22 + a2 * q12 + b0 * q01 + b1 * q00 + slack
                || Math.abs(t0 * r20 - t2 * r00) > a0 * q20 + a2 * q00 + b1 * q12 + b2 * q11 + slack
                || Math.abs(t0 * r21 - t2 * r01) > a0 * q21 + a2 * q01 + b0 * q12 + b2 * q10 + slack
                || Math.abs(t0 * r22 - t2 * r02) > a0 * q22 + a2 * q02 + b0 * q11 + b1 * q10 + slack
                || Math.abs(t1 * r00 - t0 * r10) > a0 * q10 + a1 * q00 + b1 * q22 + b2 * q21 + slack
                || Math.abs(t1 * r01 - t0 * r11) > a0 * q11 + a1 * q01 + b0 * q22 + b2 * q20 + slack
                || Math.abs(t1 * r02 - t0 * r12) > a0 * q12 + a1 * q02 + b0 * q21 + b1 * q20 + slack);
    }
}
