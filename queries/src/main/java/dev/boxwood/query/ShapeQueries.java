package dev.boxwood.query;

import dev.boxwood.geom.Aabb;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.Sphere;

/**
 * The queries shared by the indexes that answer them in place (the dynamic tree and its read views, mapped static
 * worlds), beyond the box query and ray cast of {@link SpatialQueries}: sphere, box, oriented-box and convex-region
 * selection in the three {@link RegionMode}s, with the per-box decisions of {@link RegionTests}; a box or a sphere
 * swept over one frame, with the contact times of {@link SweepTests}; and the objects nearest to a point, {@code k}
 * of them or one at a time, by a best-first search whose step is {@link NearestNeighbours#nextNode}. Every
 * implementation therefore reports the same objects with the same fractions and distances for the same stored boxes
 * and origin, and, where an order is promised, in the same order for the same handles. Batches and applications
 * can be written once against it.
 *
 * <p>Conventions as in {@link SpatialQueries}: closed shapes (touching counts), each object's stored tight box,
 * world coordinates moved into the index's frame, and only objects with {@code (categoryBits & categoryMask) != 0}
 * take part. Region queries then apply the {@link QueryFilter} (may be {@code null}: all) before the visitor, which
 * returns {@code false} to stop; their visit order is unspecified. Sweeps follow the {@link RayCastVisitor}
 * protocol, so the collectors ({@link ClosestHit}, {@link AnyHit}, {@link AllHits}) apply their own filter and
 * ignored handles. Nearest queries apply the filter before their {@code k} limit and report nearest first. Bad
 * arguments throw {@link IllegalArgumentException} naming them. Scratch memory ({@link TraversalStack},
 * {@link NearestNeighbours}) belongs to one query at a time: a query run from inside another's callback needs scratch
 * of its own, since one nested on the running query's scratch overwrites the state that query resumes from, which
 * then throws {@link IllegalStateException} instead of answering.
 */
public interface ShapeQueries extends SpatialQueries {

    /**
     * Objects whose tight box overlaps (crossing modes) or lies inside ({@link RegionMode#WINDOW}) the closed
     * sphere ({@link RegionTests#classifySphere}).
     *
     * @param centerX centre x
     * @param centerY centre y
     * @param centerZ centre z
     * @param radius radius, finite, {@code >= 0}
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     */
    void querySphere(double centerX, double centerY, double centerZ, double radius, RegionMode mode,
                     long categoryMask, QueryFilter filter, OverlapVisitor visitor, TraversalStack stack);

    /**
     * Objects whose tight box overlaps (crossing modes) or lies inside ({@link RegionMode#WINDOW}) the closed
     * query box ({@link RegionTests#classifyBox}).
     *
     * @param minX query min x
     * @param minY query min y
     * @param minZ query min z
     * @param maxX query max x
     * @param maxY query max y
     * @param maxZ query max z
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     */
    void queryBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ, RegionMode mode,
                  long categoryMask, QueryFilter filter, OverlapVisitor visitor, TraversalStack stack);

    /**
     * Objects whose tight box overlaps or lies inside the closed oriented box in {@link ObbLayout}
     * ({@link RegionTests#classifyObb}: the 15-axis test, conservative by its epsilon). Axes within
     * {@link dev.boxwood.geom.Obb#ORTHONORMAL_TOLERANCE} of orthonormal are accepted and re-orthonormalized first
     * ({@link dev.boxwood.geom.Obb#copyForQuery}), so the box tested is the one {@link dev.boxwood.geom.Obb#read}
     * makes of the array; moved into the index's frame, its half extents grow by the exact error of moving its
     * centre for the crossing modes ({@link RegionTests#frameObb}), so a box it touches in world coordinates is
     * reported far from the origin too.
     *
     * @param obb array holding the oriented box
     * @param offset where it starts
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     */
    void queryObb(double[] obb, int offset, RegionMode mode, long categoryMask, QueryFilter filter,
                  OverlapVisitor visitor, TraversalStack stack);

    /**
     * Objects whose tight box overlaps or lies inside a convex region ({@link RegionTests#acceptsConvex});
     * {@link RegionMode#CROSSING} needs a bounded region.
     *
     * @param region the prepared region
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     */
    void queryConvex(ConvexRegion region, RegionMode mode, long categoryMask, QueryFilter filter,
                     OverlapVisitor visitor, TraversalStack stack);

    /**
     * Sweeps a box over one frame: each object whose stored tight box the box moving by {@code (dx, dy, dz)}
     * touches, following the {@link RayCastVisitor} protocol (so {@link ClosestHit}, {@link AnyHit} and
     * {@link AllHits} answer closest, any and all, and a visitor may stop, skip or clip).
     *
     * <p>Time {@code u} is normalized over the frame: the box is at its start at {@code u = 0} and has moved by the
     * whole displacement at {@code u = 1}. The fraction handed to the visitor is the first time of contact with the
     * object's closed tight box ({@link SweepTests#exactContact}: the first time of
     * {@link dev.boxwood.geom.AabbAabb#sweep}), 0 for an object the box touches or overlaps at the start.
     * {@code visitor.begin} receives the box's centre as the origin, the displacement as the translation and
     * {@code maxFraction = 1}, so a collector's exact test sees that centre path (a test written for rays misses
     * what only the box's extent touches: give sweeps a collector without one, or one that allows for the box).
     * Times are those of the whole frame, never of one a visitor clipped, so they do not depend on the visit order;
     * objects come roughly near to far, and {@link AllHits#sort} orders them by time, then handle.
     *
     * @param minX box min x at the start
     * @param minY box min y at the start
     * @param minZ box min z at the start
     * @param maxX box max x at the start
     * @param maxY box max y at the start
     * @param maxZ box max z at the start
     * @param dx displacement over the frame, x
     * @param dy displacement over the frame, y
     * @param dz displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects and steers the query
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite or inverted box, a non-finite displacement or null
     *                                  arguments, before {@code visitor.begin}
     */
    void sweepBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                  double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor, TraversalStack stack);

    /**
     * Sweeps a sphere over one frame: each object whose stored tight box the sphere moving by
     * {@code (dx, dy, dz)} touches, with the exact first time of contact (the centre's path against the box
     * rounded by the radius, {@link SweepTests#exactContact}), in the time, protocol and conventions of
     * {@link #sweepBox}: {@code visitor.begin} receives the centre, the displacement and {@code maxFraction = 1},
     * and an object the sphere touches at the start gets 0. With {@link AllHits} this is also the capsule overlap
     * query: the objects within {@code radius} of the segment from the centre to the centre plus the displacement.
     *
     * @param centerX centre x at the start
     * @param centerY centre y at the start
     * @param centerZ centre z at the start
     * @param radius radius, finite, {@code >= 0}
     * @param dx displacement over the frame, x
     * @param dy displacement over the frame, y
     * @param dz displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects and steers the query
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or one above
     *                                  {@link Arguments#MAX_RADIUS}, or null arguments, before {@code visitor.begin}
     */
    void sweepSphere(double centerX, double centerY, double centerZ, double radius, double dx, double dy, double dz,
                     long categoryMask, RayCastVisitor visitor, TraversalStack stack);

    /**
     * The object nearest to the point: {@link #kNearest} with {@code k = 1}.
     *
     * @param x point x
     * @param y point y
     * @param z point z
     * @param maxDistance largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the limit, or {@code null}
     * @param exact the exact distance of each candidate, or {@code null} for the tight-box distance
     * @param dest receives at most one result (cleared first)
     * @throws IllegalArgumentException for non-finite coordinates, a point more than {@link Arguments#NEAREST_REACH}
     *                                  from the origin on some axis, a negative or NaN maximum or a null
     *                                  {@code dest}
     */
    void nearest(double x, double y, double z, double maxDistance, long categoryMask, QueryFilter filter,
                 DistanceFunction exact, NearestNeighbours dest);

    /**
     * The {@code k} objects nearest to the point, nearest first, by a best-first search (Hjaltason and Samet 1999)
     * on the primitive heap of {@code dest}.
     *
     * <p>The distance of an object is the Euclidean distance from the point to its stored tight box (0 for a point
     * inside or on it), computed in the index's frame ({@link RegionTests#squaredDistance} of
     * {@code point - origin}); with a {@link DistanceFunction} it is the user's exact distance instead, which must
     * not be below the box distance (a negative value drops the object). Results are ordered by squared distance,
     * the search's key, equal squares by the lower handle, so the answer is deterministic; the distance reported is
     * the square root of that key, so two squares an ulp apart can report the same distance, and then the nearer
     * square comes first whatever its handle. Only objects with {@code (categoryBits & categoryMask) != 0} that the
     * filter accepts count, filtered before the {@code k} limit. {@code maxDistance} is closed: an object at exactly
     * that distance is reported. {@code k} above the number of objects returns all of them in order; {@code k = 0}
     * returns none. Nothing is allocated once {@code dest} has grown.
     *
     * @param x point x
     * @param y point y
     * @param z point z
     * @param k number of objects wanted, {@code >= 0}
     * @param maxDistance largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the limit, or {@code null}
     * @param exact the exact distance of each candidate, or {@code null} for the tight-box distance
     * @param dest receives the results (cleared first)
     * @throws IllegalArgumentException for non-finite coordinates, a point more than {@link Arguments#NEAREST_REACH}
     *                                  from the origin on some axis, a negative {@code k}, a negative or NaN
     *                                  maximum or a null {@code dest}
     */
    void kNearest(double x, double y, double z, int k, double maxDistance, long categoryMask, QueryFilter filter,
                  DistanceFunction exact, NearestNeighbours dest);

    /**
     * Distance browsing (Hjaltason and Samet 1999): the objects nearest to the point handed to {@code visitor} one
     * at a time, nearest first, until it returns {@code false} or no object within {@code maxDistance} is left.
     * The order, distances and filtering are those of {@link #kNearest}: the first {@code m} objects visited are
     * its answer for {@code k = m}, found at the same cost, so a caller that does not know how many neighbours it
     * needs (the nearest one passing a test the filter cannot express, the neighbours until some total is reached)
     * does not guess a {@code k}. The visited objects are also listed in {@code scratch}, nearest first.
     *
     * @param x point x
     * @param y point y
     * @param z point z
     * @param maxDistance largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before an object is visited, or {@code null}
     * @param exact the exact distance of each candidate, or {@code null} for the tight-box distance
     * @param visitor receives the objects, nearest first; returns {@code false} to stop
     * @param scratch the search's heap, and the list of the objects visited (cleared first)
     * @throws IllegalArgumentException for non-finite coordinates, a point more than {@link Arguments#NEAREST_REACH}
     *                                  from the origin on some axis, a negative or NaN maximum, or a null
     *                                  {@code visitor} or {@code scratch}
     */
    void browseNearest(double x, double y, double z, double maxDistance, long categoryMask, QueryFilter filter,
                       DistanceFunction exact, NearestVisitor visitor, NearestNeighbours scratch);

    /**
     * {@link #querySphere(double, double, double, double, RegionMode, long, QueryFilter, OverlapVisitor,
     * TraversalStack)} with the sphere as a value.
     *
     * @param sphere the closed sphere
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a null sphere, and as the bounds form (for example a radius above
     *                                  {@link Arguments#MAX_RADIUS})
     */
    default void querySphere(Sphere sphere, RegionMode mode, long categoryMask, QueryFilter filter,
                             OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireNonNull("sphere", sphere);
        querySphere(sphere.x(), sphere.y(), sphere.z(), sphere.radius(), mode, categoryMask, filter, visitor, stack);
    }

    /**
     * {@link #queryBox(double, double, double, double, double, double, RegionMode, long, QueryFilter,
     * OverlapVisitor, TraversalStack)} with the query box as a value.
     *
     * @param box the closed query box
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a null box, and as the bounds form
     */
    default void queryBox(Aabb box, RegionMode mode, long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                          TraversalStack stack) {
        Arguments.requireNonNull("box", box);
        queryBox(box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ(), mode, categoryMask, filter,
                visitor, stack);
    }

    /**
     * {@link #queryObb(double[], int, RegionMode, long, QueryFilter, OverlapVisitor, TraversalStack)} with the
     * oriented box as a value (its re-orthonormalized axes). Copies the box into a new array of
     * {@link ObbLayout#STRIDE} doubles; loops over many boxes keep one array and call the array form.
     *
     * @param obb the closed oriented box
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a null box, and as the array form
     */
    default void queryObb(Obb obb, RegionMode mode, long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                          TraversalStack stack) {
        Arguments.requireNonNull("obb", obb);
        double[] layout = new double[ObbLayout.STRIDE];
        obb.writeTo(layout, 0);
        queryObb(layout, 0, mode, categoryMask, filter, visitor, stack);
    }
}
