package dev.boxwood.geom;

/**
 * Segment against a closed capsule: the points within {@code r} of the axis segment {@code [p, q]} (characters,
 * limbs, projectiles). The capsule is the union of the cylinder around the axis and the two end spheres, so the
 * first entry is the earliest of the entry into the infinite cylinder at a point whose projection falls on the
 * axis segment and the entries into the two spheres ({@link SegmentSphere}): entering through a flat end of the
 * finite cylinder means entering its end sphere no later (Ericson, Real-Time Collision Detection, 5.3.7, with the
 * end caps replaced by spheres). The cylinder's quadratic is built from the components perpendicular to the axis,
 * with the discriminant in Lagrange's form and the root without cancellation, and the start and the translation
 * are each scaled to unit size, as in {@link SegmentSphere}. A segment within a few ulps of tangency may go either
 * way, as may one ending within a few ulps of the surface; one whose end point (rounded once) is on or in the
 * capsule is never missed, grazing or not. The kernel does not validate.
 */
public final class SegmentCapsule {

    private SegmentCapsule() {
    }

    /**
     * Entry fraction of the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, into the closed capsule
     * of axis {@code [p, q]} and radius {@code r}: 0 when {@code o} lies within {@code r} of the axis segment, else
     * the smallest {@code t} at which the segment reaches the surface, or {@link Geom#NO_HIT}. An axis of zero
     * length is a sphere; a radius of 0 is the axis segment itself (hit only where the segment crosses it, as
     * computed). A zero-length segment is the point test of the start; a segment whose end point
     * {@code o + maxFraction d} (rounded once) passes that test is never missed ({@code maxFraction} where the
     * computed entry falls beyond it by its rounding, or by a few ulps).
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @param px axis start x
     * @param py axis start y
     * @param pz axis start z
     * @param qx axis end x
     * @param qy axis end y
     * @param qz axis end z
     * @param r radius, finite and {@code >= 0}
     * @return the entry fraction in {@code [0, maxFraction]}, or {@link Geom#NO_HIT}
     */
    public static double intersect(double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction, double px, double py, double pz, double qx, double qy,
                                   double qz, double r) {
        // a start inside an end sphere, decided from the same differences as the spheres' entries below (the
        // clamped closest point of startsInside rounds otherwise near the q end, and an entry sees a start inside
        // as a miss)
        if (SphereSphere.test(ox, oy, oz, 0.0, px, py, pz, r) || SphereSphere.test(ox, oy, oz, 0.0, qx, qy, qz, r)) {
            return 0.0;
        }
        double mx = ox - px;
        double my = oy - py;
        double mz = oz - pz;
        double ex = qx - px;
        double ey = qy - py;
        double ez = qz - pz;
        // start and radius (and the axis, which shares their frame) at their scale, the translation at its own
        double sum = Math.abs(mx) + Math.abs(my) + Math.abs(mz) + Math.abs(ex) + Math.abs(ey) + Math.abs(ez) + r;
        int em = sum < Double.POSITIVE_INFINITY ? Geom.sumExponent(sum) : Geom.scaleExponent(Double.longBitsToDouble(
                Math.max(Geom.magnitudeBits(mx, my, mz, r), Geom.magnitudeBits(ex, ey, ez, 0.0))));
        int ed = Geom.kernelExponent(dx, dy, dz, 0.0);
        double sm = Geom.powerOfTwo(-em);
        double sd = Geom.powerOfTwo(-ed);
        mx *= sm;
        my *= sm;
        mz *= sm;
        ex *= sm;
        ey *= sm;
        ez *= sm;
        double rs = r * sm;
        double ux = dx * sd;
        double uy = dy * sd;
        double uz = dz * sd;
        double ee = ex * ex + ey * ey + ez * ez;
        double mqx = (ox - qx) * sm;
        double mqy = (oy - qy) * sm;
        double mqz = (oz - qz) * sm;
        if (ee > 0.0 && startsInside(mx, my, mz, mqx, mqy, mqz, ex, ey, ez, ee, rs)) {
            return 0.0;
        }
        double best = Double.POSITIVE_INFINITY;
        if (ee > 0.0) {
            // the start and the translation without their components along the axis; the start's offset from the
            // nearer end, as startsInside takes it: from the other end it rounds differently, and a start that
            // test found just outside could read as inside here, where that is a miss
            double km = (mx * ex + my * ey + mz * ez) / ee;
            double ku = (ux * ex + uy * ey + uz * ez) / ee;
            double nx;
            double ny;
            double nz;
            if (km > 0.5) {
                double kq = (mqx * ex + mqy * ey + mqz * ez) / ee;
                nx = mqx - kq * ex;
                ny = mqy - kq * ey;
                nz = mqz - kq * ez;
            } else {
                nx = mx - km * ex;
                ny = my - km * ey;
                nz = mz - km * ez;
            }
            double vx = ux - ku * ex;
            double vy = uy - ku * ey;
            double vz = uz - ku * ez;
            // the entry into the infinite cylinder: into the ball of radius r, across the axis
            double t = SegmentSphere.entry(nx, ny, nz, vx, vy, vz, rs);
            if (t >= 0.0) {
                // where along the axis the entry point projects: on the axis segment for the cylinder's surface
                double along = km + t * ku;
                if (along >= 0.0 && along <= 1.0) {
                    best = SegmentSphere.unscaled(t, em, ed);
                }
            }
        }
        best = earliest(best, SegmentSphere.entry(ox - px, oy - py, oz - pz, dx, dy, dz, r));
        best = earliest(best, SegmentSphere.entry(ox - qx, oy - qy, oz - qz, dx, dy, dz, r));
        if (best <= maxFraction) {
            return best;
        }
        // a root a few ulps beyond an entry at maxFraction, or none where the segment grazes the surface at its end
        // (as in SegmentSphere): within the robust bound, or decided by the end point with the start test above (a
        // zero translation is the point test, whose end is its start, already tested)
        if (Geom.justBeyond(best, maxFraction)) {
            return maxFraction;
        }
        double endX = Math.fma(maxFraction, dx, ox);
        double endY = Math.fma(maxFraction, dy, oy);
        double endZ = Math.fma(maxFraction, dz, oz);
        boolean moves = dx != 0.0 || dy != 0.0 || dz != 0.0;
        return moves && Geom.isFinite(endX, endY, endZ)
                && intersect(endX, endY, endZ, 0.0, 0.0, 0.0, 0.0, px, py, pz, qx, qy, qz, r) == 0.0 ? maxFraction
                : Geom.NO_HIT;
    }

    /**
     * The point and outward normal of the hit at {@code fraction} of the segment {@code o + t d} on the closed
     * capsule (conventions of {@link SurfaceHit}), typically the entry fraction of {@link #intersect}: the normal is
     * the direction to the point from its closest point on the axis segment (clamped to {@code [p, q]}: on an end
     * sphere, from that end). A start strictly inside ({@code fraction} 0, nearer the axis segment than {@code r}) is
     * {@link SurfaceHit#startInside}; a point on the axis (a radius of 0) takes the reversed translation as its
     * normal.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param fraction the hit fraction, {@code >= 0}; negative for a miss
     * @param px axis start x
     * @param py axis start y
     * @param pz axis start z
     * @param qx axis end x
     * @param qy axis end y
     * @param qz axis end z
     * @param r radius, finite and {@code >= 0}
     * @param dest receives the hit
     * @return whether it is a hit ({@code fraction >= 0})
     */
    public static boolean surface(double ox, double oy, double oz, double dx, double dy, double dz, double fraction,
                                  double px, double py, double pz, double qx, double qy, double qz, double r,
                                  SurfaceHit dest) {
        if (!(fraction >= 0.0)) {
            return dest.miss();
        }
        // the point relative to both axis ends, differences first, and the axis, at one scale (a power of two)
        double wx = (ox - px) + fraction * dx;
        double wy = (oy - py) + fraction * dy;
        double wz = (oz - pz) + fraction * dz;
        double vx = (ox - qx) + fraction * dx;
        double vy = (oy - qy) + fraction * dy;
        double vz = (oz - qz) + fraction * dz;
        double ex = qx - px;
        double ey = qy - py;
        double ez = qz - pz;
        double scale = Geom.powerOfTwo(-Geom.scaleExponent(Double.longBitsToDouble(Math.max(Math.max(
                Geom.magnitudeBits(wx, wy, wz, r), Geom.magnitudeBits(ex, ey, ez, 0.0)),
                Geom.magnitudeBits(vx, vy, vz, 0.0)))));
        wx *= scale;
        wy *= scale;
        wz *= scale;
        vx *= scale;
        vy *= scale;
        vz *= scale;
        ex *= scale;
        ey *= scale;
        ez *= scale;
        double ee = ex * ex + ey * ey + ez * ez;
        double s = ee > 0.0 ? (wx * ex + wy * ey + wz * ez) / ee : 0.0;
        // the offset from the closest axis point, from the nearer end (rounding relative to its distance)
        double nx;
        double ny;
        double nz;
        if (!(s > 0.5)) {
            s = Math.max(s, 0.0);
            nx = wx - s * ex;
            ny = wy - s * ey;
            nz = wz - s * ez;
        } else {
            double u = Math.min((vx * ex + vy * ey + vz * ez) / ee, 0.0);
            nx = vx - u * ex;
            ny = vy - u * ey;
            nz = vz - u * ez;
        }
        if (fraction == 0.0 && Geom.within(nx, ny, nz, r * scale, false)) {
            return dest.inside(ox, oy, oz, dx, dy, dz);
        }
        dest.at(ox, oy, oz, dx, dy, dz, fraction);
        return dest.normal(nx, ny, nz, -dx, -dy, -dz);
    }

    /**
     * Whether the (scaled) start, {@code m} from {@code p} and {@code mq} from {@code q}, lies within {@code r} of
     * the axis segment where its closest point is inside the segment (beyond an end, the end sphere's test, from
     * that end's own differences, has decided). The offset from the axis is taken from the nearer end, so its
     * rounding is relative to that end's distance, not to the axis length; squares are compared by
     * {@link Geom#within}, which does not underflow for a thin capsule.
     */
    private static boolean startsInside(double mx, double my, double mz, double mqx, double mqy, double mqz,
                                        double ex, double ey, double ez, double ee, double r) {
        double s = (mx * ex + my * ey + mz * ez) / ee;
        if (!(s > 0.0 && s < 1.0)) {
            return false;
        }
        if (s <= 0.5) {
            return Geom.within(mx - s * ex, my - s * ey, mz - s * ez, r, true);
        }
        double u = (mqx * ex + mqy * ey + mqz * ez) / ee;
        return u < 0.0 && Geom.within(mqx - u * ex, mqy - u * ey, mqz - u * ez, r, true);
    }

    private static double earliest(double best, double t) {
        return t >= 0.0 && t < best ? t : best;
    }
}
