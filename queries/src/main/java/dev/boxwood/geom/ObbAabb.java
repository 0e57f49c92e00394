package dev.boxwood.geom;

/**
 * Oriented box (in {@link ObbLayout}) against axis-aligned box, and the axis-aligned box enclosing an oriented one.
 * Closed shapes; the kernels do not validate.
 */
public final class ObbAabb {

    private ObbAabb() {
    }

    /**
     * Whether the closed oriented box and the closed axis-aligned box overlap: the 15 axes of {@link ObbObb} with
     * the box's axes the coordinate axes (Ericson, Real-Time Collision Detection, 4.4.1), with the same conservative
     * epsilon: {@link ObbObb#EPSILON} added to the absolute components of the oriented box's axes and, as slack on
     * every axis, times the box's reach from the oriented box's centre and both boxes' half extents. Differences
     * are taken first (the box's faces relative to the oriented box's centre). The decision is monotonic in the box
     * even where rounding decides it: a box inside another never passes where the other fails, so an index culling
     * a node over it agrees with a scan. Margins computed from the box's centre and half extents, which round either
     * way by an ulp, decide where they are beyond twice their rounding; nearer, the box is projected from its faces,
     * a sum of rounded terms that only move outward as the box grows.
     *
     * @param obb array holding the oriented box in {@link ObbLayout}
     * @param offset offset of the oriented box
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if they overlap (touching counts)
     */
    public static boolean test(double[] obb, int offset,
                               double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        // the box's faces relative to the oriented box's centre
        double lx = minX - obb[offset];
        double ly = minY - obb[offset + 1];
        double lz = minZ - obb[offset + 2];
        double hx = maxX - obb[offset];
        double hy = maxY - obb[offset + 1];
        double hz = maxZ - obb[offset + 2];
        int ax = offset + ObbLayout.AXES;
        int h = offset + ObbLayout.HALF_EXTENTS;
        double a0 = obb[h];
        double a1 = obb[h + 1];
        double a2 = obb[h + 2];
        // both grow with the box: the reach max(|l|, |h|) per axis and the half extents
        double reach = Math.max(-lx, hx) + Math.max(-ly, hy) + Math.max(-lz, hz);
        double bx = 0.5 * hx - 0.5 * lx;
        double by = 0.5 * hy - 0.5 * ly;
        double bz = 0.5 * hz - 0.5 * lz;
        double size = reach + (bx + by + bz) + (a0 + a1 + a2);
        double slack = ObbObb.EPSILON * size;
        // The margins by the box's centre and half extents: fast, but an ulp off either way, so a box inside
        // another could pass where the other fails. A margin beyond twice that rounding decides as the exact one
        // would (and so for every box inside); nearer, the test is taken again from the faces, where it is monotonic.
        double band = BAND * size;
        double tx = 0.5 * lx + 0.5 * hx;
        double ty = 0.5 * ly + 0.5 * hy;
        double tz = 0.5 * lz + 0.5 * hz;
        double r0x = obb[ax];
        double r0y = obb[ax + 1];
        double r0z = obb[ax + 2];
        double r1x = obb[ax + 3];
        double r1y = obb[ax + 4];
        double r1z = obb[ax + 5];
        double r2x = obb[ax + 6];
        double r2y = obb[ax + 7];
        double r2z = obb[ax + 8];
        double beyond = slack + band; // a margin above this separates
        double near = slack - band; // one at or above this (and not beyond) is decided from the faces
        // the coordinate axes
        double v0 = Math.abs(tx) - bx - (a0 * q(r0x) + a1 * q(r1x) + a2 * q(r2x));
        double v1 = Math.abs(ty) - by - (a0 * q(r0y) + a1 * q(r1y) + a2 * q(r2y));
        double v2 = Math.abs(tz) - bz - (a0 * q(r0z) + a1 * q(r1z) + a2 * q(r2z));
        if (v0 > beyond || v1 > beyond || v2 > beyond) {
            return false;
        }
        boolean close = v0 >= near | v1 >= near | v2 >= near;
        // the oriented box's axes
        v0 = Math.abs(r0x * tx + r0y * ty + r0z * tz) - (bx * Math.abs(r0x) + by * Math.abs(r0y)
                + bz * Math.abs(r0z)) - a0;
        v1 = Math.abs(r1x * tx + r1y * ty + r1z * tz) - (bx * Math.abs(r1x) + by * Math.abs(r1y)
                + bz * Math.abs(r1z)) - a1;
        v2 = Math.abs(r2x * tx + r2y * ty + r2z * tz) - (bx * Math.abs(r2x) + by * Math.abs(r2y)
                + bz * Math.abs(r2z)) - a2;
        if (v0 > beyond || v1 > beyond || v2 > beyond) {
            return false;
        }
        close |= v0 >= near | v1 >= near | v2 >= near;
        // axis_i x e_k, of components (0, r_iz, -r_iy), (-r_iz, 0, r_ix), (r_iy, -r_ix, 0); the oriented box's
        // radius on it is a_j q_mk + a_m q_jk
        int edges = edgeMargins(r0x, r0y, r0z, tx, ty, tz, bx, by, bz, a1 * q(r2x) + a2 * q(r1x),
                a1 * q(r2y) + a2 * q(r1y), a1 * q(r2z) + a2 * q(r1z), beyond, near)
                | edgeMargins(r1x, r1y, r1z, tx, ty, tz, bx, by, bz, a0 * q(r2x) + a2 * q(r0x),
                a0 * q(r2y) + a2 * q(r0y), a0 * q(r2z) + a2 * q(r0z), beyond, near)
                | edgeMargins(r2x, r2y, r2z, tx, ty, tz, bx, by, bz, a0 * q(r1x) + a1 * q(r0x),
                a0 * q(r1y) + a1 * q(r0y), a0 * q(r1z) + a1 * q(r0z), beyond, near);
        if ((edges & APART) != 0) {
            return false;
        }
        return !(close || edges != 0) || testFaces(lx, ly, lz, hx, hy, hz, slack, a0, a1, a2, r0x, r0y, r0z,
                r1x, r1y, r1z, r2x, r2y, r2z);
    }

    /** {@link #edgeMargins}: a margin beyond the band (the boxes are apart). */
    private static final int APART = 2;
    /** {@link #edgeMargins}: a margin within the band (decided from the faces). */
    private static final int CLOSE = 1;

    /**
     * The margins of the box (centre {@code t}, half extents {@code b}) on the three axes {@code axis x e_k},
     * given the oriented box's radius on each: {@link #APART} if one is above {@code beyond}, {@link #CLOSE} if
     * one is at or above {@code near}, else 0.
     */
    private static int edgeMargins(double rx, double ry, double rz, double tx, double ty, double tz,
                                   double bx, double by, double bz, double radiusX, double radiusY, double radiusZ,
                                   double beyond, double near) {
        double v0 = Math.abs(rz * ty - ry * tz) - (by * Math.abs(rz) + bz * Math.abs(ry)) - radiusX;
        double v1 = Math.abs(rx * tz - rz * tx) - (bx * Math.abs(rz) + bz * Math.abs(rx)) - radiusY;
        double v2 = Math.abs(ry * tx - rx * ty) - (bx * Math.abs(ry) + by * Math.abs(rx)) - radiusZ;
        if (v0 > beyond || v1 > beyond || v2 > beyond) {
            return APART;
        }
        return v0 >= near || v1 >= near || v2 >= near ? CLOSE : 0;
    }

    /**
     * Twice a bound on the rounding of the margins of {@link #test}, both by the centre and half extents and by
     * the faces, per unit of the sum of the box's reach, its half extents and the oriented box's: each margin is
     * within {@code 8u} of that sum of the exact margin (the differences, the halving, at most three products and
     * four sums).
     */
    private static final double BAND = 32 * Geom.UNIT_ROUNDOFF;

    /** A component's magnitude lifted by the epsilon of Ericson 4.4.1. */
    private static double q(double r) {
        return Math.abs(r) + ObbObb.EPSILON;
    }

    /**
     * The test of {@link #test} from the box's faces {@code l, h} relative to the oriented box's centre: every
     * projection is a sum of rounded terms that only move outward as the box grows, so the decision is monotonic in
     * the box.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static boolean testFaces(double lx, double ly, double lz, double hx, double hy, double hz, double slack,
                                     double a0, double a1, double a2, double r0x, double r0y, double r0z,
                                     double r1x, double r1y, double r1z, double r2x, double r2y, double r2z) {
        double ex = a0 * q(r0x) + a1 * q(r1x) + a2 * q(r2x) + slack;
        double ey = a0 * q(r0y) + a1 * q(r1y) + a2 * q(r2y) + slack;
        double ez = a0 * q(r0z) + a1 * q(r1z) + a2 * q(r2z) + slack;
        if (lx > ex || hx < -ex || ly > ey || hy < -ey || lz > ez || hz < -ez) {
            return false;
        }
        return !(apart(r0x, r0y, r0z, lx, ly, lz, hx, hy, hz, a0 + slack)
                || apart(r1x, r1y, r1z, lx, ly, lz, hx, hy, hz, a1 + slack)
                || apart(r2x, r2y, r2z, lx, ly, lz, hx, hy, hz, a2 + slack)
                || apart(0.0, r0z, -r0y, lx, ly, lz, hx, hy, hz, a1 * q(r2x) + a2 * q(r1x) + slack)
                || apart(-r0z, 0.0, r0x, lx, ly, lz, hx, hy, hz, a1 * q(r2y) + a2 * q(r1y) + slack)
                || apart(r0y, -r0x, 0.0, lx, ly, lz, hx, hy, hz, a1 * q(r2z) + a2 * q(r1z) + slack)
                || apart(0.0, r1z, -r1y, lx, ly, lz, hx, hy, hz, a0 * q(r2x) + a2 * q(r0x) + slack)
                || apart(-r1z, 0.0, r1x, lx, ly, lz, hx, hy, hz, a0 * q(r2y) + a2 * q(r0y) + slack)
                || apart(r1y, -r1x, 0.0, lx, ly, lz, hx, hy, hz, a0 * q(r2z) + a2 * q(r0z) + slack)
                || apart(0.0, r2z, -r2y, lx, ly, lz, hx, hy, hz, a0 * q(r1x) + a1 * q(r0x) + slack)
                || apart(-r2z, 0.0, r2x, lx, ly, lz, hx, hy, hz, a0 * q(r1y) + a1 * q(r0y) + slack)
                || apart(r2y, -r2x, 0.0, lx, ly, lz, hx, hy, hz, a0 * q(r1z) + a1 * q(r0z) + slack));
    }

    /**
     * Whether the box of faces {@code l, h} (relative to the oriented box's centre) projects onto axis {@code n}
     * entirely beyond {@code radius} on either side: its interval is the sum of each face pair's products with the
     * axis component, the lower and the higher of the two, which a larger box can only widen.
     */
    private static boolean apart(double nx, double ny, double nz, double lx, double ly, double lz,
                                 double hx, double hy, double hz, double radius) {
        // with l <= h the smaller product is the one with l for a component >= 0 (rounding keeps the order)
        double lo = (nx >= 0.0 ? nx * lx : nx * hx) + (ny >= 0.0 ? ny * ly : ny * hy)
                + (nz >= 0.0 ? nz * lz : nz * hz);
        double hi = (nx >= 0.0 ? nx * hx : nx * lx) + (ny >= 0.0 ? ny * hy : ny * ly)
                + (nz >= 0.0 ? nz * hz : nz * lz);
        return lo > radius || hi < -radius;
    }

    /**
     * Writes the smallest axis-aligned box that encloses the oriented box, as {@code minX, minY, minZ, maxX, maxY,
     * maxZ} at {@code destOffset}: its half extent along world axis {@code k} is
     * {@code sum_i h_i |axis_i[k]|} (Gomez 1999, "OBB to AABB conversion"). Rounded outwards: the result always
     * contains the oriented box, and exceeds the exact enclosing box by a few ulps at most.
     *
     * @param obb array holding the oriented box in {@link ObbLayout}
     * @param offset offset of the oriented box
     * @param dest receives the six bounds
     * @param destOffset where the six bounds start
     */
    public static void enclose(double[] obb, int offset, double[] dest, int destOffset) {
        int ax = offset + ObbLayout.AXES;
        int h = offset + ObbLayout.HALF_EXTENTS;
        for (int k = 0; k < 3; k++) {
            // five roundings at most in the sum; enlarge by their bound so it is never below the exact extent, and by
            // the half subnormal step each product can lose where it rounds in the subnormal range (extents near
            // 1e-310), which a relative bound does not cover
            double extent = (obb[h] * Math.abs(obb[ax + k]) + obb[h + 1] * Math.abs(obb[ax + 3 + k])
                    + obb[h + 2] * Math.abs(obb[ax + 6 + k])) * OUTWARD + 2 * Double.MIN_VALUE;
            double c = obb[offset + k];
            dest[destOffset + k] = Math.nextDown(c - extent);
            dest[destOffset + 3 + k] = Math.nextUp(c + extent);
        }
    }

    private static final double OUTWARD = 1.0 + 2.0 * Geom.gamma(6);
}
