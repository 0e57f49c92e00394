package dev.boxwood.geom;

/**
 * Immutable convex region bounded by up to {@link FrustumAabb#MAX_PLANES} planes: the intersection of their closed
 * inside half-spaces ({@link Plane} convention: positive side outside). A view frustum has six; any convex
 * polyhedron works. Validated through {@link Plane}. The flat plane array the kernels read
 * ({@link FrustumAabb}, {@link SegmentConvex}) is copied out by {@link #planes()}.
 */
public final class Frustum {

    private final double[] planes;

    /**
     * A region from planes.
     *
     * @param planes the bounding planes, 1 to {@link FrustumAabb#MAX_PLANES}, none null
     * @throws IllegalArgumentException if there are no planes, too many, or one is null ("planes")
     */
    public Frustum(Plane... planes) {
        if (planes == null || planes.length == 0 || planes.length > FrustumAabb.MAX_PLANES) {
            throw new IllegalArgumentException("planes must hold 1 to " + FrustumAabb.MAX_PLANES + " planes, was "
                    + (planes == null ? "null" : planes.length));
        }
        this.planes = new double[planes.length * FrustumAabb.PLANE_STRIDE];
        for (int i = 0; i < planes.length; i++) {
            Plane p = planes[i];
            if (p == null) {
                throw new IllegalArgumentException("planes[" + i + "] must not be null");
            }
            int at = i * FrustumAabb.PLANE_STRIDE;
            this.planes[at] = p.nx();
            this.planes[at + 1] = p.ny();
            this.planes[at + 2] = p.nz();
            this.planes[at + 3] = p.d();
        }
    }

    /**
     * Number of planes.
     *
     * @return the plane count
     */
    public int planeCount() {
        return planes.length / FrustumAabb.PLANE_STRIDE;
    }

    /**
     * A copy of the planes, flat {@code (nx, ny, nz, d)} per plane, as the kernels take them.
     *
     * @return a new array of {@code 4 * planeCount()} doubles
     */
    public double[] planes() {
        return planes.clone();
    }

    /**
     * Classifies a box ({@link FrustumAabb#classify}).
     *
     * @param box the box
     * @return {@link Geom#OUTSIDE}, {@link Geom#CROSSING} or {@link Geom#INSIDE}
     */
    public int classify(Aabb box) {
        return FrustumAabb.classify(planes, planeCount(), box.minX(), box.minY(), box.minZ(),
                box.maxX(), box.maxY(), box.maxZ());
    }

    /**
     * Entry fraction of a segment into the region ({@link SegmentConvex#intersect}).
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @return the entry fraction, 0 for a start inside, or {@link Geom#NO_HIT}
     * @throws IllegalArgumentException naming a NaN or infinite argument, or a negative {@code maxFraction}
     */
    public double intersectSegment(double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction) {
        Check.segment(ox, oy, oz, dx, dy, dz, maxFraction);
        return SegmentConvex.intersect(ox, oy, oz, dx, dy, dz, maxFraction, planes, planeCount());
    }
}
