package dev.boxwood.geom2d;

/**
 * A mutable 2D point or vector, used as the caller-supplied destination of kernels that return a point (closest
 * points) or a vector (the push-out of {@link Response2}). Allocate one and reuse it; the kernels only write its
 * fields.
 */
public final class Vector2 {

    /** The x coordinate. */
    public double x;

    /** The y coordinate. */
    public double y;

    /** Creates the zero vector. */
    public Vector2() {
    }

    /**
     * Creates a vector with the given coordinates.
     *
     * @param x the x coordinate
     * @param y the y coordinate
     */
    public Vector2(double x, double y) {
        this.x = x;
        this.y = y;
    }

    /**
     * Sets both coordinates.
     *
     * @param x the x coordinate
     * @param y the y coordinate
     * @return this vector
     */
    public Vector2 set(double x, double y) {
        this.x = x;
        this.y = y;
        return this;
    }

    @Override
    public String toString() {
        return "(" + x + ", " + y + ")";
    }
}
