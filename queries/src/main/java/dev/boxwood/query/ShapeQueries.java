package dev.boxwood.query;

import dev.boxwood.geom.Aabb;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.Sphere;

/**
 * The region queries shared by the indexes that answer them in place (the dynamic tree and its read views, mapped
 * static worlds), beyond the box query of {@link SpatialQueries}: sphere, box, oriented-box and convex-region
 * selection in the three {@link RegionMode}s, with the per-box decisions of {@link RegionTests}, so every
 * implementation reports the same objects for the same stored boxes and origin. Batches and applications can be
 * written once against it.
 *
 * <p>Conventions as in {@link SpatialQueries}: closed shapes (touching counts), each object's stored tight box,
 * world coordinates moved into the index's frame, {@code (categoryBits & categoryMask) != 0}, then the
 * {@link QueryFilter} (may be {@code null}: all) before the visitor; the visitor returns {@code false} to stop; visit
 * order is unspecified. Bad arguments throw {@link IllegalArgumentException} naming them.
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
     * makes of the array.
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
