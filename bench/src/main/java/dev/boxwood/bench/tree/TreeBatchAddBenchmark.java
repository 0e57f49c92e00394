package dev.boxwood.bench.tree;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.testkit.scenes.BoxSet;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Adding a batch of {@code m} objects to a live tree of {@code n}: {@link DynamicAabbTree#addAll} against one
 * {@link DynamicAabbTree#add} per object, in the batch's order. The batch is the world's next {@code m} boxes,
 * either as they are ({@code spread}: thinly over the whole 10 km world) or squeezed into a 500 m square at its
 * corner ({@code tile}: a streamed-in tile, four times as dense as the world on average). Each invocation adds
 * the batch to the same tree, and the batch is removed again after it (outside the timing), so every shot starts
 * from the same tree with room for the batch: no array grows while timed.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 30)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "-Xms8g"})
@State(Scope.Thread)
public class TreeBatchAddBenchmark {

    /** Objects in the tree. */
    @Param({"1000000"})
    public int n;

    /** Objects in the batch. */
    @Param({"10000"})
    public int m;

    /** Where the batch lies: {@code spread} or {@code tile}. */
    @Param({"tile", "spread"})
    public String batch;

    private DynamicAabbTree tree;
    private double[] boxes;
    private int[] handles;

    /** Builds the tree of {@code n} boxes with room for the batch, and the batch. */
    @Setup
    public void setUp() {
        BoxSet world = PeerWorkload.of(n + m, 1).boxes();
        double[] all = world.toInterleaved();
        double[] bounds = world.bounds();
        double[] rest = java.util.Arrays.copyOf(all, 6 * n);
        boxes = java.util.Arrays.copyOfRange(all, 6 * n, 6 * (n + m));
        if ("tile".equals(batch)) {
            for (int i = 0; i < boxes.length; i += 6) {
                for (int a = 0; a < 2; a++) {
                    // 1/20 of the distance from the world's corner, size unchanged
                    double shift = (boxes[i + a] - bounds[a]) * 0.95;
                    boxes[i + a] -= shift;
                    boxes[i + 3 + a] -= shift;
                }
            }
        } else if (!"spread".equals(batch)) {
            throw new IllegalArgumentException("batch: " + batch);
        }
        tree = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(0.5 * (bounds[0] + bounds[3]),
                0.5 * (bounds[1] + bounds[4]), 0.5 * (bounds[2] + bounds[5])).withInitialCapacity(n + m), rest,
                null, null);
        handles = new int[m];
    }

    /** Takes the batch out again, so that the next shot starts from the same tree. */
    @TearDown(Level.Invocation)
    public void removeBatch() {
        for (int h : handles) {
            tree.remove(h);
        }
    }

    /**
     * The batch in one call.
     *
     * @return the handles
     */
    @Benchmark
    public int[] addAll() {
        handles = tree.addAll(boxes, null, null);
        return handles;
    }

    /**
     * One add per object.
     *
     * @return the handles
     */
    @Benchmark
    public int[] addOneByOne() {
        double[] b = boxes;
        int[] h = handles;
        for (int i = 0; i < h.length; i++) {
            int o = 6 * i;
            h[i] = tree.add(b[o], b[o + 1], b[o + 2], b[o + 3], b[o + 4], b[o + 5], i, -1L);
        }
        return h;
    }
}
