package dev.boxwood.index;

import dev.boxwood.query.Handles;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Self, tree-against-tree and moved pairs against brute-force pair lists, through random mutations. The reference
 * follows the pair frame rule on its own: it reads the brute-force index's stored floats and compares those of one
 * index as they are, and those of a second index moved into the first one's frame ({@code f + (originB - originA)}
 * in double).
 */
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
        long[] categories = new long[w.pool.size()];
        for (int i = 0; i < categories.length; i++) {
            categories[i] = w.randomCategory();
        }
        DynamicAabbTree world = DynamicAabbTree.build(config, w.pool.toInterleaved(), null, categories);
        BruteForceIndex worldBrute = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
        int[] worldHandles = new int[w.pool.size()];
        for (int i = 0; i < w.pool.size(); i++) {
            worldHandles[i] = worldBrute.add(w.pool.minX[i], w.pool.minY[i], w.pool.minZ[i], w.pool.maxX[i],
                    w.pool.maxY[i], w.pool.maxZ[i], 0, categories[i]);
        }
        int target = Math.min(300, w.pool.size());
        for (int op = 0; op < 300; op++) {
            mutate(w, target, new HashSet<>());
            if (op % 50 == 49) {
                long maskA = w.randomMask();
                long maskB = w.randomMask();
                int[] live = sortedLive(w);
                PairQueries.treePairs(w.tree, maskA, world, maskB, pairs, stack);
                assertPairs(bruteTreePairs(w.brute, live, maskA, worldBrute, worldHandles, maskB), pairs,
                        w + " tree pairs");
                // swapped: decided in the world's frame
                PairQueries.treePairs(world, maskB, w.tree, maskA, pairs, stack);
                assertPairs(bruteTreePairs(worldBrute, worldHandles, maskB, w.brute, live, maskA), pairs,
                        w + " tree pairs, swapped");
            }
        }
    }

    @Test
    void shouldPairBoxesTouchingExactlyAcrossTreesWithOriginsFarApart() {
        // origins 1e6 apart in x; the boxes lie about 5e5 from both, where a float step is 1/32, and touch at
        // coordinates off the float grid (world - origin is still exact in double, so the touch must be found)
        TreeConfig configA = TreeConfig.defaults().withOrigin(1e6, 250, -40);
        TreeConfig configB = TreeConfig.defaults().withOrigin(2e6, 250, -40);
        DynamicAabbTree a = new DynamicAabbTree(configA);
        DynamicAabbTree b = new DynamicAabbTree(configB);
        BruteForceIndex bruteA = new BruteForceIndex(configA.originX(), configA.originY(), configA.originZ());
        BruteForceIndex bruteB = new BruteForceIndex(configB.originX(), configB.originY(), configB.originZ());
        SplittableRandom random = new SplittableRandom(17);
        int cells = 60;
        int[] handlesA = new int[cells];
        int[] handlesB = new int[2 * cells];
        List<long[]> touching = new ArrayList<>();
        for (int i = 0; i < cells; i++) {
            double[] boxA = new double[6];
            for (int k = 0; k < 3; k++) {
                boxA[k] = (k == 0 ? 1.5e6 + 10 * i : 250) + random.nextDouble();
                boxA[k + 3] = boxA[k] + 0.1 + random.nextDouble();
            }
            // b's box starts where a's ends on one axis (face, edge or corner contact: shared values elsewhere)
            int axis = i % 3;
            double[] boxB = boxA.clone();
            boxB[axis] = boxA[axis + 3];
            boxB[axis + 3] = boxB[axis] + 0.1 + random.nextDouble();
            if (i % 5 == 0) {
                int other = (axis + 1) % 3;
                boxB[other] = boxA[other + 3];
                boxB[other + 3] = boxB[other] + 0.5;
            }
            // and a second one a clear gap (far above float rounding) beyond it
            double[] apart = boxB.clone();
            apart[axis] += 0.5;
            apart[axis + 3] += 0.5;
            handlesA[i] = addBoth(a, bruteA, boxA);
            handlesB[2 * i] = addBoth(b, bruteB, boxB);
            handlesB[2 * i + 1] = addBoth(b, bruteB, apart);
            touching.add(new long[] {handlesA[i], handlesB[2 * i]});
        }
        PairQueries.treePairs(a, -1L, b, -1L, pairs, stack);
        assertPairs(touching, pairs, "touching pairs, origins 1e6 apart");
        assertPairs(bruteTreePairs(bruteA, handlesA, -1L, bruteB, handlesB, -1L), pairs, "reference, a then b");
        List<long[]> swapped = new ArrayList<>();
        for (long[] p : touching) {
            swapped.add(new long[] {p[1], p[0]});
        }
        PairQueries.treePairs(b, -1L, a, -1L, pairs, stack);
        assertPairs(swapped, pairs, "touching pairs, swapped");
        assertPairs(bruteTreePairs(bruteB, handlesB, -1L, bruteA, handlesA, -1L), pairs, "reference, b then a");
    }

    private static int addBoth(DynamicAabbTree tree, BruteForceIndex brute, double[] box) {
        int handle = tree.add(box[0], box[1], box[2], box[3], box[4], box[5], 0, -1L);
        assertEquals(handle, brute.add(box[0], box[1], box[2], box[3], box[4], box[5], 0, -1L));
        return handle;
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

    /**
     * Pair traversals take tasks breadth first until a window fills, then depth first, in a ring sized from the
     * heights: a tall tree of dense clusters (rotations off, clusters added in order along x) drives both phases.
     */
    @Test
    void shouldMatchBruteForceOnATallTreeOfDenseClusters() {
        SplittableRandom random = new SplittableRandom(8);
        int clusters = 120;
        int perCluster = 30;
        BoxSet boxes = new BoxSet(clusters * perCluster);
        for (int i = 0; i < boxes.size(); i++) {
            double x = (i / perCluster) * 1000.0 + random.nextDouble() * 10;
            double y = random.nextDouble() * 10;
            double z = random.nextDouble() * 2;
            boxes.set(i, x, y, z, x + random.nextDouble() * 4, y + random.nextDouble() * 4, z + random.nextDouble());
        }
        TreeConfig tall = TreeConfig.defaults().withRotations(false).withAddOptimization(0);
        QueryWorld w = new QueryWorld("tall", boxes, tall, 8);
        w.addAll();
        assertTrue(w.tree.height() > 50, "height " + w.tree.height());
        List<long[]> expected = bruteSelfPairs(w.brute, w, -1L, null);
        assertTrue(expected.size() > 1000, "pairs " + expected.size());
        PairQueries.selfPairs(w.tree, -1L, pairs, stack);
        assertPairs(expected, pairs, "tall, self pairs");
        PairQueries.movedPairs(w.tree, -1L, pairs, stack);
        assertPairs(expected, pairs, "tall, every object added since the last call");
        // the frame of the tree it is paired with: touching is decided in each tree's frame
        DynamicAabbTree bulk = DynamicAabbTree.build(tall.withOrigin(w.tree.originX(), w.tree.originY(),
                w.tree.originZ()), boxes.toInterleaved(), null, null);
        int[] live = sortedLive(w);
        PairQueries.treePairs(w.tree, -1L, bulk, -1L, pairs, stack);
        assertPairs(bruteTreePairs(w.brute, live, -1L, w.brute, live, -1L), pairs, "tall against its bulk build");
    }

    /**
     * The move buffer through everything that changes the tree between two calls: moves inside and out of the fat
     * box, adds one by one and in batches (below and above the rebuild rule), removals and the reuse of their
     * slots, deferred adds, partial and full rebuilds, optimisation and compaction; far from zero (1e9), on a grid
     * of 1/16 so that many boxes touch exactly.
     */
    @ParameterizedTest(name = "deferred adds {0}")
    @ValueSource(booleans = {false, true})
    void shouldFindMovedPairsThroughBatchesRebuildsAndReusedSlots(boolean deferred) {
        TreeConfig config = TreeConfig.defaults().withOrigin(1e9 + 3, 1e9, 1e9 - 7).withDeferredAdds(deferred);
        DynamicAabbTree tree = new DynamicAabbTree(config);
        BruteForceIndex brute = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
        SplittableRandom random = new SplittableRandom(deferred ? 41 : 42);
        List<Integer> live = new ArrayList<>();
        Set<Integer> moved = new HashSet<>();
        // a full quarantine of freed slots (added, so marked moved, then removed), so that adds reuse slots from the
        // start: every removal of the walk lets one more add take a slot back, with a new generation
        int[] freed = new int[Handles.QUARANTINE];
        for (int i = 0; i < freed.length; i++) {
            freed[i] = tree.add(1e9 + i, 1e9, 1e9, 1e9 + i + 0.5, 1e9 + 1, 1e9 + 1, 0, -1L);
            assertEquals(freed[i], brute.add(1e9 + i, 1e9, 1e9, 1e9 + i + 0.5, 1e9 + 1, 1e9 + 1, 0, -1L));
        }
        for (int h : freed) {
            tree.remove(h);
            brute.remove(h);
        }
        int slots = tree.handles.highWater();
        int reusedSlots = 0;
        for (int op = 0; op < 600; op++) {
            int kind = random.nextInt(100);
            if (live.isEmpty() || kind < 20) {
                double[] b = gridBox(random, 60);
                long category = random.nextInt(4) == 0 ? random.nextLong() : -1L;
                int handle = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, category);
                assertEquals(handle, brute.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, category));
                reusedSlots += (handle & Handles.SLOT_MASK) < slots ? 1 : 0;
                live.add(handle);
                moved.add(handle);
            } else if (kind < 55) {
                int handle = live.get(random.nextInt(live.size()));
                double[] b = new double[6];
                tree.getTightBox(handle, b);
                double step = random.nextInt(3) == 0 ? 5 : 1.0 / 16;
                double dx = random.nextInt(-2, 3) * step;
                double dy = random.nextInt(-2, 3) * step;
                tree.move(handle, b[0] + dx, b[1] + dy, b[2], b[3] + dx, b[4] + dy, b[5], dx, dy, 0);
                brute.move(handle, b[0] + dx, b[1] + dy, b[2], b[3] + dx, b[4] + dy, b[5]);
                moved.add(handle);
            } else if (kind < 72) {
                int handle = live.remove(random.nextInt(live.size()));
                tree.remove(handle);
                brute.remove(handle);
                moved.remove(handle);
            } else if (kind < 77) {
                int n = random.nextInt(3) == 0 ? 64 + random.nextInt(200) : random.nextInt(10);
                double[] boxes = new double[6 * n];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(gridBox(random, random.nextBoolean() ? 60 : 4), 0, boxes, 6 * i, 6);
                }
                int[] handles = tree.addAll(boxes, null, null);
                for (int i = 0; i < n; i++) {
                    int o = 6 * i;
                    assertEquals(handles[i], brute.add(boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3],
                            boxes[o + 4], boxes[o + 5], 0, -1L));
                    live.add(handles[i]);
                    moved.add(handles[i]);
                }
            } else if (kind < 80) {
                tree.rebuild(random.nextBoolean());
            } else if (kind < 83) {
                tree.optimize(random.nextInt(20));
            } else if (kind < 85) {
                tree.compact();
            } else if (kind < 94) {
                long mask = random.nextInt(3) == 0 ? random.nextLong() : -1L;
                assertEquals(moved.size(), PairQueries.movedCount(tree), "op " + op + ": moved count");
                List<long[]> expected = brutePairs(brute, live, mask, moved);
                PairQueries.movedPairs(tree, mask, pairs, stack);
                assertPairs(expected, pairs, "op " + op + ": moved pairs, mask " + mask);
                moved.clear();
            } else {
                PairQueries.selfPairs(tree, -1L, pairs, stack);
                assertPairs(brutePairs(brute, live, -1L, null), pairs, "op " + op + ": self pairs");
            }
            tree.validate();
        }
        assertTrue(reported > 1000, "pairs reported " + reported);
        assertTrue(reusedSlots > 20, "adds that reused a slot: " + reusedSlots);
    }

    /** A box with corners on the grid of 1/16 within {@code span} of 1e9, a tenth of them of zero size. */
    private static double[] gridBox(SplittableRandom random, int span) {
        double[] b = new double[6];
        boolean point = random.nextInt(10) == 0;
        for (int a = 0; a < 3; a++) {
            b[a] = 1e9 + random.nextInt(16 * span) / 16.0;
            b[a + 3] = point ? b[a] : b[a] + random.nextInt(48) / 16.0;
        }
        return b;
    }

    /** Every pair of the live objects whose stored tight floats overlap, involving a moved one when given, sorted. */
    private static List<long[]> brutePairs(BruteForceIndex brute, List<Integer> liveList, long mask,
                                           Set<Integer> moved) {
        int[] live = liveList.stream().mapToInt(Integer::intValue).sorted().toArray();
        float[][] boxes = storedBoxes(brute, live);
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < live.length; i++) {
            for (int j = i + 1; j < live.length; j++) {
                if ((brute.categoryBits(live[i]) & mask) != 0 && (brute.categoryBits(live[j]) & mask) != 0
                        && (moved == null || moved.contains(live[i]) || moved.contains(live[j]))
                        && overlap(boxes[i], boxes[j], 0, 0, 0)) {
                    out.add(new long[] {live[i], live[j]});
                }
            }
        }
        return out;
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

    /** Every pair of live objects whose stored tight floats overlap, involving a moved one when given, sorted. */
    private static List<long[]> bruteSelfPairs(BruteForceIndex brute, QueryWorld w, long mask, Set<Integer> moved) {
        int[] live = sortedLive(w);
        float[][] boxes = storedBoxes(brute, live);
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
                // one frame: the stored floats as they are
                if (overlap(boxes[i], boxes[j], 0, 0, 0)) {
                    out.add(new long[] {live[i], live[j]});
                }
            }
        }
        return out;
    }

    /**
     * Every pair {@code (object of a, object of b)} passing the masks whose stored tight floats overlap once
     * {@code b}'s are moved into {@code a}'s frame, sorted.
     */
    private static List<long[]> bruteTreePairs(BruteForceIndex a, int[] liveA, long maskA, BruteForceIndex b,
                                               int[] liveB, long maskB) {
        float[][] boxesA = storedBoxes(a, liveA);
        float[][] boxesB = storedBoxes(b, liveB);
        double dx = b.originX() - a.originX();
        double dy = b.originY() - a.originY();
        double dz = b.originZ() - a.originZ();
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < liveA.length; i++) {
            if ((a.categoryBits(liveA[i]) & maskA) == 0) {
                continue;
            }
            for (int j = 0; j < liveB.length; j++) {
                if ((b.categoryBits(liveB[j]) & maskB) != 0 && overlap(boxesA[i], boxesB[j], dx, dy, dz)) {
                    out.add(new long[] {liveA[i], liveB[j]});
                }
            }
        }
        return out;
    }

    private static int[] sortedLive(QueryWorld w) {
        int[] live = Arrays.copyOf(w.live, w.liveCount);
        Arrays.sort(live);
        return live;
    }

    private static float[][] storedBoxes(BruteForceIndex index, int[] handles) {
        float[][] boxes = new float[handles.length][6];
        for (int i = 0; i < handles.length; i++) {
            index.getStoredTightBox(handles[i], boxes[i]);
        }
        return boxes;
    }

    /** Closed overlap of stored box {@code p} and stored box {@code q} shifted by {@code (dx, dy, dz)} in double. */
    private static boolean overlap(float[] p, float[] q, double dx, double dy, double dz) {
        double[] d = {dx, dy, dz};
        for (int k = 0; k < 3; k++) {
            if (p[k] > q[k + 3] + d[k] || q[k] + d[k] > p[k + 3]) {
                return false;
            }
        }
        return true;
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
