package dev.boxwood.index;

import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactChecks;
import dev.boxwood.testkit.ExactOracle;
import dev.boxwood.testkit.ExactWorkload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Oriented-box region queries ({@code queryObb}, every {@link dev.boxwood.query.RegionMode}) on trees built in bulk,
 * with deferred adds, rebuilt, optimized and compacted, checked against the exact reference ({@link ExactOracle#obb}:
 * the separating axes of the solid the index tests, in BigDecimal, on the stored floats, with the box moved into the
 * frame and its axes re-orthonormalized as {@code Obb.copyForQuery} does). Grid worlds touching exactly, lattices of
 * boxes touching one another (nodes flush with objects in zero-margin trees), zero-size boxes, far origins (the trees
 * mutated at random and their read views are asked the same in {@link ExactRegionCastTest}); oriented boxes
 * axis-aligned, rotated by Pythagorean angles, integer quaternions, tiny angles or at random, with zero half extents,
 * features placed at gaps from {@code 2^-6} to {@code 2^-52} of their scale. {@code -Dboxwood.exact.rounds=N} runs more
 * rounds per seed (default 24), {@code -Dboxwood.exact.seeds=N} more seeds (default 2).
 */
class ExactObbQueriesTest {

    private static final int ROUNDS = Integer.getInteger("boxwood.exact.rounds", 24);
    private static final int SEEDS = Integer.getInteger("boxwood.exact.seeds", 2);
    private static final double[][] ORIGINS = ExactRegionCastTest.ORIGINS;

    static Stream<Integer> seeds() {
        return IntStream.range(0, SEEDS * ORIGINS.length).boxed();
    }

    /**
     * Oriented boxes (also asked in {@link ExactRegionCastTest}'s mutated trees and views) on trees built other ways:
     * bulk-built ({@code DynamicAabbTree.build}), with deferred adds taken in by the first query, rebuilt, optimized
     * and compacted between rounds, with and without margins.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void shouldAnswerOrientedBoxesOnBuiltDeferredAndRebuiltTrees(int seed) {
        double[] origin = ORIGINS[(seed + 2) % ORIGINS.length];
        SplittableRandom r = new SplittableRandom(0x0bbdL * 37 + seed);
        double grid = 0.25;
        TreeConfig config = TreeConfig.defaults().withOrigin(origin[0], origin[1], origin[2]);
        if (seed % 2 == 1) {
            config = config.withMargin(0, 0);
        }
        int n = 40 + r.nextInt(300);
        long[] cats = new long[n];
        double[] boxes = worldBoxes(r, origin, grid, cats);
        DynamicAabbTree tree;
        boolean deferred = seed % 3 == 2;
        if (deferred) {
            tree = new DynamicAabbTree(config.withDeferredAdds(true));
        } else {
            tree = DynamicAabbTree.build(config, boxes, null, cats);
        }
        ExactChecks checks = new ExactChecks();
        ExactWorkload workload = new ExactWorkload(origin, grid, r, checks);
        TraversalStack stack = new TraversalStack();
        int added = 0;
        for (int round = 0; round < ROUNDS; round++) {
            if (deferred) {
                // a batch of pending adds, taken in by the oriented-box query itself
                int batch = Math.min(n - added, r.nextInt(1, 80));
                for (int i = added; i < added + batch; i++) {
                    tree.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3], boxes[6 * i + 4],
                            boxes[6 * i + 5], i, cats[i]);
                }
                added += batch;
            } else {
                switch (round % 4) {
                    case 1 -> tree.rebuild(r.nextBoolean());
                    case 2 -> tree.optimize(r.nextInt(1, 64));
                    case 3 -> tree.compact();
                    default -> {
                    }
                }
                tree.validate();
            }
            ExactOracle oracle = ExactRegionCastTest.oracleOf(tree);
            for (int q = 0; q < 4; q++) {
                workload.obbRound(ExactWorkload.of(tree, stack), oracle, (deferred ? "deferred" : "built")
                        + " tree seed " + seed + " round " + round);
            }
        }
        tree.validate();
        assertTrue(checks.decided > 0);
        System.out.printf("exact obb built seed %d: decided %d, tolerated %d, reported %d, worst false overlap %.3g"
                        + " of the scale%n", seed, checks.decided, checks.tolerated, checks.reported,
                workload.obbWorstFalseOverlap);
    }
    /**
     * World boxes, half of them lattice cells and half grid boxes, with one category each.
     *
     * @param cats receives the categories; its length is the number of boxes
     */
    private static double[] worldBoxes(SplittableRandom r, double[] origin, double grid, long[] cats) {
        double[] boxes = new double[6 * cats.length];
        for (int i = 0; i < cats.length; i++) {
            double[] b = r.nextBoolean() ? ExactWorkload.latticeBox(r, grid) : ExactWorkload.frameBox(r, grid, 64);
            for (int k = 0; k < 6; k++) {
                boxes[6 * i + k] = origin[k % 3] + b[k];
            }
            cats[i] = 1L << r.nextInt(4);
        }
        return boxes;
    }

    /**
     * A tree large enough that region queries hold objects back and decide them in batches
     * ({@code TraversalStack.defersObjects}, from 2^18 nodes), bulk-built and then mutated, and a read view of it:
     * 270,000 objects, in the long profile.
     */
    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.Tag("long")
    void shouldAnswerOrientedBoxesOnATreeThatDefersObjects() {
        double[] origin = ORIGINS[1];
        SplittableRandom r = new SplittableRandom(0x0bbeL);
        double grid = 0.25;
        int n = 270_000;
        long[] cats = new long[n];
        double[] boxes = worldBoxes(r, origin, grid, cats);
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(origin[0], origin[1],
                origin[2]).withMargin(0, 0), boxes, null, cats);
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        ExactChecks checks = new ExactChecks();
        ExactWorkload workload = new ExactWorkload(origin, grid, r, checks);
        TraversalStack stack = new TraversalStack();
        snapshots.publish();
        try (ReadView view = snapshots.acquire()) {
            ExactOracle viewOracle = ExactRegionCastTest.oracleOf(view);
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < 50; i++) {
                    double[] b = ExactWorkload.latticeBox(r, grid);
                    tree.move(r.nextInt(n), origin[0] + b[0], origin[1] + b[1], origin[2] + b[2], origin[0] + b[3],
                            origin[1] + b[4], origin[2] + b[5]);
                }
                assertTrue(TraversalStack.defersObjects(tree.nodeHighWater));
                ExactOracle oracle = ExactRegionCastTest.oracleOf(tree);
                workload.obbRound(ExactWorkload.of(tree, stack), oracle, "large tree round " + round);
                workload.obbRound(ExactWorkload.of(view, stack), viewOracle, "large view round " + round);
            }
        }
        tree.validate();
        System.out.printf("exact obb large: decided %d, tolerated %d, reported %d%n", checks.decided,
                checks.tolerated, checks.reported);
    }
}
