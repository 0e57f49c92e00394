package dev.boxwood.geom2d;

/**
 * The orientation predicate every other 2D kernel is built on.
 *
 * <p><b>Exactness.</b> {@link #orient} subtracts coordinates before it multiplies, so its result is accurate to a
 * few ulps of the products {@code (bx - ax) * (cy - ay)} and {@code (by - ay) * (cx - ax)} at any distance from
 * the origin. Its sign is certain whenever {@code |orient| > (3 + 16 u) u * (|(bx - ax) * (cy - ay)| +
 * |(by - ay) * (cx - ax)|)}, {@code u = 2^-53} (Shewchuk 1997, "Adaptive Precision Floating-Point Arithmetic and
 * Fast Robust Geometric Predicates", bound {@code ccwerrboundA}); inside that band (a point within a few ulps of
 * the line) the sign may be wrong and a nonzero value may come out as 0. The result is exact, and so is its sign,
 * when the differences and products are exact, for example for integer coordinates below {@code 2^26} in
 * magnitude. The kernels of this package make no further attempt at exact predicates: near-degenerate inputs
 * behave like a shape within a few ulps of the given one.
 */
public final class Geom2 {

    private Geom2() {
    }

    /**
     * Twice the signed area of the triangle {@code a, b, c}: the cross product {@code (b - a) x (c - a)}. Positive
     * when {@code a, b, c} turn counterclockwise in a y-up frame (clockwise on a y-down screen), negative for the
     * other turn, zero when they are collinear. Differences first: see the class comment for its accuracy.
     *
     * @param ax x of a
     * @param ay y of a
     * @param bx x of b
     * @param by y of b
     * @param cx x of c
     * @param cy y of c
     * @return {@code (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)}
     */
    public static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
        return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    }

    /**
     * {@link #orient} of {@code p} against the edge {@code a b}, evaluated from the lexicographically smaller
     * endpoint so that {@code sideOfEdge(a, b, p) == -sideOfEdge(b, a, p)} holds exactly. Triangle tests built on
     * it give the same answer, bit for bit, for either winding and any rotation of the vertices.
     */
    static double sideOfEdge(double ax, double ay, double bx, double by, double px, double py) {
        if (isBefore(bx, by, ax, ay)) {
            return -orient(bx, by, ax, ay, px, py);
        }
        return orient(ax, ay, bx, by, px, py);
    }

    /** Lexicographic order of points, by x then y: picks one canonical direction for each edge. */
    static boolean isBefore(double ax, double ay, double bx, double by) {
        return ax < bx || (ax == bx && ay < by);
    }
}
