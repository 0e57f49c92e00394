package dev.boxwood.index.build;

/** Argument checks shared by the bulk-build entry points; messages name the argument. */
final class BoxValidation {

    private BoxValidation() {
    }

    static void checkFinite(double value, String name) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite, got " + value);
        }
    }

    static void checkDoubleBoxes(double[] boxes, String name) {
        checkShape(boxes == null ? -1 : boxes.length, name);
        for (int i = 0; i < boxes.length; i += 6) {
            for (int a = 0; a < 3; a++) {
                checkInterval(boxes[i + a], boxes[i + 3 + a], i, a, name);
            }
        }
    }

    static void checkFloatBoxes(float[] boxes, String name) {
        checkShape(boxes == null ? -1 : boxes.length, name);
        for (int i = 0; i < boxes.length; i += 6) {
            for (int a = 0; a < 3; a++) {
                checkInterval(boxes[i + a], boxes[i + 3 + a], i, a, name);
            }
        }
    }

    private static void checkShape(int length, String name) {
        if (length < 0) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (length % 6 != 0) {
            throw new IllegalArgumentException(name + " length must be a multiple of 6, got " + length);
        }
    }

    private static void checkInterval(double lo, double hi, int index, int axis, String name) {
        if (!Double.isFinite(lo) || !Double.isFinite(hi) || !(lo <= hi)) {
            throw new IllegalArgumentException(name + ": box " + (index / 6) + " is not finite or inverted on axis "
                    + axis + ": [" + lo + ", " + hi + "]");
        }
    }
}
