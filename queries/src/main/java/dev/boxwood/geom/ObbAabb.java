package dev.boxwood.geom;

/**
 * Oriented box (in {@link ObbLayout}) against axis-aligned box, and the axis-aligned box enclosing an oriented one.
 * Closed shapes; the kernels do not validate.
 */
public final class ObbAabb {

    private ObbAabb() {
    }

    /**
     * Whether the closed oriented box and the closed axis-aligned box overlap: the 15-axis test of
     * {@link ObbObb} with the box's axes the coordinate axes, so {@code R[i][j]} is component {@code j} of the
     * oriented box's axis {@code i} (Ericson, Real-Time Collision Detection, 4.4.1). Same conservative epsilon as
     * {@link ObbObb}. The box centre offset is formed as {@code ((min - c) + (max - c)) / 2}, differences first,
     * and the box's own face axes test it as it is, unrotated.
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
        double cx = obb[offset];
        double cy = obb[offset + 1];
        double cz = obb[offset + 2];
        double tx = 0.5 * ((minX - cx) + (maxX - cx));
        double ty = 0.5 * ((minY - cy) + (maxY - cy));
        double tz = 0.5 * ((minZ - cz) + (maxZ - cz));
        int ax = offset + ObbLayout.AXES;
        int h = offset + ObbLayout.HALF_EXTENTS;
        return ObbObb.overlapInFrameOfA(
                obb[ax] * tx + obb[ax + 1] * ty + obb[ax + 2] * tz,
                obb[ax + 3] * tx + obb[ax + 4] * ty + obb[ax + 5] * tz,
                obb[ax + 6] * tx + obb[ax + 7] * ty + obb[ax + 8] * tz,
                tx, ty, tz,
                obb[ax], obb[ax + 1], obb[ax + 2],
                obb[ax + 3], obb[ax + 4], obb[ax + 5],
                obb[ax + 6], obb[ax + 7], obb[ax + 8],
                obb[h], obb[h + 1], obb[h + 2],
                0.5 * (maxX - minX), 0.5 * (maxY - minY), 0.5 * (maxZ - minZ));
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
