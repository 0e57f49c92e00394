package dev.boxwood.serial;

import dev.boxwood.index.BatchQueries;
import dev.boxwood.index.BatchRunner;
import dev.boxwood.index.QueryExecutor;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.LowestOverlaps;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SegmentIntersector;
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
 * Many ray and sphere queries on a {@link TiledWorld} in one call, spread over the threads of a
 * {@link QueryExecutor}, with results written into caller-provided primitive arrays: what {@link BatchQueries} does
 * for one index (the tree, a read view, one mapped world), for a world of tiles. Each thread queries with a
 * {@link TiledWorld.Scratch} and collectors of its own, so a warmed-up batch over mapped tiles allocates nothing;
 * tiles are mapped and unmapped under the world's budget as the queries reach them, as by single queries. Each
 * query's answer is the one the single {@link TiledWorld#rayCast} or {@link TiledWorld#querySphere} gives.
 *
 * <p>A tiled world holds the static geometry, and the lookers and their targets, which move, are in dynamic trees:
 * a line of sight ignores no handle of the world, and the combined
 * {@link #lineOfSight(TiledWorld, SpatialQueries, double[], double[], int[], int[], int, long, long, boolean[])}
 * casts each segment through such a tree first, ignoring the looker and its target there, then through the tiles.
 *
 * <p>Failures: an exception a cast throws (a tile that cannot be mapped, a tiled world closed during the batch)
 * ends the batch as in {@link BatchQueries}: queries not yet begun are skipped, and it reaches the caller once every
 * thread has stopped. The answers are then partly written, and the instance takes the next batch.
 *
 * <p>One batch at a time per instance: a batch method called while another runs (from a second thread, or from
 * inside a query) throws {@link IllegalStateException} at once and leaves the running batch alone. An instance made
 * with a thread count owns {@code threads - 1} daemon worker threads until {@link #close()}; one made on an
 * application's {@link java.util.concurrent.Executor} borrows its threads and owns none.
 */
public final class TiledBatchQueries extends BatchRunner {

    private final TiledWorld.Scratch[] scratches;
    /** Each thread's stack for the casts through the moving objects of a combined line of sight. */
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
    public TiledBatchQueries(int threads) {
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
    public TiledBatchQueries(Executor executor, int threads) {
        this(threads, requireExecutor(executor));
    }

    private TiledBatchQueries(int threads, Executor executorOrNull) {
        super(executorOrNull, threads);
        int n = threads();
        scratches = new TiledWorld.Scratch[n];
        stacks = new TraversalStack[n];
        anyHits = new AnyHit[n];
        closestHits = new ClosestHit[n];
        lowest = new LowestOverlaps[n];
        for (int i = 0; i < n; i++) {
            lowest[i] = new LowestOverlaps();
            scratches[i] = new TiledWorld.Scratch();
            stacks[i] = new TraversalStack();
            anyHits[i] = new AnyHit();
            closestHits[i] = new ClosestHit();
        }
    }

    /**
     * Sets the filter and the exact test of this instance's ray batches, for every later batch until set again, as
     * {@link BatchQueries#setRayTests} does for one index: candidates in every tile (and in the tree of a combined
     * line of sight) pass through them as through a single {@link TiledWorld#rayCast} with a collector so
     * configured. Handles are numbered per tile: tell objects apart by user value. Called from the batch's threads
     * at once, so they must be safe for that.
     *
     * @param filter candidates must pass it, or {@code null} for every candidate
     * @param exactTest the exact test of user geometry, or {@code null} for the tight boxes themselves
     * @throws IllegalStateException if a batch of this instance runs; nothing is changed
     */
    public void setRayTests(QueryFilter filter, SegmentIntersector exactTest) {
        configureRayTests(filter, exactTest, anyHits, closestHits);
    }

    /**
     * Line of sight for {@code count} segments: {@code visible[i]} is true when the segment from
     * {@code from[3i..3i+2]} to {@code to[3i..3i+2]} (fraction in {@code [0, 1]}) enters the stored tight box of no
     * object, in any tile, whose categories share a bit with {@code categoryMask}. An any-hit cast: it stops at the
     * first blocker, and tiles beyond it are neither visited nor mapped.
     *
     * @param world the tiled world, open, not closed during the batch
     * @param from segment starts, 3 per query
     * @param to segment ends, 3 per query
     * @param count number of queries
     * @param categoryMask categories that block sight
     * @param visible receives the answers
     * @throws IllegalArgumentException for a negative count, null or short arrays, or a bad segment (a non-finite
     *                                  coordinate, or an end so far from its start that the difference overflows),
     *                                  naming its index; all checked before any query runs, so nothing is written
     * @throws IllegalStateException    if the world or this instance is closed, or a batch of this instance runs
     * @throws java.io.UncheckedIOException if a tile cannot be mapped, is corrupt or changed on disk (the answers
     *                                  are then partly written)
     */
    public void lineOfSight(TiledWorld world, double[] from, double[] to, int count, long categoryMask,
                            boolean[] visible) {
        Arguments.requireNonNull("world", world);
        runLineOfSight(world, categoryMask, null, 0L, from, to, null, null, count, visible);
    }

    /**
     * Line of sight through a tiled world and moving objects in one batch: {@code visible[i]} is true when the
     * segment from {@code from[3i..3i+2]} to {@code to[3i..3i+2]} (fraction in {@code [0, 1]}) enters the tight box
     * of no object of {@code entities} other than {@code ignoreFirst[i]} and {@code ignoreSecond[i]} (the looker and
     * its target) among those whose categories share a bit with {@code entityMask}, and of no object in any tile of
     * {@code world} among those sharing a bit with {@code worldMask}. Each segment is cast against
     * {@code entities} (in memory) first and through the tiles only when the entities leave it clear, so a line a
     * body blocks maps no tile; the answer is that of {@link BatchQueries#lineOfSight} on {@code entities} and
     * {@link #lineOfSight(TiledWorld, double[], double[], int, long, boolean[])} combined.
     *
     * @param world the tiled world, open, not closed during the batch
     * @param entities the moving objects: a tree, a {@link dev.boxwood.index.ReadView} or any thread-safe
     *                 {@link SpatialQueries}, not mutated during the batch
     * @param from segment starts, 3 per query
     * @param to segment ends, 3 per query
     * @param ignoreFirst first ignored handle of {@code entities} per query, or null for none
     * @param ignoreSecond second ignored handle of {@code entities} per query, or null for none
     * @param count number of queries
     * @param worldMask categories of the world's objects that block sight
     * @param entityMask categories of {@code entities} that block sight
     * @param visible receives the answers
     * @throws IllegalArgumentException for a null world or index, a negative count, null or short arrays, or a bad
     *                                  segment (a non-finite coordinate, or an end so far from its start that the
     *                                  difference overflows), naming its index; all checked before any query runs,
     *                                  so nothing is written
     * @throws IllegalStateException    if the world or this instance is closed, or a batch of this instance runs
     * @throws java.io.UncheckedIOException if a tile cannot be mapped, is corrupt or changed on disk (the answers
     *                                  are then partly written)
     * @throws java.util.ConcurrentModificationException if {@code entities} is a live
     *                                  {@link dev.boxwood.index.DynamicAabbTree} that changed during the batch, as
     *                                  far as the calling thread sees (each cast checks itself, and the batch checks
     *                                  once all have run; its pending deferred adds are taken in once, before the
     *                                  first cast); the answers are then undefined
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public void lineOfSight(TiledWorld world, SpatialQueries entities, double[] from, double[] to,
                            int[] ignoreFirst, int[] ignoreSecond, int count, long worldMask, long entityMask,
                            boolean[] visible) {
        Arguments.requireNonNull("world", world);
        Arguments.requireNonNull("entities", entities);
        runLineOfSight(world, worldMask, entities, entityMask, from, to, ignoreFirst, ignoreSecond, count, visible);
    }

    /** Both line-of-sight batches: {@code entities} null for the one through the tiles alone. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private void runLineOfSight(TiledWorld world, long worldMask, SpatialQueries entities, long entityMask,
                                double[] from, double[] to, int[] ignoreFirst, int[] ignoreSecond, int count,
                                boolean[] visible) {
        requireLineOfSightBatch(from, to, ignoreFirst, ignoreSecond, count, visible);
        begin();
        LineOfSight t = lineOfSight;
        t.world = world;
        t.mask = worldMask;
        t.entities = entities;
        t.entityMask = entityMask;
        t.from = from;
        t.to = to;
        t.ignoreFirst = ignoreFirst;
        t.ignoreSecond = ignoreSecond;
        t.visible = visible;
        runAndRelease(t, count);
    }

    /**
     * Closest hit of {@code count} rays: {@code tiles[i]}, {@code handles[i]}, {@code userValues[i]} and
     * {@code fractions[i]} receive the closest object (its tile, its handle within the tile and its user value;
     * equal fractions go to the lower tile, then the lower handle) of the segment
     * {@code origins[3i..] + t * translations[3i..]}, {@code t} in {@code [0, maxFraction]}, or {@code -1},
     * {@link Handles#NONE}, {@code 0} and {@code -1} for a miss.
     *
     * @param world the tiled world, open, not closed during the batch
     * @param origins 3 per query
     * @param translations 3 per query
     * @param count number of queries
     * @param maxFraction largest fraction, finite, {@code >= 0}
     * @param categoryMask categories of interest
     * @param tiles receives the tiles of the hits
     * @param handles receives the hit handles
     * @param userValues receives the hit objects' user values, or null when not wanted
     * @param fractions receives the hit fractions
     * @throws IllegalArgumentException for a negative count, null or short arrays, {@code fractions} that is also
     *                                  {@code origins} or {@code translations}, {@code tiles} that is also
     *                                  {@code handles}, a bad {@code maxFraction} or a non-finite origin or
     *                                  translation (naming the ray); all checked before any query runs, so nothing
     *                                  is written
     * @throws IllegalStateException    if the world or this instance is closed, or a batch of this instance runs
     * @throws java.io.UncheckedIOException if a tile cannot be mapped, is corrupt or changed on disk (the answers
     *                                  are then partly written)
     */
    public void closestRays(TiledWorld world, double[] origins, double[] translations, int count,
                            double maxFraction, long categoryMask, int[] tiles, int[] handles, long[] userValues,
                            double[] fractions) {
        Arguments.requireNonNull("world", world);
        requireRayBatch(origins, translations, count, maxFraction);
        Arguments.requireNonNull("tiles", tiles);
        Arguments.requireNonNull("handles", handles);
        requireLength("fractions", fractions, count);
        requireAnswers("tiles", tiles.length, count);
        requireAnswers("handles", handles.length, count);
        if (userValues != null) {
            requireAnswers("userValues", userValues.length, count);
        }
        requireDistinct("fractions", fractions, "origins", origins);
        requireDistinct("fractions", fractions, "translations", translations);
        requireDistinct("tiles", tiles, "handles", handles);
        begin();
        ClosestRays t = closestRays;
        t.world = world;
        t.mask = categoryMask;
        t.origins = origins;
        t.translations = translations;
        t.maxFraction = maxFraction;
        t.tiles = tiles;
        t.handles = handles;
        t.userValues = userValues;
        t.fractions = fractions;
        runAndRelease(t, count);
    }

    /**
     * Sphere region queries ({@link TiledWorld#querySphere}, every tile), an area of interest per player: for query
     * {@code i} with sphere {@code spheres[4i..4i+3]} (centre, radius), {@code counts[i]} receives the number of
     * objects found in all tiles, and slots {@code i * maxPerQuery ..} of {@code tiles}, {@code handles} and
     * {@code userValues} the first {@code min(counts[i], maxPerQuery)} of them in ascending (tile, handle) order
     * (the count is the true count even when the slots overflow).
     *
     * @param world the tiled world, open, not closed during the batch
     * @param spheres 4 per query
     * @param count number of queries
     * @param mode selection mode
     * @param categoryMask categories of interest
     * @param maxPerQuery result slots per query, {@code >= 0}
     * @param tiles receives the tiles of the objects, {@code count * maxPerQuery} slots
     * @param handles receives the objects' handles within their tiles, {@code count * maxPerQuery} slots
     * @param userValues receives the objects' user values ({@code count * maxPerQuery} slots), or null when not
     *                   wanted
     * @param counts receives the number found per query
     * @throws IllegalArgumentException for a negative count or {@code maxPerQuery}, null or short arrays, two answer
     *                                  arrays that are the same array, or a bad sphere (a non-finite centre or
     *                                  radius, or a radius below 0 or above
     *                                  {@link Arguments#MAX_RADIUS}), naming its index; all checked before any
     *                                  query runs, so nothing is written
     * @throws IllegalStateException    if the world or this instance is closed, or a batch of this instance runs
     * @throws java.io.UncheckedIOException if a tile cannot be mapped, is corrupt or changed on disk (the answers
     *                                  are then partly written)
     */
    public void spheres(TiledWorld world, double[] spheres, int count, RegionMode mode, long categoryMask,
                        int maxPerQuery, int[] tiles, int[] handles, long[] userValues, int[] counts) {
        Arguments.requireNonNull("world", world);
        Arguments.requireNonNull("mode", mode);
        requireSphereBatch(spheres, count);
        Arguments.requireNonNull("tiles", tiles);
        requireSlots("tiles", tiles.length, count, maxPerQuery);
        Arguments.requireNonNull("handles", handles);
        requireSlots("handles", handles.length, count, maxPerQuery);
        if (userValues != null) {
            requireSlots("userValues", userValues.length, count, maxPerQuery);
        }
        Arguments.requireNonNull("counts", counts);
        requireAnswers("counts", counts.length, count);
        requireDistinct("tiles", tiles, "handles", handles);
        requireDistinct("tiles", tiles, "counts", counts);
        requireDistinct("handles", handles, "counts", counts);
        begin();
        Spheres t = this.spheres;
        t.world = world;
        t.mask = categoryMask;
        t.spheres = spheres;
        t.mode = mode;
        t.max = maxPerQuery;
        t.tiles = tiles;
        t.handles = handles;
        t.userValues = userValues;
        t.counts = counts;
        runAndRelease(t, count);
    }

    /** A reusable batch task: the world it queries (only during a batch) and the categories of interest. */
    private abstract static class WorldBatch extends Batch {
        TiledWorld world;
        long mask;

        /** Refuses a closed world before any answer is written. */
        @Override
        protected void prepare() {
            world.checkOpen();
        }

        @Override
        protected void clear() {
            world = null;
            clearInputs();
        }

        /** Drops the references to the caller's arrays. */
        abstract void clearInputs();
    }

    private final class LineOfSight extends WorldBatch {
        /** The moving objects cast against first, or null when the batch casts through the tiles only. */
        SpatialQueries entities;
        /** What the casts through {@link #entities} run on ({@link #queriedIndex}), or null. */
        SpatialQueries queriedEntities;
        /** {@link #changeCount} of {@link #queriedEntities} once its pending adds are in. */
        int entityChanges;
        long entityMask;

        @Override
        protected void prepare() {
            super.prepare();
            queriedEntities = queriedIndex(entities);
            entityChanges = changeCount(queriedEntities);
        }

        @Override
        protected void finish() {
            checkUnchanged(queriedEntities, entityChanges);
        }
        double[] from;
        double[] to;
        int[] ignoreFirst;
        int[] ignoreSecond;
        boolean[] visible;

        @Override
        void clearInputs() {
            entities = null;
            queriedEntities = null;
            from = null;
            to = null;
            ignoreFirst = null;
            ignoreSecond = null;
            visible = null;
        }

        @Override
        public void run(int worker, int start, int end) {
            AnyHit hit = anyHits[worker];
            TiledWorld.Scratch scratch = scratches[worker];
            TraversalStack stack = stacks[worker];
            for (int i = start; i < end; i++) {
                int a = 3 * i;
                double tx = to[a] - from[a];
                double ty = to[a + 1] - from[a + 1];
                double tz = to[a + 2] - from[a + 2];
                if (queriedEntities != null) {
                    hit.setIgnored(ignoreFirst == null ? Handles.NONE : ignoreFirst[i],
                            ignoreSecond == null ? Handles.NONE : ignoreSecond[i]);
                    queriedEntities.rayCast(from[a], from[a + 1], from[a + 2], tx, ty, tz, 1.0, entityMask, hit, stack);
                    if (hit.hasHit()) {
                        visible[i] = false;
                        continue;
                    }
                }
                // the handles name entities; also clears what a cast that threw in an earlier batch left set
                hit.setIgnored(Handles.NONE, Handles.NONE);
                world.rayCast(from[a], from[a + 1], from[a + 2], tx, ty, tz, 1.0, mask, hit, scratch);
                visible[i] = !hit.hasHit();
            }
        }
    }

    private final class ClosestRays extends WorldBatch {
        double[] origins;
        double[] translations;
        double maxFraction;
        int[] tiles;
        int[] handles;
        long[] userValues;
        double[] fractions;

        @Override
        void clearInputs() {
            origins = null;
            translations = null;
            tiles = null;
            handles = null;
            userValues = null;
            fractions = null;
        }

        @Override
        public void run(int worker, int start, int end) {
            ClosestHit hit = closestHits[worker];
            TiledWorld.Scratch scratch = scratches[worker];
            for (int i = start; i < end; i++) {
                int a = 3 * i;
                world.rayCast(origins[a], origins[a + 1], origins[a + 2], translations[a], translations[a + 1],
                        translations[a + 2], maxFraction, mask, hit, scratch);
                // a miss leaves the collector at -1, Handles.NONE, 0 and Geom.NO_HIT
                tiles[i] = hit.part();
                handles[i] = hit.handle();
                if (userValues != null) {
                    userValues[i] = hit.userValue();
                }
                fractions[i] = hit.fraction();
            }
        }
    }

    private final class Spheres extends WorldBatch {
        double[] spheres;
        RegionMode mode;
        /** Result slots per query, the stride of the result arrays. */
        int max;
        /** Results kept per query: {@code max}, or fewer when the world has fewer objects. */
        int room;
        int[] tiles;
        int[] handles;
        long[] userValues;
        int[] counts;

        /**
         * Room for the kept results on this thread, before the workers start: none of them allocates afterwards.
         * A query reports each object once, so no answer needs more room than the world has objects.
         */
        @Override
        protected void prepare() {
            super.prepare();
            long objects = 0;
            for (int tile = 0; tile < world.tileCount(); tile++) {
                objects += world.tileSize(tile);
            }
            room = (int) Math.min(max, objects);
            for (LowestOverlaps l : lowest) {
                l.reset(room);
            }
        }

        @Override
        void clearInputs() {
            spheres = null;
            mode = null;
            tiles = null;
            handles = null;
            userValues = null;
            counts = null;
        }

        @Override
        public void run(int worker, int start, int end) {
            LowestOverlaps out = lowest[worker];
            TiledWorld.Scratch scratch = scratches[worker];
            for (int i = start; i < end; i++) {
                int a = 4 * i;
                out.reset(room);
                world.querySphere(spheres[a], spheres[a + 1], spheres[a + 2], spheres[a + 3], mode, mask, null, out,
                        scratch);
                counts[i] = out.count();
                out.drainSorted(tiles, handles, userValues, i * max);
            }
        }
    }
}
