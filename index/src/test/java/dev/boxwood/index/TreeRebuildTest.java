package dev.boxwood.index;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Full and partial rebuilds: validity, unchanged handles and boxes, exact queries, what a partial one keeps. */
class TreeRebuildTest {

    private static BoxSet world(int n, long seed) {
        return SyntheticWorld.clustered(n, seed, WorldFrame.scaled(0.01)).boxes();
    }

    @Test
    void shouldRebuildFullyIntoExactlyTheTreeOfABulkBuild() {
        BoxSet boxes = world(3000, 21);
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < boxes.size(); i++) {
            tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i],
                    i, -1L);
        }
        tree.rebuild(true);
        tree.validate();
        // Same fat boxes in the same order: the same builder must give the same nodes, numbered the same way.
        // the origin of the tree it is compared with (a build chooses its own otherwise)
        DynamicAabbTree built = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(0, 0, 0), boxes.toInterleaved(), null, null);
        assertEquals(built.nodeHighWater, tree.nodeHighWater);
        int used = DynamicAabbTree.recordIndex(tree.nodeHighWater);
        assertArrayEquals(Arrays.copyOf(built.records, used), Arrays.copyOf(tree.records, used));
        assertEquals(built.areaRatio(), tree.areaRatio());
        for (int i = 0; i < boxes.size(); i++) {
            assertEquals(i, tree.userValue(i));
        }
    }

    @Test
    void shouldKeepHandlesBoxesAndExactQueriesThroughRebuildsBetweenMutations() {
        BoxSet pool = world(2000, 22);
        Differential d = new Differential(pool, TreeConfig.defaults(), 23);
        double[] before = new double[6];
        double[] after = new double[6];
        for (int round = 0; round < 40; round++) {
            d.run(60, 500, 0);
            int[] handles = liveHandles(d.tree);
            double[][] fat = new double[handles.length][];
            for (int k = 0; k < handles.length; k++) {
                d.tree.getFatBox(handles[k], before);
                fat[k] = before.clone();
            }
            d.tree.rebuild(round % 3 == 0);
            d.tree.validate();
            for (int k = 0; k < handles.length; k++) {
                assertTrue(d.tree.contains(handles[k]));
                d.tree.getFatBox(handles[k], after);
                assertArrayEquals(fat[k], after, "fat box of handle " + handles[k]);
            }
            for (int q = 0; q < 20; q++) {
                d.randomBoxQuery();
                d.randomRay();
            }
        }
        assertTrue(d.hitsSeen > d.queries / 10, "queries should mostly hit something: " + d.hitsSeen);
    }

    /** @return the handles of every live object, in slot order */
    static int[] liveHandles(DynamicAabbTree tree) {
        int[] out = new int[tree.size()];
        int k = 0;
        for (int slot = 0; slot < tree.handles.highWater(); slot++) {
            if (tree.handles.isLiveSlot(slot)) {
                out[k++] = tree.handles.handleOf(slot);
            }
        }
        return out;
    }

    @Test
    void shouldRebuildOnlyTouchedNodesAndKeepUntouchedSubtreesWhole() {
        BoxSet boxes = world(4000, 24);
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        tree.rebuild(false);
        tree.validate();
        for (int node = 1; node < tree.nodeHighWater; node++) {
            assertFalse(tree.touched[node], "a bulk build leaves nothing touched");
        }
        // Teleport a few objects far across the world: each re-insertion touches two root paths.
        for (int i = 0; i < 10; i++) {
            int j = (i * 197) % boxes.size();
            tree.move(i, boxes.minX[j], boxes.minY[j], boxes.minZ[j], boxes.maxX[j], boxes.maxY[j], boxes.maxZ[j]);
            tree.validate();
        }
        int[] recordsBefore = tree.records.clone();
        boolean[] touchedBefore = tree.touched.clone();
        int touchedCount = 0;
        for (int node = 1; node < tree.nodeHighWater; node++) {
            if (touchedBefore[node]) {
                touchedCount++;
            }
        }
        assertTrue(touchedCount > 0 && touchedCount < tree.size() / 2, "touched nodes: " + touchedCount);
        tree.rebuild(false);
        tree.validate();
        for (int node = 1; node < tree.nodeHighWater; node++) {
            if (!touchedBefore[node]) {
                for (int side = 0; side < 2; side++) {
                    int ref = DynamicAabbTree.refIndex(2 * node + side);
                    assertEquals(recordsBefore[ref], tree.records[ref], "untouched node " + node);
                }
            }
            if (tree.heights[node] > 0) {
                assertFalse(tree.touched[node], "node " + node + " still touched after a partial rebuild");
            }
        }
        // Nothing changed since: a second partial rebuild is a no-op.
        int[] recordsAfter = tree.records.clone();
        tree.rebuild(false);
        assertArrayEquals(recordsAfter, tree.records);
    }

    @Test
    void shouldRebuildAndOptimizeThe2dFacadesTree() {
        BoxSet boxes = world(2000, 25);
        DynamicAabbTree2D planar = new DynamicAabbTree2D();
        for (int i = 0; i < boxes.size(); i++) {
            planar.add(boxes.minX[i], boxes.minY[i], boxes.maxX[i], boxes.maxY[i], i, 1L << (i & 63));
        }
        DynamicAabbTree tree = planar.tree();
        for (int round = 0; round < 20; round++) {
            for (int k = 0; k < 50; k++) {
                int i = (round * 50 + k) % boxes.size();
                int j = (i * 7 + 3) % boxes.size();
                planar.move(i, boxes.minX[j], boxes.minY[j], boxes.maxX[j], boxes.maxY[j]);
            }
            tree.optimize(10);
            tree.validate();
            tree.rebuild(round % 4 == 0);
            tree.validate();
        }
        double[] fat = new double[6];
        for (int i = 0; i < boxes.size(); i++) {
            tree.getFatBox(i, fat);
            assertEquals(0.0, fat[2], "no margin along z in the plane");
            assertEquals(0.0, fat[5], "no margin along z in the plane");
            assertEquals(i, tree.userValue(i));
        }
    }

    @Test
    void shouldRebuildEmptyAndTinyTrees() {
        DynamicAabbTree tree = new DynamicAabbTree();
        tree.rebuild(true);
        tree.rebuild(false);
        tree.validate();
        int a = tree.add(0, 0, 0, 1, 1, 1, 1, 1);
        tree.rebuild(true);
        tree.validate();
        int b = tree.add(2, 0, 0, 3, 1, 1, 2, 2);
        tree.rebuild(false);
        tree.validate();
        tree.rebuild(true);
        tree.validate();
        assertEquals(1, tree.height());
        assertEquals(3, tree.records[DynamicAabbTree.maskIndex(0)], "root mask is the OR of both objects");
        tree.remove(a);
        tree.rebuild(true);
        tree.validate();
        assertEquals(2L, tree.userValue(b));
    }

    @Test
    void shouldDropTheFreedNodesOnAFullRebuildOfOneObjectOrNone() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int[] handles = new int[100];
        for (int i = 0; i < handles.length; i++) {
            handles[i] = tree.add(3 * i, 0, 0, 3 * i + 1, 1, 1, i, 1);
        }
        for (int i = 1; i < handles.length; i++) {
            tree.remove(handles[i]);
        }
        assertTrue(tree.freeNodeCount > 0, "removals freed nodes");
        tree.rebuild(false);
        assertTrue(tree.freeNodeCount > 0, "a partial rebuild keeps the free list");
        tree.rebuild(true);
        tree.validate();
        assertEquals(0, tree.freeNodeCount);
        assertEquals(1, tree.nodeHighWater, "only the header is in use");
        assertEquals(0L, tree.userValue(handles[0]));
        int again = tree.add(0, 2, 0, 1, 3, 1, 7, 1);
        tree.validate();
        assertEquals(7L, tree.userValue(again));
        tree.remove(again);
        tree.remove(handles[0]);
        tree.rebuild(true);
        tree.validate();
        assertEquals(0, tree.freeNodeCount, "an empty tree keeps no free node either");
        assertEquals(0, tree.size());
    }
}
