package dev.boxwood.geom;

/**
 * Sphere against sphere: overlap, and the sweep of two moving spheres. Spheres are closed (touching counts); a
 * radius of 0 is a point. Differences of centres are formed before anything is multiplied, so the tests keep their
 * accuracy far from the origin, and they are scaled by a power of two to unit size before anything is squared,
 * so huge and tiny spheres give the answers of unit ones. The kernels do not validate (radii {@code >= 0}, finite
 * input, differences of centres finite).
 */
public final class SphereSphere {

    private SphereSphere() {
    }

    /**
     * Whether two closed spheres overlap: {@code |cb - ca|^2 <= (ra + rb)^2}. Symmetric.
     *
     * @param ax centre of a, x
     * @param ay centre of a, y
     * @param az centre of a, z
     * @param ra radius of a
     * @param bx centre of b, x
     * @param by centre of b, y
     * @param bz centre of b, z
     * @param rb radius of b
     * @return true if they overlap (touching counts)
     */
    public static boolean test(double ax, double ay, double az, double ra, double bx, double by, double bz, double rb) {
        double sx = bx - ax;
        double sy = by - ay;
        double sz = bz - az;
        double r = ra + rb;
        // at the inputs' scale (a power of two, so unit-scale answers are bit for bit those of the plain form):
        // squares of 1e160 overflow and of 1e-170 underflow, which made far spheres overlap and near ones touch
        double k = Geom.powerOfTwo(-Geom.kernelExponent(sx, sy, sz, r));
        sx *= k;
        sy *= k;
        sz *= k;
        r *= k;
        return sx * sx + sy * sy + sz * sz <= r * r;
    }

    /**
     * Sweep of two moving spheres over normalized time {@code u} in {@code [0, 1]} (Gomez 1999, "sphere-sphere
     * sweep"): sphere a moves by {@code va}, sphere b by {@code vb}. Fills {@code dest} with the first and last
     * times of contact clamped to {@code [0, 1]}: spheres that overlap at the start give {@code first = 0} and the
     * time they separate (1 if they are still in contact at the end or do not move relative to each other).
     *
     * <p>With {@code s = cb - ca}, {@code v = vb - va}, {@code R = ra + rb}, contact is
     * {@code |s + u v|^2 <= R^2}, the quadratic {@code a u^2 + 2 h u + c <= 0} with {@code a = v·v}, {@code h = v·s},
     * {@code c = s·s - R^2}. Unlike the seed, the discriminant is taken in Lagrange's form
     * {@code h^2 - a c = a R^2 - |v × s|^2}, which does not cancel between two large products, and each root is
     * taken in the form without cancellation ({@code c / q} or {@code q / a}, Numerical Recipes 5.6). A grazing
     * pair within a few ulps of tangency may be reported either way.
     *
     * @param ax centre of a at {@code u = 0}, x
     * @param ay centre of a at {@code u = 0}, y
     * @param az centre of a at {@code u = 0}, z
     * @param ra radius of a
     * @param vaX displacement of a over the frame, x
     * @param vaY displacement of a over the frame, y
     * @param vaZ displacement of a over the frame, z
     * @param bx centre of b at {@code u = 0}, x
     * @param by centre of b at {@code u = 0}, y
     * @param bz centre of b at {@code u = 0}, z
     * @param rb radius of b
     * @param vbX displacement of b over the frame, x
     * @param vbY displacement of b over the frame, y
     * @param vbZ displacement of b over the frame, z
     * @param dest receives the first and last times of contact, or a miss
     * @return true if the spheres are in contact at some time in {@code [0, 1]}
     */
    public static boolean sweep(double ax, double ay, double az, double ra, double vaX, double vaY, double vaZ,
                                double bx, double by, double bz, double rb, double vbX, double vbY, double vbZ,
                                SweepResult dest) {
        double sx = bx - ax;
        double sy = by - ay;
        double sz = bz - az;
        double vx = vbX - vaX;
        double vy = vbY - vaY;
        double vz = vbZ - vaZ;
        double r = ra + rb;
        // the quadratic with the offset and radius at their scale and the motion at its own, as SweepAabb's sphere
        // sweeps take it (powers of two: ordinary inputs give the plain form's answer bit for bit): products of
        // 1e100-sized terms would overflow (NaN from inf - inf) or of 1e-100 underflow, and one scale for both let
        // the squares of an offset far smaller than the motion underflow to a touching start
        int es = Geom.kernelExponent(sx, sy, sz, r);
        int ev = Geom.kernelExponent(vx, vy, vz, 0.0);
        double ks = Geom.powerOfTwo(-es);
        double kv = Geom.powerOfTwo(-ev);
        sx *= ks;
        sy *= ks;
        sz *= ks;
        r *= ks;
        vx *= kv;
        vy *= kv;
        vz *= kv;
        // times of the scaled quadratic are 2^(ev - es) times the caller's
        int toCaller = es - ev;
        double a = vx * vx + vy * vy + vz * vz;
        double h = vx * sx + vy * sy + vz * sz;
        double c = sx * sx + sy * sy + sz * sz - r * r;
        if (a == 0.0) {
            // no relative motion: in contact for the whole frame or never
            return c <= 0.0 ? dest.set(0.0, 1.0) : dest.miss();
        }
        double wx = vy * sz - vz * sy;
        double wy = vz * sx - vx * sz;
        double wz = vx * sy - vy * sx;
        double discriminant = a * r * r - (wx * wx + wy * wy + wz * wz);
        if (c <= 0.0) {
            // overlapping at the start: the later root is the separation time (the roots have opposite signs)
            double q = Quadratic.q(h, Math.max(discriminant, 0.0));
            double separation = Geom.scalb(h <= 0.0 ? q / a : c / q, toCaller);
            // clamped to [0, 1]; max also turns the -0.0 of a touching start (c = 0) into 0
            return dest.set(0.0, Math.min(Math.max(separation, 0.0), 1.0));
        }
        if (h >= 0.0 || discriminant < 0.0) {
            // moving apart (closest at u <= 0), or the paths never come within R
            return dest.miss();
        }
        double q = Quadratic.q(h, discriminant);
        double first = Geom.scalb(c / q, toCaller);
        if (first > 1.0) {
            return dest.miss();
        }
        return dest.set(first, Math.min(Geom.scalb(q / a, toCaller), 1.0));
    }
}
