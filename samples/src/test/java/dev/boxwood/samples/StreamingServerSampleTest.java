package dev.boxwood.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.query.ClosestHit;
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
        Settings settings = new Settings(3, 2, 4, 30, 12, 150, 6, 60, 120);
        Result result = StreamingServerSample.run(out, settings);
        assertTrue(result.baked());
        Pictures.assertPicture(result.picture(), 1000, 1000);
        assertTrue(result.maps() >= result.mostMapped() && result.mostMapped() > 0);

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

        // Look rays: the closest hit over every tile of the world, mapped or not, from freshly generated cities
        // in brute-force indexes with the world files' origins.
        int tiles = settings.tiles() * settings.tiles();
        BruteForceIndex[] reference = new BruteForceIndex[tiles];
        for (int tile = 0; tile < tiles; tile++) {
            Scene scene = StreamingServerSample.tileCity(settings, tile).generate(StreamingServerSample.tileSeed(tile));
            try (MappedWorld world = MappedWorld.open(StreamingServerSample.tileFile(result.worldFolder(), tile))) {
                reference[tile] = new BruteForceIndex(world.originX(), world.originY(), world.originZ());
            }
            for (int i = 0; i < scene.size(); i++) {
                reference[tile].add(scene.bound(i, 0), scene.bound(i, 1), scene.bound(i, 2), scene.bound(i, 3),
                        scene.bound(i, 4), scene.bound(i, 5), i, -1L);
            }
        }
        ClosestHit hit = new ClosestHit();
        TraversalStack stack = new TraversalStack();
        int hits = 0;
        for (int player = 0; player < settings.players(); player++) {
            int bestTile = -1;
            int bestObject = -1;
            double bestFraction = Double.NaN;
            for (int tile = 0; tile < tiles; tile++) {
                reference[tile].rayCast(result.playerX()[player], StreamingServerSample.EYE, result.playerZ()[player],
                        result.lookX()[player], 0, result.lookZ()[player], 1.0, -1L, hit, stack);
                if (hit.hasHit() && (bestTile < 0 || hit.fraction() < bestFraction)) {
                    bestTile = tile;
                    bestObject = hit.handle();
                    bestFraction = hit.fraction();
                }
            }
            assertEquals(bestTile, result.lookTile()[player], "tile hit by player " + player);
            assertEquals(bestObject, result.lookObject()[player], "object hit by player " + player);
            assertEquals(bestFraction, result.lookFraction()[player], 0.0, "fraction of player " + player);
            hits += bestTile >= 0 ? 1 : 0;
        }
        assertTrue(hits > 0, "some look ray hits something");

        // A second run finds the baked world and does not bake it again.
        Result again = StreamingServerSample.run(out, settings);
        assertFalse(again.baked());
        assertEquals(result.worldObjects(), again.worldObjects());
    }
}
