package dev.boxwood.geom;

/**
 * Immutable closed oriented box: a centre, three orthonormal axes and a half extent along each, validated. The
 * axes must be unit length and mutually orthogonal within {@link #ORTHONORMAL_TOLERANCE} (on every
 * {@code |axis_i · axis_j - delta_ij|}); they are then re-orthonormalized (Gram-Schmidt, in order 0, 1, 2) so the
 * kernels see axes orthonormal to double precision. Half extents must be finite and {@code >= 0}. The kernels take
 * the box in {@link ObbLayout}, written by {@link #writeTo}.
 */
public final class Obb {

    /** Largest accepted deviation of the axes from orthonormal; covers axes built in float. */
    public static final double ORTHONORMAL_TOLERANCE = 1e-5;

    private final double[] data = new double[ObbLayout.STRIDE];

    /**
     * An oriented box.
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param axis0x axis 0 x
     * @param axis0y axis 0 y
     * @param axis0z axis 0 z
     * @param axis1x axis 1 x
     * @param axis1y axis 1 y
     * @param axis1z axis 1 z
     * @param axis2x axis 2 x
     * @param axis2y axis 2 y
     * @param axis2z axis 2 z
     * @param half0 half extent along axis 0
     * @param half1 half extent along axis 1
     * @param half2 half extent along axis 2
     * @throws IllegalArgumentException naming the argument: a non-finite coordinate, a negative half extent, or
     *                                  axes that are not orthonormal within the tolerance
     */
    public Obb(double cx, double cy, double cz,
               double axis0x, double axis0y, double axis0z,
               double axis1x, double axis1y, double axis1z,
               double axis2x, double axis2y, double axis2z,
               double half0, double half1, double half2) {
        data[0] = Check.finite(cx, "cx");
        data[1] = Check.finite(cy, "cy");
        data[2] = Check.finite(cz, "cz");
        double[] a = {axis0x, axis0y, axis0z, axis1x, axis1y, axis1z, axis2x, axis2y, axis2z};
        checkAxes("", a, 0);
        orthonormalize(a, 0);
        System.arraycopy(a, 0, data, ObbLayout.AXES, 9);
        data[ObbLayout.HALF_EXTENTS] = Check.nonNegative(half0, "half0");
        data[ObbLayout.HALF_EXTENTS + 1] = Check.nonNegative(half1, "half1");
        data[ObbLayout.HALF_EXTENTS + 2] = Check.nonNegative(half2, "half2");
    }

    /**
     * Gram-Schmidt in place, in order 0, 1, 2, on the nine axis values at {@code at}: axis i minus its components
     * along the axes before it, normalized.
     */
    private static void orthonormalize(double[] a, int at) {
        for (int i = 0; i < 3; i++) {
            int ai = at + 3 * i;
            for (int j = 0; j < i; j++) {
                int aj = at + 3 * j;
                double dot = a[ai] * a[aj] + a[ai + 1] * a[aj + 1] + a[ai + 2] * a[aj + 2];
                for (int k = 0; k < 3; k++) {
                    a[ai + k] -= dot * a[aj + k];
                }
            }
            double length = Math.sqrt(a[ai] * a[ai] + a[ai + 1] * a[ai + 1] + a[ai + 2] * a[ai + 2]);
            for (int k = 0; k < 3; k++) {
                a[ai + k] /= length;
            }
        }
    }

    /**
     * Copies a box in {@link ObbLayout} that {@link #validate} accepted into {@code dest[0 ..]}, with its axes
     * re-orthonormalized as the constructor does them and its centre minus an origin: what the queries of an index
     * test against. The kernels take the axes as exactly orthonormal, and {@link #validate} lets them deviate by up
     * to {@link #ORTHONORMAL_TOLERANCE}, far more than the kernels' slack covers. Allocation-free.
     *
     * @param src the validated box
     * @param offset where it starts
     * @param originX subtracted from the centre's x
     * @param originY subtracted from the centre's y
     * @param originZ subtracted from the centre's z
     * @param dest receives the box at 0; at least {@link ObbLayout#STRIDE} long; may not overlap {@code src}'s box
     */
    public static void copyForQuery(double[] src, int offset, double originX, double originY, double originZ,
                                    double[] dest) {
        System.arraycopy(src, offset, dest, 0, ObbLayout.STRIDE);
        dest[0] -= originX;
        dest[1] -= originY;
        dest[2] -= originZ;
        orthonormalize(dest, ObbLayout.AXES);
    }

    /**
     * An oriented box with the coordinate axes enclosing the axis-aligned box: the same solid when its centre is
     * representable, else larger by at most an ulp of the coordinates on an axis (the rounded centre with half
     * extents grown until both faces are reached), so a test against it never misses what the box touches.
     *
     * @param box the box
     * @return the oriented box with identity axes
     * @throws IllegalArgumentException if a half extent overflows (a box wider than the largest double)
     */
    public static Obb of(Aabb box) {
        double cx = centre(box.minX(), box.maxX());
        double cy = centre(box.minY(), box.maxY());
        double cz = centre(box.minZ(), box.maxZ());
        return new Obb(cx, cy, cz, 1, 0, 0, 0, 1, 0, 0, 0, 1, halfExtent(cx, box.minX(), box.maxX()),
                halfExtent(cy, box.minY(), box.maxY()), halfExtent(cz, box.minZ(), box.maxZ()));
    }

    /** The midpoint, halved before the sum so that it cannot overflow. */
    private static double centre(double min, double max) {
        return 0.5 * min + 0.5 * max;
    }

    /**
     * The smallest half extent from the (rounded) centre that reaches both bounds: the exact half width can fall
     * half an ulp short on one side when the midpoint is not representable. The larger distance to a bound is
     * within an ulp of that, so at most a step or two up remain.
     */
    private static double halfExtent(double centre, double min, double max) {
        double h = Math.max(centre - min, max - centre);
        while (h < Double.POSITIVE_INFINITY && (centre - h > min || centre + h < max)) {
            h = Math.nextUp(h);
        }
        return h;
    }

    /**
     * Reads and validates a box stored in {@link ObbLayout}, as the constructor does: for entry points that take
     * oriented boxes as flat arrays.
     *
     * @param src array holding the box
     * @param offset where the box starts
     * @return the validated box (axes re-orthonormalized)
     * @throws IllegalArgumentException as the constructor
     */
    public static Obb read(double[] src, int offset) {
        int a = offset + ObbLayout.AXES;
        int h = offset + ObbLayout.HALF_EXTENTS;
        return new Obb(src[offset], src[offset + 1], src[offset + 2],
                src[a], src[a + 1], src[a + 2], src[a + 3], src[a + 4], src[a + 5], src[a + 6], src[a + 7], src[a + 8],
                src[h], src[h + 1], src[h + 2]);
    }

    /**
     * Checks a box stored in {@link ObbLayout} as the constructor does (finite centre and axes, axes orthonormal
     * within {@link #ORTHONORMAL_TOLERANCE}, half extents finite and {@code >= 0}), without reading it into an
     * object and without allocating unless it throws: for entry points that take oriented boxes as flat arrays
     * and pass them on to the kernels. The axes are not re-orthonormalized.
     *
     * @param name the argument's name, at the start of every message
     * @param src array holding the box
     * @param offset where the box starts
     * @throws IllegalArgumentException naming {@code name} and the offending value: a null array, too few values
     *     from {@code offset}, a non-finite value, a negative half extent or axes that are not orthonormal
     */
    public static void validate(String name, double[] src, int offset) {
        if (src == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (offset < 0 || offset > src.length - ObbLayout.STRIDE) {
            throw new IllegalArgumentException(name + " must hold " + ObbLayout.STRIDE + " doubles from offset "
                    + offset + ", length " + src.length);
        }
        for (int i = 0; i < 3; i++) {
            double c = src[offset + i];
            if (!Double.isFinite(c)) {
                throw new IllegalArgumentException(name + " c" + "xyz".charAt(i) + " must be finite, was " + c);
            }
            double h = src[offset + ObbLayout.HALF_EXTENTS + i];
            if (!(h >= 0.0) || !Double.isFinite(h)) {
                throw new IllegalArgumentException(name + " half" + i + " must be finite and >= 0, was " + h);
            }
        }
        checkAxes(name, src, offset + ObbLayout.AXES);
    }

    /**
     * The axes' checks shared by the constructor and {@link #validate}: finite, unit length and mutually orthogonal
     * within the tolerance. {@code name} (empty for the constructor) starts each message; strings are built only
     * on failure.
     */
    private static void checkAxes(String name, double[] a, int at) {
        for (int i = 0; i < 9; i++) {
            if (!Double.isFinite(a[at + i])) {
                throw new IllegalArgumentException(prefix(name) + "axis" + i / 3 + "xyz".charAt(i % 3)
                        + " must be finite, was " + a[at + i]);
            }
        }
        for (int i = 0; i < 3; i++) {
            for (int j = i; j < 3; j++) {
                int u = at + 3 * i;
                int v = at + 3 * j;
                double dot = a[u] * a[v] + a[u + 1] * a[v + 1] + a[u + 2] * a[v + 2];
                double expected = i == j ? 1.0 : 0.0;
                if (!(Math.abs(dot - expected) <= ORTHONORMAL_TOLERANCE)) {
                    throw new IllegalArgumentException(prefix(name) + (i == j
                            ? "axis" + i + " must have unit length, has squared length " + dot
                            : "axis" + i + " and axis" + j + " must be orthogonal, dot product " + dot));
                }
            }
        }
    }

    private static String prefix(String name) {
        return name.isEmpty() ? "" : name + " ";
    }

    /**
     * Writes this box in {@link ObbLayout} at {@code offset}.
     *
     * @param dest destination array, at least {@code offset + ObbLayout.STRIDE} long
     * @param offset where the box starts
     */
    public void writeTo(double[] dest, int offset) {
        System.arraycopy(data, 0, dest, offset, ObbLayout.STRIDE);
    }

    /**
     * One value of the layout.
     *
     * @param index {@code 0..ObbLayout.STRIDE - 1}, see {@link ObbLayout}
     * @return the value
     */
    public double get(int index) {
        return data[index];
    }

    /**
     * Whether this box overlaps another ({@link ObbObb#test}).
     *
     * @param other the other box
     * @return true if they overlap (touching counts)
     */
    public boolean overlaps(Obb other) {
        return ObbObb.test(data, 0, other.data, 0);
    }

    /**
     * Whether this box overlaps an axis-aligned box ({@link ObbAabb#test}).
     *
     * @param box the axis-aligned box
     * @return true if they overlap (touching counts)
     */
    public boolean overlaps(Aabb box) {
        return ObbAabb.test(data, 0, box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ());
    }

    /**
     * The enclosing axis-aligned box ({@link ObbAabb#enclose}, rounded outwards).
     *
     * @return a new box containing this one
     * @throws IllegalArgumentException if this box reaches beyond the double range, where no finite box encloses
     *                                  it (an axis-aligned box of half extent near {@link Double#MAX_VALUE}, or a
     *                                  rotated one about 0.6 of it)
     */
    public Aabb enclosingAabb() {
        double[] b = new double[6];
        ObbAabb.enclose(data, 0, b, 0);
        for (double v : b) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("the axis-aligned box enclosing this oriented box reaches beyond"
                        + " the double range: [" + b[0] + ", " + b[3] + "] x [" + b[1] + ", " + b[4] + "] x [" + b[2]
                        + ", " + b[5] + "]");
            }
        }
        return new Aabb(b[0], b[1], b[2], b[3], b[4], b[5]);
    }
}
