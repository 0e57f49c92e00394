package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Structure, handles, fat boxes and quality measures of the tree. */
class DynamicAabbTreeTest {

    private static final double[] UNIT = {0, 0, 0, 1, 1, 1};

    private static int add(DynamicAabbTree tree, double[] b, long user) {
        return tree.add(b[0], b[1], b[2], b[3], b[4], b[5], user, -1L);
    }

    @Test
    void shouldStartEmptyAndValid() {
        DynamicAabbTree tree = new DynamicAabbTree();
        tree.validate();
        assertEquals(0, tree.size());
        assertEquals(0, tree.height());
        assertEquals(0.0, tree.areaRatio());
    }

    @Test
    void shouldKeepUserValueCategoryAndTightBox() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int h = tree.add(1, 2, 3, 4, 5, 6, 42L, 0x8000_0000_0000_0001L);
        tree.validate();
        assertTrue(tree.contains(h));
        assertEquals(42L, tree.userValue(h));
        assertEquals(0x8000_0000_0000_0001L, tree.categoryBits(h));
        double[] box = new double[6];
        tree.getTightBox(h, box);
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, box);
        assertEquals(1, tree.size());
        assertEquals(0, tree.height());
    }

    @Test
    void shouldRejectStaleHandlesAfterRemoval() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int a = add(tree, UNIT, 1);
        tree.remove(a);
        tree.validate();
        int b = add(tree, UNIT, 2);
        assertEquals(1, b & Handles.SLOT_MASK, "a's slot waits in quarantine: a fresh slot");
        // the rest of a full quarantine freed after a's slot: then a's slot is reused, with a new generation
        int[] others = new int[Handles.QUARANTINE - 1];
        for (int i = 0; i < others.length; i++) {
            others[i] = add(tree, UNIT, 3);
        }
        for (int h : others) {
            tree.remove(h);
        }
        tree.validate();
        int c = add(tree, UNIT, 4);
        assertEquals(a & Handles.SLOT_MASK, c & Handles.SLOT_MASK, "slot is reused once the quarantine is full");
        assertNotEquals(a, c, "with a new generation");
        assertFalse(tree.contains(a));
        assertEquals(4L, tree.userValue(c));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tree.userValue(a));
        assertTrue(e.getMessage().contains("handle " + a), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> tree.move(a, 0, 0, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> tree.remove(a));
        assertEquals(2L, tree.userValue(b));
        tree.remove(b);
        assertThrows(IllegalArgumentException.class, () -> tree.remove(b), "double removal");
        assertThrows(IllegalArgumentException.class, () -> tree.userValue(12345));
        assertThrows(IllegalArgumentException.class, () -> tree.userValue(-1));
        tree.validate();
    }

    @Test
    void shouldFattenByMarginCappedByFractionOfLongestEdge() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0.5, 0.25));
        double[] fat = new double[6];
        int small = tree.add(0, 0, 0, 1, 0.5, 0.25, 0, -1L);   // longest edge 1: margin min(0.5, 0.25) = 0.25
        tree.getFatBox(small, fat);
        assertArrayEquals(new double[] {-0.25, -0.25, -0.25, 1.25, 0.75, 0.5}, fat);
        int large = tree.add(10, 10, 10, 14, 11, 11, 0, -1L);  // longest edge 4: margin min(0.5, 1) = 0.5
        tree.getFatBox(large, fat);
        assertArrayEquals(new double[] {9.5, 9.5, 9.5, 14.5, 11.5, 11.5}, fat);
        int point = tree.add(3, 3, 3, 3, 3, 3, 0, -1L);         // a point gets no margin
        tree.getFatBox(point, fat);
        assertArrayEquals(new double[] {3, 3, 3, 3, 3, 3}, fat);
        tree.validate();
    }

    @Test
    void shouldMoveInsideTheFatBoxWithoutReinsertion() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0.5, 0.25));
        int h = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        add(tree, new double[] {5, 5, 5, 6, 6, 6}, 0);
        double[] before = new double[6];
        double[] after = new double[6];
        tree.getFatBox(h, before);
        tree.move(h, 0.2, 0.1, -0.2, 1.2, 1.1, 0.8);
        tree.validate();
        tree.getFatBox(h, after);
        assertArrayEquals(before, after, "fat box unchanged");
        double[] tight = new double[6];
        tree.getTightBox(h, tight);
        assertStoredOutward(new double[] {0.2, 0.1, -0.2, 1.2, 1.1, 0.8}, tight);
        tree.move(h, 0.5, 0, 0, 1.5, 1, 1);   // escapes on +x
        tree.validate();
        tree.getFatBox(h, after);
        assertArrayEquals(new double[] {0.25, -0.25, -0.25, 1.75, 1.25, 1.25}, after);
    }

    /** The stored box contains the given one and is at most one float ulp larger per side. */
    static void assertStoredOutward(double[] given, double[] stored) {
        for (int a = 0; a < 3; a++) {
            assertTrue(stored[a] <= given[a] && given[a] - stored[a] <= Math.ulp((float) given[a]),
                    "min " + a + ": stored " + stored[a] + " for " + given[a]);
            assertTrue(stored[a + 3] >= given[a + 3] && stored[a + 3] - given[a + 3] <= Math.ulp((float) given[a + 3]),
                    "max " + a + ": stored " + stored[a + 3] + " for " + given[a + 3]);
        }
    }

    @Test
    void shouldExtendTheFatBoxByTheDisplacementAndShrinkItWhenMotionStops() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0.25, 0.25).withPrediction(1));
        int h = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        tree.move(h, 1, 0, 0, 2, 1, 1, 4, 0, -2);   // escapes: re-inserted with the prediction
        double[] fat = new double[6];
        tree.getFatBox(h, fat);
        assertArrayEquals(new double[] {0.75, -0.25, -2.25, 6.25, 1.25, 1.25}, fat);
        tree.move(h, 1, 0, 0, 2, 1, 1);             // inside, but the fat box is now far too large
        tree.getFatBox(h, fat);
        assertArrayEquals(new double[] {0.75, -0.25, -0.25, 2.25, 1.25, 1.25}, fat);
        tree.validate();
    }

    @Test
    void shouldReachFourDisplacementsAheadByDefault() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0.25, 0.25));
        assertEquals(4.0, TreeConfig.defaults().prediction());
        int h = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        tree.move(h, 1, 0, 0, 2, 1, 1, 4, 0, -2);
        double[] fat = new double[6];
        tree.getFatBox(h, fat);
        assertArrayEquals(new double[] {0.75, -0.25, -8.25, 18.25, 1.25, 1.25}, fat);
        tree.validate();
    }

    @Test
    void shouldKeepTheFatBoxOfASteadyMoverUntilItReachesTheLeadingSide() {
        // margin 0.25, one unit a move along x, prediction 4: the fat box made at move 1 reaches x = 6.25, so
        // moves 2 to 5 stay inside it; its trailing side (x = 0.75) must not count as oversized on the way
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0.25, 0.25));
        int other = tree.add(50, 50, 50, 51, 51, 51, 1, -1L);
        int h = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        double[] fat = new double[6];
        double[] previous = new double[6];
        for (int k = 1; k <= 6; k++) {
            tree.getFatBox(h, previous);
            tree.move(h, k, 0, 0, k + 1, 1, 1, 1, 0, 0);
            tree.validate();
            tree.getFatBox(h, fat);
            boolean kept = java.util.Arrays.equals(previous, fat);
            assertEquals(k >= 2 && k <= 5, kept, "move " + k + ": fat box " + java.util.Arrays.toString(fat));
        }
        assertArrayEquals(new double[] {5.75, -0.25, -0.25, 11.25, 1.25, 1.25}, fat);
        assertTrue(tree.contains(other));
    }

    @Test
    void shouldRefitInPlaceWhenTheNewFatBoxStaysInsideItsParentsBox() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0.25, 0.25).withPrediction(1));
        int small = tree.add(10, 10, 10, 11, 11, 11, 0, -1L);
        int large = tree.add(0, 0, 0, 100, 100, 100, 1, -1L);
        int slot = small & Handles.SLOT_MASK;
        int entry = tree.leafEntries[slot];
        // escapes its fat box, but the new one lies inside the large box beside it: refitted where it is (a
        // re-insertion would have detached it and put it back as the second entry of a new parent)
        tree.move(small, 12, 10, 10, 13, 11, 11, 2, 0, 0);
        tree.validate();
        assertEquals(entry, tree.leafEntries[slot]);
        double[] fat = new double[6];
        tree.getFatBox(small, fat);
        assertArrayEquals(new double[] {11.75, 9.75, 9.75, 15.25, 11.25, 11.25}, fat);
        // leaving the parent's box re-inserts it
        tree.move(small, 200, 10, 10, 201, 11, 11, 0, 0, 0);
        tree.validate();
        assertNotEquals(entry, tree.leafEntries[slot]);
        tree.getFatBox(small, fat);
        assertArrayEquals(new double[] {199.75, 9.75, 9.75, 201.25, 11.25, 11.25}, fat);
        assertTrue(tree.contains(large));
    }

    @Test
    void shouldRunTheAddOptimizationOnTinyAndChangingTrees() {
        // every add is an optimisation step here, on trees of 1, 2, 3... objects and after removals
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withAddOptimization(1));
        SplittableRandom random = new SplittableRandom(11);
        java.util.List<Integer> live = new java.util.ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            if (!live.isEmpty() && random.nextInt(3) == 0) {
                tree.remove(live.remove(random.nextInt(live.size())));
            } else {
                double x = random.nextDouble() * 100;
                double y = random.nextDouble() * 100;
                live.add(tree.add(x, y, 0, x + 1, y + 1, 1, i, 1));
            }
            tree.validate();
            assertEquals(live.size(), tree.size());
        }
        for (int h : live) {
            assertTrue(tree.contains(h));
        }
    }

    @Test
    void shouldRejectABadPrediction() {
        TreeConfig config = TreeConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> config.withPrediction(-1));
        assertThrows(IllegalArgumentException.class, () -> config.withPrediction(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> config.withPrediction(Double.POSITIVE_INFINITY));
        assertEquals(0.0, config.withPrediction(0).prediction());
        assertThrows(IllegalArgumentException.class, () -> config.withAddOptimization(-1));
        assertEquals(64, config.addsPerOptimization());
        assertEquals(0, config.withAddOptimization(0).addsPerOptimization());
    }

    @Test
    void shouldKeepTreesOverCollinearPointsBalanced() {
        // boxes without area: every split costs 0 by area alone; the builder's tie-break keeps its trees balanced,
        // and a full rebuild repairs the tree filled one by one
        int n = 20000;
        DynamicAabbTree added = new DynamicAabbTree();
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            added.add(0.001 * i, 5, 5, 0.001 * i, 5, 5, i, -1L);
            boxes[6 * i] = 0.001 * i;
            boxes[6 * i + 3] = 0.001 * i;
        }
        added.validate();
        DynamicAabbTree built = DynamicAabbTree.build(TreeConfig.defaults(), boxes, null, null);
        built.validate();
        // log2(20000) = 14.3
        assertTrue(built.height() <= 20, "bulk: height " + built.height());
        added.rebuild(true);
        added.validate();
        assertTrue(added.height() <= 20, "one by one, then rebuilt: height " + added.height());
    }

    @Test
    void shouldCountEveryArrayTheTreeHoldsInItsMemory() throws IllegalAccessException {
        BoxSet boxes = SyntheticWorld.clustered(50000, 6, WorldFrame.STANDARD).boxes();
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < boxes.size(); i++) {
            tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1);
        }
        tree.optimize(5000);
        assertMemoryCounted(tree);
        // with deferred adds: objects pending, and after a batch has taken them in (the pending arrays are kept)
        DynamicAabbTree deferred = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(true));
        for (int i = 0; i < boxes.size(); i++) {
            deferred.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    i, 1);
            if (i == 40_000) {
                deferred.flushAdds();
            }
        }
        assertEquals(boxes.size() - 40_001, deferred.pendingAdds());
        assertMemoryCounted(deferred);
        deferred.flushAdds();
        assertEquals(1, deferred.batchFlushes);
        assertMemoryCounted(deferred);
    }

    private static void assertMemoryCounted(DynamicAabbTree tree) throws IllegalAccessException {
        long held = arrayBytesReachable(tree, new java.util.IdentityHashMap<>());
        // the few fixed scratch arrays of a handful of elements are not worth counting
        assertTrue(Math.abs(held - tree.memoryBytes()) < 1024,
                "memoryBytes " + tree.memoryBytes() + " against " + held + " held in arrays");
    }

    /** Every primitive array reachable from {@code o} through the library's own objects, 16 bytes per header. */
    private static long arrayBytesReachable(Object o, java.util.IdentityHashMap<Object, Boolean> seen)
            throws IllegalAccessException {
        if (o == null || seen.put(o, Boolean.TRUE) != null) {
            return 0;
        }
        Class<?> type = o.getClass();
        if (type.isArray()) {
            Class<?> c = type.getComponentType();
            int bytes = c == long.class || c == double.class ? 8 : c == int.class || c == float.class ? 4
                    : c == short.class || c == char.class ? 2 : 1;
            return c.isPrimitive() ? 16L + (long) java.lang.reflect.Array.getLength(o) * bytes : 0;
        }
        if (!type.getName().startsWith("dev.boxwood.")) {
            return 0;
        }
        long sum = 0;
        for (Class<?> k = type; k != null; k = k.getSuperclass()) {
            for (java.lang.reflect.Field f : k.getDeclaredFields()) {
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                f.setAccessible(true);
                sum += arrayBytesReachable(f.get(o), seen);
            }
        }
        return sum;
    }

    @Test
    void shouldReportQualityHeightAndMemory() {
        BoxSet boxes = SyntheticWorld.clustered(20000, 5, WorldFrame.STANDARD).boxes();
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < boxes.size(); i++) {
            tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1);
        }
        tree.validate();
        double ratio = tree.areaRatio();
        int height = tree.height();
        double bytesPerObject = (double) tree.memoryBytes() / tree.size();
        System.out.printf("20000 clustered objects: area ratio %.2f, height %d, %.1f bytes/object%n",
                ratio, height, bytesPerObject);
        assertTrue(ratio >= 1.0, "ratio " + ratio);
        // log2(20000) = 14.3; incremental SAH trees stay within a small factor of it.
        assertTrue(height >= 15 && height <= 60, "height " + height);
        assertTrue(bytesPerObject > 100 && bytesPerObject < 260, "bytes/object " + bytesPerObject);
    }

    @Test
    void shouldBuildABetterTreeWithRotationsOnSortedInput() {
        // Sorted insertion is the classic worst case of incremental trees; rotations repair part of it.
        DynamicAabbTree rotated = new DynamicAabbTree();
        DynamicAabbTree plain = new DynamicAabbTree(TreeConfig.defaults().withRotations(false));
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 4000; i++) {
            double x = i * 0.5;
            double y = random.nextDouble() * 10;
            rotated.add(x, y, 0, x + 1, y + 1, 1, i, 1);
            plain.add(x, y, 0, x + 1, y + 1, 1, i, 1);
        }
        rotated.validate();
        plain.validate();
        assertTrue(rotated.areaRatio() <= plain.areaRatio(),
                rotated.areaRatio() + " with rotations vs " + plain.areaRatio() + " without");
    }

    @Test
    void shouldChangeUserValuesAndCategoriesInPlace() {
        DynamicAabbTree tree = new DynamicAabbTree();
        SplittableRandom random = new SplittableRandom(17);
        int[] handles = new int[300];
        long[] categories = new long[handles.length];
        for (int i = 0; i < handles.length; i++) {
            double x = random.nextDouble() * 30;
            categories[i] = 1L << (i % 5);
            handles[i] = tree.add(x, x, x, x + 1, x + 1, x + 1, i, categories[i]);
        }
        TraversalStack stack = new TraversalStack();
        AllOverlaps found = new AllOverlaps();
        for (int round = 0; round < 200; round++) {
            int k = random.nextInt(handles.length);
            categories[k] = 1L << random.nextInt(8);
            tree.setCategoryBits(handles[k], categories[k]);
            tree.setUserValue(handles[k], 1000 + round);
            tree.validate();
            assertEquals(categories[k], tree.categoryBits(handles[k]));
            assertEquals(1000 + round, tree.userValue(handles[k]));
            long mask = 1L << random.nextInt(8);
            found.reset();
            tree.queryAabb(-1, -1, -1, 40, 40, 40, mask, found, stack);
            int expected = 0;
            for (long c : categories) {
                expected += (c & mask) != 0 ? 1 : 0;
            }
            assertEquals(expected, found.count(), "objects of category mask " + mask);
        }
        int stale = handles[0];
        tree.remove(stale);
        assertThrows(IllegalArgumentException.class, () -> tree.setCategoryBits(stale, 1));
        assertThrows(IllegalArgumentException.class, () -> tree.setUserValue(stale, 1));
    }

    @Test
    void shouldNotChainIdenticalBoxes() {
        // Every placement of an identical box has the same surface area cost; the rotations' tie rule keeps the
        // tree from degenerating into a chain (which the plain area rule builds: height n - 1).
        DynamicAabbTree tree = new DynamicAabbTree();
        int n = 3000;
        for (int i = 0; i < n; i++) {
            tree.add(5, 5, 5, 6, 6, 6, i, 1);
        }
        tree.validate();
        assertTrue(tree.height() < 200, "height " + tree.height());
        AllOverlaps all = new AllOverlaps();
        tree.queryAabb(6, 6, 6, 7, 7, 7, -1L, all, new TraversalStack(1));
        assertEquals(n, all.count());
    }

    @Test
    void shouldHandleDeeplyNestedBoxes() {
        // Nested boxes are a legitimate chain (each contains all smaller ones); queries and removals stay correct.
        DynamicAabbTree tree = new DynamicAabbTree();
        int[] handles = new int[2000];
        for (int i = 0; i < handles.length; i++) {
            handles[i] = tree.add(-i - 1, -i - 1, -i - 1, i + 1, i + 1, i + 1, i, 1);
        }
        tree.validate();
        AllOverlaps all = new AllOverlaps();
        TraversalStack stack = new TraversalStack(1);
        tree.queryAabb(1000.5, 0, 0, 1000.5, 0, 0, -1L, all, stack);
        assertEquals(handles.length - 1000, all.count());
        for (int i = 0; i < handles.length; i += 2) {
            tree.remove(handles[i]);
        }
        tree.validate();
        all.reset();
        tree.queryAabb(0, 0, 0, 0, 0, 0, -1L, all, stack);
        assertEquals(handles.length / 2, all.count());
    }

    @Test
    void shouldEmptyAndRefillCleanly() {
        DynamicAabbTree tree = new DynamicAabbTree();
        SplittableRandom random = new SplittableRandom(9);
        int[] handles = new int[500];
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < handles.length; i++) {
                double x = random.nextDouble() * 100;
                handles[i] = tree.add(x, x, x, x + 1, x + 1, x + 1, i, 1);
            }
            tree.validate();
            for (int i = handles.length - 1; i >= 0; i--) {
                tree.remove(handles[i]);
            }
            tree.validate();
            assertEquals(0, tree.size());
            AllOverlaps all = new AllOverlaps();
            tree.queryAabb(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9, -1L, all, new TraversalStack());
            assertEquals(0, all.count());
        }
    }

    /**
     * Region traversals take nodes breadth first until a window fills, then depth first, in a ring sized from the
     * height: a tall tree with bushy subtrees drives both phases, and a lost or repeated node would lose or repeat
     * objects.
     */
    @Test
    void shouldFindEveryObjectOnceInATallBushyTree() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withRotations(false).withAddOptimization(0));
        SplittableRandom random = new SplittableRandom(77);
        int clusters = 150;
        int perCluster = 40;
        for (int c = 0; c < clusters; c++) {
            for (int k = 0; k < perCluster; k++) {
                double x = c * 1000.0 + random.nextDouble(100);
                double y = random.nextDouble(100);
                double z = random.nextDouble(100);
                tree.add(x, y, z, x + 1, y + 1, z + 1, c * perCluster + k, 1L);
            }
        }
        tree.validate();
        assertTrue(tree.height() > 50, "a chain of clusters: height " + tree.height());
        int n = clusters * perCluster;
        TraversalStack stack = new TraversalStack();
        AllOverlaps all = new AllOverlaps();
        tree.queryAabb(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9, -1L, all, stack);
        assertEveryUserValueOnce(all, n);
        all.reset();
        tree.queryBox(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9, RegionMode.CROSSING, -1L, null, all, stack);
        assertEveryUserValueOnce(all, n);
        all.reset();
        tree.querySphere(75_000, 50, 50, 1e9, RegionMode.CROSSING, -1L, null, all, stack);
        assertEveryUserValueOnce(all, n);
    }

    private static void assertEveryUserValueOnce(AllOverlaps all, int n) {
        assertEquals(n, all.count());
        boolean[] seen = new boolean[n];
        for (int i = 0; i < all.count(); i++) {
            int value = (int) all.userValue(i);
            assertFalse(seen[value], "reported twice: " + value);
            seen[value] = true;
        }
    }

    @Test
    void shouldListTheLiveHandlesInSlotOrderPendingAddsIncluded() {
        for (boolean deferred : new boolean[] {false, true}) {
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(deferred));
            assertEquals(0, tree.liveHandles().length);
            SplittableRandom r = new SplittableRandom(3);
            java.util.TreeMap<Integer, Integer> liveBySlot = new java.util.TreeMap<>();
            for (int step = 0; step < 3_000; step++) {
                if (liveBySlot.isEmpty() || r.nextInt(3) != 0) {
                    double x = r.nextDouble(0, 100);
                    int h = tree.add(x, 0, 0, x + 1, 1, 1, step, -1L);
                    assertEquals(null, liveBySlot.put(h & Handles.SLOT_MASK, h));
                } else {
                    Integer slot = liveBySlot.keySet().toArray(new Integer[0])[r.nextInt(liveBySlot.size())];
                    tree.remove(liveBySlot.remove(slot));
                }
                if (step % 500 == 0) {
                    int[] expected = liveBySlot.values().stream().mapToInt(Integer::intValue).toArray();
                    assertArrayEquals(expected, tree.liveHandles(), "step " + step);
                }
            }
            int[] expected = liveBySlot.values().stream().mapToInt(Integer::intValue).toArray();
            int pendingBefore = tree.pendingAdds();
            assertArrayEquals(expected, tree.liveHandles());
            assertEquals(pendingBefore, tree.pendingAdds(), "listing takes nothing in");
            assertTrue(!deferred || pendingBefore > 0);
            tree.validate();
        }
    }
}
