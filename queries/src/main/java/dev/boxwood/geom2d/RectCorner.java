package dev.boxwood.geom2d;

/**
 * An axis-aligned rectangle given by its min corner and its size (the "rect" representation: top-left corner,
 * width and height on a y-down screen). The kernels take the min/max form: convert with {@link #toMinMax()}.
 *
 * <p>Closed: the boundary belongs to the rectangle. Zero width or height is valid (a segment or a point).
 *
 * @param x      the smallest x (the corner), finite
 * @param y      the smallest y (the corner), finite
 * @param width  the extent along x, finite and {@code >= 0}
 * @param height the extent along y, finite and {@code >= 0}
 */
public record RectCorner(double x, double y, double width, double height) {

    /**
     * Validates the corner and the size.
     *
     * @param x the smallest x
     * @param y the smallest y
     * @param width the extent along x
     * @param height the extent along y
     * @throws IllegalArgumentException naming the argument, if a value is NaN or infinite or the width or height
     *                                  is negative
     */
    public RectCorner {
        Check2.finite(x, "x");
        Check2.finite(y, "y");
        Check2.nonNegative(width, "width");
        Check2.nonNegative(height, "height");
    }

    /**
     * The same rectangle as min and max corners: min is the corner, max is {@code corner + size}, rounded once.
     *
     * @return the min/max form
     * @throws IllegalArgumentException if the max corner overflows to infinity
     */
    public RectMinMax toMinMax() {
        return new RectMinMax(x, y, x + width, y + height);
    }

    /**
     * The same rectangle as centre and half extents: centre {@code corner + size / 2}, half extents
     * {@code size / 2} (exact unless the size is subnormal).
     *
     * @return the centre form
     * @throws IllegalArgumentException if the centre overflows to infinity
     */
    public RectCenter toCenter() {
        return new RectCenter(x + width * 0.5, y + height * 0.5, width * 0.5, height * 0.5);
    }
}
