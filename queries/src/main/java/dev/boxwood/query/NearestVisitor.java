package dev.boxwood.query;

/**
 * Receives the objects of a nearest-neighbour browse one at a time, nearest first, and decides whether to go on
 * (Hjaltason and Samet 1999's "distance browsing": the number of neighbours wanted need not be known up front).
 *
 * <p>Objects arrive in the order a {@code kNearest} query lists them: increasing squared distance (the search's key;
 * the distance given is its square root), equal squares by the lower handle. The search expands the tree only as far as
 * the visitor asks, so stopping after the m-th object costs what a {@code kNearest} query with {@code k = m} costs.
 */
@FunctionalInterface
public interface NearestVisitor {

    /**
     * Visits the next nearest object.
     *
     * @param handle the object's handle
     * @param userValue the value given when the object was added
     * @param distance its distance from the query point (to its tight box, or the exact distance)
     * @return {@code true} for the next object, {@code false} to stop the browse at once
     */
    boolean visit(int handle, long userValue, double distance);
}
