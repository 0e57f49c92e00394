package dev.boxwood.query;

import dev.boxwood.geom.Aabb;

/**
 * The read side shared by every index of the library (the dynamic tree, the brute-force reference, static
 * worlds), so tests, benchmarks and applications can be written once against it.
 *
 * <p>Conventions:
 * <ul>
 *   <li>Objects are identified by {@link Handles handles}; passing a handle that is not live throws
 *       {@link IllegalArgumentException}.</li>
 *   <li>Each object has a stored tight box: the box it was added or last moved with, rounded outward to float
 *       relative to the index's origin (see {@link OutwardFloat}). Every answer is exact for the stored box.</li>
 *   <li>Boxes are closed: touching counts. Zero-size boxes are valid.</li>
 *   <li>An object takes part in a query only if {@code (categoryBits & categoryMask) != 0}; pass {@code -1L} for
 *       all categories. An object with category bits 0 is never reported.</li>
 *   <li>Coordinates are validated: NaN, infinities and inverted boxes throw {@link IllegalArgumentException}
 *       naming the argument.</li>
 *   <li>Thread-safety: queries do not change the index and keep their scratch state in the caller's
 *       {@link TraversalStack}, so any number of threads may query at once, each with its own stack, as long as
 *       no thread mutates the index meanwhile (the caller provides that ordering, for example a simulation step
 *       that mutates, then a query phase).</li>
 * </ul>
 */
public interface SpatialQueries {

    /** @return the number of live objects */
    int size();

    /**
     * @param handle any int
     * @return whether the handle names a live object of this index
     */
    boolean contains(int handle);

    /**
     * @param handle a live handle
     * @return the user value given when the object was added
     */
    long userValue(int handle);

    /**
     * @param handle a live handle
     * @return the object's category bits
     */
    long categoryBits(int handle);

    /**
     * Copies the object's stored tight box, in world coordinates, into {@code dest} as
     * {@code minX, minY, minZ, maxX, maxY, maxZ} (float storage plus the origin, computed in double).
     *
     * @param handle a live handle
     * @param dest an array of length {@code >= 6}
     * @throws IllegalArgumentException for a stale handle, a null {@code dest} or one shorter than 6 (nothing
     *                                  written)
     */
    void getTightBox(int handle, double[] dest);

    /**
     * Visits every object whose stored tight box overlaps the closed query box (touching counts) and whose
     * category bits share a bit with {@code categoryMask}, until the visitor returns {@code false}.
     *
     * @param minX query min x
     * @param minY query min y
     * @param minZ query min z
     * @param maxX query max x
     * @param maxY query max y
     * @param maxZ query max z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects
     * @param stack the calling thread's scratch memory
     */
    void queryAabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                   long categoryMask, OverlapVisitor visitor, TraversalStack stack);

    /**
     * The object's stored tight box as a value ({@link #getTightBox}; allocates the record, for code outside hot
     * loops).
     *
     * @param handle a live handle
     * @return the stored tight box in world coordinates
     * @throws IllegalArgumentException for a stale handle
     */
    default Aabb tightBox(int handle) {
        double[] box = new double[6];
        getTightBox(handle, box);
        return new Aabb(box[0], box[1], box[2], box[3], box[4], box[5]);
    }

    /**
     * {@link #queryAabb(double, double, double, double, double, double, long, OverlapVisitor, TraversalStack)}
     * with the query box as a value.
     *
     * @param box the closed query box
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a null box, and as the bounds form
     */
    default void queryAabb(Aabb box, long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireNonNull("box", box);
        queryAabb(box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ(), categoryMask, visitor,
                stack);
    }

    /**
     * Casts the segment {@code origin + t * translation}, {@code t} in {@code [0, maxFraction]}, following the
     * protocol of {@link RayCastVisitor}: {@code visitor.begin} first, then {@code visit} for each object whose
     * stored tight box the (clipped) segment enters, with the entry fraction (0 when it starts inside or on the
     * box). A zero translation is a point query at the origin. Use {@link ClosestHit}, {@link AnyHit} or
     * {@link AllHits} as the visitor for the usual questions.
     *
     * @param originX origin x
     * @param originY origin y
     * @param originZ origin z
     * @param translationX translation x
     * @param translationY translation y
     * @param translationZ translation z
     * @param maxFraction the largest fraction, finite and {@code >= 0} (1: the segment from origin to
     *     origin + translation)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects and steers the cast
     * @param stack the calling thread's scratch memory
     */
    void rayCast(double originX, double originY, double originZ,
                 double translationX, double translationY, double translationZ, double maxFraction,
                 long categoryMask, RayCastVisitor visitor, TraversalStack stack);
}
