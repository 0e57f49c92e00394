package dev.boxwood.geom2d;

/**
 * An axis-aligned rectangle given by its two extreme corners (the "AABB" representation: left, top, right, bottom
 * on a y-down screen). This is the form every 2D kernel takes: pass {@code minX(), minY(), maxX(), maxY()}.
 *
 * <p>Closed: the boundary belongs to the rectangle. A rectangle with {@code minX == maxX} or {@code minY == maxY}
 * is valid (a segment or a point).
 *
 * @param minX the smallest x, finite
 * @param minY the smallest y, finite
 * @param maxX the largest x, finite and {@code >= minX}
 * @param maxY the largest y, finite and {@code >= minY}
 */
public record RectMinMax(double minX, double minY, double maxX, double maxY) {

    /**
     * Validates the corners.
     *
     * @param minX the smallest x
     * @param minY the smallest y
     * @param maxX the largest x
     * @param maxY the largest y
     * @throws IllegalArgumentException naming the first axis whose bounds are NaN, infinite or inverted
     *                                  ({@code min > max}), and both bounds on it
     *                                  ({@link dev.boxwood.geom.BoxMessages})
     */
    public RectMinMax {
        Check2.bounds(0, minX, maxX);
        Check2.bounds(1, minY, maxY);
    }

    /**
     * The same rectangle as centre and half extents. The centre is {@code min + (max - min) / 2}, rounded once
     * or twice, so converting back may move an edge by an ulp.
     *
     * @return the centre form
     * @throws IllegalArgumentException if the width or height overflows to infinity
     */
    public RectCenter toCenter() {
        return new RectCenter(Check2.midpoint(minX, maxX), Check2.midpoint(minY, maxY),
                (maxX - minX) * 0.5, (maxY - minY) * 0.5);
    }

    /**
     * The same rectangle as its min corner and size. The size is {@code max - min}, rounded once, so converting
     * back may move the max edges by an ulp.
     *
     * @return the corner form
     * @throws IllegalArgumentException if the width or height overflows to infinity
     */
    public RectCorner toCorner() {
        return new RectCorner(minX, minY, maxX - minX, maxY - minY);
    }
}
