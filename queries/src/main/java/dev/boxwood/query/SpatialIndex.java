package dev.boxwood.query;

import dev.boxwood.geom.Aabb;

/**
 * A mutable index: the write side shared by the dynamic tree and the brute-force reference. Not thread-safe:
 * mutations must not run concurrently with each other or with queries.
 *
 * <p>Every method validates all its arguments before it changes anything; a rejected call leaves the index
 * unchanged.
 */
public interface SpatialIndex extends SpatialQueries {

    /**
     * Adds an object.
     *
     * @param minX tight box min x
     * @param minY tight box min y
     * @param minZ tight box min z
     * @param maxX tight box max x
     * @param maxY tight box max y
     * @param maxZ tight box max z
     * @param userValue an opaque value handed back by queries (for example an index into the caller's tables)
     * @param categoryBits the object's categories, tested against query masks
     * @return the new object's handle
     * @throws IllegalArgumentException for a non-finite or inverted box, or one reaching more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from the index's origin
     */
    int add(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            long userValue, long categoryBits);

    /**
     * Gives an object a new tight box.
     *
     * @param handle a live handle
     * @param minX new min x
     * @param minY new min y
     * @param minZ new min z
     * @param maxX new max x
     * @param maxY new max y
     * @param maxZ new max z
     * @throws IllegalArgumentException for a stale handle, or a box non-finite, inverted or reaching more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from the index's origin
     */
    void move(int handle, double minX, double minY, double minZ, double maxX, double maxY, double maxZ);

    /**
     * Gives an object a new tight box and a predicted displacement until its next move, which an index may use to
     * fatten its bounds ahead of the motion. Query answers never depend on the displacement.
     *
     * @param handle a live handle
     * @param minX new min x
     * @param minY new min y
     * @param minZ new min z
     * @param maxX new max x
     * @param maxY new max y
     * @param maxZ new max z
     * @param displacementX predicted displacement x
     * @param displacementY predicted displacement y
     * @param displacementZ predicted displacement z
     * @throws IllegalArgumentException for a stale handle, a box non-finite, inverted or reaching more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from the index's origin, or a non-finite
     *                                  displacement
     */
    void move(int handle, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
              double displacementX, double displacementY, double displacementZ);

    /**
     * {@link #add(double, double, double, double, double, double, long, long)} with the tight box as a value, for
     * code that holds its boxes as {@link Aabb}s (editors, tools); loops over many objects pass the bounds.
     *
     * @param box the tight box (already checked finite and ordered by the record)
     * @param userValue an opaque value handed back by queries
     * @param categoryBits the object's categories, tested against query masks
     * @return the new object's handle
     * @throws IllegalArgumentException for a null box, or one reaching more than {@link OutwardFloat#MAX_OFFSET}
     *                                  from the index's origin
     */
    default int add(Aabb box, long userValue, long categoryBits) {
        Arguments.requireNonNull("box", box);
        return add(box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ(), userValue, categoryBits);
    }

    /**
     * {@link #move(int, double, double, double, double, double, double)} with the new tight box as a value.
     *
     * @param handle a live handle
     * @param box the new tight box
     * @throws IllegalArgumentException for a stale handle, a null box, or one reaching more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from the index's origin
     */
    default void move(int handle, Aabb box) {
        Arguments.requireNonNull("box", box);
        move(handle, box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ());
    }

    /**
     * Removes an object; its handle becomes stale.
     *
     * @param handle a live handle
     * @throws IllegalArgumentException for a stale handle (for example a second removal)
     */
    void remove(int handle);
}
