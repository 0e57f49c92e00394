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
        boxes = batch(world, n, m, batch);
        tree = tree(world, n, m);
        handles = new int[m];
    }

    /**
     * The batch: boxes {@code n .. n + m - 1} of {@code world}, as they are ({@code spread}) or squeezed towards
     * the world's minimum corner to 1/20 of their distance from it, sizes unchanged ({@code tile}).
     *
     * @param world the boxes
     * @param n     boxes before the batch
     * @param m     boxes in the batch
     * @param kind  {@code spread} or {@code tile}
     * @return the batch, stride 6
     */
    public static double[] batch(BoxSet world, int n, int m, String kind) {
        double[] bounds = world.bounds();
        double[] boxes = java.util.Arrays.copyOfRange(world.toInterleaved(), 6 * n, 6 * (n + m));
        if ("tile".equals(kind)) {
            for (int i = 0; i < boxes.length; i += 6) {
                for (int a = 0; a < 2; a++) {
                    double shift = (boxes[i + a] - bounds[a]) * 0.95;
                    boxes[i + a] -= shift;
                    boxes[i + 3 + a] -= shift;
                }
            }
        } else if (!"spread".equals(kind)) {
            throw new IllegalArgumentException("batch: " + kind);
        }
        return boxes;
    }

    /**
     * The tree: boxes {@code 0 .. n - 1} of {@code world} bulk-built, origin at the world's centre, room for
     * {@code m} more.
     *
     * @param world the boxes
     * @param n     boxes in the tree
     * @param m     room for this many more
     * @return the tree
     */
    public static DynamicAabbTree tree(BoxSet world, int n, int m) {
        return tree(world, n, m, false);
    }

    /**
     * {@link #tree(BoxSet, int, int)}, with or without {@link TreeConfig#withDeferredAdds deferred adds}.
     *
     * @param world the boxes
     * @param n     boxes in the tree
     * @param m     room for this many more
     * @param deferredAdds whether later adds are deferred
     * @return the tree
     */
    public static DynamicAabbTree tree(BoxSet world, int n, int m, boolean deferredAdds) {
        double[] bounds = world.bounds();
        return DynamicAabbTree.build(TreeConfig.defaults().withOrigin(0.5 * (bounds[0] + bounds[3]),
                0.5 * (bounds[1] + bounds[4]), 0.5 * (bounds[2] + bounds[5])).withInitialCapacity(n + m)
                        .withDeferredAdds(deferredAdds),
                java.util.Arrays.copyOf(world.toInterleaved(), 6 * n), null, null);
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
