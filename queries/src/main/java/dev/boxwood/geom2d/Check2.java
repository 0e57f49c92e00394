package dev.boxwood.geom2d;

/** Argument checks of the 2D value types: each failure names the argument and its value. */
final class Check2 {

    private Check2() {
    }

    static void finite(double value, String name) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite, was " + value);
        }
    }

    static void nonNegative(double value, String name) {
        finite(value, name);
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + value);
        }
    }

    static void ordered(double min, String minName, double max, String maxName) {
        if (min > max) {
            throw new IllegalArgumentException(minName + " must be <= " + maxName + ", was " + minName + " = " + min
                    + " > " + maxName + " = " + max);
        }
    }

    /** The midpoint of {@code [min, max]}, by a difference so that it stays accurate far from the origin. */
    static double midpoint(double min, double max) {
        return min + (max - min) * 0.5;
    }
}
