package dev.boxwood.index;

import dev.boxwood.geom.BoxMessages;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.Handles;
import dev.boxwood.query.OutwardFloat;

import java.util.Arrays;

/**
 * Bulk build and full or partial rebuild of a {@link DynamicAabbTree} through the shared binned-SAH builder
 * ({@link BinnedSahBuilder}, Wald 2007). All three reduce to one step: take a set of <em>units</em> (objects, or
 * whole subtrees kept as they are), build a hierarchy over their boxes, and write it into the tree's node arrays:
 * a build and a full rebuild have the builder write each node straight into the records as it makes it
 * ({@link #buildIntoRecords}), a partial rebuild and a batch's pieces copy the builder's flat output into the nodes
 * they reuse ({@link #adopt}).
 *
 * <p>Partial rebuild follows Box2D v3's {@code b2DynamicTree_Rebuild(tree, false)}: every internal node changed
 * since the last rebuild (insertion, removal, rotation: the tree marks it in {@code touched}) is rebuilt, and
 * every untouched subtree hanging below a touched node is kept as one unit. Its box is the unit's box, its
 * surface area counts once in the builder's cost, like an object's.
 *
 * <p>Allocation: a build or rebuild allocates unit arrays and the builder's scratch (O(units)), and a partial
 * rebuild the builder's flat output too; it is a per-level or per-frame operation, not a per-object one.
 */
final class TreeBuild {

    /** The shared builder; deterministic for every pool size, so rebuilds are reproducible. */
    private static final BinnedSahBuilder BUILDER = BinnedSahBuilder.defaults();

    private TreeBuild() {
    }

    /**
     * See {@link DynamicAabbTree#build(TreeConfig, double[], long[], long[])} ({@code handlesOut} null: box
     * {@code i} gets handle {@code i}) and {@link DynamicAabbTree#build(TreeConfig, double[], long[], long[], int[])}
     * (handles in the hierarchy's depth-first object order, written to {@code handlesOut}).
     */
    static DynamicAabbTree build(TreeConfig config, double[] boxes, long[] userValues, long[] categories,
                                 int[] handlesOut) {
        Arguments.requireNonNull("config", config);
        if (!config.originSet) {
            config = originOfBoxes(config, boxes);
        }
        int n = checkObjects(boxes, userValues, categories, handlesOut, 0, config.originX(), config.originY(),
                config.originZ());
        // room for the objects, or for more when the settings ask for it (objects to be added later)
        int capacity = Math.max(config.initialCapacity(), Math.max(1, n));
        DynamicAabbTree tree = new DynamicAabbTree(config.withInitialCapacity(capacity), false,
                config.initialCapacity());
        if (n == 0) {
            return tree;
        }
        for (int i = 0; i < n; i++) {
            // A fresh allocator hands out slot i with generation 0: handles are the slots 0 .. n-1.
            tree.handles.allocate();
        }
        float[] fat = new float[n * DynamicAabbTree.BOX];
        int[] unitRefs = new int[n];
        int[] unitMasks = new int[n];
        boolean inputOrder = handlesOut == null;
        // Objects are independent: large inputs are filled in slices on the pool the builder uses.
        forSlices(n, (from, to) -> {
            // in depth-first order the masks are written later, by slot
            storeFatBoxes(tree, boxes, categories, fat, inputOrder ? unitMasks : null, from, to);
            if (inputOrder) {
                // box i takes slot (and handle) i: filled while the slice of the input is still in the cache, and
                // before the builder partitions the fat boxes
                storeObjects(tree, boxes, userValues, categories, unitRefs, from, to);
                tree.keepFatCopies(fat, from, to);
            }
        });
        int first = tree.allocateNodeRange(n - 1);
        if (inputOrder) {
            buildIntoRecords(tree, first, fat, unitRefs, unitMasks, null, null);
            return tree;
        }
        // Slots in the hierarchy's depth-first leaf order: the builder numbers the leaves so, the objects are stored
        // once it has placed them, and the links then read unitRefs and unitMasks in order, not at random.
        int[] boxOfSlot = new int[n];
        // the builder leaves the fat boxes in leaf order too: fat box k is slot k's
        buildIntoRecords(tree, first, fat, unitRefs, unitMasks, boxOfSlot, () -> forSlices(n, (from, to) -> {
            storeObjectsInOrder(tree, boxes, userValues, categories, boxOfSlot, handlesOut, unitRefs, unitMasks,
                    from, to);
            tree.keepFatCopies(fat, from, to);
        }));
        return tree;
    }

    /**
     * {@code config} with the origin the static world writer would choose for {@code boxes} (the centre of their
     * bounds, {@link BinnedSahBuilder#originOf}): a build far from zero then keeps the boxes' resolution without the
     * caller having to choose an origin. The boxes are checked first, so a bad box is reported as such rather than
     * as a bad origin.
     */
    private static TreeConfig originOfBoxes(TreeConfig config, double[] boxes) {
        Arguments.requireNonNull("boxes", boxes);
        if (boxes.length % DynamicAabbTree.BOX != 0) {
            throw new IllegalArgumentException("boxes length must be a multiple of 6, got " + boxes.length);
        }
        int n = boxes.length / DynamicAabbTree.BOX;
        BinnedSahBuilder.checkBoxes(boxes, n, 0);
        double[] bounds = BinnedSahBuilder.emptyBounds();
        BinnedSahBuilder.growBounds(boxes, n, bounds);
        double[] origin = BinnedSahBuilder.originOf(bounds);
        return config.withOrigin(origin[0], origin[1], origin[2]);
    }

    /**
     * How much looser than the tree's own nodes a piece of a batch may be and still go in whole: a piece of
     * {@code c} objects is inserted as one subtree when its surface area is at most this times
     * {@code c / n} of the tree root's (n objects held), the area a node of c objects has in a tree of
     * uniform density. Far below 1 because real worlds are clustered, many times denser in their clusters than on
     * average, and a piece no denser than the objects already where it goes overlaps their subtrees: a clustered
     * world of 100k filled in batches of 1,000 ended 1.104x a fresh build with 0.5, 1.062x with 0.25, 1.051x with
     * 0.1 (one by one: 1.055x; {@code bench/results/jdk17/batch-add-ab.txt}).
     */
    static final double BATCH_LOOSENESS = 0.1;
    /**
     * A part of a batch is split in search of dense parts only while it holds at least this fraction
     * ({@code 1 / SPLIT_FRACTION}) of the objects the tree held: the median splits cost about a fifth of inserting
     * the part object by object (a profile of 10,000 objects of a tile four times the world's mean density), which
     * smaller parts seldom win back, and inserting the singles in the split's order instead of input order saved
     * nothing there.
     */
    static final int SPLIT_FRACTION = 8;

    /**
     * See {@link DynamicAabbTree#addAll}. A batch whose box is about as tight as the tree's own nodes holding as
     * many objects ({@link #BATCH_LOOSENESS}) gets its hierarchy built by the binned SAH over the fat boxes
     * {@code add} would give its objects, written into the tree as built, and its root inserted like one object (a
     * branch-and-bound sibling search, a new parent node, refits and rotations on the way up: Bittner et al. 2013,
     * Kopta et al. 2012; Jolt inserts a batch of bodies as one prebuilt subtree). A looser batch holding at least
     * {@code 1 / }{@link #SPLIT_FRACTION} as many objects as the tree is split top down at the object median of each
     * part's longest centroid axis ({@link BinnedSahBuilder#selectByCentroid}, in place), parts tight enough going in
     * whole, the rest down to single objects inserted as {@code add} inserts them; any other batch is added object
     * by object, by {@code add} itself. Inserted whole, a spread batch would overlap everything around it: 4,000
     * objects spread over a 20,000-object world as one subtree left the tree 1.6x the cost of a fresh build.
     */
    static int[] addAll(DynamicAabbTree tree, double[] boxes, long[] userValues, long[] categories) {
        int held = tree.size();
        int n = checkObjects(boxes, userValues, categories, null, held, tree.originX(), tree.originY(),
                tree.originZ());
        // deferred adds: the batch's density is measured against the whole hierarchy, pending objects included;
        // only now that the arguments passed, so that a rejected call changes nothing
        tree.flushAdds();
        if (n == 0) {
            return new int[0];
        }
        // a structural change from here on (DynamicAabbTree.checkUnchanged), counted before it is made
        tree.modCount++;
        double areaPerObject = areaPerObject(tree, held);
        if (n < held / SPLIT_FRACTION && surfaceAreaOfUnion(boxes) > areaPerObject * n) {
            // neither dense nor large enough to hold a dense part: exactly the adds, one by one, in input order
            int[] handles = new int[n];
            for (int i = 0; i < n; i++) {
                int o = i * DynamicAabbTree.BOX;
                handles[i] = tree.add(boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4], boxes[o + 5],
                        userValueOrZero(userValues, i), categories == null ? -1L : categories[i]);
            }
            // with deferred adds those adds are pending: a batch call leaves nothing pending
            tree.flushAdds();
            return handles;
        }
        float[] fat = new float[n * DynamicAabbTree.BOX];
        int[] unitMasks = new int[n];
        forSlices(n, (from, to) -> storeFatBoxes(tree, boxes, categories, fat, unitMasks, from, to));
        int[] handles = new int[n];
        for (int i = 0; i < n; i++) {
            handles[i] = tree.handles.allocate();
        }
        if (tree.handles.capacity() > tree.userValues.length) {
            tree.growObjects(tree.handles.capacity());
        }
        int[] unitRefs = new int[n];
        forSlices(n, (from, to) -> {
            for (int i = from; i < to; i++) {
                int o = i * DynamicAabbTree.BOX;
                int slot = handles[i] & Handles.SLOT_MASK;
                tree.storeTight(slot, boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4], boxes[o + 5]);
                tree.keepFatCopy(slot, fat, o);
                tree.objectCategories[slot] = categories == null ? -1L : categories[i];
                tree.userValues[slot] = userValueOrZero(userValues, i);
                unitRefs[i] = ~handles[i];
            }
        });
        for (int i = 0; i < n; i++) {
            tree.moved.mark(handles[i] & Handles.SLOT_MASK);
        }
        if (DynamicAabbTree.flushesByRebuild(n, held)) {
            // as many objects as the tree holds (a quarter as many in a large tree): one build over all of them,
            // the deferred adds' rule, is faster than inserting them and gives a bulk build's tree, where
            // inserting a spread, overlapping batch into a nearly empty tree built a tall one (40,000 large boxes at
            // three places into a tree of one: height 198, now 18; 40,000 overlapping cubes: 26, now 21)
            for (int i = 0; i < n; i++) {
                tree.leafEntries[handles[i] & Handles.SLOT_MASK] = -1 - i;
            }
            rebuildFull(tree, fat, unitMasks);
            return handles;
        }
        // into an empty tree with no free nodes the batch goes in whole, its nodes taken from the end in the
        // builder's depth-first order: laid out as a bulk build lays them out, nothing to renumber
        boolean laidOutLikeABuild = held == 0 && tree.freeNodeCount == 0;
        new BatchSplit(tree, fat, unitRefs, unitMasks, areaPerObject, held).run();
        if (laidOutLikeABuild) {
            tree.markDepthFirst();
        } else {
            tree.renumberIfGrown();
        }
        return handles;
    }

    /**
     * Takes pending objects (deferred adds: stored, not yet in the hierarchy) in as {@link #addAll} takes a batch
     * in: dense parts of them whole, the rest one by one. The pending arrays serve as the batch's own: the split
     * reorders {@code fat} in place, which is harmless, since nothing is pending once it is done.
     *
     * @param handles the pending objects' handles, the first {@code count}
     * @param fat their fat boxes, stride 6
     * @param masks their folded category masks
     */
    static void insertPendingBatch(DynamicAabbTree tree, int[] handles, float[] fat, int[] masks, int count) {
        int held = tree.size() - count;
        int[] unitRefs = new int[count];
        for (int i = 0; i < count; i++) {
            unitRefs[i] = ~handles[i];
        }
        new BatchSplit(tree, fat, unitRefs, masks, areaPerObject(tree, held), held, count).run();
        tree.renumberIfGrown();
    }

    /**
     * The top-down split of {@link #addAll}: the batch's fat boxes and their unit numbers are reordered in place,
     * each part being a range of positions.
     */
    private static final class BatchSplit {
        private final DynamicAabbTree tree;
        private final float[] fat;
        private final int[] units;
        private final int[] unitRefs;
        private final int[] unitMasks;
        private final double areaPerObject;
        private final float[] box = new float[DynamicAabbTree.BOX];
        /** Parts with fewer objects than this are not split: they go in one by one. */
        private final int splitBelow;
        /** Centroid bounds of the part {@link #bounds} last measured (min x, y, z, max x, y, z). */
        private final float[] centroids = new float[DynamicAabbTree.BOX];

        BatchSplit(DynamicAabbTree tree, float[] fat, int[] unitRefs, int[] unitMasks, double areaPerObject,
                   int held) {
            this(tree, fat, unitRefs, unitMasks, areaPerObject, held, unitRefs.length);
        }

        /** Over the first {@code count} units of the arrays (which may be longer). */
        BatchSplit(DynamicAabbTree tree, float[] fat, int[] unitRefs, int[] unitMasks, double areaPerObject,
                   int held, int count) {
            this.tree = tree;
            this.splitBelow = held / SPLIT_FRACTION;
            this.fat = fat;
            this.unitRefs = unitRefs;
            this.unitMasks = unitMasks;
            this.areaPerObject = areaPerObject;
            units = new int[count];
            for (int i = 0; i < units.length; i++) {
                units[i] = i;
            }
        }

        void run() {
            // pending ranges [from, to), the lower half on top: at most one waiting half per level
            int[] pending = new int[128];
            int size = 0;
            pending[size++] = 0;
            pending[size++] = units.length;
            while (size > 0) {
                int to = pending[--size];
                int from = pending[--size];
                if (to - from == 1) {
                    insertSingle(from);
                    continue;
                }
                int axis = bounds(from, to);
                if (FlatBvh.surfaceArea(box, 0) <= areaPerObject * (to - from)) {
                    insertWhole(from, to);
                    continue;
                }
                if (to - from < splitBelow) {
                    // too small a share of the tree to be worth splitting for dense parts: one by one
                    for (int k = from; k < to; k++) {
                        insertSingle(k);
                    }
                    continue;
                }
                int middle = (from + to) >>> 1;
                BinnedSahBuilder.selectByCentroid(fat, units, from, to, middle, axis);
                if (size + 4 > pending.length) {
                    pending = Arrays.copyOf(pending, 2 * pending.length);
                }
                pending[size++] = middle;
                pending[size++] = to;
                pending[size++] = from;
                pending[size++] = middle;
            }
        }

        /** Inserts the object at position {@code k} as {@code add} would, optimisation step included. */
        private void insertSingle(int k) {
            int o = k * DynamicAabbTree.BOX;
            tree.insertReference(unitRefs[units[k]], unitMasks[units[k]], fat[o], fat[o + 1], fat[o + 2], fat[o + 3],
                    fat[o + 4], fat[o + 5]);
            tree.countAdd();
        }

        /**
         * Writes the union of the boxes at positions {@code [from, to)} into {@link #box}; returns the longest axis
         * of their centroids.
         */
        private int bounds(int from, int to) {
            final float[] b = box;
            final float[] f = fat;
            System.arraycopy(f, from * DynamicAabbTree.BOX, b, 0, DynamicAabbTree.BOX);
            final float[] c = centroids;
            for (int a = 0; a < 3; a++) {
                c[a] = Float.POSITIVE_INFINITY;
                c[a + 3] = Float.NEGATIVE_INFINITY;
            }
            for (int o = from * DynamicAabbTree.BOX, end = to * DynamicAabbTree.BOX; o < end; o += DynamicAabbTree.BOX) {
                for (int a = 0; a < 3; a++) {
                    b[a] = Math.min(b[a], f[o + a]);
                    b[a + 3] = Math.max(b[a + 3], f[o + a + 3]);
                    // doubled centroids: only the order of their extents matters
                    float centroid = f[o + a] + f[o + a + 3];
                    c[a] = Math.min(c[a], centroid);
                    c[a + 3] = Math.max(c[a + 3], centroid);
                }
            }
            float e0 = c[3] - c[0];
            float e1 = c[4] - c[1];
            float e2 = c[5] - c[2];
            return e0 >= e1 && e0 >= e2 ? 0 : e1 >= e2 ? 1 : 2;
        }

        /** Builds the hierarchy of positions {@code [from, to)} by the binned SAH and inserts it as one subtree. */
        private void insertWhole(int from, int to) {
            int count = to - from;
            float[] part = Arrays.copyOfRange(fat, from * DynamicAabbTree.BOX, to * DynamicAabbTree.BOX);
            int[] refs = new int[count];
            int[] masks = new int[count];
            for (int k = 0; k < count; k++) {
                refs[k] = unitRefs[units[from + k]];
                masks[k] = unitMasks[units[from + k]];
            }
            FlatBvh bvh = BUILDER.buildInPlace(part, tree.originX(), tree.originY(), tree.originZ());
            int root = writeNodes(tree, bvh, null, refs, masks);
            tree.batchPartsInsertedWhole++;
            float[] rb = bvh.rootBounds();
            tree.insertReference(root, root >= 0 ? maskOfNode(tree, root) : masks[0], rb[0], rb[1], rb[2], rb[3],
                    rb[4], rb[5]);
        }
    }

    /**
     * The surface area of the union of the tight boxes (stride 6, at least one): no larger than that of their fat
     * boxes, so a batch whose tight boxes are already too spread out is too spread out with its margins.
     */
    private static double surfaceAreaOfUnion(double[] boxes) {
        double[] b = BinnedSahBuilder.emptyBounds();
        BinnedSahBuilder.growBounds(boxes, boxes.length / DynamicAabbTree.BOX, b);
        double dx = b[3] - b[0];
        double dy = b[4] - b[1];
        double dz = b[5] - b[2];
        return 2.0 * (dx * dy + dy * dz + dz * dx);
    }

    /**
     * The surface area a node of the tree has per object it holds, times {@link #BATCH_LOOSENESS}: a piece of a
     * batch may go in whole when its area is at most this times its objects. Infinite for an empty tree.
     */
    private static double areaPerObject(DynamicAabbTree tree, int held) {
        if (held == 0) {
            return Double.POSITIVE_INFINITY;
        }
        float[] rootBox = new float[DynamicAabbTree.BOX];
        copyEntryBox(tree, 0, rootBox, 0);
        return BATCH_LOOSENESS * FlatBvh.surfaceArea(rootBox, 0) / held;
    }

    /**
     * The top-down insertion of {@link #splice}: whole pieces of the given hierarchy where they are tight enough
     * ({@link #BATCH_LOOSENESS}), else their halves, down to single objects (as {@link #addAll} splits a batch).
     */
    private static void insertPieces(DynamicAabbTree tree, FlatBvh bvh, double areaPerObject, int[] unitRefs,
                                     int[] unitMasks) {
        final float[] bounds = bvh.childBounds();
        final int[] refs = bvh.childRefs();
        int nodes = bvh.nodeCount();
        // objects under each node: children follow their parents, so a backward pass sees them first
        int[] objects = new int[nodes];
        int[] local = new int[nodes];
        for (int k = nodes - 1; k >= 0; k--) {
            int a = refs[2 * k];
            int b = refs[2 * k + 1];
            objects[k] = (a >= 0 ? objects[a] : 1) + (b >= 0 ? objects[b] : 1);
        }
        // pending pieces: a flat reference and its box; at most one waiting sibling per level
        int[] pending = new int[64];
        float[] pendingBoxes = new float[64 * DynamicAabbTree.BOX];
        int size = 0;
        pending[size++] = bvh.rootRef();
        System.arraycopy(bvh.rootBounds(), 0, pendingBoxes, 0, DynamicAabbTree.BOX);
        float[] box = new float[DynamicAabbTree.BOX];
        while (size > 0) {
            size--;
            int ref = pending[size];
            System.arraycopy(pendingBoxes, size * DynamicAabbTree.BOX, box, 0, DynamicAabbTree.BOX);
            int pieceRoot;
            int mask;
            if (ref < 0) {
                pieceRoot = unitRefs[~ref];
                mask = unitMasks[~ref];
            } else if (FlatBvh.surfaceArea(box, 0) <= areaPerObject * objects[ref]) {
                pieceRoot = writePiece(tree, bounds, refs, ref, objects[ref] - 1, local, unitRefs, unitMasks);
                mask = maskOfNode(tree, pieceRoot);
            } else {
                if (size + 2 > pending.length) {
                    pending = Arrays.copyOf(pending, 2 * pending.length);
                    pendingBoxes = Arrays.copyOf(pendingBoxes, 2 * pendingBoxes.length);
                }
                // side 1 below side 0, so the halves go in in the hierarchy's depth-first order
                for (int side = 1; side >= 0; side--) {
                    pending[size] = refs[2 * ref + side];
                    System.arraycopy(bounds, 12 * ref + 6 * side, pendingBoxes, size * DynamicAabbTree.BOX,
                            DynamicAabbTree.BOX);
                    size++;
                }
                continue;
            }
            tree.insertReference(pieceRoot, mask, box[0], box[1], box[2], box[3], box[4], box[5]);
        }
    }

    /**
     * Writes the {@code count} internal nodes of the piece rooted at flat node {@code root} into new tree nodes, in
     * depth-first order (a prebuilt hierarchy need not be: {@code FlatBvh.of} only asks for children after their
     * parents), and returns the tree node of its root. {@code local} is scratch of one element per flat node.
     */
    private static int writePiece(DynamicAabbTree tree, float[] bounds, int[] refs, int root, int count,
                                  int[] local, int[] unitRefs, int[] unitMasks) {
        int[] order = new int[count];
        int taken = 0;
        int[] pending = new int[count];
        int size = 0;
        pending[size++] = root;
        while (size > 0) {
            int k = pending[--size];
            local[k] = taken;
            order[taken++] = k;
            for (int side = 1; side >= 0; side--) {
                int ref = refs[2 * k + side];
                if (ref >= 0) {
                    pending[size++] = ref;
                }
            }
        }
        float[] pieceBounds = new float[12 * count];
        int[] pieceRefs = new int[2 * count];
        copyInOrder(bounds, refs, order, local, pieceBounds, pieceRefs);
        return writeNodes(tree, count, pieceBounds, pieceRefs, 0, null, unitRefs, unitMasks);
    }

    /**
     * Copies the flat nodes {@code order[0], order[1], ...} (child boxes and references, 12 floats and 2 ints each)
     * to positions 0, 1, ... of {@code toBounds} and {@code toRefs}, renaming node references by {@code number}
     * (flat node to new position); object references are kept.
     */
    static void copyInOrder(float[] bounds, int[] refs, int[] order, int[] number, float[] toBounds, int[] toRefs) {
        for (int l = 0; l < order.length; l++) {
            int k = order[l];
            System.arraycopy(bounds, 12 * k, toBounds, 12 * l, 12);
            for (int side = 0; side < 2; side++) {
                int ref = refs[2 * k + side];
                toRefs[2 * l + side] = ref >= 0 ? number[ref] : ref;
            }
        }
    }

    /**
     * Checks the arrays of a batch of objects before anything is allocated or changed: {@code boxes} non-null, a
     * multiple of 6 long, every box finite with {@code min <= max} and storable relative to the tree's origin; the
     * optional arrays one element per box; room for the batch beside the {@code held} objects a tree already holds.
     *
     * @return the number of objects in the batch
     */
    private static int checkObjects(double[] boxes, long[] userValues, long[] categories, int[] handlesOut,
                                    int held, double originX, double originY, double originZ) {
        Arguments.requireNonNull("boxes", boxes);
        if (boxes.length % DynamicAabbTree.BOX != 0) {
            throw new IllegalArgumentException("boxes length must be a multiple of 6, got " + boxes.length);
        }
        int n = boxes.length / DynamicAabbTree.BOX;
        BinnedSahBuilder.checkBoxes(boxes, n, 0, originX, originY, originZ);
        if ((long) held + n > Handles.MAX_SLOTS - 1) {
            throw new IllegalArgumentException("boxes holds " + n + " objects; with the " + held + " already held"
                    + " that is more than the " + (Handles.MAX_SLOTS - 1) + " a tree supports");
        }
        checkPerObject(userValues, categories, n, "box");
        if (handlesOut != null && handlesOut.length != n) {
            throw new IllegalArgumentException("handles length must be " + n + " (one per box), got "
                    + handlesOut.length);
        }
        return n;
    }

    /** Checks that the optional user values and categories hold one element per object ({@code per} names it). */
    static void checkPerObject(long[] userValues, long[] categories, int n, String per) {
        if (userValues != null && userValues.length != n) {
            throw new IllegalArgumentException("userValues length must be " + n + " (one per " + per + "), got "
                    + userValues.length);
        }
        if (categories != null && categories.length != n) {
            throw new IllegalArgumentException("categories length must be " + n + " (one per " + per + "), got "
                    + categories.length);
        }
    }

    /**
     * Boxes {@code [from, to)} of a bulk build: the fat boxes the builder partitions, and the folded masks by input
     * index (unless {@code unitMasks} is null).
     */
    private static void storeFatBoxes(DynamicAabbTree tree, double[] boxes, long[] categories, float[] fat,
                                      int[] unitMasks, int from, int to) {
        for (int i = from; i < to; i++) {
            int o = i * DynamicAabbTree.BOX;
            tree.storeFatBox(fat, o, boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4],
                    boxes[o + 5], 0, 0, 0);
            if (unitMasks != null) {
                unitMasks[i] = DynamicAabbTree.fold(categories == null ? -1L : categories[i]);
            }
        }
    }

    /** Objects {@code [from, to)} of a bulk build in input order: box {@code i} goes to slot {@code i}. */
    private static void storeObjects(DynamicAabbTree tree, double[] boxes, long[] userValues, long[] categories,
                                     int[] unitRefs, int from, int to) {
        for (int i = from; i < to; i++) {
            int o = i * DynamicAabbTree.BOX;
            tree.storeTight(i, boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4], boxes[o + 5]);
            unitRefs[i] = ~i;
            tree.objectCategories[i] = categories == null ? -1L : categories[i];
            tree.userValues[i] = userValues == null ? 0L : userValues[i];
        }
    }

    /**
     * Slots {@code [from, to)} of a bulk build in depth-first order: slot {@code k} takes box {@code boxOfSlot[k]}
     * (its tight box, user value and categories) and is its handle; its unit is {@code k}.
     */
    private static void storeObjectsInOrder(DynamicAabbTree tree, double[] boxes, long[] userValues,
                                            long[] categories, int[] boxOfSlot, int[] handlesOut, int[] unitRefs,
                                            int[] unitMasks, int from, int to) {
        long ahead = 0;
        for (int k = from; k < to; k++) {
            // read the box PREFETCH slots ahead now: its miss then overlaps this slot's work (boxes come at random)
            int next = boxOfSlot[Math.min(k + PREFETCH, to - 1)];
            ahead += Double.doubleToRawLongBits(boxes[next * DynamicAabbTree.BOX]) + userValueOrZero(userValues, next);
            int i = boxOfSlot[k];
            int o = i * DynamicAabbTree.BOX;
            tree.storeTight(k, boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4], boxes[o + 5]);
            long bits = categories == null ? -1L : categories[i];
            tree.objectCategories[k] = bits;
            unitMasks[k] = DynamicAabbTree.fold(bits);
            tree.userValues[k] = userValueOrZero(userValues, i);
            unitRefs[k] = ~k;
            handlesOut[i] = k;
        }
        aheadSink = ahead;
    }

    /** How many slots ahead {@link #storeObjectsInOrder} reads a box. */
    private static final int PREFETCH = 16;
    /** Keeps the early reads of {@link #storeObjectsInOrder} alive; means nothing. */
    @SuppressWarnings("unused")
    private static volatile long aheadSink;

    /** The user value of box {@code i}, 0 when none were given. */
    private static long userValueOrZero(long[] userValues, int i) {
        return userValues == null ? 0L : userValues[i];
    }

    /** Smallest count of independent items worth splitting over the common pool. */
    private static final int PARALLEL_ITEMS = 1 << 16;

    /** Work on the items {@code [from, to)}. */
    @FunctionalInterface
    private interface Slice {
        void run(int from, int to);
    }

    /**
     * Runs {@code slice} over {@code [0, count)}: in one call below {@link #PARALLEL_ITEMS}, else in slices on the
     * common pool (the builder's), each item in exactly one slice.
     */
    private static void forSlices(int count, Slice slice) {
        if (count < PARALLEL_ITEMS) {
            slice.run(0, count);
            return;
        }
        int slices = (count + PARALLEL_ITEMS - 1) / PARALLEL_ITEMS;
        java.util.stream.IntStream.range(0, slices).parallel()
                .forEach(k -> slice.run(k * PARALLEL_ITEMS, Math.min(count, (k + 1) * PARALLEL_ITEMS)));
    }

    /**
     * Writes a built hierarchy's internal nodes into the tree's records in two steps: {@link #node} stores a node's
     * child boxes and the builder's references, then {@link #complete} turns the references into the tree's, links
     * the children back to their entries, stores the masks of object entries and, children first, the nodes' own
     * masks and heights. Flat node {@code k} is tree node {@code nodeMap[k]}, or {@code first + k}
     * without a map; a unit leaf {@code ~u} is reference {@code unitRefs[u]} with mask {@code unitMasks[u]}. Each
     * call writes only its own nodes' records and their children's links, so nodes may be written from several
     * threads at once.
     */
    private static final class RecordSink implements BinnedSahBuilder.NodeSink {
        private final DynamicAabbTree tree;
        private final int[] records;
        private final int first;
        private final int[] nodeMap;
        private final int[] unitRefs;
        private final int[] unitMasks;

        /** The tree's node arrays must already hold every node written. */
        RecordSink(DynamicAabbTree tree, int first, int[] nodeMap, int[] unitRefs, int[] unitMasks) {
            this.tree = tree;
            this.records = tree.records;
            this.first = first;
            this.nodeMap = nodeMap;
            this.unitRefs = unitRefs;
            this.unitMasks = unitMasks;
        }

        /**
         * Stores the node's boxes and the builder's references only: the links back to the children touch the
         * objects' entries in input order, at random, which cost a build 10% made while building (the builder's
         * passes lose their cache) and little in a pass of their own.
         */
        @Override
        public void node(int node, float[] childBoxes, int offset, int refA, int refB) {
            final int[] r = records;
            int o = DynamicAabbTree.recordIndex(treeNode(node));
            for (int i = 0; i < 2 * DynamicAabbTree.BOX; i++) {
                r[o + i] = DynamicAabbTree.bits(childBoxes[offset + i]);
            }
            r[o + DynamicAabbTree.REF] = refA;
            r[o + DynamicAabbTree.REF + 1] = refB;
        }

        /**
         * Finishes flat nodes {@code 0 .. nodeCount - 1}, all written by {@link #node}: their references resolved
         * ({@link #link}, in slices on the common pool), then masks and heights ({@link #finishNode}) in a backward
         * pass, which sees every child before its parent (children follow their parents in flat order).
         */
        void complete(int nodeCount) {
            forSlices(nodeCount, this::link);
            for (int k = nodeCount - 1; k >= 0; k--) {
                finishNode(tree, treeNode(k));
            }
        }

        /** Resolves the references of flat nodes {@code [from, to)}, all written by {@link #node}. */
        void link(int from, int to) {
            final int[] r = records;
            for (int k = from; k < to; k++) {
                int node = treeNode(k);
                int o = DynamicAabbTree.recordIndex(node);
                for (int side = 0; side < 2; side++) {
                    int flatRef = r[o + DynamicAabbTree.REF + side];
                    int ref = flatRef >= 0 ? treeNode(flatRef) : unitRefs[~flatRef];
                    r[o + DynamicAabbTree.REF + side] = ref;
                    tree.linkParent(ref, 2 * node + side);
                    if (flatRef < 0) {
                        r[o + DynamicAabbTree.MASK + side] = unitMasks[~flatRef];
                    }
                }
            }
        }

        private int treeNode(int flat) {
            return nodeMap == null ? first + flat : nodeMap[flat];
        }
    }

    /** See {@link DynamicAabbTree#rebuild(boolean)}. */
    static void rebuild(DynamicAabbTree tree, boolean full) {
        int root = tree.child(0);
        if (root < 0) {
            // no internal node in use (empty, or one object under the header): a full rebuild still drops the
            // nodes that removals freed, as it does for larger trees
            if (full) {
                tree.dropFreeNodes();
            }
            return;
        }
        if (!full && !tree.touched[root]) {
            return;
        }
        if (full) {
            rebuildFull(tree);
        } else {
            rebuildTouched(tree, root);
        }
    }

    /**
     * Every object is a unit; nodes are renumbered 1..n-1 in depth-first order (the builder's order). Pending
     * objects (deferred adds) go in too, with the fat box an add gives.
     */
    static void rebuildFull(DynamicAabbTree tree) {
        rebuildFull(tree, tree.pendingFat, tree.pendingMasks);
    }

    /**
     * As {@link #rebuildFull(DynamicAabbTree)}, the objects not yet in the hierarchy (leaf entry {@code -1 - i})
     * taking fat box and mask {@code i} of the given arrays: the pending ones, or a batch of {@link #addAll}.
     */
    private static void rebuildFull(DynamicAabbTree tree, float[] outsideFat, int[] outsideMasks) {
        int n = tree.size();
        float[] boxes = new float[n * DynamicAabbTree.BOX];
        int[] unitRefs = new int[n];
        int[] unitMasks = new int[n];
        int u = 0;
        for (int slot = 0, end = tree.handles.highWater(); slot < end; slot++) {
            if (!tree.handles.isLiveSlot(slot)) {
                continue;
            }
            int entry = tree.leafEntries[slot];
            if (entry < 0) {
                int position = -1 - entry;
                System.arraycopy(outsideFat, position * DynamicAabbTree.BOX, boxes, u * DynamicAabbTree.BOX,
                        DynamicAabbTree.BOX);
                unitMasks[u] = outsideMasks[position];
            } else {
                copyEntryBox(tree, entry, boxes, u * DynamicAabbTree.BOX);
                unitMasks[u] = tree.records[DynamicAabbTree.maskIndex(entry)];
            }
            unitRefs[u] = ~tree.handles.handleOf(slot);
            u++;
        }
        // Every internal node is rewritten as nodes 1..n-1 and the free list dropped. The arrays grow first and the
        // bookkeeping changes once the builder has returned, so that a builder failing before its first node (out
        // of memory for its own arrays) leaves the tree as it was.
        tree.ensureNodeCapacity(n);
        int oldHighWater = tree.nodeHighWater;
        buildIntoRecords(tree, 1, boxes, unitRefs, unitMasks, null, () -> {
            for (int node = 1; node < oldHighWater; node++) {
                tree.touched[node] = false;
            }
            tree.nodeHighWater = n;
            tree.freeNode = -1;
            tree.freeNodeCount = 0;
        });
    }

    /**
     * Builds the hierarchy over {@code m >= 1} objects (their fat boxes in {@code boxes}, partitioned in place) and
     * hangs it under the header, the builder handing each internal node straight to the tree's records
     * ({@link RecordSink}): no intermediate node arrays, no copy. Flat node {@code k} becomes tree node
     * {@code first + k} ({@code first} is 1: the nodes are laid out depth first).
     *
     * @param first      the first of the {@code m - 1} consecutive nodes written, within the node arrays
     * @param unitRefs   the reference of each unit (object), {@code ~handle}
     * @param unitMasks  the folded mask of each unit
     * @param leafOrder  null: unit {@code u} is box {@code u}; else unit {@code p} is the hierarchy's {@code p}-th
     *                   leaf in depth-first order, and the array receives the box of each (its length {@code m})
     * @param afterBuild null, or run once the builder has placed every object, before {@code unitRefs} and
     *                   {@code unitMasks} are read (with a leaf order, it fills them by leaf)
     */
    private static void buildIntoRecords(DynamicAabbTree tree, int first, float[] boxes, int[] unitRefs,
                                         int[] unitMasks, int[] leafOrder, Runnable afterBuild) {
        int m = boxes.length / DynamicAabbTree.BOX;
        float[] rootBounds = new float[DynamicAabbTree.BOX];
        RecordSink sink = new RecordSink(tree, first, null, unitRefs, unitMasks);
        int rootRef = leafOrder == null ? BUILDER.buildInPlace(boxes, rootBounds, sink)
                : BUILDER.buildInPlaceInLeafOrder(boxes, rootBounds, sink, leafOrder);
        if (afterBuild != null) {
            afterBuild.run();
        }
        // links and masks in a pass of their own: done while building, they cost the build 10%
        sink.complete(m - 1);
        hangRoot(tree, rootRef >= 0 ? first + rootRef : unitRefs[~rootRef], rootRef >= 0 ? -1 : unitMasks[~rootRef],
                rootBounds);
        tree.markDepthFirst();
    }

    /**
     * Sets a new node's folded masks of its node children (objects' were stored when its references were resolved,
     * {@link RecordSink#link}; a kept subtree's root is finished already), its height, and clears its touched mark;
     * its new children must be finished.
     */
    private static void finishNode(DynamicAabbTree tree, int node) {
        final int[] r = tree.records;
        int o = DynamicAabbTree.recordIndex(node);
        int refA = r[o + DynamicAabbTree.REF];
        int refB = r[o + DynamicAabbTree.REF + 1];
        if (refA >= 0) {
            r[o + DynamicAabbTree.MASK] = maskOfNode(tree, refA);
        }
        if (refB >= 0) {
            r[o + DynamicAabbTree.MASK + 1] = maskOfNode(tree, refB);
        }
        tree.heights[node] = 1 + Math.max(tree.heightOf(refA), tree.heightOf(refB));
        tree.touched[node] = false;
    }

    /**
     * Makes {@code rootRef} the header's only child.
     *
     * @param objectMask the folded mask of {@code rootRef} when it is an object; read from its record when it is
     *                   a node
     */
    private static void hangRoot(DynamicAabbTree tree, int rootRef, int objectMask, float[] rb) {
        int mask = rootRef >= 0 ? maskOfNode(tree, rootRef) : objectMask;
        tree.setEntry(0, rootRef, mask, rb[0], rb[1], rb[2], rb[3], rb[4], rb[5]);
        tree.linkParent(rootRef, 0);
        tree.updateHeaderHeight();
    }

    /**
     * Descends from the root through touched nodes; every entry below them that is an object or an untouched
     * node becomes a unit, and the touched nodes (exactly units - 1 of them) are reused for the new hierarchy.
     */
    private static void rebuildTouched(DynamicAabbTree tree, int root) {
        int capacity = 64;
        float[] boxes = new float[capacity * DynamicAabbTree.BOX];
        int[] unitRefs = new int[capacity];
        int[] unitMasks = new int[capacity];
        int[] nodes = new int[capacity];
        int[] pending = new int[Math.max(8, tree.heights[DynamicAabbTree.HEADER] + 2)];
        int units = 0;
        int nodeCount = 0;
        int sp = 0;
        pending[sp++] = root;
        final boolean[] touched = tree.touched;
        while (sp > 0) {
            int node = pending[--sp];
            if (nodeCount == nodes.length) {
                nodes = Arrays.copyOf(nodes, nodeCount * 2);
            }
            nodes[nodeCount++] = node;
            for (int entry = 2 * node, end = entry + 2; entry < end; entry++) {
                int ref = tree.child(entry);
                if (ref >= 0 && touched[ref]) {
                    pending[sp++] = ref;
                    continue;
                }
                if (units == unitRefs.length) {
                    int grown = units * 2;
                    boxes = Arrays.copyOf(boxes, grown * DynamicAabbTree.BOX);
                    unitRefs = Arrays.copyOf(unitRefs, grown);
                    unitMasks = Arrays.copyOf(unitMasks, grown);
                }
                copyEntryBox(tree, entry, boxes, units * DynamicAabbTree.BOX);
                unitRefs[units] = ref;
                unitMasks[units] = tree.records[DynamicAabbTree.maskIndex(entry)];
                units++;
            }
        }
        FlatBvh bvh = BUILDER.buildInPlace(Arrays.copyOf(boxes, units * DynamicAabbTree.BOX),
                tree.originX(), tree.originY(), tree.originZ());
        adopt(tree, bvh, nodes, unitRefs, unitMasks);
    }

    /**
     * See {@link DynamicAabbTree#spliceSubtree}. The hierarchy's topology is kept as built; its boxes are recomputed
     * bottom-up from the object boxes moved into the tree's frame, so nothing but the references is trusted. It
     * then goes in as a batch does ({@link #insertPieces}): whole where it is much denser than the tree (area at most
     * {@link #BATCH_LOOSENESS} of the tree's per object: one insertion beyond the O(n) copy), else split down to
     * parts that are, or to objects inserted one by one.
     */
    static int[] splice(DynamicAabbTree tree, FlatBvh bvh, float[] objectBoxes, long[] userValues,
                        long[] categories) {
        Arguments.requireNonNull("subtree", bvh);
        int n = bvh.objectCount();
        if (objectBoxes == null || objectBoxes.length != 6L * n) {
            throw new IllegalArgumentException("objectBoxes must hold 6 * " + n + " floats (one box per object of"
                    + " the subtree)");
        }
        checkPerObject(userValues, categories, n, "object");
        if ((long) tree.size() + n > Handles.MAX_SLOTS - 1) {
            throw new IllegalArgumentException("objectBoxes: " + n + " more objects would exceed the "
                    + (Handles.MAX_SLOTS - 1) + " a tree supports (it holds " + tree.size() + ")");
        }
        double[] bvhOrigin = {bvh.originX(), bvh.originY(), bvh.originZ()};
        double[] treeOrigin = {tree.originX(), tree.originY(), tree.originZ()};
        // the values toTreeFrame stores: in one frame the floats themselves, which going through the world
        // coordinates of a far origin would round away (5e18 from an origin of 1e35 checked as 0)
        boolean sameFrame = bvhOrigin[0] == treeOrigin[0] && bvhOrigin[1] == treeOrigin[1]
                && bvhOrigin[2] == treeOrigin[2];
        for (int i = 0; i < 6 * n; i += 6) {
            for (int a = 0; a < 3; a++) {
                float lo = objectBoxes[i + a];
                float hi = objectBoxes[i + 3 + a];
                if (!(Float.isFinite(lo) && Float.isFinite(hi) && lo <= hi)) {
                    throw BoxMessages.invalid("objectBoxes: box " + i / 6, a, lo, hi);
                }
                double storedLo = sameFrame ? lo : bvhOrigin[a] + lo - treeOrigin[a];
                double storedHi = sameFrame ? hi : bvhOrigin[a] + hi - treeOrigin[a];
                if (!OutwardFloat.withinStoredRange(storedLo) || !OutwardFloat.withinStoredRange(storedHi)) {
                    // in world coordinates: the floats are relative to the hierarchy's origin, not the tree's
                    throw BoxMessages.beyond("objectBoxes: box " + i / 6, a, bvhOrigin[a] + lo, bvhOrigin[a] + hi,
                            OutwardFloat.MAX_OFFSET, "the tree's origin " + treeOrigin[a]);
                }
            }
        }
        // FlatBvh hands out its arrays, so its references may have changed since it checked them: check them
        // again before anything changes (the bounds pass below indexes by them)
        FlatBvh.of(n, bvh.originX(), bvh.originY(), bvh.originZ(), bvh.childBounds(), bvh.childRefs(),
                bvh.rootBounds());
        // deferred adds: as in addAll, once the arguments passed
        tree.flushAdds();
        if (n == 0) {
            return new int[0];
        }
        // a structural change from here on (DynamicAabbTree.checkUnchanged), counted before it is made
        tree.modCount++;
        int held = tree.size();
        float[] local = toTreeFrame(tree, bvh, objectBoxes);
        int nodes = bvh.nodeCount();
        int[] refs = bvh.childRefs();
        float[] nodeBounds = new float[12 * nodes];
        // children follow their parents: a backward pass sees both children of a node before the node
        for (int k = nodes - 1; k >= 0; k--) {
            for (int side = 0; side < 2; side++) {
                int ref = refs[2 * k + side];
                int to = 12 * k + 6 * side;
                if (ref < 0) {
                    System.arraycopy(local, 6 * ~ref, nodeBounds, to, 6);
                } else {
                    union(nodeBounds, 12 * ref, nodeBounds, to);
                }
            }
        }
        float[] rootBox = new float[6];
        if (nodes == 0) {
            System.arraycopy(local, 0, rootBox, 0, 6);
        } else {
            union(nodeBounds, 0, rootBox, 0);
        }
        FlatBvh framed = FlatBvh.of(n, tree.originX(), tree.originY(), tree.originZ(), nodeBounds, refs, rootBox);

        int[] handles = new int[n];
        int[] unitRefs = new int[n];
        int[] unitMasks = new int[n];
        for (int i = 0; i < n; i++) {
            int handle = tree.handles.allocate();
            int slot = handle & Handles.SLOT_MASK;
            if (tree.handles.capacity() > tree.userValues.length) {
                tree.growObjects(tree.handles.capacity());
            }
            // a static object's fat box is its tight box (no margin): the leaf entries written below hold it
            System.arraycopy(local, 6 * i, tree.tight, slot * DynamicAabbTree.BOX, DynamicAabbTree.BOX);
            tree.keepFatCopy(slot, local, 6 * i);
            tree.userValues[slot] = userValues == null ? 0L : userValues[i];
            handles[i] = handle;
            unitRefs[i] = ~handle;
            tree.objectCategories[slot] = categories == null ? -1L : categories[i];
            unitMasks[i] = DynamicAabbTree.fold(tree.objectCategories[slot]);
            tree.moved.mark(slot);
        }
        insertPieces(tree, framed, areaPerObject(tree, held), unitRefs, unitMasks);
        return handles;
    }

    /**
     * The object boxes relative to the tree's origin: a copy when the frames agree, else each box's world
     * coordinates ({@code subtree origin + stored float}, in double, as the static world reports them) stored
     * the tree's way, rounded outward ({@link OutwardFloat#storeBox}), exactly as {@link DynamicAabbTree#add}
     * would store that world box.
     */
    private static float[] toTreeFrame(DynamicAabbTree tree, FlatBvh bvh, float[] objectBoxes) {
        double sx = bvh.originX();
        double sy = bvh.originY();
        double sz = bvh.originZ();
        if (sx == tree.originX() && sy == tree.originY() && sz == tree.originZ()) {
            return objectBoxes.clone();
        }
        float[] local = new float[objectBoxes.length];
        for (int o = 0; o < objectBoxes.length; o += 6) {
            OutwardFloat.storeBox(local, o, tree.originX(), tree.originY(), tree.originZ(),
                    sx + objectBoxes[o], sy + objectBoxes[o + 1], sz + objectBoxes[o + 2],
                    sx + objectBoxes[o + 3], sy + objectBoxes[o + 4], sz + objectBoxes[o + 5]);
        }
        return local;
    }

    /** {@code dest[to .. to + 5]} = union of the two boxes at {@code src[from]} and {@code src[from + 6]}. */
    private static void union(float[] src, int from, float[] dest, int to) {
        for (int a = 0; a < 3; a++) {
            dest[to + a] = Math.min(src[from + a], src[from + 6 + a]);
            dest[to + 3 + a] = Math.max(src[from + 3 + a], src[from + 9 + a]);
        }
    }

    /**
     * Writes {@code bvh} (over units {@code 0..m-1}) into the tree under the root entry: {@link #writeNodes}, then
     * the root entry.
     */
    private static void adopt(DynamicAabbTree tree, FlatBvh bvh, int[] nodeMap, int[] unitRefs, int[] unitMasks) {
        int rootRefInTree = writeNodes(tree, bvh, nodeMap, unitRefs, unitMasks);
        int rootRef = bvh.rootRef();
        hangRoot(tree, rootRefInTree, rootRef >= 0 ? -1 : unitMasks[~rootRef], bvh.rootBounds());
    }

    /** The folded mask of internal node {@code node}: the OR of its entries'. */
    private static int maskOfNode(DynamicAabbTree tree, int node) {
        int o = DynamicAabbTree.recordIndex(node) + DynamicAabbTree.MASK;
        return tree.records[o] | tree.records[o + 1];
    }

    /** Copies entry {@code entry}'s box into {@code dest[offset .. offset + 5]} as floats. */
    private static void copyEntryBox(DynamicAabbTree tree, int entry, float[] dest, int offset) {
        int o = DynamicAabbTree.boxIndex(entry);
        for (int i = 0; i < DynamicAabbTree.BOX; i++) {
            dest[offset + i] = DynamicAabbTree.f(tree.records[o + i]);
        }
    }

    /**
     * Writes the internal nodes of {@code bvh} (over units {@code 0..m-1}) into the tree. Flat node {@code k}
     * becomes tree node {@code nodeMap[k]}, or a newly allocated node when {@code nodeMap} is null (then allocated
     * in flat order, so a fresh tree is laid out depth-first). A unit leaf {@code ~u} becomes reference
     * {@code unitRefs[u]} (an object {@code ~handle} or a kept subtree) with folded mask {@code unitMasks[u]}.
     *
     * @return the tree reference of the hierarchy's root (a node, or {@code unitRefs[0]} for a single unit); the
     *     caller links it
     */
    private static int writeNodes(DynamicAabbTree tree, FlatBvh bvh, int[] nodeMap, int[] unitRefs,
                                  int[] unitMasks) {
        return writeNodes(tree, bvh.nodeCount(), bvh.childBounds(), bvh.childRefs(), bvh.rootRef(), nodeMap,
                unitRefs, unitMasks);
    }

    /** {@link #writeNodes(DynamicAabbTree, FlatBvh, int[], int[], int[])} from the flat arrays. */
    private static int writeNodes(DynamicAabbTree tree, int nodeCount, float[] flatBounds, int[] flatRefs,
                                  int rootRef, int[] nodeMap, int[] unitRefs, int[] unitMasks) {
        if (nodeMap == null) {
            nodeMap = new int[nodeCount];
            tree.allocateNodes(nodeMap);
        }
        // The arrays may have grown during allocation: the sink reads them afterwards.
        final RecordSink sink = new RecordSink(tree, 0, nodeMap, unitRefs, unitMasks);
        // Each node writes its own record: slices never write the same place.
        forSlices(nodeCount, (from, to) -> {
            for (int k = from; k < to; k++) {
                sink.node(k, flatBounds, 12 * k, flatRefs[2 * k], flatRefs[2 * k + 1]);
            }
        });
        sink.complete(nodeCount);
        return rootRef >= 0 ? nodeMap[rootRef] : unitRefs[~rootRef];
    }
}
