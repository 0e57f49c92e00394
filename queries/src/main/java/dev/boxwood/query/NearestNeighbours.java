package dev.boxwood.query;

import java.util.Arrays;

/**
 * Caller-owned scratch memory and result list of a nearest-neighbour query: the objects found, nearest first (by
 * squared distance, the search's key; the distances reported are its square roots), equal squares broken by the
 * lower handle, and the reusable primitive min-heap the best-first search runs on. In an index of several parts
 * with frames of their own, such as a tiled world's tiles ({@link #part(int)}), squares of different parts are
 * not compared: results from different parts are ordered by the reported distance, then the lower part. Arrays grow as
 * needed and are reused, so a warmed-up instance allocates nothing. Not thread-safe: one per thread. Each query
 * clears the previous results. A query run from inside a search's filter, distance function or visitor needs an
 * instance of its own: one run on the searching instance makes the search throw {@link IllegalStateException}
 * ({@link #checkQuery}).
 *
 * <p>An application constructs one, passes it to nearest queries and reads the results ({@link #count},
 * {@link #handle}, {@link #userValue}, {@link #distance}, {@link #part}); the other public members (the heap's
 * {@link #pushNode}, {@link #nextNode} and the like) are the side an index implementation uses, public so that the
 * indexes of every module (and one's own) share one search.
 */
public final class NearestNeighbours {

    // results
    private int[] handles = new int[8];
    private long[] userValues = new long[8];
    private double[] distances = new double[8];
    private int[] parts = new int[8];
    private int count;

    /** Returned by {@link #nextNode} when the search is over. */
    public static final int DONE = -1;

    // tie keys: nodes first among equal distances, then objects by handle (kind << 32 | handle)
    private static final long NODE = 0L;
    private static final long PENDING = 1L << 32;
    private static final long RESOLVED = 2L << 32;

    // the search heap: squared distance, then the tie key, then the node reference or the object's user value
    private double[] heapKeys = new double[64];
    private long[] heapTies = new long[64];
    private int[] heapRefs = new int[64];
    private long[] heapValues = new long[64];
    private int heapSize;

    // index-owned scratch for node data that does not fit in a reference (grown on demand, reused)
    private int[] nodeInts = new int[0];
    private float[] nodeFloats = new float[0];

    /** Searches begun on this instance ({@link #beginQuery}). */
    private int searches;

    /**
     * Whether the running search asks a {@link DistanceFunction} (set by each {@link #nextNode} step, which comes
     * before any node is opened): its nodes are then queued by {@link #exactLowerBound} of their keys.
     */
    private boolean exactKeys;

    /** An empty result list. */
    public NearestNeighbours() {
    }

    /**
     * For indexes: marks the start of a search that keeps its heap and results here (as
     * {@link TraversalStack#beginQuery}).
     *
     * @return the mark to pass to {@link #checkQuery}
     */
    public int beginQuery() {
        return ++searches;
    }

    /**
     * For indexes: checks, at the end of a search begun with {@link #beginQuery} (and wherever earlier the search
     * likes, after a callback), that no other search began on this instance meanwhile (one run from inside the
     * search's filter, distance function or visitor, or another thread's), which would have replaced its heap and
     * results.
     *
     * @param mark what {@link #beginQuery} returned
     * @throws IllegalStateException if another search began here since the mark
     */
    public void checkQuery(int mark) {
        if (searches != mark) {
            throw TraversalStack.sharedScratch("NearestNeighbours");
        }
    }

    /**
     * The squared limit of a search whose largest reported distance is {@code maxDistance} (closed): the largest
     * squared distance whose square root, the distance the search reports, is at most {@code maxDistance}.
     * {@code maxDistance * maxDistance} alone can round below the square of a distance that rounds to exactly
     * {@code maxDistance} ({@code fl(sqrt(3))^2 < 3}), which would drop an object at exactly a distance the search
     * reported before; squares being monotone, nodes pruned against this limit hold no object within it.
     *
     * @param maxDistance largest distance reported, {@code >= 0} (infinite: no limit)
     * @return the squared limit for {@link #nextNode} and for the index's pruning
     */
    public static double squaredLimit(double maxDistance) {
        double limit = maxDistance * maxDistance;
        // a subnormal square is rounded to few bits and can lie above maxDistance's own: step down first
        while (limit > 0 && Math.sqrt(limit) > maxDistance) {
            limit = Math.nextDown(limit);
        }
        // sqrt is monotone, so the keys it maps to at most maxDistance are a prefix: a few steps reach its end
        while (limit < Double.POSITIVE_INFINITY && Math.sqrt(Math.nextUp(limit)) <= maxDistance) {
            limit = Math.nextUp(limit);
        }
        return limit;
    }

    /** @return the number of objects found */
    public int count() {
        return count;
    }

    /**
     * @param i result index in {@code [0, count())}, 0 the nearest
     * @return the object's handle
     */
    public int handle(int i) {
        checkIndex(i);
        return handles[i];
    }

    /**
     * @param i result index in {@code [0, count())}
     * @return the object's user value
     */
    public long userValue(int i) {
        checkIndex(i);
        return userValues[i];
    }

    /**
     * @param i result index in {@code [0, count())}
     * @return the object's distance (to its tight box, or the exact distance when a {@link DistanceFunction} was
     *     given)
     */
    public double distance(int i) {
        checkIndex(i);
        return distances[i];
    }

    /**
     * @param i result index in {@code [0, count())}
     * @return the part of the index the object's handle belongs to (the tile of a tiled world's query; 0 for an
     *     index of one part)
     */
    public int part(int i) {
        checkIndex(i);
        return parts[i];
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("result index " + i + " out of [0, " + count + ")");
        }
    }

    /**
     * Merges the results of {@code other}, a query of part {@code part} of an index made of parts (nearest first,
     * as every query leaves them), into these results, keeping the {@code k} first in the order of (distance,
     * part, handle); for such indexes, which query their parts one by one into a second instance. These results
     * must be in that order already (as after {@link #clear()} and earlier merges of other parts). No allocation
     * once the arrays have grown.
     *
     * @param other the results of one part's query
     * @param part  that part's index, {@code >= 0}, not among these results
     * @param k     the largest number of results kept, {@code >= 0}
     * @throws IllegalArgumentException if {@code other} is null or this instance, or {@code part} or {@code k} is
     *                                  negative (nothing changes)
     */
    public void mergePart(NearestNeighbours other, int part, int k) {
        Arguments.requireNonNull("other", other);
        if (other == this) {
            throw new IllegalArgumentException("other must be another instance");
        }
        Arguments.requirePart(part);
        if (k < 0) {
            throw new IllegalArgumentException("k must be >= 0: " + k);
        }
        int n = count;
        int m = (int) Math.min(k, (long) n + other.count);
        // how many of each list the first m of the merged order take
        int i = 0;
        int j = 0;
        while (i + j < m) {
            if (j == other.count || i < n && before(i, other, j, part)) {
                i++;
            } else {
                j++;
            }
        }
        ensureResults(m);
        // back to front, so the unread entries of this list are never overwritten
        for (int w = m - 1; w >= 0; w--) {
            if (j == 0 || i > 0 && !before(i - 1, other, j - 1, part)) {
                i--;
                handles[w] = handles[i];
                userValues[w] = userValues[i];
                distances[w] = distances[i];
                parts[w] = parts[i];
            } else {
                j--;
                handles[w] = other.handles[j];
                userValues[w] = other.userValues[j];
                distances[w] = other.distances[j];
                parts[w] = part;
            }
        }
        count = m;
    }

    /** Whether result {@code i} comes before result {@code j} of {@code other} (of part {@code part}). */
    private boolean before(int i, NearestNeighbours other, int j, int part) {
        double a = distances[i];
        double b = other.distances[j];
        if (a != b) {
            return a < b;
        }
        return parts[i] != part ? parts[i] < part : handles[i] < other.handles[j];
    }

    private void ensureResults(int capacity) {
        if (handles.length < capacity) {
            int grown = Math.max(capacity, 2 * handles.length);
            handles = Arrays.copyOf(handles, grown);
            userValues = Arrays.copyOf(userValues, grown);
            distances = Arrays.copyOf(distances, grown);
            parts = Arrays.copyOf(parts, grown);
        }
    }

    // ---- for indexes ------------------------------------------------------------------------------------

    /**
     * An int lane an index may use during a query for data of the nodes it queues (the reference it passes to
     * {@link #pushNode} can then be a slot of this lane, for example a compressed tree's node index beside its
     * decoded box in {@link #nodeFloats}), grown to at least {@code capacity} and reused across queries; valid
     * until the next call that may grow it.
     *
     * @param capacity the number of ints needed
     * @return the int array
     */
    public int[] nodeInts(int capacity) {
        if (nodeInts.length < capacity) {
            nodeInts = Arrays.copyOf(nodeInts, Math.max(capacity, 2 * nodeInts.length));
        }
        return nodeInts;
    }

    /**
     * A float lane beside {@link #nodeInts}, with the same growth and validity (contents are kept when it grows).
     *
     * @param capacity the number of floats needed
     * @return the float array
     */
    public float[] nodeFloats(int capacity) {
        if (nodeFloats.length < capacity) {
            nodeFloats = Arrays.copyOf(nodeFloats, Math.max(capacity, 2 * nodeFloats.length));
        }
        return nodeFloats;
    }

    /** Clears the results and the heap; indexes call it at the start of a query. */
    public void clear() {
        count = 0;
        heapSize = 0;
    }

    /**
     * Appends a result; indexes call it in increasing order of (distance, handle).
     *
     * @param handle the object
     * @param userValue its user value
     * @param distance its distance
     */
    public void addResult(int handle, long userValue, double distance) {
        ensureResults(count + 1);
        handles[count] = handle;
        userValues[count] = userValue;
        distances[count] = distance;
        parts[count] = 0;
        count++;
    }

    /**
     * Starts a best-first search from the root node {@code ref} (a non-negative reference of the index).
     *
     * @param rootRef the index's root node reference, {@code >= 0}
     */
    public void pushRoot(int rootRef) {
        push(0.0, NODE, rootRef, 0L);
    }

    /**
     * Queues a subtree by the squared distance from the query point to its box (during a search with a
     * {@link DistanceFunction}, by the smallest square an exact distance of an object in it may have).
     *
     * @param squaredDistance the key ({@link RegionTests#squaredDistance} to the node box)
     * @param ref the index's node reference, {@code >= 0}
     */
    public void pushNode(double squaredDistance, int ref) {
        push(exactKeys ? exactLowerBound(squaredDistance) : squaredDistance, NODE, ref, 0L);
    }

    /**
     * Queues an object that passed the category test and the filter, by the squared distance to its tight box;
     * with {@code exactPending} its exact distance is asked from the {@link DistanceFunction} when it reaches the
     * top (it cannot be nearer than its box), and it is queued again by that distance.
     *
     * @param squaredDistance the squared distance to the object's tight box
     * @param handle the object's handle, {@code >= 0} (the tie-break: lower first)
     * @param userValue its user value
     * @param exactPending whether the exact distance is still to be asked
     */
    public void pushObject(double squaredDistance, int handle, long userValue, boolean exactPending) {
        push(exactPending ? exactLowerBound(squaredDistance) : squaredDistance,
                (exactPending ? PENDING : RESOLVED) | (handle & 0xFFFF_FFFFL), 0, userValue);
    }

    /**
     * The key an object or node at squared box distance {@code key} is queued by while exact distances are pending:
     * the smallest square an exact distance may have. The function may return the box distance itself,
     * {@code s = sqrt(key)} rounded, whose square can round below {@code key} ({@code fl(sqrt(13))^2 < 13}); queued
     * by {@code key}, such an object came out after one whose exact square was larger, or equal with a higher
     * handle. Monotone in {@code key}, so a node's key stays at or below those of the objects under it.
     */
    static double exactLowerBound(double key) {
        double s = Math.sqrt(key);
        return Math.min(key, s * s);
    }

    /**
     * The best-first step shared by every index (Hjaltason and Samet 1999): pops entries in order of (squared
     * distance, handle), appending objects whose distance is final to the results and resolving pending exact
     * distances (a negative or NaN exact distance drops the object), until a node must be opened or the search is
     * over ({@code k} results, an empty heap, or the nearest entry beyond {@code squaredLimit}).
     *
     * @param k the number of results wanted
     * @param squaredLimit the square of the largest distance reported
     * @param exact the exact distance, or {@code null} if no object was queued as pending
     * @param x query point x (world coordinates, handed to {@code exact})
     * @param y query point y
     * @param z query point z
     * @return the reference of the node to open next (its children are then queued), or {@link #DONE}
     */
    public int nextNode(int k, double squaredLimit, DistanceFunction exact, double x, double y, double z) {
        final int mark = searches;
        exactKeys = exact != null;
        while (heapSize > 0 && count < k) {
            double key = heapKeys[0];
            long tie = heapTies[0];
            int ref = heapRefs[0];
            long value = heapValues[0];
            pop();
            if (key > squaredLimit) {
                return DONE;
            }
            if (tie >= RESOLVED) {
                addResult((int) tie, value, Math.sqrt(key));
            } else if (tie >= PENDING) {
                int handle = (int) tie;
                double d = exact.distance(handle, value, x, y, z);
                // a search run on this instance from inside the distance function replaced the heap
                checkQuery(mark);
                // an infinite square could neither be ordered nor give d back: dropped (DistanceFunction)
                if (d >= 0 && d * d < Double.POSITIVE_INFINITY) {
                    push(d * d, RESOLVED | (handle & 0xFFFF_FFFFL), 0, value);
                }
            } else {
                return ref;
            }
        }
        return DONE;
    }

    /**
     * The browsing form of {@link #nextNode(int, double, DistanceFunction, double, double, double)}: each object
     * whose distance becomes final is appended to the results and handed to {@code visitor} at once, nearest
     * first, before anything farther is expanded; the search ends when the visitor returns {@code false}.
     *
     * @param visitor receives the results one by one
     * @param squaredLimit the square of the largest distance reported
     * @param exact the exact distance, or {@code null} if no object was queued as pending
     * @param x query point x (world coordinates, handed to {@code exact})
     * @param y query point y
     * @param z query point z
     * @return the reference of the node to open next (its children are then queued), or {@link #DONE} when the
     *     visitor stopped or nothing within the limit is left
     */
    public int nextNode(NearestVisitor visitor, double squaredLimit, DistanceFunction exact, double x, double y,
                        double z) {
        final int mark = searches;
        while (true) {
            int delivered = count;
            // a limit of one more result: the step returns as soon as one is final, with the heap intact
            int ref = nextNode(delivered + 1, squaredLimit, exact, x, y, z);
            if (count == delivered) {
                return ref;
            }
            boolean more = visitor.visit(handles[delivered], userValues[delivered], distances[delivered]);
            // a search run on this instance from inside the visitor replaced the heap (and would keep it full)
            checkQuery(mark);
            if (!more) {
                return DONE;
            }
        }
    }

    /**
     * One search step of either form: {@link #nextNode(NearestVisitor, double, DistanceFunction, double, double,
     * double) browsing} when {@code visitor} is not null, else up to {@code k} results.
     *
     * @param k the number of results wanted (ignored when browsing)
     * @param visitor the browse's visitor, or {@code null}
     * @param squaredLimit the square of the largest distance reported
     * @param exact the exact distance, or {@code null} if no object was queued as pending
     * @param x query point x (world coordinates, handed to {@code exact})
     * @param y query point y
     * @param z query point z
     * @return the reference of the node to open next, or {@link #DONE}
     */
    public int nextNode(int k, NearestVisitor visitor, double squaredLimit, DistanceFunction exact, double x,
                        double y, double z) {
        return visitor == null ? nextNode(k, squaredLimit, exact, x, y, z)
                : nextNode(visitor, squaredLimit, exact, x, y, z);
    }

    private void push(double key, long tie, int ref, long value) {
        if (heapSize == heapKeys.length) {
            heapKeys = Arrays.copyOf(heapKeys, 2 * heapSize);
            heapTies = Arrays.copyOf(heapTies, 2 * heapSize);
            heapRefs = Arrays.copyOf(heapRefs, 2 * heapSize);
            heapValues = Arrays.copyOf(heapValues, 2 * heapSize);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(key, tie, heapKeys[parent], heapTies[parent])) {
                break;
            }
            heapKeys[i] = heapKeys[parent];
            heapTies[i] = heapTies[parent];
            heapRefs[i] = heapRefs[parent];
            heapValues[i] = heapValues[parent];
            i = parent;
        }
        heapKeys[i] = key;
        heapTies[i] = tie;
        heapRefs[i] = ref;
        heapValues[i] = value;
    }

    /** Removes the smallest entry (heap not empty). */
    private void pop() {
        int last = --heapSize;
        double key = heapKeys[last];
        long tie = heapTies[last];
        int ref = heapRefs[last];
        long value = heapValues[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && less(heapKeys[child + 1], heapTies[child + 1], heapKeys[child], heapTies[child])) {
                child++;
            }
            if (!less(heapKeys[child], heapTies[child], key, tie)) {
                break;
            }
            heapKeys[i] = heapKeys[child];
            heapTies[i] = heapTies[child];
            heapRefs[i] = heapRefs[child];
            heapValues[i] = heapValues[child];
            i = child;
        }
        heapKeys[i] = key;
        heapTies[i] = tie;
        heapRefs[i] = ref;
        heapValues[i] = value;
    }

    private static boolean less(double k1, long t1, double k2, long t2) {
        return k1 < k2 || k1 == k2 && t1 < t2;
    }
}
