package dev.boxwood.geom2d;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Exact reference for the 2D kernel tests, in {@link BigDecimal}: every double converts exactly, sums and products
 * are exact, and only divisions and square roots round (to 70 digits). Its algorithms differ from the kernel's
 * where a choice exists (edge crossings and containment instead of separating axes, exact slabs, the plain
 * quadratic formula), so that a shared mistake is unlikely.
 *
 * <p>Besides answers it measures how far a case is from its decision boundary: the signed distance between two
 * convex polygons (the gap when they are apart, minus the penetration depth when they overlap). A double kernel
 * may decide either way a case closer to the boundary than a few ulps of the coordinates; the differential tests
 * skip those. Polygons are arrays {x0, y0, x1, y1, ...}, convex, in either winding, degenerate ones allowed (a
 * segment is two vertices, a point one).
 */
final class Exact2 {

    static final MathContext MC = new MathContext(70);

    private Exact2() {
    }

    static BigDecimal big(double v) {
        return new BigDecimal(v);
    }

    static BigDecimal[] poly(double... coordinates) {
        BigDecimal[] p = new BigDecimal[coordinates.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = big(coordinates[i]);
        }
        return p;
    }

    static BigDecimal[] rect(double minX, double minY, double maxX, double maxY) {
        return poly(minX, minY, maxX, minY, maxX, maxY, minX, maxY);
    }

    /** The segment from o to o + maxFraction * d, with its end point exact. */
    static BigDecimal[] cast(double ox, double oy, double dx, double dy, double maxFraction) {
        BigDecimal m = big(maxFraction);
        return new BigDecimal[] {big(ox), big(oy), big(ox).add(m.multiply(big(dx))), big(oy).add(m.multiply(big(dy)))};
    }

    static BigDecimal cross(BigDecimal ax, BigDecimal ay, BigDecimal bx, BigDecimal by) {
        return ax.multiply(by).subtract(ay.multiply(bx));
    }

    static BigDecimal dot(BigDecimal ax, BigDecimal ay, BigDecimal bx, BigDecimal by) {
        return ax.multiply(bx).add(ay.multiply(by));
    }

    static int orientSign(BigDecimal ax, BigDecimal ay, BigDecimal bx, BigDecimal by, BigDecimal cx, BigDecimal cy) {
        return cross(bx.subtract(ax), by.subtract(ay), cx.subtract(ax), cy.subtract(ay)).signum();
    }

    private static boolean between(BigDecimal v, BigDecimal a, BigDecimal b) {
        return v.compareTo(a.min(b)) >= 0 && v.compareTo(a.max(b)) <= 0;
    }

    /** Whether the closed segments [a, b] and [c, d] share a point (Cormen et al., 33.1), exact. */
    static boolean segmentsIntersect(BigDecimal ax, BigDecimal ay, BigDecimal bx, BigDecimal by,
                                     BigDecimal cx, BigDecimal cy, BigDecimal dx, BigDecimal dy) {
        int d1 = orientSign(ax, ay, bx, by, cx, cy);
        int d2 = orientSign(ax, ay, bx, by, dx, dy);
        int d3 = orientSign(cx, cy, dx, dy, ax, ay);
        int d4 = orientSign(cx, cy, dx, dy, bx, by);
        if (d1 * d2 < 0 && d3 * d4 < 0) {
            return true;
        }
        return (d1 == 0 && between(cx, ax, bx) && between(cy, ay, by))
                || (d2 == 0 && between(dx, ax, bx) && between(dy, ay, by))
                || (d3 == 0 && between(ax, cx, dx) && between(ay, cy, dy))
                || (d4 == 0 && between(bx, cx, dx) && between(by, cy, dy));
    }

    /** Whether p lies in the closed convex polygon: no two strict sides, and inside the bounding box. */
    static boolean pointInConvex(BigDecimal px, BigDecimal py, BigDecimal[] poly) {
        int n = poly.length / 2;
        boolean negative = false;
        boolean positive = false;
        BigDecimal minX = poly[0];
        BigDecimal maxX = poly[0];
        BigDecimal minY = poly[1];
        BigDecimal maxY = poly[1];
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            int s = orientSign(poly[2 * i], poly[2 * i + 1], poly[2 * j], poly[2 * j + 1], px, py);
            negative |= s < 0;
            positive |= s > 0;
            minX = minX.min(poly[2 * i]);
            maxX = maxX.max(poly[2 * i]);
            minY = minY.min(poly[2 * i + 1]);
            maxY = maxY.max(poly[2 * i + 1]);
        }
        return !(negative && positive) && between(px, minX, maxX) && between(py, minY, maxY);
    }

    static boolean pointInConvex(double px, double py, BigDecimal[] poly) {
        return pointInConvex(big(px), big(py), poly);
    }

    /** Whether two closed convex polygons share a point: some edges meet, or one contains a vertex of the other. */
    static boolean convexOverlap(BigDecimal[] a, BigDecimal[] b) {
        int n = a.length / 2;
        int m = b.length / 2;
        for (int i = 0; i < n; i++) {
            int i1 = (i + 1) % n;
            for (int j = 0; j < m; j++) {
                int j1 = (j + 1) % m;
                if (segmentsIntersect(a[2 * i], a[2 * i + 1], a[2 * i1], a[2 * i1 + 1],
                        b[2 * j], b[2 * j + 1], b[2 * j1], b[2 * j1 + 1])) {
                    return true;
                }
            }
        }
        return pointInConvex(a[0], a[1], b) || pointInConvex(b[0], b[1], a);
    }

    /** The point of [a, b] nearest to p, to 70 digits. */
    static BigDecimal[] closestOnSegment(BigDecimal px, BigDecimal py, BigDecimal ax, BigDecimal ay,
                                         BigDecimal bx, BigDecimal by) {
        BigDecimal ex = bx.subtract(ax);
        BigDecimal ey = by.subtract(ay);
        BigDecimal len2 = dot(ex, ey, ex, ey);
        BigDecimal along = dot(px.subtract(ax), py.subtract(ay), ex, ey);
        if (len2.signum() == 0 || along.signum() <= 0) {
            return new BigDecimal[] {ax, ay};
        }
        if (along.compareTo(len2) >= 0) {
            return new BigDecimal[] {bx, by};
        }
        BigDecimal u = along.divide(len2, MC);
        return new BigDecimal[] {ax.add(u.multiply(ex)), ay.add(u.multiply(ey))};
    }

    static BigDecimal distanceSquared(BigDecimal[] q, BigDecimal px, BigDecimal py) {
        BigDecimal dx = q[0].subtract(px);
        BigDecimal dy = q[1].subtract(py);
        return dot(dx, dy, dx, dy);
    }

    /** The point of the closed convex polygon nearest to p: p inside, else the best edge point. */
    static BigDecimal[] closestOnConvex(BigDecimal px, BigDecimal py, BigDecimal[] poly) {
        if (pointInConvex(px, py, poly)) {
            return new BigDecimal[] {px, py};
        }
        BigDecimal[] best = null;
        BigDecimal bestD2 = null;
        int n = poly.length / 2;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            BigDecimal[] q = closestOnSegment(px, py, poly[2 * i], poly[2 * i + 1], poly[2 * j], poly[2 * j + 1]);
            BigDecimal d2 = distanceSquared(q, px, py);
            if (bestD2 == null || d2.compareTo(bestD2) < 0) {
                best = q;
                bestD2 = d2;
            }
        }
        return best;
    }

    /**
     * Exact squared distance from p to the closed segment [a, b], as a fraction {numerator, denominator} with a
     * positive denominator: no division, so touching cases compare exactly.
     */
    static BigDecimal[] squaredDistanceToSegment(BigDecimal px, BigDecimal py, BigDecimal ax, BigDecimal ay,
                                                 BigDecimal bx, BigDecimal by) {
        BigDecimal ex = bx.subtract(ax);
        BigDecimal ey = by.subtract(ay);
        BigDecimal wx = px.subtract(ax);
        BigDecimal wy = py.subtract(ay);
        BigDecimal len2 = dot(ex, ey, ex, ey);
        BigDecimal along = dot(wx, wy, ex, ey);
        if (len2.signum() == 0 || along.signum() <= 0) {
            return new BigDecimal[] {dot(wx, wy, wx, wy), BigDecimal.ONE};
        }
        if (along.compareTo(len2) >= 0) {
            BigDecimal vx = px.subtract(bx);
            BigDecimal vy = py.subtract(by);
            return new BigDecimal[] {dot(vx, vy, vx, vy), BigDecimal.ONE};
        }
        BigDecimal c = cross(ex, ey, wx, wy); // distance to the line is |c| / |e|
        return new BigDecimal[] {c.multiply(c), len2};
    }

    /** Exact squared distance from p to the closed convex polygon (0 inside), as {numerator, denominator}. */
    static BigDecimal[] squaredDistanceToConvex(BigDecimal px, BigDecimal py, BigDecimal[] poly) {
        if (pointInConvex(px, py, poly)) {
            return new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ONE};
        }
        BigDecimal[] best = null;
        int n = poly.length / 2;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            BigDecimal[] d = squaredDistanceToSegment(px, py, poly[2 * i], poly[2 * i + 1], poly[2 * j],
                    poly[2 * j + 1]);
            if (best == null || d[0].multiply(best[1]).compareTo(best[0].multiply(d[1])) < 0) {
                best = d;
            }
        }
        return best;
    }

    /** Whether the distance from p to the closed convex polygon is at most r, exactly. */
    static boolean withinRadius(double px, double py, BigDecimal[] poly, double r) {
        BigDecimal[] d = squaredDistanceToConvex(big(px), big(py), poly);
        return d[0].compareTo(big(r).multiply(big(r)).multiply(d[1])) <= 0;
    }

    /** Exact squared distance from p to the closed rectangle: clamp and measure. */
    static BigDecimal squaredDistanceToRect(double px, double py, double minX, double minY, double maxX,
                                            double maxY) {
        BigDecimal dx = big(minX).subtract(big(px)).max(big(px).subtract(big(maxX))).max(BigDecimal.ZERO);
        BigDecimal dy = big(minY).subtract(big(py)).max(big(py).subtract(big(maxY))).max(BigDecimal.ZERO);
        return dot(dx, dy, dx, dy);
    }

    /** Signed distance from p to the boundary of the closed rectangle: positive outside, negative inside. */
    static double signedDistanceToRect(double px, double py, double minX, double minY, double maxX, double maxY) {
        BigDecimal outside = squaredDistanceToRect(px, py, minX, minY, maxX, maxY);
        if (outside.signum() > 0) {
            return Math.sqrt(outside.doubleValue());
        }
        BigDecimal depth = big(px).subtract(big(minX)).min(big(maxX).subtract(big(px)))
                .min(big(py).subtract(big(minY))).min(big(maxY).subtract(big(py)));
        return -depth.doubleValue();
    }

    /** Distance from p to the boundary of the polygon, positive outside and negative inside. */
    static double signedDistance(double px, double py, BigDecimal[] poly) {
        return signedDistance(poly(px, py), poly);
    }

    /**
     * Signed distance of two closed convex polygons: the gap when they are apart, minus the penetration depth when
     * they overlap. The depth is the smallest overlap of the projections over the edge normals and directions of
     * both, which is the true depth for convex polygons.
     */
    static double signedDistance(BigDecimal[] a, BigDecimal[] b) {
        return signedDistance(convexOverlap(a, b), a, b);
    }

    /** {@link #signedDistance(BigDecimal[], BigDecimal[])} when {@link #convexOverlap} is already known. */
    static double signedDistance(boolean overlap, BigDecimal[] a, BigDecimal[] b) {
        // Squared lengths are kept as exact fractions {numerator, denominator} and converted once at the end:
        // BigDecimal.doubleValue is slow on long expansions.
        BigDecimal[] best = null;
        if (!overlap) {
            // apart: the gap is between a vertex of one and an edge of the other
            for (int k = 0; k < 2; k++) {
                BigDecimal[] from = k == 0 ? a : b;
                BigDecimal[] to = k == 0 ? b : a;
                int n = to.length / 2;
                for (int i = 0; i < from.length / 2; i++) {
                    for (int e = 0; e < n; e++) {
                        int f = (e + 1) % n;
                        best = smaller(best, squaredDistanceToSegment(from[2 * i], from[2 * i + 1], to[2 * e],
                                to[2 * e + 1], to[2 * f], to[2 * f + 1]));
                    }
                }
            }
            return Math.sqrt(best[0].doubleValue() / best[1].doubleValue());
        }
        for (int k = 0; k < 2; k++) {
            BigDecimal[] poly = k == 0 ? a : b;
            int n = poly.length / 2;
            for (int i = 0; i < n; i++) {
                int j = (i + 1) % n;
                BigDecimal ex = poly[2 * j].subtract(poly[2 * i]);
                BigDecimal ey = poly[2 * j + 1].subtract(poly[2 * i + 1]);
                if (ex.signum() == 0 && ey.signum() == 0) {
                    continue;
                }
                best = smaller(best, squaredOverlapAlong(ey.negate(), ex, a, b));
                best = smaller(best, squaredOverlapAlong(ex, ey, a, b));
            }
        }
        return best == null ? 0 : -Math.sqrt(best[0].doubleValue() / best[1].doubleValue());
    }

    private static BigDecimal[] smaller(BigDecimal[] best, BigDecimal[] candidate) {
        return best == null || candidate[0].multiply(best[1]).compareTo(best[0].multiply(candidate[1])) < 0
                ? candidate : best;
    }

    /** The squared overlap of the projections on the axis n, over |n|^2, as a fraction (the overlap is >= 0). */
    private static BigDecimal[] squaredOverlapAlong(BigDecimal nx, BigDecimal ny, BigDecimal[] a, BigDecimal[] b) {
        BigDecimal[] ia = interval(nx, ny, a);
        BigDecimal[] ib = interval(nx, ny, b);
        BigDecimal overlap = ia[1].subtract(ib[0]).min(ib[1].subtract(ia[0]));
        return new BigDecimal[] {overlap.multiply(overlap), dot(nx, ny, nx, ny)};
    }

    private static BigDecimal[] interval(BigDecimal nx, BigDecimal ny, BigDecimal[] poly) {
        BigDecimal lo = null;
        BigDecimal hi = null;
        for (int i = 0; i < poly.length / 2; i++) {
            BigDecimal p = dot(nx, ny, poly[2 * i], poly[2 * i + 1]);
            lo = lo == null ? p : lo.min(p);
            hi = hi == null ? p : hi.max(p);
        }
        return new BigDecimal[] {lo, hi};
    }

    static BigDecimal sqrt(BigDecimal v) {
        return v.signum() <= 0 ? BigDecimal.ZERO : v.sqrt(MC);
    }
}
