package dev.boxwood.bench.tree;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.testkit.scenes.BoxSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Rebuilding a tree of {@code n} clustered boxes: {@code full} rebuilds every node; {@code partial} rebuilds only
 * what changed after {@code touchedPercent} % of the objects were teleported to other objects' places (each
 * teleport re-inserts a leaf and touches two root paths), keeping the untouched subtrees. The teleports run in
 * the per-invocation setup, outside the measured time.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@State(Scope.Thread)
public class TreeRebuildBenchmark {

    /** Number of boxes. */
    @Param({"100000"})
    public int n;

    /** Rebuild kind: {@code full} or {@code partial}. */
    @Param({"full", "partial"})
    public String kind;

    /** Percentage of objects teleported before each rebuild. */
    @Param({"1", "10"})
    public int touchedPercent;

    private BoxSet boxes;
    private DynamicAabbTree tree;
    private SplittableRandom random;
    private boolean full;

    /** Builds the world and the tree. */
    @Setup(Level.Trial)
    public void setUp() {
        boxes = PeerWorkload.of(n, 1).boxes();
        tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        random = new SplittableRandom(PeerWorkload.MOVE_SEED);
        full = switch (kind) {
            case "full" -> true;
            case "partial" -> false;
            default -> throw new IllegalArgumentException("unknown kind " + kind);
        };
    }

    /** Teleports {@code touchedPercent} % of the objects onto other objects' boxes. */
    @Setup(Level.Invocation)
    public void touch() {
        int count = (int) ((long) n * touchedPercent / 100);
        BoxSet b = boxes;
        for (int k = 0; k < count; k++) {
            int i = random.nextInt(n);
            int j = random.nextInt(n);
            tree.move(i, b.minX[j], b.minY[j], b.minZ[j], b.maxX[j], b.maxY[j], b.maxZ[j]);
        }
    }

    /**
     * One rebuild.
     *
     * @return the tree
     */
    @Benchmark
    public DynamicAabbTree rebuild() {
        tree.rebuild(full);
        return tree;
    }
}
