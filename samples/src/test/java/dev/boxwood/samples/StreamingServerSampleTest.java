package dev.boxwood.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.samples.StreamingServerSample.Result;
import dev.boxwood.samples.StreamingServerSample.Settings;
import dev.boxwood.samples.support.SampleArgs;
import dev.boxwood.samples.support.Scene;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.testkit.BruteForceIndex;

/** Runs the streaming server small, twice (bake, then reuse), and recomputes its last tick by brute force. */
class StreamingServerSampleTest {

    @TempDir
    Path out;

    @Test
    void shouldAnswerTheLastTickLikeABruteForceScanOfTheWholeWorld() throws Exception {
        SampleArgs.quiet();
        Settings settings = new Settings(3, 2, 4, 30, 12, 150, 60 << 10, 60, 120);
        Result result = StreamingServerSample.run(out, settings);
        assertTrue(result.baked());
        Pictures.assertPicture(result.picture(), 1000, 1000);
        assertTrue(result.mostMappedTiles() > 0 && result.mostMappedBytes() > 0);

        // Interest: every awake person's stored box against each player's box (the sample's trees have their
        // origin at the tile centre; the double boxes only differ from the stored ones by float rounding, far
        // from any box edge here).
        double r = settings.interestRadius();
        double[] p = result.peopleBoxes();
        for (int player = 0; player < settings.players(); player++) {
            double x = result.playerX()[player];
            double z = result.playerZ()[player];
            int expected = 0;
            for (int i = 0; i < result.peopleTile().length; i++) {
                if (result.peopleTile()[i] >= 0 && AabbAabb.test(p[6 * i], p[6 * i + 1], p[6 * i + 2],
                        p[6 * i + 3], p[6 * i + 4], p[6 * i + 5], x - r, 0, z - r, x + r,
                        StreamingServerSample.HEIGHT, z + r)) {
                    expected++;
                }
            }
            assertEquals(expected, result.interest()[player], "people seen by player " + player);
        }

        // Static interest and look rays: a brute-force scan of every tile of the world, mapped or not, from freshly
        // generated cities in brute-force indexes with the tile files' origins; user values are global indices.
        int tiles = settings.tiles() * settings.tiles();
        assertEquals(tiles, result.tileFiles().size());
        BruteForceIndex[] reference = new BruteForceIndex[tiles];
        long global = 0;
        for (int tile = 0; tile < tiles; tile++) {
            Scene scene = StreamingServerSample.tileCity(settings, tile).generate(StreamingServerSample.tileSeed(tile));
            try (MappedWorld world = MappedWorld.open(result.tileFiles().get(tile))) {
                assertEquals(scene.size(), world.size(), "objects in tile " + tile);
                reference[tile] = new BruteForceIndex(world.originX(), world.originY(), world.originZ());
            }
            for (int i = 0; i < scene.size(); i++) {
                reference[tile].add(scene.bound(i, 0), scene.bound(i, 1), scene.bound(i, 2), scene.bound(i, 3),
                        scene.bound(i, 4), scene.bound(i, 5), global++, -1L);
            }
        }
        assertEquals(global, result.worldObjects());
        ClosestHit hit = new ClosestHit();
        TraversalStack stack = new TraversalStack();
        int[] counter = new int[1];
        OverlapVisitor count = (handle, userValue) -> {
            counter[0]++;
            return true;
        };
        int hits = 0;
        int nearby = 0;
        int[] handle = new int[1];
        double[] distance = new double[1];
        for (int player = 0; player < settings.players(); player++) {
            double x = result.playerX()[player];
            double z = result.playerZ()[player];
            long bestObject = -1;
            double bestFraction = Double.NaN;
            long nearestObject = -1;
            int nearestTile = -1;
            double nearestDistance = Double.NaN;
            counter[0] = 0;
            for (int tile = 0; tile < tiles; tile++) {
                // the nearest by (distance, tile, handle): a later tile wins only when strictly nearer
                int n = reference[tile].kNearest(x, StreamingServerSample.EYE, z, 1, r, -1L, null, null, handle,
                        distance);
                if (n > 0 && (nearestObject < 0 || distance[0] < nearestDistance)) {
                    nearestObject = reference[tile].userValue(handle[0]);
                    nearestTile = tile;
                    nearestDistance = distance[0];
                }
                reference[tile].queryAabb(x - r, 0, z - r, x + r, StreamingServerSample.SKY, z + r, -1L, count,
                        stack);
                reference[tile].rayCast(x, StreamingServerSample.EYE, z, result.lookX()[player], 0,
                        result.lookZ()[player], 1.0, -1L, hit, stack);
                if (hit.hasHit() && (bestObject < 0 || hit.fraction() < bestFraction)) {
                    bestObject = hit.userValue();
                    bestFraction = hit.fraction();
                }
            }
            assertEquals(counter[0], result.staticInterest()[player], "static objects seen by player " + player);
            assertEquals(bestObject, result.lookObject()[player], "object hit by player " + player);
            assertEquals(bestFraction, result.lookFraction()[player], 0.0, "fraction of player " + player);
            assertEquals(nearestObject, result.nearestObject()[player], "object nearest to player " + player);
            assertEquals(nearestTile, result.nearestTile()[player], "its tile, player " + player);
            assertEquals(nearestDistance, result.nearestDistance()[player], 0.0, "its distance, player " + player);
            nearby += nearestObject >= 0 ? 1 : 0;
            hits += bestObject >= 0 ? 1 : 0;
        }
        assertTrue(hits > 0, "some look ray hits something");
        assertTrue(nearby > 0, "some player has a static object within reach");

        // People against the static world (WorldPairs.tilePairs per active tile and its neighbours): every contact
        // reported touches, once, within a millimetre (the stored floats are rounded outward), and every awake
        // person overlapping a static object by more than a millimetre is reported with it.
        double[] person = new double[6];
        double[] object = new double[6];
        java.util.Set<String> contacts = new java.util.HashSet<>();
        long[] bumps = result.bumps();
        MappedWorld[] tileWorlds = new MappedWorld[tiles];
        try {
            for (int tile = 0; tile < tiles; tile++) {
                tileWorlds[tile] = MappedWorld.open(result.tileFiles().get(tile));
            }
            for (int k = 0; k < bumps.length; k += 3) {
                int i = (int) bumps[k];
                int tile = (int) bumps[k + 1];
                int h = (int) bumps[k + 2];
                assertTrue(result.peopleTile()[i] >= 0, "person " + i + " is awake");
                String contact = i + " " + tile + " " + h;
                assertTrue(contacts.add(contact), "contact reported once: " + contact);
                grown(p, i, 1e-3, person);
                tileWorlds[tile].getTightBox(h, object);
                assertTrue(AabbAabb.test(person[0], person[1], person[2], person[3], person[4], person[5], object[0],
                        object[1], object[2], object[3], object[4], object[5]), "person " + i + " touches " + tile
                        + "/" + h);
            }
            int clear = 0;
            for (int i = 0; i < result.peopleTile().length; i++) {
                if (result.peopleTile()[i] < 0) {
                    continue;
                }
                grown(p, i, -1e-3, person);
                for (int tile = 0; tile < tiles; tile++) {
                    for (int h = 0; h < tileWorlds[tile].size(); h++) {
                        tileWorlds[tile].getTightBox(h, object);
                        if (AabbAabb.test(person[0], person[1], person[2], person[3], person[4], person[5], object[0],
                                object[1], object[2], object[3], object[4], object[5])) {
                            assertTrue(contacts.contains(i + " " + tile + " " + h), "contact of person " + i
                                    + " with " + tile + "/" + h + " reported");
                            clear++;
                        }
                    }
                }
            }
            assertTrue(clear > 0, "some person stands in a static object's box");
        } finally {
            for (MappedWorld w : tileWorlds) {
                if (w != null) {
                    w.close();
                }
            }
        }

        // A second run finds the baked world and does not bake it again.
        Result again = StreamingServerSample.run(out, settings);
        assertFalse(again.baked());
        assertEquals(result.worldObjects(), again.worldObjects());
        // a tile deleted since: the world is baked again rather than failing on the missing file
        java.nio.file.Files.delete(result.tileFiles().get(1));
        Result rebaked = StreamingServerSample.run(out, settings);
        assertTrue(rebaked.baked());
        assertTrue(java.nio.file.Files.isRegularFile(result.tileFiles().get(1)));
        assertEquals(result.worldObjects(), rebaked.worldObjects());
    }

    @Test
    void shouldLeaveOnlyTheTilesOfTheWorldItBakedInTheFolder() throws Exception {
        SampleArgs.quiet();
        // a full run and then a quick one (demo.sh, then demo.sh --quick) share the folder; so do these two
        StreamingServerSample.run(out, new Settings(4, 2, 2, 5, 1, 150, 60 << 10, 60, 120));
        Result smaller = StreamingServerSample.run(out, new Settings(3, 2, 2, 5, 1, 150, 60 << 10, 60, 120));
        assertTrue(smaller.baked());
        java.util.Set<Path> left = new java.util.HashSet<>();
        try (var files = java.nio.file.Files.newDirectoryStream(out.resolve("streaming-world"), "city_*.bxw")) {
            files.forEach(left::add);
        }
        assertEquals(new java.util.HashSet<>(smaller.tileFiles()), left);
    }

    @Test
    void shouldLookForPeopleInTheNextTileWhoseBodiesReachIntoTheAreaOfInterest() {
        Settings settings = Settings.of(true);
        StreamingServerSample.ActiveTiles active = new StreamingServerSample.ActiveTiles(settings);
        double r = settings.interestRadius();
        double edge = settings.tileSize();
        double x = 0.5 * settings.tileSize();
        // the square ends 0.1 m before the tile edge; a person centred 0.2 m beyond it reaches 0.1 m back over it
        double playerZ = edge - r - 0.1;
        double personZ = edge + 0.2;
        assertTrue(personZ - StreamingServerSample.HALF_WIDTH <= playerZ + r, "the body reaches the square");
        int personTile = active.tileAt(x, personZ);
        assertFalse(active.tileAt(x, playerZ + r) == personTile, "the square itself stays in its tile");
        boolean found = false;
        for (int tile : active.interestTiles(x, playerZ, r)) {
            found |= tile == personTile;
        }
        assertTrue(found, "the person's tile " + personTile + " is searched");
    }

    /** Person {@code i}'s box grown by {@code by} on every side (shrunk for a negative value). */
    private static void grown(double[] boxes, int i, double by, double[] dest) {
        for (int a = 0; a < 3; a++) {
            dest[a] = boxes[6 * i + a] - by;
            dest[a + 3] = boxes[6 * i + 3 + a] + by;
        }
    }
}
