package dev.boxwood.geom;

/**
 * Immutable closed sphere, validated: finite centre, finite radius {@code >= 0} (radius 0 is a point).
 *
 * @param x centre x
 * @param y centre y
 * @param z centre z
 * @param radius radius
 */
public record Sphere(double x, double y, double z, double radius) {

    /**
     * Validates the sphere.
     *
     * @param x see the record component
     * @param y see the record component
     * @param z see the record component
     * @param radius see the record component
     * @throws IllegalArgumentException naming the coordinate that is NaN or infinite, or a negative radius
     */
    public Sphere {
        Check.finite(x, "x");
        Check.finite(y, "y");
        Check.finite(z, "z");
        Check.nonNegative(radius, "radius");
    }

    /**
     * Whether this sphere overlaps the box ({@link SphereAabb#test}; touching counts).
     *
     * @param box the box
     * @return true if they overlap
     */
    public boolean overlaps(Aabb box) {
        return SphereAabb.test(x, y, z, radius, box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(),
                box.maxZ());
    }

    /**
     * Whether this sphere overlaps another ({@link SphereSphere#test}; touching counts).
     *
     * @param other the other sphere
     * @return true if they overlap
     */
    public boolean overlaps(Sphere other) {
        if (Double.isFinite(other.x - x) && Double.isFinite(other.y - y) && Double.isFinite(other.z - z)
                && Double.isFinite(radius + other.radius)) {
            return SphereSphere.test(x, y, z, radius, other.x, other.y, other.z, other.radius);
        }
        // spheres near the double range, whose centre difference or radius sum overflows (the kernel needs them
        // finite): halved, which is exact at that magnitude and answers the same question
        return SphereSphere.test(0.5 * x, 0.5 * y, 0.5 * z, 0.5 * radius, 0.5 * other.x, 0.5 * other.y,
                0.5 * other.z, 0.5 * other.radius);
    }
}
