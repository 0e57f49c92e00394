package dev.boxwood.geom2d;

import dev.boxwood.geom.Geom;

/**
 * Collision response: the smallest translation that separates two overlapping shapes.
 */
public final class Response2 {

    private Response2() {
    }

    /**
     * The minimum translation that pushes a disc out of a closed rectangle that does not move (as if the
     * rectangle had infinite mass), after the circle-AABB response article ("Instantaneous Circle-AABB Collision").
     * Adding {@code dest} to the centre leaves the circle touching the rectangle without overlapping it (up to
     * rounding).
     * <ul>
     *   <li>Centre outside the rectangle: push straight away from the nearest point {@code s} of the rectangle,
     *       by {@code r - |c - s|}.</li>
     *   <li>Centre inside or on the boundary: the nearest point no longer gives a direction, so leave through the
     *       nearest side, to radius {@code r} beyond it. Ties go to the first of -x, +x, -y, +y.</li>
     *   <li>No overlap (the circle is farther than {@code r}): {@code dest} is (0, 0) and the result is false.
     *       Touching overlaps with a zero push.</li>
     * </ul>
     * A zero radius pushes a centre inside to the nearest side; a flat or point rectangle works the same way.
     *
     * @param cx   x of the centre
     * @param cy   y of the centre
     * @param r    the radius, {@code >= 0}
     * @param minX the smallest x of the rectangle
     * @param minY the smallest y of the rectangle
     * @param maxX the largest x, {@code >= minX}
     * @param maxY the largest y, {@code >= minY}
     * @param dest receives the translation to add to the centre
     * @return true if the circle overlaps or touches the rectangle
     */
    public static boolean pushOutCircleRect(double cx, double cy, double r, double minX, double minY, double maxX,
                                            double maxY, Vector2 dest) {
        double dx = cx - Closest2.clamp(cx, minX, maxX);
        double dy = cy - Closest2.clamp(cy, minY, maxY);
        // the offset and the radius at their scale (a power of two, so ordinary inputs give the plain form's answer
        // bit for bit): their squares overflowed above about 1e154 (a NaN push, or a circle out of reach pushed)
        // and underflowed below about 1e-162 (a centre just outside pushed out through a side)
        int e = Geom.scaleExponent(dx, dy, 0.0, r);
        double scale = Geom.powerOfTwo(-e);
        double rs = r * scale;
        double d2 = Closest2.squaredLength(dx * scale, dy * scale);
        if (d2 > 0) {
            if (d2 > rs * rs) {
                dest.x = 0;
                dest.y = 0;
                return false;
            }
            double d = Math.sqrt(d2);
            double s = (rs - d) / d;
            dest.x = dx * s;
            dest.y = dy * s;
            return true;
        }
        // Inside: the circle-AABB response article guesses the circle came through the least penetrated side.
        double left = cx - minX;
        double right = maxX - cx;
        double bottom = cy - minY;
        double top = maxY - cy;
        double best = Math.min(Math.min(left, right), Math.min(bottom, top));
        dest.x = 0;
        dest.y = 0;
        if (left == best) {
            dest.x = (minX - r) - cx;
        } else if (right == best) {
            dest.x = (maxX + r) - cx;
        } else if (bottom == best) {
            dest.y = (minY - r) - cy;
        } else {
            dest.y = (maxY + r) - cy;
        }
        return true;
    }
}
