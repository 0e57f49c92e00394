package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.Handles;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adding and removing batches of objects in a live tree ({@link DynamicAabbTree#addAll},
 * {@link DynamicAabbTree#removeAll}).
 */
class TreeBatchTest {

    private static final TreeConfig DENSE = TreeConfig.defaults().withMargin(0.05, 0.125);

    /** A compact clustered world (100 m across, placed by {@code frame}'s origin) so objects overlap. */
    private static BoxSet world(int n, long seed, double originX, double originY) {
        return SyntheticWorld.clustered(n, seed, new WorldFrame(originX, originY, 0, 0.01)).boxes();
    }

    private static long[] randomLongs(int n, SplittableRandom random) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(3) == 0 ? 1L << random.nextInt(64) : random.nextLong();
        }
        return values;
    }

    /** Boxes {@code [from, to)} of {@code boxes}, stride 6. */
    private static double[] slice(BoxSet boxes, int from, int to) {
        double[] out = new double[6 * (to - from)];
        for (int i = from; i < to; i++) {
            int o = 6 * (i - from);
            out[o] = boxes.minX[i];
            out[o + 1] = boxes.minY[i];
            out[o + 2] = boxes.minZ[i];
            out[o + 3] = boxes.maxX[i];
            out[o + 4] = boxes.maxY[i];
            out[o + 5] = boxes.maxZ[i];
        }
        return out;
    }

    @Test
    void shouldGiveEveryObjectTheHandleAndStateAddWouldGiveIt() {
        BoxSet boxes = world(3000, 1, 0, 0);
        SplittableRandom random = new SplittableRandom(2);
        long[] users = randomLongs(boxes.size(), random);
        long[] categories = randomLongs(boxes.size(), random);
        DynamicAabbTree batched = new DynamicAabbTree(DENSE);
        DynamicAabbTree added = new DynamicAabbTree(DENSE);
        for (int i = 0; i < 1800; i++) {
            for (DynamicAabbTree t : new DynamicAabbTree[] {batched, added}) {
                t.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                        users[i], categories[i]);
            }
        }
        // more freed slots than the quarantine holds back: the oldest are taken first, with a new generation, then
        // fresh slots, as add takes them
        for (int h = 0; h < 1800; h++) {
            if (h % 3 != 0) {
                batched.remove(h);
                added.remove(h);
            }
        }
        int from = 1800;
        int to = boxes.size();
        long[] batchUsers = java.util.Arrays.copyOfRange(users, from, to);
        long[] batchCategories = java.util.Arrays.copyOfRange(categories, from, to);
        int[] handles = batched.addAll(slice(boxes, from, to), batchUsers, batchCategories);
        batched.validate();
        assertEquals(to - from, handles.length);
        for (int i = from; i < to; i++) {
            int h = added.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i],
                    boxes.maxZ[i], users[i], categories[i]);
            assertEquals(h, handles[i - from], "handle of box " + i);
            assertEquals(users[i], batched.userValue(h));
            TreeBuildTest.assertSameObjectState(added, h, batched, h, "box " + i);
        }
        assertEquals(added.size(), batched.size());
        int reused = 1200 - Handles.QUARANTINE + 1;
        for (int i = 0; i < to - from; i++) {
            int h = handles[i];
            if (i < reused) {
                assertEquals(1, (h & Handles.GENERATION_MASK) >>> Handles.SLOT_BITS, "box " + (from + i));
                assertTrue((h & Handles.SLOT_MASK) < from && (h & Handles.SLOT_MASK) % 3 != 0, "box " + (from + i));
            } else {
                assertEquals(from + i - reused, h, "box " + (from + i) + ": a fresh slot");
            }
        }
        assertEquals(to - from + 600, PairQueries.movedCount(batched), "the batch counts as moved, like adds");
    }

    @Test
    void shouldAnswerQueriesLikeBruteForceThroughBatchesAddsMovesAndRemoves() {
        assertLikeBruteForce(0, 0, 3);
    }

    @Test
    void shouldAnswerQueriesLikeBruteForceFarFromTheOrigin() {
        assertLikeBruteForce(1e6, -2e6, 4);
    }

    /**
     * Random batches (compact ones from one small cluster, spread ones from the whole world, single boxes), adds,
     * moves, removes and partial rebuilds, {@code validate()} after each, and every few steps box queries and
     * closest-hit rays compared with a brute-force index given the same objects in the same order (so handles
     * agree).
     */
    private static void assertLikeBruteForce(double originX, double originY, long seed) {
        TreeConfig config = DENSE.withOrigin(originX + 50, originY + 50, 1);
        DynamicAabbTree tree = new DynamicAabbTree(config);
        BruteForceIndex brute = new BruteForceIndex(originX + 50, originY + 50, 1);
        SplittableRandom random = new SplittableRandom(seed);
        BoxSet pool = world(20_000, seed, originX, originY);
        int next = 3000;
        java.util.List<Integer> live = new java.util.ArrayList<>();
        for (int h : tree.addAll(slice(pool, 0, next), null, null)) {
            int i = live.size();
            assertEquals(h, brute.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i],
                    pool.maxZ[i], 0L, -1L));
            live.add(h);
        }
        tree.validate();
        for (int step = 0; step < 120; step++) {
            int kind = random.nextInt(6);
            if (kind <= 1 && next < pool.size()) {
                int count = Math.min(pool.size() - next, kind == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(600));
                double[] batch = slice(pool, next, next + count);
                if (random.nextBoolean()) {
                    // a compact batch: every box pulled towards the first one's corner
                    for (int i = 0; i < batch.length; i += 6) {
                        for (int a = 0; a < 3; a++) {
                            double shift = (batch[i + a] - batch[a]) * 0.9;
                            batch[i + a] -= shift;
                            batch[i + 3 + a] -= shift;
                        }
                    }
                }
                long[] users = randomLongs(count, random);
                long[] categories = randomLongs(count, random);
                int[] handles = tree.addAll(batch, users, categories);
                for (int i = 0; i < count; i++) {
                    int o = 6 * i;
                    assertEquals(handles[i], brute.add(batch[o], batch[o + 1], batch[o + 2], batch[o + 3],
                            batch[o + 4], batch[o + 5], users[i], categories[i]));
                    live.add(handles[i]);
                }
                next += count;
            } else if (kind == 2 && next < pool.size()) {
                int h = tree.add(pool.minX[next], pool.minY[next], pool.minZ[next], pool.maxX[next], pool.maxY[next],
                        pool.maxZ[next], next, -1L);
                assertEquals(h, brute.add(pool.minX[next], pool.minY[next], pool.minZ[next], pool.maxX[next],
                        pool.maxY[next], pool.maxZ[next], next, -1L));
                live.add(h);
                next++;
            } else if (kind == 3 && !live.isEmpty()) {
                for (int k = 0; k < 20 && !live.isEmpty(); k++) {
                    int h = live.remove(random.nextInt(live.size()));
                    tree.remove(h);
                    brute.remove(h);
                }
            } else if (kind == 4 && !live.isEmpty()) {
                double[] box = new double[6];
                for (int k = 0; k < 40; k++) {
                    int h = live.get(random.nextInt(live.size()));
                    brute.getTightBox(h, box);
                    double dx = (random.nextDouble() - 0.5) * 4;
                    double dy = (random.nextDouble() - 0.5) * 4;
                    tree.move(h, box[0] + dx, box[1] + dy, box[2], box[3] + dx, box[4] + dy, box[5], dx, dy, 0);
                    brute.move(h, box[0] + dx, box[1] + dy, box[2], box[3] + dx, box[4] + dy, box[5]);
                }
            } else {
                tree.rebuild(false);
            }
            tree.validate();
            assertEquals(live.size(), tree.size());
            if (step % 10 == 9) {
                TreeBuildTest.compareQueries(tree, brute, world(150, seed, originX, originY), seed + step);
            }
        }
        assertTrue(next > 5000, "the walk should have added many objects in batches: " + next);
    }

    @Test
    void shouldAddASpreadBatchAboutAsWellAsOneByOne() {
        // the next 4,000 boxes of the same world, spread thinly over all of it: inserted as one subtree, the batch
        // would overlap the whole tree (1.6x the cost of a fresh build)
        BoxSet boxes = SyntheticWorld.clustered(24_000, 5).boxes();
        assertBatchAboutAsGoodAsOneByOne(slice(boxes, 0, 20_000), slice(boxes, 20_000, 24_000));
    }

    @Test
    void shouldSpliceASpreadPrebuiltHierarchyWithoutOverlappingTheWholeTree() {
        BoxSet boxes = SyntheticWorld.clustered(24_000, 7).boxes();
        double[] rest = slice(boxes, 0, 20_000);
        double[] spread = slice(boxes, 20_000, 24_000);
        dev.boxwood.index.build.FlatBvh subtree = dev.boxwood.index.build.BinnedSahBuilder.defaults().build(spread);
        float[] local = dev.boxwood.index.build.BinnedSahBuilder.toFloatBoxes(spread, subtree.originX(),
                subtree.originY(), subtree.originZ());
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), rest, null, null);
        tree.spliceSubtree(subtree, local, null, null);
        tree.validate();
        DynamicAabbTree fresh = DynamicAabbTree.build(TreeConfig.defaults(), slice(boxes, 0, 24_000), null, null);
        // whole, the spread hierarchy would put the tree at about 1.6x a fresh build
        assertTrue(tree.areaRatio() < 1.10 * fresh.areaRatio(), tree.areaRatio() + " against " + fresh.areaRatio());
    }

    @Test
    void shouldSplicePartsOfAHierarchyWhateverItsNodeOrder() {
        // two dense clusters far apart over a sparse tree: each cluster goes in whole, the hierarchy's root does not
        SplittableRandom random = new SplittableRandom(11);
        double[] sparse = new double[6 * 5000];
        for (int i = 0; i < sparse.length; i += 6) {
            double x = random.nextDouble() * 1000;
            double y = random.nextDouble() * 1000;
            double[] box = {x, y, 0, x + 1, y + 1, 1};
            System.arraycopy(box, 0, sparse, i, 6);
        }
        double[] clusters = new double[6 * 1000];
        for (int i = 0; i < clusters.length; i += 6) {
            double c = i < clusters.length / 2 ? 50 : 950;
            double x = c + random.nextDouble() * 10;
            double y = c + random.nextDouble() * 10;
            double[] box = {x, y, 0, x + 0.5, y + 0.5, 1};
            System.arraycopy(box, 0, clusters, i, 6);
        }
        dev.boxwood.index.build.FlatBvh built = dev.boxwood.index.build.BinnedSahBuilder.defaults().build(clusters);
        float[] local = dev.boxwood.index.build.BinnedSahBuilder.toFloatBoxes(clusters, built.originX(),
                built.originY(), built.originZ());
        for (dev.boxwood.index.build.FlatBvh subtree : new dev.boxwood.index.build.FlatBvh[] {built,
                breadthFirst(built)}) {
            DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), sparse, null, null);
            int[] handles = tree.spliceSubtree(subtree, local, null, null);
            tree.validate();
            assertEquals(6000, tree.size());
            AllOverlaps hits = new AllOverlaps();
            TraversalStack stack = new TraversalStack();
            double[] box = new double[6];
            for (int h : handles) {
                tree.getTightBox(h, box);
                hits.reset();
                tree.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, hits, stack);
                boolean found = false;
                for (int i = 0; i < hits.count(); i++) {
                    found |= hits.handle(i) == h;
                }
                assertTrue(found, "spliced object " + h + " is found at its own box");
            }
        }
    }

    /** The same hierarchy with its internal nodes renumbered breadth first (children still after parents). */
    private static dev.boxwood.index.build.FlatBvh breadthFirst(dev.boxwood.index.build.FlatBvh bvh) {
        int nodes = bvh.nodeCount();
        int[] order = new int[nodes];
        int[] number = new int[nodes];
        int head = 0;
        int tail = 0;
        order[tail++] = 0;
        while (head < tail) {
            int k = order[head];
            number[k] = head++;
            for (int side = 0; side < 2; side++) {
                int ref = bvh.childRefs()[2 * k + side];
                if (ref >= 0) {
                    order[tail++] = ref;
                }
            }
        }
        float[] bounds = new float[12 * nodes];
        int[] refs = new int[2 * nodes];
        TreeBuild.copyInOrder(bvh.childBounds(), bvh.childRefs(), order, number, bounds, refs);
        assertTrue(refs[0] >= 0 && refs[1] >= 0 && refs[0] + 1 == refs[1], "breadth first: the root's children");
        return dev.boxwood.index.build.FlatBvh.of(bvh.objectCount(), bvh.originX(), bvh.originY(), bvh.originZ(),
                bounds, refs, bvh.rootBounds());
    }

    @Test
    void shouldAddACompactBatchAboutAsWellAsOneByOne() {
        BoxSet boxes = SyntheticWorld.clustered(24_000, 6).boxes();
        double[] tile = slice(boxes, 20_000, 24_000);
        for (int i = 0; i < tile.length; i += 6) {
            for (int a = 0; a < 2; a++) {
                // squeeze the batch into a 500 m square at the world's corner (a tile)
                double shift = tile[i + a] - tile[i + a] * 0.05;
                tile[i + a] -= shift;
                tile[i + 3 + a] -= shift;
            }
        }
        assertBatchAboutAsGoodAsOneByOne(slice(boxes, 0, 20_000), tile);
    }

    /** A tree of {@code rest} given {@code batch} by {@code addAll} ends within 2% of one given it by adds. */
    private static void assertBatchAboutAsGoodAsOneByOne(double[] rest, double[] batch) {
        DynamicAabbTree batched = DynamicAabbTree.build(TreeConfig.defaults(), rest, null, null);
        DynamicAabbTree added = DynamicAabbTree.build(TreeConfig.defaults(), rest, null, null);
        batched.addAll(batch, null, null);
        for (int i = 0; i < batch.length; i += 6) {
            added.add(batch[i], batch[i + 1], batch[i + 2], batch[i + 3], batch[i + 4], batch[i + 5], 0, -1L);
        }
        batched.validate();
        added.validate();
        assertTrue(batched.areaRatio() < 1.02 * added.areaRatio(), "batch " + batched.areaRatio()
                + " against one by one " + added.areaRatio());
    }

    @Test
    void shouldBuildABatchAsLargeAsTheTreeWithTheWholeTree() {
        // a spread, overlapping batch into a tree of one object: inserted (it went in one by one) it made a tree of
        // height 26; as large as the tree, it now goes in by a build of everything, the deferred adds' rule
        SplittableRandom random = new SplittableRandom(8);
        int n = 40_000;
        double[] all = new double[6 * (n + 1)];
        all[3] = 1;
        all[4] = 1;
        all[5] = 1;
        for (int i = 1; i <= n; i++) {
            for (int a = 0; a < 3; a++) {
                double centre = 100 * random.nextDouble();
                double half = 1 + 19 * random.nextDouble();
                all[6 * i + a] = centre - half;
                all[6 * i + 3 + a] = centre + half;
            }
        }
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex brute = new BruteForceIndex();
        tree.add(0, 0, 0, 1, 1, 1, 7, -1L);
        brute.add(0, 0, 0, 1, 1, 1, 7, -1L);
        int[] handles = tree.addAll(java.util.Arrays.copyOfRange(all, 6, all.length), null, null);
        tree.validate();
        assertEquals(n + 1, tree.size());
        for (int i = 1; i <= n; i++) {
            int o = 6 * i;
            assertEquals(brute.add(all[o], all[o + 1], all[o + 2], all[o + 3], all[o + 4], all[o + 5], 0, -1L),
                    handles[i - 1]);
        }
        // objects by slot, as the build takes them in input order: the same hierarchy as a bulk build's
        // the origin of the tree it is compared with (a build chooses its own otherwise)
        DynamicAabbTree built = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(0, 0, 0), all, null, null);
        assertEquals(built.height(), tree.height());
        assertEquals(built.areaRatio(), tree.areaRatio(), 1e-12 * built.areaRatio());
        TraversalStack stack = new TraversalStack();
        AllOverlaps fromTree = new AllOverlaps();
        AllOverlaps fromBrute = new AllOverlaps();
        for (int q = 0; q < 50; q++) {
            double x = 100 * random.nextDouble();
            double y = 100 * random.nextDouble();
            double z = 100 * random.nextDouble();
            double r = 5 * random.nextDouble();
            fromTree.reset();
            fromBrute.reset();
            tree.queryAabb(x - r, y - r, z - r, x + r, y + r, z + r, -1L, fromTree, stack);
            brute.queryAabb(x - r, y - r, z - r, x + r, y + r, z + r, -1L, fromBrute, stack);
            fromTree.sort();
            fromBrute.sort();
            assertEquals(fromBrute.count(), fromTree.count(), "box query " + q);
            for (int i = 0; i < fromBrute.count(); i++) {
                assertEquals(fromBrute.handle(i), fromTree.handle(i), "box query " + q);
            }
        }
        // a later add and a batch smaller than the tree take the usual paths on the rebuilt tree
        tree.add(50, 50, 50, 51, 51, 51, 1, -1L);
        tree.addAll(java.util.Arrays.copyOfRange(all, 6, 6 * 101), null, null);
        tree.validate();
        assertEquals(n + 102, tree.size());
    }

    @Test
    void shouldAddIntoAnEmptyTreeAndTakeEmptyAndSingleBatches() {
        DynamicAabbTree tree = new DynamicAabbTree(DENSE);
        assertEquals(0, tree.addAll(new double[0], null, null).length);
        tree.validate();
        assertEquals(0, tree.size());
        int[] one = tree.addAll(new double[] {1, 2, 3, 4, 5, 6}, new long[] {9}, new long[] {2});
        tree.validate();
        assertEquals(1, tree.size());
        assertEquals(9L, tree.userValue(one[0]));
        assertEquals(2L, tree.categoryBits(one[0]));
        BoxSet boxes = world(1500, 7, 0, 0);
        int[] handles = tree.addAll(slice(boxes, 0, boxes.size()), null, null);
        tree.validate();
        assertEquals(1 + boxes.size(), tree.size());
        assertEquals(0L, tree.userValue(handles[0]));
        assertEquals(-1L, tree.categoryBits(handles[0]));
        tree.remove(one[0]);
        tree.validate();
        int[] again = tree.addAll(new double[] {0, 0, 0, 0, 0, 0}, null, null);
        tree.validate();
        assertEquals(1 + boxes.size(), again[0], "the freed slot waits in quarantine: a fresh one");
        // a full quarantine: one[0]'s slot, the oldest freed, comes back with a new generation
        tree.removeAll(java.util.Arrays.copyOf(handles, Handles.QUARANTINE - 1));
        tree.validate();
        int[] reused = tree.addAll(new double[] {0, 0, 0, 0, 0, 0}, null, null);
        tree.validate();
        assertEquals(one[0] & Handles.SLOT_MASK, reused[0] & Handles.SLOT_MASK);
        assertFalse(reused[0] == one[0], "a reused slot gets a new generation");
        assertFalse(tree.contains(one[0]));
        assertTrue(tree.contains(reused[0]));
    }

    @Test
    void shouldRejectBadInputNamingTheArgumentAndChangeNothing() {
        BoxSet boxes = world(500, 8, 0, 0);
        DynamicAabbTree tree = DynamicAabbTree.build(DENSE, slice(boxes, 0, boxes.size()), null, null);
        tree.remove(17);
        AllOverlaps before = answers(tree);
        double[] good = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
        assertMessage("boxes", () -> tree.addAll(null, null, null));
        assertMessage("boxes", () -> tree.addAll(new double[7], null, null));
        double[] nan = good.clone();
        nan[4] = Double.NaN;
        assertMessage("boxes", () -> tree.addAll(nan, null, null));
        double[] infinite = good.clone();
        infinite[9] = Double.NEGATIVE_INFINITY;
        assertMessage("boxes", () -> tree.addAll(infinite, null, null));
        double[] inverted = good.clone();
        inverted[8] = 4;
        assertMessage("boxes", () -> tree.addAll(inverted, null, null));
        double[] beyondStorage = good.clone();
        beyondStorage[10] = 2e18;
        assertMessage("reaches more than", () -> tree.addAll(beyondStorage, null, null));
        assertMessage("userValues", () -> tree.addAll(good, new long[3], null));
        assertMessage("categories", () -> tree.addAll(good, null, new long[1]));
        tree.validate();
        assertEquals(boxes.size() - 1, tree.size());
        assertEquals(0, PairQueries.movedCount(tree), "nothing marked moved");
        AllOverlaps after = answers(tree);
        assertEquals(before.count(), after.count());
        for (int i = 0; i < before.count(); i++) {
            assertEquals(before.handle(i), after.handle(i));
        }
        // the handle allocator is untouched: the next object takes the slot it would have taken before (a fresh
        // one, as the freed slot waits in quarantine), not one past slots the rejected batches took
        int h = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        assertEquals(boxes.size(), h);
    }

    @Test
    void shouldRemoveABatchAllOrNone() {
        BoxSet boxes = world(2000, 9, 0, 0);
        DynamicAabbTree tree = new DynamicAabbTree(DENSE);
        BruteForceIndex brute = new BruteForceIndex();
        int[] handles = tree.addAll(slice(boxes, 0, boxes.size()), null, null);
        for (int i = 0; i < boxes.size(); i++) {
            brute.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], 0L,
                    -1L);
        }
        int[] half = new int[boxes.size() / 2];
        for (int i = 0; i < half.length; i++) {
            half[i] = handles[2 * i + 1];
        }
        int[] stale = half.clone();
        tree.remove(stale[700]);
        brute.remove(stale[700]);
        AllOverlaps before = answers(tree);
        // a removed handle late in the list, a handle listed twice, a null list: nothing removed
        assertMessage("handles[700]", () -> tree.removeAll(stale));
        int[] twice = {half[0], half[1], half[0]};
        assertMessage("more than once", () -> tree.removeAll(twice));
        assertMessage("handles", () -> tree.removeAll(null));
        tree.validate();
        AllOverlaps after = answers(tree);
        assertEquals(before.count(), after.count(), "nothing removed");
        tree.removeAll(new int[0]);
        int[] rest = java.util.Arrays.stream(half).filter(h -> h != stale[700]).toArray();
        tree.removeAll(rest);
        tree.validate();
        for (int h : rest) {
            assertFalse(tree.contains(h));
            brute.remove(h);
        }
        assertEquals(boxes.size() - half.length, tree.size());
        TreeBuildTest.compareQueries(tree, brute, world(200, 9, 0, 0), 10);
    }

    @Test
    void shouldRejectASplicedHierarchyWhoseReferencesChangedAfterItWasMadeBeforeTakingInDeferredAdds() {
        double[] boxes = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 5, 5, 5, 6, 6, 6};
        dev.boxwood.index.build.FlatBvh subtree = dev.boxwood.index.build.BinnedSahBuilder.defaults().build(boxes);
        float[] local = dev.boxwood.index.build.BinnedSahBuilder.toFloatBoxes(boxes, subtree.originX(),
                subtree.originY(), subtree.originZ());
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(true));
        tree.add(10, 10, 10, 11, 11, 11, 0, -1L);
        int[] refs = subtree.childRefs();
        int kept = refs[0];
        // FlatBvh hands out its arrays: one changed afterwards must not be trusted as an index
        for (int bad : new int[] {99, ~7, refs[1]}) {
            refs[0] = bad;
            assertMessage("childRefs", () -> tree.spliceSubtree(subtree, local, null, null));
            assertEquals(1, tree.pendingAdds(), "the pending add stays pending");
            tree.validate();
        }
        refs[0] = kept;
        assertEquals(3, tree.spliceSubtree(subtree, local, null, null).length);
        tree.validate();
        assertEquals(4, tree.size());
    }

    @Test
    void shouldRejectASplicedBoxBeyondTheStorageRangeOfAFarOrigin() {
        // in one frame the floats are stored as they are: 5e18 lies beyond the range, though through the world
        // coordinates of an origin of 1e35 it rounds away (1e35 + 5e18 - 1e35 is 0)
        double origin = 1e35;
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin, 0, 0)
                .withDeferredAdds(true));
        tree.add(origin, 0, 0, origin, 1, 1, 0, -1L);
        float[] boxes = {0, 0, 0, 5e18f, 1, 1, 0, 2, 0, 1, 3, 1};
        dev.boxwood.index.build.FlatBvh subtree = dev.boxwood.index.build.FlatBvh.of(2, origin, 0, 0, boxes.clone(),
                new int[] {~0, ~1}, new float[] {0, 0, 0, 5e18f, 3, 1});
        assertMessage("objectBoxes", () -> tree.spliceSubtree(subtree, boxes, null, null));
        assertEquals(1, tree.size());
        // such a box, once stored, made every later rebuild refuse the tree: the one taking in these pending
        // adds would have thrown at every query
        for (int i = 0; i < 64; i++) {
            tree.add(origin, i, 0, origin, i + 1, 1, i, -1L);
        }
        AllOverlaps all = new AllOverlaps();
        tree.queryAabb(origin - 1, -1, -1, origin + 1, 100, 2, -1L, all, new TraversalStack());
        assertEquals(65, all.count());
        tree.rebuild(true);
        tree.validate();
    }

    private static AllOverlaps answers(DynamicAabbTree tree) {
        AllOverlaps all = new AllOverlaps();
        tree.queryAabb(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9, -1L, all, new TraversalStack());
        all.sort();
        return all;
    }

    private static void assertMessage(String argument, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(argument), e.getMessage());
    }
}
