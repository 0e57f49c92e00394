package dev.boxwood.bench.tree;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
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
 * Moving a tree's origin by a kilometre, back and forth, on the peer world of {@code n} boxes: {@code move} is
 * {@link DynamicAabbTree#moveOrigin} on the tree; {@code build} is what an application that keeps its double boxes
 * could do instead, a bulk build of them with the new origin (binned SAH, on the common pool).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms8g", "-Xmx8g"})
@State(Scope.Thread)
public class TreeMoveOriginBenchmark {

    /** Number of boxes. */
    @Param({"100000", "1000000"})
    public int n;

    /** {@code move} or {@code build}. */
    @Param({"move", "build"})
    public String kind;

    private double[] boxes;
    private DynamicAabbTree tree;
    private double x0;
    private double y0;
    private double z0;
    private boolean away;

    /** Builds the world and the tree. */
    @Setup(Level.Trial)
    public void setUp() {
        boxes = PeerWorkload.of(n, 1).boxes().toInterleaved();
        tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes, null, null);
        x0 = tree.originX();
        y0 = tree.originY();
        z0 = tree.originZ();
        if (!kind.equals("move") && !kind.equals("build")) {
            throw new IllegalArgumentException("unknown kind " + kind);
        }
    }

    /**
     * One move of the origin, a kilometre east and back on alternate calls.
     *
     * @return the tree (kept alive)
     */
    @Benchmark
    public DynamicAabbTree moveOrigin() {
        away = !away;
        double x = away ? x0 + 1000 : x0;
        if (kind.equals("move")) {
            tree.moveOrigin(x, y0, z0);
            return tree;
        }
        return DynamicAabbTree.build(TreeConfig.defaults().withOrigin(x, y0, z0), boxes, null, null);
    }
}
