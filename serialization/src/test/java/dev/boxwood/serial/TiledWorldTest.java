package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.SegmentCollector;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import net.openhft.chronicle.core.io.AbstractReferenceCounted;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
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
    /** Each tile's bounds in world coordinates, from its header. */
    private final List<double[]> tileBounds = new ArrayList<>();

    private static final QueryFilter SOME = (handle, userValue) -> (userValue & 3) != 0;
    /** The tile of a hit in an answer line ("userValue#tile@fraction"). */
    private static final Pattern TILE = Pattern.compile("#(\\d+)@");

    @BeforeEach
    void writeTiles() throws IOException {
        AbstractReferenceCounted.enableReferenceTracing();
        world = TestWorld.clustered(8_000, 8);
        tiles = TileSetWriter.writeGrid(dir, "tile", world.boxes, null, world.categories, 2500);
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
                double[] bounds = new double[6];
                mapped.getBounds(bounds);
                tileBounds.add(bounds);
            }
        }
        assertEquals(world.size(), total);
    }

    @AfterEach
    void assertEverythingUnmapped() {
        AbstractReferenceCounted.assertReferencesReleased();
    }

    /**
     * The answers, by user value (global index) and tile (the collectors' part), of the tiled world or of the
     * per-tile oracles.
     */
    private List<String> answers(TiledWorld tiled, double[] queries, double[] segments) {
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        TraversalStack stack = new TraversalStack();
        AllOverlaps overlaps = new AllOverlaps();
        AllHits all = new AllHits();
        ClosestHit closest = new ClosestHit();
        List<String> out = new ArrayList<>();
        for (long mask : new long[] {-1L, 0x00FF_00FF_00FF_00FFL}) {
            for (int q = 0; q < queries.length; q += 6) {
                List<String> found = new ArrayList<>();
                if (tiled != null) {
                    overlaps.reset();
                    tiled.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3], queries[q + 4],
                            queries[q + 5], mask, overlaps, scratch);
                    for (int i = 0; i < overlaps.count(); i++) {
                        found.add(overlaps.userValue(i) + "#" + overlaps.part(i));
                    }
                } else {
                    for (int t = 0; t < oracles.size(); t++) {
                        overlaps.reset();
                        oracles.get(t).queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3],
                                queries[q + 4], queries[q + 5], mask, overlaps, stack);
                        for (int i = 0; i < overlaps.count(); i++) {
                            found.add(overlaps.userValue(i) + "#" + t);
                        }
                    }
                }
                found.sort(null);
                out.add("box " + q / 6 + " " + found);
            }
            for (int s = 0; s < segments.length; s += 6) {
                int at = s;
                out.add("ray " + s / 6 + " " + castAnswer(tiled != null, (visitor, oracle) -> {
                    if (oracle < 0) {
                        tiled.rayCast(segments[at], segments[at + 1], segments[at + 2], segments[at + 3],
                                segments[at + 4], segments[at + 5], 1.0, mask, visitor, scratch);
                    } else {
                        oracles.get(oracle).rayCast(segments[at], segments[at + 1], segments[at + 2],
                                segments[at + 3], segments[at + 4], segments[at + 5], 1.0, mask, visitor, stack);
                    }
                }, all, closest));
                for (int shape = 0; shape < 2; shape++) {
                    out.add((shape == 0 ? "box" : "sphere") + " sweep " + s / 6 + " "
                            + sweep(tiled, shape, segments, s, mask, all, closest, scratch));
                }
            }
        }
        return out;
    }

    /**
     * A box (shape 0) or sphere (shape 1) of a few metres swept along a segment: every hit as (user value, tile,
     * time) and the closest by (time, tile, handle), from the tiled world or from the per-tile oracles.
     */
    private String sweep(TiledWorld tiled, int shape, double[] segments, int s, long mask, AllHits all,
                         ClosestHit closest, TiledWorld.Scratch scratch) {
        double x = segments[s];
        double y = segments[s + 1];
        double z = segments[s + 2];
        double dx = segments[s + 3];
        double dy = segments[s + 4];
        double dz = segments[s + 5];
        double h = 3;
        return castAnswer(tiled != null, (visitor, oracle) -> {
            if (shape == 0 && oracle < 0) {
                tiled.sweepBox(x - h, y - h, z - h, x + h, y + h, z + h, dx, dy, dz, mask, visitor, scratch);
            } else if (shape == 0) {
                oracles.get(oracle).sweepBox(x - h, y - h, z - h, x + h, y + h, z + h, dx, dy, dz, mask, visitor);
            } else if (oracle < 0) {
                tiled.sweepSphere(x, y, z, h, dx, dy, dz, mask, visitor, scratch);
            } else {
                oracles.get(oracle).sweepSphere(x, y, z, h, dx, dy, dz, mask, visitor);
            }
        }, all, closest);
    }

    /** A cast (ray or sweep) into a visitor: through the tiled world ({@code oracle} -1) or through one oracle. */
    private interface Cast {
        void run(RayCastVisitor visitor, int oracle);
    }

    /**
     * Every hit of a cast as (user value, tile, fraction), sorted, and the closest by (fraction, tile, handle), the
     * order the collectors break ties in: from the tiled world, or from every tile's oracle.
     */
    private String castAnswer(boolean tiled, Cast cast, AllHits all, ClosestHit closest) {
        List<String> hits = new ArrayList<>();
        String nearest = "none";
        if (tiled) {
            cast.run(all, -1);
            for (int i = 0; i < all.count(); i++) {
                hits.add(all.userValue(i) + "#" + all.part(i) + "@" + all.fraction(i));
            }
            cast.run(closest, -1);
            if (closest.hasHit()) {
                nearest = closest.userValue() + "#" + closest.part() + "@" + closest.fraction();
            }
        } else {
            double best = Double.POSITIVE_INFINITY;
            for (int t = 0; t < oracles.size(); t++) {
                AllHits part = new AllHits();
                cast.run(part, t);
                part.sort();
                for (int i = 0; i < part.count(); i++) {
                    hits.add(part.userValue(i) + "#" + t + "@" + part.fraction(i));
                }
                if (part.count() > 0 && part.fraction(0) < best) {
                    best = part.fraction(0);
                    nearest = part.userValue(0) + "#" + t + "@" + best;
                }
            }
        }
        hits.sort(null);
        return hits + " nearest " + nearest;
    }

    @Test
    void shouldFindTheNearestObjectsOverAllTilesLikeTheTilesScannedOneByOne() throws IOException {
        SplittableRandom random = new SplittableRandom(88);
        // at least the distance to the object's box (its global index is its user value), more for some
        DistanceFunction exact = (handle, userValue, x, y, z) -> {
            int g = (int) userValue;
            double d = Math.sqrt(RegionTests.squaredDistance(x, y, z, world.boxes[6 * g], world.boxes[6 * g + 1],
                    world.boxes[6 * g + 2], world.boxes[6 * g + 3], world.boxes[6 * g + 4], world.boxes[6 * g + 5]));
            return g % 11 == 0 ? -1 : d + g % 3;
        };
        int[] handles = new int[world.size()];
        double[] distances = new double[world.size()];
        NearestNeighbours found = new NearestNeighbours();
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        int reported = 0;
        int severalTiles = 0;
        try (TiledWorld tiled = TiledWorld.open(tiles, largestTile * 3)) {
            for (int q = 0; q < 300; q++) {
                double[] point = pointNearAnObject(random);
                double x = point[0];
                double y = point[1];
                double z = point[2];
                int k = new int[] {1, 3, 40, 10_000}[q % 4];
                double maxDistance = q % 3 == 0 ? 150 : Double.POSITIVE_INFINITY;
                long mask = q % 5 == 0 ? 0x00FF_00FF_00FF_00FFL : -1L;
                QueryFilter filter = q % 7 == 0 ? SOME : null;
                DistanceFunction distance = q % 2 == 0 ? exact : null;
                // the oracle: every tile's own k nearest, ordered by (distance, tile, handle), the first k
                List<double[]> all = new ArrayList<>();
                for (int t = 0; t < oracles.size(); t++) {
                    int n = oracles.get(t).kNearest(x, y, z, k, maxDistance, mask, filter, distance, handles,
                            distances);
                    for (int i = 0; i < n; i++) {
                        all.add(new double[] {distances[i], t, handles[i]});
                    }
                }
                all.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0])
                        : a[1] != b[1] ? Double.compare(a[1], b[1]) : Double.compare(a[2], b[2]));
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < Math.min(k, all.size()); i++) {
                    double[] e = all.get(i);
                    expected.add(e[2] + "#" + (int) e[1] + "@" + e[0]);
                }
                tiled.kNearest(x, y, z, k, maxDistance, mask, filter, distance, found, scratch);
                List<String> actual = new ArrayList<>();
                for (int i = 0; i < found.count(); i++) {
                    actual.add((double) found.handle(i) + "#" + found.part(i) + "@" + found.distance(i));
                }
                assertEquals(expected, actual, "query " + q + " k " + k + " max " + maxDistance);
                reported += found.count();
                if (actual.stream().map(a -> a.substring(a.indexOf('#'), a.indexOf('@'))).distinct().count() > 1) {
                    severalTiles++;
                }
            }
            assertTrue(tiled.mappedBytes() <= largestTile * 3 || tiled.mappedTileCount() <= 3);
        }
        assertTrue(reported > 1000 && severalTiles > 20, reported + " reported, " + severalTiles
                + " queries answered from several tiles");
    }

    /** A point within 300 units (in x and y) of a random object's min corner. */
    private double[] pointNearAnObject(SplittableRandom random) {
        int g = random.nextInt(world.size());
        return new double[] {world.boxes[6 * g] + random.nextDouble(-300, 300),
            world.boxes[6 * g + 1] + random.nextDouble(-300, 300), world.boxes[6 * g + 2]};
    }

    @Test
    void shouldBrowseTheNearestObjectsInTheOrderOfTheKNearestQuery() throws IOException {
        SplittableRandom random = new SplittableRandom(89);
        NearestNeighbours all = new NearestNeighbours();
        NearestNeighbours found = new NearestNeighbours();
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        int longBrowses = 0;
        try (TiledWorld tiled = TiledWorld.open(tiles, largestTile * 3)) {
            for (int q = 0; q < 120; q++) {
                double[] point = pointNearAnObject(random);
                double x = point[0];
                double y = point[1];
                double z = point[2];
                double maxDistance = q % 3 == 0 ? 200 : Double.POSITIVE_INFINITY;
                long mask = q % 5 == 0 ? 0x00FF_00FF_00FF_00FFL : -1L;
                QueryFilter filter = q % 7 == 0 ? SOME : null;
                // the reference: one k-nearest query asking for every object
                tiled.kNearest(x, y, z, world.size(), maxDistance, mask, filter, null, all, scratch);
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < all.count(); i++) {
                    expected.add(all.handle(i) + "#" + all.part(i) + "@" + all.distance(i) + "=" + all.userValue(i));
                }
                // stop after m objects (every one for some), well past the first searches' k for others
                int m = q % 4 == 0 ? Integer.MAX_VALUE : random.nextInt(1, 4 * TiledWorld.BROWSE_FIRST_K + 40);
                List<String> visited = new ArrayList<>();
                tiled.browseNearest(x, y, z, maxDistance, mask, filter, null, (handle, userValue, distance) -> {
                    visited.add(handle + "#" + scratch.tile() + "@" + distance + "=" + userValue);
                    return visited.size() < m;
                }, found, scratch);
                assertEquals(expected.subList(0, Math.min(m, expected.size())), visited, "query " + q + ", m " + m);
                assertEquals(-1, scratch.tile(), "no tile outside a query");
                for (int i = 0; i < visited.size(); i++) {
                    assertEquals(expected.get(i), found.handle(i) + "#" + found.part(i) + "@" + found.distance(i) + "="
                            + found.userValue(i), "listed in found");
                }
                longBrowses += visited.size() > 2 * TiledWorld.BROWSE_FIRST_K ? 1 : 0;
            }
            // an empty answer, and bad arguments before any search
            List<Integer> none = new ArrayList<>();
            tiled.browseNearest(-1e6, -1e6, 0, 1, -1L, null, null, (h, v, d) -> none.add(h), found, scratch);
            assertEquals(List.of(), none);
            assertThrows(IllegalArgumentException.class,
                    () -> tiled.browseNearest(0, 0, 0, 1, -1L, null, null, null, found, scratch));
            assertThrows(IllegalArgumentException.class, () -> tiled.browseNearest(0, 0, 0, -1, -1L, null, null,
                    (h, v, d) -> true, found, scratch));
            assertThrows(IllegalArgumentException.class, () -> tiled.browseNearest(Double.NaN, 0, 0, 1, -1L, null,
                    null, (h, v, d) -> true, found, scratch));
        }
        assertTrue(longBrowses > 20, longBrowses + " browses went past the second search");
    }

    @Test
    void shouldAnswerLikeTheTilesScannedOneByOne() throws IOException {
        double[] queries = world.boxQueries(60, 81);
        double[] segments = world.segmentsBetweenObjects(40, 82);
        List<String> expected = answers(null, queries, segments);
        // every ray and sweep hits, many in more than one tile (the tiles named after '#' in the answers)
        long hitting = expected.stream().filter(a -> !a.startsWith("box ") || a.contains("sweep"))
                .filter(a -> !a.contains("[]")).count();
        long acrossTiles = expected.stream().filter(a -> !a.startsWith("box ") || a.contains("sweep"))
                .filter(a -> TILE.matcher(a).results().map(m -> m.group(1))
                .distinct().count() > 1).count();
        assertTrue(hitting > 150 && acrossTiles > 10, hitting + " casts and sweeps hit, " + acrossTiles
                + " in several tiles");
        try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            tiled.verify();
            assertEquals(expected, answers(tiled, queries, segments));
        }
    }

    @Test
    void shouldStayWithinTheMappingBudget() throws IOException {
        double[] queries = world.boxQueries(60, 83);
        double[] segments = world.segmentsBetweenObjects(40, 84);
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
    void shouldNotMakeTheQueryThatDropsATileWaitForItsUnmapping() throws Exception {
        // Unmapping at once runs Chronicle's releaser, which polls its queue and waits for the pending releases of
        // the whole JVM (a millisecond or two, up to a second): here a release of another Chronicle user is slow.
        // The query whose mapping makes the budget drop a tile must not wait for it, nor must other threads'
        // queries; the tile is unmapped by the releaser once it gets there, and close() waits for that.
        ExecutorService other = Executors.newSingleThreadExecutor();
        CountDownLatch slowRelease = new CountDownLatch(1);
        try {
            TiledWorld tiled = TiledWorld.open(tiles.subList(0, 2), largestTile);
            try {
                long expected = tiled.userValue(1, 0);
                tiled.userValue(0, 0); // tile 0 mapped, tile 1 not: the budget holds one tile
                assertTrue(tiled.isMapped(0) && !tiled.isMapped(1));
                BackgroundResourceReleaser.run(() -> {
                    try {
                        slowRelease.await(5, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                // each attempt maps the tile not mapped, so the budget drops the other: timed on the querying thread,
                // the best of up to three (a machine that stalls a thread for half a second must not fail it;
                // waiting for the releaser takes a second here, its limit, mapping a tile milliseconds)
                long fastestDrop = Long.MAX_VALUE;
                int attempts = 0;
                while (attempts < 3 && fastestDrop >= 500_000_000L) {
                    int tile = attempts % 2 == 0 ? 1 : 0;
                    long[] took = {-1};
                    Thread dropping = new Thread(() -> {
                        long start = System.nanoTime();
                        tiled.userValue(tile, 0);
                        took[0] = System.nanoTime() - start;
                    });
                    dropping.start();
                    dropping.join(30_000);
                    assertFalse(dropping.isAlive(), "the query that dropped a tile never returned");
                    assertTrue(took[0] >= 0, "the query that dropped a tile failed");
                    fastestDrop = Math.min(fastestDrop, took[0]);
                    attempts++;
                }
                assertTrue(fastestDrop < 500_000_000L, "the query that dropped a tile waited for the releaser: "
                        + fastestDrop / 1_000_000 + " ms at best in " + attempts + " attempts");
                int mapped = attempts % 2 == 1 ? 1 : 0;
                assertTrue(tiled.isMapped(mapped) && !tiled.isMapped(1 - mapped));
                assertEquals(1 + attempts, tiled.unmapCount(), "tile 1 dropped for tile 0, then one per attempt");
                long fastestQuery = Long.MAX_VALUE;
                for (int i = 0; i < 3 && fastestQuery >= 500_000_000L; i++) {
                    Future<Long> query = other.submit(() -> {
                        long start = System.nanoTime();
                        tiled.userValue(mapped, 0);
                        return System.nanoTime() - start;
                    });
                    fastestQuery = Math.min(fastestQuery, query.get(30, TimeUnit.SECONDS));
                }
                assertTrue(fastestQuery < 500_000_000L, "a query of a mapped tile waited for the unmapping: "
                        + fastestQuery / 1_000_000 + " ms at best");
                assertEquals(expected, tiled.userValue(1, 0), "tile 1 answers after the drops");
            } finally {
                slowRelease.countDown();
                tiled.close();
            }
            if (Files.isReadable(Path.of("/proc/self/maps"))) {
                // close() waited for the releaser: neither tile is mapped once it has returned
                for (Path tile : tiles.subList(0, 2)) {
                    String name = tile.getFileName().toString();
                    assertEquals(0, Files.readAllLines(Path.of("/proc/self/maps")).stream()
                            .filter(line -> line.endsWith(name)).count(), name + " is still mapped after close");
                }
            }
        } finally {
            slowRelease.countDown();
            other.shutdown();
            assertTrue(other.awaitTermination(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldUnmapTheTilesTheBudgetDroppedBeforeCloseReturns() throws Exception {
        // the unmapping thread held up: a tile the budget drops waits in its queue, and close() must wait for it
        CountDownLatch holdUp = new CountDownLatch(1);
        CountDownLatch heldUp = new CountDownLatch(1);
        Unmapping.later(() -> {
            heldUp.countDown();
            try {
                holdUp.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, () -> { });
        assertTrue(heldUp.await(5, TimeUnit.SECONDS));
        Path maps = Path.of("/proc/self/maps");
        String name = tiles.get(0).getFileName().toString();
        Thread closing;
        try {
            TiledWorld tiled = TiledWorld.open(tiles.subList(0, 2), 0);
            tiled.userValue(0, 0); // maps tile 0; the budget of 0 drops it as the read ends
            assertFalse(tiled.isMapped(0));
            assertEquals(1, tiled.unmapCount());
            if (Files.isReadable(maps)) {
                assertTrue(Files.readAllLines(maps).stream().anyMatch(line -> line.endsWith(name)),
                        "the dropped tile waits for the unmapping thread");
            }
            closing = new Thread(tiled::close);
            closing.start();
            closing.join(300);
            assertTrue(closing.isAlive(), "close() returned before the tile it had dropped was unmapped");
        } finally {
            holdUp.countDown();
        }
        closing.join(10_000);
        assertFalse(closing.isAlive());
        if (Files.isReadable(maps)) {
            assertEquals(0, Files.readAllLines(maps).stream().filter(line -> line.endsWith(name)).count(),
                    name + " is still mapped after close");
        }
    }

    @Test
    void shouldLetGoOfEveryTileWhenAQueryThrowsAndRefuseTheScratchOfARunningQuery() throws IOException {
        double[] segments = world.segmentsBetweenObjects(8, 85);
        try (TiledWorld tiled = TiledWorld.open(tiles, 0)) {
            TiledWorld.Scratch scratch = new TiledWorld.Scratch();
            // a visitor that fails as a tile is entered: that tile is let go too (it stayed in use for good)
            RayCastVisitor castFailsOnEnter = new RayCastVisitor() {
                @Override
                public void enterPart(int part) {
                    throw new ArithmeticException("enter " + part);
                }

                @Override
                public double visit(int handle, long userValue, double fraction) {
                    return -1;
                }
            };
            for (int s = 0; s < segments.length; s += 6) {
                int at = s;
                assertThrows(ArithmeticException.class, () -> tiled.rayCast(segments[at], segments[at + 1],
                        segments[at + 2], segments[at + 3], segments[at + 4], segments[at + 5], 1.0, -1L,
                        castFailsOnEnter, scratch));
                assertEquals(0, tiled.mappedTileCount(), "segment " + at / 6 + ": a tile stayed in use");
            }
            OverlapVisitor regionFailsOnEnter = new OverlapVisitor() {
                @Override
                public void enterPart(int part) {
                    throw new ArithmeticException("enter " + part);
                }

                @Override
                public boolean visit(int handle, long userValue) {
                    return true;
                }
            };
            assertThrows(ArithmeticException.class, () -> tiled.queryAabb(-1e7, -1e7, -1e7, 1e7, 1e7, 1e7, -1L,
                    regionFailsOnEnter, scratch));
            assertEquals(0, tiled.mappedTileCount(), "a tile stayed in use");

            // a query run from inside another with the running query's scratch is refused (it mixed the two
            // walks and their tiles' use counts, which let another thread unmap a tile under a reader)
            double[] s0 = Arrays.copyOf(segments, 6);
            double[] box = {s0[0] - 50, s0[1] - 50, s0[2] - 50, s0[0] + 50, s0[1] + 50, s0[2] + 50};
            AllOverlaps inner = new AllOverlaps();
            int[] visits = new int[1];
            RayCastVisitor nestsWithSameScratch = (handle, userValue, fraction) -> {
                visits[0]++;
                tiled.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, inner, scratch);
                return 1;
            };
            assertThrows(IllegalStateException.class, () -> tiled.rayCast(s0[0], s0[1], s0[2], s0[3], s0[4], s0[5],
                    1.0, -1L, nestsWithSameScratch, scratch));
            assertEquals(1, visits[0], "the segment hits something");
            NearestNeighbours found = new NearestNeighbours();
            NearestNeighbours nestedFound = new NearestNeighbours();
            QueryFilter filterNestsWithSameScratch = (handle, userValue) -> {
                tiled.kNearest(0, 0, 0, 1, Double.POSITIVE_INFINITY, -1L, null, null, nestedFound, scratch);
                return true;
            };
            assertThrows(IllegalStateException.class, () -> tiled.kNearest(s0[0], s0[1], s0[2], 3,
                    Double.POSITIVE_INFINITY, -1L, filterNestsWithSameScratch, null, found, scratch));
            assertThrows(IllegalStateException.class, () -> tiled.browseNearest(s0[0], s0[1], s0[2],
                    Double.POSITIVE_INFINITY, -1L, null, null, (handle, userValue, distance) -> {
                        tiled.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, inner, scratch);
                        return true;
                    }, found, scratch));
            assertEquals(0, tiled.mappedTileCount(), "a tile stayed in use");

            // with a scratch of its own the nested query runs; the refused scratch is free again
            AllOverlaps direct = new AllOverlaps();
            tiled.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, direct, scratch);
            TiledWorld.Scratch own = new TiledWorld.Scratch();
            RayCastVisitor nestsWithItsOwn = (handle, userValue, fraction) -> {
                inner.reset();
                tiled.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, inner, own);
                return 1;
            };
            tiled.rayCast(s0[0], s0[1], s0[2], s0[3], s0[4], s0[5], 1.0, -1L, nestsWithItsOwn, scratch);
            assertTrue(direct.count() > 0);
            assertEquals(direct.count(), inner.count());
            assertEquals(0, tiled.mappedTileCount());
        }
    }

    @Test
    void shouldRefuseAScratchThatAQueryOnAnotherThreadHolds() throws Exception {
        double[] s0 = world.segmentsBetweenObjects(1, 86);
        try (TiledWorld tiled = TiledWorld.open(tiles, 0)) {
            TiledWorld.Scratch shared = new TiledWorld.Scratch();
            java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                Future<?> holder = other.submit(() -> tiled.rayCast(s0[0], s0[1], s0[2], s0[3], s0[4], s0[5], 1.0,
                        -1L, (handle, userValue, fraction) -> {
                            inside.countDown();
                            try {
                                assertTrue(done.await(30, java.util.concurrent.TimeUnit.SECONDS));
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            return 0;
                        }, shared));
                assertTrue(inside.await(30, java.util.concurrent.TimeUnit.SECONDS), "the segment hits something");
                assertThrows(IllegalStateException.class, () -> tiled.queryAabb(-1e7, -1e7, -1e7, 1e7, 1e7, 1e7,
                        -1L, (handle, userValue) -> true, shared));
                done.countDown();
                holder.get();
            } finally {
                other.shutdownNow();
            }
            assertEquals(0, tiled.mappedTileCount(), "a tile stayed in use");
            AllOverlaps all = new AllOverlaps();
            AllOverlaps fresh = new AllOverlaps();
            tiled.queryAabb(-1e7, -1e7, -1e7, 1e7, 1e7, 1e7, -1L, all, shared);
            tiled.queryAabb(-1e7, -1e7, -1e7, 1e7, 1e7, 1e7, -1L, fresh, new TiledWorld.Scratch());
            assertTrue(all.count() > 0);
            assertEquals(fresh.count(), all.count(), "the scratch is free once the holder returned");
        }
    }

    @Test
    void shouldAnswerFromManyThreadsWhileTilesComeAndGo() throws Exception {
        double[] queries = world.boxQueries(30, 85);
        double[] segments = world.segmentsBetweenObjects(30, 86);
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

    /**
     * Region query answers as "tile/handle/userValue", of the tiled world or of the per-tile oracles (whose handles
     * are the tile's object indices): sphere, box, oriented box and frustum in every mode, mask and filter.
     */
    private List<String> regionAnswers(TiledWorld tiled, int count, long seed) {
        double[] queries = world.boxQueries(count, seed);
        SplittableRandom random = new SplittableRandom(seed);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        List<String> out = new ArrayList<>();
        for (int q = 0; q < queries.length; q += 6) {
            double[] b = Arrays.copyOfRange(queries, q, q + 6);
            double[] c = MappedRegionQueriesTest.centreAndSize(b);
            double[] obb = MappedRegionQueriesTest.randomObb(random, c[0], c[1], c[2], c[3]);
            ConvexRegion frustum = MappedRegionQueriesTest.randomFrustum(random, c[0], c[1], c[2], c[3]);
            for (RegionMode mode : RegionMode.values()) {
                for (long mask : new long[] {-1L, 0x00FF_00FF_00FF_00FFL}) {
                    for (QueryFilter filter : new QueryFilter[] {null, SOME}) {
                        for (int shape = 0; shape < 4; shape++) {
                            List<String> found = new ArrayList<>();
                            if (tiled != null) {
                                OverlapVisitor v = (h, u) -> found.add(scratch.tile() + "/" + h + "/" + u);
                                switch (shape) {
                                    case 0 -> tiled.querySphere(c[0], c[1], c[2], 0.5 * c[3], mode, mask, filter,
                                            v, scratch);
                                    case 1 -> tiled.queryBox(b[0], b[1], b[2], b[3], b[4], b[5], mode, mask, filter,
                                            v, scratch);
                                    case 2 -> tiled.queryObb(obb, 0, mode, mask, filter, v, scratch);
                                    default -> tiled.queryConvex(frustum, mode, mask, filter, v, scratch);
                                }
                                assertEquals(-1, scratch.tile(), "no tile outside a query");
                            } else {
                                for (int k = 0; k < oracles.size(); k++) {
                                    BruteForceIndex o = oracles.get(k);
                                    int tile = k;
                                    OverlapVisitor v = (h, u) -> found.add(tile + "/" + h + "/" + u);
                                    switch (shape) {
                                        case 0 -> o.querySphere(c[0], c[1], c[2], 0.5 * c[3], mode, mask, filter, v);
                                        case 1 -> o.queryBox(b[0], b[1], b[2], b[3], b[4], b[5], mode, mask, filter,
                                                v);
                                        case 2 -> o.queryObb(obb, 0, mode, mask, filter, v);
                                        default -> o.queryConvex(frustum, mode, mask, filter, v);
                                    }
                                }
                            }
                            found.sort(null);
                            out.add("shape " + shape + " query " + q / 6 + " " + mode + " mask " + mask
                                    + (filter == null ? "" : " filtered") + " " + found);
                        }
                    }
                }
            }
        }
        return out;
    }

    private void assertMappingCounters(TiledWorld tiled) {
        int mapped = 0;
        for (int i = 0; i < tiled.tileCount(); i++) {
            mapped += tiled.isMapped(i) ? 1 : 0;
        }
        assertEquals(tiled.mappedTileCount(), mapped);
        assertEquals(tiled.mapCount() - tiled.unmapCount(), mapped);
        long bytes = 0;
        for (int i = 0; i < tiled.tileCount(); i++) {
            bytes += tiled.isMapped(i) ? largestTileOf(i) : 0;
        }
        assertEquals(bytes, tiled.mappedBytes());
    }

    private long largestTileOf(int tile) {
        try {
            return Files.size(tiles.get(tile));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldSelectLikeTheTilesScannedOneByOneInEveryRegionQuery() throws IOException {
        List<String> expected = regionAnswers(null, 20, 87);
        long nonEmpty = expected.stream().filter(a -> !a.endsWith("[]")).count();
        long window = expected.stream().filter(a -> a.contains("WINDOW") && !a.endsWith("[]")).count();
        assertTrue(nonEmpty > expected.size() / 3 && window > 20, nonEmpty + " non-empty, " + window + " window");
        for (long budget : new long[] {2 * largestTile, 0}) {
            TiledWorld tiled = TiledWorld.open(tiles, budget);
            try (tiled) {
                assertEquals(expected, regionAnswers(tiled, 20, 87), "budget " + budget);
                assertTrue(tiled.mappedBytes() <= budget, tiled.mappedBytes() + " mapped bytes");
                assertTrue(tiled.mapCount() > tiles.size(), "a small budget remaps: " + tiled.mapCount());
                assertMappingCounters(tiled);
                if (budget == 0) {
                    assertEquals(0, tiled.mappedTileCount(), "nothing stays mapped with a zero budget");
                }
            }
            assertEquals(0, tiled.mappedTileCount());
            assertEquals(tiled.mapCount(), tiled.unmapCount(), "close unmaps the rest");
        }
    }

    @Test
    void shouldTestAnOrientedBoxWithSlightlyLongAxesAsTheTileAloneDoes() throws IOException {
        // an x axis 4e-6 too long is accepted (within Obb.ORTHONORMAL_TOLERANCE) and made unit before the test: the
        // box of half extent 1000 about the origin reaches x = 1000, which the boxes starting just below touch
        double[] obb = {0, 0, 0, 1 + 4e-6, 0, 0, 0, 1, 0, 0, 0, 1, 1000, 1000, 1000};
        for (double lo : new double[] {999.997, 999.999, 1000.0}) {
            Path sub = Files.createDirectories(dir.resolve("obb-" + lo));
            List<Path> written = TileSetWriter.writeGrid(sub, "o", new double[] {lo, -1, -1, 1001, 1, 1}, null, null,
                    10000);
            AllOverlaps alone = new AllOverlaps();
            try (MappedWorld mapped = MappedWorld.open(written.get(0))) {
                mapped.queryObb(obb, 0, RegionMode.CROSSING, -1L, null, alone, new TraversalStack());
            }
            AllOverlaps found = new AllOverlaps();
            try (TiledWorld tiled = TiledWorld.open(written, Long.MAX_VALUE)) {
                tiled.queryObb(obb, 0, RegionMode.CROSSING, -1L, null, found, new TiledWorld.Scratch());
            }
            assertEquals(1, alone.count(), "the tile alone at " + lo);
            assertEquals(alone.count(), found.count(), "the tiled world at " + lo);
        }
    }

    @Test
    void shouldMapOnlyTheTilesTheShapeCanTouch() throws IOException {
        double[] queries = world.boxQueries(20, 88);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        int partial = 0;
        for (int q = 0; q < queries.length; q += 6) {
            double[] b = Arrays.copyOfRange(queries, q, q + 6);
            try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
                tiled.queryBox(b[0], b[1], b[2], b[3], b[4], b[5], RegionMode.WINDOW, -1L, null, (h, u) -> true,
                        scratch);
                int touched = 0;
                for (int i = 0; i < tiles.size(); i++) {
                    double[] t = tileBounds.get(i);
                    boolean touches = tiled.tileSize(i) > 0 && t[0] <= b[3] && b[0] <= t[3] && t[1] <= b[4]
                            && b[1] <= t[4] && t[2] <= b[5] && b[2] <= t[5];
                    assertEquals(touches, tiled.isMapped(i), "query " + q / 6 + " tile " + i);
                    touched += touches ? 1 : 0;
                }
                assertEquals(touched, tiled.mapCount());
                assertEquals(0, tiled.unmapCount());
                assertMappingCounters(tiled);
                partial += touched > 0 && touched < tiles.size() ? 1 : 0;
            }
        }
        assertTrue(partial > 5, "queries touching some tiles but not all: " + partial);
        double far = 1e9;
        double[] obb = MappedRegionQueriesTest.randomObb(new SplittableRandom(89), far, far, far, 1);
        ConvexRegion frustum = MappedRegionQueriesTest.randomFrustum(new SplittableRandom(90), far, far, far, 1);
        try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            AllOverlaps none = new AllOverlaps();
            for (RegionMode mode : RegionMode.values()) {
                tiled.querySphere(far, far, far, 1, mode, -1L, null, none, scratch);
                tiled.queryBox(far, far, far, far + 1, far + 1, far + 1, mode, -1L, null, none, scratch);
                tiled.queryObb(obb, 0, mode, -1L, null, none, scratch);
                tiled.queryConvex(frustum, mode, -1L, null, none, scratch);
            }
            assertEquals(0, none.count());
            assertEquals(0, tiled.mapCount(), "no tile mapped for shapes far from every tile");
        }
    }

    @Test
    void shouldAllocateNothingPerConvexQueryAcrossTilesOfDifferentOrigins() throws IOException {
        double[] b = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE,
            -Double.MAX_VALUE};
        for (int i = 0; i < world.boxes.length; i += 6) {
            for (int a = 0; a < 3; a++) {
                b[a] = Math.min(b[a], world.boxes[i + a]);
                b[a + 3] = Math.max(b[a + 3], world.boxes[i + 3 + a]);
            }
        }
        double cx = (b[0] + b[3]) / 2;
        double cy = (b[1] + b[4]) / 2;
        double extent = Math.max(b[3] - b[0], b[4] - b[1]);
        // looking down on the whole world: every non-empty tile is reached, each with its own origin
        ConvexRegion view = PerspectiveCamera.lookAt(cx, cy, b[5] + 2 * extent, cx, cy, b[2], 0, 1, 0, 1.6, 1.0,
                1.0, 10 * extent).frustum();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        AllOverlaps selected = new AllOverlaps();
        try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            for (int round = 0; round < 50; round++) {
                selected.reset();
                tiled.queryConvex(view, RegionMode.CROSSING, -1L, null, selected, scratch);
            }
            AllOverlaps expected = new AllOverlaps();
            for (BruteForceIndex oracle : oracles) {
                oracle.queryConvex(view, RegionMode.CROSSING, -1L, null, expected);
            }
            assertEquals(expected.count(), selected.count());
            assertTrue(selected.count() > world.size() * 9 / 10, selected.count() + " of " + world.size());
            long reached = tiled.mapCount();
            assertTrue(reached >= 9 && reached <= 16, reached + " tiles reached");
            // up to ten windows: a one-off runtime allocation does not repeat, an allocation per tile does
            long allocated = Long.MAX_VALUE;
            for (int window = 0; window < 10 && allocated > 0; window++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int round = 0; round < 20; round++) {
                    selected.reset();
                    tiled.queryConvex(view, RegionMode.CROSSING, -1L, null, selected, scratch);
                }
                allocated = threads.getThreadAllocatedBytes(thread) - before;
            }
            assertEquals(0, allocated, "bytes allocated by 20 queries over " + reached + " tiles");
            // sweeps and nearest queries across tiles, once warmed up
            ClosestHit closest = new ClosestHit();
            NearestNeighbours nearest = new NearestNeighbours();
            allocated = Long.MAX_VALUE;
            for (int window = 0; window < 10 && allocated > 0; window++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int round = 0; round < 20; round++) {
                    tiled.sweepSphere(b[0], b[1], cy, 5, b[3] - b[0], b[4] - b[1], 0, -1L, closest, scratch);
                    tiled.sweepBox(b[0], b[1], b[2], b[0] + 4, b[1] + 4, b[5], b[3] - b[0], 0, 0, -1L, closest,
                            scratch);
                    tiled.kNearest(cx, cy, b[2], 50, Double.POSITIVE_INFINITY, -1L, null, null, nearest, scratch);
                }
                allocated = threads.getThreadAllocatedBytes(thread) - before;
            }
            assertEquals(50, nearest.count());
            assertEquals(0, allocated, "bytes allocated by 20 sweeps and nearest queries over the tiles");
        }
    }

    @Test
    void shouldStopRegionQueriesWhenTheVisitorSaysSo() throws IOException {
        double[] w = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE,
            -Double.MAX_VALUE};
        for (double[] t : tileBounds) {
            for (int a = 0; a < 3; a++) {
                w[a] = Math.min(w[a], t[a] - 1);
                w[a + 3] = Math.max(w[a + 3], t[a + 3] + 1);
            }
        }
        double cx = 0.5 * (w[0] + w[3]);
        double cy = 0.5 * (w[1] + w[4]);
        double cz = 0.5 * (w[2] + w[5]);
        double[] obb = new double[ObbLayout.STRIDE];
        new Obb(cx, cy, cz, 1, 0, 0, 0, 1, 0, 0, 0, 1, w[3] - cx, w[4] - cy, w[5] - cz).writeTo(obb, 0);
        // the same box as six planes n . x <= d
        ConvexRegion box = new ConvexRegion(new double[] {1, 0, 0, w[3], -1, 0, 0, -w[0], 0, 1, 0, w[4],
            0, -1, 0, -w[1], 0, 0, 1, w[5], 0, 0, -1, -w[2]}, 6);
        double radius = Math.sqrt((w[3] - cx) * (w[3] - cx) + (w[4] - cy) * (w[4] - cy) + (w[5] - cz) * (w[5] - cz));
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        try (TiledWorld tiled = TiledWorld.open(tiles, largestTile)) {
            for (RegionMode mode : RegionMode.values()) {
                for (int shape = 0; shape < 5; shape++) {
                    int[] seen = new int[1];
                    AllOverlaps all = new AllOverlaps();
                    OverlapVisitor two = (h, u) -> all.visit(h, u) && ++seen[0] < 2;
                    switch (shape) {
                        case 0 -> tiled.querySphere(cx, cy, cz, radius, mode, -1L, null, two, scratch);
                        case 1 -> tiled.queryBox(w[0], w[1], w[2], w[3], w[4], w[5], mode, -1L, null, two, scratch);
                        case 2 -> tiled.queryObb(obb, 0, mode, -1L, null, two, scratch);
                        case 3 -> tiled.queryConvex(box, mode, -1L, null, two, scratch);
                        default -> tiled.queryAabb(w[0], w[1], w[2], w[3], w[4], w[5], -1L, two, scratch);
                    }
                    assertEquals(2, seen[0], "shape " + shape + " " + mode + " stops after two objects");
                    assertEquals(-1, scratch.tile());
                }
            }
            assertMappingCounters(tiled);
        }
    }

    @Test
    void shouldRejectBadRegionArgumentsAndTileIndices() throws IOException {
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        AllOverlaps v = new AllOverlaps();
        double[] obb = new double[ObbLayout.STRIDE];
        new Obb(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1).writeTo(obb, 0);
        ConvexRegion halfSpace = new ConvexRegion(new double[] {0, 0, 1, 0}, 1);
        RegionMode m = RegionMode.CROSSING;
        TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE);
        try (tiled) {
            assertBad("radius", () -> tiled.querySphere(0, 0, 0, -1, m, -1L, null, v, scratch));
            assertBad("centerY", () -> tiled.querySphere(0, Double.NaN, 0, 1, m, -1L, null, v, scratch));
            assertBad("mode", () -> tiled.querySphere(0, 0, 0, 1, null, -1L, null, v, scratch));
            assertBad("scratch", () -> tiled.querySphere(0, 0, 0, 1, m, -1L, null, v, null));
            assertBad("min", () -> tiled.queryBox(1, 0, 0, 0, 1, 1, m, -1L, null, v, scratch));
            assertBad("visitor", () -> tiled.queryBox(0, 0, 0, 1, 1, 1, m, -1L, null, null, scratch));
            assertBad("obb", () -> tiled.queryObb(new double[ObbLayout.STRIDE], 0, m, -1L, null, v, scratch));
            assertBad("obb", () -> tiled.queryObb(obb, 1, m, -1L, null, v, scratch));
            assertBad("region", () -> tiled.queryConvex(halfSpace, m, -1L, null, v, scratch));
            assertBad("region", () -> tiled.queryConvex(null, m, -1L, null, v, scratch));
            assertBad("tile", () -> tiled.isMapped(-1));
            assertBad("tile", () -> tiled.isMapped(tiles.size()));
            assertBad("tile", () -> tiled.tileSize(tiles.size()));
            assertEquals(0, tiled.mapCount(), "rejected queries map nothing");
            tiled.queryConvex(halfSpace, RegionMode.CROSSING_CONSERVATIVE, -1L, null, v, scratch);
            assertTrue(v.count() > 0, "an unbounded region works in the conservative mode");
        }
        assertFalse(tiled.isMapped(0));
        assertThrows(IllegalStateException.class, () -> tiled.queryObb(obb, 0, m, -1L, null, v, scratch));
        assertThrows(IllegalStateException.class, () -> tiled.querySphere(0, 0, 0, 1, m, -1L, null, v, scratch));
    }

    @Test
    void shouldWriteNoTileWhenOneBoxCannotBeStored() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("rejected"));
        // the last box reaches 1e19 from its centre, beyond the float storage range of any origin its tile can get
        double[] boxes = Arrays.copyOf(world.boxes, world.boxes.length + 6);
        int last = world.boxes.length;
        double[] wide = {5e6, 5e6, 0, 5e6 + 1, 5e6 + 1, 1};
        System.arraycopy(wide, 0, boxes, last, 6);
        boxes[last] -= 1e19;
        boxes[last + 3] += 1e19;
        assertBad("box " + last / 6, () -> TileSetWriter.writeGrid(empty, "tile", boxes, null, null, 2500));
        try (var listing = Files.list(empty)) {
            assertEquals(0, listing.count(), "no tile written");
        }
    }

    @Test
    void shouldGridASmallWorldFarFromTheOriginByItsOwnExtent() throws IOException {
        Path far = Files.createDirectory(dir.resolve("far"));
        // 2e8 / 100 = 2,000,000 cells from the origin, more than 21 bits hold; the world spans four cells
        double[] boxes = {
            2e8, -2e8, 0, 2e8 + 1, -2e8 + 1, 1,
            2e8 + 150, -2e8, 0, 2e8 + 151, -2e8 + 1, 1,
            2e8 + 350, -2e8 + 5, 0.5, 2e8 + 351, -2e8 + 6, 1.5};
        List<Path> written = TileSetWriter.writeGrid(far, "tile", boxes, null, null, 100);
        List<String> names = new ArrayList<>();
        for (Path file : written) {
            names.add(file.getFileName().toString());
        }
        assertEquals(List.of("tile_2000000_-2000000_0.bxw", "tile_2000001_-2000000_0.bxw",
                "tile_2000003_-2000000_0.bxw"), names);
        try (TiledWorld tiled = TiledWorld.open(written, Long.MAX_VALUE)) {
            AllOverlaps found = new AllOverlaps();
            tiled.queryAabb(2e8 + 0.5, -2e8 - 1, 0, 2e8 + 350, -2e8 + 5, 1, -1L, found, new TiledWorld.Scratch());
            found.sort();
            List<Long> values = new ArrayList<>();
            for (int i = 0; i < found.count(); i++) {
                values.add(found.userValue(i));
            }
            values.sort(null);
            assertEquals(List.of(0L, 1L, 2L), values);
        }
        // the extent, not the distance from the origin, is bounded: 2^21 + 1 cells along y are refused, unwritten
        Path wide = Files.createDirectory(dir.resolve("wide"));
        double[] spread = {0, 2e8, 0, 1, 2e8 + 1, 1,
            0, 2e8 + 100 * (1 << 21) + 50, 0, 1, 2e8 + 100 * (1 << 21) + 51, 1};
        assertBad("on axis y", () -> TileSetWriter.writeGrid(wide, "tile", spread, null, null, 100));
        // a box beyond 2^53 cells of the origin is named where others are within reach; where none is, the cell size
        double[] tiny = {1e300, 0, 0, 1e300, 0, 0};
        assertBad("cellSize 1.0E-10 puts every box beyond 2^53 cells from the origin on axis x",
                () -> TileSetWriter.writeGrid(wide, "tile", tiny, null, null, 1e-10));
        double[] stray = {0, 0, 0, 1, 1, 1, 1e300, 0, 0, 1e300, 1, 1};
        assertBad("object 1 lies more than 1.7976931348623157E308 cells of size 1.0E-10 from the origin on axis x,"
                + " beyond 2^53",
                () -> TileSetWriter.writeGrid(wide, "tile", stray, null, null, 1e-10));
        double[] two = {0, 0, 0, 1, 1, 1, 5, 5, 5, 6, 6, 6};
        assertBad("cellSize 1.0E-300 puts every box beyond 2^53 cells from the origin on axis x",
                () -> TileSetWriter.writeGrid(wide, "tile", two, null, null, 1e-300));
        assertBad("cellSize 1.0E-6 gives more than 2^21 cells on axis x (cells 500000 to 5500000)",
                () -> TileSetWriter.writeGrid(wide, "tile", two, null, null, 1e-6));
        try (var listing = Files.list(wide)) {
            assertEquals(0, listing.count(), "no tile written");
        }
    }

    private static void assertBad(String argument, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(argument), e.getMessage());
    }

    @Test
    void shouldTellAnObjectByTileAndHandle() throws IOException {
        double[] box = new double[6];
        double[] expected = new double[6];
        // a budget of one tile: every tile is mapped for the lookups and unmapped again for the next
        TiledWorld tiled = TiledWorld.open(tiles, largestTile);
        try (tiled) {
            for (int tile = 0; tile < tiles.size(); tile++) {
                try (MappedWorld alone = MappedWorld.open(tiles.get(tile))) {
                    assertEquals(alone.size(), tiled.tileSize(tile));
                    for (int h = 0; h < alone.size(); h += 7) {
                        long user = tiled.userValue(tile, h);
                        assertEquals(alone.userValue(h), user);
                        assertEquals(world.categories[(int) user], tiled.categoryBits(tile, h));
                        tiled.getTightBox(tile, h, box);
                        alone.getTightBox(h, expected);
                        assertArrayEquals(expected, box, "tile " + tile + ", handle " + h);
                    }
                }
            }
            assertTrue(tiled.unmapCount() > 0, "tiles unmapped under the budget between lookups");
            long mapped = tiled.mapCount();
            assertBad("tile", () -> tiled.userValue(tiles.size(), 0));
            assertBad("tile", () -> tiled.categoryBits(-1, 0));
            assertBad("handle", () -> tiled.userValue(0, tiled.tileSize(0)));
            assertBad("tile 1", () -> tiled.getTightBox(1, -1, box));
            assertBad("dest", () -> tiled.getTightBox(0, 0, new double[5]));
            assertEquals(mapped, tiled.mapCount(), "bad lookups map no tile");
        }
        assertThrows(IllegalStateException.class, () -> tiled.userValue(0, 0));
        assertThrows(IllegalStateException.class, () -> tiled.getTightBox(0, 0, box));
    }

    @Test
    void shouldReportATileReplacedOnDiskWhenItIsMappedAgain() throws IOException {
        // far below the clustered tiles, so that queries of the one never reach the other
        double y = -1e6;
        Path file = dir.resolve("replaced.bxw");
        StaticWorldWriter.write(file, new double[] {0, y, 0, 1, y + 1, 1, 2, y, 0, 3, y + 1, 1}, null, null, null);
        List<Path> files = List.of(tiles.get(0), file);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        AllOverlaps overlaps = new AllOverlaps();
        // a zero budget unmaps every tile after each query: the next query reaching it maps it again
        try (TiledWorld tiled = TiledWorld.open(files, 0)) {
            tiled.queryBox(-1, y - 1, -1, 4, y + 2, 2, RegionMode.CROSSING, -1L, null, overlaps, scratch);
            assertEquals(2, overlaps.count());
            assertFalse(tiled.isMapped(1));
            StaticWorldWriter.write(file, new double[] {100, y, 0, 101, y + 1, 1, 102, y, 0, 103, y + 1, 1, 104, y, 0,
                105, y + 1, 1}, null, null, null);
            try (MappedWorld fresh = MappedWorld.open(file)) {
                overlaps.reset();
                fresh.queryBox(-1, y - 1, -1, 4, y + 2, 2, RegionMode.CROSSING, -1L, null, overlaps,
                        new TraversalStack());
                assertEquals(0, overlaps.count(), "nothing of the new tile is where the old one was");
            }
            // the old bounds let the query reach the tile; in the old frame the new objects would seem to be there
            long mapped = tiled.mapCount();
            overlaps.reset();
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> tiled.queryBox(-1, y - 1, -1, 4,
                    y + 2, 2, RegionMode.CROSSING, -1L, null, overlaps, scratch));
            assertTrue(e.getMessage().contains("tile 1") && e.getMessage().contains(file.toString())
                    && e.getMessage().contains("changed on disk"), e.getMessage());
            assertEquals(0, overlaps.count());
            assertEquals(-1, scratch.tile());
            assertFalse(tiled.isMapped(1));
            assertEquals(0, tiled.mappedBytes());
            assertEquals(mapped, tiled.mapCount(), "the changed tile is not counted as mapped");
            IOException verify = assertThrows(IOException.class, tiled::verify);
            assertTrue(verify.getMessage().contains("tile 1"), verify.getMessage());
            // the count open() read (documented: headers are read once)
            assertEquals(2, tiled.tileSize(1));
            // the unchanged tile still answers
            overlaps.reset();
            double[] b = tileBounds.get(0);
            tiled.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, overlaps, scratch);
            AllOverlaps expected = new AllOverlaps();
            oracles.get(0).queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, expected, new TraversalStack());
            assertTrue(expected.count() > 0);
            assertEquals(expected.count(), overlaps.count());
        }
    }

    @Test
    void shouldKeepTheTileAQueryReadsMappedWhenTheWorldClosesUnderIt() throws IOException {
        double[] all = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE,
                -Double.MAX_VALUE};
        for (double[] b : tileBounds) {
            for (int a = 0; a < 3; a++) {
                all[a] = Math.min(all[a], b[a]);
                all[3 + a] = Math.max(all[3 + a], b[3 + a]);
            }
        }
        AllOverlaps firstTile = new AllOverlaps();
        oracles.get(0).queryAabb(all[0], all[1], all[2], all[3], all[4], all[5], -1L, firstTile,
                new TraversalStack());
        assertTrue(firstTile.count() > 10, firstTile.count() + " objects in tile 0");
        TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        int[] reported = new int[1];
        boolean[] mappedAfterClose = {false};
        // the whole world, tiles in index order: the visitor closes the tiled world at its first object, reads on
        // in tile 0 (still mapped), and the query fails as it reaches tile 1
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> tiled.queryAabb(all[0], all[1],
                all[2], all[3], all[4], all[5], -1L, (handle, userValue) -> {
                    assertEquals(0, scratch.tile());
                    if (reported[0]++ == 0) {
                        tiled.close();
                        mappedAfterClose[0] = tiled.isMapped(0);
                    }
                    return true;
                }, scratch));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertTrue(mappedAfterClose[0], "the tile being read stays mapped");
        assertEquals(firstTile.count(), reported[0], "tile 0 answered in full");
        assertEquals(0, tiled.mappedTileCount(), "unmapped as the query left it");
        assertEquals(0, tiled.mappedBytes());
        assertEquals(tiled.mapCount(), tiled.unmapCount());
        assertEquals(-1, scratch.tile());
        // the scratch was given back: a later query takes it, and is refused because the world is closed
        IllegalStateException later = assertThrows(IllegalStateException.class, () -> tiled.queryAabb(0, 0, 0, 1, 1,
                1, -1L, new AllOverlaps(), scratch));
        assertEquals("the tiled world is closed", later.getMessage());
    }

    @Test
    void shouldRefuseANearestQueryWhoseResultsANestedOneReused() throws IOException {
        try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            double[] b = tileBounds.get(0);
            NearestNeighbours results = new NearestNeighbours();
            TiledWorld.Scratch outer = new TiledWorld.Scratch();
            TiledWorld.Scratch inner = new TiledWorld.Scratch();
            // scratch of its own, but the outer query's results: refused at the outer query's end
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> tiled.kNearest(b[0], b[1],
                    b[2], 10, Double.POSITIVE_INFINITY, -1L, (h, uv) -> {
                        tiled.kNearest(b[3], b[4], b[5], 3, Double.POSITIVE_INFINITY, -1L, null, null, results, inner);
                        return true;
                    }, null, results, outer));
            assertTrue(e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
            e = assertThrows(IllegalStateException.class, () -> tiled.browseNearest(b[0], b[1], b[2],
                    Double.POSITIVE_INFINITY, -1L, null, null, (h, uv, d) -> {
                        tiled.kNearest(b[3], b[4], b[5], 3, Double.POSITIVE_INFINITY, -1L, null, null, results, inner);
                        return true;
                    }, results, outer));
            assertTrue(e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
            // both scratches were given back, and answer again
            tiled.kNearest(b[0], b[1], b[2], 10, Double.POSITIVE_INFINITY, -1L, null, null, results, outer);
            assertEquals(10, results.count());
            tiled.kNearest(b[0], b[1], b[2], 10, Double.POSITIVE_INFINITY, -1L, null, null, results, inner);
            assertEquals(10, results.count());
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
