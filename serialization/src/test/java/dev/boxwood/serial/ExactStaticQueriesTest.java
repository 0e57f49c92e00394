package dev.boxwood.serial;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactChecks;
import dev.boxwood.testkit.ExactOracle;
import dev.boxwood.testkit.ExactWorkload;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Region queries and casts on mapped static worlds (written from a tree with a far, off-grid origin, and by the
 * writer's own origin rule) and on tiled worlds, checked against the exact reference ({@link ExactOracle}) on the
 * stored floats of each file by the frame rule. {@code -Dboxwood.exact.rounds=N} and {@code -Dboxwood.exact.seeds=N}
 * run more (defaults 20 and 2).
 */
class ExactStaticQueriesTest {

    private static final int ROUNDS = Integer.getInteger("boxwood.exact.rounds", 20);
    private static final int SEEDS = Integer.getInteger("boxwood.exact.seeds", 2);
    private static final double[][] ORIGINS = {{0, 0, 0}, {1e6 + 0.375, -2e6 - 0.125, 3.5e6},
        {123456789.125, -987654321.25, 5e8 + 0.5}, {1e9 + 0.3, 1e9 - 0.7, -1e9 + 0.1}};

    @TempDir
    Path dir;

    static Stream<Integer> seeds() {
        return IntStream.range(0, SEEDS * ORIGINS.length).boxed();
    }

    static void addWorld(ExactOracle oracle, MappedWorld w) throws IOException {
        int part = oracle.addPart(w.originX(), w.originY(), w.originZ());
        float[] boxes = w.readObjectBoxes();
        float[] f = new float[6];
        for (int h = 0; h < w.size(); h++) {
            System.arraycopy(boxes, 6 * h, f, 0, 6);
            oracle.add(part, h, f, w.categoryBits(h), w.userValue(h));
        }
    }

    static ExactWorkload.Target tiled(TiledWorld t, TiledWorld.Scratch s) {
        return new ExactWorkload.Target() {
            @Override
            public void queryAabb(double[] q, long mask, AllOverlaps out) {
                t.queryAabb(q[0], q[1], q[2], q[3], q[4], q[5], mask, out, s);
            }

            @Override
            public void querySphere(double x, double y, double z, double r, RegionMode mode, long mask,
                                    QueryFilter filter, AllOverlaps out) {
                t.querySphere(x, y, z, r, mode, mask, filter, out, s);
            }

            @Override
            public void queryBox(double[] q, RegionMode mode, long mask, QueryFilter filter, AllOverlaps out) {
                t.queryBox(q[0], q[1], q[2], q[3], q[4], q[5], mode, mask, filter, out, s);
            }

            @Override
            public void queryConvex(ConvexRegion region, RegionMode mode, long mask, QueryFilter filter,
                                    AllOverlaps out) {
                t.queryConvex(region, mode, mask, filter, out, s);
            }

            @Override
            public void rayCast(double[] o, double[] d, double maxF, long mask, RayCastVisitor visitor) {
                t.rayCast(o[0], o[1], o[2], d[0], d[1], d[2], maxF, mask, visitor, s);
            }

            @Override
            public void queryObb(double[] obb, int offset, RegionMode mode, long mask, QueryFilter filter,
                                 AllOverlaps out) {
                t.queryObb(obb, offset, mode, mask, filter, out, s);
            }
        };
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void shouldAnswerLikeTheExactReference(int seed) throws IOException {
        double[] origin = ORIGINS[seed % ORIGINS.length];
        SplittableRandom r = new SplittableRandom(0xfeedL * 17 + seed);
        double grid = 0.25;
        int n = 30 + r.nextInt(400);
        double[] boxes = new double[6 * n];
        long[] cats = new long[n];
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin[0], origin[1], origin[2]));
        // touching cells for half the seeds: oriented boxes flush with several faces at once
        boolean lattice = seed % 2 == 1;
        for (int i = 0; i < n; i++) {
            double[] b = lattice && r.nextInt(4) != 0 ? ExactWorkload.latticeBox(r, grid)
                    : ExactWorkload.frameBox(r, grid, 64);
            for (int k = 0; k < 6; k++) {
                boxes[6 * i + k] = origin[k % 3] + b[k];
            }
            cats[i] = 1L << r.nextInt(4);
            tree.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3], boxes[6 * i + 4],
                    boxes[6 * i + 5], i, cats[i]);
        }
        Path fromTree = dir.resolve("tree.bxw");
        StaticWorldWriter.write(fromTree, tree, tree.liveHandles(), null, null);
        Path own = dir.resolve("own.bxw");
        StaticWorldWriter.write(own, boxes, null, cats, null);
        List<Path> tiles = TileSetWriter.writeGrid(dir, "t", boxes, null, cats, grid * (8 + r.nextInt(64)));
        ExactChecks checks = new ExactChecks();
        ExactWorkload workload = new ExactWorkload(origin, grid, r, checks);
        TraversalStack stack = new TraversalStack();
        try (MappedWorld a = MappedWorld.open(fromTree); MappedWorld b = MappedWorld.open(own);
             TiledWorld t = TiledWorld.open(tiles, 1L << 22)) {
            ExactOracle oa = new ExactOracle();
            addWorld(oa, a);
            ExactOracle ob = new ExactOracle();
            addWorld(ob, b);
            ExactOracle ot = new ExactOracle();
            for (int i = 0; i < t.tileCount(); i++) {
                try (MappedWorld tile = MappedWorld.open(t.tileFile(i))) {
                    addWorld(ot, tile);
                }
            }
            TiledWorld.Scratch scratch = new TiledWorld.Scratch();
            for (int round = 0; round < ROUNDS; round++) {
                workload.round(ExactWorkload.of(a, stack), oa, "mapped(tree origin) seed " + seed + " round " + round);
                workload.round(ExactWorkload.of(b, stack), ob, "mapped(own origin) seed " + seed + " round " + round);
                workload.round(tiled(t, scratch), ot, "tiled seed " + seed + " round " + round);
                workload.obbRound(ExactWorkload.of(a, stack), oa, "mapped(tree origin) seed " + seed + " round "
                        + round);
                workload.obbRound(ExactWorkload.of(b, stack), ob, "mapped(own origin) seed " + seed + " round "
                        + round);
                workload.obbRound(tiled(t, scratch), ot, "tiled seed " + seed + " round " + round);
            }
        }
        assertTrue(checks.decided > 0);
        System.out.printf("exact static seed %d: decided %d, tolerated %d, reported %d, casts %d, slab extras %d,"
                        + " oriented box styles %s, worst false overlap %.3g of the scale%n", seed, checks.decided,
                checks.tolerated, checks.reported, checks.casts, checks.slabExtras,
                java.util.Arrays.toString(workload.obbStyles), workload.obbWorstFalseOverlap);
    }
}
