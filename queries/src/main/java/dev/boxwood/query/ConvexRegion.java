package dev.boxwood.query;

import dev.boxwood.geom.AabbPlane;
import dev.boxwood.geom.Frustum;
import dev.boxwood.geom.FrustumAabb;
import dev.boxwood.geom.Geom;
import dev.boxwood.geom.Plane;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An immutable convex region bounded by planes, prepared for region queries: a view frustum, a marquee
 * sub-frustum ({@link PerspectiveCamera#frustum(double, double, double, double)}) or any convex polyhedron.
 *
 * <p>The region is the intersection of the closed inside half-spaces {@code n · x <= d} of its planes (the
 * kernel convention: the positive side is outside). The plane test ({@link #cull}) decides the planes as given
 * (scaled by a power of two where exact), so a box that touches a given plane is never culled; the preparation
 * below works on the planes normalized to unit normals ({@link #planes()}), whose rounding its tolerance covers.
 * Immutable and thread-safe: one region may serve any number of concurrent queries.
 *
 * <p><b>Preparation.</b> The constructor enumerates the region's vertices (the intersection points of plane
 * triples that lie inside all planes; Ericson, Real-Time Collision Detection, 5.4.5; a triple too near singular
 * for double arithmetic, as at the far corners of a marquee reaching far off screen, is solved exactly; a point
 * counts when it clears every other plane by more than its rounding or its exact value lies inside every plane,
 * and only a region with no such point, a flat one whose opposite planes round apart, takes the points within the
 * planes' tolerance), its edge
 * directions (the cross product of two planes that share at least two distinct vertices), and for each edge
 * direction {@code e}
 * and each coordinate axis {@code x_k} the interval of the region on the axis {@code e × x_k}. That costs
 * {@code O(P^3 · P)} for {@code P} planes once per region (a frustum: a few microseconds) and makes the exact box
 * test below cheap.
 *
 * <p><b>Box tests.</b> {@link #cull} is the conservative plane test with plane masks ({@link FrustumAabb#cull}).
 * {@link #testBox} is the exact overlap test of a closed box with a bounded region by the separating axis theorem
 * (Gottschalk, Lin, Manocha 1996; Ericson 5.2.1): two convex polyhedra are disjoint exactly when one of these
 * axes separates them: the three box face normals (tested against the bounding box of the region's vertices), the
 * region's plane normals (the plane test), and every cross product of a region edge direction with a box edge
 * direction. This removes the classic false positive of plane-only tests: a box beyond an edge or corner of the
 * frustum, outside no single plane. The vertices carry rounding from the plane intersections, so the region's
 * vertex box and axis intervals are grown by a tolerance of {@code 1e-9} times the sum of the largest plane
 * distance from the origin and the largest vertex coordinate sum {@code |x| + |y| + |z|} (the rounding of a vertex
 * grows with its distance from the origin, which can far exceed the planes' distances: a frustum whose side reaches
 * far off screen, its side planes through an eye near the origin): the test never rejects a box that touches the
 * region, and may accept a box within that tolerance of it.
 *
 * <p><b>Bounded and unbounded regions.</b> Fewer than four planes, or planes that leave a direction open, bound
 * an unbounded region; {@link #isBounded()} tells. Such a region works with the plane tests and for containment
 * ({@link RegionMode#WINDOW}, {@link RegionMode#CROSSING_CONSERVATIVE}) but not for the exact
 * {@link RegionMode#CROSSING} test, which needs vertices. A bounded region with no vertex is empty.
 */
public final class ConvexRegion {

    /** Relative tolerance of vertex membership and of the exact test, in units of the region's scale. */
    private static final double RELATIVE_TOLERANCE = 1e-9;
    /** Cross products shorter than this (of unit vectors) count as parallel. */
    private static final double PARALLEL = 1e-12;
    /**
     * Plane triples whose determinant (of unit normals) is at least this are intersected in compensated arithmetic,
     * accurate to about {@code 1e-32} absolute: the point's relative error is then below about {@code 1e-12}. Below
     * it the triple is intersected exactly.
     */
    private static final double NEAR_SINGULAR = 1e-20;
    /**
     * How far, relative to its coordinate sum, a plane-triple point may lie outside the other planes and still count
     * as a vertex: above the point's own rounding ({@code 1e-12} at most), far below the rounding a plain double
     * Cramer's rule has on nearly singular triples, whose points could otherwise pass as far, spurious vertices. It
     * only preselects: a point outside a plane by more than the planes' tolerance is taken when its exact value lies
     * within that tolerance.
     */
    private static final double VERTEX_SLACK = 1e-11;
    /**
     * A bound on a plane-triple point's rounding and on that of its distances to the planes, relative to its
     * coordinate sum: the point is within about {@code 1e-12} of it (compensated or exact arithmetic).
     */
    private static final double VERTEX_ROUNDING = 4e-12;

    private final double[] planes;
    /**
     * The planes of {@link #cull}: the given planes, each scaled by a power of two where that is exact, so that the
     * plane test decides the very half-spaces the caller gave. The normalized {@link #planes} round {@code n} and
     * {@code d} apart (dividing by the normal's length), which can move a plane across a box that touches it.
     */
    private final double[] cullPlanes;
    private final int planeCount;
    private final boolean bounded;
    private final double[] vertices;
    private final int vertexCount;
    /** Bounding box of the vertices, grown by the tolerance: minX, minY, minZ, maxX, maxY, maxZ. */
    private final double[] vertexBox = new double[6];
    /** Separating axes from edge cross products: x, y, z, min, max per axis. */
    private final double[] axes;
    private final int axisCount;
    private final double tolerance;
    /** How many {@link #translated} copies a region keeps: one per tile a tiled query reaches, up to this many. */
    private static final int TRANSLATIONS_KEPT = 16;
    /**
     * The recent {@link #translated} copies (created on first use), replaced round robin. A racing pair of queries
     * may both build a copy, and either is right, so the slots need only safe publication (the atomic array's
     * volatile reads and writes: a copy's origin is written before the copy is stored).
     */
    private volatile AtomicReferenceArray<ConvexRegion> translations;
    /** The slot the next new copy goes to (racy on purpose: any slot is fine). */
    private int nextTranslation;
    /** In a translated copy: the origin it was translated by (set before the copy is published). */
    private double shiftX;
    private double shiftY;
    private double shiftZ;

    /**
     * A region from a {@link Frustum}'s planes.
     *
     * @param frustum the planes
     * @return the prepared region
     * @throws IllegalArgumentException if {@code frustum} is null
     */
    public static ConvexRegion of(Frustum frustum) {
        Arguments.requireNonNull("frustum", frustum);
        return new ConvexRegion(frustum.exactPlanes(), frustum.planeCount());
    }

    /**
     * A region from flat planes {@code (nx, ny, nz, d)}, positive side outside. The array is copied.
     *
     * @param planes flat planes, at least {@code 4 * planeCount} doubles
     * @param planeCount number of planes, 1 to {@link FrustumAabb#MAX_PLANES}
     * @throws IllegalArgumentException naming the argument: null or short array, a plane count out of range, a
     *     non-finite value, or a zero normal ("planes[i]")
     */
    public ConvexRegion(double[] planes, int planeCount) {
        this(normalizedCopy(planes, planeCount), planeCount, null, scaledCopy(planes, planeCount), 0.0);
    }

    /**
     * The planes of {@link #cull} (validated by {@link #normalizedCopy} first): each plane multiplied by the power
     * of two that brings its largest normal component into {@code [1, 2)}, the same half-space, which the kernel's
     * plane test decides beyond rounding; where some component does not survive that exactly, the plane normalized.
     */
    private static double[] scaledCopy(double[] planes, int planeCount) {
        double[] copy = Arrays.copyOf(planes, planeCount * FrustumAabb.PLANE_STRIDE);
        for (int at = 0; at < copy.length; at += FrustumAabb.PLANE_STRIDE) {
            Plane.scaleExactly(copy, at);
        }
        return copy;
    }

    /** The planes validated and copied, each normal (and its {@code d}) divided by the normal's length. */
    private static double[] normalizedCopy(double[] planes, int planeCount) {
        Arguments.requireNonNull("planes", planes);
        if (planeCount < 1 || planeCount > FrustumAabb.MAX_PLANES) {
            throw new IllegalArgumentException("planeCount must be in [1, " + FrustumAabb.MAX_PLANES + "]: "
                    + planeCount);
        }
        if (planes.length < planeCount * FrustumAabb.PLANE_STRIDE) {
            throw new IllegalArgumentException("planes must hold " + planeCount * FrustumAabb.PLANE_STRIDE
                    + " doubles, has " + planes.length);
        }
        double[] copy = new double[planeCount * FrustumAabb.PLANE_STRIDE];
        for (int i = 0; i < planeCount; i++) {
            int at = i * FrustumAabb.PLANE_STRIDE;
            for (int k = 0; k < 4; k++) {
                Arguments.requireFinite("planes[" + i + "]", planes[at + k]);
            }
            System.arraycopy(planes, at, copy, at, 4);
            if (!Geom.normalize(copy, at, 4)) {
                throw new IllegalArgumentException("planes[" + i + "] has a zero normal");
            }
            if (!Double.isFinite(copy[at + 3])) {
                throw new IllegalArgumentException("planes[" + i + "]: d (" + planes[at + 3]
                        + ") divided by the normal's length is not finite");
            }
        }
        return copy;
    }

    /**
     * A region from planes already normalized (owned by the new region). A {@link #translated} copy passes its
     * source's boundedness: a translation does not change it, and deciding it again from normals normalized once
     * more could round the other way for a region at the threshold, leaving the copy without vertices for the
     * exact test.
     *
     * @param normalized flat planes with unit normals
     * @param planeCount number of planes
     * @param bounded the known boundedness, or null to decide it from the normals
     * @param cullPlanes the planes of the plane test (owned by the new region)
     * @param toleranceFloor the least tolerance: a {@link #translated} copy's planes carry the rounding of the
     *     source's normalization at the source's scale, which the copy's own, smaller scale does not cover
     */
    private ConvexRegion(double[] normalized, int planeCount, Boolean bounded, double[] cullPlanes,
                         double toleranceFloor) {
        this.planeCount = planeCount;
        this.planes = normalized;
        this.cullPlanes = cullPlanes;
        double scale = 0;
        for (int i = 0; i < planeCount; i++) {
            scale = Math.max(scale, Math.abs(planes[i * FrustumAabb.PLANE_STRIDE + 3]));
        }
        double membership = RELATIVE_TOLERANCE * scale + Double.MIN_NORMAL;
        this.bounded = bounded != null ? bounded : computeBounded();
        if (!this.bounded) {
            this.tolerance = Math.max(membership, toleranceFloor);
            vertices = new double[0];
            vertexCount = 0;
            axes = new double[0];
            axisCount = 0;
            return;
        }
        // the vertices of the region as stored, decided exactly where rounding could decide; only a region that has
        // none (flat: a zero-size marquee, whose opposite planes round apart) takes them within the tolerance
        double planeRounding = 4 * Geom.UNIT_ROUNDOFF * scale + Double.MIN_NORMAL;
        double[] found = collectVertices(membership, planeRounding, false);
        vertices = found.length > 0 ? found : collectVertices(membership, planeRounding, true);
        int count = vertices.length / 3;
        vertexCount = count;
        // the largest vertex coordinate sum: the vertices' rounding grows with their distance from the origin
        double reach = 0;
        for (int i = 0; i < 3 * count; i += 3) {
            reach = Math.max(reach, Math.abs(vertices[i]) + Math.abs(vertices[i + 1]) + Math.abs(vertices[i + 2]));
        }
        this.tolerance = Math.max(membership + RELATIVE_TOLERANCE * reach, toleranceFloor);
        Arrays.fill(vertexBox, 0, 3, Double.POSITIVE_INFINITY);
        Arrays.fill(vertexBox, 3, 6, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < count; i++) {
            for (int k = 0; k < 3; k++) {
                vertexBox[k] = Math.min(vertexBox[k], vertices[3 * i + k] - tolerance);
                vertexBox[3 + k] = Math.max(vertexBox[3 + k], vertices[3 * i + k] + tolerance);
            }
        }
        double[] edges = collectEdgeDirections();
        int edgeCount = edges.length / 3;
        double[] a = new double[edgeCount * 3 * 5];
        int n = 0;
        for (int e = 0; e < edgeCount; e++) {
            double ex = edges[3 * e];
            double ey = edges[3 * e + 1];
            double ez = edges[3 * e + 2];
            // e × x, e × y, e × z
            n = addAxis(a, n, 0, ez, -ey);
            n = addAxis(a, n, -ez, 0, ex);
            n = addAxis(a, n, ey, -ex, 0);
        }
        axes = Arrays.copyOf(a, n * 5);
        axisCount = n;
    }

    /**
     * The points of plane triples inside every plane, three coordinates each. With {@code withinTolerance} false a
     * point is a vertex when it clears every other plane by more than its rounding, or else when its exact value
     * lies inside every plane (closed): a point outside a plane by less than the tolerance is no vertex, since where
     * two planes meet at a small angle {@code θ} it lies up to the tolerance over {@code θ} beyond the region (a
     * wedge of 2.4e-4 radians had its vertex box reach 475 tolerances past its apex). With {@code withinTolerance}
     * true a point is a vertex when it, or its exact value, lies within the tolerance {@code membership} of every
     * plane.
     *
     * @param planeRounding the rounding of a distance from the planes' offsets
     */
    private double[] collectVertices(double membership, double planeRounding, boolean withinTolerance) {
        double[] v = new double[3 * 16];
        double[] p = new double[3];
        double[] scratch = new double[18];
        int count = 0;
        for (int i = 0; i < planeCount; i++) {
            for (int j = i + 1; j < planeCount; j++) {
                for (int k = j + 1; k < planeCount; k++) {
                    if (!intersect(i, j, k, p, scratch)) {
                        continue;
                    }
                    double extent = Math.abs(p[0]) + Math.abs(p[1]) + Math.abs(p[2]);
                    if (!(extent < Double.POSITIVE_INFINITY)) {
                        continue;
                    }
                    // a vertex far from the origin compared with the planes' distances (a frustum whose side
                    // reaches far off screen, its side planes through an eye at the origin) misses the planes by
                    // its own rounding, more than the planes' tolerance
                    if (!insideAll(p[0], p[1], p[2], membership + VERTEX_SLACK * extent)) {
                        continue;
                    }
                    // one that passes only by that slack is decided on the exact point: the point of a nearly
                    // singular triple that is no vertex can miss another plane by less than the slack too (the
                    // bottom and top planes of a thin marquee, both through the eye, meet the near and far planes
                    // far beyond the region's corners, just outside a side reaching far off screen), and taken
                    // for a vertex it would grow the vertex box and the tolerance far past the region
                    boolean vertex = withinTolerance
                            ? insideAll(p[0], p[1], p[2], membership) || insideAllExactly(i, j, k, membership)
                            : clearsOthers(i, j, k, p, VERTEX_ROUNDING * extent + planeRounding)
                                    || insideAllExactly(i, j, k, 0.0);
                    if (!vertex) {
                        continue;
                    }
                    if (3 * count + 3 > v.length) {
                        v = Arrays.copyOf(v, v.length * 2);
                    }
                    v[3 * count] = p[0];
                    v[3 * count + 1] = p[1];
                    v[3 * count + 2] = p[2];
                    count++;
                }
            }
        }
        return Arrays.copyOf(v, 3 * count);
    }

    /** Whether the point of planes {@code i, j, k} lies inside every other plane by more than {@code rounding}. */
    private boolean clearsOthers(int i, int j, int k, double[] p, double rounding) {
        for (int m = 0; m < planeCount; m++) {
            if (m != i && m != j && m != k && !(distance(m, p[0], p[1], p[2]) < -rounding)) {
                return false;
            }
        }
        return true;
    }

    /** Appends axis {@code (x, y, z)} with the region's interval on it, unless it is (nearly) zero. */
    private int addAxis(double[] a, int n, double x, double y, double z) {
        double length = Math.sqrt(x * x + y * y + z * z);
        if (length < PARALLEL) {
            return n;
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < vertexCount; i++) {
            double s = x * vertices[3 * i] + y * vertices[3 * i + 1] + z * vertices[3 * i + 2];
            lo = Math.min(lo, s);
            hi = Math.max(hi, s);
        }
        int at = n * 5;
        a[at] = x;
        a[at + 1] = y;
        a[at + 2] = z;
        a[at + 3] = lo - tolerance * length;
        a[at + 4] = hi + tolerance * length;
        return n + 1;
    }

    /**
     * Unit directions {@code n_i × n_j} of the plane pairs that share two vertices at least a tolerance apart
     * (real edges), without repeats of parallel directions.
     */
    private double[] collectEdgeDirections() {
        double[] out = new double[3 * 8];
        int count = 0;
        for (int i = 0; i < planeCount; i++) {
            for (int j = i + 1; j < planeCount; j++) {
                int a = i * 4;
                int b = j * 4;
                double x = planes[a + 1] * planes[b + 2] - planes[a + 2] * planes[b + 1];
                double y = planes[a + 2] * planes[b] - planes[a] * planes[b + 2];
                double z = planes[a] * planes[b + 1] - planes[a + 1] * planes[b];
                double length = Math.sqrt(x * x + y * y + z * z);
                if (length < PARALLEL || !sharesEdge(i, j)) {
                    continue;
                }
                x /= length;
                y /= length;
                z /= length;
                boolean repeated = false;
                for (int e = 0; e < count && !repeated; e++) {
                    double cx = y * out[3 * e + 2] - z * out[3 * e + 1];
                    double cy = z * out[3 * e] - x * out[3 * e + 2];
                    double cz = x * out[3 * e + 1] - y * out[3 * e];
                    repeated = Math.sqrt(cx * cx + cy * cy + cz * cz) < PARALLEL;
                }
                if (repeated) {
                    continue;
                }
                if (3 * count + 3 > out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                out[3 * count] = x;
                out[3 * count + 1] = y;
                out[3 * count + 2] = z;
                count++;
            }
        }
        return Arrays.copyOf(out, 3 * count);
    }

    /** Whether planes i and j hold two vertices farther apart than the tolerance. */
    private boolean sharesEdge(int i, int j) {
        int first = -1;
        for (int v = 0; v < vertexCount; v++) {
            double x = vertices[3 * v];
            double y = vertices[3 * v + 1];
            double z = vertices[3 * v + 2];
            if (Math.abs(distance(i, x, y, z)) > tolerance || Math.abs(distance(j, x, y, z)) > tolerance) {
                continue;
            }
            if (first < 0) {
                first = v;
            } else {
                double dx = x - vertices[3 * first];
                double dy = y - vertices[3 * first + 1];
                double dz = z - vertices[3 * first + 2];
                if (Math.sqrt(dx * dx + dy * dy + dz * dz) > tolerance) {
                    return true;
                }
            }
        }
        return false;
    }

    private double distance(int plane, double x, double y, double z) {
        int at = plane * 4;
        return planes[at] * x + planes[at + 1] * y + planes[at + 2] * z - planes[at + 3];
    }

    private boolean insideAll(double x, double y, double z, double slack) {
        for (int i = 0; i < planeCount; i++) {
            if (distance(i, x, y, z) > slack) {
                return false;
            }
        }
        return true;
    }

    /**
     * The point on three planes by Cramer's rule, {@code p = (d1 (n2 × n3) + d2 (n3 × n1) + d3 (n1 × n2)) / det}
     * (Ericson 5.4.5); false when the planes do not meet in one point. The cross products and dot products are
     * compensated (Ogita, Rump and Oishi 2005, Dot2, with fma products), as if computed in twice double precision:
     * in plain double the determinant of a nearly singular triple is lost in rounding, so a true corner of a thin
     * region was dropped (two side planes of a marquee reaching far off screen in both directions meet the near
     * plane with a determinant near {@code 1 / offset^2}, and the exact test then rejected boxes inside the region),
     * or a spurious far point was taken for a vertex. A determinant below {@link #NEAR_SINGULAR} is found exactly
     * ({@link #intersectExactly}).
     *
     * @param scratch 18 doubles: the three cross products, each component as a (high, low) pair
     */
    private boolean intersect(int i, int j, int k, double[] p, double[] scratch) {
        int a = i * 4;
        int b = j * 4;
        int c = k * 4;
        cross(b, c, scratch, 0);
        cross(c, a, scratch, 6);
        cross(a, b, scratch, 12);
        double det = dot(planes[a], scratch, 0, planes[a + 1], scratch, 2, planes[a + 2], scratch, 4);
        if (det == 0) {
            return false;
        }
        if (Math.abs(det) < NEAR_SINGULAR) {
            return intersectExactly(a, b, c, p);
        }
        for (int m = 0; m < 3; m++) {
            double numerator = dot(planes[a + 3], scratch, 2 * m, planes[b + 3], scratch, 6 + 2 * m,
                    planes[c + 3], scratch, 12 + 2 * m);
            p[m] = numerator / det;
        }
        return true;
    }

    /** {@code n_u × n_v} of the planes at {@code u} and {@code v}, each component a (high, low) pair. */
    private void cross(int u, int v, double[] out, int at) {
        differenceOfProducts(planes[u + 1], planes[v + 2], planes[u + 2], planes[v + 1], out, at);
        differenceOfProducts(planes[u + 2], planes[v], planes[u], planes[v + 2], out, at + 2);
        differenceOfProducts(planes[u], planes[v + 1], planes[u + 1], planes[v], out, at + 4);
    }

    /**
     * {@code a b - c d} as a (high, low) pair to about twice double precision: both products split exactly by fma,
     * the difference of the rounded products exactly by TwoSum (Knuth), the small parts added last.
     */
    private static void differenceOfProducts(double a, double b, double c, double d, double[] out, int at) {
        double p = a * b;
        double q = c * d;
        double s = p - q;
        double v = s - p;
        double t = (p - (s - v)) + (-q - v);
        double low = t + (Math.fma(a, b, -p) - Math.fma(c, d, -q));
        double high = s + low;
        out[at] = high;
        out[at + 1] = low - (high - s);
    }

    /**
     * {@code x · y} for three doubles {@code x} and three (high, low) pairs {@code y}, rounded once (Dot2 of Ogita,
     * Rump and Oishi: products split by fma, partial sums by TwoSum, the errors summed aside).
     */
    private static double dot(double x0, double[] y0, int at0, double x1, double[] y1, int at1, double x2,
                              double[] y2, int at2) {
        double sum = 0;
        double error = 0;
        for (int term = 0; term < 6; term++) {
            double x = term < 2 ? x0 : term < 4 ? x1 : x2;
            double y = term < 2 ? y0[at0 + term] : term < 4 ? y1[at1 + term - 2] : y2[at2 + term - 4];
            double h = x * y;
            double r = Math.fma(x, y, -h);
            double next = sum + h;
            double v = next - sum;
            error += ((sum - (next - v)) + (h - v)) + r;
            sum = next;
        }
        return sum + error;
    }

    /**
     * Cramer's rule in exact arithmetic on the stored planes (every product and sum of doubles is exact in
     * {@link BigDecimal}; only the final quotient is rounded), for the rare triples {@link #intersect} cannot solve
     * reliably even when compensated; false when the determinant is exactly 0.
     */
    private boolean intersectExactly(int a, int b, int c, double[] p) {
        BigDecimal[] solution = exactSolution(a, b, c);
        if (solution == null) {
            return false;
        }
        for (int k = 0; k < 3; k++) {
            p[k] = solution[k].divide(solution[3], MathContext.DECIMAL128).doubleValue();
        }
        return true;
    }

    /**
     * Whether the exact point on planes {@code i}, {@code j} and {@code k} lies inside every plane but by
     * {@code slack}: {@code n · x - d <= slack}, decided without rounding on the point {@code numerator / det}
     * as {@code n · numerator - d det <= slack det} for a positive determinant. False when the planes do not meet
     * in one point.
     */
    private boolean insideAllExactly(int i, int j, int k, double slack) {
        BigDecimal[] solution = exactSolution(i * 4, j * 4, k * 4);
        if (solution == null) {
            return false;
        }
        BigDecimal det = solution[3];
        BigDecimal allowed = new BigDecimal(slack).multiply(det);
        for (int m = 0; m < planeCount; m++) {
            int at = m * 4;
            BigDecimal distance = new BigDecimal(planes[at]).multiply(solution[0])
                    .add(new BigDecimal(planes[at + 1]).multiply(solution[1]))
                    .add(new BigDecimal(planes[at + 2]).multiply(solution[2]))
                    .subtract(new BigDecimal(planes[at + 3]).multiply(det));
            if (distance.compareTo(allowed) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The exact point on the planes at {@code a}, {@code b} and {@code c} by Cramer's rule, as the numerators
     * {@code d1 (n2 × n3) + d2 (n3 × n1) + d3 (n1 × n2)} and the determinant, made positive: {@code x, y, z, det}.
     * Null when the determinant is exactly 0.
     */
    private BigDecimal[] exactSolution(int a, int b, int c) {
        BigDecimal[] n = new BigDecimal[9];
        for (int k = 0; k < 3; k++) {
            n[k] = new BigDecimal(planes[a + k]);
            n[3 + k] = new BigDecimal(planes[b + k]);
            n[6 + k] = new BigDecimal(planes[c + k]);
        }
        BigDecimal[] c23 = exactCross(n, 3, 6);
        BigDecimal det = n[0].multiply(c23[0]).add(n[1].multiply(c23[1])).add(n[2].multiply(c23[2]));
        if (det.signum() == 0) {
            return null;
        }
        BigDecimal[] c31 = exactCross(n, 6, 0);
        BigDecimal[] c12 = exactCross(n, 0, 3);
        BigDecimal d1 = new BigDecimal(planes[a + 3]);
        BigDecimal d2 = new BigDecimal(planes[b + 3]);
        BigDecimal d3 = new BigDecimal(planes[c + 3]);
        BigDecimal[] solution = new BigDecimal[4];
        for (int k = 0; k < 3; k++) {
            BigDecimal numerator = d1.multiply(c23[k]).add(d2.multiply(c31[k])).add(d3.multiply(c12[k]));
            solution[k] = det.signum() > 0 ? numerator : numerator.negate();
        }
        solution[3] = det.abs();
        return solution;
    }

    /** The exact cross product of the vectors at {@code u} and {@code v} in {@code n}. */
    private static BigDecimal[] exactCross(BigDecimal[] n, int u, int v) {
        return new BigDecimal[] {
            n[u + 1].multiply(n[v + 2]).subtract(n[u + 2].multiply(n[v + 1])),
            n[u + 2].multiply(n[v]).subtract(n[u].multiply(n[v + 2])),
            n[u].multiply(n[v + 1]).subtract(n[u + 1].multiply(n[v]))};
    }

    /**
     * A region is bounded when no direction {@code u != 0} has {@code n_i · u <= 0} for every plane (its recession
     * cone is the origin). A non-zero cone contains an extreme ray or a line, parallel to some {@code n_i × n_j},
     * {@code n_i × x_k} or {@code -n_i}; those candidates are tried.
     */
    private boolean computeBounded() {
        for (int i = 0; i < planeCount; i++) {
            int a = i * 4;
            if (opens(-planes[a], -planes[a + 1], -planes[a + 2])) {
                return false;
            }
            for (int k = 0; k < 3; k++) {
                double ux = k == 0 ? 0 : k == 1 ? -planes[a + 2] : planes[a + 1];
                double uy = k == 0 ? planes[a + 2] : k == 1 ? 0 : -planes[a];
                double uz = k == 0 ? -planes[a + 1] : k == 1 ? planes[a] : 0;
                if (opens(ux, uy, uz) || opens(-ux, -uy, -uz)) {
                    return false;
                }
            }
            for (int j = i + 1; j < planeCount; j++) {
                int b = j * 4;
                double x = planes[a + 1] * planes[b + 2] - planes[a + 2] * planes[b + 1];
                double y = planes[a + 2] * planes[b] - planes[a] * planes[b + 2];
                double z = planes[a] * planes[b + 1] - planes[a + 1] * planes[b];
                if (opens(x, y, z) || opens(-x, -y, -z)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether the non-zero direction u leaves the region unbounded: {@code n_i · u <= 0} for every plane. */
    private boolean opens(double ux, double uy, double uz) {
        double length = Math.sqrt(ux * ux + uy * uy + uz * uz);
        if (length < PARALLEL) {
            return false;
        }
        for (int i = 0; i < planeCount; i++) {
            int a = i * 4;
            if ((planes[a] * ux + planes[a + 1] * uy + planes[a + 2] * uz) / length > PARALLEL) {
                return false;
            }
        }
        return true;
    }

    /**
     * This region in a frame whose origin is at {@code (ox, oy, oz)}: the same planes (the same normals, bit for
     * bit, and the same {@link #isBounded()}) with {@code d' = d - n · origin}, its vertices found again, and at
     * least this region's tolerance (the copy's planes carry this region's rounding, at its scale: a small region
     * 1e7 from zero moved next to the origin is still only known to about 1e-9). Indexes
     * that store boxes relative to an origin test them against this copy (the query is moved into the index's
     * frame, never the stored boxes into the world). Returns
     * {@code this} for the origin 0; the copies for the last 16 origins are kept, so repeated queries on one index,
     * or on a tiled world's tiles, allocate nothing once each origin has been seen.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @return the translated region
     */
    public ConvexRegion translated(double ox, double oy, double oz) {
        if (ox == 0.0 && oy == 0.0 && oz == 0.0) {
            return this;
        }
        AtomicReferenceArray<ConvexRegion> kept = translations;
        if (kept == null) {
            kept = new AtomicReferenceArray<>(TRANSLATIONS_KEPT);
            translations = kept;
        }
        for (int i = 0; i < TRANSLATIONS_KEPT; i++) {
            ConvexRegion copy = kept.get(i);
            if (copy == null) {
                break;
            }
            if (copy.shiftX == ox && copy.shiftY == oy && copy.shiftZ == oz) {
                return copy;
            }
        }
        // the normalized planes, which prepare the copy's exact test, moved as the plane test's are
        double[] shifted = translatedOutward(planes, ox, oy, oz);
        // the source's tolerance (the same solid, so the same tolerance in world units): the copy's planes are the
        // source's normalized ones moved, so they are off by the source's rounding, at the source's scale
        ConvexRegion copy = new ConvexRegion(shifted, planeCount, bounded, translatedOutward(cullPlanes, ox, oy, oz),
                tolerance);
        copy.shiftX = ox;
        copy.shiftY = oy;
        copy.shiftZ = oz;
        int slot = nextTranslation;
        nextTranslation = (slot + 1) % TRANSLATIONS_KEPT;
        kept.set(slot, copy);
        return copy;
    }

    /**
     * Flat planes moved into the frame at {@code (ox, oy, oz)}, each {@code d - n · origin} taken with the exact
     * errors of its roundings and rounded up: the moved half-space contains the exact one by at most a few ulps of
     * {@code d'}, so a box that touches a plane in world coordinates is not culled in the frame for the plane's sake.
     * Clamped to the double range: a plane near its end (x <= Double.MAX_VALUE, all of space) moved by a far origin
     * would overflow; stored coordinates lie within {@link OutwardFloat#MAX_OFFSET} of the origin, so the clamped
     * plane decides every stored box as the exact one does.
     */
    private static double[] translatedOutward(double[] flatPlanes, double ox, double oy, double oz) {
        double[] shifted = flatPlanes.clone();
        for (int at = 0; at < shifted.length; at += FrustumAabb.PLANE_STRIDE) {
            double nx = shifted[at];
            double ny = shifted[at + 1];
            double nz = shifted[at + 2];
            double d = shifted[at + 3];
            double px = nx * ox;
            double py = ny * oy;
            double pz = nz * oz;
            double xy = px + py;
            double sum = xy + pz;
            double moved = d - sum;
            if (!(Math.abs(moved) <= Double.MAX_VALUE)) {
                // an overflowed difference is clamped; NaN (products of opposite infinite signs) takes all of
                // space as inside, which keeps every box
                shifted[at + 3] = moved < 0 ? -Double.MAX_VALUE : Double.MAX_VALUE;
                continue;
            }
            // d - n . origin = moved + the exact errors of its roundings (TwoSum for the sums, fma for the products;
            // Ogita, Rump and Oishi 2005); their own sum rounds by a few ulps of them, and a product in the
            // subnormal range by half a step
            double ed = Geom.sumError(d, -sum, moved);
            double exy = Geom.sumError(px, py, xy);
            double es = Geom.sumError(xy, pz, sum);
            double ex = Math.fma(nx, ox, -px);
            double ey = Math.fma(ny, oy, -py);
            double ez = Math.fma(nz, oz, -pz);
            double correction = ed - exy - es - ex - ey - ez;
            double slack = 8 * Geom.UNIT_ROUNDOFF * (Math.abs(ed) + Math.abs(exy) + Math.abs(es) + Math.abs(ex)
                    + Math.abs(ey) + Math.abs(ez)) + 4 * Double.MIN_VALUE;
            double up = Math.nextUp(moved + (correction + slack));
            shifted[at + 3] = Double.isNaN(up) || up > Double.MAX_VALUE ? Double.MAX_VALUE
                    : Math.max(-Double.MAX_VALUE, up);
        }
        return shifted;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Accessors
    // ---------------------------------------------------------------------------------------------------------

    /** @return the number of planes */
    public int planeCount() {
        return planeCount;
    }

    /** @return a copy of the normalized planes, flat {@code (nx, ny, nz, d)} */
    public double[] planes() {
        return planes.clone();
    }

    /** @return whether the planes bound a finite region (required by {@link RegionMode#CROSSING}) */
    public boolean isBounded() {
        return bounded;
    }

    /** @return whether the region is bounded and has no point (its planes contradict each other) */
    public boolean isEmpty() {
        return bounded && vertexCount == 0;
    }

    /** @return the number of vertices found (0 for an unbounded or empty region; repeats possible) */
    public int vertexCount() {
        return vertexCount;
    }

    /**
     * @param i vertex index in {@code [0, vertexCount())}
     * @param axis 0, 1 or 2 for x, y, z
     * @return the coordinate
     */
    public double vertex(int i, int axis) {
        if (i < 0 || i >= vertexCount || axis < 0 || axis > 2) {
            throw new IndexOutOfBoundsException("vertex " + i + " axis " + axis);
        }
        return vertices[3 * i + axis];
    }

    // ---------------------------------------------------------------------------------------------------------
    // Box tests (kernel style: no validation, closed shapes)
    // ---------------------------------------------------------------------------------------------------------

    /** @return the plane mask that activates every plane, the starting mask of {@link #cull} */
    public int allPlanes() {
        return FrustumAabb.allPlanes(planeCount);
    }

    /**
     * The plane test with plane masks ({@link FrustumAabb#cull}) on the planes as given: {@link FrustumAabb#CULLED}
     * if the closed box is outside one active plane, else the mask of active planes it crosses (0: inside the
     * region). In a {@link #translated} copy each plane is moved with its rounding taken outward (a box within a few
     * ulps of {@code d - n · origin} outside it may be kept), so a box touching a given plane in world coordinates is
     * kept (an index's stored box holds the exact offsets of the given box, {@link OutwardFloat#below}); a plane whose
     * normal components could not be scaled exactly is tested normalized.
     *
     * @param activeMask planes to test
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return {@link FrustumAabb#CULLED} or the crossing mask
     */
    public int cull(int activeMask, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        return FrustumAabb.cull(cullPlanes, activeMask, minX, minY, minZ, maxX, maxY, maxZ);
    }

    /**
     * Whether the closed box can meet the region by the axes the plane test does not cover: the box axes (against
     * the bounding box of the region's vertices) and the edge cross products. Together with a {@link #cull} that
     * did not return {@link FrustumAabb#CULLED} this is the exact overlap test (see the class comment). For a
     * bounded region only.
     *
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return false if one of those axes separates the box from the region
     */
    public boolean testBeyondPlanes(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (!overlapsVertexBox(minX, minY, minZ, maxX, maxY, maxZ)) {
            return false;
        }
        // halved first: a box reaching across the whole double range has finite half extents too
        double cx = 0.5 * minX + 0.5 * maxX;
        double cy = 0.5 * minY + 0.5 * maxY;
        double cz = 0.5 * minZ + 0.5 * maxZ;
        double hx = 0.5 * maxX - 0.5 * minX;
        double hy = 0.5 * maxY - 0.5 * minY;
        double hz = 0.5 * maxZ - 0.5 * minZ;
        double[] a = axes;
        for (int at = 0, end = axisCount * 5; at < end; at += 5) {
            double ax = Math.abs(a[at]);
            double ay = Math.abs(a[at + 1]);
            double az = Math.abs(a[at + 2]);
            double centre = a[at] * cx + a[at + 1] * cy + a[at + 2] * cz;
            // the centre and half extents round by an ulp or so of each coordinate's reach, which counts only as
            // far as it projects: an edge axis is perpendicular to one coordinate axis, and a box very long along
            // that one (1e10 times the region) was kept by a slack from its length
            double radius = (hx * ax + hy * ay + hz * az)
                    + 4 * Geom.UNIT_ROUNDOFF * (ax * (Math.abs(cx) + hx) + ay * (Math.abs(cy) + hy)
                    + az * (Math.abs(cz) + hz));
            if (centre - radius > a[at + 4] || centre + radius < a[at + 3]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the closed box overlaps the bounding box of the region's vertices (grown by the tolerance): the box
     * face axes of the separating axis test. False for an empty region; for a bounded region only.
     *
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return false if a coordinate axis separates the box from the region
     */
    public boolean overlapsVertexBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double[] vb = vertexBox;
        return minX <= vb[3] && minY <= vb[4] && minZ <= vb[5] && maxX >= vb[0] && maxY >= vb[1] && maxZ >= vb[2];
    }

    /**
     * Whether the closed box lies within the bounding box of the region's vertices (grown by the tolerance), so
     * that everything in it overlaps that box. For a bounded region only.
     *
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if the box is inside the vertex box
     */
    public boolean withinVertexBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double[] vb = vertexBox;
        return minX >= vb[0] && minY >= vb[1] && minZ >= vb[2] && maxX <= vb[3] && maxY <= vb[4] && maxZ <= vb[5];
    }

    /**
     * The exact overlap test of the closed box with this bounded region (see the class comment).
     *
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if they overlap (touching counts; within the tolerance)
     * @throws IllegalStateException if the region is unbounded
     */
    public boolean testBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        requireBounded();
        int crossing = cull(allPlanes(), minX, minY, minZ, maxX, maxY, maxZ);
        if (crossing == 0) {
            // inside every plane as rounded: near a needle-sharp corner also true well away from the region
            return overlapsVertexBox(minX, minY, minZ, maxX, maxY, maxZ);
        }
        return crossing != FrustumAabb.CULLED && testBeyondPlanes(minX, minY, minZ, maxX, maxY, maxZ);
    }

    /**
     * Whether the closed box lies entirely in the closed region (all its corners inside every plane; exact up to
     * the rounding of the plane distances, {@link AabbPlane}). For a bounded region the box must also overlap the
     * bounding box of its vertices: beyond a needle-sharp corner (planes meeting at angles of 1e-7 radians or
     * less) a box well away from the region can be within rounding of every plane.
     *
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return true if contained
     */
    public boolean containsBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        return cull(allPlanes(), minX, minY, minZ, maxX, maxY, maxZ) == 0
                && (!bounded || overlapsVertexBox(minX, minY, minZ, maxX, maxY, maxZ));
    }

    /** @throws IllegalStateException if the region is unbounded */
    void requireBounded() {
        if (!bounded) {
            throw new IllegalStateException("the exact CROSSING test needs a bounded region; these planes leave"
                    + " it open (use CROSSING_CONSERVATIVE or add planes)");
        }
    }
}
