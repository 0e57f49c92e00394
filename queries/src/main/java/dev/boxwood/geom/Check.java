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

    static void ordered(double min, double max, String minName, String maxName) {
        finite(min, minName);
        finite(max, maxName);
        if (min > max) {
            throw new IllegalArgumentException(minName + " (" + min + ") must be <= " + maxName + " (" + max + ")");
        }
    }

    /** Length of a vector that must be finite and non-zero. */
    static double nonZeroLength(double x, double y, double z, String name) {
        finite(x, name + ".x");
        finite(y, name + ".y");
        finite(z, name + ".z");
        double length = Math.sqrt(x * x + y * y + z * z);
        if (!(length > 0.0) || !Double.isFinite(length)) {
            throw new IllegalArgumentException(name + " must be a non-zero finite vector, was (" + x + ", " + y
                    + ", " + z + ")");
        }
        return length;
    }
}
