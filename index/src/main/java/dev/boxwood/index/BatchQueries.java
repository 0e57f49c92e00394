package dev.boxwood.index;

import dev.boxwood.query.AnyHit;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.LowestOverlaps;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SegmentIntersector;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;

import java.util.concurrent.Executor;

import static dev.boxwood.query.BatchArguments.requireAnswers;
import static dev.boxwood.query.BatchArguments.requireDistinct;
import static dev.boxwood.query.BatchArguments.requireLength;
import static dev.boxwood.query.BatchArguments.requireLineOfSightBatch;
import static dev.boxwood.query.BatchArguments.requireRayBatch;
import static dev.boxwood.query.BatchArguments.requireSlots;
import static dev.boxwood.query.BatchArguments.requireSphereBatch;

/**
 * Many queries in one call, spread over the threads of a {@link QueryExecutor} against the same index, with results
 * written into caller-provided primitive arrays (the model of Unity's {@code RaycastCommand}): line of sight,
 * closest ray hits, sphere region queries. Each thread has pre-allocated scratch (stack and collectors), so a
 * warmed-up batch allocates nothing (a sphere batch allocates on the calling thread only when its
 * {@code maxPerQuery}, capped at the index's object count, is larger than in any earlier sphere batch of the
 * instance). Each query's answer is the one the single query gives (the same handles and fractions).
 *
 * <p>Indexes: the ray batches run on any {@link SpatialQueries} (through its {@code rayCast}), the sphere batch on
 * any {@link ShapeQueries} (its {@code querySphere}): the dynamic tree, a {@link ReadView}, a mapped static world.
 * A tree or view is traversed directly (its arrays, as the single queries do). The index must be safe for
 * concurrent queries and must not be mutated (or closed) during a batch: on a live {@link DynamicAabbTree} each
 * query, and the batch once all have run, throw {@link java.util.ConcurrentModificationException} when they see a
 * change (the tree's fail-fast check, see its class comment).
 *
 * <p>Failures: an exception or error a query throws, on any thread of the batch, ends the batch (queries not yet
 * begun are skipped) and reaches the caller as it was thrown, once every thread has stopped (the first one; those
 * of other threads are added to it as suppressed). The answers are then partly written, and the instance takes
 * the next batch.
 *
 * <p>One batch at a time per instance: a batch method called while another runs (from a second thread, or from a
 * query's callback) throws {@link IllegalStateException} at once and leaves the running batch alone; give each
 * thread that runs batches its own instance. An instance made with a thread count owns {@code threads - 1} daemon
 * worker threads until {@link #close()}: close it when done (for example with try-with-resources), or they stay
 * parked for the life of the JVM. One made on an application's {@link java.util.concurrent.Executor} owns no
 * thread: its batches borrow the executor's, and its instances (one per thread that runs batches) can share it.
 */
public final class BatchQueries extends BatchRunner {

    private final TraversalStack[] stacks;
    private final AnyHit[] anyHits;
    private final ClosestHit[] closestHits;
    private final LowestOverlaps[] lowest;
    private final LineOfSight lineOfSight = new LineOfSight();
    private final ClosestRays closestRays = new ClosestRays();
    private final Spheres spheres = new Spheres();

    /**
     * A batch runner on {@code threads} threads (the caller included), {@code threads - 1} of them its own.
     *
     * @param threads {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public BatchQueries(int threads) {
        this(threads, null);
    }

    /**
     * A batch runner on the calling thread and up to {@code threads - 1} threads of an application's executor (a
     * server's worker pool, {@link java.util.concurrent.ForkJoinPool#commonPool()}), which it neither owns nor
     * shuts down. A batch never waits for a thread the executor does not give it: the threads that do take part
     * answer every query, the calling thread alone if need be ({@link QueryExecutor#QueryExecutor(Executor,
     * int)}), with the same answers either way. Its {@code execute} must not block (a rejection handler that waits
     * for queue space): a batch called from one of its threads would wait for itself.
     *
     * @param executor the application's executor
     * @param threads the most threads a batch runs on, the caller included, {@code >= 1}
     * @throws IllegalArgumentException if {@code executor} is null or {@code threads < 1}
     */
    public BatchQueries(Executor executor, int threads) {
        this(threads, requireExecutor(executor));
    }

    private BatchQueries(int threads, Executor executorOrNull) {
        super(executorOrNull, threads);
        int n = threads();
        stacks = new TraversalStack[n];
        anyHits = new AnyHit[n];
        closestHits = new ClosestHit[n];
        lowest = new LowestOverlaps[n];
        for (int i = 0; i < n; i++) {
            stacks[i] = new TraversalStack();
            anyHits[i] = new AnyHit();
            closestHits[i] = new ClosestHit();
            lowest[i] = new LowestOverlaps();
        }
    }

    /**
     * Sets the filter and the exact test of this instance's ray batches ({@link #lineOfSight} and
     * {@link #closestRays}), for every later batch until set again: a see-through material (glass, foliage) that
     * category bits do not describe, or user geometry inside the boxes (a character's capsule), as single casts
     * take them. In the line of sight through two indexes they see the candidates of both, one index after the
     * other (the handles of the two are numbered apart: tell them apart by user value).
     *
     * <p>Each candidate whose tight box a segment enters is decided as by a single cast with a collector
     * configured by {@link dev.boxwood.query.SegmentCollector#setFilter} and
     * {@link dev.boxwood.query.SegmentCollector#setExactTest}: the ignored handles first, then {@code filter}, then
     * {@code exactTest}, whose fraction replaces the box's. Both are called from the batch's threads at once, so
     * they must be safe for that (stateless, or reading state nothing changes during the batch), and must not run
     * a batch of this instance.
     *
     * @param filter candidates must pass it, or {@code null} for every candidate
     * @param exactTest the exact test of user geometry, or {@code null} for the tight boxes themselves
     * @throws IllegalStateException if a batch of this instance runs (set from another thread, or from inside a
     *                               query); nothing is changed
     */
    public void setRayTests(QueryFilter filter, SegmentIntersector exactTest) {
        configureRayTests(filter, exactTest, anyHits, closestHits);
    }

    /**
     * Line of sight for {@code count} segments: {@code visible[i]} is true when the segment from
     * {@code from[3i..3i+2]} to {@code to[3i..3i+2]} (fraction in {@code [0, 1]}) enters no object's tight box other
     * than {@code ignoreFirst[i]} and {@code ignoreSecond[i]} (the looker and its target; {@link Handles#NONE} for
     * none) among the objects whose categories share a bit with {@code categoryMask}. An any-hit cast: it stops at
     * the first blocker.
     *
     * @param tree the index: a tree, a {@link ReadView}, a mapped world or any thread-safe {@link SpatialQueries}
     * @param from segment starts, 3 per query
     * @param to segment ends, 3 per query
     * @param ignoreFirst first ignored handle per query, or null for none
     * @param ignoreSecond second ignored handle per query, or null for none
     * @param count number of queries
     * @param categoryMask categories that block sight
     * @param visible receives the answers
     * @throws IllegalArgumentException for a negative count, null or short arrays, or a bad segment (a non-finite
     *                                  coordinate, or an end so far from its start that the difference overflows),
     *                                  naming its index; all checked before any query runs, so nothing is written
     * @throws java.util.ConcurrentModificationException if a live {@link DynamicAabbTree} queried changed during the
     *     batch (the answers, written in part or in full, are then undefined)
     */
    public void lineOfSight(SpatialQueries tree, double[] from, double[] to, int[] ignoreFirst, int[] ignoreSecond,
                            int count, long categoryMask, boolean[] visible) {
        Arguments.requireNonNull("tree", tree);
        runLineOfSight(tree, categoryMask, null, 0L, from, to, ignoreFirst, ignoreSecond, count, visible);
    }

    /**
     * Line of sight through static geometry and moving objects in one batch: {@code visible[i]} is true when the
     * segment from {@code from[3i..3i+2]} to {@code to[3i..3i+2]} (fraction in {@code [0, 1]}) enters the tight box
     * of no object of {@code entities} other than {@code ignoreFirst[i]} and {@code ignoreSecond[i]} (the looker and
     * its target) among those whose categories share a bit with {@code entityMask}, and of no object of
     * {@code statics} among those sharing a bit with {@code staticMask} (none ignored there: the ignored handles are
     * the entities'). The answer is that of the two single-index batches combined, without the second batch's
     * passes over the segments: each segment is cast against {@code entities} (a small tree, in memory) first and
     * against {@code statics} only when the entities leave it clear.
     *
     * @param statics the static geometry: a mapped world, a tree or any thread-safe {@link SpatialQueries}
     * @param entities the moving objects: a tree, a {@link ReadView} or any thread-safe {@link SpatialQueries}
     * @param from segment starts, 3 per query
     * @param to segment ends, 3 per query
     * @param ignoreFirst first ignored handle of {@code entities} per query, or null for none
     * @param ignoreSecond second ignored handle of {@code entities} per query, or null for none
     * @param count number of queries
     * @param staticMask categories of {@code statics} that block sight
     * @param entityMask categories of {@code entities} that block sight
     * @param visible receives the answers
     * @throws IllegalArgumentException for a null index, a negative count, null or short arrays, or a bad segment
     *                                  (a non-finite coordinate, or an end so far from its start that the
     *                                  difference overflows), naming its index; all checked before any query runs,
     *                                  so nothing is written
     * @throws java.util.ConcurrentModificationException if a live {@link DynamicAabbTree} queried changed during the
     *     batch (the answers, written in part or in full, are then undefined)
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public void lineOfSight(SpatialQueries statics, SpatialQueries entities, double[] from, double[] to,
                            int[] ignoreFirst, int[] ignoreSecond, int count, long staticMask, long entityMask,
                            boolean[] visible) {
        Arguments.requireNonNull("statics", statics);
        Arguments.requireNonNull("entities", entities);
        runLineOfSight(entities, entityMask, statics, staticMask, from, to, ignoreFirst, ignoreSecond, count,
                visible);
    }

    /** Both line-of-sight batches: {@code statics} null for the one through {@code entities} alone. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private void runLineOfSight(SpatialQueries entities, long entityMask, SpatialQueries statics, long staticMask,
                                double[] from, double[] to, int[] ignoreFirst, int[] ignoreSecond, int count,
                                boolean[] visible) {
        requireLineOfSightBatch(from, to, ignoreFirst, ignoreSecond, count, visible);
        begin();
        LineOfSight t = lineOfSight;
        t.index = entities;
        t.mask = entityMask;
        t.staticIndex = statics;
        t.staticMask = staticMask;
        t.from = from;
        t.to = to;
        t.ignoreFirst = ignoreFirst;
        t.ignoreSecond = ignoreSecond;
        t.visible = visible;
        runAndRelease(t, count);
    }

    /**
     * Closest hit of {@code count} rays: {@code handles[i]} and {@code fractions[i]} receive the closest object
     * (ties by lower handle) of the segment {@code origins[3i..] + t * translations[3i..]}, {@code t} in
     * {@code [0, maxFraction]}, or {@link Handles#NONE} and {@code -1} for a miss.
     *
     * @param tree the index: a tree, a {@link ReadView}, a mapped world or any thread-safe {@link SpatialQueries}
     * @param origins 3 per query
     * @param translations 3 per query
     * @param count number of queries
     * @param maxFraction largest fraction, finite, {@code >= 0}
     * @param categoryMask categories of interest
     * @param handles receives the hit handles
     * @param fractions receives the hit fractions
     * @throws IllegalArgumentException for a negative count, null or short arrays, {@code fractions} that is also
     *                                  {@code origins} or {@code translations}, a bad {@code maxFraction} or a
     *                                  non-finite origin or translation (naming the ray); all checked before any
     *                                  query runs, so nothing is written
     * @throws java.util.ConcurrentModificationException if a live {@link DynamicAabbTree} queried changed during the
     *     batch (the answers, written in part or in full, are then undefined)
     */
    public void closestRays(SpatialQueries tree, double[] origins, double[] translations, int count,
                            double maxFraction, long categoryMask, int[] handles, double[] fractions) {
        Arguments.requireNonNull("tree", tree);
        requireRayBatch(origins, translations, count, maxFraction);
        Arguments.requireNonNull("handles", handles);
        requireLength("fractions", fractions, count);
        requireAnswers("handles", handles.length, count);
        requireDistinct("fractions", fractions, "origins", origins);
        requireDistinct("fractions", fractions, "translations", translations);
        begin();
        ClosestRays t = closestRays;
        t.index = tree;
        t.mask = categoryMask;
        t.origins = origins;
        t.translations = translations;
        t.maxFraction = maxFraction;
        t.handles = handles;
        t.fractions = fractions;
        runAndRelease(t, count);
    }

    /**
     * Sphere region queries ({@link ShapeQueries#querySphere}, {@link RegionQueries#querySphere} on a tree): for
     * query {@code i} with sphere {@code spheres[4i..4i+3]} (centre, radius), {@code counts[i]} receives the number
     * of objects found and
     * {@code handles[i * maxPerQuery ..]} the first {@code min(counts[i], maxPerQuery)} of them, sorted by handle
     * (the count is the true count even when the slots overflow).
     *
     * @param tree the index: a tree, a {@link ReadView}, a mapped world or any thread-safe {@link ShapeQueries}
     * @param spheres 4 per query
     * @param count number of queries
     * @param mode selection mode
     * @param categoryMask categories of interest
     * @param maxPerQuery result slots per query, {@code >= 0}
     * @param handles receives the handles, {@code count * maxPerQuery} slots
     * @param counts receives the number found per query
     * @throws IllegalArgumentException for a negative count, null or short arrays, {@code handles} and
     *                                  {@code counts} the same array, or a bad sphere (a non-finite
     *                                  centre or radius, or a radius below 0 or above
     *                                  {@link Arguments#MAX_RADIUS}), naming its index; all checked
     *                                  before any query runs, so nothing is written
     * @throws java.util.ConcurrentModificationException if a live {@link DynamicAabbTree} queried changed during the
     *     batch (the answers, written in part or in full, are then undefined)
     */
    public void spheres(ShapeQueries tree, double[] spheres, int count, RegionMode mode, long categoryMask,
                        int maxPerQuery, int[] handles, int[] counts) {
        Arguments.requireNonNull("tree", tree);
        Arguments.requireNonNull("mode", mode);
        requireSphereBatch(spheres, count);
        Arguments.requireNonNull("handles", handles);
        requireSlots("handles", handles.length, count, maxPerQuery);
        Arguments.requireNonNull("counts", counts);
        requireAnswers("counts", counts.length, count);
        requireDistinct("handles", handles, "counts", counts);
        begin();
        Spheres t = this.spheres;
        t.index = tree;
        t.mask = categoryMask;
        t.spheres = spheres;
        t.mode = mode;
        t.max = maxPerQuery;
        t.handles = handles;
        t.counts = counts;
        runAndRelease(t, count);
    }

    /**
     * A reusable batch task: the index it queries (only during a batch; a tree or view is traversed on its arrays,
     * see {@link #queriedIndex}) and the categories of interest.
     */
    private abstract static class IndexBatch<T extends SpatialQueries> extends Batch {
        /** The index as the caller gave it. */
        T index;
        /** What the queries run on. */
        T tree;
        long mask;
        /** {@link #changeCount} of the tree once its pending adds are in. */
        int modifications;

        @Override
        protected void prepare() {
            tree = queriedIndex(index);
            modifications = changeCount(tree);
        }

        @Override
        protected void finish() {
            checkUnchanged(tree, modifications);
        }

        @Override
        protected void clear() {
            index = null;
            tree = null;
            clearInputs();
        }

        /** Drops the references to the caller's arrays. */
        abstract void clearInputs();
    }

    private final class LineOfSight extends IndexBatch<SpatialQueries> {
        /** The static index as the caller gave it, or null when the batch casts through one index only. */
        SpatialQueries staticIndex;
        /** What the second casts run on, or null. */
        SpatialQueries statics;
        long staticMask;
        double[] from;
        double[] to;
        int[] ignoreFirst;
        int[] ignoreSecond;
        boolean[] visible;

        /** {@link #changeCount} of the static index, once its pending adds are in. */
        int staticModifications;

        @Override
        protected void prepare() {
            super.prepare();
            statics = staticIndex == null ? null : queriedIndex(staticIndex);
            staticModifications = changeCount(statics);
        }

        @Override
        protected void finish() {
            super.finish();
            if (statics != null) {
                checkUnchanged(statics, staticModifications);
            }
        }

        @Override
        void clearInputs() {
            staticIndex = null;
            statics = null;
            from = null;
            to = null;
            ignoreFirst = null;
            ignoreSecond = null;
            visible = null;
        }

        @Override
        public void run(int worker, int start, int end) {
            AnyHit hit = anyHits[worker];
            TraversalStack stack = stacks[worker];
            for (int i = start; i < end; i++) {
                int a = 3 * i;
                hit.setIgnored(ignoreFirst == null ? Handles.NONE : ignoreFirst[i],
                        ignoreSecond == null ? Handles.NONE : ignoreSecond[i]);
                double tx = to[a] - from[a];
                double ty = to[a + 1] - from[a + 1];
                double tz = to[a + 2] - from[a + 2];
                tree.rayCast(from[a], from[a + 1], from[a + 2], tx, ty, tz, 1.0, mask, hit, stack);
                if (!hit.hasHit() && statics != null) {
                    hit.setIgnored(Handles.NONE, Handles.NONE);
                    statics.rayCast(from[a], from[a + 1], from[a + 2], tx, ty, tz, 1.0, staticMask, hit, stack);
                }
                visible[i] = !hit.hasHit();
            }
        }
    }

    private final class ClosestRays extends IndexBatch<SpatialQueries> {
        double[] origins;
        double[] translations;
        double maxFraction;
        int[] handles;
        double[] fractions;

        @Override
        void clearInputs() {
            origins = null;
            translations = null;
            handles = null;
            fractions = null;
        }

        @Override
        public void run(int worker, int start, int end) {
            ClosestHit hit = closestHits[worker];
            TraversalStack stack = stacks[worker];
            for (int i = start; i < end; i++) {
                int a = 3 * i;
                tree.rayCast(origins[a], origins[a + 1], origins[a + 2], translations[a], translations[a + 1],
                        translations[a + 2], maxFraction, mask, hit, stack);
                handles[i] = hit.handle(); // Handles.NONE on a miss
                fractions[i] = hit.fraction();
            }
        }
    }

    private final class Spheres extends IndexBatch<ShapeQueries> {
        double[] spheres;
        RegionMode mode;
        /** Result slots per query, the stride of {@code handles}. */
        int max;
        /** Handles kept per query: {@code max}, or fewer when the index has fewer objects. */
        int room;
        int[] handles;
        int[] counts;

        /**
         * Room for the kept handles on this thread, before the workers start: none of them allocates afterwards.
         * A query reports each object once, so no answer needs more room than the index has objects.
         */
        @Override
        protected void prepare() {
            super.prepare();
            room = Math.min(max, tree.size());
            for (LowestOverlaps l : lowest) {
                l.reset(room);
            }
        }

        @Override
        void clearInputs() {
            spheres = null;
            mode = null;
            handles = null;
            counts = null;
        }

        @Override
        public void run(int worker, int start, int end) {
            LowestOverlaps out = lowest[worker];
            TraversalStack stack = stacks[worker];
            for (int i = start; i < end; i++) {
                int a = 4 * i;
                out.reset(room);
                tree.querySphere(spheres[a], spheres[a + 1], spheres[a + 2], spheres[a + 3], mode, mask, null, out,
                        stack);
                counts[i] = out.count();
                out.drainSorted(null, handles, null, i * max);
            }
        }
    }
}
