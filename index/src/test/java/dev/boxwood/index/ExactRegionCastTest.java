package dev.boxwood.index;

import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactChecks;
import dev.boxwood.testkit.ExactOracle;
import dev.boxwood.testkit.ExactWorkload;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.SegmentCollector;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.RegionMode;
import dev.boxwood.testkit.ExactGeometry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Region queries and casts through the tree and its read views, checked against an exact reference ({@link
 * ExactOracle}: BigDecimal arithmetic on the stored floats by the documented frame rule), not against the brute force,
 * which shares the library's kernels. Worlds on a grid whose faces touch each other and the queries exactly, far
 * origins (dyadic, so that grid points are exact in both frames), zero-size boxes (which get no margin, so nodes lie
 * flush with objects), lattices of touching boxes, random mutations with {@code validate()}, and read views held across
 * mutations; every round asks box, sphere, frustum and oriented-box regions and casts. {@code -Dboxwood.exact.rounds=N}
 * runs more rounds per seed (default 60), {@code -Dboxwood.exact.seeds=N} more seeds (default 4).
 */
class ExactRegionCastTest {

    private static final int ROUNDS = Integer.getInteger("boxwood.exact.rounds", 60);
    private static final int SEEDS = Integer.getInteger("boxwood.exact.seeds", 4);
    static final double[][] ORIGINS = {{0, 0, 0}, {1e6 + 0.375, -2e6 - 0.125, 3.5e6},
        {123456789.125, -987654321.25, 5e8 + 0.5}, {1e9 + 0.3, 1e9 - 0.7, -1e9 + 0.1}, {-7.5e8 - 0.0625, 17, 1e7}};

    static Stream<Integer> seeds() {
        return IntStream.range(0, SEEDS * ORIGINS.length).boxed();
    }

    static ExactOracle oracleOf(ReadableTree tree) {
        ExactOracle oracle = new ExactOracle();
        int part = oracle.addPart(tree.originX(), tree.originY(), tree.originZ());
        float[] f = new float[6];
        for (int h : tree.liveHandles()) {
            tree.getStoredTightBox(h, f);
            oracle.add(part, h, f, tree.categoryBits(h), tree.userValue(h));
        }
        return oracle;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void shouldAnswerLikeTheExactReferenceThroughMutationsAndViews(int seed) {
        double[] origin = ORIGINS[seed % ORIGINS.length];
        SplittableRandom r = new SplittableRandom(0x5eedL * 31 + seed);
        double grid = 0.25;
        TreeConfig config = TreeConfig.defaults().withOrigin(origin[0], origin[1], origin[2]);
        if (seed % 3 == 1) {
            config = config.withMargin(0, 0);
        }
        DynamicAabbTree tree = new DynamicAabbTree(config);
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        List<Integer> live = new ArrayList<>();
        ExactChecks checks = new ExactChecks();
        ExactWorkload workload = new ExactWorkload(origin, grid, r, checks);
        TraversalStack stack = new TraversalStack();
        ReadView held = null;
        ExactOracle heldOracle = null;
        int target = 20 + r.nextInt(200);
        boolean lattice = seed % 3 == 0;
        for (int round = 0; round < ROUNDS; round++) {
            int ops = r.nextInt(1, 12);
            for (int i = 0; i < ops; i++) {
                int op = live.size() < target ? r.nextInt(3) : r.nextInt(1, 4);
                if (op <= 1) {
                    double[] b = lattice && r.nextInt(4) != 0 ? ExactWorkload.latticeBox(r, grid)
                            : ExactWorkload.frameBox(r, grid, 4096);
                    int h = tree.add(origin[0] + b[0], origin[1] + b[1], origin[2] + b[2], origin[0] + b[3],
                            origin[1] + b[4], origin[2] + b[5], r.nextLong(), 1L << r.nextInt(4));
                    live.add(h);
                } else if (op == 2 && !live.isEmpty()) {
                    int h = live.get(r.nextInt(live.size()));
                    double[] b = lattice && r.nextInt(4) != 0 ? ExactWorkload.latticeBox(r, grid)
                            : ExactWorkload.frameBox(r, grid, 4096);
                    tree.move(h, origin[0] + b[0], origin[1] + b[1], origin[2] + b[2], origin[0] + b[3],
                            origin[1] + b[4], origin[2] + b[5]);
                } else if (!live.isEmpty()) {
                    tree.remove(live.remove(r.nextInt(live.size())));
                }
            }
            tree.validate();
            ExactOracle oracle = oracleOf(tree);
            workload.round(ExactWorkload.of(tree, stack), oracle, "tree seed " + seed + " round " + round);
            workload.obbRound(ExactWorkload.of(tree, stack), oracle, "tree seed " + seed + " round " + round);
            if (round % 7 == 0) {
                if (held != null) {
                    // held across the mutations since: still answers from its own boxes
                    workload.round(ExactWorkload.of(held, stack), heldOracle, "held view seed " + seed);
                    workload.obbRound(ExactWorkload.of(held, stack), heldOracle, "held view seed " + seed);
                    held.close();
                }
                snapshots.publish();
                held = snapshots.acquire();
                heldOracle = oracleOf(held);
                workload.round(ExactWorkload.of(held, stack), heldOracle, "fresh view seed " + seed);
                workload.obbRound(ExactWorkload.of(held, stack), heldOracle, "fresh view seed " + seed);
            }
        }
        if (held != null) {
            held.close();
        }
        assertTrue(checks.decided > 0);
        System.out.printf("exact seed %d: decided %d, tolerated %d, reported %d, casts %d, slab extras %d, oriented"
                        + " box styles %s, worst false overlap %.3g of the scale%n", seed, checks.decided,
                checks.tolerated, checks.reported, checks.casts, checks.slabExtras,
                java.util.Arrays.toString(workload.obbStyles), workload.obbWorstFalseOverlap);
    }

    /**
     * The exact-test hook through the tree: each object's shape is its box shrunk by a quarter of its extent per
     * side (the whole box when flat), intersected exactly in world coordinates (rounded once to double); the
     * closest hit must be the least of these values, ties to the lower handle, any-hit and all-hits must agree.
     * Grid boxes and dyadic origins only, so the frame conversion is exact and no shape hit hides behind a box the
     * index misses by rounding.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void shouldHonourTheExactTestHook(int seed) {
        double[] origin = ORIGINS[seed % ORIGINS.length];
        SplittableRandom r = new SplittableRandom(0x400cL * 7 + seed);
        double grid = 0.25;
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin[0], origin[1], origin[2])
                .withMargin(seed % 2 == 0 ? 0 : 0.1, 0.125));
        int n = 20 + r.nextInt(150);
        double[][] shape = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] b;
            do {
                b = ExactWorkload.frameBox(r, grid, 4096);
            } while (b[0] != Math.rint(b[0] / grid) * grid || b[3] != Math.rint(b[3] / grid) * grid);
            double[] w = new double[6];
            double[] s = new double[6];
            for (int k = 0; k < 3; k++) {
                w[k] = origin[k] + b[k];
                w[k + 3] = origin[k] + b[k + 3];
                double q = (b[k + 3] - b[k]) / 4;
                s[k] = origin[k] + (b[k] + q);
                s[k + 3] = origin[k] + (b[k + 3] - q);
            }
            int h = tree.add(w[0], w[1], w[2], w[3], w[4], w[5], i, 1L << r.nextInt(3));
            shape[h] = s;
        }
        tree.validate();
        int[] calls = new int[1];
        dev.boxwood.query.SegmentIntersector hook = (handle, uv, ox, oy, oz, dx, dy, dz, maxF) -> {
            calls[0]++;
            ExactGeometry.SegmentResult res = ExactGeometry.segment(new double[] {ox, oy, oz},
                    new double[] {dx, dy, dz}, maxF, shape[handle]);
            return res.hit ? res.entry.value().doubleValue() : -1.0;
        };
        ClosestHit closest = new ClosestHit();
        AnyHit any = new AnyHit();
        AllHits all = new AllHits();
        TraversalStack stack = new TraversalStack();
        for (int q = 0; q < 40 * ROUNDS; q++) {
            double[] o = new double[3];
            double[] d = new double[3];
            int style = r.nextInt(3);
            for (int k = 0; k < 3; k++) {
                o[k] = origin[k] + grid * r.nextInt(-80, 80) / (style == 2 ? 2 : 1);
                d[k] = style == 0 ? (k == q % 3 ? grid * r.nextInt(-300, 300) : 0.0) : grid * r.nextInt(-100, 100);
            }
            double maxF = r.nextInt(4) == 0 ? r.nextDouble(0, 1) : 1.0;
            long mask = r.nextInt(3) == 0 ? 1L : -1L;
            int ignored = r.nextInt(3) == 0 ? r.nextInt(n) : -1;
            // the reference: the hook's values of the eligible shapes
            double best = -1;
            int bestHandle = -1;
            java.util.Set<Integer> hitSet = new java.util.HashSet<>();
            for (int h = 0; h < n; h++) {
                if ((tree.categoryBits(h) & mask) == 0 || h == ignored) {
                    continue;
                }
                double t = hook.intersect(h, h, o[0], o[1], o[2], d[0], d[1], d[2], maxF);
                if (t >= 0) {
                    hitSet.add(h);
                    if (bestHandle < 0 || t < best) {
                        best = t;
                        bestHandle = h;
                    }
                }
            }
            for (SegmentCollector c : new SegmentCollector[] {closest, any, all}) {
                c.setExactTest(hook);
                c.setIgnored(ignored, -1);
                tree.rayCast(o[0], o[1], o[2], d[0], d[1], d[2], maxF, mask, c, stack);
            }
            String what = "seed " + seed + " o " + java.util.Arrays.toString(o) + " d " + java.util.Arrays.toString(d)
                    + " maxF " + maxF + " mask " + mask + " ignored " + ignored;
            org.junit.jupiter.api.Assertions.assertEquals(bestHandle, closest.hasHit() ? closest.handle() : -1,
                    what + " closest handle (fraction " + closest.fraction() + ", expected " + best + ")");
            if (bestHandle >= 0) {
                org.junit.jupiter.api.Assertions.assertEquals(best, closest.fraction(), what);
            }
            org.junit.jupiter.api.Assertions.assertEquals(!hitSet.isEmpty(), any.hasHit(), what + " any");
            java.util.Set<Integer> got = new java.util.HashSet<>();
            for (int i = 0; i < all.count(); i++) {
                got.add(all.handle(i));
            }
            org.junit.jupiter.api.Assertions.assertEquals(hitSet, got, what + " all");
        }
        assertTrue(calls[0] > 0);
    }
}
