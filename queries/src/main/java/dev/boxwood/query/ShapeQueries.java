package dev.boxwood.query;

import dev.boxwood.geom.ObbLayout;

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
     * ({@link RegionTests#classifyObb}: the 15-axis test, conservative by its epsilon).
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
}
