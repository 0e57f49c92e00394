package dev.boxwood.index;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The depth-first memory order of the node records: {@link DynamicAabbTree#compact} and the renumbering of a
 * growing tree. Neither may change the hierarchy, a handle, a box or a query answer.
 */
class TreeLayoutTest {

    private static BoxSet world(int n, long seed) {
        return SyntheticWorld.clustered(n, seed, WorldFrame.scaled(0.01)).boxes();
    }

    /** Internal nodes whose entry-0 child is an internal node other than the next record. */
    private static int firstChildsNotNext(DynamicAabbTree tree) {
        int count = 0;
        for (int node = 1; node < tree.nodeHighWater; node++) {
            if (tree.heights[node] > 0) {
                int c0 = tree.child(2 * node);
                if (c0 >= 0 && c0 != node + 1) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Walks the tree in preorder (entry 0 first) and checks it meets nodes 1, 2, 3, ... with no gaps. */
    private static void assertDepthFirst(DynamicAabbTree tree) {
        assertEquals(0, tree.freeNodeCount, "no free nodes");
        int[] stack = new int[tree.height() + 2];
        int size = 0;
        int expected = 1;
        if (tree.child(0) >= 0) {
            stack[size++] = tree.child(0);
        }
        while (size > 0) {
            int node = stack[--size];
            assertEquals(expected++, node, "preorder number");
            for (int side = 1; side >= 0; side--) {
                int c = tree.child(2 * node + side);
                if (c >= 0) {
                    stack[size++] = c;
                }
            }
        }
        assertEquals(tree.nodeHighWater, expected, "every node in use is reached");
    }

    @Test
    void shouldCompactWithoutChangingHandlesBoxesHierarchyOrAnswers() {
        BoxSet pool = world(3000, 41);
        Differential d = new Differential(pool, TreeConfig.defaults(), 42);
        double[] before = new double[6];
        double[] after = new double[6];
        for (int round = 0; round < 12; round++) {
            // Grow to about 1500 objects, then shrink: removals leave free nodes behind.
            d.run(400, round % 2 == 0 ? 1500 : 300, 0);
            DynamicAabbTree tree = d.tree;
            int[] handles = TreeRebuildTest.liveHandles(tree);
            double[][] fat = new double[handles.length][];
            for (int k = 0; k < handles.length; k++) {
                tree.getFatBox(handles[k], before);
                fat[k] = before.clone();
            }
            int height = tree.height();
            double area = tree.areaRatio();
            int nodesInUse = tree.nodeHighWater - tree.freeNodeCount;
            int freeBefore = tree.freeNodeCount;
            long memoryBefore = tree.memoryBytes();
            tree.compact();
            tree.validate();
            assertDepthFirst(tree);
            assertEquals(nodesInUse, tree.nodeHighWater, "nodes in use");
            assertEquals(height, tree.height());
            assertEquals(area, tree.areaRatio(), 1e-12 * area, "the same internal boxes");
            if (freeBefore > 0) {
                assertTrue(tree.memoryBytes() < memoryBefore, "freed nodes give their memory back");
            }
            for (int k = 0; k < handles.length; k++) {
                assertTrue(tree.contains(handles[k]));
                tree.getFatBox(handles[k], after);
                assertArrayEquals(fat[k], after, "fat box of handle " + handles[k]);
            }
            for (int q = 0; q < 30; q++) {
                d.randomBoxQuery();
                d.randomRay();
            }
        }
        assertTrue(d.hitsSeen > d.queries / 10, "queries should mostly hit something: " + d.hitsSeen);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldRenumberDepthFirstAsAddsFillALargeTree(boolean preallocated) {
        BoxSet pool = world(12_000, 43);
        TreeConfig config = preallocated ? TreeConfig.defaults().withInitialCapacity(pool.size())
                : TreeConfig.defaults();
        Differential d = new Differential(pool, config, 44);
        d.validateEvery = Integer.MAX_VALUE;
        int renumberings = 0;
        for (int i = 0; i < pool.size(); i++) {
            int mark = d.tree.renumberMark;
            d.add(i);
            if (d.tree.renumberMark != mark) {
                renumberings++;
                d.tree.validate();
                // Renumbered just before this add's insertion, which then put one new node above its sibling
                // and rotated a few on the way up: nearly every first child is still the next record.
                int misplaced = firstChildsNotNext(d.tree);
                assertTrue(misplaced <= 8, "first children away from their parent: " + misplaced);
            }
        }
        assertTrue(renumberings >= 3, "renumberings: " + renumberings);
        // In between, adds in random order scatter the nodes again.
        assertTrue(firstChildsNotNext(d.tree) > d.tree.size() / 10, "later adds scatter nodes");
        d.tree.validate();
        for (int q = 0; q < 300; q++) {
            d.randomBoxQuery();
            d.randomRay();
        }
        d.validateEvery = 1;
        d.run(500, 12_000, 1);
    }

    @Test
    void shouldLeaveTheMemoryOrderAloneWhenAddRenumberingIsOff() {
        BoxSet pool = world(6000, 45);
        TreeConfig off = TreeConfig.defaults().withAddRenumbering(false);
        assertTrue(TreeConfig.defaults().addRenumbering());
        assertFalse(off.addRenumbering());
        assertEquals(16, off.withInitialCapacity(16).initialCapacity());
        assertFalse(off.withRotations(true).withOrigin(1, 2, 3).addRenumbering(), "kept by the other settings");
        for (TreeConfig config : new TreeConfig[] {TreeConfig.defaults(), off}) {
            DynamicAabbTree tree = new DynamicAabbTree(config);
            int i = 0;
            // One add past the first renumbering mark.
            while (tree.nodeHighWater <= DynamicAabbTree.RENUMBER_MIN_NODES) {
                tree.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i], i, 1L);
                i++;
            }
            tree.validate();
            int misplaced = firstChildsNotNext(tree);
            if (config.addRenumbering()) {
                assertTrue(misplaced <= 8, "renumbered: " + misplaced);
            } else {
                assertTrue(misplaced > 500, "allocation order: " + misplaced);
            }
        }
    }

    @Test
    void shouldCompactEmptyTinyAndEmptiedTrees() {
        DynamicAabbTree tree = new DynamicAabbTree();
        tree.compact();
        tree.validate();
        assertEquals(1, tree.nodeHighWater);
        int a = tree.add(0, 0, 0, 1, 1, 1, 7, 1);
        tree.compact();
        tree.validate();
        int b = tree.add(2, 0, 0, 3, 1, 1, 8, 2);
        tree.compact();
        tree.validate();
        assertDepthFirst(tree);
        tree.remove(a);
        tree.compact();
        tree.validate();
        assertEquals(8L, tree.userValue(b));
        tree.remove(b);
        tree.compact();
        tree.validate();
        assertEquals(0, tree.size());
        int c = tree.add(0, 0, 0, 1, 1, 1, 9, 1);
        tree.add(1, 1, 1, 2, 2, 2, 10, 1);
        tree.validate();
        assertEquals(9L, tree.userValue(c));
    }
}
