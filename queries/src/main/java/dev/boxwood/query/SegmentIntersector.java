package dev.boxwood.query;

/**
 * The exact test of a segment against the user's own geometry of one object (mesh, capsule, convex hull...),
 * called by the hit collectors after the index has found that the segment enters the object's box.
 *
 * <p>The segment is given in world coordinates, exactly as the caller passed it to the cast. The answer must
 * follow the library's fraction convention: the smallest {@code t} in {@code [0, maxFraction]} at which
 * {@code origin + t * translation} is in the shape, 0 for a start inside a solid, or
 * {@link dev.boxwood.geom.Geom#NO_HIT} (any negative value) for a miss. The box entry fraction is a lower bound
 * of the exact one when the shape lies inside its box, up to rounding: the index computes it in its own frame (see
 * {@code docs/conventions.md}, Large worlds), so an exact answer may come out below it, by a few ulps or, far from
 * the index's origin, by the rounding of the segment's start into its frame ({@link ClosestHit} allows for both in
 * its clipping and tie-break, {@link RayCastVisitor#frame}).
 *
 * <p>The kernel has the common shapes in this convention: {@link dev.boxwood.geom.SegmentSphere},
 * {@link dev.boxwood.geom.SegmentCapsule}, {@link dev.boxwood.geom.SegmentTriangle} (watertight, two-sided; a mesh
 * is the smallest answer over its triangles, with the segment prepared once by {@code SegmentTriangle.Cast}),
 * {@link dev.boxwood.geom.SegmentAabb}, {@link dev.boxwood.geom.SegmentConvex} (a convex hull as planes) and, for a
 * yes/no answer, {@link dev.boxwood.geom.SegmentObb}. Each fraction kernel also describes a hit it found (point
 * and surface normal, {@link dev.boxwood.geom.SurfaceHit}): call it once for the hit the collector kept. For example,
 * for objects that are spheres held by the application:
 * <pre>{@code
 * SegmentIntersector spheres = (handle, userValue, sx, sy, sz, tx, ty, tz, maxFraction) -> {
 *     Ball ball = balls.get((int) userValue);
 *     return SegmentSphere.intersect(sx, sy, sz, tx, ty, tz, maxFraction, ball.x, ball.y, ball.z, ball.radius);
 * };
 * closestHit.setExactTest(spheres);
 * tree.rayCast(ox, oy, oz, dx, dy, dz, 1.0, -1L, closestHit, stack);
 * if (closestHit.hasHit()) { // where the ray meets the ball, and the normal there (SurfaceHit surface, reused)
 *     Ball ball = balls.get((int) closestHit.userValue());
 *     SegmentSphere.surface(ox, oy, oz, dx, dy, dz, closestHit.fraction(), ball.x, ball.y, ball.z, ball.radius,
 *             surface);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface SegmentIntersector {

    /**
     * The entry fraction of the segment into the object's exact shape.
     *
     * @param handle the object's handle
     * @param userValue the value given when the object was added
     * @param originX segment origin x
     * @param originY segment origin y
     * @param originZ segment origin z
     * @param translationX segment translation x
     * @param translationY segment translation y
     * @param translationZ segment translation z
     * @param maxFraction the cast's maximum fraction (collectors drop answers beyond their current bound
     *     themselves; passing the cast's own maximum keeps every answer independent of the visit order)
     * @return the entry fraction in {@code [0, maxFraction]}, or a negative value on a miss
     */
    double intersect(int handle, long userValue, double originX, double originY, double originZ,
                     double translationX, double translationY, double translationZ, double maxFraction);
}
