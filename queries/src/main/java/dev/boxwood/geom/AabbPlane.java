package dev.boxwood.geom;

/**
 * Axis-aligned box against a plane {@code n · x = d} whose positive side {@code n · x > d} is outside (the kernel
 * convention). The normal need not be unit length: only signs are decided. Uses the corners that extend farthest
 * along and against the normal (the "p-vertex" and "n-vertex", Haines and Wallace 1994; Greene 1994), picked by
 * the signs of the normal, so no rounded box centre enters the result. The kernels do not validate.
 */
public final class AabbPlane {

    private AabbPlane() {
    }

    /**
     * Classifies the closed box against the closed inside half-space {@code n · x <= d}: {@link Geom#INSIDE} if the
     * whole box is in it (touching the plane from inside counts as inside), {@link Geom#OUTSIDE} if no point of the
     * box is in it, {@link Geom#CROSSING} otherwise (the box has points strictly outside and points inside or on the
     * plane). Gomez 1999, "box-plane test", in corner form.
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
        if (nearestDistance(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d) > 0.0) {
            return Geom.OUTSIDE;
        }
        return farthestDistance(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d) > 0.0
                ? Geom.CROSSING : Geom.INSIDE;
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
        return nearestDistance(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d) <= 0.0
                && farthestDistance(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d) >= 0.0;
    }

    /**
     * {@code n · x - d} at the corner that extends farthest against the normal (the smallest over the box).
     */
    static double nearestDistance(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                                  double nx, double ny, double nz, double d) {
        return nx * (nx >= 0.0 ? minX : maxX) + ny * (ny >= 0.0 ? minY : maxY) + nz * (nz >= 0.0 ? minZ : maxZ) - d;
    }

    /** {@code n · x - d} at the corner that extends farthest along the normal (the largest over the box). */
    static double farthestDistance(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                                   double nx, double ny, double nz, double d) {
        return nx * (nx >= 0.0 ? maxX : minX) + ny * (ny >= 0.0 ? maxY : minY) + nz * (nz >= 0.0 ? maxZ : minZ) - d;
    }
}
