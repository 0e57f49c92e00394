package dev.boxwood.index;

import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.Handles;

import java.util.Arrays;

/**
 * Bulk build and full or partial rebuild of a {@link DynamicAabbTree} through the shared binned-SAH builder
 * ({@link BinnedSahBuilder}, Wald 2007). All three reduce to one step: take a set of <em>units</em> (objects, or
 * whole subtrees kept as they are), build a hierarchy over their boxes, and write it into the tree's node arrays
 * ({@link #adopt}).
 *
 * <p>Partial rebuild follows Box2D v3's {@code b2DynamicTree_Rebuild(tree, false)}: every internal node changed
 * since the last rebuild (insertion, removal, rotation: the tree marks it in {@code touched}) is rebuilt, and
 * every untouched subtree hanging below a touched node is kept as one unit. Its box is the unit's box, its
 * surface area counts once in the builder's cost, like an object's.
 *
 * <p>Allocation: a build or rebuild allocates the builder's output and unit arrays (O(units)); it is a per-level
 * or per-frame operation, not a per-object one.
 */
final class TreeBuild {

    /** The shared builder; deterministic for every pool size, so rebuilds are reproducible. */
    private static final BinnedSahBuilder BUILDER = BinnedSahBuilder.defaults();

    private TreeBuild() {
    }

    /** See {@link DynamicAabbTree#build(TreeConfig, double[], long[], long[])}. */
    static DynamicAabbTree build(TreeConfig config, double[] boxes, long[] userValues, long[] categories) {
        Arguments.requireNonNull("config", config);
        Arguments.requireNonNull("boxes", boxes);
        // Validates every box (finite, min <= max, length a multiple of 6) and rounds it outward: the tight boxes.
        float[] tight = BinnedSahBuilder.toFloatBoxes(boxes, config.originX, config.originY, config.originZ);
        int n = boxes.length / DynamicAabbTree.BOX;
        if (n > Handles.MAX_SLOTS - 1) {
            throw new IllegalArgumentException("boxes holds " + n + " objects, more than the " + (Handles.MAX_SLOTS - 1)
                    + " a tree supports");
        }
        if (userValues != null && userValues.length != n) {
            throw new IllegalArgumentException("userValues length must be " + n + " (one per box), got "
                    + userValues.length);
        }
        if (categories != null && categories.length != n) {
            throw new IllegalArgumentException("categories length must be " + n + " (one per box), got "
                    + categories.length);
        }
        DynamicAabbTree tree = new DynamicAabbTree(config.withInitialCapacity(Math.max(1, n)));
        if (n == 0) {
            return tree;
        }
        System.arraycopy(tight, 0, tree.tight, 0, tight.length);
        float[] fat = new float[tight.length];
        int[] unitRefs = new int[n];
        long[] unitCategories = new long[n];
        for (int i = 0; i < n; i++) {
            int handle = tree.handles.allocate();
            // A fresh allocator hands out slot i with generation 0: the handle of box i is i.
            assert handle == i;
            int o = i * DynamicAabbTree.BOX;
            tree.storeFatBox(fat, o, boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4],
                    boxes[o + 5], 0, 0, 0);
            unitRefs[i] = ~i;
            unitCategories[i] = categories == null ? -1L : categories[i];
            if (userValues != null) {
                tree.userValues[i] = userValues[i];
            }
        }
        adopt(tree, BUILDER.build(fat, tree.originX(), tree.originY(), tree.originZ()), null, unitRefs,
                unitCategories);
        return tree;
    }

    /** See {@link DynamicAabbTree#rebuild(boolean)}. */
    static void rebuild(DynamicAabbTree tree, boolean full) {
        int root = tree.children[0];
        if (root < 0 || !full && !tree.touched[root]) {
            return;
        }
        if (full) {
            rebuildFull(tree);
        } else {
            rebuildTouched(tree, root);
        }
    }

    /** Every object is a unit; nodes are renumbered 1..n-1 in depth-first order (the builder's order). */
    private static void rebuildFull(DynamicAabbTree tree) {
        int n = tree.size();
        float[] boxes = new float[n * DynamicAabbTree.BOX];
        int[] unitRefs = new int[n];
        long[] unitCategories = new long[n];
        int u = 0;
        for (int slot = 0, end = tree.handles.highWater(); slot < end; slot++) {
            if (!tree.handles.isLiveSlot(slot)) {
                continue;
            }
            int entry = tree.leafEntries[slot];
            System.arraycopy(tree.bounds, entry * DynamicAabbTree.BOX, boxes, u * DynamicAabbTree.BOX,
                    DynamicAabbTree.BOX);
            unitRefs[u] = ~slot;
            unitCategories[u] = tree.categories[entry];
            u++;
        }
        FlatBvh bvh = BUILDER.build(boxes, tree.originX(), tree.originY(), tree.originZ());
        // Every internal node is rewritten: drop the free list and number the new nodes 1..n-1.
        for (int node = 1; node < tree.nodeHighWater; node++) {
            tree.touched[node] = false;
        }
        tree.nodeHighWater = 1;
        tree.freeNode = -1;
        tree.freeNodeCount = 0;
        adopt(tree, bvh, null, unitRefs, unitCategories);
    }

    /**
     * Descends from the root through touched nodes; every entry below them that is an object or an untouched
     * node becomes a unit, and the touched nodes (exactly units - 1 of them) are reused for the new hierarchy.
     */
    private static void rebuildTouched(DynamicAabbTree tree, int root) {
        int capacity = 64;
        float[] boxes = new float[capacity * DynamicAabbTree.BOX];
        int[] unitRefs = new int[capacity];
        long[] unitCategories = new long[capacity];
        int[] nodes = new int[capacity];
        int[] pending = new int[Math.max(8, tree.heights[DynamicAabbTree.HEADER] + 2)];
        int units = 0;
        int nodeCount = 0;
        int sp = 0;
        pending[sp++] = root;
        final int[] children = tree.children;
        final boolean[] touched = tree.touched;
        while (sp > 0) {
            int node = pending[--sp];
            if (nodeCount == nodes.length) {
                nodes = Arrays.copyOf(nodes, nodeCount * 2);
            }
            nodes[nodeCount++] = node;
            for (int entry = 2 * node, end = entry + 2; entry < end; entry++) {
                int ref = children[entry];
                if (ref >= 0 && touched[ref]) {
                    pending[sp++] = ref;
                    continue;
                }
                if (units == unitRefs.length) {
                    int grown = units * 2;
                    boxes = Arrays.copyOf(boxes, grown * DynamicAabbTree.BOX);
                    unitRefs = Arrays.copyOf(unitRefs, grown);
                    unitCategories = Arrays.copyOf(unitCategories, grown);
                }
                System.arraycopy(tree.bounds, entry * DynamicAabbTree.BOX, boxes, units * DynamicAabbTree.BOX,
                        DynamicAabbTree.BOX);
                unitRefs[units] = ref;
                unitCategories[units] = tree.categories[entry];
                units++;
            }
        }
        FlatBvh bvh = BUILDER.build(Arrays.copyOf(boxes, units * DynamicAabbTree.BOX),
                tree.originX(), tree.originY(), tree.originZ());
        adopt(tree, bvh, nodes, unitRefs, unitCategories);
    }

    /**
     * Writes {@code bvh} (over units {@code 0..m-1}) into the tree under the root entry. Flat node {@code k} becomes
     * tree node {@code nodeMap[k]}, or a newly allocated node when {@code nodeMap} is null (then allocated in
     * flat order, so a fresh tree is laid out depth-first). A unit leaf {@code ~u} becomes reference
     * {@code unitRefs[u]} (an object {@code ~slot} or a kept subtree) with mask {@code unitCategories[u]}.
     */
    private static void adopt(DynamicAabbTree tree, FlatBvh bvh, int[] nodeMap, int[] unitRefs,
                              long[] unitCategories) {
        int nodeCount = bvh.nodeCount();
        if (nodeMap == null) {
            nodeMap = new int[nodeCount];
            for (int k = 0; k < nodeCount; k++) {
                nodeMap[k] = tree.allocateNode();
            }
        }
        // The arrays may have grown during allocation: read them afterwards.
        final float[] bounds = tree.bounds;
        final int[] children = tree.children;
        final long[] categories = tree.categories;
        final float[] flatBounds = bvh.childBounds();
        final int[] flatRefs = bvh.childRefs();
        for (int k = 0; k < nodeCount; k++) {
            int first = 2 * nodeMap[k];
            System.arraycopy(flatBounds, 12 * k, bounds, first * DynamicAabbTree.BOX, 12);
            for (int side = 0; side < 2; side++) {
                int entry = first + side;
                int flatRef = flatRefs[2 * k + side];
                int ref = flatRef >= 0 ? nodeMap[flatRef] : unitRefs[~flatRef];
                children[entry] = ref;
                tree.linkParent(ref, entry);
                if (flatRef < 0) {
                    categories[entry] = unitCategories[~flatRef];
                }
            }
        }
        // Children follow their parents in flat order: a backward pass sees every child before its parent.
        for (int k = nodeCount - 1; k >= 0; k--) {
            int node = nodeMap[k];
            int first = 2 * node;
            for (int side = 0; side < 2; side++) {
                int child = flatRefs[2 * k + side];
                if (child >= 0) {
                    int c = 2 * nodeMap[child];
                    categories[first + side] = categories[c] | categories[c + 1];
                }
            }
            tree.heights[node] = 1 + Math.max(tree.heightOf(children[first]), tree.heightOf(children[first + 1]));
            tree.touched[node] = false;
        }
        int rootRef = bvh.rootRef();
        int rootRefInTree = rootRef >= 0 ? nodeMap[rootRef] : unitRefs[~rootRef];
        System.arraycopy(bvh.rootBounds(), 0, bounds, 0, DynamicAabbTree.BOX);
        children[0] = rootRefInTree;
        tree.linkParent(rootRefInTree, 0);
        categories[0] = rootRef >= 0 ? categories[2 * rootRefInTree] | categories[2 * rootRefInTree + 1]
                : unitCategories[~rootRef];
        tree.updateHeaderHeight();
    }
}
