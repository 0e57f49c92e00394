package dev.boxwood.geom;

/**
 * Roots of the contact quadratic {@code a t^2 + 2 h t + c = 0} of the sweeps ({@code |m + t d|^2 = r^2}, so
 * {@code a = d·d}, {@code h = d·m}, {@code c = m·m - r^2}), shared by the sphere kernels. The caller passes the
 * reduced discriminant {@code h^2 - a c} in Lagrange's form {@code a r^2 - |d × m|^2}, which does not cancel between
 * two large products. The roots are {@code q / a} and {@code c / q} with
 * {@code q = -(h + sign(h) sqrt(h^2 - a c))}, the form without cancellation (Numerical Recipes 5.6; Haines). No
 * validation: these are inner kernels.
 */
final class Quadratic {

    private Quadratic() {
    }

    /**
     * The cancellation-free {@code q = -(h + sign(h) sqrt(discriminant))}; the roots are {@code q / a} and
     * {@code c / q}.
     *
     * @param h half the linear coefficient
     * @param discriminant {@code h^2 - a c}, {@code >= 0}
     * @return q, of the sign opposite to {@code h} (positive for {@code h = 0})
     */
    static double q(double h, double discriminant) {
        double root = Math.sqrt(discriminant);
        return h <= 0.0 ? root - h : -(h + root);
    }

    /**
     * Entry time {@code t >= 0} of a point that starts outside ({@code c > 0}) and approaches ({@code h < 0}): the
     * smaller root {@code c / q}; {@link Geom#NO_HIT} when it does not move, starts inside or on the surface, moves
     * away, or passes by ({@code discriminant < 0}).
     *
     * @param a {@code d·d}
     * @param h {@code d·m}
     * @param c {@code m·m - r^2}
     * @param discriminant {@code h^2 - a c} in Lagrange's form
     * @return the entry time, or {@link Geom#NO_HIT}
     */
    static double entry(double a, double h, double c, double discriminant) {
        if (a == 0.0 || h >= 0.0 || c <= 0.0 || discriminant < 0.0) {
            return Geom.NO_HIT;
        }
        return c / q(h, discriminant);
    }
}
