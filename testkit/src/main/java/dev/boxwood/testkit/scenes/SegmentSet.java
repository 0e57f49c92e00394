package dev.boxwood.testkit.scenes;

/**
 * A fixed number of segments stored as parallel {@code double[]} arrays: segment {@code i} is
 * {@code p(t) = origin + t * translation} for {@code t} in {@code [0, 1]} (a fraction {@code t} is in units
 * of the translation vector, not of length). The arrays are exposed for speed; this class does not copy
 * them.
 */
public final class SegmentSet {

    /** Start x, one per segment. */
    public final double[] originX;
    /** Start y, one per segment. */
    public final double[] originY;
    /** Start z, one per segment. */
    public final double[] originZ;
    /** Translation x (end minus start), one per segment. */
    public final double[] translationX;
    /** Translation y (end minus start), one per segment. */
    public final double[] translationY;
    /** Translation z (end minus start), one per segment. */
    public final double[] translationZ;

    /**
     * Creates {@code size} zero-length segments at the origin, to be set.
     *
     * @param size number of segments; not negative
     * @throws IllegalArgumentException if {@code size} is negative
     */
    public SegmentSet(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
        originX = new double[size];
        originY = new double[size];
        originZ = new double[size];
        translationX = new double[size];
        translationY = new double[size];
        translationZ = new double[size];
    }

    /**
     * Number of segments.
     *
     * @return the number of segments
     */
    public int size() {
        return originX.length;
    }

    /**
     * Sets segment {@code i}. Does not validate.
     *
     * @param i segment index
     * @param ox start x
     * @param oy start y
     * @param oz start z
     * @param tx translation x
     * @param ty translation y
     * @param tz translation z
     */
    public void set(int i, double ox, double oy, double oz, double tx, double ty, double tz) {
        originX[i] = ox;
        originY[i] = oy;
        originZ[i] = oz;
        translationX[i] = tx;
        translationY[i] = ty;
        translationZ[i] = tz;
    }

    /**
     * Length of segment {@code i} (the norm of its translation).
     *
     * @param i segment index
     * @return the length in world units
     */
    public double length(int i) {
        double tx = translationX[i];
        double ty = translationY[i];
        double tz = translationZ[i];
        return Math.sqrt(tx * tx + ty * ty + tz * tz);
    }

    /** @return the segments' starts, 3 per segment ({@code x, y, z}), as batch queries take them */
    public double[] starts() {
        double[] out = new double[3 * size()];
        for (int i = 0; i < size(); i++) {
            out[3 * i] = originX[i];
            out[3 * i + 1] = originY[i];
            out[3 * i + 2] = originZ[i];
        }
        return out;
    }

    /** @return the segments' ends (start plus translation, in double), 3 per segment */
    public double[] ends() {
        double[] out = new double[3 * size()];
        for (int i = 0; i < size(); i++) {
            out[3 * i] = originX[i] + translationX[i];
            out[3 * i + 1] = originY[i] + translationY[i];
            out[3 * i + 2] = originZ[i] + translationZ[i];
        }
        return out;
    }

    @Override
    public String toString() {
        return "SegmentSet[" + size() + " segments]";
    }
}
