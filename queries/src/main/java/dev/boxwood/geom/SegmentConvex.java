package dev.boxwood.geom;

/**
 * Segment cast against a convex polyhedron given as planes (Ericson, Real-Time Collision Detection, 5.3.8, as
 * restated at the end of the segment-AABB article). The polyhedron is the intersection of the closed inside half-spaces
 * {@code n · x <= d} (kernel convention: positive side outside), stored flat as four doubles per plane
 * {@code (nx, ny, nz, d)}; normals need not be unit length. The kernel does not validate.
 */
public final class SegmentConvex {

    private SegmentConvex() {
    }

    /**
     * Entry fraction of the segment {@code o + t dir}, {@code t} in {@code [0, maxFraction]}, into the closed convex
     * polyhedron: 0 if {@code o} is inside or on its boundary, {@link Geom#NO_HIT} on a miss. Each plane bounds
     * {@code t} from below (the segment enters its half-space, {@code n · dir < 0}) or from above (it leaves,
     * {@code n · dir > 0}); a segment parallel to a plane and outside it misses. Plane distances {@code d - n · o}
     * are decided as computed: a segment within a few ulps of the coordinates of a plane may go either way. An
     * empty plane list is all of space (returns 0).
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @param planes flat planes {@code (nx, ny, nz, d)}, positive side outside
     * @param planeCount number of planes
     * @return the entry fraction in {@code [0, maxFraction]} or {@link Geom#NO_HIT}
     */
    public static double intersect(double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction, double[] planes, int planeCount) {
        double near = 0.0;
        double far = maxFraction;
        for (int at = 0, end = planeCount * FrustumAabb.PLANE_STRIDE; at < end; at += FrustumAabb.PLANE_STRIDE) {
            double nx = planes[at];
            double ny = planes[at + 1];
            double nz = planes[at + 2];
            double numerator = planes[at + 3] - (nx * ox + ny * oy + nz * oz);
            double denominator = nx * dx + ny * dy + nz * dz;
            if (denominator == 0.0) {
                if (numerator < 0.0) {
                    return Geom.NO_HIT; // parallel and outside this half-space
                }
            } else if (denominator < 0.0) {
                near = Math.max(near, numerator / denominator);
            } else {
                far = Math.min(far, numerator / denominator);
            }
            if (near > far) {
                return Geom.NO_HIT;
            }
        }
        return near;
    }
}
