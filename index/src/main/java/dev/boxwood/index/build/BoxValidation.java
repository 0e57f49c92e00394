package dev.boxwood.index.build;

import dev.boxwood.geom.BoxMessages;
import dev.boxwood.query.OutwardFloat;

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
        checkDoubleBoxes(boxes, boxes.length / 6, 0, name);
    }

    /**
     * Checks the first {@code count} boxes of a chunk of a larger input; messages name the object's index in the
     * whole input ({@code firstObject + j}), so a chunked reader reports the same index as a whole-array check.
     */
    static void checkDoubleBoxes(double[] chunk, int count, int firstObject, String name) {
        for (int j = 0; j < count; j++) {
            int i = 6 * j;
            for (int a = 0; a < 3; a++) {
                checkInterval(chunk[i + a], chunk[i + 3 + a], firstObject + j, a, name);
            }
        }
    }

    /**
     * Checks that the first {@code count} boxes of a chunk (already checked as above) can be stored relative to
     * the origin ({@link OutwardFloat#storable}); messages name the object as {@link #checkDoubleBoxes} does.
     */
    static void checkStorable(double[] chunk, int count, int firstObject, double[] origin, String name) {
        for (int j = 0; j < count; j++) {
            int i = 6 * j;
            for (int a = 0; a < 3; a++) {
                if (!OutwardFloat.storable(chunk[i + a], origin[a])
                        || !OutwardFloat.storable(chunk[i + 3 + a], origin[a])) {
                    throw BoxMessages.beyond(name + ": box " + (firstObject + j), a, chunk[i + a],
                            chunk[i + 3 + a], OutwardFloat.MAX_OFFSET, "the origin " + origin[a]);
                }
            }
        }
    }

    /** Checks float boxes relative to their origin: finite, ordered and within {@link OutwardFloat#MAX_STORED}. */
    static void checkFloatBoxes(float[] boxes, String name) {
        checkShape(boxes == null ? -1 : boxes.length, name);
        for (int i = 0; i < boxes.length; i += 6) {
            for (int a = 0; a < 3; a++) {
                float lo = boxes[i + a];
                float hi = boxes[i + 3 + a];
                if (!(Float.isFinite(lo) && Float.isFinite(hi) && lo <= hi)) {
                    throw BoxMessages.invalid(name + ": box " + i / 6, a, lo, hi);
                }
                if (!OutwardFloat.withinStoredRange(lo) || !OutwardFloat.withinStoredRange(hi)) {
                    throw BoxMessages.beyond(name + ": box " + i / 6, a, lo, hi, OutwardFloat.MAX_OFFSET, "its origin");
                }
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

    private static void checkInterval(double lo, double hi, int object, int axis, String name) {
        if (!(Double.isFinite(lo) && Double.isFinite(hi) && lo <= hi)) {
            throw BoxMessages.invalid(name + ": box " + object, axis, lo, hi);
        }
    }
}
