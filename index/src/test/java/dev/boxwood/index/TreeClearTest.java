package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
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
        int slots = tree.handles.highWater();

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

        // the next world: answers as the brute-force index gives them; the freed slots are reused while the
        // quarantine is full, so a refill to the former size takes QUARANTINE - 1 fresh slots at most
        BruteForceIndex brute = new BruteForceIndex();
        int[] next = refill(tree, random, n, brute);
        tree.validate();
        assertEquals(slots + Math.max(0, n - (slots - Handles.QUARANTINE + 1)), tree.handles.highWater(),
                "fresh slots only for the last " + (Handles.QUARANTINE - 1) + " freed, still in quarantine");
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

        // from then on a level of that size reloaded grows nothing: every slot it needs comes out of quarantine
        long refilled = tree.memoryBytes();
        int refilledSlots = tree.handles.highWater();
        for (int reload = 0; reload < 3; reload++) {
            tree.clear();
            tree.validate();
            refill(tree, random, n, null);
            tree.validate();
            assertEquals(refilledSlots, tree.handles.highWater(), "reload " + reload + ": no fresh slot");
            assertTrue(tree.memoryBytes() <= refilled, "reload " + reload + ": refilled to its former size"
                    + " without growing: " + tree.memoryBytes() + " bytes against " + refilled);
        }
    }

    /** Adds {@code n} random cubes of edge 2 to the tree (and to {@code brute}, if given); takes them in. */
    private static int[] refill(DynamicAabbTree tree, SplittableRandom random, int n, BruteForceIndex brute) {
        int[] handles = new int[n];
        for (int i = 0; i < n; i++) {
            double x = random.nextDouble(0, 200);
            double y = random.nextDouble(0, 200);
            double z = random.nextDouble(0, 20);
            handles[i] = tree.add(x, y, z, x + 2, y + 2, z + 2, i, 1L);
            if (brute != null) {
                brute.add(x, y, z, x + 2, y + 2, z + 2, i, 1L);
            }
            if (i % 500 == 0) {
                tree.validate();
            }
        }
        tree.flushAdds();
        return handles;
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
