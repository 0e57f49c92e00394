package dev.boxwood.bench.ab;

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
 * {@code p = T} or more it always does); the two alternate in one JVM, 7 rounds, for {@code p = T, T/2, T/4, T/8}.
 * The figures behind {@code DynamicAabbTree.BULK_FLUSH_LARGE_TREE}.
 *
 * <pre>
 * java -Xms12g -Xmx12g -cp bench/target/benchmarks.jar dev.boxwood.bench.ab.DeferredFlushAb T
 * </pre>
 *
 * Prints, per {@code p}, the median time of each way, the area ratio each left, and their speed ratio (insertion
 * time over deferred time).
 */
public final class DeferredFlushAb {

    private static final int ROUNDS = 7;

    private DeferredFlushAb() {
    }

    /**
     * Runs the comparison.
     *
     * @param args T, the objects in the tree before the adds
     */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: DeferredFlushAb T");
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
            for (int r = 0; r < ROUNDS; r++) {
                for (int side = 0; side < 2; side++) {
                    boolean defer = (side == 0) == (r % 2 == 0);
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
}
