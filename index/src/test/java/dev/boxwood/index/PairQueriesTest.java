package dev.boxwood.index;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Self, tree-against-tree and moved pairs against brute-force pair lists, through random mutations. */
class PairQueriesTest {

    private final TraversalStack stack = new TraversalStack(1);
    private final PairBuffer pairs = new PairBuffer(1);
    private long reported;

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(71);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldFindSelfAndMovedPairsLikeBruteForceThroughMutations(QueryWorld w) {
        Set<Integer> moved = new HashSet<>();
        int target = Math.min(600, w.pool.size());
        for (int op = 0; op < 600; op++) {
            mutate(w, target, moved);
            if (op % 60 == 59) {
                long mask = w.randomMask();
                PairQueries.selfPairs(w.tree, mask, pairs, stack);
                assertPairs(bruteSelfPairs(w.brute, w, mask, null), pairs, w + " self pairs, mask " + mask);
            }
            if (op % 20 == 19) {
                long mask = w.randomMask();
                assertEquals(moved.size(), PairQueries.movedCount(w.tree), w + " moved count");
                List<long[]> expected = bruteSelfPairs(w.brute, w, mask, moved);
                PairQueries.movedPairs(w.tree, mask, pairs, stack);
                assertPairs(expected, pairs, w + " moved pairs, mask " + mask);
                moved.clear();
                assertEquals(0, PairQueries.movedCount(w.tree));
            }
        }
        w.addAll();
        PairQueries.selfPairs(w.tree, -1L, pairs, stack);
        assertPairs(bruteSelfPairs(w.brute, w, -1L, null), pairs, w + " self pairs of the full pool");
        assertTrue(reported > 50, w + ": pairs reported " + reported);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldFindPairsBetweenTwoTreesLikeBruteForce(QueryWorld w) {
        // a static world (the whole pool, built in bulk, another origin) against the mutating entities
        double[] e = w.pool.bounds();
        TreeConfig config = TreeConfig.defaults().withOrigin(0.5 * (e[0] + e[3]), 0.5 * (e[1] + e[4]), e[2]);
        DynamicAabbTree world = DynamicAabbTree.build(config, w.pool.toInterleaved(), null, null);
        BruteForceIndex worldBrute = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
        for (int i = 0; i < w.pool.size(); i++) {
            worldBrute.add(w.pool.minX[i], w.pool.minY[i], w.pool.minZ[i], w.pool.maxX[i], w.pool.maxY[i],
                    w.pool.maxZ[i], 0, -1L);
        }
        int target = Math.min(300, w.pool.size());
        for (int op = 0; op < 300; op++) {
            mutate(w, target, new HashSet<>());
            if (op % 50 == 49) {
                long maskA = w.randomMask();
                long maskB = w.random.nextBoolean() ? -1L : w.random.nextLong();
                PairQueries.treePairs(w.tree, maskA, world, maskB, pairs, stack);
                assertPairs(bruteTreePairs(w, maskA, worldBrute, world, maskB), pairs, w + " tree pairs");
                PairQueries.treePairs(world, maskB, w.tree, maskA, pairs, stack);
                List<long[]> swapped = new ArrayList<>();
                for (long[] p : bruteTreePairs(w, maskA, worldBrute, world, maskB)) {
                    swapped.add(new long[] {p[1], p[0]});
                }
                swapped.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
                assertPairs(swapped, pairs, w + " tree pairs, swapped");
            }
        }
    }

    @Test
    void shouldReportAPairOnceWhenBothObjectsMovedAndForgetRemovedObjects() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int a = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        int b = tree.add(1, 0, 0, 2, 1, 1, 0, -1L);
        int c = tree.add(5, 5, 5, 6, 6, 6, 0, -1L);
        PairQueries.movedPairs(tree, -1L, pairs, stack);
        assertEquals(1, pairs.size());
        assertEquals(Math.min(a, b), pairs.first(0));
        assertEquals(Math.max(a, b), pairs.second(0));
        PairQueries.movedPairs(tree, -1L, pairs, stack);
        assertEquals(0, pairs.size(), "nothing moved since the last call");
        tree.move(c, 1.5, 0.5, 0.5, 2.5, 1.5, 1.5);
        tree.move(a, 0, 0, 0, 1, 1, 1);
        tree.remove(b);
        assertEquals(2, PairQueries.movedCount(tree));
        PairQueries.movedPairs(tree, -1L, pairs, stack);
        assertEquals(0, pairs.size(), "a and c do not touch; b is gone");
        assertThrows(IllegalArgumentException.class, () -> PairQueries.selfPairs(null, -1L, pairs, stack));
        assertThrows(IllegalArgumentException.class, () -> PairQueries.movedPairs(tree, -1L, null, stack));
    }

    @Test
    void shouldFindEveryPairOfIdenticalBoxes() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int n = 60;
        for (int i = 0; i < n; i++) {
            tree.add(0, 0, 0, 1, 1, 1, i, -1L);
        }
        PairQueries.selfPairs(tree, -1L, pairs, stack);
        assertEquals(n * (n - 1) / 2, pairs.size());
        PairQueries.movedPairs(tree, -1L, pairs, stack);
        assertEquals(n * (n - 1) / 2, pairs.size());
        for (int i = 1; i < pairs.size(); i++) {
            assertTrue(pairs.first(i - 1) < pairs.first(i)
                    || pairs.first(i - 1) == pairs.first(i) && pairs.second(i - 1) < pairs.second(i));
        }
    }

    @Test
    void shouldMatchBruteForceOnADenseBulkBuiltWorld() {
        SplittableRandom random = new SplittableRandom(5);
        BoxSet boxes = new BoxSet(5000);
        for (int i = 0; i < boxes.size(); i++) {
            double x = random.nextDouble() * 100;
            double y = random.nextDouble() * 100;
            double z = random.nextDouble() * 20;
            boxes.set(i, x, y, z, x + random.nextDouble() * 4, y + random.nextDouble() * 4, z + random.nextDouble());
        }
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        QueryWorld w = new QueryWorld("dense", boxes, TreeConfig.defaults(), 5);
        w.addAll();
        PairQueries.selfPairs(tree, -1L, pairs, stack);
        assertPairs(bruteSelfPairs(w.brute, w, -1L, null), pairs, "dense, bulk built");
        PairQueries.selfPairs(w.tree, -1L, pairs, stack);
        assertPairs(bruteSelfPairs(w.brute, w, -1L, null), pairs, "dense, inserted");
        assertTrue(pairs.size() > 500, "pairs " + pairs.size());
    }

    /** Random add, jitter, teleport or remove, recording which objects count as moved. */
    private static void mutate(QueryWorld w, int target, Set<Integer> moved) {
        int op = w.random.nextInt(10);
        if (w.liveCount == 0 || w.liveCount < target && op < 4) {
            moved.add(w.add(w.random.nextInt(w.pool.size())));
        } else if (op < 8) {
            int handle = w.live[w.random.nextInt(w.liveCount)];
            double[] b = new double[6];
            if (op < 7) {
                w.tree.getTightBox(handle, b);
                for (int a = 0; a < 3; a++) {
                    double d = (w.random.nextDouble() - 0.5) * w.scale;
                    b[a] += d;
                    b[a + 3] += d;
                }
            } else {
                int i = w.random.nextInt(w.pool.size());
                b = new double[] {w.pool.minX[i], w.pool.minY[i], w.pool.minZ[i], w.pool.maxX[i], w.pool.maxY[i],
                        w.pool.maxZ[i]};
            }
            w.tree.move(handle, b[0], b[1], b[2], b[3], b[4], b[5]);
            w.brute.move(handle, b[0], b[1], b[2], b[3], b[4], b[5]);
            moved.add(handle);
        } else {
            int k = w.random.nextInt(w.liveCount);
            w.tree.remove(w.live[k]);
            w.brute.remove(w.live[k]);
            moved.remove(w.live[k]);
            w.live[k] = w.live[--w.liveCount];
        }
        w.tree.validate();
    }

    /** Every pair of live objects whose world tight boxes overlap, involving a moved one when given, sorted. */
    private static List<long[]> bruteSelfPairs(BruteForceIndex brute, QueryWorld w, long mask, Set<Integer> moved) {
        int[] live = java.util.Arrays.copyOf(w.live, w.liveCount);
        java.util.Arrays.sort(live);
        double[][] boxes = new double[live.length][6];
        for (int i = 0; i < live.length; i++) {
            brute.getTightBox(live[i], boxes[i]);
        }
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < live.length; i++) {
            if ((brute.categoryBits(live[i]) & mask) == 0) {
                continue;
            }
            for (int j = i + 1; j < live.length; j++) {
                if ((brute.categoryBits(live[j]) & mask) == 0
                        || moved != null && !moved.contains(live[i]) && !moved.contains(live[j])) {
                    continue;
                }
                if (overlap(boxes[i], boxes[j])) {
                    out.add(new long[] {live[i], live[j]});
                }
            }
        }
        return out;
    }

    private static List<long[]> bruteTreePairs(QueryWorld w, long maskA, BruteForceIndex b, DynamicAabbTree bTree,
                                               long maskB) {
        int[] live = java.util.Arrays.copyOf(w.live, w.liveCount);
        java.util.Arrays.sort(live);
        double[] boxA = new double[6];
        double[] boxB = new double[6];
        List<long[]> out = new ArrayList<>();
        for (int ha : live) {
            if ((w.brute.categoryBits(ha) & maskA) == 0) {
                continue;
            }
            w.brute.getTightBox(ha, boxA);
            for (int hb = 0; hb < b.size(); hb++) {
                if ((bTree.categoryBits(hb) & maskB) == 0) {
                    continue;
                }
                b.getTightBox(hb, boxB);
                if (overlap(boxA, boxB)) {
                    out.add(new long[] {ha, hb});
                }
            }
        }
        return out;
    }

    private static boolean overlap(double[] p, double[] q) {
        return AabbAabb.test(p[0], p[1], p[2], p[3], p[4], p[5], q[0], q[1], q[2], q[3], q[4], q[5]);
    }

    private void assertPairs(List<long[]> expected, PairBuffer actual, String where) {
        assertEquals(expected.size(), actual.size(), where + ": pair count");
        for (int i = 0; i < expected.size(); i++) {
            long[] p = expected.get(i);
            if (p[0] != actual.first(i) || p[1] != actual.second(i)) {
                throw new AssertionError(where + ": pair " + i + " expected (" + p[0] + ", " + p[1] + ") but was ("
                        + actual.first(i) + ", " + actual.second(i) + ")");
            }
        }
        reported += expected.size();
    }
}
