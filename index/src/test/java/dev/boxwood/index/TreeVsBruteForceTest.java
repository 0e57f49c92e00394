package dev.boxwood.index;

import dev.boxwood.query.Handles;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.LevelScenes;
import dev.boxwood.testkit.scenes.MovingWorkload;
import dev.boxwood.testkit.scenes.SegmentSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Differential tests: every query kind of the tree against the brute-force oracle, through random mutations. */
class TreeVsBruteForceTest {

    static Stream<Arguments> worlds() {
        WorldFrame unit = WorldFrame.scaled(1e-4);
        WorldFrame far = WorldFrame.offset(1e6);
        // A compact clustered world (100 m instead of 10 km) so objects overlap and queries hit many of them.
        WorldFrame dense = WorldFrame.scaled(0.01);
        return Stream.of(
                Arguments.of("uniform unit scale", SyntheticWorld.uniform(3000, 11, unit).boxes(),
                        TreeConfig.defaults()),
                Arguments.of("clustered unit scale", SyntheticWorld.clustered(3000, 12, unit).boxes(),
                        TreeConfig.defaults().withMargin(1e-4, 0.125)),
                Arguments.of("clustered dense", SyntheticWorld.clustered(3000, 13, dense).boxes(),
                        TreeConfig.defaults()),
                Arguments.of("clustered 1e6 from origin, matching tree origin",
                        SyntheticWorld.clustered(3000, 14, far).boxes(),
                        TreeConfig.defaults().withOrigin(1e6 + 5000, 1e6 + 5000, 1e6 + 100)),
                Arguments.of("uniform 1e6 from origin, tree origin 0",
                        SyntheticWorld.uniform(3000, 15, far).boxes(), TreeConfig.defaults()),
                Arguments.of("clustered, no margin, no rotations",
                        SyntheticWorld.clustered(3000, 16, dense).boxes(),
                        TreeConfig.defaults().withMargin(0, 0).withRotations(false)),
                Arguments.of("clustered dense, deferred adds", SyntheticWorld.clustered(3000, 17, dense).boxes(),
                        TreeConfig.defaults().withDeferredAdds(true)),
                Arguments.of("level bounds01", LevelScenes.load(LevelScenes.Level.BOUNDS01), TreeConfig.defaults()),
                Arguments.of("level bounds02", LevelScenes.load(LevelScenes.Level.BOUNDS02), TreeConfig.defaults()),
                Arguments.of("level bounds03", LevelScenes.load(LevelScenes.Level.BOUNDS03), TreeConfig.defaults()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerLikeBruteForceThroughRandomMutations(String name, BoxSet pool, TreeConfig config) {
        Differential d = new Differential(pool, config, name.hashCode());
        d.run(2500, Math.min(pool.size(), 400), 1);
        assertTrue(d.hitsSeen > d.queries / 10, "queries should mostly hit something: " + d.hitsSeen);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerLikeBruteForceOnAFullWorld(String name, BoxSet pool, TreeConfig config) {
        Differential d = new Differential(pool, config, name.hashCode() * 31L);
        for (int i = 0; i < pool.size(); i++) {
            d.add(i);
        }
        d.tree.validate();
        for (int q = 0; q < 300; q++) {
            d.randomBoxQuery();
            d.randomRay();
        }
    }

    @Test
    void shouldAnswerTheSceneSegmentsAndBoxQueriesLikeBruteForce() {
        SyntheticWorld world = SyntheticWorld.clustered(5000, 21);
        Differential d = new Differential(world.boxes(), TreeConfig.defaults(), 21);
        for (int i = 0; i < world.boxes().size(); i++) {
            d.add(i);
        }
        BoxSet queries = world.boxQueries(200, 22);
        for (int i = 0; i < queries.size(); i++) {
            d.compareBoxQuery(queries.minX[i], queries.minY[i], queries.minZ[i],
                    queries.maxX[i], queries.maxY[i], queries.maxZ[i], -1L);
        }
        SegmentSet segments = world.segments(300, 23);
        for (int i = 0; i < segments.size(); i++) {
            d.compareRay(segments.originX[i], segments.originY[i], segments.originZ[i],
                    segments.translationX[i], segments.translationY[i], segments.translationZ[i], 1.0, -1L);
        }
        assertTrue(d.hitsSeen > 1000, "scene queries should hit: " + d.hitsSeen);
    }

    @Test
    void shouldAnswerLikeBruteForceWhileEverythingMovesWithPrediction() {
        // A dense world (1 km) so objects crowd each other; every object moves every tick with its displacement as
        // the prediction, exercising both the O(1) path and re-insertion with predictive fat boxes.
        SyntheticWorld world = SyntheticWorld.clustered(3000, 71, WorldFrame.scaled(0.1));
        MovingWorkload motion = world.moving(72);
        BoxSet boxes = motion.boxes();
        Differential d = new Differential(boxes, TreeConfig.defaults().withMargin(0.05, 0.125), 73);
        int[] handles = new int[boxes.size()];
        for (int i = 0; i < boxes.size(); i++) {
            handles[i] = d.add(i);
        }
        SegmentSet segments = world.segments(40, 74);
        BoxSet queries = world.boxQueries(40, 75);
        double[] fatBefore = new double[6];
        double[] fatAfter = new double[6];
        float[] parentBox = new float[6];
        int refittedInPlace = 0;
        int reinserted = 0;
        for (int tick = 0; tick < 60; tick++) {
            motion.tick();
            for (int i = 0; i < boxes.size(); i++) {
                // Which way the move must go: a new fat box inside the parent's box is refitted where it is.
                int slot = handles[i] & Handles.SLOT_MASK;
                int entry = d.tree.leafEntries[slot];
                boolean hasParent = entry >> 1 != DynamicAabbTree.HEADER;
                if (hasParent) {
                    int o = DynamicAabbTree.boxIndex(d.tree.parentEntries[entry >> 1]);
                    for (int k = 0; k < 6; k++) {
                        parentBox[k] = DynamicAabbTree.f(d.tree.records[o + k]);
                    }
                }
                d.tree.getFatBox(handles[i], fatBefore);
                d.tree.move(handles[i], boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i],
                        boxes.maxZ[i], motion.displacementX[i], motion.displacementY[i], motion.displacementZ[i]);
                d.brute.move(handles[i], boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i],
                        boxes.maxZ[i]);
                d.tree.getFatBox(handles[i], fatAfter);
                if (!Arrays.equals(fatBefore, fatAfter)) {
                    double ox = d.tree.originX();
                    double oy = d.tree.originY();
                    double oz = d.tree.originZ();
                    boolean inside = hasParent && parentBox[0] <= fatAfter[0] - ox && parentBox[1] <= fatAfter[1] - oy
                            && parentBox[2] <= fatAfter[2] - oz && parentBox[3] >= fatAfter[3] - ox
                            && parentBox[4] >= fatAfter[4] - oy && parentBox[5] >= fatAfter[5] - oz;
                    if (inside) {
                        refittedInPlace++;
                        assertEquals(entry, d.tree.leafEntries[slot], "refitted in place, same entry");
                    } else {
                        reinserted++;
                    }
                }
                if (tick < 3) {
                    d.tree.validate();
                }
            }
            d.tree.validate();
            for (int q = 0; q < 10; q++) {
                int s = (tick * 10 + q) % segments.size();
                d.compareRay(segments.originX[s], segments.originY[s], segments.originZ[s],
                        segments.translationX[s], segments.translationY[s], segments.translationZ[s], 1.0, -1L);
                d.compareBoxQuery(queries.minX[s], queries.minY[s], queries.minZ[s],
                        queries.maxX[s], queries.maxY[s], queries.maxZ[s], -1L);
                d.randomRay();
            }
        }
        assertTrue(d.hitsSeen > 1000, "queries should hit: " + d.hitsSeen);
        System.out.println("moves: " + refittedInPlace + " refitted in place, " + reinserted + " re-inserted");
        assertTrue(refittedInPlace > 100 && reinserted > 100,
                "both ways of changing a fat box: " + refittedInPlace + " in place, " + reinserted + " re-inserted");
    }

    @Test
    @Tag("long")
    void shouldAnswerLikeBruteForceThroughMillionsOfOperations() {
        // the last two seeds with deferred adds: each round's 10,000 mutations leave objects pending for its queries
        for (long seed = 0; seed < 6; seed++) {
            BoxSet pool = SyntheticWorld.clustered(20000, 100 + seed, WorldFrame.scaled(0.05)).boxes();
            Differential d = new Differential(pool, TreeConfig.defaults().withDeferredAdds(seed >= 4), seed);
            d.validateEvery = 997;
            for (int round = 0; round < 50; round++) {
                d.run(10000, 5000, 0);
                for (int q = 0; q < 200; q++) {
                    d.randomBoxQuery();
                    d.randomRay();
                }
            }
        }
    }
}
