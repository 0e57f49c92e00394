package dev.boxwood.testkit;

import java.math.BigDecimal;

/**
 * Exact 2D reference decisions for rectangles (a 2D tree's stored boxes in the plane {@code z = 0}), built on
 * {@link ExactGeometry}: every double and float taken at its exact binary value. Rectangles are
 * {@code {minX, minY, maxX, maxY}} in the index's frame (the caller moves the query in by the frame rule,
 * {@link ExactGeometry#toFrame}); closed.
 */
public final class Exact2D {

    private Exact2D() {
    }

    /**
     * @param q query rectangle, frame
     * @param b stored rectangle, frame
     * @return whether the closed rectangles share a point
     */
    public static boolean overlaps(double[] q, double[] b) {
        return ExactGeometry.boxOverlaps(new double[] {q[0], q[1], 0, q[2], q[3], 0},
                new double[] {b[0], b[1], 0, b[2], b[3], 0});
    }

    /**
     * The segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, against the closed rectangle, exactly.
     *
     * @param ox origin x, frame
     * @param oy origin y, frame
     * @param dx translation x
     * @param dy translation y
     * @param maxFraction the maximum fraction
     * @param b rectangle, frame
     * @return the exact result ({@link ExactGeometry.SegmentResult#entryAxis} 0 for x, 1 for y, -1 the start)
     */
    public static ExactGeometry.SegmentResult segment(double ox, double oy, double dx, double dy, double maxFraction,
                                                      double[] b) {
        return ExactGeometry.segment(new double[] {ox, oy, 0}, new double[] {dx, dy, 0}, maxFraction,
                new double[] {b[0], b[1], 0, b[2], b[3], 0});
    }

    /**
     * Where a point lies relative to the closed rectangle, exactly.
     *
     * @param px x
     * @param py y
     * @param b rectangle
     * @return 1 strictly inside, 0 on the boundary, -1 outside
     */
    public static int pointState(double px, double py, double[] b) {
        if (px < b[0] || px > b[2] || py < b[1] || py > b[3]) {
            return -1;
        }
        if (px > b[0] && px < b[2] && py > b[1] && py < b[3]) {
            return 1;
        }
        return 0;
    }

    /**
     * Whether the exact point {@code o + t d} (t as a double) lies within {@code tolerance} of the rectangle's
     * boundary (and not inside by more).
     *
     * @param x reported x
     * @param y reported y
     * @param b rectangle
     * @return whether {@code (x, y)} lies on the closed boundary exactly
     */
    public static boolean onBoundary(double x, double y, double[] b) {
        return pointState(x, y, b) == 0;
    }

    /**
     * The expected outward normal axis of a hit on the rectangle entered from outside, by the exact entry: the axis
     * entered last, x on an exact tie. Returns {@code {nx, ny}}, or null when the start is on or in the rectangle.
     *
     * @param r the exact segment result (a hit)
     * @param dx translation x
     * @param dy translation y
     * @param tieX out: set [0] to 1 if the entry into x and y ties exactly
     * @param ox origin x (frame)
     * @param oy origin y (frame)
     * @param b the rectangle
     * @return the expected normal, or null
     */
    public static double[] entryNormal(ExactGeometry.SegmentResult r, double dx, double dy, int[] tieX, double ox,
                                       double oy, double[] b) {
        if (r.entryAxis < 0) {
            return null;
        }
        // exact entry times on both axes (when moving)
        ExactGeometry.Rational tx = dx == 0 ? null : new ExactGeometry.Rational(
                ExactGeometry.x(dx > 0 ? b[0] : b[2]).subtract(ExactGeometry.x(ox)), ExactGeometry.x(dx));
        ExactGeometry.Rational ty = dy == 0 ? null : new ExactGeometry.Rational(
                ExactGeometry.x(dy > 0 ? b[1] : b[3]).subtract(ExactGeometry.x(oy)), ExactGeometry.x(dy));
        if (tx != null && ty != null && tx.compareTo(ty) == 0) {
            tieX[0] = 1;
        }
        return r.entryAxis == 0 ? new double[] {dx > 0 ? -1 : 1, 0} : new double[] {0, dy > 0 ? -1 : 1};
    }

    /**
     * @param v a value
     * @return its exact decimal
     */
    public static BigDecimal x(double v) {
        return ExactGeometry.x(v);
    }
}
