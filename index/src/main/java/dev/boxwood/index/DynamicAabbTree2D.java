package dev.boxwood.index;

import dev.boxwood.geom.BoxMessages;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.TraversalStack;

/**
 * A thin 2D view of a {@link DynamicAabbTree}: rectangles are stored as boxes in the {@code z = 0} plane of a
 * tree configured for the plane, and every method delegates to it, so 2D and 3D share one implementation.
 *
 * <p>In the plane the tree uses the perimeter instead of the surface area as the cost of one-by-one insertion,
 * rotations and optimisation (as Box2D does in 2D; the area of a thin rectangle is near zero and would make the
 * heuristic blind), and adds no margin along z. Bulk paths (batches, the flush of deferred adds, rebuilds) use the
 * binned surface-area builder as in 3D.
 * Conventions are those of the 3D tree: rectangles are closed (touching counts); a segment is
 * {@code origin + t * translation} for {@code t} in {@code [0, maxFraction]}; a start inside or on a rectangle
 * gives fraction 0. Collectors and exact tests receive the segment with {@code z = 0} and zero z translation.
 * Casts report handles and fractions; the point and normal of a hit are the 2D kernel's
 * {@link dev.boxwood.geom2d.Intersect2#surfaceSegmentRect} (or its circle and edge forms), which the caller runs on
 * the hit's rectangle ({@code tree().getTightBox}) or shape.
 * The config's origin z is ignored (0). The other queries (regions, sweeps, nearest, pairs, batches) take
 * {@link #tree()} with {@code z = 0} shapes. Same thread-safety as the 3D tree: concurrent queries are safe while no
 * thread mutates.
 */
public final class DynamicAabbTree2D {

    private final DynamicAabbTree tree;

    /** A 2D tree with the default settings. */
    public DynamicAabbTree2D() {
        this(TreeConfig.defaults());
    }

    /**
     * A 2D tree with the given settings (origin z is set to 0).
     *
     * @param config the settings
     */
    public DynamicAabbTree2D(TreeConfig config) {
        Arguments.requireNonNull("config", config);
        this.tree = new DynamicAabbTree(config.withOrigin(config.originX(), config.originY(), 0), true);
    }

    /**
     * The underlying 3D tree, for code written against {@link dev.boxwood.query.SpatialQueries}; its boxes have
     * {@code minZ = maxZ = 0}. Its 3D methods do not hold objects to the plane: a box added or moved through them
     * with a z extent is stored and answered exactly, but a planar tree gives fat boxes no margin or displacement
     * in z and costs insertions by perimeter in x and y, so such boxes re-insert on every move in z and do not
     * shape the hierarchy by their depth.
     *
     * @return the tree
     */
    public DynamicAabbTree tree() {
        return tree;
    }

    /**
     * Adds a rectangle.
     *
     * @param minX min x
     * @param minY min y
     * @param maxX max x
     * @param maxY max y
     * @param userValue opaque value handed back by queries
     * @param categoryBits the object's categories
     * @return its handle
     * @throws IllegalArgumentException for a non-finite or inverted rectangle, or one reaching more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from the origin
     */
    public int add(double minX, double minY, double maxX, double maxY, long userValue, long categoryBits) {
        return tree.add(minX, minY, 0, maxX, maxY, 0, userValue, categoryBits);
    }

    /**
     * Moves a rectangle (re-inserted only if it leaves its fat rectangle, or if that fat rectangle has grown far
     * larger than the moved one needs, as in {@link DynamicAabbTree#move}).
     *
     * @param handle a live handle
     * @param minX new min x
     * @param minY new min y
     * @param maxX new max x
     * @param maxY new max y
     * @throws IllegalArgumentException for a stale handle, or a rectangle non-finite, inverted or reaching more
     *                                  than {@link OutwardFloat#MAX_OFFSET} from the origin
     */
    public void move(int handle, double minX, double minY, double maxX, double maxY) {
        tree.move(handle, minX, minY, 0, maxX, maxY, 0);
    }

    /**
     * Moves a rectangle with a predicted displacement that fattens it ahead of the motion.
     *
     * @param handle a live handle
     * @param minX new min x
     * @param minY new min y
     * @param maxX new max x
     * @param maxY new max y
     * @param displacementX predicted displacement x
     * @param displacementY predicted displacement y
     * @throws IllegalArgumentException for a stale handle, a rectangle non-finite, inverted or reaching more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from the origin, or a non-finite
     *                                  displacement
     */
    public void move(int handle, double minX, double minY, double maxX, double maxY,
                     double displacementX, double displacementY) {
        tree.move(handle, minX, minY, 0, maxX, maxY, 0, displacementX, displacementY, 0);
    }

    /**
     * Removes a rectangle; its handle becomes stale, and stays so for at least
     * {@code 128 * }{@link dev.boxwood.query.Handles#QUARANTINE} removals ({@link DynamicAabbTree#remove}).
     *
     * @param handle a live handle
     * @throws IllegalArgumentException for a stale handle
     */
    public void remove(int handle) {
        tree.remove(handle);
    }

    /** Removes every rectangle at once; every handle becomes stale ({@link DynamicAabbTree#clear()}). */
    public void clear() {
        tree.clear();
    }

    /**
     * Moves the origin the rectangles are stored relative to, keeping every rectangle, handle and the hierarchy
     * ({@link DynamicAabbTree#moveOrigin}, with z at 0): for a world whose rectangles are far from the origin.
     *
     * @param x new origin x
     * @param y new origin y
     * @throws IllegalArgumentException if a coordinate is NaN, infinite or beyond
     *     {@link dev.boxwood.query.OutwardFloat#MAX_ORIGIN}, or if a rectangle would lie beyond the storage range of
     *     the new origin; the tree is then unchanged
     */
    public void moveOrigin(double x, double y) {
        tree.moveOrigin(x, y, 0);
    }

    /**
     * Takes every pending rectangle into the hierarchy now: {@link DynamicAabbTree#flushAdds()} (only with
     * {@link TreeConfig#withDeferredAdds deferred adds}; queries do it themselves).
     */
    public void flushAdds() {
        tree.flushAdds();
    }

    /** @return the rectangles added and not yet in the hierarchy ({@link DynamicAabbTree#pendingAdds()}) */
    public int pendingAdds() {
        return tree.pendingAdds();
    }

    /**
     * Adds many rectangles at once: {@link DynamicAabbTree#addAll} in the plane (a batch much denser than the tree,
     * or added to an empty tree, goes in as one prebuilt hierarchy; other rectangles go in one by one).
     *
     * @param rectangles stride 4: rectangle {@code i} is {@code minX, minY, maxX, maxY} at {@code 4 i}; finite,
     *                   {@code min <= max}
     * @param userValues one user value per rectangle, or {@code null} for all 0
     * @param categories one set of category bits per rectangle, or {@code null} for all categories ({@code -1L})
     * @return the handles: element {@code i} is the handle of rectangle {@code i}
     * @throws IllegalArgumentException naming the argument, and adding nothing: {@code rectangles} null, not a
     *         multiple of 4 long, a non-finite or inverted rectangle or one reaching more than
     *         {@link OutwardFloat#MAX_OFFSET} from the origin, {@code userValues} or {@code categories} not one per
     *         rectangle, or too many objects
     */
    public int[] addAll(double[] rectangles, long[] userValues, long[] categories) {
        Arguments.requireNonNull("rectangles", rectangles);
        if (rectangles.length % 4 != 0) {
            throw new IllegalArgumentException("rectangles length must be a multiple of 4, got " + rectangles.length);
        }
        int n = rectangles.length / 4;
        TreeBuild.checkPerObject(userValues, categories, n, "rectangle");
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 2; a++) {
                double lo = rectangles[4 * i + a];
                double hi = rectangles[4 * i + 2 + a];
                if (!(Double.isFinite(lo) && Double.isFinite(hi) && lo <= hi)) {
                    throw BoxMessages.invalid("rectangles: rectangle " + i, a, lo, hi);
                }
                double origin = a == 0 ? tree.originX() : tree.originY();
                if (!OutwardFloat.storable(lo, origin) || !OutwardFloat.storable(hi, origin)) {
                    throw BoxMessages.beyond("rectangles: rectangle " + i, a, lo, hi, OutwardFloat.MAX_OFFSET,
                            "the origin " + origin);
                }
                boxes[6 * i + a] = lo;
                boxes[6 * i + 3 + a] = hi;
            }
        }
        return tree.addAll(boxes, userValues, categories);
    }

    /**
     * Removes many rectangles at once, all or none ({@link DynamicAabbTree#removeAll}).
     *
     * @param handles live handles, none listed twice
     * @throws IllegalArgumentException naming the element, and removing nothing, for a null list, a stale
     *         handle or a handle listed twice
     */
    public void removeAll(int[] handles) {
        tree.removeAll(handles);
    }

    /**
     * Visits every rectangle overlapping the closed query rectangle whose categories meet the mask.
     *
     * @param minX query min x
     * @param minY query min y
     * @param maxX query max x
     * @param maxY query max y
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects; returning {@code false} stops the query
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a NaN, infinite or inverted query rectangle, or a null visitor or stack
     * @throws java.util.ConcurrentModificationException if the tree changed during the query (the visitor changed
     *     it: see {@link DynamicAabbTree}, Queries and threads)
     */
    public void queryAabb(double minX, double minY, double maxX, double maxY, long categoryMask,
                          OverlapVisitor visitor, TraversalStack stack) {
        tree.queryAabb(minX, minY, 0, maxX, maxY, 0, categoryMask, visitor, stack);
    }

    /**
     * Casts a segment, with the protocol of {@link RayCastVisitor}.
     *
     * @param originX origin x
     * @param originY origin y
     * @param translationX translation x
     * @param translationY translation y
     * @param maxFraction the largest fraction, finite and {@code >= 0}
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects and steers the cast
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite origin or translation, a {@code maxFraction} that is NaN,
     *                                  infinite or negative, or a null visitor or stack
     * @throws java.util.ConcurrentModificationException if the tree changed during the query (the visitor changed
     *     it: see {@link DynamicAabbTree}, Queries and threads)
     */
    public void rayCast(double originX, double originY, double translationX, double translationY,
                        double maxFraction, long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        tree.rayCast(originX, originY, 0, translationX, translationY, 0, maxFraction, categoryMask, visitor, stack);
    }

    /** @return the number of rectangles */
    public int size() {
        return tree.size();
    }

    /** @return the tree height (see {@link DynamicAabbTree#height()}) */
    public int height() {
        return tree.height();
    }

    /** @return the perimeter ratio (see {@link DynamicAabbTree#areaRatio()}) */
    public double areaRatio() {
        return tree.areaRatio();
    }

    /** @return bytes held by the tree's arrays */
    public long memoryBytes() {
        return tree.memoryBytes();
    }

    /** Checks every structural invariant (see {@link DynamicAabbTree#validate()}). */
    public void validate() {
        tree.validate();
    }
}
