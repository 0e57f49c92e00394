package dev.boxwood.geom2d;

/**
 * An axis-aligned rectangle given by its centre and half extents (the "box" representation). Convenient for
 * moving objects, whose position is their centre. The kernels take the min/max form: convert with
 * {@link #toMinMax()}.
 *
 * <p>Closed: the boundary belongs to the rectangle. Zero half extents are valid (a segment or a point).
 *
 * @param centerX    the x of the centre, finite
 * @param centerY    the y of the centre, finite
 * @param halfWidth  half the extent along x, finite and {@code >= 0}
 * @param halfHeight half the extent along y, finite and {@code >= 0}
 */
public record RectCenter(double centerX, double centerY, double halfWidth, double halfHeight) {

    /**
     * Validates the centre and the half extents.
     *
     * @param centerX the x of the centre
     * @param centerY the y of the centre
     * @param halfWidth half the extent along x
     * @param halfHeight half the extent along y
     * @throws IllegalArgumentException naming the argument, if a value is NaN or infinite or a half extent is
     *                                  negative
     */
    public RectCenter {
        Check2.finite(centerX, "centerX");
        Check2.finite(centerY, "centerY");
        Check2.nonNegative(halfWidth, "halfWidth");
        Check2.nonNegative(halfHeight, "halfHeight");
    }

    /**
     * The same rectangle as min and max corners, {@code center -+ half}, each rounded once (so never inverted).
     *
     * @return the min/max form
     * @throws IllegalArgumentException if a corner overflows to infinity
     */
    public RectMinMax toMinMax() {
        return new RectMinMax(centerX - halfWidth, centerY - halfHeight, centerX + halfWidth, centerY + halfHeight);
    }

    /**
     * The same rectangle as its min corner and size: corner {@code center - half}, size {@code 2 * half} (exact).
     *
     * @return the corner form
     * @throws IllegalArgumentException if the corner or the size overflows to infinity
     */
    public RectCorner toCorner() {
        return new RectCorner(centerX - halfWidth, centerY - halfHeight, halfWidth * 2, halfHeight * 2);
    }
}
