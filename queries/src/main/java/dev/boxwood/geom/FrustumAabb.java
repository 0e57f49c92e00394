package dev.boxwood.geom;

/**
 * Frustum (or any convex region given by planes) against axis-aligned box, with plane masks for hierarchical
 * culling (plane masking: Assarsson and Möller 2000, "Optimized View Frustum Culling Algorithms for Bounding
 * Boxes", JGT 5(1); the inside mask of Bullet's
 * {@code btDbvt::collideKDOP}).
 *
 * <p>The region is the intersection of the closed inside half-spaces {@code n · x <= d} of its planes (kernel
 * convention: the positive side is outside). Planes are stored flat, four doubles each
 * {@code (nx, ny, nz, d)}, at most {@link #MAX_PLANES}; normals need not be unit length. Each plane is tested with
 * the box corners extending farthest along and against its normal ({@link AabbPlane}). The test is the usual
 * conservative one: a box that misses the region near one of its edges, without being fully outside one plane, is
 * reported as crossing; a box is outside a plane only beyond the rounding of its distance
 * ({@link AabbPlane}), so a box touching the region is never culled. The kernels do not validate.
 */
public final class FrustumAabb {

    /** Most planes a region may have: one bit of an {@code int} mask each, leaving the sign for {@link #CULLED}. */
    public static final int MAX_PLANES = 31;
    /** Doubles per plane in the flat plane array. */
    public static final int PLANE_STRIDE = 4;
    /** Returned by {@link #cull} when the box is outside a plane. */
    public static final int CULLED = -1;

    private FrustumAabb() {
    }

    /**
     * The mask that activates all of {@code planeCount} planes: the starting mask of a traversal.
     *
     * @param planeCount number of planes, {@code 0..}{@link #MAX_PLANES}
     * @return a mask with the low {@code planeCount} bits set
     */
    public static int allPlanes(int planeCount) {
        return (int) ((1L << planeCount) - 1);
    }

    /**
     * Tests the box against the planes whose bit is set in {@code activeMask} and returns the planes it still
     * crosses: {@link #CULLED} if the box is outside one of them (no point inside or on it), otherwise the subset of
     * {@code activeMask} whose planes the box crosses. Planes the box is fully inside are dropped from the result,
     * so in a hierarchy of nested boxes pass the result down as the children's {@code activeMask}: a result of 0
     * means the box and everything nested in it is inside the region, with no further tests. The mask of planes the
     * box is fully inside is {@code activeMask & ~result}.
     *
     * @param planes flat planes {@code (nx, ny, nz, d)}, positive side outside
     * @param activeMask bit {@code i} set to test plane {@code i} (see {@link #allPlanes})
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return {@link #CULLED}, or the mask of active planes the box crosses (0: fully inside)
     */
    public static int cull(double[] planes, int activeMask,
                           double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        int crossing = 0;
        for (int mask = activeMask; mask != 0; mask &= mask - 1) {
            int plane = Integer.numberOfTrailingZeros(mask);
            int at = plane * PLANE_STRIDE;
            double nx = planes[at];
            double ny = planes[at + 1];
            double nz = planes[at + 2];
            double d = planes[at + 3];
            if (AabbPlane.outside(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d)) {
                return CULLED;
            }
            if (AabbPlane.extendsOutside(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d)) {
                crossing |= 1 << plane;
            }
        }
        return crossing;
    }

    /**
     * Classifies the closed box against the closed region of all {@code planeCount} planes: {@link Geom#OUTSIDE},
     * {@link Geom#CROSSING} or {@link Geom#INSIDE}, as {@link #cull} with every plane active.
     *
     * @param planes flat planes {@code (nx, ny, nz, d)}, positive side outside
     * @param planeCount number of planes, {@code 0..}{@link #MAX_PLANES}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return {@link Geom#OUTSIDE}, {@link Geom#CROSSING} or {@link Geom#INSIDE}
     */
    public static int classify(double[] planes, int planeCount,
                               double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        return classification(cull(planes, allPlanes(planeCount), minX, minY, minZ, maxX, maxY, maxZ));
    }

    /**
     * The classification a {@link #cull} result stands for.
     *
     * @param cullResult a result of {@link #cull}
     * @return {@link Geom#OUTSIDE} for {@link #CULLED}, {@link Geom#INSIDE} for 0, else {@link Geom#CROSSING}
     */
    public static int classification(int cullResult) {
        return cullResult == CULLED ? Geom.OUTSIDE : cullResult == 0 ? Geom.INSIDE : Geom.CROSSING;
    }
}
