package dev.boxwood.geom;

/**
 * Immutable plane {@code n · x = d} with a unit normal. The positive side {@code n · x > d} is <em>outside</em>;
 * the closed half-space {@code n · x <= d} is inside. This is the convention of every kernel (box-plane, frustum,
 * convex polyhedron). The constructor normalizes the normal (and scales {@code d} with it), so
 * {@code new Plane(0, 0, 2, 4)} is {@code z = 2}.
 *
 * @param nx unit normal x
 * @param ny unit normal y
 * @param nz unit normal z
 * @param d offset along the normal: the signed distance of the plane from the origin
 */
public record Plane(double nx, double ny, double nz, double d) {

    /**
     * Puts the plane {@code n · p <= d} stored flat at {@code planes[at .. at + 3]} into the form the plane tests
     * decide it in without moving it: multiplied by the power of two that brings its largest normal component into
     * {@code [1, 2)}, exactly the same half-space (no division by the normal's length, whose rounding can move the
     * plane across a point on it); where some component does not survive that scaling exactly (components as far
     * apart as 4e299 and 5e-9, whose products with coordinates could overflow), normalized instead. The normal must
     * be finite and non-zero.
     *
     * @param planes flat planes {@code (nx, ny, nz, d)}
     * @param at index of the plane's {@code nx}
     */
    public static void scaleExactly(double[] planes, int at) {
        double largest = Math.max(Math.abs(planes[at]), Math.max(Math.abs(planes[at + 1]), Math.abs(planes[at + 2])));
        int exponent = Math.getExponent(largest);
        boolean exact = true;
        for (int k = 0; k < 4; k++) {
            double v = planes[at + k];
            double scaled = Math.scalb(v, -exponent);
            exact &= Double.isFinite(scaled) && Math.scalb(scaled, exponent) == v
                    && (v == 0.0 || Math.abs(scaled) >= Double.MIN_NORMAL);
        }
        if (exact) {
            for (int k = 0; k < 4; k++) {
                planes[at + k] = Math.scalb(planes[at + k], -exponent);
            }
        } else {
            Geom.normalize(planes, at, 4);
        }
    }

    /**
     * Validates and normalizes the plane.
     *
     * @param nx see the record component
     * @param ny see the record component
     * @param nz see the record component
     * @param d see the record component
     * @throws IllegalArgumentException if the normal is zero, NaN or infinite ("normal"), or {@code d} is not
     *                                  finite, or not once divided by the normal's length ("d")
     */
    public Plane {
        Check.finite(d, "d");
        double[] plane = {nx, ny, nz, d};
        Check.normalize(plane, 4, "normal");
        if (!Double.isFinite(plane[3])) {
            throw new IllegalArgumentException("d (" + d + ") divided by the normal's length is not finite");
        }
        nx = plane[0];
        ny = plane[1];
        nz = plane[2];
        d = plane[3];
    }

    /**
     * The plane through a point with the given outward normal.
     *
     * @param px point x
     * @param py point y
     * @param pz point z
     * @param nx normal x (any non-zero length; it points to the outside)
     * @param ny normal y
     * @param nz normal z
     * @return the plane
     * @throws IllegalArgumentException if the normal is zero or a coordinate is not finite
     */
    public static Plane throughPoint(double px, double py, double pz, double nx, double ny, double nz) {
        Check.finite(px, "px");
        Check.finite(py, "py");
        Check.finite(pz, "pz");
        Plane unit = new Plane(nx, ny, nz, 0);
        return new Plane(unit.nx, unit.ny, unit.nz, unit.nx * px + unit.ny * py + unit.nz * pz);
    }

    /**
     * Signed distance of a point: positive outside.
     *
     * @param x point x
     * @param y point y
     * @param z point z
     * @return {@code n · p - d}
     */
    public double distance(double x, double y, double z) {
        return nx * x + ny * y + nz * z - d;
    }

    /**
     * Classifies a box against the inside half-space ({@link AabbPlane#classify}).
     *
     * @param box the box
     * @return {@link Geom#INSIDE}, {@link Geom#CROSSING} or {@link Geom#OUTSIDE}
     */
    public int classify(Aabb box) {
        return AabbPlane.classify(box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ(),
                nx, ny, nz, d);
    }
}
