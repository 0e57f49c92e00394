package dev.boxwood.geom;

/**
 * Segment against a closed sphere (Ericson, Real-Time Collision Detection, 5.3.2): where the segment
 * {@code o + t d}, {@code t} in {@code [0, maxFraction]}, first meets the ball. An exact test for the hook of a cast
 * ({@link dev.boxwood.query.SegmentIntersector}) over objects that are spheres, and the corner pieces of
 * {@link SweepAabb#intersectMovingSphere}.
 *
 * <p>Accuracy: the start is taken relative to the centre (difference first), the discriminant in Lagrange's form
 * {@code a r^2 - |d × m|^2}, which does not cancel between two large products, and the root in the form without
 * cancellation (Haines et al., "Precision Improvements for Ray/Sphere Intersection", Ray Tracing Gems, 2019,
 * ch. 7; Numerical Recipes 5.6). The start and radius are scaled to unit size by one power of two and the
 * translation by another, so fractions do not depend on the scale of either (no overflow of the squares at 1e160,
 * no underflow at 1e-160, none for a translation far larger or smaller than the sphere). A segment within a few ulps
 * of tangency may go either way, as may one whose exact end lies within a few ulps of the surface but whose end
 * point rounds outside it; one whose end point (rounded once) is on or in the sphere is never missed, grazing or
 * not. The kernel does not validate.
 */
public final class SegmentSphere {

    private SegmentSphere() {
    }

    /**
     * Entry fraction of the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, into the closed ball:
     * 0 when {@code o} lies inside or on the sphere (the canonical closed test, {@link SphereSphere#test} with a
     * point), else the smallest {@code t} at which the segment reaches the surface, or {@link Geom#NO_HIT}. A
     * zero-length segment is the point test; a radius of 0 is the centre point. A segment whose end point
     * {@code o + maxFraction d} (rounded once) passes the same closed test is never missed: where the computed
     * root falls beyond {@code maxFraction} by its rounding, {@code maxFraction} is returned (as it is for a root
     * within a few ulps beyond it, so a segment ending within rounding short of the surface may count as reaching
     * it).
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, finite and {@code >= 0}
     * @return the entry fraction in {@code [0, maxFraction]}, or {@link Geom#NO_HIT}
     */
    public static double intersect(double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction, double cx, double cy, double cz, double r) {
        if (SphereSphere.test(ox, oy, oz, 0.0, cx, cy, cz, r)) {
            return 0.0;
        }
        double t = entry(ox - cx, oy - cy, oz - cz, dx, dy, dz, r);
        if (t >= 0.0 && t <= maxFraction) {
            return t;
        }
        // The root can come out a few ulps beyond an exact entry at maxFraction (its terms cancel for a start near
        // the sphere), or be lost where the segment grazes the sphere at its end (a discriminant of 0 rounding
        // negative): a root within the slab test's robust bound of maxFraction (Ize 2013), or an end point that
        // passes the closed test, counts as reaching the surface by maxFraction.
        return Geom.justBeyond(t, maxFraction) || endsWithin(ox, oy, oz, dx, dy, dz, maxFraction, cx, cy, cz, r)
                ? maxFraction : Geom.NO_HIT;
    }

    /** Whether the end point {@code o + maxFraction d} (rounded once) is finite and lies in or on the ball. */
    private static boolean endsWithin(double ox, double oy, double oz, double dx, double dy, double dz,
                                      double maxFraction, double cx, double cy, double cz, double r) {
        double ex = Math.fma(maxFraction, dx, ox);
        double ey = Math.fma(maxFraction, dy, oy);
        double ez = Math.fma(maxFraction, dz, oz);
        return Geom.isFinite(ex, ey, ez) && SphereSphere.test(ex, ey, ez, 0.0, cx, cy, cz, r);
    }

    /**
     * The point and outward normal of the hit at {@code fraction} of the segment {@code o + t d} on the closed ball
     * (conventions of {@link SurfaceHit}), typically the entry fraction of {@link #intersect}: the normal is the
     * direction from the centre to the point, computed from the start's offset to the centre plus
     * {@code fraction * d} (differences first), so it is as accurate as the point relative to the sphere's size. A
     * start strictly inside ({@code fraction} 0, nearer the centre than {@code r}) is {@link SurfaceHit#startInside};
     * a point at the centre (a radius of 0) takes the reversed translation as its normal.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param fraction the hit fraction, {@code >= 0}; negative for a miss
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, finite and {@code >= 0}
     * @param dest receives the hit
     * @return whether it is a hit ({@code fraction >= 0})
     */
    public static boolean surface(double ox, double oy, double oz, double dx, double dy, double dz, double fraction,
                                  double cx, double cy, double cz, double r, SurfaceHit dest) {
        if (!(fraction >= 0.0)) {
            return dest.miss();
        }
        double mx = ox - cx;
        double my = oy - cy;
        double mz = oz - cz;
        if (fraction == 0.0 && r > 0.0 && Geom.within(mx, my, mz, r, false)) {
            return dest.inside(ox, oy, oz, dx, dy, dz);
        }
        dest.at(ox, oy, oz, dx, dy, dz, fraction);
        return dest.normal(mx + fraction * dx, my + fraction * dy, mz + fraction * dz, -dx, -dy, -dz);
    }

    /**
     * Entry time of the point {@code m + t d} ({@code m} relative to the centre, outside the sphere: the caller has
     * tested the start) into the sphere of radius {@code r}, for any {@code t >= 0}, or {@link Geom#NO_HIT} when it
     * does not move, moves away or passes by. Given the components of the start and motion across an axis, it is
     * the entry into the infinite cylinder of radius {@code r} around that axis (a box edge of the sphere sweep, a
     * capsule's side).
     */
    static double entry(double mx, double my, double mz, double dx, double dy, double dz, double r) {
        // the start and radius at their scale and the motion at its own (powers of two, so ordinary inputs give the
        // plain form's answer bit for bit): |d|^2 r^2 overflows beyond about 1e77 and underflows below 1e-77, and
        // one scale for both let the squares of a start far smaller than the motion underflow to a touching start
        int em = Geom.kernelExponent(mx, my, mz, r);
        int ed = Geom.kernelExponent(dx, dy, dz, 0.0);
        double sm = Geom.powerOfTwo(-em);
        double sd = Geom.powerOfTwo(-ed);
        mx *= sm;
        my *= sm;
        mz *= sm;
        r *= sm;
        dx *= sd;
        dy *= sd;
        dz *= sd;
        double a = dx * dx + dy * dy + dz * dz;
        double b = mx * dx + my * dy + mz * dz;
        double c = mx * mx + my * my + mz * mz - r * r;
        double wx = dy * mz - dz * my;
        double wy = dz * mx - dx * mz;
        double wz = dx * my - dy * mx;
        return unscaled(Quadratic.entry(a, b, c, a * r * r - (wx * wx + wy * wy + wz * wz)), em, ed);
    }

    /**
     * A time found with the start scaled by {@code 2^-em} and the motion by {@code 2^-ed}, in the caller's units:
     * {@code m + t d = 2^em (m' + t 2^(ed - em) d')}, so {@code t = 2^(em - ed) t'}.
     */
    static double unscaled(double t, int em, int ed) {
        return t < 0.0 ? Geom.NO_HIT : Geom.scalb(t, em - ed);
    }
}
