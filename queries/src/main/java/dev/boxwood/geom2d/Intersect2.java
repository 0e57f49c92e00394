package dev.boxwood.geom2d;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SegmentSphere;
import dev.boxwood.geom.SegmentTriangle;
import dev.boxwood.geom.SurfaceHit;

/**
 * Overlap tests and segment casts between 2D shapes (the 2D collision tutorial, "Overlap checks"). {@code test<A><B>}
 * methods return whether two closed shapes share at least one point (touching counts); {@code intersect<A><B>} methods
 * cast a segment {@code p(t) = origin + t * translation}, {@code t} in {@code [0, maxFraction]}, fill a
 * caller-supplied result and return the fraction of the first contact, 0 for a start inside, or
 * {@link Geom#NO_HIT} on a miss.
 *
 * <p>Rectangles are {@code minX, minY, maxX, maxY}; circles are centre and radius; triangles are three vertices in
 * either winding, and every triangle test gives the same answer, bit for bit, for either winding and any rotation
 * of the vertex order. Degenerate shapes behave as their limits and no method returns NaN for finite input. No
 * input validation (see the package comment): the coordinates must be finite and small enough that their
 * differences and the products of those differences do not overflow.
 */
public final class Intersect2 {

    private Intersect2() {
    }

    /**
     * Whether {@code p} lies in the closed disc (the 2D collision tutorial, "Point inside circle"):
     * {@code |p - c|^2 <= r^2}.
     *
     * @param px x of p
     * @param py y of p
     * @param cx x of the centre
     * @param cy y of the centre
     * @param r  the radius, {@code >= 0} (0 is the point {@code c})
     * @return true if {@code p} is inside or on the circle
     */
    public static boolean testPointCircle(double px, double py, double cx, double cy, double r) {
        return Closest2.squaredLength(px - cx, py - cy) <= r * r;
    }

    /**
     * Whether {@code p} lies in the closed rectangle (the 2D collision tutorial, "Point inside rectangle", AABB form:
     * comparisons only, exact).
     *
     * @param px   x of p
     * @param py   y of p
     * @param minX the smallest x of the rectangle
     * @param minY the smallest y of the rectangle
     * @param maxX the largest x, {@code >= minX}
     * @param maxY the largest y, {@code >= minY}
     * @return true if {@code p} is inside or on the boundary
     */
    public static boolean testPointRect(double px, double py, double minX, double minY, double maxX, double maxY) {
        return px >= minX && px <= maxX && py >= minY && py <= maxY;
    }

    /**
     * Whether {@code p} lies in the closed triangle {@code a, b, c}, in either winding: {@code p} is not strictly
     * on both sides of the edges (the 2D collision tutorial after Ericson, Real-Time Collision Detection, 5.4.2, with a
     * zero side counting as inside so that the boundary belongs to the triangle). A collinear triangle is the segment
     * its vertices span and three equal vertices are a point: for them all sides vanish on the line, so the point must
     * also lie in the bounding box of the vertices, which never excludes a point of a proper triangle. Signs come
     * from {@link Geom2#orient}, whose accuracy limits apply.
     *
     * @param px x of p
     * @param py y of p
     * @param ax x of a
     * @param ay y of a
     * @param bx x of b
     * @param by y of b
     * @param cx x of c
     * @param cy y of c
     * @return true if {@code p} is inside or on the boundary
     */
    public static boolean testPointTriangle(double px, double py, double ax, double ay, double bx, double by,
                                            double cx, double cy) {
        double d1 = Geom2.sideOfEdge(ax, ay, bx, by, px, py);
        double d2 = Geom2.sideOfEdge(bx, by, cx, cy, px, py);
        double d3 = Geom2.sideOfEdge(cx, cy, ax, ay, px, py);
        boolean negative = d1 < 0 || d2 < 0 || d3 < 0;
        boolean positive = d1 > 0 || d2 > 0 || d3 > 0;
        if (negative && positive) {
            return false;
        }
        return px >= Math.min(ax, Math.min(bx, cx)) && px <= Math.max(ax, Math.max(bx, cx))
                && py >= Math.min(ay, Math.min(by, cy)) && py <= Math.max(ay, Math.max(by, cy));
    }

    /**
     * Whether two closed discs overlap (the 2D collision tutorial, "Circle vs circle"): the distance of the centres is
     * at most the sum of the radii. Symmetric bit for bit: swapping the circles gives the same answer.
     *
     * @param ax x of the first centre
     * @param ay y of the first centre
     * @param ar the first radius, {@code >= 0}
     * @param bx x of the second centre
     * @param by y of the second centre
     * @param br the second radius, {@code >= 0}
     * @return true if the circles overlap or touch
     */
    public static boolean testCircleCircle(double ax, double ay, double ar, double bx, double by, double br) {
        double r = ar + br;
        return Closest2.squaredLength(bx - ax, by - ay) <= r * r;
    }

    /**
     * Whether a closed disc and a closed rectangle overlap (the 2D collision tutorial, "Circle vs rectangle"; the
     * circle-AABB response article): the point of the rectangle nearest to the centre is within the radius.
     *
     * @param cx   x of the centre
     * @param cy   y of the centre
     * @param r    the radius, {@code >= 0}
     * @param minX the smallest x of the rectangle
     * @param minY the smallest y of the rectangle
     * @param maxX the largest x, {@code >= minX}
     * @param maxY the largest y, {@code >= minY}
     * @return true if they overlap or touch
     */
    public static boolean testCircleRect(double cx, double cy, double r, double minX, double minY, double maxX,
                                         double maxY) {
        double dx = Closest2.clamp(cx, minX, maxX) - cx;
        double dy = Closest2.clamp(cy, minY, maxY) - cy;
        return Closest2.squaredLength(dx, dy) <= r * r;
    }

    /**
     * Whether a closed disc and a closed triangle (either winding) overlap (the 2D collision tutorial, "Circle vs
     * triangle"): the point of the triangle nearest to the centre, from {@link Closest2#closestPointTriangle}, is
     * within the radius. Degenerate triangles and a zero radius behave as their limits.
     *
     * @param sx x of the centre
     * @param sy y of the centre
     * @param r  the radius, {@code >= 0}
     * @param ax x of a
     * @param ay y of a
     * @param bx x of b
     * @param by y of b
     * @param cx x of c
     * @param cy y of c
     * @return true if they overlap or touch
     */
    public static boolean testCircleTriangle(double sx, double sy, double r, double ax, double ay, double bx,
                                             double by, double cx, double cy) {
        return Closest2.closestPointTriangleOrNull(sx, sy, ax, ay, bx, by, cx, cy, null) <= r * r;
    }

    /**
     * Whether two closed rectangles overlap (the 2D collision tutorial, "Rectangle vs rectangle", AABB form): their
     * intervals overlap on both axes. Comparisons only, so exact and symmetric.
     *
     * @param aMinX smallest x of the first rectangle
     * @param aMinY smallest y of the first rectangle
     * @param aMaxX largest x of the first rectangle
     * @param aMaxY largest y of the first rectangle
     * @param bMinX smallest x of the second rectangle
     * @param bMinY smallest y of the second rectangle
     * @param bMaxX largest x of the second rectangle
     * @param bMaxY largest y of the second rectangle
     * @return true if they overlap or touch
     */
    public static boolean testRectRect(double aMinX, double aMinY, double aMaxX, double aMaxY,
                                       double bMinX, double bMinY, double bMaxX, double bMaxY) {
        return aMinX <= bMaxX && bMinX <= aMaxX && aMinY <= bMaxY && bMinY <= aMaxY;
    }

    /**
     * Whether two closed triangles overlap, each in either winding, by the separating axis theorem (Gottschalk
     * et al. 1996; Ericson, Real-Time Collision Detection, 4.4; the 2D collision tutorial tests the same edge lines).
     * The axes are the six edge normals, where the test reads as "all vertices of one triangle lie strictly beyond an
     * edge line of the other", then the six edge directions: these end caps are what separates collinear
     * (segment-like) triangles lying on one line, and are harmless otherwise. Two point triangles are compared
     * as points. Symmetric and winding-independent bit for bit.
     *
     * @param ax x of the first triangle's a
     * @param ay y of the first triangle's a
     * @param bx x of the first triangle's b
     * @param by y of the first triangle's b
     * @param cx x of the first triangle's c
     * @param cy y of the first triangle's c
     * @param dx x of the second triangle's a
     * @param dy y of the second triangle's a
     * @param ex x of the second triangle's b
     * @param ey y of the second triangle's b
     * @param fx x of the second triangle's c
     * @param fy y of the second triangle's c
     * @return true if they overlap or touch
     */
    public static boolean testTriangleTriangle(double ax, double ay, double bx, double by, double cx, double cy,
                                               double dx, double dy, double ex, double ey, double fx, double fy) {
        // A point has no edge to carry an axis: reduce to a point test, which also covers point against point.
        if (isPoint(ax, ay, bx, by, cx, cy)) {
            return testPointTriangle(ax, ay, dx, dy, ex, ey, fx, fy);
        }
        if (isPoint(dx, dy, ex, ey, fx, fy)) {
            return testPointTriangle(dx, dy, ax, ay, bx, by, cx, cy);
        }
        for (int endCaps = 0; endCaps < 2; endCaps++) {
            boolean alongEdge = endCaps == 1;
            if (separatedByEdge(alongEdge, ax, ay, bx, by, cx, cy, dx, dy, ex, ey, fx, fy)
                    || separatedByEdge(alongEdge, bx, by, cx, cy, ax, ay, dx, dy, ex, ey, fx, fy)
                    || separatedByEdge(alongEdge, cx, cy, ax, ay, bx, by, dx, dy, ex, ey, fx, fy)
                    || separatedByEdge(alongEdge, dx, dy, ex, ey, fx, fy, ax, ay, bx, by, cx, cy)
                    || separatedByEdge(alongEdge, ex, ey, fx, fy, dx, dy, ax, ay, bx, by, cx, cy)
                    || separatedByEdge(alongEdge, fx, fy, dx, dy, ex, ey, ax, ay, bx, by, cx, cy)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPoint(double ax, double ay, double bx, double by, double cx, double cy) {
        return ax == bx && bx == cx && ay == by && by == cy;
    }

    /**
     * Whether the axis of the edge {@code p q} (its normal, or with {@code alongEdge} its direction) separates the
     * triangle {@code p q r} from the vertices {@code o1 o2 o3}. Projections are taken relative to the
     * lexicographically smaller endpoint, so the rounding does not depend on the edge's direction.
     */
    private static boolean separatedByEdge(boolean alongEdge, double px, double py, double qx, double qy,
                                           double rx, double ry, double o1x, double o1y, double o2x, double o2y,
                                           double o3x, double o3y) {
        if (Geom2.isBefore(qx, qy, px, py)) {
            // one direction per edge, so that both windings round alike
            return separatedByEdge(alongEdge, qx, qy, px, py, rx, ry, o1x, o1y, o2x, o2y, o3x, o3y);
        }
        double own;
        double ownEnd;
        double s1;
        double s2;
        double s3;
        if (alongEdge) {
            double ux = qx - px;
            double uy = qy - py;
            ownEnd = ux * ux + uy * uy;
            own = ux * (rx - px) + uy * (ry - py);
            s1 = ux * (o1x - px) + uy * (o1y - py);
            s2 = ux * (o2x - px) + uy * (o2y - py);
            s3 = ux * (o3x - px) + uy * (o3y - py);
        } else {
            // p and q project exactly to 0 on their own normal
            ownEnd = 0;
            own = Geom2.orient(px, py, qx, qy, rx, ry);
            s1 = Geom2.orient(px, py, qx, qy, o1x, o1y);
            s2 = Geom2.orient(px, py, qx, qy, o2x, o2y);
            s3 = Geom2.orient(px, py, qx, qy, o3x, o3y);
        }
        double lo = Math.min(0, Math.min(own, ownEnd));
        double hi = Math.max(0, Math.max(own, ownEnd));
        return (s1 < lo && s2 < lo && s3 < lo) || (s1 > hi && s2 > hi && s3 > hi);
    }

    /**
     * Casts the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, against the closed segment
     * {@code [a, b]} and reports the first common point (the 2D collision tutorial, "Segment vs segment"; Ericson,
     * Real-Time Collision Detection, 5.1.9). Crossing segments give the crossing point. Collinear overlapping segments
     * are a hit at the first point of the overlap along the cast segment: fraction 0 if the origin lies on
     * {@code [a, b]}, else the fraction of the endpoint of {@code [a, b]} reached first (reported exactly).
     * Parallel segments on different lines miss. A zero-length cast ({@code d = 0} or {@code maxFraction = 0}) is
     * the point {@code o}, which hits at fraction 0 if it lies on {@code [a, b]}; a zero-length target
     * {@code a = b} is a point, hit at its own fraction. Parallelism and collinearity are decided on
     * {@link Geom2#orient}-style cross products: lines whose cross product is within its rounding error are
     * parallel, and collinear if {@code a} is within rounding of the cast line too, so segments lying nearly on one
     * line meet only where their extents along it do. The products are taken with the
     * target relative to the origin and the translation each divided by a power of two near its magnitude, so the
     * answer does not depend on the scale of the input (lengths far below 1e-162 or above 1e154 included).
     *
     * @param ox          x of the origin
     * @param oy          y of the origin
     * @param dx          x of the translation
     * @param dy          y of the translation
     * @param maxFraction the largest fraction, {@code >= 0} (1 for the segment from {@code o} to {@code o + d})
     * @param ax          x of the target's first endpoint
     * @param ay          y of the target's first endpoint
     * @param bx          x of the target's second endpoint
     * @param by          y of the target's second endpoint
     * @param dest        receives the hit flag, the fraction and the contact point
     * @return the fraction of the first common point, or {@link Geom#NO_HIT}
     */
    public static double intersectSegmentSegment(double ox, double oy, double dx, double dy, double maxFraction,
                                                 double ax, double ay, double bx, double by, Hit2 dest) {
        // the target relative to the origin at its scale and the translation at its own (powers of two, so ordinary
        // inputs give the plain form's answer bit for bit): cross products of two lengths underflow below about
        // 1e-162 (crossing segments read as parallel, collinear fractions as 0 / 0) and overflow above about 1e154;
        // t = 2^(em - ed) t' for the fraction t' of the scaled problem, and s is the same in both
        int em = Geom.scaleExponent(ax - ox, ay - oy, bx - ox, Math.abs(by - oy));
        int ed = Geom.scaleExponent(dx, dy, 0.0, 0.0);
        double sm = Geom.powerOfTwo(-em);
        double sd = Geom.powerOfTwo(-ed);
        double ex = (bx - ax) * sm;
        double ey = (by - ay) * sm;
        double wx = (ax - ox) * sm;
        double wy = (ay - oy) * sm;
        if ((dx == 0 && dy == 0) || maxFraction == 0) {
            // Geom2.orient(a, b, o) at the target's scale
            if (ex * -wy - ey * -wx == 0 && inBox(ox, oy, ax, ay, bx, by)) {
                dest.set(0, ox, oy);
                return 0;
            }
            return miss(dest);
        }
        double ux = dx * sd;
        double uy = dy * sd;
        double denominator = ux * ey - uy * ex; // d x e
        double onLine = wx * uy - wy * ux; // w x d: zero when a lies on the cast line
        // A cross product within its rounding error (e and w rounded, two products, one difference: under
        // 4u of the terms' magnitudes) has no certain sign: lines that parallel give a crossing point of rounding
        // noise, anywhere (segments 2 apart on nearly one line were reported as meeting), so they are taken as
        // parallel, and as collinear when a is within rounding of the cast line too.
        if (Math.abs(denominator) > PARALLEL_SLACK * (Math.abs(ux * ey) + Math.abs(uy * ex))) {
            // o + t d = a + s e  =>  t = (w x e) / (d x e), s = (w x d) / (d x e)
            double t = Geom.scalb((wx * ey - wy * ex) / denominator, em - ed);
            double s = onLine / denominator;
            if (t >= 0 && t <= maxFraction && s >= 0 && s <= 1) {
                t += 0.0; // -0.0 (a zero numerator's sign) reads as 0
                dest.set(t, ox + t * dx, oy + t * dy);
                return t;
            }
            return miss(dest);
        }
        if (Math.abs(onLine) > PARALLEL_SLACK * (Math.abs(wx * uy) + Math.abs(wy * ux))) {
            return miss(dest); // parallel, on different lines (or a point target off the line)
        }
        // Collinear: place both target endpoints on the cast line by their fractions.
        double len2 = ux * ux + uy * uy;
        double ta = Geom.scalb((wx * ux + wy * uy) / len2, em - ed);
        double tb = Geom.scalb(((bx - ox) * sm * ux + (by - oy) * sm * uy) / len2, em - ed);
        boolean aFirst = ta <= tb;
        double first = aFirst ? ta : tb;
        double last = aFirst ? tb : ta;
        if (last < 0 || first > maxFraction) {
            return miss(dest);
        }
        if (first <= 0) {
            dest.set(0, ox, oy);
            return 0;
        }
        dest.set(first, aFirst ? ax : bx, aFirst ? ay : by);
        return first;
    }

    /**
     * Relative bound on the rounding of a cross product of {@link #intersectSegmentSegment} from the given
     * endpoints: {@code gamma(3)} (Higham) and a little more.
     */
    private static final double PARALLEL_SLACK = 4.0 * Geom.UNIT_ROUNDOFF;

    private static boolean inBox(double px, double py, double ax, double ay, double bx, double by) {
        return px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
    }

    private static double miss(Hit2 dest) {
        dest.setMiss();
        return Geom.NO_HIT;
    }

    private static double miss(SegmentHit2 dest) {
        dest.setMiss();
        return Geom.NO_HIT;
    }

    /**
     * Casts the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, through the closed disc and
     * reports where it enters and leaves (the 2D collision tutorial, "Segment vs circle"). A start inside or on the
     * circle enters at fraction 0 at {@code o}; an end inside leaves at {@code maxFraction}; a tangent touches with
     * equal entry and exit. A zero-length cast is the point-in-circle test: a point inside enters at 0 and stays inside
     * until {@code maxFraction}, the limit of ever shorter casts. A radius of 0 is the centre point.
     *
     * <p>Accuracy: the quadratic is taken relative to the centre, and its discriminant from the squared distance
     * between the centre and the line rather than from {@code b^2 - ac}, whose cancellation loses every digit for
     * long or distant segments; the two roots come from the cancellation-free pair {@code q / a, c / q} (Haines
     * et al., "Precision Improvements for Ray/Sphere Intersection", Ray Tracing Gems, 2019, ch. 7). A crossing is
     * then good to a few ulps; a grazing one (the line passing the centre at about the radius) is a near-double
     * root, whose fractions move by about {@code sqrt(2 r delta) / |d|} for an error {@code delta} in that
     * distance: about 1e-9 for a tangent (0.2999999985 for the exact tangent at 0.3 of {@code o = (-1, 3)},
     * {@code d = (6, -8)}, the unit circle), as the 3D sphere casts and sweeps ({@code docs/queries.md}, Swept
     * queries).
     *
     * @param ox          x of the origin
     * @param oy          y of the origin
     * @param dx          x of the translation
     * @param dy          y of the translation
     * @param maxFraction the largest fraction, {@code >= 0}
     * @param cx          x of the centre
     * @param cy          y of the centre
     * @param r           the radius, {@code >= 0}
     * @param dest        receives entry and exit fractions and points
     * @return the entry fraction (0 for a start inside), or {@link Geom#NO_HIT}
     */
    public static double intersectSegmentCircle(double ox, double oy, double dx, double dy, double maxFraction,
                                                double cx, double cy, double r, SegmentHit2 dest) {
        // the start and radius at their scale and the translation at its own (powers of two, so ordinary inputs
        // give the plain form's answer bit for bit): products of four lengths overflow beyond about 1e77 and
        // underflow below 1e-77; t = 2^(em - ed) t' for the fraction t' of the scaled quadratic
        double mx0 = ox - cx;
        double my0 = oy - cy;
        int em = Geom.scaleExponent(mx0, my0, 0.0, r);
        int ed = Geom.scaleExponent(dx, dy, 0.0, 0.0);
        double sm = Geom.powerOfTwo(-em);
        double sd = Geom.powerOfTwo(-ed);
        double mx = mx0 * sm;
        double my = my0 * sm;
        double rr = (r * sm) * (r * sm);
        double c = Closest2.squaredLength(mx, my) - rr; // <= 0: the origin is in the disc
        double ux = dx * sd;
        double uy = dy * sd;
        double a = Closest2.squaredLength(ux, uy);
        boolean startsInside = c <= 0;
        if (a == 0 || maxFraction == 0) {
            if (!startsInside) {
                return miss(dest);
            }
            dest.setEntry(0, ox, oy);
            dest.setExit(maxFraction, ox, oy); // a point inside stays inside
            return 0;
        }
        double b = mx * ux + my * uy; // half the linear coefficient of a t'^2 + 2 b t' + c
        if (!startsInside && b >= 0) {
            return miss(dest); // outside and not closing in
        }
        double k = b / a;
        double lx = mx - k * ux; // centre to the nearest point of the line
        double ly = my - k * uy;
        double h2 = rr - Closest2.squaredLength(lx, ly);
        if (h2 < 0) {
            if (!startsInside) {
                return miss(dest);
            }
            h2 = 0; // rounding near a tangent start: the chord has zero length
        }
        double root = Math.sqrt(a * h2); // sqrt(b^2 - a c)
        double entry;
        double exit;
        if (b <= 0) {
            double q = root - b; // >= 0
            exit = q / a;
            entry = q == 0 ? 0 : c / q;
        } else {
            double q = -(b + root); // < 0; only a start inside gets here
            entry = q / a;
            exit = c / q;
        }
        entry = Geom.scalb(entry, em - ed);
        exit = Geom.scalb(exit, em - ed);
        if (startsInside) {
            entry = 0;
        } else if (entry > maxFraction) {
            return miss(dest);
        }
        exit = Math.max(entry, Math.min(exit, maxFraction));
        setEntry(dest, entry, ox, oy, dx, dy);
        dest.setExit(exit, ox + exit * dx, oy + exit * dy);
        return entry;
    }

    private static void setEntry(SegmentHit2 dest, double entry, double ox, double oy, double dx, double dy) {
        if (entry == 0) {
            dest.setEntry(0, ox, oy);
        } else {
            dest.setEntry(entry, ox + entry * dx, oy + entry * dy);
        }
    }

    /**
     * Casts the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, through the closed rectangle and
     * reports where it enters and leaves, by the slab method (the 2D collision tutorial, "Segment vs rectangle";
     * Ericson, Real-Time Collision Detection, 5.3.3). A start inside or on the boundary enters at fraction 0 at
     * {@code o}; an end inside leaves at {@code maxFraction}. A point that enters or leaves through a side has that side's
     * coordinate exactly. A zero-length cast is the point-in-rectangle test (a point inside enters at 0 and leaves
     * at {@code maxFraction}), and flat rectangles (zero width or height) can be hit. Like the 3D slab test, the exit
     * bound is enlarged by {@link Geom#ROBUST_FAR_SCALE} before it is compared with the entry bound, so a segment that
     * touches a corner in exact arithmetic is never reported as a miss; then the exit equals the entry.
     *
     * @param ox          x of the origin
     * @param oy          y of the origin
     * @param dx          x of the translation
     * @param dy          y of the translation
     * @param maxFraction the largest fraction, {@code >= 0}
     * @param minX        the smallest x of the rectangle
     * @param minY        the smallest y of the rectangle
     * @param maxX        the largest x, {@code >= minX}
     * @param maxY        the largest y, {@code >= minY}
     * @param dest        receives entry and exit fractions and points
     * @return the entry fraction (0 for a start inside), or {@link Geom#NO_HIT}
     */
    public static double intersectSegmentRect(double ox, double oy, double dx, double dy, double maxFraction,
                                              double minX, double minY, double maxX, double maxY,
                                              SegmentHit2 dest) {
        double entry = 0;
        double exit = maxFraction;
        int entrySide = 0; // 0: none (start inside), 1: x side, 2: y side
        int exitSide = 0;
        double entryPlane = 0;
        double exitPlane = 0;
        for (int axis = 0; axis < 2; axis++) {
            double o = axis == 0 ? ox : oy;
            double d = axis == 0 ? dx : dy;
            double lo = axis == 0 ? minX : minY;
            double hi = axis == 0 ? maxX : maxY;
            if (d == 0) {
                if (o < lo || o > hi) {
                    return miss(dest); // parallel to this slab and outside it
                }
                continue;
            }
            double near = d > 0 ? lo : hi;
            double far = d > 0 ? hi : lo;
            double tNear = (near - o) / d; // difference before division: accurate far from the origin
            double tFar = (far - o) / d;
            if (tNear > entry) {
                entry = tNear;
                entrySide = axis + 1;
                entryPlane = near;
            }
            if (tFar < exit) {
                exit = tFar;
                exitSide = axis + 1;
                exitPlane = far;
            }
        }
        if (exit < 0 || entry > exit * Geom.ROBUST_FAR_SCALE) {
            return miss(dest);
        }
        if (entry > maxFraction) {
            entry = maxFraction; // passed only by the enlarged comparison: a touch at the very end
        }
        if (exit < entry) {
            exit = entry;
            exitSide = entrySide;
            exitPlane = entryPlane;
        }
        if (entrySide == 0) {
            dest.setEntry(0, ox, oy);
        } else {
            dest.setEntry(entry, entrySide == 1 ? entryPlane : ox + entry * dx,
                    entrySide == 2 ? entryPlane : oy + entry * dy);
        }
        exit += 0.0; // a far side through the origin with a negative direction gives -0.0: read as 0
        dest.setExit(exit, exitSide == 1 ? exitPlane : ox + exit * dx, exitSide == 2 ? exitPlane : oy + exit * dy);
        return entry;
    }

    // -------------------------------------------------------------------------------------------------------------
    // Hit points and normals: the 3D kernel's rules in the plane z = 0 (one implementation of each rule)

    /**
     * The point and outward normal of the hit at {@code fraction} of the segment {@code o + t d} on the closed
     * rectangle, with the conventions of {@link SurfaceHit} (z and the normal's z are 0): typically the entry
     * fraction of {@link #intersectSegmentRect} or a 2D tree's cast. The side is the one entered last, x before y on
     * a corner; a start strictly inside is {@link SurfaceHit#startInside} with the reversed unit translation as
     * normal; a start on a side gets that side's normal, and on a corner the side most against the translation (x
     * before y on ties). The point lies on the rectangle's boundary, exactly.
     *
     * @param ox       x of the origin
     * @param oy       y of the origin
     * @param dx       x of the translation
     * @param dy       y of the translation
     * @param fraction the hit fraction, {@code >= 0}; negative for a miss
     * @param minX     the smallest x of the rectangle
     * @param minY     the smallest y of the rectangle
     * @param maxX     the largest x, {@code >= minX}
     * @param maxY     the largest y, {@code >= minY}
     * @param dest     receives the hit
     * @return whether it is a hit ({@code fraction >= 0})
     */
    public static boolean surfaceSegmentRect(double ox, double oy, double dx, double dy, double fraction,
                                             double minX, double minY, double maxX, double maxY, SurfaceHit dest) {
        // a box as thick as the double range about the plane: the segment never enters a z face (no z motion), and
        // any start is nearer a side than a z face, so no z face is ever chosen
        return SegmentAabb.surface(ox, oy, 0.0, dx, dy, 0.0, fraction, minX, minY, -Double.MAX_VALUE, maxX, maxY,
                Double.MAX_VALUE, dest);
    }

    /**
     * The point and outward normal of the hit at {@code fraction} of the segment {@code o + t d} on the closed disc
     * ({@link SegmentSphere#surface} in the plane; conventions of {@link SurfaceHit}, z components 0): typically the
     * entry fraction of {@link #intersectSegmentCircle}.
     *
     * @param ox       x of the origin
     * @param oy       y of the origin
     * @param dx       x of the translation
     * @param dy       y of the translation
     * @param fraction the hit fraction, {@code >= 0}; negative for a miss
     * @param cx       x of the centre
     * @param cy       y of the centre
     * @param r        the radius, {@code >= 0}
     * @param dest     receives the hit
     * @return whether it is a hit ({@code fraction >= 0})
     */
    public static boolean surfaceSegmentCircle(double ox, double oy, double dx, double dy, double fraction,
                                               double cx, double cy, double r, SurfaceHit dest) {
        return SegmentSphere.surface(ox, oy, 0.0, dx, dy, 0.0, fraction, cx, cy, 0.0, r, dest);
    }

    /**
     * The point and normal of the hit at {@code fraction} of the segment {@code o + t d} on the segment
     * {@code [a, b]} (an edge of a level's outline), with the conventions of {@link SurfaceHit} (z components 0):
     * the unit normal of the edge's line on the side the segment comes from; for a zero-length cast, and for a cast
     * along the edge's line (or grazing it within rounding), the right-hand side of {@code a -> b}
     * ({@code (by - ay, ax - bx)} normalized, in a y-up frame); for a point target
     * ({@code a = b}) the reversed unit translation. Typically the fraction of {@link #intersectSegmentSegment}. The
     * edge is the triangle {@code (a, b, a + z)} standing on it, whose normal {@link SegmentTriangle#surface}
     * gives.
     *
     * @param ox       x of the origin
     * @param oy       y of the origin
     * @param dx       x of the translation
     * @param dy       y of the translation
     * @param fraction the hit fraction, {@code >= 0}; negative for a miss
     * @param ax       x of the edge's first endpoint
     * @param ay       y of the edge's first endpoint
     * @param bx       x of the edge's second endpoint
     * @param by       y of the edge's second endpoint
     * @param dest     receives the hit
     * @return whether it is a hit ({@code fraction >= 0})
     */
    public static boolean surfaceSegmentSegment(double ox, double oy, double dx, double dy, double fraction,
                                                double ax, double ay, double bx, double by, SurfaceHit dest) {
        return SegmentTriangle.surface(ox, oy, 0.0, dx, dy, 0.0, fraction, ax, ay, 0.0, bx, by, 0.0, ax, ay, 1.0,
                dest);
    }
}
