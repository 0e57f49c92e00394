package dev.boxwood.bench.tree;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.testkit.scenes.BoxSet;

import java.util.Locale;

/**
 * Bytes per object of the dynamic tree ({@link DynamicAabbTree#memoryBytes()} over its size) on the peer
 * benchmark's world: after one-by-one adds, after {@link DynamicAabbTree#compact()} (which trims the arrays'
 * spare capacity), and for a bulk build.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.boxwood.bench.tree.MemoryReport [n]</pre>
 */
public final class MemoryReport {

    private MemoryReport() {
    }

    /**
     * Prints the report.
     *
     * @param args the object count (default 1,000,000)
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        BoxSet boxes = PeerWorkload.of(n, 1).boxes();
        DynamicAabbTree added = new DynamicAabbTree();
        for (int i = 0; i < n; i++) {
            added.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i,
                    -1L);
        }
        print("added one by one", added);
        added.compact();
        print("then compact()", added);
        print("bulk build", DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null));
    }

    private static void print(String what, DynamicAabbTree tree) {
        System.out.printf(Locale.ROOT, "%,d objects, %s: %.1f bytes per object%n", tree.size(), what,
                (double) tree.memoryBytes() / tree.size());
    }
}
