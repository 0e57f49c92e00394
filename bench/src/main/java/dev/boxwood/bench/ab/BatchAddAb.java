package dev.boxwood.bench.ab;

import dev.boxwood.bench.tree.TreeBatchAddBenchmark;
import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.testkit.scenes.BoxSet;
import java.util.Locale;

/**
 * {@link DynamicAabbTree#addAll} against one {@link DynamicAabbTree#add} per object, the two alternating in one
 * JVM on the same tree (the workload of {@code TreeBatchAddBenchmark}: a tree of 1M boxes of the peer world with
 * room for the batch, the batch being the world's next {@code m} boxes, {@code spread} as they are or squeezed into
 * a 500 m {@code tile}; each side's batch is removed again after it). A cross-check of the JMH ratios on a noisy
 * machine, where single-shot runs of the same case differ by more than the change being measured.
 *
 * <pre>
 * java -Xms6g -Xmx6g -cp bench/target/benchmarks.jar dev.boxwood.bench.ab.BatchAddAb M spread|tile ROUNDS
 * </pre>
 *
 * Prints the median time of each side and the median and quartiles of the per-round speed ratio (one by one over
 * batch).
 */
public final class BatchAddAb {

    private static final int TREE = 1_000_000;
    private static final int WARM_UP_ROUNDS = 5;

    private BatchAddAb() {
    }

    /**
     * Runs the comparison.
     *
     * @param args M spread|tile ROUNDS
     */
    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: BatchAddAb M spread|tile ROUNDS");
            System.exit(2);
        }
        int m = Integer.parseInt(args[0]);
        String kind = args[1];
        int rounds = Integer.parseInt(args[2]);
        BoxSet world = PeerWorkload.of(TREE + m, 1).boxes();
        double[] batch = TreeBatchAddBenchmark.batch(world, TREE, m, kind);
        DynamicAabbTree tree = TreeBatchAddBenchmark.tree(world, TREE, m);
        double[] batchMs = new double[rounds];
        double[] oneMs = new double[rounds];
        double[] ratio = new double[rounds];
        int[] handles = new int[m];
        for (int r = -WARM_UP_ROUNDS; r < rounds; r++) {
            double batchNanos = 0;
            double oneNanos = 0;
            for (int side = 0; side < 2; side++) {
                // batch first in even rounds, one by one first in odd ones
                boolean asBatch = ((r & 1) == 0) == (side == 0);
                long start = System.nanoTime();
                if (asBatch) {
                    handles = tree.addAll(batch, null, null);
                } else {
                    for (int i = 0; i < m; i++) {
                        int o = 6 * i;
                        handles[i] = tree.add(batch[o], batch[o + 1], batch[o + 2], batch[o + 3], batch[o + 4],
                                batch[o + 5], 0, -1L);
                    }
                }
                long nanos = System.nanoTime() - start;
                if (asBatch) {
                    batchNanos = nanos;
                } else {
                    oneNanos = nanos;
                }
                tree.removeAll(handles);
            }
            if (r >= 0) {
                batchMs[r] = batchNanos / 1e6;
                oneMs[r] = oneNanos / 1e6;
                ratio[r] = oneNanos / batchNanos;
            }
        }
        System.out.printf(Locale.ROOT, "%d %s boxes into %d, %d rounds: %s%n", m, kind, TREE, rounds,
                RoundTimes.summary("addAll", batchMs, "one by one", oneMs, ratio));
    }
}
