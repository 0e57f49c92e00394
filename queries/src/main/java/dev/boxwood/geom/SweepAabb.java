package dev.boxwood.geom;

/**
 * Time of impact of a moving shape (an axis-aligned box, a sphere) against a static closed axis-aligned box, over
 * normalized time {@code u} in {@code [0, maxFraction]}: the moving shape is at its start position at {@code u = 0}
 * and has moved by the whole displacement at {@code u = 1}. Each method returns the first time of contact (0 when
 * the shapes touch or overlap at the start) or {@link Geom#NO_HIT}. Closed shapes; the kernels do not validate.
 */
public final class SweepAabb {

    private SweepAabb() {
    }

    /**
     * First time of contact of a box moving by {@code d} with a static box: the {@code first} time of
     * {@link AabbAabb#sweep} (a = the static box, not moving; b = the moving box), computed the same way (the slab
     * test of the point 0 moving by {@code d} through the Minkowski difference
     * {@code [staticMin - movingMax, staticMax - movingMin]}), but returned as a value and for any
     * {@code maxFraction}. The inverse displacement is precomputed ({@link SegmentAabb#inverse}) for loops over
     * many boxes. No false miss from rounding (Ize 2013), no NaN for zero components.
     *
     * @param invDx {@code 1 / dx}
     * @param invDy {@code 1 / dy}
     * @param invDz {@code 1 / dz}
     * @param maxFraction largest time, finite and {@code >= 0}
     * @param movingMinX moving box min x at {@code u = 0}
     * @param movingMinY moving box min y at {@code u = 0}
     * @param movingMinZ moving box min z at {@code u = 0}
     * @param movingMaxX moving box max x at {@code u = 0}
     * @param movingMaxY moving box max y at {@code u = 0}
     * @param movingMaxZ moving box max z at {@code u = 0}
     * @param minX static box min x
     * @param minY static box min y
     * @param minZ static box min z
     * @param maxX static box max x
     * @param maxY static box max y
     * @param maxZ static box max z
     * @return the first time of contact in {@code [0, maxFraction]} or {@link Geom#NO_HIT}
     */
    public static double intersectMovingAabb(double invDx, double invDy, double invDz, double maxFraction,
                                             double movingMinX, double movingMinY, double movingMinZ,
                                             double movingMaxX, double movingMaxY, double movingMaxZ,
                                             double minX, double minY, double minZ,
                                             double maxX, double maxY, double maxZ) {
        return SegmentAabb.intersectInverse(0.0, 0.0, 0.0, invDx, invDy, invDz, maxFraction,
                minX - movingMaxX, minY - movingMaxY, minZ - movingMaxZ,
                maxX - movingMinX, maxY - movingMinY, maxZ - movingMinZ);
    }

    /**
     * First time of contact of a sphere whose centre moves from {@code c} by {@code d} with a static box: the
     * entry fraction of the centre's segment into the box rounded by {@code r} (the Minkowski sum of the box and
     * the sphere; Ericson, Real-Time Collision Detection, 5.5.7). A start within {@code r} of the box
     * ({@link SphereAabb#test}) returns 0. Otherwise the segment is first cast against the box grown by {@code r}
     * on every axis; if it enters through a face region (the entry point is outside the box on at most one axis)
     * that entry is the answer. Else it entered near an edge or a corner, where the rounded box is smaller than
     * the grown box, and the answer is the earliest entry into the pieces of the rounded box: the three boxes grown
     * along one axis only, the twelve edge cylinders and the eight corner spheres. Quadratics use the discriminant
     * in Lagrange's form and the root without cancellation (the helper shared with {@link SphereSphere#sweep}).
     * Exact up to rounding: a path within a few ulps of tangency may go either way, except that one whose end
     * position ({@code c + maxFraction d}, rounded once) passes {@link SphereAabb#test} is never missed, grazing or
     * not ({@code maxFraction} where a root falls beyond it by its rounding or by a few ulps, or none is found). The time of a grazing contact
     * (a near-double root) is less well conditioned than the decision: an error {@code δ} in the distance moves it by
     * about {@code sqrt(2 r δ) / |d|}.
     *
     * @param cx centre x at {@code u = 0}
     * @param cy centre y at {@code u = 0}
     * @param cz centre z at {@code u = 0}
     * @param r radius, {@code >= 0}
     * @param dx displacement x
     * @param dy displacement y
     * @param dz displacement z
     * @param maxFraction largest time, finite and {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return the first time of contact in {@code [0, maxFraction]} or {@link Geom#NO_HIT}
     */
    public static double intersectMovingSphere(double cx, double cy, double cz, double r,
                                               double dx, double dy, double dz, double maxFraction,
                                               double minX, double minY, double minZ,
                                               double maxX, double maxY, double maxZ) {
        if (SphereAabb.test(cx, cy, cz, r, minX, minY, minZ, maxX, maxY, maxZ)) {
            return 0.0;
        }
        // grown outward even where r is below an ulp of the coordinates (rounded to nearest, the bound could stay
        // where it was, and a centre passing within r of the box but outside the bound would miss it)
        double gx0 = Geom.subtractDown(minX, r);
        double gy0 = Geom.subtractDown(minY, r);
        double gz0 = Geom.subtractDown(minZ, r);
        double gx1 = Geom.addUp(maxX, r);
        double gy1 = Geom.addUp(maxY, r);
        double gz1 = Geom.addUp(maxZ, r);
        double t = SegmentAabb.intersect(cx, cy, cz, dx, dy, dz, maxFraction, gx0, gy0, gz0, gx1, gy1, gz1);
        if (t < 0.0) {
            return Geom.NO_HIT;
        }
        double px = cx + t * dx;
        double py = cy + t * dy;
        double pz = cz + t * dz;
        int outside = (px < minX || px > maxX ? 1 : 0) + (py < minY || py > maxY ? 1 : 0)
                + (pz < minZ || pz > maxZ ? 1 : 0);
        if (outside <= 1) {
            return t;
        }
        double best = Double.POSITIVE_INFINITY;
        best = earliest(best, SegmentAabb.intersect(cx, cy, cz, dx, dy, dz, maxFraction,
                gx0, minY, minZ, gx1, maxY, maxZ));
        best = earliest(best, SegmentAabb.intersect(cx, cy, cz, dx, dy, dz, maxFraction,
                minX, gy0, minZ, maxX, gy1, maxZ));
        best = earliest(best, SegmentAabb.intersect(cx, cy, cz, dx, dy, dz, maxFraction,
                minX, minY, gz0, maxX, maxY, gz1));
        for (int corner = 0; corner < 8; corner++) {
            double qx = (corner & 1) == 0 ? minX : maxX;
            double qy = (corner & 2) == 0 ? minY : maxY;
            double qz = (corner & 4) == 0 ? minZ : maxZ;
            best = earliest(best, SegmentSphere.entry(cx - qx, cy - qy, cz - qz, dx, dy, dz, r));
            // the edges along x, y and z from this corner's low side (each edge once: from its min end)
            if ((corner & 1) == 0) {
                best = earliest(best, cylinder(cy - qy, cz - qz, dy, dz, r, cx, dx, minX, maxX));
            }
            if ((corner & 2) == 0) {
                best = earliest(best, cylinder(cx - qx, cz - qz, dx, dz, r, cy, dy, minY, maxY));
            }
            if ((corner & 4) == 0) {
                best = earliest(best, cylinder(cx - qx, cy - qy, dx, dy, r, cz, dz, minZ, maxZ));
            }
        }
        if (best <= maxFraction) {
            return best;
        }
        // a corner's or edge's root a few ulps beyond a contact at maxFraction, or none where the path grazes one at
        // its end: within the robust bound, or decided by the end position
        if (Geom.justBeyond(best, maxFraction)) {
            return maxFraction;
        }
        double ex = Math.fma(maxFraction, dx, cx);
        double ey = Math.fma(maxFraction, dy, cy);
        double ez = Math.fma(maxFraction, dz, cz);
        return Geom.isFinite(ex, ey, ez) && SphereAabb.test(ex, ey, ez, r, minX, minY, minZ, maxX, maxY, maxZ)
                ? maxFraction : Geom.NO_HIT;
    }

    private static double earliest(double best, double t) {
        return t >= 0.0 && t < best ? t : best;
    }

    /**
     * Entry time into the lateral surface of the cylinder of radius {@code r} around a box edge: {@code (mi, mj)} is
     * the start relative to the edge line in the two other axes, {@code (di, dj)} the motion there; the entry point
     * must lie within the edge's span {@code [lo, hi]} along its own axis (start {@code s}, motion {@code ds}).
     */
    private static double cylinder(double mi, double mj, double di, double dj, double r,
                                   double s, double ds, double lo, double hi) {
        // the entry into the circle of radius r in the plane across the edge (SegmentSphere.entry, z = 0)
        double t = SegmentSphere.entry(mi, mj, 0.0, di, dj, 0.0, r);
        if (t < 0.0) {
            return Geom.NO_HIT;
        }
        double along = s + t * ds;
        return along >= lo && along <= hi ? t : Geom.NO_HIT;
    }
}
