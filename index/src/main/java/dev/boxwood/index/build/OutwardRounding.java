package dev.boxwood.index.build;

/**
 * Conversion of absolute double coordinates to floats relative to a double origin, rounded outward so that a
 * float box always contains the double box it stands for.
 *
 * <p>The difference {@code x - origin} is computed exactly as an unevaluated double pair (Knuth's TwoSum), so
 * the result is the largest float {@code <=} (for {@link #floatBelow}) or the smallest float {@code >=} (for
 * {@link #floatAbove}) the exact real difference. Large worlds keep float precision near their origin and
 * never lose containment far from it (Jolt's "outward rounded" double-to-float boxes).
 */
public final class OutwardRounding {

    private OutwardRounding() {
    }

    /**
     * Largest float not greater than the exact value of {@code value - origin}.
     *
     * @param value  an absolute coordinate (finite)
     * @param origin the origin the float is relative to (finite)
     * @return a float {@code f} with {@code origin + f <= value} in exact arithmetic
     */
    public static float floatBelow(double value, double origin) {
        double d = value - origin;
        double err = twoSumError(value, -origin, d);
        float f = (float) d;
        if ((double) f > d || ((double) f == d && err < 0.0)) {
            f = Math.nextDown(f);
        }
        return f;
    }

    /**
     * Smallest float not less than the exact value of {@code value - origin}.
     *
     * @param value  an absolute coordinate (finite)
     * @param origin the origin the float is relative to (finite)
     * @return a float {@code f} with {@code origin + f >= value} in exact arithmetic
     */
    public static float floatAbove(double value, double origin) {
        double d = value - origin;
        double err = twoSumError(value, -origin, d);
        float f = (float) d;
        if ((double) f < d || ((double) f == d && err > 0.0)) {
            f = Math.nextUp(f);
        }
        return f;
    }

    /**
     * Converts absolute double boxes to floats relative to an origin, rounded outward.
     *
     * @param boxes   absolute boxes, stride 6: {@code minX, minY, minZ, maxX, maxY, maxZ}; finite, min &lt;= max
     * @param originX origin x
     * @param originY origin y
     * @param originZ origin z
     * @return a new float array of the same length, each box containing its double box
     * @throws IllegalArgumentException if {@code boxes} is not a whole number of valid boxes or an origin is
     *                                  not finite
     */
    public static float[] toFloatBoxes(double[] boxes, double originX, double originY, double originZ) {
        BoxValidation.checkDoubleBoxes(boxes, "boxes");
        BoxValidation.checkFinite(originX, "originX");
        BoxValidation.checkFinite(originY, "originY");
        BoxValidation.checkFinite(originZ, "originZ");
        float[] out = new float[boxes.length];
        for (int i = 0; i < boxes.length; i += 6) {
            out[i] = floatBelow(boxes[i], originX);
            out[i + 1] = floatBelow(boxes[i + 1], originY);
            out[i + 2] = floatBelow(boxes[i + 2], originZ);
            out[i + 3] = floatAbove(boxes[i + 3], originX);
            out[i + 4] = floatAbove(boxes[i + 4], originY);
            out[i + 5] = floatAbove(boxes[i + 5], originZ);
        }
        return out;
    }

    // Knuth TwoSum: a + b == s + error exactly, for any doubles without overflow.
    private static double twoSumError(double a, double b, double s) {
        double bVirtual = s - a;
        double aVirtual = s - bVirtual;
        return (a - aVirtual) + (b - bVirtual);
    }
}
