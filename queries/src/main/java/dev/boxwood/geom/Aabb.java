package dev.boxwood.geom;

/**
 * Immutable closed axis-aligned box {@code [min, max]}, validated: finite coordinates and {@code min <= max} on
 * every axis (equal bounds make a flat or point box, which is valid). Use it at API edges; hot loops call the static
 * kernels on the bounds.
 *
 * @param minX min x
 * @param minY min y
 * @param minZ min z
 * @param maxX max x
 * @param maxY max y
 * @param maxZ max z
 */
public record Aabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {

    /**
     * Validates the bounds.
     *
     * @param minX see the record component
     * @param minY see the record component
     * @param minZ see the record component
     * @param maxX see the record component
     * @param maxY see the record component
     * @param maxZ see the record component
     * @throws IllegalArgumentException naming the first axis whose bounds are NaN, infinite or inverted, and both
     *                                  bounds on it ({@link BoxMessages})
     */
    public Aabb {
        Check.bounds(0, minX, maxX);
        Check.bounds(1, minY, maxY);
        Check.bounds(2, minZ, maxZ);
    }

    /**
     * Whether this box and another overlap ({@link AabbAabb#test}; touching counts).
     *
     * @param other the other box
     * @return true if they overlap
     */
    public boolean overlaps(Aabb other) {
        return AabbAabb.test(minX, minY, minZ, maxX, maxY, maxZ,
                other.minX, other.minY, other.minZ, other.maxX, other.maxY, other.maxZ);
    }

    /**
     * Entry fraction of a segment into this box ({@link SegmentAabb#intersect}).
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @return the entry fraction, 0 for a start inside, or {@link Geom#NO_HIT}
     * @throws IllegalArgumentException naming a NaN or infinite argument, or a negative {@code maxFraction}
     */
    public double intersectSegment(double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction) {
        Check.segment(ox, oy, oz, dx, dy, dz, maxFraction);
        return SegmentAabb.intersect(ox, oy, oz, dx, dy, dz, maxFraction, minX, minY, minZ, maxX, maxY, maxZ);
    }
}
