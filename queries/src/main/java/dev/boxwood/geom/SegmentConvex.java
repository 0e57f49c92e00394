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
     * are decided as computed: a segment within a few ulps of the coordinates of a plane may go either way. Products
     * beyond the double range (coordinates or normals near {@code 1e300}) are taken again at a smaller scale, so
     * finite input gives no NaN. An empty plane list is all of space (returns 0).
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
            if (!(Math.abs(numerator) <= Double.MAX_VALUE && Math.abs(denominator) <= Double.MAX_VALUE)) {
                // a product beyond the double range (two infinities made NaN): the same plane and segment with the
                // normal and the lengths brought near 1 by powers of two, which leave the fraction as it is
                double sn = Geom.powerOfTwo(-Geom.scaleExponent(nx, ny, nz, 0.0));
                double offset = planes[at + 3] * sn;
                double sl = Geom.powerOfTwo(-Geom.scaleExponent(Double.longBitsToDouble(Math.max(
                        Geom.magnitudeBits(ox, oy, oz, offset), Geom.magnitudeBits(dx, dy, dz, 0.0)))));
                double mx = nx * sn;
                double my = ny * sn;
                double mz = nz * sn;
                numerator = offset * sl - (mx * (ox * sl) + my * (oy * sl) + mz * (oz * sl));
                denominator = mx * (dx * sl) + my * (dy * sl) + mz * (dz * sl);
            }
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

    /**
     * The point and outward normal of the hit at {@code fraction} of the segment {@code o + t dir} on the closed
     * convex polyhedron (conventions of {@link SurfaceHit}), typically the entry fraction of {@link #intersect}: the
     * normal is the unit normal of the plane the segment enters last (the largest entry fraction among the planes it
     * enters, {@code n · dir < 0}; on ties the first such plane; the entry fractions are compared as computed, so
     * at an edge or corner planes whose normals are not of power-of-two lengths may break a tie either way). At
     * fraction 0 a start strictly inside every plane
     * is {@link SurfaceHit#startInside} (so is any start when there are no planes); a start on the boundary takes
     * the plane it is nearest to from inside (on it, or beyond it by rounding), then the one facing the translation
     * most, then the first.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param fraction the hit fraction, {@code >= 0}; negative for a miss
     * @param planes flat planes {@code (nx, ny, nz, d)}, positive side outside, normals not zero
     * @param planeCount number of planes
     * @param dest receives the hit
     * @return whether it is a hit ({@code fraction >= 0})
     */
    public static boolean surface(double ox, double oy, double oz, double dx, double dy, double dz, double fraction,
                                  double[] planes, int planeCount, SurfaceHit dest) {
        if (!(fraction >= 0.0)) {
            return dest.miss();
        }
        final int stride = FrustumAabb.PLANE_STRIDE;
        final int end = planeCount * stride;
        int chosen = -1;
        if (fraction > 0.0) {
            double latest = Double.NEGATIVE_INFINITY;
            for (int at = 0; at < end; at += stride) {
                double denominator = planes[at] * dx + planes[at + 1] * dy + planes[at + 2] * dz;
                if (denominator < 0.0) {
                    double entry = (planes[at + 3] - (planes[at] * ox + planes[at + 1] * oy + planes[at + 2] * oz))
                            / denominator;
                    if (chosen < 0 || entry > latest) {
                        latest = entry;
                        chosen = at;
                    }
                }
            }
        } else {
            boolean inside = true;
            double nearest = Double.POSITIVE_INFINITY;
            double facing = Double.POSITIVE_INFINITY;
            for (int at = 0; at < end; at += stride) {
                double nx = planes[at];
                double ny = planes[at + 1];
                double nz = planes[at + 2];
                double numerator = planes[at + 3] - (nx * ox + ny * oy + nz * oz);
                inside &= numerator > 0.0;
                // distances and slopes per unit normal, so planes given at different scales compare
                double length = Math.hypot(Math.hypot(nx, ny), nz); // no overflow of the squares
                double distance = numerator / length;
                double along = (nx * dx + ny * dy + nz * dz) / length;
                if (chosen < 0 || distance < nearest || distance == nearest && along < facing) {
                    nearest = distance;
                    facing = along;
                    chosen = at;
                }
            }
            if (inside) {
                return dest.inside(ox, oy, oz, dx, dy, dz);
            }
        }
        dest.at(ox, oy, oz, dx, dy, dz, fraction);
        return chosen < 0 ? dest.normal(0.0, 0.0, 0.0, -dx, -dy, -dz)
                : dest.normal(planes[chosen], planes[chosen + 1], planes[chosen + 2], -dx, -dy, -dz);
    }
}
