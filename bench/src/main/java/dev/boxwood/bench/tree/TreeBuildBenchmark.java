package dev.boxwood.bench.tree;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.testkit.scenes.BoxSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Indexing the whole clustered world: {@link DynamicAabbTree#build} (binned SAH, Wald 2007) against one
 * {@link DynamicAabbTree#add} per box (branch-and-bound insertion with rotations), one tree per shot. The
 * resulting {@link DynamicAabbTree#areaRatio()} of each is checked by {@code TreeQualityTest}, not here.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@State(Scope.Thread)
public class TreeBuildBenchmark {

    /** Number of boxes. */
    @Param({"100000", "1000000"})
    public int n;

    private BoxSet boxes;
    private double[] interleaved;

    /** Builds the world and its interleaved copy (the input of the bulk build). */
    @Setup
    public void setUp() {
        boxes = PeerWorkload.of(n, 1).boxes();
        interleaved = boxes.toInterleaved();
    }

    /**
     * Bulk build from the interleaved arrays.
     *
     * @return the tree
     */
    @Benchmark
    public DynamicAabbTree bulkBuild() {
        return DynamicAabbTree.build(TreeConfig.defaults(), interleaved, null, null);
    }

    /**
     * One insertion per box, in world order.
     *
     * @return the tree
     */
    @Benchmark
    public DynamicAabbTree insertOneByOne() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withInitialCapacity(n));
        BoxSet b = boxes;
        for (int i = 0; i < n; i++) {
            tree.add(b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i], i, -1L);
        }
        return tree;
    }
}
