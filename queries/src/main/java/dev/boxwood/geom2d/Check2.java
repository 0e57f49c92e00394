package dev.boxwood.geom2d;

import dev.boxwood.geom.BoxMessages;

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

    /** A rectangle's bounds on one axis (0 x, 1 y) finite and ordered, in the wording of every box check. */
    static void bounds(int axis, double min, double max) {
        if (!(Double.isFinite(min) && Double.isFinite(max) && min <= max)) {
            throw BoxMessages.invalid("rectangle", axis, min, max);
        }
    }

    /** The midpoint of {@code [min, max]}, by a difference so that it stays accurate far from the origin. */
    static double midpoint(double min, double max) {
        return min + (max - min) * 0.5;
    }
}
