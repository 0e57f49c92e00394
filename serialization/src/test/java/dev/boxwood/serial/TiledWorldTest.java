package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import net.openhft.chronicle.core.io.AbstractReferenceCounted;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TiledWorldTest {

    @TempDir
    Path dir;

    private TestWorld world;
    private List<Path> tiles;
    /** One brute-force index per tile, with the tile's origin; user values are global indices. */
    private final List<BruteForceIndex> oracles = new ArrayList<>();
    private long largestTile;

    @BeforeEach
    void writeTiles() throws IOException {
        AbstractReferenceCounted.enableReferenceTracing();
        world = TestWorld.clustered(8_000, 8);
        tiles = TileSetWriter.writeGrid(dir, "tile", world.boxes, world.categories, null, 2500);
        assertTrue(tiles.size() >= 9, tiles.size() + " tiles");
        int total = 0;
        for (Path tile : tiles) {
            largestTile = Math.max(largestTile, Files.size(tile));
            try (MappedWorld mapped = MappedWorld.open(tile)) {
                BruteForceIndex oracle = new BruteForceIndex(mapped.originX(), mapped.originY(), mapped.originZ());
                for (int i = 0; i < mapped.size(); i++) {
                    int g = (int) mapped.userValue(i);
                    oracle.add(world.boxes[6 * g], world.boxes[6 * g + 1], world.boxes[6 * g + 2],
                            world.boxes[6 * g + 3], world.boxes[6 * g + 4], world.boxes[6 * g + 5], g,
                            world.categories[g]);
                }
                total += mapped.size();
                oracles.add(oracle);
            }
        }
        assertEquals(world.size(), total);
    }

    @AfterEach
    void assertEverythingUnmapped() {
        AbstractReferenceCounted.assertReferencesReleased();
    }

    /** The answers, by user value (global index), of the tiled world or of the per-tile oracles. */
    private List<String> answers(TiledWorld tiled, double[] queries, double[] segments) {
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        TraversalStack stack = new TraversalStack();
        AllOverlaps overlaps = new AllOverlaps();
        AllHits all = new AllHits();
        ClosestHit closest = new ClosestHit();
        List<String> out = new ArrayList<>();
        for (long mask : new long[] {-1L, 0x00FF_00FF_00FF_00FFL}) {
            for (int q = 0; q < queries.length; q += 6) {
                List<Long> found = new ArrayList<>();
                if (tiled != null) {
                    overlaps.reset();
                    tiled.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3], queries[q + 4],
                            queries[q + 5], mask, overlaps, scratch);
                    for (int i = 0; i < overlaps.count(); i++) {
                        found.add(overlaps.userValue(i));
                    }
                } else {
                    for (BruteForceIndex oracle : oracles) {
                        overlaps.reset();
                        oracle.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3],
                                queries[q + 4], queries[q + 5], mask, overlaps, stack);
                        for (int i = 0; i < overlaps.count(); i++) {
                            found.add(overlaps.userValue(i));
                        }
                    }
                }
                found.sort(null);
                out.add("box " + q / 6 + " " + found);
            }
            for (int s = 0; s < segments.length; s += 6) {
                List<String> hits = new ArrayList<>();
                double nearest = Double.POSITIVE_INFINITY;
                List<AllHits> parts = new ArrayList<>();
                if (tiled != null) {
                    tiled.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3], segments[s + 4],
                            segments[s + 5], 1.0, mask, all, scratch);
                    parts.add(all);
                    tiled.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3], segments[s + 4],
                            segments[s + 5], 1.0, mask, closest, scratch);
                    nearest = closest.hasHit() ? closest.fraction() : nearest;
                } else {
                    for (BruteForceIndex oracle : oracles) {
                        AllHits part = new AllHits();
                        oracle.rayCast(segments[s], segments[s + 1], segments[s + 2], segments[s + 3],
                                segments[s + 4], segments[s + 5], 1.0, mask, part, stack);
                        parts.add(part);
                    }
                }
                for (AllHits part : parts) {
                    for (int i = 0; i < part.count(); i++) {
                        hits.add(part.userValue(i) + "@" + part.fraction(i));
                        if (tiled == null) {
                            nearest = Math.min(nearest, part.fraction(i));
                        }
                    }
                }
                hits.sort(null);
                out.add("ray " + s / 6 + " " + hits + " nearest " + nearest);
            }
        }
        return out;
    }

    @Test
    void shouldAnswerLikeTheTilesScannedOneByOne() throws IOException {
        double[] queries = world.boxQueries(60, 81);
        double[] segments = world.segments(40, 82);
        List<String> expected = answers(null, queries, segments);
        try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            tiled.verify();
            assertEquals(expected, answers(tiled, queries, segments));
        }
    }

    @Test
    void shouldStayWithinTheMappingBudget() throws IOException {
        double[] queries = world.boxQueries(60, 83);
        double[] segments = world.segments(40, 84);
        List<String> expected = answers(null, queries, segments);
        long budget = 2 * largestTile;
        try (TiledWorld tiled = TiledWorld.open(tiles, budget)) {
            assertEquals(0, tiled.mappedTileCount());
            assertEquals(expected, answers(tiled, queries, segments));
            assertTrue(tiled.mappedBytes() <= budget, tiled.mappedBytes() + " mapped bytes");
            assertTrue(tiled.mappedTileCount() >= 1 && tiled.mappedTileCount() <= 2);
        }
        try (TiledWorld tiled = TiledWorld.open(tiles, 0)) {
            assertEquals(expected, answers(tiled, queries, segments));
            assertEquals(0, tiled.mappedTileCount(), "nothing stays mapped with a zero budget");
        }
    }

    @Test
    void shouldAnswerFromManyThreadsWhileTilesComeAndGo() throws Exception {
        double[] queries = world.boxQueries(30, 85);
        double[] segments = world.segments(30, 86);
        List<String> expected = answers(null, queries, segments);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (TiledWorld tiled = TiledWorld.open(tiles, largestTile)) {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                results.add(pool.submit(() -> answers(tiled, queries, segments)));
            }
            for (Future<List<String>> f : results) {
                assertEquals(expected, f.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void shouldRefuseUseAfterCloseAndReportACorruptTile() throws IOException {
        TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE);
        tiled.close();
        assertThrows(IllegalStateException.class, () -> tiled.queryAabb(0, 0, 0, 1, 1, 1, -1L, new AllOverlaps(),
                new TiledWorld.Scratch()));
        byte[] bytes = Files.readAllBytes(tiles.get(1));
        bytes[bytes.length - 1] ^= 1;
        Files.write(tiles.get(1), bytes);
        try (TiledWorld damaged = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            CorruptWorldFileException e = assertThrows(CorruptWorldFileException.class, damaged::verify);
            assertTrue(e.getMessage().contains(tiles.get(1).getFileName().toString()), e.getMessage());
        }
    }
}
