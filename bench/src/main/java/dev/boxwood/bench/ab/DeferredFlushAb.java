package dev.boxwood.bench.ab;

import dev.boxwood.bench.tree.TreeBatchAddBenchmark;
import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where {@link TreeConfig#withDeferredAdds deferred adds} should rebuild: a bulk-built tree of {@code T} boxes
 * (clustered world, unit scale) takes {@code p} more, added one by one, either inserted at once or pending and
 * taken in by {@link DynamicAabbTree#flushAdds()} (a full rebuild whenever the tree's rule picks it, and with
 * {@code p = T} or more it always does); the two alternate in one JVM, 7 rounds after 3 of warm-up, for
 * {@code p = T, T/2, T/4, T/8}.
 * The figures behind {@code DynamicAabbTree.BULK_FLUSH_LARGE_TREE}.
 *
 * <p>With three arguments, the batches of {@code TreeBatchAddBenchmark} instead: {@code M} boxes of the peer world,
 * {@code spread} as they are or squeezed into a 500 m {@code tile}, added one by one to a tree of 1M, inserted at
 * once or deferred and taken in by {@code flushAdds()} (two trees, one of each kind, the sides alternating and each
 * batch removed again after it). With {@code -Dcontrol=true} the second tree inserts at once too: what two trees
 * differ by without any change (their arrays lie in different places of the heap).
 *
 * <pre>
 * java -Xms12g -Xmx12g -cp bench/target/benchmarks.jar dev.boxwood.bench.ab.DeferredFlushAb T
 * java -Xms12g -Xmx12g -cp bench/target/benchmarks.jar dev.boxwood.bench.ab.DeferredFlushAb M spread|tile ROUNDS
 * </pre>
 *
 * Prints the median time of each way, the area ratio each left (for {@code T}), and their speed ratio (insertion
 * time over deferred time; for batches its median and quartiles over the rounds).
 */
public final class DeferredFlushAb {

    private static final int ROUNDS = 7;
    private static final int WARM_UP_ROUNDS = 3;
    /** The tree of the batch comparison: 1M boxes of the peer world. */
    private static final int TREE = 1_000_000;

    private DeferredFlushAb() {
    }

    /**
     * Runs the comparison.
     *
     * @param args T, the objects in the tree before the adds
     */
    public static void main(String[] args) {
        if (args.length == 3) {
            batches(Integer.parseInt(args[0]), args[1], Integer.parseInt(args[2]));
            return;
        }
        if (args.length != 1) {
            System.err.println("usage: DeferredFlushAb T | DeferredFlushAb M spread|tile ROUNDS");
            System.exit(2);
        }
        int t = Integer.parseInt(args[0]);
        for (int div : new int[] {1, 2, 4, 8}) {
            int p = t / div;
            BoxSet boxes = SyntheticWorld.clustered(t + p, 7, WorldFrame.scaled(1)).boxes();
            double[] first = Arrays.copyOf(boxes.toInterleaved(), 6 * t);
            long[] inserted = new long[ROUNDS];
            long[] deferred = new long[ROUNDS];
            double insertedRatio = 0;
            double deferredRatio = 0;
            for (int r = -WARM_UP_ROUNDS; r < ROUNDS; r++) {
                for (int side = 0; side < 2; side++) {
                    boolean defer = (side == 0) == ((r & 1) == 0);
                    TreeConfig config = TreeConfig.defaults().withInitialCapacity(t + p).withDeferredAdds(defer);
                    DynamicAabbTree tree = DynamicAabbTree.build(config, first, null, null);
                    System.gc();
                    long start = System.nanoTime();
                    for (int i = t; i < t + p; i++) {
                        tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i],
                                boxes.maxZ[i], i, -1L);
                    }
                    tree.flushAdds();
                    long elapsed = System.nanoTime() - start;
                    if (r < 0) {
                        continue;
                    }
                    if (defer) {
                        deferred[r] = elapsed;
                        deferredRatio = tree.areaRatio();
                    } else {
                        inserted[r] = elapsed;
                        insertedRatio = tree.areaRatio();
                    }
                }
            }
            Arrays.sort(inserted);
            Arrays.sort(deferred);
            long mi = inserted[ROUNDS / 2];
            long md = deferred[ROUNDS / 2];
            System.out.printf(Locale.ROOT, "T=%d p=%d: inserted %.1f ms (area ratio %.2f), deferred %.1f ms (area"
                    + " ratio %.2f), speed %.2fx%n", t, p, mi / 1e6, insertedRatio, md / 1e6, deferredRatio,
                    (double) mi / md);
        }
    }

    private static void batches(int m, String kind, int rounds) {
        BoxSet world = PeerWorkload.of(TREE + m, 1).boxes();
        double[] batch = TreeBatchAddBenchmark.batch(world, TREE, m, kind);
        DynamicAabbTree immediate = TreeBatchAddBenchmark.tree(world, TREE, m, false);
        DynamicAabbTree deferred = TreeBatchAddBenchmark.tree(world, TREE, m, !Boolean.getBoolean("control"));
        double[] insertedMs = new double[rounds];
        double[] deferredMs = new double[rounds];
        double[] ratio = new double[rounds];
        int[] handles = new int[m];
        for (int r = -WARM_UP_ROUNDS; r < rounds; r++) {
            long[] nanos = new long[2];
            for (int side = 0; side < 2; side++) {
                boolean defer = ((r & 1) == 0) == (side == 0);
                DynamicAabbTree tree = defer ? deferred : immediate;
                long start = System.nanoTime();
                for (int i = 0; i < m; i++) {
                    int o = 6 * i;
                    handles[i] = tree.add(batch[o], batch[o + 1], batch[o + 2], batch[o + 3], batch[o + 4],
                            batch[o + 5], 0, -1L);
                }
                tree.flushAdds();
                nanos[defer ? 1 : 0] = System.nanoTime() - start;
                tree.removeAll(handles);
            }
            if (r >= 0) {
                insertedMs[r] = nanos[0] / 1e6;
                deferredMs[r] = nanos[1] / 1e6;
                ratio[r] = (double) nanos[0] / nanos[1];
            }
        }
        System.out.printf(Locale.ROOT, "%d %s boxes into %d, %d rounds: %s%n", m, kind, TREE, rounds,
                RoundTimes.summary("inserted", insertedMs, "deferred", deferredMs, ratio));
    }
}
