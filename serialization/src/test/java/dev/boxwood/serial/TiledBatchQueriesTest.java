package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import net.openhft.chronicle.core.io.AbstractReferenceCounted;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batches of rays on a tiled world: every answer against per-tile brute-force indexes and the single casts. */
class TiledBatchQueriesTest {

    private static final long MASK = 0x00FF_00FF_00FF_00FFL;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    private List<Path> tiles;
    private long largestTile;
    /** One brute-force index per tile, with the tile's origin. */
    private final List<BruteForceIndex> oracles = new ArrayList<>();
    /** Segments as origin and translation (stride 6): half end inside a box, half are random, some shortened. */
    private double[] segments;

    @BeforeEach
    void writeTiles() throws IOException {
        AbstractReferenceCounted.enableReferenceTracing();
        TestWorld world = TestWorld.clustered(8_000, 21);
        tiles = TileSetWriter.writeGrid(dir, "tile", world.boxes, null, world.categories, 2500);
        assertTrue(tiles.size() >= 9, tiles.size() + " tiles");
        for (Path tile : tiles) {
            largestTile = Math.max(largestTile, Files.size(tile));
            try (MappedWorld mapped = MappedWorld.open(tile)) {
                BruteForceIndex oracle = new BruteForceIndex(mapped.originX(), mapped.originY(), mapped.originZ());
                double[] box = new double[6];
                for (int i = 0; i < mapped.size(); i++) {
                    mapped.getTightBox(i, box);
                    // the tile's handles, in order: the stored box given again is stored as it is
                    assertEquals(i, oracle.add(box[0], box[1], box[2], box[3], box[4], box[5], mapped.userValue(i),
                            mapped.categoryBits(i)));
                }
                oracles.add(oracle);
            }
        }
        double[] between = world.segmentsBetweenObjects(400, 22);
        double[] random = world.segments(400, 23);
        segments = new double[between.length + random.length];
        System.arraycopy(between, 0, segments, 0, between.length);
        System.arraycopy(random, 0, segments, between.length, random.length);
        // every third segment stops at 40% of the way: some of those reach no box
        for (int s = 0; s < segments.length; s += 18) {
            for (int a = 3; a < 6; a++) {
                segments[s + a] *= 0.4;
            }
        }
    }

    @AfterEach
    void assertEverythingUnmapped() {
        AbstractReferenceCounted.assertReferencesReleased();
    }

    private int count() {
        return segments.length / 6;
    }

    private double[] part(int offset) {
        double[] out = new double[3 * count()];
        for (int i = 0; i < count(); i++) {
            System.arraycopy(segments, 6 * i + offset, out, 3 * i, 3);
        }
        return out;
    }

    private double[] ends() {
        double[] out = part(0);
        double[] t = part(3);
        for (int i = 0; i < out.length; i++) {
            out[i] += t[i];
        }
        return out;
    }

    /**
     * The batches' filter ({@link TiledBatchQueries#setRayTests}): every answer is the single tiled cast's with a
     * collector filtered the same way, and the filter changes the answers (objects with odd user values are
     * see-through).
     */
    @Test
    void shouldFilterTheCandidatesOfEveryTileAsASingleCastDoes() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] translations = part(3);
        double[] to = ends();
        dev.boxwood.query.QueryFilter evenValues = (handle, userValue) -> (userValue & 1) == 0;
        boolean[] visible = new boolean[n];
        boolean[] unfiltered = new boolean[n];
        int[] tileOut = new int[n];
        int[] handleOut = new int[n];
        long[] valueOut = new long[n];
        double[] fractionOut = new double[n];
        AnyHit any = new AnyHit();
        any.setFilter(evenValues);
        ClosestHit closest = new ClosestHit();
        closest.setFilter(evenValues);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE);
             TiledBatchQueries batch = new TiledBatchQueries(3)) {
            batch.lineOfSight(world, origins, to, n, MASK, unfiltered);
            batch.setRayTests(evenValues, null);
            batch.lineOfSight(world, origins, to, n, MASK, visible);
            batch.closestRays(world, origins, translations, n, 1.0, MASK, tileOut, handleOut, valueOut, fractionOut);
            int differ = 0;
            for (int i = 0; i < n; i++) {
                int a = 3 * i;
                world.rayCast(origins[a], origins[a + 1], origins[a + 2], translations[a], translations[a + 1],
                        translations[a + 2], 1.0, MASK, any, scratch);
                assertEquals(!any.hasHit(), visible[i], "line of sight " + i);
                world.rayCast(origins[a], origins[a + 1], origins[a + 2], translations[a], translations[a + 1],
                        translations[a + 2], 1.0, MASK, closest, scratch);
                assertEquals(closest.hasHit() ? closest.handle() : Handles.NONE, handleOut[i], "closest ray " + i);
                if (closest.hasHit()) {
                    assertEquals(closest.part(), tileOut[i], "closest ray " + i);
                    assertEquals(closest.userValue(), valueOut[i], "closest ray " + i);
                    assertEquals(0, closest.userValue() & 1, "closest ray " + i);
                    assertEquals(closest.fraction(), fractionOut[i], "closest ray " + i);
                }
                differ += visible[i] != unfiltered[i] ? 1 : 0;
            }
            assertTrue(differ > 0, "the filter changed no answer");
        }
    }

    @Test
    void shouldAnswerEveryRayAsThePerTileReferenceAndTheSingleCastDo() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] translations = part(3);
        double[] to = ends();
        // the reference: the closest hit over every tile's brute force (lower tile first among equal fractions)
        int[] wantTile = new int[n];
        int[] wantHandle = new int[n];
        long[] wantValue = new long[n];
        double[] wantFraction = new double[n];
        boolean[] wantVisible = new boolean[n];
        ClosestHit closest = new ClosestHit();
        TraversalStack stack = new TraversalStack();
        for (int i = 0; i < n; i++) {
            wantTile[i] = -1;
            wantHandle[i] = Handles.NONE;
            wantFraction[i] = -1;
            for (int t = 0; t < oracles.size(); t++) {
                oracles.get(t).rayCast(origins[3 * i], origins[3 * i + 1], origins[3 * i + 2], translations[3 * i],
                        translations[3 * i + 1], translations[3 * i + 2], 1.0, MASK, closest, stack);
                if (closest.hasHit() && (wantTile[i] < 0 || closest.fraction() < wantFraction[i])) {
                    wantTile[i] = t;
                    wantHandle[i] = closest.handle();
                    wantValue[i] = closest.userValue();
                    wantFraction[i] = closest.fraction();
                }
            }
            wantVisible[i] = wantTile[i] < 0;
        }
        int blocked = 0;
        for (boolean v : wantVisible) {
            blocked += v ? 0 : 1;
        }
        assertTrue(blocked > n / 10 && blocked < n - n / 10, blocked + " of " + n + " blocked: both kinds tested");

        for (long budget : new long[] {Long.MAX_VALUE, 2 * largestTile}) {
            try (TiledWorld world = TiledWorld.open(tiles, budget)) {
                for (int threads : new int[] {1, 3}) {
                    try (TiledBatchQueries batch = new TiledBatchQueries(threads)) {
                        int[] tileOut = new int[n];
                        int[] handleOut = new int[n];
                        long[] values = new long[n];
                        double[] fractionOut = new double[n];
                        boolean[] visible = new boolean[n];
                        batch.closestRays(world, origins, translations, n, 1.0, MASK, tileOut, handleOut, values,
                                fractionOut);
                        batch.lineOfSight(world, origins, to, n, MASK, visible);
                        String where = "budget " + budget + ", " + threads + " threads";
                        assertArrayEquals(wantTile, tileOut, where);
                        assertArrayEquals(wantHandle, handleOut, where);
                        assertArrayEquals(wantValue, values, where);
                        assertArrayEquals(wantFraction, fractionOut, where);
                        assertArrayEquals(wantVisible, visible, where);
                    }
                }
                assertSingleCastsAgree(world, origins, translations, wantTile, wantHandle, wantFraction);
                if (budget != Long.MAX_VALUE) {
                    assertTrue(world.unmapCount() > 0, "the budget unmapped tiles during the batches");
                }
            }
        }
    }

    @Test
    void shouldCombineTheTilesWithATreeOfEntitiesIgnoringLookerAndTarget() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] translations = part(3);
        double[] to = ends();
        // per segment a looker at its start and a target at its end, and on every other one a body half way,
        // in one of two categories; the entity mask blocks sight by the first only
        DynamicAabbTree entities = new DynamicAabbTree();
        BruteForceIndex people = new BruteForceIndex(0, 0, 0);
        int[] lookers = new int[n];
        int[] targets = new int[n];
        double[] box = new double[6];
        for (int i = 0; i < n; i++) {
            lookers[i] = addPerson(entities, people, origins, translations, i, 0.0, 1L);
            targets[i] = addPerson(entities, people, origins, translations, i, 1.0, 1L);
            if (i % 2 == 0) {
                addPerson(entities, people, origins, translations, i, 0.5, i % 4 == 0 ? 1L : 2L);
            }
        }
        entities.validate();
        long entityMask = 1L;
        boolean[] want = new boolean[n];
        boolean[] wantTiles = new boolean[n];
        int byEntities = 0;
        int byTilesOnly = 0;
        AnyHit any = new AnyHit();
        TraversalStack stack = new TraversalStack();
        for (int i = 0; i < n; i++) {
            any.setIgnored(lookers[i], targets[i]);
            people.rayCast(origins[3 * i], origins[3 * i + 1], origins[3 * i + 2], translations[3 * i],
                    translations[3 * i + 1], translations[3 * i + 2], 1.0, entityMask, any, stack);
            boolean bodiesClear = !any.hasHit();
            byEntities += bodiesClear ? 0 : 1;
            any.setIgnored(Handles.NONE, Handles.NONE);
            boolean clear = true;
            for (int t = 0; clear && t < oracles.size(); t++) {
                oracles.get(t).rayCast(origins[3 * i], origins[3 * i + 1], origins[3 * i + 2], translations[3 * i],
                        translations[3 * i + 1], translations[3 * i + 2], 1.0, MASK, any, stack);
                clear = !any.hasHit();
            }
            wantTiles[i] = clear;
            byTilesOnly += bodiesClear && !clear ? 1 : 0;
            want[i] = bodiesClear && clear;
        }
        int visibleCount = 0;
        for (boolean v : want) {
            visibleCount += v ? 1 : 0;
        }
        assertTrue(byEntities > n / 5 && byTilesOnly > n / 10 && visibleCount > n / 10, byEntities
                + " lines blocked by bodies, " + byTilesOnly + " by the tiles only, " + visibleCount + " visible");
        for (long budget : new long[] {Long.MAX_VALUE, 2 * largestTile}) {
            try (TiledWorld world = TiledWorld.open(tiles, budget)) {
                for (int threads : new int[] {1, 3}) {
                    try (TiledBatchQueries batch = new TiledBatchQueries(threads)) {
                        boolean[] visible = new boolean[n];
                        batch.lineOfSight(world, entities, origins, to, lookers, targets, n, MASK, entityMask,
                                visible);
                        String where = "budget " + budget + ", " + threads + " threads";
                        assertArrayEquals(want, visible, where);
                        // the tiles-only batch after it ignores no handle of the world
                        boolean[] tilesOnly = new boolean[n];
                        batch.lineOfSight(world, origins, to, n, MASK, tilesOnly);
                        assertArrayEquals(wantTiles, tilesOnly, where + ", tiles only");
                    }
                }
            }
        }
        // a line a body blocks maps no tile; with no entity argument bad, nothing runs
        try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE);
             TiledBatchQueries batch = new TiledBatchQueries(2)) {
            boolean[] visible = new boolean[n];
            int[] blocked = new int[n];
            int blockedCount = 0;
            for (int i = 0; i < n; i++) {
                any.setIgnored(lookers[i], targets[i]);
                people.rayCast(origins[3 * i], origins[3 * i + 1], origins[3 * i + 2], translations[3 * i],
                        translations[3 * i + 1], translations[3 * i + 2], 1.0, entityMask, any, stack);
                if (any.hasHit()) {
                    blocked[blockedCount++] = i;
                }
            }
            double[] blockedFrom = new double[3 * blockedCount];
            double[] blockedTo = new double[3 * blockedCount];
            int[] blockedLookers = new int[blockedCount];
            int[] blockedTargets = new int[blockedCount];
            for (int k = 0; k < blockedCount; k++) {
                System.arraycopy(origins, 3 * blocked[k], blockedFrom, 3 * k, 3);
                System.arraycopy(to, 3 * blocked[k], blockedTo, 3 * k, 3);
                blockedLookers[k] = lookers[blocked[k]];
                blockedTargets[k] = targets[blocked[k]];
            }
            Arrays.fill(visible, true);
            batch.lineOfSight(world, entities, blockedFrom, blockedTo, blockedLookers, blockedTargets, blockedCount,
                    MASK, entityMask, visible);
            for (int k = 0; k < blockedCount; k++) {
                assertEquals(false, visible[k], "line " + blocked[k]);
            }
            assertEquals(0, world.mapCount(), "lines blocked by bodies reach no tile");
            boolean[] untouched = new boolean[n];
            Arrays.fill(untouched, true);
            assertMessage("entities", () -> batch.lineOfSight(world, null, origins, to, lookers, targets, n, MASK,
                    entityMask, untouched));
            assertMessage("ignoreSecond", () -> batch.lineOfSight(world, entities, origins, to, lookers,
                    new int[n - 1], n, MASK, entityMask, untouched));
            double[] badTo = to.clone();
            badTo[3 * 7] = Double.NaN;
            assertMessage("segment 7", () -> batch.lineOfSight(world, entities, origins, badTo, null, null, n, MASK,
                    entityMask, untouched));
            for (boolean v : untouched) {
                assertTrue(v, "nothing written");
            }
            assertEquals(0, world.mapCount(), "no tile mapped by a rejected batch");
        }
    }

    /**
     * A change of the entity tree between two casts of a combined batch (here made by the filter while it looks at
     * a tile's candidate, after one line's cast through the entities and before the next line's) is caught by no
     * single cast, each of which reads the tree's change count when it starts: the batch checks the tree once all
     * have run. The entity tree's pending deferred adds are taken in before the first cast.
     */
    @Test
    void shouldNameAChangeOfTheEntityTreeBetweenTwoCastsOfACombinedBatch() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] to = ends();
        DynamicAabbTree entities = new DynamicAabbTree(dev.boxwood.index.TreeConfig.defaults()
                .withDeferredAdds(true));
        entities.add(-1e6, -1e6, -1e6, -1e6 + 1, -1e6 + 1, -1e6 + 1, 0, 1L);
        AtomicBoolean changed = new AtomicBoolean();
        boolean[] visible = new boolean[n];
        try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE);
             TiledBatchQueries batch = new TiledBatchQueries(1)) {
            batch.lineOfSight(world, entities, origins, to, null, null, n, MASK, 1L, visible);
            assertEquals(0, entities.pendingAdds(), "pending adds taken in");
            batch.setRayTests((handle, userValue) -> {
                if (!changed.getAndSet(true)) {
                    entities.add(-2e6, -2e6, -2e6, -2e6 + 1, -2e6 + 1, -2e6 + 1, 1, 1L);
                    entities.flushAdds();
                }
                return true;
            }, null);
            assertThrows(java.util.ConcurrentModificationException.class,
                    () -> batch.lineOfSight(world, entities, origins, to, null, null, n, MASK, 1L, visible));
            assertTrue(changed.get(), "the filter ran");
            entities.validate();
            // the instance takes the next batch
            batch.setRayTests(null, null);
            batch.lineOfSight(world, entities, origins, to, null, null, n, MASK, 1L, visible);
        }
    }

    /** A 0.6 m body at {@code fraction} along segment {@code i}, in the tree and its brute-force twin. */
    private static int addPerson(DynamicAabbTree tree, BruteForceIndex brute, double[] origins,
                                 double[] translations, int i, double fraction, long category) {
        double[] c = new double[3];
        for (int a = 0; a < 3; a++) {
            c[a] = origins[3 * i + a] + fraction * translations[3 * i + a];
        }
        int h = tree.add(c[0] - 0.3, c[1] - 0.3, c[2] - 0.3, c[0] + 0.3, c[1] + 0.3, c[2] + 0.3, i, category);
        assertEquals(h, brute.add(c[0] - 0.3, c[1] - 0.3, c[2] - 0.3, c[0] + 0.3, c[1] + 0.3, c[2] + 0.3, i,
                category));
        return h;
    }

    @Test
    void shouldAnswerEverySphereAsThePerTileReferenceDoes() throws IOException {
        // spheres around the segments' starts, radii from 0 to 300 m: from empty answers to some hundreds
        int n = count();
        double[] origins = part(0);
        double[] spheres = new double[4 * n];
        java.util.SplittableRandom random = new java.util.SplittableRandom(31);
        for (int i = 0; i < n; i++) {
            System.arraycopy(origins, 3 * i, spheres, 4 * i, 3);
            spheres[4 * i + 3] = i % 7 == 0 ? 0 : random.nextDouble(0, 300);
        }
        int max = 16;
        RegionMode[] modes = {RegionMode.CROSSING, RegionMode.WINDOW};
        for (RegionMode mode : modes) {
            // the reference: every tile's brute force, results in (tile, handle) order
            int[] wantCounts = new int[n];
            int[] wantTiles = new int[n * max];
            int[] wantHandles = new int[n * max];
            long[] wantValues = new long[n * max];
            AllOverlaps found = new AllOverlaps();
            long total = 0;
            int overflowing = 0;
            for (int i = 0; i < n; i++) {
                int kept = 0;
                for (int t = 0; t < oracles.size(); t++) {
                    found.reset();
                    oracles.get(t).querySphere(spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2],
                            spheres[4 * i + 3], mode, MASK, null, found);
                    found.sort();
                    wantCounts[i] += found.count();
                    for (int k = 0; k < found.count() && kept < max; k++, kept++) {
                        wantTiles[i * max + kept] = t;
                        wantHandles[i * max + kept] = found.handle(k);
                        wantValues[i * max + kept] = found.userValue(k);
                    }
                }
                total += wantCounts[i];
                overflowing += wantCounts[i] > max ? 1 : 0;
            }
            assertTrue(total > 2L * n && overflowing > n / 20 && overflowing < n - n / 10, mode + ": " + total
                    + " objects found, " + overflowing + " of " + n + " answers overflow their slots");
            for (long budget : new long[] {Long.MAX_VALUE, 2 * largestTile}) {
                try (TiledWorld world = TiledWorld.open(tiles, budget)) {
                    for (int threads : new int[] {1, 3}) {
                        try (TiledBatchQueries batch = new TiledBatchQueries(threads)) {
                            int[] counts = new int[n];
                            int[] tileOut = new int[n * max];
                            int[] handleOut = new int[n * max];
                            long[] values = new long[n * max];
                            batch.spheres(world, spheres, n, mode, MASK, max, tileOut, handleOut, values, counts);
                            String where = mode + ", budget " + budget + ", " + threads + " threads";
                            assertArrayEquals(wantCounts, counts, where);
                            for (int i = 0; i < n; i++) {
                                for (int k = 0; k < Math.min(max, wantCounts[i]); k++) {
                                    int at = i * max + k;
                                    assertEquals(wantTiles[at], tileOut[at], where + ", query " + i + " result " + k);
                                    assertEquals(wantHandles[at], handleOut[at], where + ", query " + i);
                                    assertEquals(wantValues[at], values[at], where + ", query " + i);
                                }
                            }
                            // without user values, and with no slots: the counts alone
                            batch.spheres(world, spheres, n, mode, MASK, 0, new int[0], new int[0], null, counts);
                            assertArrayEquals(wantCounts, counts, where + ", no slots");
                        }
                    }
                }
            }
        }
    }

    private void assertSingleCastsAgree(TiledWorld world, double[] origins, double[] translations, int[] tile,
                                        int[] handle, double[] fraction) {
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        ClosestHit closest = new ClosestHit();
        AnyHit any = new AnyHit();
        for (int i = 0; i < count(); i++) {
            world.rayCast(origins[3 * i], origins[3 * i + 1], origins[3 * i + 2], translations[3 * i],
                    translations[3 * i + 1], translations[3 * i + 2], 1.0, MASK, closest, scratch);
            world.rayCast(origins[3 * i], origins[3 * i + 1], origins[3 * i + 2], translations[3 * i],
                    translations[3 * i + 1], translations[3 * i + 2], 1.0, MASK, any, scratch);
            assertEquals(tile[i], closest.hasHit() ? closest.part() : -1, "ray " + i);
            assertEquals(handle[i], closest.hasHit() ? closest.handle() : Handles.NONE, "ray " + i);
            assertEquals(fraction[i], closest.hasHit() ? closest.fraction() : -1.0, "ray " + i);
            assertEquals(tile[i] >= 0, any.hasHit(), "ray " + i);
        }
    }

    @Test
    void shouldRejectABadBatchBeforeAnsweringAnyAndTakeTheNextOne() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] translations = part(3);
        double[] to = ends();
        try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE);
             TiledBatchQueries batch = new TiledBatchQueries(2)) {
            boolean[] visible = new boolean[n];
            int[] tileOut = new int[n];
            int[] handleOut = new int[n];
            long[] values = new long[n];
            double[] fractionOut = new double[n];
            Arrays.fill(tileOut, 77);
            double[] badTo = to.clone();
            badTo[3 * 300 + 1] = Double.NaN;
            double[] badOrigins = origins.clone();
            badOrigins[3 * 200 + 2] = Double.POSITIVE_INFINITY;
            double[] far = to.clone();
            far[3 * 100] = Double.MAX_VALUE;
            double[] farFrom = origins.clone();
            farFrom[3 * 100] = -Double.MAX_VALUE;
            assertMessage("segment 300", () -> batch.lineOfSight(world, origins, badTo, n, -1L, visible));
            // both ends finite, their difference not
            assertMessage("segment 100", () -> batch.lineOfSight(world, farFrom, far, n, -1L, visible));
            assertMessage("ray 200", () -> batch.closestRays(world, badOrigins, translations, n, 1.0, -1L, tileOut,
                    handleOut, null, fractionOut));
            assertMessage("maxFraction", () -> batch.closestRays(world, origins, translations, n, -1.0, -1L,
                    tileOut, handleOut, values, fractionOut));
            assertMessage("count", () -> batch.lineOfSight(world, origins, to, -1, -1L, visible));
            assertMessage("visible", () -> batch.lineOfSight(world, origins, to, n, -1L, new boolean[n - 1]));
            assertMessage("tiles", () -> batch.closestRays(world, origins, translations, n, 1.0, -1L, null,
                    handleOut, null, fractionOut));
            assertMessage("userValues", () -> batch.closestRays(world, origins, translations, n, 1.0, -1L,
                    tileOut, handleOut, new long[n - 1], fractionOut));
            assertMessage("fractions", () -> batch.closestRays(world, origins, translations, n, 1.0, -1L, tileOut,
                    handleOut, null, new double[3]));
            assertMessage("from", () -> batch.lineOfSight(world, new double[3 * n - 1], to, n, -1L, visible));
            // sphere batches: a negative radius, a NaN centre, short slots, shared answer arrays
            double[] spheres = new double[4 * n];
            int[] counts = new int[n];
            Arrays.fill(counts, 77);
            double[] negative = spheres.clone();
            negative[4 * 9 + 3] = -1;
            assertMessage("sphere 9", () -> batch.spheres(world, negative, n, RegionMode.CROSSING, -1L, 2,
                    new int[2 * n], new int[2 * n], null, counts));
            double[] nan = spheres.clone();
            nan[4 * 33 + 1] = Double.NaN;
            assertMessage("sphere 33", () -> batch.spheres(world, nan, n, RegionMode.CROSSING, -1L, 2,
                    new int[2 * n], new int[2 * n], null, counts));
            assertMessage("handles must hold count * maxPerQuery", () -> batch.spheres(world, spheres, n,
                    RegionMode.CROSSING, -1L, 2, new int[2 * n], new int[2 * n - 1], null, counts));
            assertMessage("userValues", () -> batch.spheres(world, spheres, n, RegionMode.CROSSING, -1L, 2,
                    new int[2 * n], new int[2 * n], new long[3], counts));
            assertMessage("maxPerQuery", () -> batch.spheres(world, spheres, n, RegionMode.CROSSING, -1L, -1,
                    new int[0], new int[0], null, counts));
            int[] sharedSlots = new int[2 * n];
            assertMessage("tiles and handles", () -> batch.spheres(world, spheres, n, RegionMode.CROSSING, -1L, 2,
                    sharedSlots, sharedSlots, null, counts));
            assertMessage("mode", () -> batch.spheres(world, spheres, n, null, -1L, 2, new int[2 * n],
                    new int[2 * n], null, counts));
            for (int c : counts) {
                assertEquals(77, c, "nothing written");
            }
            // an answer array that is also an input or another answer
            double[] shared = translations.clone();
            assertMessage("fractions and translations are the same array", () -> batch.closestRays(world, origins,
                    shared, n, 1.0, -1L, tileOut, handleOut, null, shared));
            assertArrayEquals(translations, shared, "nothing written");
            assertMessage("fractions and origins", () -> batch.closestRays(world, shared, translations, n, 1.0, -1L,
                    tileOut, handleOut, null, shared));
            assertMessage("tiles and handles", () -> batch.closestRays(world, origins, translations, n, 1.0, -1L,
                    tileOut, tileOut, values, fractionOut));
            assertMessage("world", () -> batch.lineOfSight(null, origins, to, n, -1L, visible));
            for (int i = 0; i < n; i++) {
                assertEquals(77, tileOut[i], "nothing written");
                assertEquals(false, visible[i], "nothing written");
            }
            assertEquals(0, world.mapCount(), "no tile mapped by a rejected batch");
            batch.lineOfSight(world, origins, to, 0, -1L, new boolean[0]);
            batch.closestRays(world, origins, translations, n, 1.0, -1L, tileOut, handleOut, values, fractionOut);
            assertTrue(Arrays.stream(tileOut).anyMatch(t -> t >= 0), "the next batch runs");
        }
    }

    @Test
    void shouldNameTheInstanceWhenClosed() throws IOException {
        int n = count();
        TiledBatchQueries batch = new TiledBatchQueries(2);
        batch.close();
        try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> batch.lineOfSight(world, part(0), ends(), n, -1L, new boolean[n]));
            assertEquals("this TiledBatchQueries is closed", e.getMessage());
        }
    }

    @Test
    void shouldRefuseAClosedWorldWithoutWritingAndTakeTheNextBatch() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] to = ends();
        try (TiledBatchQueries batch = new TiledBatchQueries(2)) {
            boolean[] visible = new boolean[n];
            Arrays.fill(visible, true);
            TiledWorld closed = TiledWorld.open(tiles, Long.MAX_VALUE);
            closed.close();
            assertThrows(IllegalStateException.class, () -> batch.lineOfSight(closed, origins, to, n, -1L, visible));
            for (boolean v : visible) {
                assertTrue(v, "nothing written");
            }
            try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE)) {
                batch.lineOfSight(world, origins, to, n, -1L, visible);
                boolean anyBlocked = false;
                for (boolean v : visible) {
                    anyBlocked |= !v;
                }
                assertTrue(anyBlocked);
            }
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(120)
    void shouldRefuseASecondBatchWhileOneRunsAndLeaveTheRunningOneIntact() throws Exception {
        int n = count();
        double[] origins = part(0);
        double[] to = ends();
        try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE);
             TiledBatchQueries batch = new TiledBatchQueries(1)) {
            boolean[] expected = new boolean[n];
            batch.lineOfSight(world, origins, to, n, -1L, expected);
            AtomicBoolean stop = new AtomicBoolean();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            Thread other = new Thread(() -> {
                boolean[] visible = new boolean[n];
                while (!stop.get()) {
                    try {
                        batch.lineOfSight(world, origins, to, n, -1L, visible);
                        if (!Arrays.equals(expected, visible)) {
                            failures.add(new AssertionError("a batch that ran answered differently"));
                        }
                    } catch (IllegalStateException e) {
                        // refused: this thread's batch overlapped the main thread's
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }
            });
            other.start();
            int refused = 0;
            boolean[] mine = new boolean[n];
            try {
                for (int round = 0; round < 2000 && refused < 3; round++) {
                    try {
                        batch.lineOfSight(world, origins, to, n, -1L, mine);
                        assertArrayEquals(expected, mine, "a batch that ran answers as alone");
                    } catch (IllegalStateException e) {
                        assertTrue(e.getMessage().contains("one batch at a time"), e.getMessage());
                        refused++;
                    }
                }
            } finally {
                stop.set(true);
                other.join();
            }
            assertTrue(refused > 0, "overlapping batches were refused");
            assertTrue(failures.isEmpty(), failures.toString());
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void shouldAnswerABatchWhoseCallerHoldsTheTiledWorldsMonitor() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] to = ends();
        boolean[] expected = new boolean[n];
        boolean[] visible = new boolean[n];
        try (TiledWorld world = TiledWorld.open(tiles, 2 * largestTile);
             TiledBatchQueries batch = new TiledBatchQueries(2)) {
            batch.lineOfSight(world, origins, to, n, -1L, expected);
            // an application locking on the world: the workers map and release tiles under the world's own lock,
            // not its monitor (with the monitor, the worker waited for the caller, which waited for the worker)
            synchronized (world) {
                batch.lineOfSight(world, origins, to, n, -1L, visible);
            }
            assertArrayEquals(expected, visible);
        }
    }

    @Test
    void shouldAllocateNothingPerWarmBatch() throws IOException {
        int n = count();
        double[] origins = part(0);
        double[] translations = part(3);
        double[] to = ends();
        int[] tileOut = new int[n];
        int[] handleOut = new int[n];
        long[] values = new long[n];
        double[] fractionOut = new double[n];
        boolean[] visible = new boolean[n];
        double[] spheres = new double[4 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(origins, 3 * i, spheres, 4 * i, 3);
            spheres[4 * i + 3] = 20 + i % 100;
        }
        int[] sphereTiles = new int[4 * n];
        int[] sphereHandles = new int[4 * n];
        long[] sphereValues = new long[4 * n];
        int[] sphereCounts = new int[n];
        DynamicAabbTree entities = new DynamicAabbTree();
        for (int i = 0; i < n; i += 3) {
            entities.add(to[3 * i] - 1, to[3 * i + 1] - 1, to[3 * i + 2] - 1, to[3 * i] + 1, to[3 * i + 1] + 1,
                    to[3 * i + 2] + 1, i, -1L);
        }
        for (int threadCount : new int[] {1, 2}) {
            java.util.Set<Thread> earlier = Thread.getAllStackTraces().keySet();
            try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE);
                 TiledBatchQueries batch = new TiledBatchQueries(threadCount)) {
                for (int round = 0; round < 50; round++) {
                    batch.closestRays(world, origins, translations, n, 1.0, -1L, tileOut, handleOut, values,
                            fractionOut);
                    batch.lineOfSight(world, origins, to, n, -1L, visible);
                    batch.lineOfSight(world, entities, origins, to, null, null, n, -1L, -1L, visible);
                    batch.spheres(world, spheres, n, RegionMode.CROSSING, -1L, 4, sphereTiles, sphereHandles,
                            sphereValues, sphereCounts);
                }
                // the caller and this batch's workers (the query threads started since it was made)
                long[] ids = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t == Thread.currentThread()
                                || t.getName().startsWith("boxwood-query-") && !earlier.contains(t))
                        .mapToLong(Thread::getId).toArray();
                assertEquals(threadCount, ids.length, "the caller and the workers");
                // up to ten windows: a one-off runtime allocation does not repeat, an allocation per query does
                long allocated = Long.MAX_VALUE;
                for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
                    long before = allocatedBytes(ids);
                    for (int round = 0; round < 10; round++) {
                        batch.closestRays(world, origins, translations, n, 1.0, -1L, tileOut, handleOut, values,
                                fractionOut);
                        batch.lineOfSight(world, origins, to, n, -1L, visible);
                        batch.lineOfSight(world, entities, origins, to, null, null, n, -1L, -1L, visible);
                        batch.spheres(world, spheres, n, RegionMode.CROSSING, -1L, 4, sphereTiles, sphereHandles,
                                sphereValues, sphereCounts);
                    }
                    allocated = allocatedBytes(ids) - before;
                }
                assertEquals(0, allocated, "bytes allocated by 10 rounds of four batches of " + n + " queries on "
                        + threadCount + " threads");
            }
        }
    }

    private static long allocatedBytes(long[] threadIds) {
        long sum = 0;
        // one id per call: the call taking an array allocates its answer on the calling thread
        for (long id : threadIds) {
            sum += Math.max(0, THREADS.getThreadAllocatedBytes(id));
        }
        return sum;
    }

    private static void assertMessage(String argument, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(argument), e.getMessage());
    }
}
