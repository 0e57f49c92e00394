package dev.boxwood.bench.tree;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.MovingWorkload;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The moving workload on the clustered world of {@value #N} boxes, maintained by the tree alone: one invocation
 * is one tick in which every box takes a small random-walk step (with its displacement as the prediction), then
 * the chosen maintenance runs. The score is box updates per second; compare the maintenance variants with each
 * other, and with {@code PeerMoveBenchmark}'s brute-force row for the harness's own cost.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@State(Scope.Thread)
public class TreeMoveBenchmark {

    /** Number of moving boxes. */
    public static final int N = 100_000;

    /**
     * Maintenance per tick: {@code none}; {@code optimize-100} ({@code optimize(100)}, the budget
     * {@code TreeQualityTest} uses for 100k objects); {@code partial-rebuild} ({@code rebuild(false)}).
     */
    @Param({"none", "optimize-100", "partial-rebuild"})
    public String maintenance;

    private DynamicAabbTree tree;
    private MovingWorkload moving;
    private int budget;
    private boolean partial;

    /** Builds the world, the bulk-built tree and the walk. */
    @Setup
    public void setUp() {
        PeerWorkload workload = PeerWorkload.of(N, 1);
        tree = DynamicAabbTree.build(TreeConfig.defaults(), workload.boxes().toInterleaved(), null, null);
        moving = workload.world().moving(PeerWorkload.MOVE_SEED);
        switch (maintenance) {
            case "none" -> budget = 0;
            case "optimize-100" -> budget = 100;
            case "partial-rebuild" -> partial = true;
            default -> throw new IllegalArgumentException("unknown maintenance " + maintenance);
        }
    }

    /** One tick: every box moves once, then the maintenance step. */
    @Benchmark
    @OperationsPerInvocation(N)
    public void tick() {
        moving.tick();
        BoxSet b = moving.boxes();
        DynamicAabbTree t = tree;
        for (int i = 0; i < N; i++) {
            t.move(i, b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i],
                    moving.displacementX[i], moving.displacementY[i], moving.displacementZ[i]);
        }
        if (budget > 0) {
            t.optimize(budget);
        }
        if (partial) {
            t.rebuild(false);
        }
    }
}
