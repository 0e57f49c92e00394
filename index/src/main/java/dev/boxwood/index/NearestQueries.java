package dev.boxwood.index;

import dev.boxwood.query.Arguments;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.NearestVisitor;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionTests;

import static dev.boxwood.index.DynamicAabbTree.f;

/**
 * Nearest-neighbour queries on a {@link DynamicAabbTree}: the {@code k} objects closest to a point, or the objects
 * one at a time, nearest first, for as long as a visitor asks ({@link #browseNearest}), by a best-first search
 * (Hjaltason and Samet 1999, "Distance browsing in spatial databases") on a primitive min-heap kept in the
 * caller's {@link NearestNeighbours}. The tree and its views also answer them as the
 * {@link dev.boxwood.query.ShapeQueries} methods {@link ReadableTree#nearest}, {@link ReadableTree#kNearest} and
 * {@link ReadableTree#browseNearest}, which come here, so code written against that interface runs on mapped
 * worlds too.
 *
 * <p>Conventions: the distance of an object is the Euclidean distance from the point to its stored tight box (0
 * for a point inside or on it), computed in the tree's local coordinates ({@link RegionTests#squaredDistance} of
 * {@code point - origin}); with a {@link DistanceFunction} it is the user's exact distance instead, which must not
 * be below the box distance. Results come nearest first by squared distance (the search's key); equal squared
 * distances are ordered by the lower handle, so the answer is deterministic and the same for every index. The
 * distance reported is the square root of that key, so two squares an ulp apart can report the same distance, and
 * then the nearer square comes first whatever its handle. Only objects with
 * {@code (categoryBits & categoryMask) != 0} that the filter accepts count, and they are filtered before the
 * {@code k} limit. Objects farther than {@code maxDistance} are not reported ({@code maxDistance} is closed:
 * an object at exactly that distance is). {@code k} larger than the number of objects returns all of them in
 * order.
 *
 * <p>Nothing is allocated once the result list has grown; queries only read the tree (any number of concurrent
 * queries, each with its own {@link NearestNeighbours}, while nothing mutates; the first query after deferred adds
 * takes them in, safely: {@link DynamicAabbTree}, Deferred adds).
 */
public final class NearestQueries {

    private NearestQueries() {
    }

    /**
     * The object nearest to the point (a {@code k = 1} query).
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param x point x
     * @param y point y
     * @param z point z
     * @param maxDistance largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the limit, or {@code null}
     * @param exact the exact distance of each candidate, or {@code null} for the tight-box distance
     * @param dest receives at most one result
     * @throws IllegalArgumentException for non-finite coordinates, a point more than {@link Arguments#NEAREST_REACH}
     *                                  from the origin on some axis, a negative or NaN maximum or null arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void nearest(ReadableTree tree, double x, double y, double z, double maxDistance,
                               long categoryMask, QueryFilter filter, DistanceFunction exact, NearestNeighbours dest) {
        kNearest(tree, x, y, z, 1, maxDistance, categoryMask, filter, exact, dest);
    }

    /**
     * The {@code k} objects nearest to the point, nearest first (see the class comment).
     *
     * @param tree the tree, or a {@link ReadView} of one
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
     *     from the origin on some axis, a negative {@code k}, a negative or NaN maximum or null arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void kNearest(ReadableTree tree, double x, double y, double z, int k, double maxDistance,
                                long categoryMask, QueryFilter filter, DistanceFunction exact,
                                NearestNeighbours dest) {
        Arguments.requireNonNull("tree", tree);
        Arguments.requireNearest(x, y, z, k, maxDistance, dest);
        requireWithinReach(tree, x, y, z);
        search(tree.storage(), x, y, z, k, null, maxDistance, categoryMask, filter, exact, dest);
    }

    /**
     * Distance browsing (Hjaltason and Samet 1999): the objects nearest to the point handed to {@code visitor} one
     * at a time, nearest first, until it returns {@code false} or no object within {@code maxDistance} is left. The
     * order, distances and filtering are those of {@link #kNearest} (see the class comment): the first {@code m}
     * objects visited are the answer of {@code kNearest} with {@code k = m}, found at the same cost, so a caller
     * that does not know how many neighbours it needs (the nearest one passing a test the filter cannot express,
     * the neighbours until some total is reached) does not guess a {@code k}. The visited objects are also listed
     * in {@code scratch}, nearest first.
     *
     * @param tree the tree, or a {@link ReadView} of one
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
     *                                  from the origin on some axis, a negative or NaN maximum or null arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void browseNearest(ReadableTree tree, double x, double y, double z, double maxDistance,
                                     long categoryMask, QueryFilter filter, DistanceFunction exact,
                                     NearestVisitor visitor, NearestNeighbours scratch) {
        Arguments.requireNonNull("tree", tree);
        Arguments.requireNonNull("scratch", scratch);
        Arguments.requireNearest(x, y, z, 0, maxDistance, scratch);
        Arguments.requireNonNull("visitor", visitor);
        requireWithinReach(tree, x, y, z);
        search(tree.storage(), x, y, z, 0, visitor, maxDistance, categoryMask, filter, exact, scratch);
    }

    /** Checked before a tree's pending adds are taken in, so that a rejected query leaves the tree as it was. */
    private static void requireWithinReach(ReadableTree view, double x, double y, double z) {
        DynamicAabbTree frame = view.frame();
        Arguments.requireWithinNearestReach(x - frame.originX(), y - frame.originY(), z - frame.originZ());
    }

    /** The best-first search of both forms: up to {@code k} results, or browsing when {@code visitor} is set. */
    private static void search(DynamicAabbTree tree, double x, double y, double z, int k, NearestVisitor visitor,
                               double maxDistance, long categoryMask, QueryFilter filter, DistanceFunction exact,
                               NearestNeighbours dest) {
        final int mark = dest.beginQuery();
        final int modifications = tree.modCount;
        try {
            walk(tree, x, y, z, k, visitor, maxDistance, categoryMask, filter, exact, dest, mark);
        } catch (RuntimeException e) {
            throw tree.failure(e, modifications);
        }
        tree.checkUnchanged(modifications);
        dest.checkQuery(mark);
    }

    /** {@link #search} inside the scratch's mark ({@link NearestNeighbours#beginQuery}). */
    private static void walk(DynamicAabbTree tree, double x, double y, double z, int k, NearestVisitor visitor,
                             double maxDistance, long categoryMask, QueryFilter filter, DistanceFunction exact,
                             NearestNeighbours dest, int mark) {
        final double px = x - tree.originX();
        final double py = y - tree.originY();
        final double pz = z - tree.originZ();
        dest.clear();
        final double limit = NearestNeighbours.squaredLimit(maxDistance);
        final int[] r = tree.records;
        final int foldedMask = DynamicAabbTree.fold(categoryMask);
        final float[] tb = tree.tight;
        final long[] uv = tree.userValues;
        if (k == 0 && visitor == null) {
            return;
        }
        dest.pushRoot(DynamicAabbTree.HEADER);
        long nodes = 0;
        final int budget = tree.nodeHighWater;
        for (int ref = dest.nextNode(k, visitor, limit, exact, x, y, z); ref != NearestNeighbours.DONE;
                ref = dest.nextNode(k, visitor, limit, exact, x, y, z)) {
            // the heap and the results are what the filter, distance function and visitor may have searched on
            dest.checkQuery(mark);
            if (++nodes > budget) {
                throw DynamicAabbTree.lostQuery();
            }
            final int record = DynamicAabbTree.recordIndex(ref);
            for (int side = 0; side < 2; side++) {
                if ((r[record + DynamicAabbTree.MASK + side] & foldedMask) == 0) {
                    continue;
                }
                int child = r[record + DynamicAabbTree.REF + side];
                if (child >= 0) {
                    int o = record + side * DynamicAabbTree.BOX;
                    double d = RegionTests.squaredDistance(px, py, pz, f(r[o]), f(r[o + 1]), f(r[o + 2]), f(r[o + 3]),
                            f(r[o + 4]), f(r[o + 5]));
                    if (d <= limit) {
                        dest.pushNode(d, child);
                    }
                    continue;
                }
                int slot = DynamicAabbTree.slotOf(child);
                if (!tree.categoryMatches(slot, categoryMask)) {
                    continue;
                }
                int handle = ~child;
                if (filter != null) {
                    boolean accepted = filter.accept(handle, uv[slot]);
                    // before anything reads the heap again: a search run on it from inside the filter replaced it
                    dest.checkQuery(mark);
                    if (!accepted) {
                        continue;
                    }
                }
                int t = slot * DynamicAabbTree.BOX;
                double d = RegionTests.squaredDistance(px, py, pz, tb[t], tb[t + 1], tb[t + 2], tb[t + 3],
                        tb[t + 4], tb[t + 5]);
                if (d <= limit) {
                    dest.pushObject(d, handle, uv[slot], exact != null);
                }
            }
        }
    }
}
