package dev.boxwood.geom;

/** Argument checks of the value types: each failure names the argument. */
final class Check {

    private Check() {
    }

    static double finite(double value, String name) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite, was " + value);
        }
        return value;
    }

    static double nonNegative(double value, String name) {
        finite(value, name);
        if (value < 0.0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + value);
        }
        return value;
    }

    /** A segment's origin and translation finite and its largest fraction finite and {@code >= 0}. */
    static void segment(double ox, double oy, double oz, double dx, double dy, double dz, double maxFraction) {
        finite(ox, "ox");
        finite(oy, "oy");
        finite(oz, "oz");
        finite(dx, "dx");
        finite(dy, "dy");
        finite(dz, "dz");
        nonNegative(maxFraction, "maxFraction");
    }

    /** A box's bounds on one axis finite and ordered, in the wording of every box check ({@link BoxMessages}). */
    static void bounds(int axis, double min, double max) {
        if (!(Double.isFinite(min) && Double.isFinite(max) && min <= max)) {
            throw BoxMessages.invalid("box", axis, min, max);
        }
    }

    /**
     * Normalizes {@code v[0 .. count)} by the length of {@code (v[0], v[1], v[2])} ({@link Geom#normalize}), which
     * must be finite and non-zero.
     */
    static void normalize(double[] v, int count, String name) {
        finite(v[0], name + ".x");
        finite(v[1], name + ".y");
        finite(v[2], name + ".z");
        if (!Geom.normalize(v, 0, count)) {
            throw new IllegalArgumentException(name + " must be a non-zero finite vector, was (" + v[0] + ", " + v[1]
                    + ", " + v[2] + ")");
        }
    }
}
