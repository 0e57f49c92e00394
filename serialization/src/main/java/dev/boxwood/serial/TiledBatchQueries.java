package dev.boxwood.serial;

import dev.boxwood.index.BatchQueries;
import dev.boxwood.index.BatchRunner;
import dev.boxwood.index.QueryExecutor;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;

import static dev.boxwood.query.BatchArguments.requireAnswers;
import static dev.boxwood.query.BatchArguments.requireDistinct;
import static dev.boxwood.query.BatchArguments.requireLength;
import static dev.boxwood.query.BatchArguments.requireRayBatch;
import static dev.boxwood.query.BatchArguments.requireSegmentBatch;

/**
 * Many ray queries on a {@link TiledWorld} in one call, spread over the threads of a {@link QueryExecutor}, with
 * results written into caller-provided primitive arrays: what {@link BatchQueries} does for one index (the tree, a
 * read view, one mapped world), for a world of tiles. Each thread casts with a {@link TiledWorld.Scratch} and
 * collectors of its own, so a warmed-up batch over mapped tiles allocates nothing; tiles are mapped and unmapped
 * under the world's budget as the casts reach them, as by single casts. Each query's answer is the one the single
 * {@link TiledWorld#rayCast} gives.
 *
 * <p>Unlike {@link BatchQueries#lineOfSight}, a tiled line of sight ignores no handles: a tiled world holds the
 * static geometry, and the lookers and their targets, which move, are in dynamic trees (cast the same segments
 * there with {@link BatchQueries}, which ignores the looker and the target, and combine the answers).
 *
 * <p>Failures: an exception a cast throws (a tile that cannot be mapped, a tiled world closed during the batch)
 * ends the batch as in {@link BatchQueries}: queries not yet begun are skipped, and it reaches the caller once every
 * thread has stopped. The answers are then partly written, and the instance takes the next batch.
 *
 * <p>One batch at a time per instance: a batch method called while another runs (from a second thread, or from
 * inside a query) throws {@link IllegalStateException} at once and leaves the running batch alone. The instance owns
 * {@code threads - 1} daemon worker threads until {@link #close()}.
 */
public final class TiledBatchQueries extends BatchRunner {

    private final TiledWorld.Scratch[] scratches;
    private final AnyHit[] anyHits;
    private final ClosestHit[] closestHits;
    private final LineOfSight lineOfSight = new LineOfSight();
    private final ClosestRays closestRays = new ClosestRays();

    /**
     * A batch runner on {@code threads} threads (the caller included).
     *
     * @param threads {@code >= 1}
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public TiledBatchQueries(int threads) {
        super(threads);
        int n = threads();
        scratches = new TiledWorld.Scratch[n];
        anyHits = new AnyHit[n];
        closestHits = new ClosestHit[n];
        for (int i = 0; i < n; i++) {
            scratches[i] = new TiledWorld.Scratch();
            anyHits[i] = new AnyHit();
            closestHits[i] = new ClosestHit();
        }
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
        requireSegmentBatch(from, to, count);
        Arguments.requireNonNull("visible", visible);
        requireAnswers("visible", visible.length, count);
        begin();
        LineOfSight t = lineOfSight;
        t.world = world;
        t.mask = categoryMask;
        t.from = from;
        t.to = to;
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
        double[] from;
        double[] to;
        boolean[] visible;

        @Override
        void clearInputs() {
            from = null;
            to = null;
            visible = null;
        }

        @Override
        public void run(int worker, int start, int end) {
            AnyHit hit = anyHits[worker];
            TiledWorld.Scratch scratch = scratches[worker];
            for (int i = start; i < end; i++) {
                int a = 3 * i;
                world.rayCast(from[a], from[a + 1], from[a + 2], to[a] - from[a], to[a + 1] - from[a + 1],
                        to[a + 2] - from[a + 2], 1.0, mask, hit, scratch);
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
}
