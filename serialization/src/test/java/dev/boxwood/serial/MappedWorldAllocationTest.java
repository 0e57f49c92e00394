package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queries on a mapped world allocate nothing once warmed up (HotSpot's per-thread allocation counter). */
class MappedWorldAllocationTest {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    private final TraversalStack stack = new TraversalStack(1);
    private final AllOverlaps overlaps = new AllOverlaps();
    private final ClosestHit closest = new ClosestHit();
    private final AnyHit any = new AnyHit();
    private final AllHits all = new AllHits();
    private final NearestNeighbours nearest = new NearestNeighbours();
    private final dev.boxwood.testkit.NearestRecorder browser = new dev.boxwood.testkit.NearestRecorder();
    private long sink;

    private void runQueries(MappedWorld world, double[] queries, double[] segments) {
        for (int q = 0; q < queries.length; q += 6) {
            overlaps.reset();
            world.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3], queries[q + 4],
                    queries[q + 5], -1L, overlaps, stack);
            world.querySphere(queries[q], queries[q + 1], queries[q + 2], queries[q + 3] - queries[q], 0x0FL,
                    overlaps, stack);
            sink += overlaps.count();
        }
        for (int s = 0; s < segments.length; s += 6) {
            world.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3], segments[s + 4],
                    segments[s + 5], 1.0, -1L, closest, stack);
            world.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3], segments[s + 4],
                    segments[s + 5], 1.0, 0x0FL, any, stack);
            world.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3], segments[s + 4],
                    segments[s + 5], 0.5, -1L, all, stack);
            sink += closest.handle() + any.handle() + all.count();
            world.sweepSphere(segments[s], segments[s + 1], segments[s + 2], 1.0, segments[s + 3] / 10,
                    segments[s + 4] / 10, segments[s + 5] / 10, -1L, closest, stack);
            world.sweepBox(segments[s], segments[s + 1], segments[s + 2], segments[s] + 2, segments[s + 1] + 2,
                    segments[s + 2] + 2, segments[s + 3] / 10, segments[s + 4] / 10, segments[s + 5] / 10, 0x0FL, all,
                    stack);
            world.kNearest(segments[s], segments[s + 1], segments[s + 2], 5, Double.POSITIVE_INFINITY, -1L, null,
                    null, nearest);
            sink += closest.handle() + all.count() + nearest.count();
            world.browseNearest(segments[s], segments[s + 1], segments[s + 2], Double.POSITIVE_INFINITY, -1L, null,
                    null, browser.reset(20), nearest);
            sink += browser.count();
        }
    }

    @Test
    void shouldAllocateNothingPerWorldPairCallAfterWarmUp() throws IOException {
        TestWorld world = TestWorld.clustered(5000, 94);
        Path file = dir.resolve("pairs.bxw");
        world = world.writeStored(file);
        double[] entities = world.boxQueries(256, 95);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            // another origin than the world's, so the calls move every box into the world's frame
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(mapped.originX() + 10.5,
                    mapped.originY() - 3, mapped.originZ()));
            int[] handles = new int[entities.length / 6 + 8];
            for (int e = 0; e < entities.length; e += 6) {
                handles[e / 6] = tree.add(entities[e], entities[e + 1], entities[e + 2], entities[e + 3],
                        entities[e + 4], entities[e + 5], e, 1L << (e % 64));
            }
            // some handles listed twice
            System.arraycopy(handles, 0, handles, entities.length / 6, 8);
            WorldPairs worldPairs = new WorldPairs();
            PairBuffer pairs = new PairBuffer(1);
            Runnable calls = () -> {
                worldPairs.treePairs(tree, -1L, mapped, -1L, pairs, stack);
                sink += pairs.size();
                worldPairs.listedPairs(tree, handles, handles.length, 0x0F0FL, mapped, 0xFF00L, pairs, stack);
                sink += pairs.size();
            };
            long allocated = allocatedAfterWarmUp(calls);
            assertTrue(sink != 0);
            assertEquals(0, allocated, "bytes allocated by " + 20 * 2 + " pair calls");
            // the same entities against the world cut into tiles, each tile's pairs in turn, under a budget that
            // keeps every tile mapped once reached (mapping a tile allocates; a call on a mapped tile must not)
            Path tileDir = dir.resolve("pair-tiles");
            java.nio.file.Files.createDirectories(tileDir);
            double extent = 0;
            for (int a = 0; a < 3; a++) {
                double lo = Double.POSITIVE_INFINITY;
                double hi = Double.NEGATIVE_INFINITY;
                for (int b = 0; b < world.boxes.length; b += 6) {
                    lo = Math.min(lo, world.boxes[b + a]);
                    hi = Math.max(hi, world.boxes[b + 3 + a]);
                }
                extent = Math.max(extent, hi - lo);
            }
            // a few cells along the widest axis: a handful of tiles
            java.util.List<Path> tiles = TileSetWriter.writeGrid(tileDir, "t", world.boxes, null, null, extent / 3);
            TiledWorld.Scratch scratch = new TiledWorld.Scratch();
            try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
                Runnable tileCalls = () -> {
                    for (int t = 0; t < tiled.tileCount(); t++) {
                        worldPairs.tilePairs(tree, -1L, tiled, t, -1L, pairs, scratch);
                        sink += pairs.size();
                    }
                };
                long tileAllocated = allocatedAfterWarmUp(tileCalls);
                assertTrue(tiles.size() > 1, tiles.size() + " tiles");
                assertEquals(0, tileAllocated, "bytes allocated by tile pair calls over " + tiles.size() + " tiles");
            }
        }
    }

    /**
     * The bytes {@code round} allocates in 20 runs after 200 of warm-up, over up to ten windows: a one-off
     * runtime allocation does not repeat, an allocation per query does.
     */
    private static long allocatedAfterWarmUp(Runnable round) {
        for (int i = 0; i < 200; i++) {
            round.run();
        }
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = allocatedBytes();
            for (int i = 0; i < 20; i++) {
                round.run();
            }
            allocated = allocatedBytes() - before;
        }
        return allocated;
    }

    private static long allocatedBytes() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void shouldAllocateNothingPerQueryAfterWarmUp() throws IOException {
        TestWorld world = TestWorld.clustered(5000, 91);
        Path file = dir.resolve("alloc.bxw");
        world = world.writeStored(file);
        double[] queries = world.boxQueries(128, 92);
        double[] segments = world.segments(128, 93);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            long allocated = allocatedAfterWarmUp(() -> runQueries(mapped, queries, segments));
            assertTrue(sink != 0);
            assertEquals(0, allocated, "bytes allocated by " + 20 * 8 * 128 + " queries");
        }
    }
}
