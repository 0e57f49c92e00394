package dev.boxwood.geom2d;

import dev.boxwood.geom.Geom;

/**
 * Closest points: the point of a closed shape nearest to a query point {@code p} (the 2D collision tutorial, "Nearest
 * point"). When {@code p} is inside the shape the answer is {@code p} itself. Every method writes the point into a
 * caller-supplied {@link Vector2} and returns the squared distance from {@code p} to it (0 inside). Degenerate
 * shapes behave as their limits; no method returns NaN for finite input. No input validation (see the package
 * comment).
 */
public final class Closest2 {

    private Closest2() {
    }

    /**
     * The point of the segment {@code [a, b]} nearest to {@code p}: the projection of {@code p} on the line,
     * clamped to the segment (the 2D collision tutorial; Ericson, Real-Time Collision Detection, 5.1.2). A zero-length
     * segment is the point {@code a}. The endpoints are returned exactly when the projection falls on or beyond them.
     *
     * @param px   x of p
     * @param py   y of p
     * @param ax   x of a
     * @param ay   y of a
     * @param bx   x of b
     * @param by   y of b
     * @param dest receives the closest point
     * @return the squared distance from {@code p} to the closest point
     */
    public static double closestPointSegment(double px, double py, double ax, double ay, double bx, double by,
                                             Vector2 dest) {
        double u = segmentParameter(px, py, ax, ay, bx, by);
        double qx = lerp(ax, bx, u);
        double qy = lerp(ay, by, u);
        dest.x = qx;
        dest.y = qy;
        return squaredLength(qx - px, qy - py);
    }

    /**
     * The point of the closed disc (centre {@code c}, radius {@code r}) nearest to {@code p}: {@code p} itself
     * inside, else the point of the circle on the ray from the centre through {@code p} (the 2D collision tutorial). A
     * radius of 0 gives the centre.
     *
     * @param px   x of p
     * @param py   y of p
     * @param cx   x of the centre
     * @param cy   y of the centre
     * @param r    the radius, {@code >= 0}
     * @param dest receives the closest point
     * @return the squared distance from {@code p} to the closest point
     */
    public static double closestPointCircle(double px, double py, double cx, double cy, double r, Vector2 dest) {
        double dx = px - cx;
        double dy = py - cy;
        // the offset and the radius at their scale (a power of two, so ordinary inputs give the plain form's answer
        // bit for bit): their squares overflowed above about 1e154, a point far outside read as inside, and
        // underflowed below about 1e-162
        int e = Geom.scaleExponent(dx, dy, 0.0, r);
        double scale = Geom.powerOfTwo(-e);
        double mx = dx * scale;
        double my = dy * scale;
        double rs = r * scale;
        double d2 = squaredLength(mx, my);
        if (d2 <= rs * rs) {
            dest.x = px;
            dest.y = py;
            return 0;
        }
        double d = Math.sqrt(d2); // > rs >= 0, so no division by zero
        double s = rs / d;
        dest.x = cx + dx * s;
        dest.y = cy + dy * s;
        double gap = Geom.scalb(d - rs, e);
        return gap * gap;
    }

    /**
     * The point of the closed rectangle {@code [minX, maxX] x [minY, maxY]} nearest to {@code p}: {@code p}
     * clamped to the rectangle (the 2D collision tutorial). The centre and corner forms convert with
     * {@link RectCenter#toMinMax()} and {@link RectCorner#toMinMax()}.
     *
     * @param px   x of p
     * @param py   y of p
     * @param minX the smallest x of the rectangle
     * @param minY the smallest y of the rectangle
     * @param maxX the largest x, {@code >= minX}
     * @param maxY the largest y, {@code >= minY}
     * @param dest receives the closest point
     * @return the squared distance from {@code p} to the closest point
     */
    public static double closestPointRect(double px, double py, double minX, double minY, double maxX, double maxY,
                                          Vector2 dest) {
        double qx = clamp(px, minX, maxX);
        double qy = clamp(py, minY, maxY);
        dest.x = qx;
        dest.y = qy;
        return squaredLength(qx - px, qy - py);
    }

    /**
     * The point of the closed triangle {@code a, b, c} (either winding) nearest to {@code p}: {@code p} itself
     * inside, else the nearest of the closest points on the three edges. A collinear triangle is the segment
     * spanned by its vertices, a triangle with three equal vertices is a point. The answer does not depend on the
     * winding or on which vertex comes first.
     *
     * @param px   x of p
     * @param py   y of p
     * @param ax   x of a
     * @param ay   y of a
     * @param bx   x of b
     * @param by   y of b
     * @param cx   x of c
     * @param cy   y of c
     * @param dest receives the closest point
     * @return the squared distance from {@code p} to the closest point
     */
    public static double closestPointTriangle(double px, double py, double ax, double ay, double bx, double by,
                                              double cx, double cy, Vector2 dest) {
        return closestPointTriangleOrNull(px, py, ax, ay, bx, by, cx, cy, dest);
    }

    /**
     * {@link #closestPointTriangle} with an optional destination, so that the distance-only callers share it.
     * The 2D collision tutorial walks Ericson's Voronoi regions (Real-Time Collision Detection, 5.1.5); its face-region
     * test does not hold for collinear triangles, so we test containment with orientations and otherwise take the best
     * of the three edges, which makes degenerate triangles exact limits.
     */
    static double closestPointTriangleOrNull(double px, double py, double ax, double ay, double bx, double by,
                                             double cx, double cy, Vector2 dest) {
        if (Intersect2.testPointTriangle(px, py, ax, ay, bx, by, cx, cy)) {
            if (dest != null) {
                dest.x = px;
                dest.y = py;
            }
            return 0;
        }
        double best = Double.POSITIVE_INFINITY;
        double bestX = px;
        double bestY = py;
        for (int edge = 0; edge < 3; edge++) {
            double x0 = edge == 0 ? ax : edge == 1 ? bx : cx;
            double y0 = edge == 0 ? ay : edge == 1 ? by : cy;
            double x1 = edge == 0 ? bx : edge == 1 ? cx : ax;
            double y1 = edge == 0 ? by : edge == 1 ? cy : ay;
            if (Geom2.isBefore(x1, y1, x0, y0)) {
                // one direction per edge, so that both windings round alike
                double swap = x0;
                x0 = x1;
                x1 = swap;
                swap = y0;
                y0 = y1;
                y1 = swap;
            }
            double u = segmentParameter(px, py, x0, y0, x1, y1);
            double qx = lerp(x0, x1, u);
            double qy = lerp(y0, y1, u);
            double d2 = squaredLength(qx - px, qy - py);
            // equal distances (the overlapping edges of a collinear triangle) go to the lexicographically first
            // point, so the point does not depend on which edge comes first either
            if (d2 < best || d2 == best && Geom2.isBefore(qx, qy, bestX, bestY)) {
                best = d2;
                bestX = qx;
                bestY = qy;
            }
        }
        if (dest != null) {
            dest.x = bestX;
            dest.y = bestY;
        }
        return best;
    }

    /** The clamped parameter {@code u} in {@code [0, 1]} of the point of {@code [a, b]} nearest to {@code p}. */
    static double segmentParameter(double px, double py, double ax, double ay, double bx, double by) {
        double dx = bx - ax;
        double dy = by - ay;
        if (dx == 0 && dy == 0) {
            return 0; // a zero-length segment is its endpoint (the 2D collision tutorial guards the same division)
        }
        // the segment and the point (relative to a) each at its own scale (powers of two, so ordinary inputs give
        // the plain form's answer bit for bit): the products overflowed above lengths of about 1e154 (u = inf / inf,
        // a NaN point) and underflowed below about 1e-162 (a segment read as its endpoint a); u = 2^(ew - ed) u'
        int ed = Geom.scaleExponent(dx, dy, 0.0, 0.0);
        int ew = Geom.scaleExponent(px - ax, py - ay, 0.0, 0.0);
        double sd = Geom.powerOfTwo(-ed);
        double sw = Geom.powerOfTwo(-ew);
        double ux = dx * sd;
        double uy = dy * sd;
        double u = Geom.scalb(((px - ax) * sw * ux + (py - ay) * sw * uy) / squaredLength(ux, uy), ew - ed);
        return u <= 0 ? 0 : u >= 1 ? 1 : u;
    }

    /**
     * {@code a + u (b - a)} for {@code u} in {@code [0, 1]}, measured from the nearer endpoint so that {@code u = 0}
     * and {@code u = 1} give {@code a} and {@code b} exactly.
     */
    static double lerp(double a, double b, double u) {
        return u <= 0.5 ? a + u * (b - a) : b - (1 - u) * (b - a);
    }

    static double clamp(double v, double min, double max) {
        return v < min ? min : v > max ? max : v;
    }

    static double squaredLength(double x, double y) {
        return x * x + y * y;
    }
}
