package dev.boxwood.index.build;

import java.util.ArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicLong;

import dev.boxwood.query.Arguments;
import dev.boxwood.query.OutwardFloat;

/**
 * Top-down bulk builder of a binary BVH with one object per leaf: binned surface area heuristic (Wald 2007,
 * "On fast Construction of SAH-based Bounding Volume Hierarchies"), {@code binCount} bins on the axis of widest
 * centroid extent for ranges of more than {@value #ALL_AXES_MAX_OBJECTS} objects (Wald's choice), on each of the
 * three centroid axes for smaller ones, the cheapest plane wins; ranges of at most {@value #EXHAUSTIVE_MAX_OBJECTS}
 * objects try every split. Larger ranges whose centroids all coincide are split at the middle of the range.
 * {@link SplitMethod#MEDIAN} gives the classic object-median split on the largest centroid axis (Box2D's default
 * rebuild partitioner) as a reference.
 *
 * <p>Memory: besides the output ({@code 56} bytes per object; none when a {@link NodeSink} takes the nodes) the
 * builder allocates 28 bytes per object (an index array and a copy of the boxes, partitioned in place together so
 * every pass reads memory in order; 4 bytes with {@link #buildInPlace}, which partitions the caller's array; none
 * with {@link #buildInPlaceInLeafOrder}, whose caller's array holds the index) and a few kilobytes per task; no
 * object per input object. The output is limited to {@link #MAX_OBJECTS} objects (Java arrays are indexed by
 * {@code int}).
 *
 * <p>Parallelism: subtrees larger than {@code parallelThreshold} objects become fork/join tasks. Every subtree's
 * node indices are known before it is built (a subtree of {@code m} objects has {@code m - 1} internal nodes,
 * stored depth-first), so the output is identical for every pool size and schedule.
 *
 * <p>Instances are immutable and thread-safe; configure with the {@code with...} methods.
 */
public final class BinnedSahBuilder {

    /** Largest object count a build accepts: the child box array must fit in one Java array. */
    public static final int MAX_OBJECTS = (Integer.MAX_VALUE - 16) / 12;

    /** Default number of bins per axis. */
    public static final int DEFAULT_BIN_COUNT = 16;

    /** Default smallest subtree size, in objects, that becomes a fork/join task. */
    public static final int DEFAULT_PARALLEL_THRESHOLD = 1 << 15;
    /**
     * Ranges of at most this many objects are binned on all three axes, larger ones on the axis of widest centroid
     * extent only. Higher up the tree the one axis chose splits as good as the three did (area ratio of fresh
     * builds of clustered worlds of 10k, 100k and 1M objects, three seeds each: from 0.32% worse to 0.35% better,
     * 0.08% better on average), for a third of the binning work; one axis at every range cost 1.0% to 1.9%, a
     * limit of 16 objects 0.01% to 0.74%.
     */
    static final int ALL_AXES_MAX_OBJECTS = 64;

    /** Ranges of at most this many objects try every split ({@link Job#exhaustiveSplit}) instead of binning. */
    static final int EXHAUSTIVE_MAX_OBJECTS = 5;

    private static final int PROGRESS_STEP = 1 << 16;

    /** How an internal node's objects are divided between its two children. */
    public enum SplitMethod {
        /** Binned SAH (the default). */
        BINNED_SAH,
        /** Object median along the largest centroid axis; a quality reference, not the production choice. */
        MEDIAN
    }

    /**
     * Receives build progress; may be called concurrently from several pool threads. A call that throws fails the
     * build as a throwing {@link NodeSink} does.
     */
    @FunctionalInterface
    public interface Progress {
        /**
         * Reports progress; {@code placedObjects} grows monotonically per call site but calls from different
         * threads may arrive out of order.
         *
         * @param placedObjects objects already placed in their final leaf
         * @param totalObjects  objects in the build
         */
        void placed(long placedObjects, long totalObjects);
    }

    private static final Progress NO_PROGRESS = (placed, total) -> { };

    /**
     * Receives a build's internal nodes as they are made, for a caller that stores them in its own layout instead
     * of a {@link FlatBvh} (the dynamic tree writes them straight into its node records: no intermediate arrays, no
     * copy). Node numbers and references follow {@link FlatBvh}'s conventions: nodes {@code 0 .. n - 2} in
     * depth-first order, a reference {@code r >= 0} is internal node {@code r}, {@code r < 0} the leaf of object
     * {@code ~r} (of the leaf at position {@code ~r} in depth-first order with
     * {@link #buildInPlaceInLeafOrder}).
     */
    @FunctionalInterface
    public interface NodeSink {
        /**
         * Receives internal node {@code node}, exactly once per node. Calls for different nodes may come
         * concurrently from the pool's threads, a parent's always before its children's, and every call has
         * returned when the build method returns; the sink must only write state of its own node. A call that
         * throws fails the build, and the build method throws that exception, here too only once no call is under
         * way and none can follow.
         *
         * @param node       the node, {@code 0 .. n - 2}
         * @param childBoxes holds the two child boxes, A then B ({@code minX .. maxZ} each), at {@code offset}; the
         *                   builder's own working array (possibly the caller's boxes): read only, and only during
         *                   the call
         * @param offset     where child A's box starts in {@code childBoxes}
         * @param refA       reference of child A
         * @param refB       reference of child B
         */
        void node(int node, float[] childBoxes, int offset, int refA, int refB);
    }

    private final int binCount;
    private final SplitMethod splitMethod;
    private final int parallelThreshold;
    private final ForkJoinPool pool;
    private final Progress progress;

    private BinnedSahBuilder(int binCount, SplitMethod splitMethod, int parallelThreshold, ForkJoinPool pool,
                             Progress progress) {
        this.binCount = binCount;
        this.splitMethod = splitMethod;
        this.parallelThreshold = parallelThreshold;
        this.pool = pool;
        this.progress = progress;
    }

    /**
     * The default configuration: {@value #DEFAULT_BIN_COUNT} bins, binned SAH, parallel on the common pool above
     * {@value #DEFAULT_PARALLEL_THRESHOLD} objects, no progress callback.
     *
     * @return the default builder
     */
    public static BinnedSahBuilder defaults() {
        return new BinnedSahBuilder(DEFAULT_BIN_COUNT, SplitMethod.BINNED_SAH, DEFAULT_PARALLEL_THRESHOLD,
                ForkJoinPool.commonPool(), NO_PROGRESS);
    }

    /**
     * @param bins bins per axis, 4 to 64 (Wald recommends 8 to 32)
     * @return a copy with that bin count
     */
    public BinnedSahBuilder withBinCount(int bins) {
        if (bins < 4 || bins > 64) {
            throw new IllegalArgumentException("bins must be in [4, 64], got " + bins);
        }
        return new BinnedSahBuilder(bins, splitMethod, parallelThreshold, pool, progress);
    }

    /**
     * @param method the split method
     * @return a copy with that split method
     */
    public BinnedSahBuilder withSplitMethod(SplitMethod method) {
        if (method == null) {
            throw new IllegalArgumentException("method must not be null");
        }
        return new BinnedSahBuilder(binCount, method, parallelThreshold, pool, progress);
    }

    /**
     * @param pool      the pool that runs subtree tasks, or {@code null} to build on the calling thread only
     * @param threshold smallest subtree, in objects (at least 2), built as a separate task
     * @return a copy with that parallel configuration
     */
    public BinnedSahBuilder withParallelism(ForkJoinPool pool, int threshold) {
        if (threshold < 2) {
            throw new IllegalArgumentException("threshold must be at least 2, got " + threshold);
        }
        return new BinnedSahBuilder(binCount, splitMethod, threshold, pool, progress);
    }

    /**
     * @param callback progress receiver (thread-safe), or {@code null} for none
     * @return a copy with that progress callback
     */
    public BinnedSahBuilder withProgress(Progress callback) {
        return new BinnedSahBuilder(binCount, splitMethod, parallelThreshold, pool,
                callback == null ? NO_PROGRESS : callback);
    }

    /**
     * Builds from absolute double boxes. The origin is the centre of their bounds; boxes are converted to
     * floats relative to it by {@link #toFloatBoxes}, the library's storage rule ({@link OutwardFloat}).
     *
     * @param boxes stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}), finite, min &lt;= max; object {@code i}
     *              is the box at {@code 6 i}
     * @return the tree
     * @throws IllegalArgumentException on a null, ragged, non-finite or inverted input, too many objects, boxes
     *                                  centred beyond {@link OutwardFloat#MAX_ORIGIN} ({@link #originOf}), or
     *                                  boxes spread so far that one reaches more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from that centre (naming the box)
     */
    public FlatBvh build(double[] boxes) {
        BoxValidation.checkDoubleBoxes(boxes, "boxes");
        double[] bounds = emptyBounds();
        growBounds(boxes, boxes.length / 6, bounds);
        double[] origin = originOf(bounds);
        return build(toFloatBoxes(boxes, origin[0], origin[1], origin[2]), origin[0], origin[1], origin[2]);
    }

    /**
     * @return bounds that contain nothing ({@code minX, minY, minZ, maxX, maxY, maxZ} at +/- infinity), for
     *         {@link #growBounds}
     */
    public static double[] emptyBounds() {
        return new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
    }

    /**
     * Grows {@code bounds} to contain the first {@code count} boxes of {@code chunk} (stride 6, checked boxes),
     * so that an input read in chunks gets the bounds, and so the origin, of {@link #build(double[])}.
     *
     * @param chunk  boxes, stride 6
     * @param count  boxes to take
     * @param bounds {@code minX, minY, minZ, maxX, maxY, maxZ}, updated in place
     */
    public static void growBounds(double[] chunk, int count, double[] bounds) {
        for (int i = 0; i < 6 * count; i += 6) {
            for (int a = 0; a < 3; a++) {
                bounds[a] = Math.min(bounds[a], chunk[i + a]);
                bounds[3 + a] = Math.max(bounds[3 + a], chunk[i + 3 + a]);
            }
        }
    }

    /**
     * The origin {@link #build(double[])} chooses for boxes with these bounds, per axis: their centre
     * ({@code min / 2 + max / 2}, no overflow at any finite magnitude) moved to the nearest multiple of the
     * largest power of two not above 1/1024 of the half extent, or 0 for no boxes. The move costs at most 1/2048
     * of the reach, and makes coordinates on any coarser power-of-two grid (whole units far from zero, say) exact
     * as floats relative to the origin, so boxes that touch or are flush with a query in double still are once
     * stored. (The centre itself is kept for a zero or tiny extent, and beyond half of
     * {@link OutwardFloat#MAX_OFFSET}.)
     *
     * @param bounds bounds from {@link #emptyBounds} grown by {@link #growBounds}
     * @return the origin, {@code x, y, z}
     * @throws IllegalArgumentException if the centre lies beyond {@link OutwardFloat#MAX_ORIGIN} on an axis (boxes
     *     near the end of the double range, which no index can take)
     */
    public static double[] originOf(double[] bounds) {
        double[] origin = new double[3];
        for (int a = 0; a < 3; a++) {
            double min = bounds[a];
            double max = bounds[3 + a];
            origin[a] = min > max ? 0.0 : gridOrigin(min * 0.5 + max * 0.5, max * 0.5 - min * 0.5);
            if (!(Math.abs(origin[a]) <= OutwardFloat.MAX_ORIGIN)) {
                throw new IllegalArgumentException("boxes centred at " + origin[a] + " on axis " + "xyz".charAt(a)
                        + ": an origin must lie within " + OutwardFloat.MAX_ORIGIN + " of zero");
            }
        }
        return origin;
    }

    private static double gridOrigin(double centre, double half) {
        if (!(half >= 0x1p-1000) || half > OutwardFloat.MAX_OFFSET * 0.5) {
            return centre;
        }
        double step = Math.scalb(1.0, Math.getExponent(half) - 10);
        if (Math.ulp(centre) >= step) {
            return centre; // already a multiple of the step (and centre / step could overflow)
        }
        return Math.rint(centre / step) * step;
    }

    /**
     * Converts absolute double boxes to floats relative to an origin by the library's storage rule: translate in
     * double, then round min coordinates down and max coordinates up ({@link OutwardFloat}).
     *
     * @param boxes   absolute boxes, stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}), finite, min &lt;= max
     * @param originX origin x (finite, at most {@link OutwardFloat#MAX_ORIGIN} in magnitude)
     * @param originY origin y (as x)
     * @param originZ origin z (as x)
     * @return a new float array of the same length
     * @throws IllegalArgumentException on a null, ragged, non-finite or inverted input, a box reaching more than
     *                                  {@link OutwardFloat#MAX_OFFSET} from the origin, or an origin beyond
     *                                  {@link OutwardFloat#MAX_ORIGIN}
     */
    public static float[] toFloatBoxes(double[] boxes, double originX, double originY, double originZ) {
        BoxValidation.checkDoubleBoxes(boxes, "boxes");
        checkOrigin(originX, originY, originZ);
        BoxValidation.checkStorable(boxes, boxes.length / 6, 0, new double[] {originX, originY, originZ}, "boxes");
        float[] out = new float[boxes.length];
        storeBoxes(boxes, boxes.length / 6, 0, originX, originY, originZ, out);
        return out;
    }

    /**
     * Checks one chunk of a larger input of absolute double boxes exactly as {@link #build(double[])} checks a
     * whole array, so that an input too big to hold as doubles can be validated piece by piece with the same
     * exceptions and the same object indices in their messages.
     *
     * @param chunk       boxes, stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}); the first
     *                    {@code 6 * count} values are checked, the rest is ignored
     * @param count       boxes in the chunk, at least 0
     * @param firstObject index of the chunk's first box in the whole input, at least 0
     * @throws IllegalArgumentException if {@code chunk} is null or shorter than {@code 6 * count}, {@code count} or
     *                                  {@code firstObject} is negative, or a box is not finite or inverted (the
     *                                  message names the box by its index in the whole input)
     */
    public static void checkBoxes(double[] chunk, int count, int firstObject) {
        if (chunk == null) {
            throw new IllegalArgumentException("chunk must not be null");
        }
        if (count < 0 || firstObject < 0 || 6L * count > chunk.length) {
            throw new IllegalArgumentException("count " + count + " and firstObject " + firstObject
                    + " must be non-negative and the chunk must hold 6 * count values, has " + chunk.length);
        }
        BoxValidation.checkDoubleBoxes(chunk, count, firstObject, "boxes");
    }

    /**
     * {@link #checkBoxes(double[], int, int)}, and also that every box can be stored relative to the given origin:
     * no coordinate more than {@link OutwardFloat#MAX_OFFSET} from it, as every index of the library requires.
     *
     * @param chunk       boxes, stride 6; the first {@code 6 * count} values are checked
     * @param count       boxes in the chunk, at least 0
     * @param firstObject index of the chunk's first box in the whole input, at least 0
     * @param originX     origin x (finite, at most {@link OutwardFloat#MAX_ORIGIN} in magnitude)
     * @param originY     origin y (as x)
     * @param originZ     origin z (as x)
     * @throws IllegalArgumentException as {@link #checkBoxes(double[], int, int)}, on an origin beyond
     *                                  {@link OutwardFloat#MAX_ORIGIN}, or for a
     *                                  box beyond the storage range (the message names it)
     */
    public static void checkBoxes(double[] chunk, int count, int firstObject, double originX, double originY,
                                  double originZ) {
        checkBoxes(chunk, count, firstObject);
        checkOrigin(originX, originY, originZ);
        BoxValidation.checkStorable(chunk, count, firstObject, new double[] {originX, originY, originZ}, "boxes");
    }

    /**
     * {@link #toFloatBoxes(double[], double, double, double)} for one chunk of a larger input: checks the chunk with
     * {@link #checkBoxes}, then stores its boxes by the same rule at their place in the whole input's float array,
     * {@code dest[6 * firstObject .. 6 * (firstObject + count))}. Converting every chunk of an input in turn gives
     * exactly the array the whole-array method returns.
     *
     * @param chunk       absolute boxes, stride 6; the first {@code 6 * count} values are converted
     * @param count       boxes in the chunk, at least 0
     * @param firstObject index of the chunk's first box in the whole input, at least 0
     * @param originX     origin x (finite, at most {@link OutwardFloat#MAX_ORIGIN} in magnitude)
     * @param originY     origin y (as x)
     * @param originZ     origin z (as x)
     * @param dest        the whole input's float boxes, stride 6
     * @throws IllegalArgumentException as {@link #checkBoxes(double[], int, int, double, double, double)}, or if
     *                                  {@code dest} is null or shorter than {@code 6 * (firstObject + count)}
     */
    public static void toFloatBoxes(double[] chunk, int count, int firstObject, double originX, double originY,
                                    double originZ, float[] dest) {
        checkBoxes(chunk, count, firstObject, originX, originY, originZ);
        if (dest == null || 6L * ((long) firstObject + count) > dest.length) {
            throw new IllegalArgumentException("dest must hold 6 * (" + firstObject + " + " + count + ") floats");
        }
        storeBoxes(chunk, count, firstObject, originX, originY, originZ, dest);
    }

    private static void checkOrigin(double originX, double originY, double originZ) {
        Arguments.requireOrigin("originX", originX);
        Arguments.requireOrigin("originY", originY);
        Arguments.requireOrigin("originZ", originZ);
    }

    private static void storeBoxes(double[] chunk, int count, int firstObject, double originX, double originY,
                                   double originZ, float[] dest) {
        for (int j = 0; j < count; j++) {
            int i = 6 * j;
            OutwardFloat.storeBox(dest, 6 * (firstObject + j), originX, originY, originZ, chunk[i], chunk[i + 1],
                    chunk[i + 2], chunk[i + 3], chunk[i + 4], chunk[i + 5]);
        }
    }

    /**
     * Builds from float boxes relative to a double origin. The input array is only read during the call.
     *
     * @param boxes   stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}) relative to the origin, finite,
     *                min &lt;= max; object {@code i} is the box at {@code 6 i}
     * @param originX origin x (finite, at most {@link OutwardFloat#MAX_ORIGIN} in magnitude)
     * @param originY origin y (as x)
     * @param originZ origin z (as x)
     * @return the tree, its boxes relative to the same origin
     * @throws IllegalArgumentException on a null, ragged, non-finite or inverted input, or too many objects, or an
     *                                  origin beyond {@link OutwardFloat#MAX_ORIGIN}
     */
    public FlatBvh build(float[] boxes, double originX, double originY, double originZ) {
        return build(boxes, originX, originY, originZ, true);
    }

    /**
     * As {@link #build(float[], double, double, double)}, but partitions {@code boxes} itself instead of a copy of
     * it: 24 bytes per object less memory and one copy less, for a caller that no longer needs the array. Object
     * {@code i} is still the box the array held at {@code 6 i} when the call began; afterwards the array holds the
     * same boxes in an unspecified order.
     *
     * @param boxes   stride 6, relative to the origin, finite, min &lt;= max; reordered by the call
     * @param originX origin x (finite, at most {@link OutwardFloat#MAX_ORIGIN} in magnitude)
     * @param originY origin y (as x)
     * @param originZ origin z (as x)
     * @return the tree, its boxes relative to the same origin
     * @throws IllegalArgumentException on a null, ragged, non-finite or inverted input, too many objects, or an
     *                                  origin beyond {@link OutwardFloat#MAX_ORIGIN} (the array is then unchanged)
     */
    public FlatBvh buildInPlace(float[] boxes, double originX, double originY, double originZ) {
        return build(boxes, originX, originY, originZ, false);
    }

    private FlatBvh build(float[] boxes, double originX, double originY, double originZ, boolean copy) {
        checkInput(boxes);
        Arguments.requireOrigin("originX", originX);
        Arguments.requireOrigin("originY", originY);
        Arguments.requireOrigin("originZ", originZ);
        int n = boxes.length / 6;
        float[] childBounds = new float[12 * Math.max(0, n - 1)];
        int[] childRefs = new int[2 * Math.max(0, n - 1)];
        float[] root = new float[6];
        int rootRef = run(copy ? java.util.Arrays.copyOf(boxes, 6 * n) : boxes, root, (node, b, off, refA, refB) -> {
            System.arraycopy(b, off, childBounds, 12 * node, 12);
            childRefs[2 * node] = refA;
            childRefs[2 * node + 1] = refB;
        }, null);
        return new FlatBvh(n, originX, originY, originZ, childBounds, childRefs, root, rootRef);
    }

    /**
     * As {@link #buildInPlace}, but hands each internal node to {@code sink} instead of collecting a
     * {@link FlatBvh}: 56 bytes per object less memory and one copy less for a caller with a node layout of its
     * own. The tree is the one {@link #buildInPlace} builds from the same boxes.
     *
     * @param boxes      stride 6, relative to an origin of the caller's, finite, min &lt;= max; reordered by the
     *                   call
     * @param rootBounds receives the root's box (the union of all boxes), 6 floats; unchanged for no boxes
     * @param sink       receives the internal nodes
     * @return the root reference: {@link FlatBvh#NULL_REF} for no boxes, {@code ~0} for one, else {@code 0}
     * @throws IllegalArgumentException on a null, ragged, non-finite or inverted input, or too many objects (the
     *                                  array is then unchanged), or a null or short {@code rootBounds} (or
     *                                  {@code boxes} itself) or null sink
     */
    public int buildInPlace(float[] boxes, float[] rootBounds, NodeSink sink) {
        checkSinkArguments(boxes, rootBounds, sink);
        return run(boxes, rootBounds, sink, null);
    }

    /**
     * As {@link #buildInPlace(float[], float[], NodeSink)}, but leaves are numbered in the hierarchy's depth-first
     * order (child A before child B) instead of by object: a leaf reference {@code ~p} handed to the sink is the
     * {@code p}-th leaf, whose object {@code leafObjects[p]} holds once the call returns. For a caller that lays its
     * objects out in that order (the objects one query reaches then lie side by side) and writes the nodes as they
     * come, without renumbering a finished tree. Same tree as the other build methods.
     *
     * @param boxes       stride 6, relative to an origin of the caller's, finite, min &lt;= max; reordered by the
     *                    call into leaf order
     * @param rootBounds  receives the root's box, 6 floats; unchanged for no boxes
     * @param sink        receives the internal nodes, leaves by position
     * @param leafObjects receives the object of each leaf, in leaf order: at least as long as there are objects
     * @return the root reference, as {@link #buildInPlace(float[], float[], NodeSink)}'s
     * @throws IllegalArgumentException as {@link #buildInPlace(float[], float[], NodeSink)}, or if
     *                                  {@code leafObjects} is null or too short
     */
    public int buildInPlaceInLeafOrder(float[] boxes, float[] rootBounds, NodeSink sink, int[] leafObjects) {
        checkSinkArguments(boxes, rootBounds, sink);
        if (leafObjects == null || leafObjects.length < boxes.length / 6) {
            throw new IllegalArgumentException("leafObjects must hold one int per object (" + boxes.length / 6 + ")");
        }
        return run(boxes, rootBounds, sink, leafObjects);
    }

    private static void checkSinkArguments(float[] boxes, float[] rootBounds, NodeSink sink) {
        checkInput(boxes);
        if (rootBounds == null || rootBounds.length < 6) {
            throw new IllegalArgumentException("rootBounds must hold 6 floats");
        }
        if (rootBounds == boxes) {
            // the root's box is written before the boxes are read: the same array lost its first box
            throw new IllegalArgumentException("rootBounds and boxes are the same array: rootBounds needs its own"
                    + " (the root's box is written before the boxes are read)");
        }
        if (sink == null) {
            throw new IllegalArgumentException("sink must not be null");
        }
    }

    private static void checkInput(float[] boxes) {
        BoxValidation.checkFloatBoxes(boxes, "boxes");
        int n = boxes.length / 6;
        if (n > MAX_OBJECTS) {
            throw new IllegalArgumentException("boxes holds " + n + " objects, more than " + MAX_OBJECTS);
        }
    }

    /**
     * Builds over the checked {@code boxes} (partitioned in place); returns the root reference.
     *
     * @param leafObjects null: leaves by object; else leaves by position, and it receives the object of each
     */
    private int run(float[] boxes, float[] root, NodeSink sink, int[] leafObjects) {
        int n = boxes.length / 6;
        if (n == 0) {
            return FlatBvh.NULL_REF;
        }
        Job job = new Job(boxes, n, sink, leafObjects);
        job.union(0, n, root, 0);
        if (n == 1) {
            return ~0;
        }
        float[] rootCentroids = new float[6];
        job.centroidBounds(0, n, rootCentroids);
        if (pool == null || n <= parallelThreshold) {
            new Task(job, 0, n, 0, rootCentroids).compute();
        } else {
            pool.invoke(new Task(job, 0, n, 0, rootCentroids));
        }
        progress.placed(n, n);
        return 0;
    }

    /** Shared state of one build: input, index permutation, output, progress counter. */
    private final class Job {
        /**
         * The boxes of idx[0..n), permuted with idx: every pass streams through a contiguous range instead of
         * gathering boxes at random (input order rarely follows space, and each level of the build reads every box).
         */
        final float[] boxes;
        final int[] idx;
        /** Whether leaves are referenced by position (depth-first leaf order) rather than by object. */
        final boolean leavesByPosition;
        final NodeSink sink;
        final int total;
        final AtomicLong placed = new AtomicLong();
        /** Set when a task failed: the tasks still to split their ranges stop, so the failure comes sooner. */
        volatile boolean failed;

        /**
         * @param boxes       the boxes, partitioned in place from here on
         * @param sink        receives the nodes
         * @param leafObjects null, or the array that holds the permutation and so ends holding the leaf order
         */
        Job(float[] boxes, int n, NodeSink sink, int[] leafObjects) {
            this.boxes = boxes;
            this.total = n;
            // the permutation ends as the leaf order: given a caller's array, it is the caller's answer
            this.leavesByPosition = leafObjects != null;
            this.idx = leafObjects != null ? leafObjects : new int[n];
            for (int i = 0; i < n; i++) {
                idx[i] = i;
            }
            this.sink = sink;
        }

        /** Swaps positions i and j of idx and of the box copy. */
        void swap(int i, int j) {
            swapBoxes(boxes, idx, i, j);
        }

        /** Union of the boxes of idx[s..e) into dest[off..off+6). */
        void union(int s, int e, float[] dest, int off) {
            float x0 = Float.POSITIVE_INFINITY, y0 = Float.POSITIVE_INFINITY, z0 = Float.POSITIVE_INFINITY;
            float x1 = Float.NEGATIVE_INFINITY, y1 = Float.NEGATIVE_INFINITY, z1 = Float.NEGATIVE_INFINITY;
            float[] b = boxes;
            for (int i = s; i < e; i++) {
                int o = 6 * i;
                x0 = Math.min(x0, b[o]);
                y0 = Math.min(y0, b[o + 1]);
                z0 = Math.min(z0, b[o + 2]);
                x1 = Math.max(x1, b[o + 3]);
                y1 = Math.max(y1, b[o + 4]);
                z1 = Math.max(z1, b[o + 5]);
            }
            dest[off] = x0;
            dest[off + 1] = y0;
            dest[off + 2] = z0;
            dest[off + 3] = x1;
            dest[off + 4] = y1;
            dest[off + 5] = z1;
        }

        /**
         * Splits idx[s..e) (at least 2 objects) for internal node {@code node}: partitions in place, hands the
         * node's child boxes and references to the sink, returns the split position. Takes the centroid bounds of
         * the range from {@code sc.centroids} and leaves those of the two sides in {@code sc.leftCentroids} and
         * {@code sc.rightCentroids} (the SAH partition gathers them on the way, saving a pass per level).
         */
        int splitNode(int s, int e, int node, Scratch sc) {
            if (e - s == 2) {
                // two objects: one leaf each, whatever the heuristic; their boxes lie side by side already
                sink.node(node, boxes, 6 * s, leafRef(s), leafRef(s + 1));
                return s + 1;
            }
            float[] c = sc.centroids;
            int mid = -1;
            boolean boxesWritten = false;
            if (e - s <= EXHAUSTIVE_MAX_OBJECTS && splitMethod == SplitMethod.BINNED_SAH) {
                mid = exhaustiveSplit(s, e, sc);
            } else if (c[3] > c[0] || c[4] > c[1] || c[5] > c[2]) {
                if (splitMethod == SplitMethod.BINNED_SAH && binnable(c)) {
                    mid = sahSplit(s, e, sc);
                    boxesWritten = mid >= 0;
                } else {
                    mid = medianSplit(s, e, sc);
                }
            }
            if (mid < 0) {
                // all centroids coincide: any split is as good as another
                mid = s + ((e - s) >>> 1);
            }
            final float[] childBoxes = sc.childBoxes;
            if (!boxesWritten) {
                union(s, mid, childBoxes, 0);
                union(mid, e, childBoxes, 6);
                // the centroid bounds of a side are only read if the side is split by them
                if (readsCentroids(mid - s)) {
                    centroidBounds(s, mid, sc.leftCentroids);
                }
                if (readsCentroids(e - mid)) {
                    centroidBounds(mid, e, sc.rightCentroids);
                }
            }
            int countA = mid - s;
            int countB = e - mid;
            sink.node(node, childBoxes, 0, countA >= 2 ? node + 1 : leafRef(s),
                    countB >= 2 ? node + countA : leafRef(mid));
            return mid;
        }

        /** The reference of the leaf at position {@code p}, a range of one object that is final. */
        private int leafRef(int p) {
            return ~(leavesByPosition ? p : idx[p]);
        }

        /**
         * Whether splitting a range of {@code count} objects reads its centroid bounds: binned SAH ranges above the
         * exhaustive size, median ranges of three or more (two objects are always split one and one).
         */
        private boolean readsCentroids(int count) {
            return splitMethod == SplitMethod.BINNED_SAH ? count > EXHAUSTIVE_MAX_OBJECTS : count > 2;
        }

        /**
         * The cheapest split of 3 to 5 objects by the surface area heuristic, found by trying all of them (3, 7 or
         * 15): cheaper than binning so few objects on three axes (these ranges are about a third of all nodes), and
         * exact, where bins only offer the splits an axis-aligned plane can make. Moves the left side to the front
         * and returns where it ends; of equally cheap splits the most even and then the first is taken, so builds
         * stay deterministic.
         */
        private int exhaustiveSplit(int s, int e, Scratch sc) {
            final int m = e - s;
            final int all = (1 << m) - 1;
            final double[] cost = sideCosts(s, all, sc);
            double bestCost = Double.POSITIVE_INFINITY;
            int bestLeft = 1;
            int bestImbalance = m;
            // odd sets only: the first object stays left, so each split is tried once, not also mirrored
            for (int left = 1; left < all; left += 2) {
                double splitCost = cost[left] + cost[all & ~left];
                // among equal costs (coincident or nested boxes) the most even split, which keeps the tree low
                int imbalance = Math.abs(2 * Integer.bitCount(left) - m);
                if (splitCost < bestCost || splitCost == bestCost && imbalance < bestImbalance) {
                    bestCost = splitCost;
                    bestLeft = left;
                    bestImbalance = imbalance;
                }
            }
            int mid = s;
            for (int i = 0; i < m; i++) {
                if ((bestLeft >>> i & 1) != 0) {
                    // positions before i are settled and a later one is not touched yet: set bits stay valid
                    if (mid != s + i) {
                        swap(mid, s + i);
                    }
                    mid++;
                }
            }
            return mid;
        }

        /**
         * The SAH cost of every subset of the boxes at {@code s + i}, i in {@code all}: the half area of its union
         * times its count, at index {@code set} of {@code sc.subsetCost}. Each union is one box added to a smaller
         * subset's (the set without its lowest member, done before it), so the 31 subsets of five boxes take 31
         * unions rather than the 75 of computing each split's two sides on their own.
         */
        private double[] sideCosts(int s, int all, Scratch sc) {
            final float[] b = boxes;
            final float[] u = sc.subsetBox;
            final double[] cost = sc.subsetCost;
            for (int set = 1; set <= all; set++) {
                int o = 6 * (s + Integer.numberOfTrailingZeros(set));
                int rest = 6 * (set & (set - 1));
                int d = 6 * set;
                Scratch.union(u, d, u, rest, b, o);
                cost[set] = halfArea(u[d], u[d + 1], u[d + 2], u[d + 3], u[d + 4], u[d + 5]) * Integer.bitCount(set);
            }
            return cost;
        }

        /**
         * Bounds of doubled centroids (min + max) of idx[s..e) into {@code dest}: minima at 0..2, maxima at 3..5.
         * Doubling avoids a multiply and keeps order.
         */
        void centroidBounds(int s, int e, float[] dest) {
            float[] b = boxes;
            float x0 = Float.POSITIVE_INFINITY, y0 = Float.POSITIVE_INFINITY, z0 = Float.POSITIVE_INFINITY;
            float x1 = Float.NEGATIVE_INFINITY, y1 = Float.NEGATIVE_INFINITY, z1 = Float.NEGATIVE_INFINITY;
            for (int i = s; i < e; i++) {
                int o = 6 * i;
                float cx = b[o] + b[o + 3];
                float cy = b[o + 1] + b[o + 4];
                float cz = b[o + 2] + b[o + 5];
                x0 = Math.min(x0, cx);
                y0 = Math.min(y0, cy);
                z0 = Math.min(z0, cz);
                x1 = Math.max(x1, cx);
                y1 = Math.max(y1, cy);
                z1 = Math.max(z1, cz);
            }
            dest[0] = x0;
            dest[1] = y0;
            dest[2] = z0;
            dest[3] = x1;
            dest[4] = y1;
            dest[5] = z1;
        }

        /**
         * Bins {@code [s, e)} on the axis of widest centroid extent only, Wald 2007's choice ("On fast
         * construction of SAH-based bounding volume hierarchies"); the other axes get scale 0, so the sweep skips
         * them. A third of the binning work of {@link #binAllAxes}, see {@link #ALL_AXES_MAX_OBJECTS}.
         */
        private void binWidestAxis(int s, int e, int bins, Scratch sc) {
            final float[] b = boxes;
            final float[] cmin = sc.centroids;
            final float[] scale = sc.scale;
            int axis = 0;
            for (int a = 1; a < 3; a++) {
                if (cmin[3 + a] - cmin[a] > cmin[3 + axis] - cmin[axis]) {
                    axis = a;
                }
            }
            final float min = cmin[axis];
            final float axisScale = scale[axis];
            for (int a = 0; a < 3; a++) {
                if (a != axis) {
                    scale[a] = 0f;
                }
            }
            final int[] counts = sc.counts;
            final float[] binBox = sc.binBox;
            final int base = axis * bins;
            final int last = bins - 1;
            for (int i = s; i < e; i++) {
                int o = 6 * i;
                int k = base + binOf(b[o + axis] + b[o + 3 + axis], min, axisScale, last);
                counts[k]++;
                Scratch.grow(binBox, 6 * k, b, o);
            }
        }

        /**
         * Bins {@code [s, e)} on the three axes in one pass, box in registers. An axis of zero extent puts
         * everything in its bin 0, which no plane can split: the sweep skips it anyway.
         */
        private void binAllAxes(int s, int e, int bins, Scratch sc) {
            final float[] b = boxes;
            final float[] cmin = sc.centroids;
            final float[] scale = sc.scale;
            final int[] counts = sc.counts;
            final float[] binBox = sc.binBox;
            final float mx = cmin[0];
            final float my = cmin[1];
            final float mz = cmin[2];
            final float sx = scale[0];
            final float sy = scale[1];
            final float sz = scale[2];
            final int last = bins - 1;
            for (int i = s; i < e; i++) {
                int o = 6 * i;
                float x0 = b[o];
                float y0 = b[o + 1];
                float z0 = b[o + 2];
                float x1 = b[o + 3];
                float y1 = b[o + 4];
                float z1 = b[o + 5];
                int kx = binOf(x0 + x1, mx, sx, last);
                int ky = bins + binOf(y0 + y1, my, sy, last);
                int kz = 2 * bins + binOf(z0 + z1, mz, sz, last);
                counts[kx]++;
                counts[ky]++;
                counts[kz]++;
                Scratch.grow(binBox, 6 * kx, x0, y0, z0, x1, y1, z1);
                Scratch.grow(binBox, 6 * ky, x0, y0, z0, x1, y1, z1);
                Scratch.grow(binBox, 6 * kz, x0, y0, z0, x1, y1, z1);
            }
        }

        /**
         * Whether the centroid bounds {@code c} can be binned in float: bins per unit of the widest extent stay
         * finite. Below about {@code 1e-37} (subnormal extents) {@code bins / extent} overflows, every centroid
         * falls into the first or the last bin and each split would peel off one object (a chain of height n);
         * such ranges take the object median instead.
         */
        private boolean binnable(float[] c) {
            float widest = Math.max(c[3] - c[0], Math.max(c[4] - c[1], c[5] - c[2]));
            return binCount / widest < Float.POSITIVE_INFINITY;
        }

        /**
         * Binned SAH (Wald 2007): bins on the widest centroid axis or on all three ({@link #ALL_AXES_MAX_OBJECTS}),
         * then the cheapest plane; returns the split position, child boxes already in {@code sc.childBoxes}.
         */
        private int sahSplit(int s, int e, Scratch sc) {
            // small ranges get as many bins as objects (at least 4): clearing and sweeping 3 x binCount bins would
            // otherwise dominate the cost of the many small nodes near the leaves
            final int bins = Math.min(binCount, Math.max(4, e - s));
            final float[] b = boxes;
            final float[] cmin = sc.centroids;
            final float[] scale = sc.scale;
            final int[] counts = sc.counts;
            final float[] binBox = sc.binBox;
            for (int a = 0; a < 3; a++) {
                float extent = cmin[3 + a] - cmin[a];
                scale[a] = extent > 0f ? bins / extent : 0f;
            }
            final int last = bins - 1;
            java.util.Arrays.fill(counts, 0, 3 * bins, 0);
            for (int k = 0; k < 3 * bins; k++) {
                Scratch.setEmpty(binBox, 6 * k);
            }
            if (e - s > ALL_AXES_MAX_OBJECTS) {
                binWidestAxis(s, e, bins, sc);
            } else {
                binAllAxes(s, e, bins, sc);
            }
            double bestCost = Double.POSITIVE_INFINITY;
            int bestAxis = -1;
            int bestPlane = -1;
            final double[] rightArea = sc.rightArea;
            final int[] rightCount = sc.rightCount;
            for (int a = 0; a < 3; a++) {
                if (scale[a] == 0f) {
                    continue;
                }
                int base = a * bins;
                // plane j puts bins [0, j) left and [j, bins) right. The growing boxes are unions written to
                // scratch, not running minima in registers: JDK 25 ran those sweeps at half JDK 17's speed (a
                // profile), and the whole build 1.20x faster this way, at 0.97x on JDK 17
                final float[] grown = sc.sweepBox;
                Scratch.setEmpty(grown, 0);
                int count = 0;
                for (int j = bins - 1; j >= 1; j--) {
                    Scratch.grow(grown, 0, binBox, 6 * (base + j));
                    count += counts[base + j];
                    rightArea[j] = halfArea(grown[0], grown[1], grown[2], grown[3], grown[4], grown[5]);
                    rightCount[j] = count;
                }
                Scratch.setEmpty(grown, 0);
                count = 0;
                for (int j = 1; j < bins; j++) {
                    Scratch.grow(grown, 0, binBox, 6 * (base + j - 1));
                    count += counts[base + j - 1];
                    if (count == 0 || rightCount[j] == 0) {
                        continue;
                    }
                    double cost = halfArea(grown[0], grown[1], grown[2], grown[3], grown[4], grown[5]) * count
                            + rightArea[j] * rightCount[j];
                    if (cost < bestCost) {
                        bestCost = cost;
                        bestAxis = a;
                        bestPlane = j;
                    }
                }
            }
            if (bestAxis < 0) {
                return -1;
            }
            final float threshold = firstKeyAtOrAbove(cmin[bestAxis], cmin[3 + bestAxis], scale[bestAxis], last,
                    bestPlane);
            final int mid = partition(s, e, bestAxis, threshold, sc);
            int base = bestAxis * bins;
            final float[] childBoxes = sc.childBoxes;
            Scratch.setEmpty(childBoxes, 0);
            Scratch.setEmpty(childBoxes, 6);
            for (int k = 0; k < bins; k++) {
                Scratch.grow(childBoxes, k < bestPlane ? 0 : 6, binBox, 6 * (base + k));
            }
            return mid;
        }

        /**
         * In-place Hoare partition of {@code [s, e)}: centroid keys below {@code threshold} go left
         * ({@link #firstKeyAtOrAbove}: exactly the objects binned left of the plane); each object is classified once
         * on its way and its centroid joins its side's bounds, left in {@code sc.leftCentroids} and
         * {@code sc.rightCentroids}. Returns where the right side starts.
         */
        private int partition(int s, int e, int bestAxis, float threshold, Scratch sc) {
            final float[] b = boxes;
            float lx0 = Float.POSITIVE_INFINITY, ly0 = Float.POSITIVE_INFINITY, lz0 = Float.POSITIVE_INFINITY;
            float lx1 = Float.NEGATIVE_INFINITY, ly1 = Float.NEGATIVE_INFINITY, lz1 = Float.NEGATIVE_INFINITY;
            float rx0 = Float.POSITIVE_INFINITY, ry0 = Float.POSITIVE_INFINITY, rz0 = Float.POSITIVE_INFINITY;
            float rx1 = Float.NEGATIVE_INFINITY, ry1 = Float.NEGATIVE_INFINITY, rz1 = Float.NEGATIVE_INFINITY;
            int i = s;
            int j = e - 1;
            while (true) {
                while (i <= j) {
                    int o = 6 * i;
                    float cx = b[o] + b[o + 3];
                    float cy = b[o + 1] + b[o + 4];
                    float cz = b[o + 2] + b[o + 5];
                    float key = bestAxis == 0 ? cx : bestAxis == 1 ? cy : cz;
                    if (key >= threshold) {
                        break;
                    }
                    lx0 = Math.min(lx0, cx);
                    ly0 = Math.min(ly0, cy);
                    lz0 = Math.min(lz0, cz);
                    lx1 = Math.max(lx1, cx);
                    ly1 = Math.max(ly1, cy);
                    lz1 = Math.max(lz1, cz);
                    i++;
                }
                while (i <= j) {
                    int o = 6 * j;
                    float cx = b[o] + b[o + 3];
                    float cy = b[o + 1] + b[o + 4];
                    float cz = b[o + 2] + b[o + 5];
                    float key = bestAxis == 0 ? cx : bestAxis == 1 ? cy : cz;
                    if (key < threshold) {
                        break;
                    }
                    rx0 = Math.min(rx0, cx);
                    ry0 = Math.min(ry0, cy);
                    rz0 = Math.min(rz0, cz);
                    rx1 = Math.max(rx1, cx);
                    ry1 = Math.max(ry1, cy);
                    rz1 = Math.max(rz1, cz);
                    j--;
                }
                if (i >= j) {
                    break;
                }
                // i belongs right and j left: swap them, the loops above then take both in
                swap(i, j);
            }
            setBounds(sc.leftCentroids, lx0, ly0, lz0, lx1, ly1, lz1);
            setBounds(sc.rightCentroids, rx0, ry0, rz0, rx1, ry1, rz1);
            return i;
        }

        /** Object median on the largest centroid axis by 3-way quickselect; returns the split (boxes not written). */
        private int medianSplit(int s, int e, Scratch sc) {
            int axis = 0;
            float best = -1f;
            for (int a = 0; a < 3; a++) {
                float extent = sc.centroids[3 + a] - sc.centroids[a];
                if (extent > best) {
                    best = extent;
                    axis = a;
                }
            }
            int k = s + ((e - s) >>> 1);
            selectByCentroid(boxes, idx, s, e, k, axis);
            return k;
        }

        void addPlaced(Scratch sc, int leaves) {
            sc.unreported += leaves;
            if (sc.unreported >= PROGRESS_STEP) {
                flushPlaced(sc);
            }
        }

        void flushPlaced(Scratch sc) {
            if (sc.unreported > 0) {
                long now = placed.addAndGet(sc.unreported);
                sc.unreported = 0;
                progress.placed(now, total);
            }
        }

        /**
         * Builds the subtree of idx[s..e) rooted at internal node {@code node} on this thread; the range's centroid
         * bounds are in {@code sc.centroids}.
         */
        void buildSequential(int s0, int e0, int node0, Scratch sc) {
            sc.push(s0, e0, node0, sc.centroids);
            while (sc.top > 0) {
                int t = sc.pop();
                int s = sc.stack[t];
                int e = sc.stack[t + 1];
                int node = sc.stack[t + 2];
                int mid = splitNode(s, e, node, sc);
                int countA = mid - s;
                int countB = e - mid;
                addPlaced(sc, (countA == 1 ? 1 : 0) + (countB == 1 ? 1 : 0));
                // push the larger child first so the smaller is built first: the stack stays O(log n) deep
                boolean aFirst = countA >= countB;
                if (aFirst && countA >= 2) {
                    sc.push(s, mid, node + 1, sc.leftCentroids);
                }
                if (countB >= 2) {
                    sc.push(mid, e, node + countA, sc.rightCentroids);
                }
                if (!aFirst && countA >= 2) {
                    sc.push(s, mid, node + 1, sc.leftCentroids);
                }
            }
        }
    }

    /**
     * The smallest centroid key in {@code [min, max]} (a range's centroid bounds on the split axis) whose bin
     * ({@link #binOf}) is {@code plane} or more. The bin is monotone in the key, so comparing keys with it
     * classifies every object exactly as binning did, with one compare in place of a subtract, multiply,
     * conversion and minimum per object of the partition. The plane's position, {@code min + plane / scale}, is
     * at most a few floats off it; walked from there, with bisection of the floats in between as the fallback.
     *
     * @param plane a plane in {@code [1, last]}, which {@code max} reaches (it is in the last bin)
     */
    static float firstKeyAtOrAbove(float min, float max, float scale, int last, int plane) {
        float t = min + plane / scale;
        if (t >= min && t <= max) {
            for (int steps = 0; steps < 8; steps++) {
                if (!reaches(t, min, scale, last, plane)) {
                    t = Math.nextUp(t);
                    if (t > max) {
                        break;
                    }
                } else if (t > min && reaches(Math.nextDown(t), min, scale, last, plane)) {
                    t = Math.nextDown(t);
                } else {
                    return t;
                }
            }
        }
        return bisectFirstKey(min, max, scale, last, plane);
    }

    /** Whether a centroid key's bin is {@code plane} or more. */
    private static boolean reaches(float key, float min, float scale, int last, int plane) {
        return binOf(key, min, scale, last) >= plane;
    }

    /**
     * The bin of a doubled centroid key on an axis binned from {@code min} with {@code scale} bins per unit, of
     * bins {@code 0 .. last}: the one expression binning and the partition's threshold ({@link #firstKeyAtOrAbove})
     * share, so that both put every object on the same side. Monotone in the key.
     */
    static int binOf(float key, float min, float scale, int last) {
        return Math.min(last, (int) ((key - min) * scale));
    }

    /** {@link #firstKeyAtOrAbove} by bisecting the floats of {@code [min, max]} in order. */
    private static float bisectFirstKey(float min, float max, float scale, int last, int plane) {
        // floats in order as ints: sign-magnitude to two's complement, so -0 comes just before +0
        int a = orderedBits(min);
        int b = orderedBits(max);
        // invariant: key(b) reaches the plane; every key below a does not
        while (a < b) {
            int m = (int) (((long) a + b) >> 1);
            if (reaches(floatOfOrdered(m), min, scale, last, plane)) {
                b = m;
            } else {
                a = m + 1;
            }
        }
        return floatOfOrdered(b);
    }

    private static int orderedBits(float f) {
        int bits = Float.floatToRawIntBits(f);
        return bits ^ (bits >> 31 & 0x7fffffff);
    }

    private static float floatOfOrdered(int ordered) {
        return Float.intBitsToFloat(ordered ^ (ordered >> 31 & 0x7fffffff));
    }

    private static void setBounds(float[] dest, float x0, float y0, float z0, float x1, float y1, float z1) {
        dest[0] = x0;
        dest[1] = y0;
        dest[2] = z0;
        dest[3] = x1;
        dest[4] = y1;
        dest[5] = z1;
    }

    /**
     * Reorders the boxes {@code [from, to)} (stride 6) and their {@code ids} together so that position {@code nth}
     * holds the box it would hold if they were sorted by centroid on {@code axis}, with no centroid before it
     * larger and none after it smaller: Hoare's selection, median-of-three pivot, three-way partition (so equal
     * centroids cannot make it quadratic). O(to - from) expected, deterministic. The object-median split of
     * {@link SplitMethod#MEDIAN}; the dynamic tree's batch adds split batches with it too.
     *
     * @param boxes boxes, stride 6
     * @param ids   one id per box, moved with it
     * @param from  first position
     * @param to    end position (exclusive)
     * @param nth   the position to settle, in {@code [from, to)}
     * @param axis  0, 1 or 2
     * @throws IllegalArgumentException before anything moves: null arrays, a range not inside both arrays,
     *                                  {@code nth} outside {@code [from, to)} or an axis other than 0, 1, 2 (the
     *                                  boxes themselves are not checked: NaN centroids are placed arbitrarily)
     */
    public static void selectByCentroid(float[] boxes, int[] ids, int from, int to, int nth, int axis) {
        Arguments.requireNonNull("boxes", boxes);
        Arguments.requireNonNull("ids", ids);
        if (from < 0 || to > ids.length || (long) to * 6 > boxes.length || nth < from || nth >= to) {
            throw new IllegalArgumentException("selectByCentroid needs 0 <= from <= nth < to with to boxes and ids,"
                    + " got from " + from + ", nth " + nth + ", to " + to + " with " + boxes.length / 6 + " boxes and "
                    + ids.length + " ids");
        }
        if (axis < 0 || axis > 2) {
            throw new IllegalArgumentException("axis must be 0, 1 or 2, got " + axis);
        }
        int lo = from;
        int hi = to - 1;
        while (hi > lo) {
            float pivot = median3(centroid(boxes, lo, axis), centroid(boxes, lo + ((hi - lo) >>> 1), axis),
                    centroid(boxes, hi, axis));
            int lt = lo;
            int i = lo;
            int gt = hi;
            while (i <= gt) {
                float c = centroid(boxes, i, axis);
                if (c < pivot) {
                    swapBoxes(boxes, ids, lt++, i++);
                } else if (c > pivot) {
                    swapBoxes(boxes, ids, gt--, i);
                } else {
                    i++;
                }
            }
            if (nth < lt) {
                hi = lt - 1;
            } else if (nth > gt) {
                lo = gt + 1;
            } else {
                return;
            }
        }
    }

    /** Doubled centroid coordinate of the box at position {@code i} (only the order matters). */
    private static float centroid(float[] boxes, int i, int axis) {
        int o = 6 * i;
        return boxes[o + axis] + boxes[o + 3 + axis];
    }

    /** Swaps the boxes at positions {@code i} and {@code j} and their ids. */
    private static void swapBoxes(float[] boxes, int[] ids, int i, int j) {
        int t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
        int oi = 6 * i;
        int oj = 6 * j;
        for (int k = 0; k < 6; k++) {
            float f = boxes[oi + k];
            boxes[oi + k] = boxes[oj + k];
            boxes[oj + k] = f;
        }
    }

    private static float median3(float a, float b, float c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    // half the surface area: SAH only compares costs, the factor 2 cancels
    private static double halfArea(float x0, float y0, float z0, float x1, float y1, float z1) {
        return surfaceCost((double) x1 - x0, (double) y1 - y0, (double) z1 - z0);
    }

    /** Weight of the tie-breaking term of {@link #surfaceCost}. */
    private static final double TIE_BREAK = 0x1p-20;

    /**
     * The builder's cost of a box by its extents: half the surface area (MacDonald and Booth 1990), plus
     * {@code 2^-20} times the squared sum of the extents. Boxes flat in two axes (points or segments on one line)
     * have no area, so without that term every split of them would cost 0 and the first non-empty bin would win,
     * peeling off a sixteenth per level (100k collinear points: height 143 instead of 17). The term is monotone
     * under containment like the area, and below a thousandth of it unless a box is about a thousand times longer
     * than it is wide. (The dynamic tree's insertion keeps the plain area: the term cost one-by-one insertion 6%
     * in interleaved A/B runs; see {@code docs/tree.md}, Insertion.)
     */
    private static double surfaceCost(double dx, double dy, double dz) {
        double sum = dx + dy + dz;
        return Math.fma(TIE_BREAK * sum, sum, dx * dy + dy * dz + dz * dx);
    }

    /** Per-task scratch: bins, sweep arrays, explicit traversal stack. */
    private static final class Scratch {
        /** Centroid bounds (minima then maxima) of the range being split, and of its two sides after the split. */
        final float[] centroids = new float[6];
        final float[] leftCentroids = new float[6];
        final float[] rightCentroids = new float[6];
        final float[] scale = new float[3];
        /** The box a plane sweep grows. */
        final float[] sweepBox = new float[6];
        /** Unions of subsets of a range's boxes, by subset bit mask; the empty set's (index 0) stays empty. */
        final float[] subsetBox = emptySubsetBoxes();
        /** SAH cost of each subset, by bit mask. */
        final double[] subsetCost = new double[1 << EXHAUSTIVE_MAX_OBJECTS];
        /** The two child boxes of the node being split, A then B, until the sink has them. */
        final float[] childBoxes = new float[12];
        final int[] counts;
        final float[] binBox;
        final double[] rightArea;
        final int[] rightCount;
        int[] stack = new int[3 * 64];
        /** Centroid bounds of each pending range, 6 floats per {@link #stack} entry. */
        float[] stackCentroids = new float[6 * 64];
        int top;
        long unreported;

        Scratch(int bins) {
            counts = new int[3 * bins];
            binBox = new float[3 * bins * 6];
            rightArea = new double[bins];
            rightCount = new int[bins];
        }

        void push(int s, int e, int node, float[] rangeCentroids) {
            if (top + 3 > stack.length) {
                stack = java.util.Arrays.copyOf(stack, stack.length * 2);
                stackCentroids = java.util.Arrays.copyOf(stackCentroids, stackCentroids.length * 2);
            }
            stack[top] = s;
            stack[top + 1] = e;
            stack[top + 2] = node;
            System.arraycopy(rangeCentroids, 0, stackCentroids, 2 * top, 6);
            top += 3;
        }

        /** Pops the top range into the returned position; its centroid bounds go to {@link #centroids}. */
        int pop() {
            top -= 3;
            System.arraycopy(stackCentroids, 2 * top, centroids, 0, 6);
            return top;
        }

        private static float[] emptySubsetBoxes() {
            float[] boxes = new float[6 << EXHAUSTIVE_MAX_OBJECTS];
            setEmpty(boxes, 0);
            return boxes;
        }

        static void setEmpty(float[] box, int off) {
            box[off] = Float.POSITIVE_INFINITY;
            box[off + 1] = Float.POSITIVE_INFINITY;
            box[off + 2] = Float.POSITIVE_INFINITY;
            box[off + 3] = Float.NEGATIVE_INFINITY;
            box[off + 4] = Float.NEGATIVE_INFINITY;
            box[off + 5] = Float.NEGATIVE_INFINITY;
        }

        static void grow(float[] box, int off, float x0, float y0, float z0, float x1, float y1, float z1) {
            box[off] = Math.min(box[off], x0);
            box[off + 1] = Math.min(box[off + 1], y0);
            box[off + 2] = Math.min(box[off + 2], z0);
            box[off + 3] = Math.max(box[off + 3], x1);
            box[off + 4] = Math.max(box[off + 4], y1);
            box[off + 5] = Math.max(box[off + 5], z1);
        }

        static void grow(float[] box, int off, float[] src, int srcOff) {
            union(box, off, box, off, src, srcOff);
        }

        /** The union of the boxes at {@code a[ao]} and {@code b[bo]} into {@code dest[d]} (may be either). */
        static void union(float[] dest, int d, float[] a, int ao, float[] b, int bo) {
            dest[d] = Math.min(a[ao], b[bo]);
            dest[d + 1] = Math.min(a[ao + 1], b[bo + 1]);
            dest[d + 2] = Math.min(a[ao + 2], b[bo + 2]);
            dest[d + 3] = Math.max(a[ao + 3], b[bo + 3]);
            dest[d + 4] = Math.max(a[ao + 4], b[bo + 4]);
            dest[d + 5] = Math.max(a[ao + 5], b[bo + 5]);
        }
    }

    /** A subtree build: splits above the threshold (forking the smaller half), then builds sequentially. */
    private final class Task extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        private final transient Job job;
        private final int start;
        private final int end;
        private final int node;
        private final float[] centroids;

        Task(Job job, int start, int end, int node, float[] centroids) {
            this.job = job;
            this.start = start;
            this.end = end;
            this.node = node;
            this.centroids = centroids;
        }

        @Override
        protected void compute() {
            ArrayList<Task> forked = new ArrayList<>(0);
            Throwable failure = null;
            try {
                split(forked);
            } catch (RuntimeException | Error e) {
                // subtrees not started yet skip their work from here on
                job.failed = true;
                failure = e;
            }
            // Every forked subtree has finished before this one returns, also when something failed (a sink or
            // progress callback that threw, here or in a forked subtree): otherwise the build would throw while
            // subtrees still ran, calling the sink and partitioning the boxes after the caller got the exception.
            // (Cancelling them would not do: a cancelled task that has started counts as done but keeps running.)
            for (int i = forked.size() - 1; i >= 0; i--) {
                Task task = forked.get(i);
                task.quietlyJoin();
                if (failure == null && task.isCompletedAbnormally()) {
                    failure = task.getException();
                }
            }
            if (failure instanceof Error) {
                throw (Error) failure;
            }
            if (failure != null) {
                // compute throws nothing checked, so a subtree's failure is a RuntimeException
                throw failure instanceof RuntimeException ? (RuntimeException) failure
                        : new IllegalStateException(failure);
            }
        }

        /** Builds this task's range; the smaller half of each split above the threshold is forked into the list. */
        private void split(ArrayList<Task> forked) {
            Scratch sc = new Scratch(binCount);
            System.arraycopy(centroids, 0, sc.centroids, 0, 6);
            int s = start;
            int e = end;
            int n = node;
            while (!job.failed) {
                if (e - s <= parallelThreshold || pool == null) {
                    job.buildSequential(s, e, n, sc);
                    break;
                }
                int mid = job.splitNode(s, e, n, sc);
                int countA = mid - s;
                int countB = e - mid;
                job.addPlaced(sc, (countA == 1 ? 1 : 0) + (countB == 1 ? 1 : 0));
                if (countA >= 2 && countB >= 2) {
                    Task smaller = countA < countB
                            ? new Task(job, s, mid, n + 1, sc.leftCentroids.clone())
                            : new Task(job, mid, e, n + countA, sc.rightCentroids.clone());
                    smaller.fork();
                    forked.add(smaller);
                    if (countA < countB) {
                        s = mid;
                        n = n + countA;
                        System.arraycopy(sc.rightCentroids, 0, sc.centroids, 0, 6);
                    } else {
                        e = mid;
                        n = n + 1;
                        System.arraycopy(sc.leftCentroids, 0, sc.centroids, 0, 6);
                    }
                } else if (countA >= 2) {
                    e = mid;
                    n = n + 1;
                    System.arraycopy(sc.leftCentroids, 0, sc.centroids, 0, 6);
                } else if (countB >= 2) {
                    s = mid;
                    n = n + countA;
                    System.arraycopy(sc.rightCentroids, 0, sc.centroids, 0, 6);
                } else {
                    break;
                }
            }
            job.flushPlaced(sc);
        }
    }
}
