package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.boxwood.index.BatchQueries;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.LevelScenes;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Batched line of sight, closest rays and sphere queries on a mapped world, on 2 and 3 threads, against brute force. */
@ExtendWith(TracedReferences.class)
class MappedBatchQueriesTest {

    @TempDir
    Path dir;

    static Stream<TestWorld> worlds() {
        return Stream.of(TestWorld.clustered(20_000, 21), TestWorld.level(LevelScenes.Level.BOUNDS02));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerEachBatchedQueryLikeBruteForce(TestWorld world) throws IOException {
        Path file = dir.resolve(world.name + ".bxw");
        world = world.writeStored(file);
        int n = 400;
        double[] boxes = world.boxQueries(2 * n, 22);
        SplittableRandom random = new SplittableRandom(23);
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        double[] translations = new double[3 * n];
        double[] spheres = new double[4 * n];
        int[] ignoreA = new int[n];
        int[] ignoreB = new int[n];
        for (int i = 0; i < n; i++) {
            // from the centre of one query box to the centre of another: some lines blocked, some clear
            for (int a = 0; a < 3; a++) {
                from[3 * i + a] = 0.5 * (boxes[12 * i + a] + boxes[12 * i + 3 + a]);
                to[3 * i + a] = 0.5 * (boxes[12 * i + 6 + a] + boxes[12 * i + 9 + a]);
                translations[3 * i + a] = to[3 * i + a] - from[3 * i + a];
                spheres[4 * i + a] = from[3 * i + a];
            }
            spheres[4 * i + 3] = 0.5 * (boxes[12 * i + 3] - boxes[12 * i]);
            ignoreA[i] = random.nextInt(world.size());
            ignoreB[i] = random.nextBoolean() ? random.nextInt(world.size()) : Handles.NONE;
        }
        boolean[] visible = new boolean[n];
        int[] handles = new int[n];
        double[] fractions = new double[n];
        int max = 8;
        int[] found = new int[n * max];
        int[] counts = new int[n];
        TraversalStack stack = new TraversalStack();
        AnyHit any = new AnyHit();
        ClosestHit closest = new ClosestHit();
        AllOverlaps all = new AllOverlaps();
        try (MappedWorld mapped = MappedWorld.open(file)) {
            BruteForceIndex oracle = world.oracle(mapped);
            for (int threads = 2; threads <= 3; threads++) {
                try (BatchQueries batch = new BatchQueries(threads)) {
                    int blocked = 0;
                    int selected = 0;
                    for (int round = 0; round < 2; round++) {
                        long mask = round == 0 ? -1L : random.nextLong();
                        batch.lineOfSight(mapped, from, to, ignoreA, ignoreB, n, mask, visible);
                        batch.closestRays(mapped, from, translations, n, 1.0, mask, handles, fractions);
                        batch.spheres(mapped, spheres, n, RegionMode.CROSSING, mask, max, found, counts);
                        for (int i = 0; i < n; i++) {
                            String what = world.name + " threads " + threads + " mask " + mask + " query " + i;
                            any.setIgnored(ignoreA[i], ignoreB[i]);
                            oracle.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], translations[3 * i],
                                    translations[3 * i + 1], translations[3 * i + 2], 1.0, mask, any, stack);
                            assertEquals(!any.hasHit(), visible[i], what + " line of sight");
                            blocked += any.hasHit() ? 1 : 0;
                            oracle.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], translations[3 * i],
                                    translations[3 * i + 1], translations[3 * i + 2], 1.0, mask, closest, stack);
                            assertEquals(closest.hasHit() ? closest.handle() : Handles.NONE, handles[i],
                                    what + " ray");
                            assertEquals(closest.hasHit() ? closest.fraction() : -1.0, fractions[i], what + " ray");
                            all.reset();
                            oracle.querySphere(spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2],
                                    spheres[4 * i + 3], RegionMode.CROSSING, mask, null, all);
                            all.sort();
                            assertEquals(all.count(), counts[i], what + " sphere count");
                            for (int k = 0; k < Math.min(max, all.count()); k++) {
                                assertEquals(all.handle(k), found[i * max + k], what + " sphere " + k);
                            }
                            selected += all.count() > 0 ? 1 : 0;
                        }
                    }
                    assertTrue(blocked > 10 && blocked < 2 * n - 10, "some lines are blocked and some clear: " + blocked);
                    assertTrue(selected > n / 10, "some spheres select objects: " + selected);
                }
            }
        }
    }
}
