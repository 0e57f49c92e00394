package dev.boxwood.geom;

/**
 * Sphere against sphere: overlap, and the sweep of two moving spheres. Spheres are closed (touching counts); a
 * radius of 0 is a point. Differences of centres are formed before anything is multiplied, so the tests keep their
 * accuracy far from the origin, and they are scaled by a power of two to unit size before anything is squared,
 * so huge and tiny spheres give the answers of unit ones. {@link #test} never misses a touch: a squared distance
 * above {@code (ra + rb)^2} by no more than its rounding is taken again in compensated arithmetic, as in
 * {@link SphereAabb#test}. The kernels do not validate (radii {@code >= 0}, finite input, differences of centres
 * finite).
 */
public final class SphereSphere {

    /**
     * Relative error bound of {@code |s|^2 - r^2} in {@link #test}, with {@code s} and {@code r} at unit scale: a
     * rounded difference per axis (twice in its square), the square, two sums, a rounded radius sum (twice in its
     * square), its square and the subtraction: seven, with one to spare (the bound of {@link SphereAabb}).
     */
    private static final double PLAIN_BOUND = Geom.gamma(8);
    /** Absolute error of the products in the subnormal range, half a step each: at most this in all. */
    private static final double UNDERFLOW = 4 * Double.MIN_VALUE;

    private SphereSphere() {
    }

    /**
     * Whether two closed spheres overlap: {@code |cb - ca|^2 <= (ra + rb)^2}. Symmetric. Never misses a touch: where
     * the offsets or the radius sum have more than 26 significant bits (a Pythagorean quadruple of offsets, spheres
     * far from the origin, radii of different magnitudes) their squares round, and an exact touch can come out an
     * ulp apart; a miss within that rounding is decided again in compensated arithmetic. The other way it is the plain
     * test: spheres apart by less than the rounding of the squares (at most about {@code 2e-15} of
     * {@code (ra + rb)^2}) may count as touching.
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
        double ux = sx * k;
        double uy = sy * k;
        double uz = sz * k;
        double ur = r * k;
        double d = ux * ux + uy * uy + uz * uz;
        double rr = ur * ur;
        if (d <= rr) {
            return true;
        }
        if (d - rr > PLAIN_BOUND * (d + rr) + UNDERFLOW) {
            return false;
        }
        return touchesAfterRounding(ax, ay, az, ra, bx, by, bz, rb, k, d, rr);
    }

    /**
     * {@link #test}'s and {@link #sweep}'s start within rounding of a touch, out of line so that their common path
     * stays small enough to be inlined into callers' loops: the offset and radius sum scaled by {@code k} again, with
     * the exact errors of their rounding (TwoSum, Knuth) scaled like them (a power of two), for
     * {@link #touchesBeyondRounding}.
     */
    private static boolean touchesAfterRounding(double ax, double ay, double az, double ra,
                                                double bx, double by, double bz, double rb,
                                                double k, double d, double rr) {
        double sx = bx - ax;
        double sy = by - ay;
        double sz = bz - az;
        double r = ra + rb;
        return touchesBeyondRounding(sx * k, k * Geom.sumError(bx, -ax, sx), sy * k, k * Geom.sumError(by, -ay, sy),
                sz * k, k * Geom.sumError(bz, -az, sz), r * k, k * Geom.sumError(ra, rb, r), d, rr);
    }

    /**
     * Whether the vector {@code s + g} is no longer than {@code r + gr}, for a rounded squared length
     * {@code d = |s|^2} above {@code rr = r^2} by no more than its rounding, {@code g} and {@code gr} the exact
     * errors of the rounded components and radius (0 where they are exact), all at unit scale. The squares are taken
     * again in compensated arithmetic (products split by fma, sums by TwoSum; Ogita, Rump and Oishi 2005, Dot2, as
     * {@link SphereAabb}'s touch check), whose error is at most {@code u} of the result plus a few {@code u^2} of the
     * terms: a result below twice {@code PLAIN_BOUND^2} of the terms is a touch. Shared with the closed inside test
     * of {@link Geom#within}.
     */
    static boolean touchesBeyondRounding(double sx, double gx, double sy, double gy, double sz, double gz,
                                         double r, double gr, double d, double rr) {
        double px = sx * sx;
        double py = sy * sy;
        double pz = sz * sz;
        // (s + g)^2 = s^2 + 2 s g + g^2, the last two far below s^2; likewise (r + gr)^2
        double error = Math.fma(sx, sx, -px) + Math.fma(sy, sy, -py) + Math.fma(sz, sz, -pz) - Math.fma(r, r, -rr)
                + (sx * (2 * gx) + gx * gx) + (sy * (2 * gy) + gy * gy) + (sz * (2 * gz) + gz * gz)
                - (r * (2 * gr) + gr * gr);
        return Geom.compensatedSum(px, py, pz, -rr, error) <= 2 * PLAIN_BOUND * (PLAIN_BOUND * (d + rr)) + UNDERFLOW;
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
     * pair within a few ulps of tangency may be reported either way, except at the end: spheres whose end positions
     * ({@code a + va}, {@code b + vb}, each rounded once) touch by {@link #test} are in contact at 1 at the latest,
     * grazing or not, where the root comes out a few ulps beyond 1 or none is found (as is a root within a few ulps
     * beyond it).
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
        double ss = sx * sx + sy * sy + sz * sz;
        double rr = r * r;
        double c = ss - rr;
        // in contact at the start as test decides it: an exact touch whose squares round (c an ulp above 0) too
        boolean startInContact = c <= 0.0 || c <= PLAIN_BOUND * (ss + rr) + UNDERFLOW
                && touchesAfterRounding(ax, ay, az, ra, bx, by, bz, rb, ks, ss, rr);
        if (a == 0.0) {
            // no relative motion: in contact for the whole frame or never
            return startInContact ? dest.set(0.0, 1.0) : dest.miss();
        }
        double wx = vy * sz - vz * sy;
        double wy = vz * sx - vx * sz;
        double wz = vx * sy - vy * sx;
        double discriminant = a * r * r - (wx * wx + wy * wy + wz * wz);
        if (startInContact) {
            // overlapping at the start: the later root is the separation time (the roots have opposite signs; for a
            // touch whose c rounded above 0 they have one sign and one lies within rounding of 0: the later one is
            // kept, or 0 by the clamp below)
            double q = Quadratic.q(h, Math.max(discriminant, 0.0));
            double separation = Geom.scalb(h <= 0.0 ? q / a : c / q, toCaller);
            // clamped to [0, 1]; max also turns the -0.0 of a touching start (c = 0) into 0
            return dest.set(0.0, Math.min(Math.max(separation, 0.0), 1.0));
        }
        if (h >= 0.0) {
            // moving apart: closest at u <= 0
            return dest.miss();
        }
        if (discriminant < 0.0) {
            // the paths never come within R, as computed; a pair grazing at u = 1 (a discriminant of 0 rounding
            // negative) is decided by the end positions, as the root beyond 1 below
            return endsInContact(ax, ay, az, ra, vaX, vaY, vaZ, bx, by, bz, rb, vbX, vbY, vbZ) ? dest.set(1.0, 1.0)
                    : dest.miss();
        }
        double q = Quadratic.q(h, discriminant);
        double first = Geom.scalb(c / q, toCaller);
        if (first > 1.0) {
            // the root can come out a few ulps beyond a contact at u = 1 (its terms cancel for a start near contact):
            // within the slab test's robust bound (Ize 2013), or with the end positions touching, it is that contact
            return Geom.justBeyond(first, 1.0)
                    || endsInContact(ax, ay, az, ra, vaX, vaY, vaZ, bx, by, bz, rb, vbX, vbY, vbZ)
                    ? dest.set(1.0, 1.0) : dest.miss();
        }
        // at a grazing pass (discriminant near 0) c / q and q / a are one root reached through differently rounded
        // terms, so the later can come out a few ulps before the first: the interval stays ordered
        return dest.set(first, Math.max(first, Math.min(Geom.scalb(q / a, toCaller), 1.0)));
    }

    /** Whether the end positions {@code a + va} and {@code b + vb} (each rounded once) are finite and touch. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static boolean endsInContact(double ax, double ay, double az, double ra, double vaX, double vaY,
                                         double vaZ, double bx, double by, double bz, double rb, double vbX,
                                         double vbY, double vbZ) {
        double ex = ax + vaX;
        double ey = ay + vaY;
        double ez = az + vaZ;
        double fx = bx + vbX;
        double fy = by + vbY;
        double fz = bz + vbZ;
        return Geom.isFinite(ex, ey, ez) && Geom.isFinite(fx, fy, fz) && test(ex, ey, ez, ra, fx, fy, fz, rb);
    }
}
