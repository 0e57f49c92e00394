package dev.boxwood.testkit.scenes;

import java.util.Arrays;

/**
 * A fixed number of axis-aligned boxes stored as six parallel {@code double[]} arrays (structure of
 * arrays): box {@code i} is {@code [minX[i], maxX[i]] x [minY[i], maxY[i]] x [minZ[i], maxZ[i]]}. Boxes are
 * closed; {@code min <= max} on every axis for the boxes this package generates. The arrays are exposed for
 * speed and may be written by the caller (e.g. a moving workload); this class does not copy them.
 */
public final class BoxSet {

    /** Stride of the interleaved layout returned by {@link #toInterleaved()}. */
    public static final int STRIDE = 6;

    /** Lower x bounds, one per box. */
    public final double[] minX;
    /** Lower y bounds, one per box. */
    public final double[] minY;
    /** Lower z bounds, one per box. */
    public final double[] minZ;
    /** Upper x bounds, one per box. */
    public final double[] maxX;
    /** Upper y bounds, one per box. */
    public final double[] maxY;
    /** Upper z bounds, one per box. */
    public final double[] maxZ;

    /**
     * Creates {@code size} boxes, all the point box at the origin until set.
     *
     * @param size number of boxes; not negative
     * @throws IllegalArgumentException if {@code size} is negative
     */
    public BoxSet(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
        minX = new double[size];
        minY = new double[size];
        minZ = new double[size];
        maxX = new double[size];
        maxY = new double[size];
        maxZ = new double[size];
    }

    /**
     * Number of boxes.
     *
     * @return the number of boxes
     */
    public int size() {
        return minX.length;
    }

    /**
     * Sets box {@code i}. Does not validate (a generator's inner loop).
     *
     * @param i box index
     * @param x0 lower x
     * @param y0 lower y
     * @param z0 lower z
     * @param x1 upper x
     * @param y1 upper y
     * @param z1 upper z
     */
    public void set(int i, double x0, double y0, double z0, double x1, double y1, double z1) {
        minX[i] = x0;
        minY[i] = y0;
        minZ[i] = z0;
        maxX[i] = x1;
        maxY[i] = y1;
        maxZ[i] = z1;
    }

    /**
     * Closed overlap of box {@code i} with the query box (touching counts).
     *
     * @param i box index
     * @param x0 query lower x
     * @param y0 query lower y
     * @param z0 query lower z
     * @param x1 query upper x
     * @param y1 query upper y
     * @param z1 query upper z
     * @return true if they share at least one point
     */
    public boolean testOverlap(int i, double x0, double y0, double z0, double x1, double y1, double z1) {
        return minX[i] <= x1 && maxX[i] >= x0
                && minY[i] <= y1 && maxY[i] >= y0
                && minZ[i] <= z1 && maxZ[i] >= z0;
    }

    /**
     * A deep copy (new arrays).
     *
     * @return the copy
     */
    public BoxSet copy() {
        BoxSet c = new BoxSet(size());
        copyInto(c);
        return c;
    }

    /**
     * Copies every box into {@code dest}, which must have the same size (e.g. to reset a moving world).
     *
     * @param dest the destination set
     * @throws IllegalArgumentException if the sizes differ
     */
    public void copyInto(BoxSet dest) {
        if (dest.size() != size()) {
            throw new IllegalArgumentException("dest has " + dest.size() + " boxes, expected " + size());
        }
        int n = size();
        System.arraycopy(minX, 0, dest.minX, 0, n);
        System.arraycopy(minY, 0, dest.minY, 0, n);
        System.arraycopy(minZ, 0, dest.minZ, 0, n);
        System.arraycopy(maxX, 0, dest.maxX, 0, n);
        System.arraycopy(maxY, 0, dest.maxY, 0, n);
        System.arraycopy(maxZ, 0, dest.maxZ, 0, n);
    }

    /**
     * The boxes in one array of stride {@link #STRIDE}:
     * {@code minX, minY, minZ, maxX, maxY, maxZ} of box 0, then of box 1, and so on.
     *
     * @return a new array of {@code 6 * size()} doubles
     */
    public double[] toInterleaved() {
        int n = size();
        double[] out = new double[n * STRIDE];
        for (int i = 0, o = 0; i < n; i++, o += STRIDE) {
            out[o] = minX[i];
            out[o + 1] = minY[i];
            out[o + 2] = minZ[i];
            out[o + 3] = maxX[i];
            out[o + 4] = maxY[i];
            out[o + 5] = maxZ[i];
        }
        return out;
    }

    /**
     * The union of all boxes as {@code {minX, minY, minZ, maxX, maxY, maxZ}}; for an empty set every lower
     * bound is {@code +infinity} and every upper bound {@code -infinity}.
     *
     * @return a new array of 6 doubles
     */
    public double[] bounds() {
        double[] b = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int i = 0, n = size(); i < n; i++) {
            b[0] = Math.min(b[0], minX[i]);
            b[1] = Math.min(b[1], minY[i]);
            b[2] = Math.min(b[2], minZ[i]);
            b[3] = Math.max(b[3], maxX[i]);
            b[4] = Math.max(b[4], maxY[i]);
            b[5] = Math.max(b[5], maxZ[i]);
        }
        return b;
    }

    /**
     * The largest edge length over all boxes, per axis, as {@code {x, y, z}} (0 for an empty set).
     *
     * @return a new array of 3 doubles
     */
    public double[] maxExtents() {
        double[] e = new double[3];
        for (int i = 0, n = size(); i < n; i++) {
            e[0] = Math.max(e[0], maxX[i] - minX[i]);
            e[1] = Math.max(e[1], maxY[i] - minY[i]);
            e[2] = Math.max(e[2], maxZ[i] - minZ[i]);
        }
        return e;
    }

    /**
     * Two sets are equal when they hold the same boxes in the same order (bitwise equal doubles).
     *
     * @param o another object
     * @return true if equal
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BoxSet)) {
            return false;
        }
        BoxSet b = (BoxSet) o;
        return Arrays.equals(minX, b.minX) && Arrays.equals(minY, b.minY) && Arrays.equals(minZ, b.minZ)
                && Arrays.equals(maxX, b.maxX) && Arrays.equals(maxY, b.maxY) && Arrays.equals(maxZ, b.maxZ);
    }

    @Override
    public int hashCode() {
        int h = Arrays.hashCode(minX);
        h = 31 * h + Arrays.hashCode(minY);
        h = 31 * h + Arrays.hashCode(minZ);
        h = 31 * h + Arrays.hashCode(maxX);
        h = 31 * h + Arrays.hashCode(maxY);
        return 31 * h + Arrays.hashCode(maxZ);
    }

    @Override
    public String toString() {
        return "BoxSet[" + size() + " boxes]";
    }
}
