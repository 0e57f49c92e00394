package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link DynamicAabbTree#clear()}: every object gone, every handle stale, capacity kept, the tree as good as new. */
class TreeClearTest {

    private final TraversalStack stack = new TraversalStack();

    @ParameterizedTest(name = "deferred adds {0}")
    @ValueSource(booleans = {false, true})
    void shouldEmptyTheTreeAndTakeTheNextWorldAsAFreshTreeWould(boolean deferred) {
        SplittableRandom random = new SplittableRandom(deferred ? 11 : 12);
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(deferred));
        int n = 6000;
        int[] old = new int[n];
        for (int i = 0; i < n; i++) {
            old[i] = add(tree, random, i);
        }
        tree.flushAdds();
        for (int i = 0; i < n; i += 3) {
            tree.move(old[i], 5, 5, 5, 6, 6, 6);
        }
        // some adds still pending, some moved objects not yet reported as pairs
        for (int i = 0; i < 50; i++) {
            add(tree, random, n + i);
        }
        tree.validate();
        long capacity = tree.memoryBytes();

        tree.clear();
        tree.validate();
        assertEquals(0, tree.size());
        assertEquals(0, tree.pendingAdds());
        assertEquals(capacity, tree.memoryBytes(), "the arrays keep their capacity");
        for (int h : old) {
            assertFalse(tree.contains(h));
            assertThrows(IllegalArgumentException.class, () -> tree.userValue(h));
            assertThrows(IllegalArgumentException.class, () -> tree.move(h, 0, 0, 0, 1, 1, 1));
        }
        AllOverlaps found = new AllOverlaps();
        tree.queryAabb(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9, -1L, found, stack);
        assertEquals(0, found.count());
        ClosestHit hit = new ClosestHit();
        tree.rayCast(-100, 0.5, 0.5, 300, 0, 0, 1, -1L, hit, stack);
        assertFalse(hit.hasHit());
        PairBuffer pairs = new PairBuffer();
        PairQueries.movedPairs(tree, -1L, pairs, stack);
        assertEquals(0, pairs.size(), "nothing moved is left to report");
        clearAgainWhenEmpty(tree);

        // the next world: answers as the brute-force index gives them, and no growth for as many objects
        BruteForceIndex brute = new BruteForceIndex();
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            double x = random.nextDouble(0, 200);
            double y = random.nextDouble(0, 200);
            double z = random.nextDouble(0, 20);
            next[i] = tree.add(x, y, z, x + 2, y + 2, z + 2, i, 1L);
            brute.add(x, y, z, x + 2, y + 2, z + 2, i, 1L);
            if (i % 500 == 0) {
                tree.validate();
            }
        }
        tree.flushAdds();
        tree.validate();
        assertTrue(tree.memoryBytes() <= capacity, "refilled to its former size without growing: "
                + tree.memoryBytes() + " bytes against " + capacity);
        assertTrue(Arrays.stream(next).noneMatch(h -> Arrays.stream(old).anyMatch(o -> o == h)),
                "no new handle equals a cleared one (generations)");
        AllOverlaps expected = new AllOverlaps();
        int reported = 0;
        for (int q = 0; q < 200; q++) {
            double x = random.nextDouble(0, 200);
            double y = random.nextDouble(0, 200);
            found.reset();
            expected.reset();
            tree.queryAabb(x, y, 0, x + 10, y + 10, 20, -1L, found, stack);
            brute.queryAabb(x, y, 0, x + 10, y + 10, 20, -1L, expected, stack);
            assertArrayEquals(QueryWorld.sortedUserValues(expected), QueryWorld.sortedUserValues(found));
            reported += found.count();
        }
        assertTrue(reported > 200, "the queries should report objects: " + reported);
        assertTrue(tree.areaRatio() > 0);
    }

    private void clearAgainWhenEmpty(DynamicAabbTree tree) {
        tree.clear();
        tree.validate();
        assertEquals(0, tree.size());
        assertEquals(0, new DynamicAabbTree2D().size());
        DynamicAabbTree2D planar = new DynamicAabbTree2D();
        int h = planar.add(0, 0, 1, 1, 7, -1L);
        planar.clear();
        assertThrows(IllegalArgumentException.class, () -> planar.remove(h));
        planar.add(0, 0, 1, 1, 8, -1L);
        assertEquals(1, planar.size());
    }

    private static int add(DynamicAabbTree tree, SplittableRandom random, int i) {
        double x = random.nextDouble(-500, 500);
        double y = random.nextDouble(-500, 500);
        double z = random.nextDouble(0, 50);
        double e = random.nextDouble(0.1, 4);
        return tree.add(x, y, z, x + e, y + e, z + e, i, -1L);
    }
}
