package dev.boxwood.geom;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Immutable convex region bounded by up to {@link FrustumAabb#MAX_PLANES} planes: the intersection of their closed
 * inside half-spaces ({@link Plane} convention: positive side outside). A view frustum has six; any convex
 * polyhedron works. Validated through {@link Plane}. The flat plane array the kernels read
 * ({@link FrustumAabb}, {@link SegmentConvex}) is copied out by {@link #planes()}.
 *
 * <p>A camera's frustum, or the part of it behind a screen rectangle, can be built from its view-projection matrix
 * ({@link #fromViewProjection(double[], int, MatrixLayout, ClipDepth)}); for region queries, prepare it with
 * {@code ConvexRegion.of(frustum)}.
 */
public final class Frustum {

    /** How a 4x4 matrix lies in a {@code double[]}: which of its 16 entries holds row {@code r}, column {@code c}. */
    public enum MatrixLayout {
        /**
         * Column by column: row {@code r}, column {@code c} at {@code offset + 4 c + r}, as OpenGL, GLM
         * ({@code value_ptr}) and JOML ({@code Matrix4d.get(double[])}) store a matrix for column vectors. A matrix
         * for row vectors ({@code clip = p M}, DirectXMath) is the transpose, so stored row by row (DirectXMath's
         * {@code XMFLOAT4X4}) it lies exactly as this layout expects.
         */
        COLUMN_MAJOR,
        /**
         * Row by row: row {@code r}, column {@code c} at {@code offset + 4 r + c}, the matrix read as printed (a C
         * {@code double[4][4]} indexed {@code [row][column]}, Eigen's {@code RowMajor}).
         */
        ROW_MAJOR
    }

    /** The depth range of clip space, which decides where a projection matrix puts the near and far planes. */
    public enum ClipDepth {
        /** {@code -w <= z <= w} (normalized depth in {@code [-1, 1]}): OpenGL's default. */
        NEGATIVE_ONE_TO_ONE,
        /**
         * {@code 0 <= z <= w} (normalized depth in {@code [0, 1]}): Direct3D, Vulkan, Metal, and OpenGL with
         * {@code glClipControl(..., GL_ZERO_TO_ONE)}. Reversed-Z (the near plane at depth 1, the far plane at 0)
         * needs nothing else: the volume is the same set of points, only the two depth planes trade names.
         */
        ZERO_TO_ONE
    }

    /** What the messages of {@link #fromViewProjection} call its planes, in the order it makes them. */
    private static final String[] PLANE_NAMES = {"left", "right", "bottom", "top", "near", "far"};

    private final double[] planes;
    /** The planes as given or extracted, scaled exactly ({@link Plane#scaleExactly}): what the box tests decide. */
    private final double[] exactPlanes;

    /**
     * A region from planes.
     *
     * @param planes the bounding planes, 1 to {@link FrustumAabb#MAX_PLANES}, none null
     * @throws IllegalArgumentException if there are no planes, too many, or one is null ("planes")
     */
    public Frustum(Plane... planes) {
        if (planes == null || planes.length == 0 || planes.length > FrustumAabb.MAX_PLANES) {
            throw new IllegalArgumentException("planes must hold 1 to " + FrustumAabb.MAX_PLANES + " planes, was "
                    + (planes == null ? "null" : planes.length));
        }
        this.planes = new double[planes.length * FrustumAabb.PLANE_STRIDE];
        for (int i = 0; i < planes.length; i++) {
            Plane p = planes[i];
            if (p == null) {
                throw new IllegalArgumentException("planes[" + i + "] must not be null");
            }
            int at = i * FrustumAabb.PLANE_STRIDE;
            this.planes[at] = p.nx();
            this.planes[at + 1] = p.ny();
            this.planes[at + 2] = p.nz();
            this.planes[at + 3] = p.d();
        }
        this.exactPlanes = this.planes;
    }

    private Frustum(double[] planes, double[] exactPlanes) {
        this.planes = planes;
        this.exactPlanes = exactPlanes;
    }

    /**
     * The view frustum of a camera from its view-projection matrix {@code M}, which takes a world point
     * {@code p = (x, y, z)} to clip space as a column vector: {@code (xc, yc, zc, wc) = M (x, y, z, 1)}. The frustum
     * is the set of points whose clip coordinates satisfy {@code -wc <= xc <= wc}, {@code -wc <= yc <= wc} and the
     * depth range ({@code -wc <= zc <= wc} or {@code 0 <= zc <= wc}), closed like every region here: six planes,
     * each one of those inequalities (Gribb and Hartmann 2001, "Fast Extraction of Viewing Frustum Planes from the
     * World-View-Projection Matrix"), in the order left, right, bottom, top, near, far (under reversed-Z the fifth
     * is the far plane and the sixth the near one). Each plane is normalized as {@link Plane} does, its normal
     * pointing out of the frustum, so {@link Plane#distance} is a true distance; the inequalities themselves are kept
     * too ({@link #exactPlanes()}), which {@link #classify} and {@code ConvexRegion.of} decide, so a point exactly on
     * a clip plane (as the matrix's rows, each combination rounded once, give it) is inside. A plane at infinity, as an
     * infinite projection puts its far plane (OpenGL's, or a reversed-Z zero-to-one one), has a zero normal and
     * bounds nothing: it is left out, and the frustum has five planes. Such a frustum is unbounded: region queries
     * take it in the plane-test modes ({@code WINDOW}, {@code CROSSING_CONSERVATIVE}), not the exact
     * {@code CROSSING}.
     *
     * <p>The same as {@link #fromViewProjection(double[], int, MatrixLayout, ClipDepth, double, double, double,
     * double) fromViewProjection(matrix, offset, layout, depth, 0, 0, 1, 1)}.
     *
     * @param matrix holds the matrix's 16 entries from {@code offset}
     * @param offset where the matrix starts, {@code >= 0}
     * @param layout how the entries lie: {@link MatrixLayout#COLUMN_MAJOR} for OpenGL, GLM, JOML and DirectXMath
     * @param depth the clip space's depth range: {@link ClipDepth#NEGATIVE_ONE_TO_ONE} for OpenGL,
     *              {@link ClipDepth#ZERO_TO_ONE} for Direct3D, Vulkan and Metal
     * @return the frustum, with six planes (five for an infinite projection)
     * @throws IllegalArgumentException naming the argument: a null array, layout or depth, an offset that leaves
     *                                  fewer than 16 entries, a NaN or infinite entry (named by index, row and
     *                                  column), a singular matrix (determinant exactly 0), a plane that overflows the
     *                                  double range or whose offset does once divided by its normal's length, or a
     *                                  plane at infinity that nothing lies inside (the negated matrix of an infinite
     *                                  projection)
     */
    public static Frustum fromViewProjection(double[] matrix, int offset, MatrixLayout layout, ClipDepth depth) {
        return fromViewProjection(matrix, offset, layout, depth, 0, 0, 1, 1);
    }

    /**
     * The part of a camera's view frustum behind a screen rectangle (a marquee), from its view-projection matrix:
     * {@link #fromViewProjection(double[], int, MatrixLayout, ClipDepth)} with the left, right, bottom and top
     * planes moved to the rectangle's sides. Screen points are in normalized viewport coordinates, as in
     * {@code PerspectiveCamera}: {@code u} from 0 at the left edge ({@code xc = -wc}) to 1 at the right edge, {@code v}
     * from 0 at the bottom edge ({@code yc = -wc}) to 1 at the top edge, so the sides are
     * {@code xc >= (2 u - 1) wc} and so on. From pixels {@code (px, py)} counted from the top left of a
     * {@code w x h} viewport: {@code u = px / w}, {@code v = 1 - py / h} where clip-space y points up (OpenGL,
     * Direct3D, Metal), {@code v = py / h} where it points down (Vulkan without a flipped projection).
     * Coordinates beyond {@code [0, 1]} reach past the viewport and are allowed; the corners may come in either
     * order. A rectangle of zero width or height gives a flat region: in the crossing modes it selects every object
     * along the pick ray through that point, so treat a click without a drag as a pick.
     *
     * @param matrix holds the matrix's 16 entries from {@code offset}
     * @param offset where the matrix starts, {@code >= 0}
     * @param layout how the entries lie
     * @param depth the clip space's depth range
     * @param u0 one corner's horizontal coordinate
     * @param v0 one corner's vertical coordinate
     * @param u1 the other corner's horizontal coordinate
     * @param v1 the other corner's vertical coordinate
     * @return the frustum, with six planes (five for an infinite projection)
     * @throws IllegalArgumentException naming the argument, as {@link #fromViewProjection(double[], int,
     *                                  MatrixLayout, ClipDepth)} does; also for a NaN or infinite coordinate, or one
     *                                  so far off screen that its side plane overflows the double range
     */
    public static Frustum fromViewProjection(double[] matrix, int offset, MatrixLayout layout, ClipDepth depth,
                                             double u0, double v0, double u1, double v1) {
        double[] m = rowMajorCopy(matrix, offset, layout);
        if (depth == null) {
            throw new IllegalArgumentException("depth must not be null");
        }
        Check.finite(u0, "u0");
        Check.finite(v0, "v0");
        Check.finite(u1, "u1");
        Check.finite(v1, "v1");
        if (singular(m)) {
            throw new IllegalArgumentException("matrix is singular (its determinant is exactly 0), so it is no "
                    + "camera's view-projection (a projection with a near distance of 0 makes one)");
        }
        // each side of the rectangle in normalized device coordinates: xc >= a wc is (row 0 - a row 3) . p >= 0
        boolean uOrdered = u0 <= u1;
        boolean vOrdered = v0 <= v1;
        String[] sides = {uOrdered ? "u0" : "u1", uOrdered ? "u1" : "u0", vOrdered ? "v0" : "v1",
            vOrdered ? "v1" : "v0"};
        double[] screen = {Math.min(u0, u1), Math.max(u0, u1), Math.min(v0, v1), Math.max(v0, v1)};
        double[] planes = new double[6 * FrustumAabb.PLANE_STRIDE];
        double[] exact = new double[6 * FrustumAabb.PLANE_STRIDE];
        int count = 0;
        for (int i = 0; i < 6; i++) {
            // the plane's clip-space inequality c . (x, y, z, 1) >= 0, c = sign * (row k) + t * (row 3)
            int row;
            double sign;
            double t;
            String coordinate = null;
            if (i < 4) {
                row = i / 2;
                coordinate = sides[i];
                sign = i % 2 == 0 ? 1 : -1;
                t = -sign * (2 * screen[i] - 1);
            } else {
                row = 2;
                sign = i == 4 ? 1 : -1;
                t = i == 4 && depth == ClipDepth.ZERO_TO_ONE ? 0 : 1;
            }
            double cx = sign * m[4 * row] + t * m[12];
            double cy = sign * m[4 * row + 1] + t * m[13];
            double cz = sign * m[4 * row + 2] + t * m[14];
            double cw = sign * m[4 * row + 3] + t * m[15];
            if (!(Double.isFinite(cx) && Double.isFinite(cy) && Double.isFinite(cz) && Double.isFinite(cw))) {
                throw new IllegalArgumentException("the " + PLANE_NAMES[i] + " plane overflows the double range ("
                        + cx + ", " + cy + ", " + cz + ", " + cw + ")"
                        + (coordinate == null ? ": matrix entries too large" : " for " + coordinate + " = "
                        + screen[i] + " (too far off screen) with this matrix"));
            }
            if (cx == 0 && cy == 0 && cz == 0) {
                if (cw > 0) {
                    // a plane at infinity (an infinite projection's far plane): every point lies inside it
                    continue;
                }
                throw new IllegalArgumentException("the matrix puts no point inside its " + PLANE_NAMES[i]
                        + " plane: the plane's clip-space inequality reads " + cw + " >= 0 at every point");
            }
            Plane plane;
            try {
                // n . p <= d with n = -(cx, cy, cz), d = cw: the normal points out, to where the inequality fails
                // (0 - c rather than -c, so that a zero component is 0.0, not -0.0)
                plane = new Plane(0 - cx, 0 - cy, 0 - cz, cw);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the " + PLANE_NAMES[i] + " plane of the matrix cannot be "
                        + "normalized: " + e.getMessage(), e);
            }
            int at = count * FrustumAabb.PLANE_STRIDE;
            planes[at] = plane.nx();
            planes[at + 1] = plane.ny();
            planes[at + 2] = plane.nz();
            planes[at + 3] = plane.d();
            // the inequality itself too: normalizing rounds, and can move the plane across a point on it
            exact[at] = 0 - cx;
            exact[at + 1] = 0 - cy;
            exact[at + 2] = 0 - cz;
            exact[at + 3] = cw;
            Plane.scaleExactly(exact, at);
            count++;
        }
        int used = count * FrustumAabb.PLANE_STRIDE;
        return new Frustum(Arrays.copyOf(planes, used), Arrays.copyOf(exact, used));
    }

    /** The 16 entries, validated finite, row by row ({@code m[4 r + c]}) whatever the input's layout. */
    private static double[] rowMajorCopy(double[] matrix, int offset, MatrixLayout layout) {
        if (matrix == null) {
            throw new IllegalArgumentException("matrix must not be null");
        }
        if (layout == null) {
            throw new IllegalArgumentException("layout must not be null");
        }
        if (offset < 0 || offset > matrix.length - 16) {
            throw new IllegalArgumentException("matrix must hold 16 doubles from offset " + offset + ", has length "
                    + matrix.length);
        }
        double[] m = new double[16];
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++) {
                int at = offset + (layout == MatrixLayout.COLUMN_MAJOR ? 4 * c + r : 4 * r + c);
                if (!Double.isFinite(matrix[at])) {
                    throw new IllegalArgumentException("matrix[" + at + "] (row " + r + ", column " + c
                            + ") must be finite, was " + matrix[at]);
                }
                m[4 * r + c] = matrix[at];
            }
        }
        return m;
    }

    /**
     * Whether the determinant of the row-major 4x4 matrix is exactly 0. Laplace expansion by the 2x2 minors of the
     * first two rows and the last two (Eberly 2008, "The Laplace Expansion Theorem: Computing the Determinants and
     * Inverses of Matrices"), first in doubles with a bound on their rounding: at most 16 units of roundoff of the
     * same sum taken over absolute values (each minor's rounding is within 2 of them, a product's within 5, the sum
     * of six within 10). Only a determinant within that bound, or one whose terms underflow or overflow, is taken
     * again exactly.
     */
    private static boolean singular(double[] m) {
        double[] minors = new double[12];
        double[] magnitudes = new double[12];
        minorPairs(m, minors, magnitudes);
        double det = expand(minors, false);
        double bound = expand(magnitudes, true);
        if (Double.isFinite(bound) && bound > 1e-250 && Math.abs(det) > 0x1p-49 * bound) {
            return false;
        }
        BigDecimal[] e = new BigDecimal[16];
        for (int i = 0; i < 16; i++) {
            e[i] = new BigDecimal(m[i]);
        }
        int[][] pairs = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
        BigDecimal exact = BigDecimal.ZERO;
        for (int k = 0; k < 6; k++) {
            int i = pairs[k][0];
            int j = pairs[k][1];
            int ci = pairs[5 - k][0];
            int cj = pairs[5 - k][1];
            BigDecimal top = e[i].multiply(e[4 + j]).subtract(e[j].multiply(e[4 + i]));
            BigDecimal bottom = e[8 + ci].multiply(e[12 + cj]).subtract(e[8 + cj].multiply(e[12 + ci]));
            BigDecimal term = top.multiply(bottom);
            exact = k == 1 || k == 4 ? exact.subtract(term) : exact.add(term);
        }
        return exact.signum() == 0;
    }

    /**
     * The 2x2 minors of rows 0 and 1 ({@code minors[0 .. 6)}) and rows 2 and 3 ({@code minors[6 .. 12)}) over the
     * column pairs (0 1), (0 2), (0 3), (1 2), (1 3), (2 3), and the same sums over absolute values.
     */
    private static void minorPairs(double[] m, double[] minors, double[] magnitudes) {
        int k = 0;
        for (int i = 0; i < 4; i++) {
            for (int j = i + 1; j < 4; j++) {
                for (int rows = 0; rows < 2; rows++) {
                    int r = 8 * rows;
                    double a = m[r + i] * m[r + 4 + j];
                    double b = m[r + j] * m[r + 4 + i];
                    minors[6 * rows + k] = a - b;
                    magnitudes[6 * rows + k] = Math.abs(a) + Math.abs(b);
                }
                k++;
            }
        }
    }

    /**
     * {@code det = s01 c23 - s02 c13 + s03 c12 + s12 c03 - s13 c02 + s23 c01}, each minor of the first two rows
     * times the complementary one of the last two; with {@code magnitudes} every sign is +.
     */
    private static double expand(double[] minors, boolean magnitudes) {
        double sum = 0;
        for (int k = 0; k < 6; k++) {
            double term = minors[k] * minors[6 + 5 - k];
            sum += magnitudes || !(k == 1 || k == 4) ? term : -term;
        }
        return sum;
    }

    /**
     * Number of planes.
     *
     * @return the plane count
     */
    public int planeCount() {
        return planes.length / FrustumAabb.PLANE_STRIDE;
    }

    /**
     * A copy of the planes, flat {@code (nx, ny, nz, d)} per plane, as the kernels take them.
     *
     * @return a new array of {@code 4 * planeCount()} doubles
     */
    public double[] planes() {
        return planes.clone();
    }

    /**
     * A copy of the planes as given or extracted, before normalization, each multiplied by a power of two
     * ({@link Plane#scaleExactly}): the same half-spaces exactly, for the box kernels, which take any normal length.
     * For a frustum made from {@link Plane}s these are {@link #planes()} (a {@code Plane} is normalized when made);
     * for one from {@link #fromViewProjection} they are the clip-space inequalities themselves, so {@link #classify}
     * and {@code ConvexRegion.of} keep a point that lies exactly on a clip plane, which the rounding of the
     * normalized plane can put outside.
     *
     * @return a new array of {@code 4 * planeCount()} doubles
     */
    public double[] exactPlanes() {
        return exactPlanes.clone();
    }

    /**
     * Classifies a box ({@link FrustumAabb#classify}).
     *
     * @param box the box
     * @return {@link Geom#OUTSIDE}, {@link Geom#CROSSING} or {@link Geom#INSIDE}
     */
    public int classify(Aabb box) {
        return FrustumAabb.classify(exactPlanes, planeCount(), box.minX(), box.minY(), box.minZ(),
                box.maxX(), box.maxY(), box.maxZ());
    }

    /**
     * Entry fraction of a segment into the region ({@link SegmentConvex#intersect}).
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @return the entry fraction, 0 for a start inside, or {@link Geom#NO_HIT}
     * @throws IllegalArgumentException naming a NaN or infinite argument, or a negative {@code maxFraction}
     */
    public double intersectSegment(double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction) {
        Check.segment(ox, oy, oz, dx, dy, dz, maxFraction);
        return SegmentConvex.intersect(ox, oy, oz, dx, dy, dz, maxFraction, planes, planeCount());
    }
}
