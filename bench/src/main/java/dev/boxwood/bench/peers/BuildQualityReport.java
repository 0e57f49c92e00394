package dev.boxwood.bench.peers;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.Handles;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import java.util.List;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.index.hprtree.HPRtree;
import org.locationtech.jts.index.strtree.AbstractNode;
import org.locationtech.jts.index.strtree.Boundable;
import org.locationtech.jts.index.strtree.STRtree;

/**
 * Compares the quality of bulk-built trees of different widths on the peer workload, where the binary tree's area
 * ratio has no counterpart. The measure is the surface area heuristic's (Goldsmith and Salmon 1987, MacDonald and
 * Booth 1990) in the plane the 2D peers index: the expected number of boxes a random line tests, where a line
 * meeting a node's box tests every child box of the node, and (Cauchy-Crofton) a random line that meets the
 * root meets a convex box with probability perimeter / root perimeter. So
 * {@code cost = 1 + sum over internal nodes of P(node) * children(node)}, object boxes included. It is the
 * cost model of the bulk builders themselves, in 2D; lower is better.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.boxwood.bench.peers.BuildQualityReport [n]}.
 */
public final class BuildQualityReport {

    private BuildQualityReport() {
    }

    /** Accumulates the line cost of one tree from its internal nodes' boxes. */
    static final class LineCost {
        private final double rootPerimeter;
        private double sum;
        private long internalNodes;

        LineCost(double minX, double minY, double maxX, double maxY) {
            rootPerimeter = (maxX - minX) + (maxY - minY);
        }

        void internal(double minX, double minY, double maxX, double maxY, int children) {
            sum += ((maxX - minX) + (maxY - minY)) / rootPerimeter * children;
            internalNodes++;
        }

        double cost() {
            return 1 + sum;
        }

        long internalNodes() {
            return internalNodes;
        }
    }

    /** The line cost of a Boxwood tree: every internal node tests its two entries. */
    static LineCost of(DynamicAabbTree tree) {
        LineCost[] cost = new LineCost[1];
        tree.visitNodes((depth, handle, x0, y0, z0, x1, y1, z1) -> {
            if (depth == 0) {
                cost[0] = new LineCost(x0, y0, x1, y1);
            }
            if (handle == Handles.NONE) {
                cost[0].internal(x0, y0, x1, y1, 2);
            }
        }, new TraversalStack());
        return cost[0];
    }

    /**
     * The line cost of a built JTS HPRtree: layers of nodes packed along the Hilbert curve, leaves first, each node
     * holding up to {@code capacity} children of the layer below (items for the leaf layer). The single node a
     * last layer would hold is not stored: a query tests the tree's total extent, then every node of the top
     * stored layer.
     */
    static LineCost of(HPRtree tree, int items, int capacity) {
        // Layer sizes as the tree computes them: each layer covers the one below, until one covers at most
        // 'capacity' nodes (that layer is the top one stored).
        int[] sizes = new int[64];
        int layers = 0;
        int stored = 0;
        for (int below = items; ; ) {
            int size = (below + capacity - 1) / capacity;
            sizes[layers++] = size;
            stored += size;
            if (size <= capacity) {
                break;
            }
            below = size;
        }
        Envelope[] bounds = tree.getBounds();
        if (items <= capacity || stored != bounds.length) {
            throw new IllegalStateException("unexpected HPRtree layout: " + bounds.length + " nodes, expected " + stored);
        }
        int top = sizes[layers - 1];
        Envelope extent = new Envelope();
        for (int i = bounds.length - top; i < bounds.length; i++) {
            extent.expandToInclude(bounds[i]);
        }
        LineCost cost = new LineCost(extent.getMinX(), extent.getMinY(), extent.getMaxX(), extent.getMaxY());
        cost.internal(extent.getMinX(), extent.getMinY(), extent.getMaxX(), extent.getMaxY(), top);
        int layerStart = 0;
        int below = items;
        for (int layer = 0; layer < layers; layer++) {
            for (int i = 0; i < sizes[layer]; i++) {
                Envelope e = bounds[layerStart + i];
                cost.internal(e.getMinX(), e.getMinY(), e.getMaxX(), e.getMaxY(), Math.min(capacity, below - i * capacity));
            }
            layerStart += sizes[layer];
            below = sizes[layer];
        }
        return cost;
    }

    /** The line cost of a built JTS STRtree, walking its nodes. */
    static LineCost of(STRtree tree) {
        AbstractNode root = tree.getRoot();
        Envelope r = (Envelope) root.getBounds();
        LineCost cost = new LineCost(r.getMinX(), r.getMinY(), r.getMaxX(), r.getMaxY());
        addSTR(root, cost);
        return cost;
    }

    private static void addSTR(AbstractNode node, LineCost cost) {
        Envelope e = (Envelope) node.getBounds();
        @SuppressWarnings("unchecked")
        List<Boundable> children = node.getChildBoundables();
        cost.internal(e.getMinX(), e.getMinY(), e.getMaxX(), e.getMaxY(), children.size());
        for (Boundable child : children) {
            if (child instanceof AbstractNode) {
                addSTR((AbstractNode) child, cost);
            }
        }
    }

    /**
     * Prints the line cost of each bulk build (and of Boxwood's one-by-one insertion) on the peer workload.
     *
     * @param args optional object count (default 1,000,000)
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        BoxSet boxes = PeerWorkload.of(n).boxes();
        double[] interleaved = boxes.toInterleaved();
        System.out.printf("%d boxes of the peer workload; line cost in the xy plane (lower is better)%n", n);
        DynamicAabbTree bulk = DynamicAabbTree.build(TreeConfig.defaults(), interleaved, null, null);
        report("boxwood bulk (binned SAH, fat boxes)", of(bulk));
        DynamicAabbTree tight = DynamicAabbTree.build(TreeConfig.defaults().withMargin(0, 0), interleaved, null, null);
        report("boxwood bulk (binned SAH, no margin)", of(tight));
        DynamicAabbTree inserted = new DynamicAabbTree();
        for (int i = 0; i < n; i++) {
            inserted.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1);
        }
        report("boxwood one by one (fat boxes)", of(inserted));
        HPRtree hpr = new HPRtree();
        STRtree str = new STRtree();
        for (int i = 0; i < n; i++) {
            Envelope e = new Envelope(boxes.minX[i], boxes.maxX[i], boxes.minY[i], boxes.maxY[i]);
            hpr.insert(e, i);
            str.insert(e, i);
        }
        hpr.build();
        str.build();
        report("jts-hprtree (Hilbert packing, 16 wide)", of(hpr, n, 16));
        report("jts-strtree (STR, 10 wide)", of(str));
    }

    private static void report(String name, LineCost cost) {
        System.out.printf("  %-42s %10.1f   (%d internal nodes)%n", name, cost.cost(), cost.internalNodes());
    }
}
