package dev.boxwood.index;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Comparator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Budgeted insertion-based optimisation: validity, exact queries, real improvement, no allocation. */
class TreeOptimizerTest {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static BoxSet world(int n, long seed) {
        return SyntheticWorld.clustered(n, seed, WorldFrame.scaled(0.01)).boxes();
    }

    @Test
    void shouldKeepTheTreeValidAndQueriesExactWhileOptimizing() {
        Differential d = new Differential(world(2000, 31), TreeConfig.defaults(), 32);
        for (int round = 0; round < 300; round++) {
            d.run(5, 400, 1);
            int budget = round % 7;
            int done = d.tree.optimize(budget);
            assertTrue(done <= budget, done + " re-insertions for budget " + budget);
            d.tree.validate();
            d.randomBoxQuery();
            d.randomRay();
        }
        assertTrue(d.hitsSeen > d.queries / 10, "queries should mostly hit something: " + d.hitsSeen);
    }

    @Test
    void shouldImproveATreeBuiltFromSortedInsertionsWithoutRotations() {
        BoxSet boxes = world(5000, 33);
        Integer[] order = new Integer[boxes.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // Inserting in x order without rotations gives a poor, deep tree (dyn4j#49's complaint).
        Arrays.sort(order, Comparator.comparingDouble(i -> boxes.minX[i]));
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withRotations(false));
        for (int i : order) {
            tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    i, -1L);
        }
        double before = tree.areaRatio();
        int done = 0;
        for (int call = 0; call < 200; call++) {
            done += tree.optimize(50);
        }
        tree.validate();
        double after = tree.areaRatio();
        double fresh = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null).areaRatio();
        assertTrue(done > 0);
        assertTrue(after < before, "area ratio " + before + " -> " + after);
        assertTrue(after - fresh < 0.5 * (before - fresh),
                "optimisation should close at least half the gap to a fresh build: " + before + " -> " + after
                        + ", fresh " + fresh);
    }

    @Test
    void shouldDoNothingWithoutBudgetOrNodesToMove() {
        DynamicAabbTree tree = new DynamicAabbTree();
        assertEquals(0, tree.optimize(10));
        tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        tree.add(2, 0, 0, 3, 1, 1, 0, -1L);
        assertEquals(0, tree.optimize(10), "the root alone has no parent to take out");
        tree.add(4, 0, 0, 5, 1, 1, 0, -1L);
        assertEquals(0, tree.optimize(0));
        tree.validate();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tree.optimize(-1));
        assertTrue(e.getMessage().contains("budget"), e.getMessage());
    }

    @Test
    void shouldAllocateNothingAfterWarmUp() {
        BoxSet boxes = world(4000, 34);
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < boxes.size(); i++) {
            tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    i, -1L);
        }
        int done = 0;
        for (int call = 0; call < 300; call++) {
            done += tree.optimize(16);
        }
        // up to ten windows: a one-off runtime allocation does not repeat, an allocation per call does
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (int call = 0; call < 100; call++) {
                done += tree.optimize(16);
            }
            allocated = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        }
        tree.validate();
        assertTrue(done > 0);
        assertEquals(0, allocated, "bytes allocated by 100 optimize(16) calls");
    }

    @Test
    void shouldSweepEveryNodeIndexOnceWithAStrideSpreadOverTheTree() {
        for (int range = 1; range <= 5000; range++) {
            int stride = TreeOptimizer.coprimeStride(range);
            assertTrue(stride >= 0 && stride < Math.max(range, 2), "stride " + stride + " for " + range);
            boolean[] seen = new boolean[range];
            int p = 0;
            for (int step = 0; step < range; step++) {
                assertTrue(!seen[p], "index " + p + " seen twice in a sweep over " + range);
                seen[p] = true;
                p = (p + stride) % range;
            }
            if (range >= 100) {
                // a sample of eight consecutive steps covers more than half of the indices' span
                int lo = range;
                int hi = -1;
                for (int step = 0, q = 0; step < 8; step++, q = (q + stride) % range) {
                    lo = Math.min(lo, q);
                    hi = Math.max(hi, q);
                }
                assertTrue(hi - lo > range / 2, "span " + (hi - lo) + " of " + range);
            }
        }
    }
}
