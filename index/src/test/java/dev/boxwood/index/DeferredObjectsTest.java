package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static dev.boxwood.query.TraversalStack.DEFERRED_OBJECTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Box and region queries on a tree large enough ({@link TraversalStack#defersObjects}) that objects are held back
 * and decided in batches of {@link TraversalStack#DEFERRED_OBJECTS} ({@link TraversalStack#deferObject}): every
 * answer once, whatever the number of batches, and a visitor's stop honoured at once, inside a batch or at its
 * edges.
 */
class DeferredObjectsTest {

    private static QueryWorld world;

    private final TraversalStack stack = new TraversalStack(2);
    private final AllOverlaps fromTree = new AllOverlaps();
    private final AllOverlaps fromBrute = new AllOverlaps();

    @BeforeAll
    static void fillWorld() {
        int n = TraversalStack.DEFER_MIN_NODES + 1000;
        world = new QueryWorld("clustered", SyntheticWorld.clustered(n, 77, WorldFrame.scaled(0.01)).boxes(),
                TreeConfig.defaults(), 77);
        world.addAll();
        assertTrue(TraversalStack.defersObjects(world.tree.nodeHighWater), "the tree should be large enough to defer");
    }

    @Test
    void shouldReportEveryAnswerOnceAcrossAnyNumberOfBatches() {
        double[] p = new double[3];
        int manyBatches = 0;
        for (int q = 0; q < 120; q++) {
            world.randomPoint(p);
            double reach = world.scale * (1 + q % 40) * (1 + q % 40) / 4.0;
            long mask = q % 3 == 0 ? world.randomMask() : -1L;
            reset();
            world.tree.queryAabb(p[0] - reach, p[1] - reach, p[2] - reach, p[0] + reach, p[1] + reach,
                    p[2] + reach, mask, fromTree, stack);
            world.brute.queryAabb(p[0] - reach, p[1] - reach, p[2] - reach, p[0] + reach, p[1] + reach,
                    p[2] + reach, mask, fromBrute, stack);
            manyBatches += fromBrute.count() > 3 * DEFERRED_OBJECTS ? 1 : 0;
            QueryWorld.assertSameSorted(fromBrute, fromTree, "box query " + q);

            RegionMode mode = RegionMode.values()[q % RegionMode.values().length];
            reset();
            RegionQueries.querySphere(world.tree, p[0], p[1], p[2], reach, mode, mask, null, fromTree, stack);
            world.brute.querySphere(p[0], p[1], p[2], reach, mode, mask, null, fromBrute);
            QueryWorld.assertSameSorted(fromBrute, fromTree, "sphere " + q + " " + mode);
        }
        assertTrue(manyBatches > 20, "queries with more than three batches of answers: " + manyBatches);
    }

    @Test
    void shouldStopAtOnceWhereverTheVisitorSaysSo() {
        double reach = world.scale * 400;
        double[] b = new double[6];
        world.tree.getTightBox(world.live[0], b);
        Set<Integer> answers = new HashSet<>();
        world.brute.queryAabb(b[0] - reach, b[1] - reach, b[2] - reach, b[3] + reach, b[4] + reach, b[5] + reach,
                -1L, (h, v) -> answers.add(h), stack);
        assertTrue(answers.size() > 3 * DEFERRED_OBJECTS, "answers: " + answers.size());
        for (int k : new int[] {1, DEFERRED_OBJECTS - 1, DEFERRED_OBJECTS, DEFERRED_OBJECTS + 1,
                2 * DEFERRED_OBJECTS + 3}) {
            Set<Integer> seen = new HashSet<>();
            world.tree.queryAabb(b[0] - reach, b[1] - reach, b[2] - reach, b[3] + reach, b[4] + reach,
                    b[5] + reach, -1L, (h, v) -> {
                        assertTrue(answers.contains(h), "not an answer: " + h);
                        assertTrue(seen.add(h), "reported twice: " + h);
                        return seen.size() < k;
                    }, stack);
            assertEquals(k, seen.size(), "box query stopped after " + k);
            seen.clear();
            RegionQueries.queryBox(world.tree, b[0] - reach, b[1] - reach, b[2] - reach, b[3] + reach,
                    b[4] + reach, b[5] + reach, RegionMode.CROSSING, -1L, null, (h, v) -> {
                        assertTrue(answers.contains(h), "not an answer: " + h);
                        assertTrue(seen.add(h), "reported twice: " + h);
                        return seen.size() < k;
                    }, stack);
            assertEquals(k, seen.size(), "region query stopped after " + k);

            // the same stack then answers a full query: nothing held back by the stopped one leaks into it
            reset();
            world.tree.queryAabb(b[0] - reach, b[1] - reach, b[2] - reach, b[3] + reach, b[4] + reach,
                    b[5] + reach, -1L, fromTree, stack);
            assertEquals(answers.size(), fromTree.count(), "full query after a stop at " + k);
        }
    }

    @Test
    void shouldStartAfreshAfterAVisitorThrew() {
        double reach = world.scale * 400;
        double[] p = new double[3];
        world.randomPoint(p);
        int[] calls = new int[1];
        assertThrows(IllegalStateException.class, () -> world.tree.queryAabb(p[0] - reach, p[1] - reach,
                p[2] - reach, p[0] + reach, p[1] + reach, p[2] + reach, -1L, (h, v) -> {
                    if (++calls[0] == DEFERRED_OBJECTS / 2) {
                        throw new IllegalStateException("visitor failure");
                    }
                    return true;
                }, stack));
        reset();
        world.tree.queryAabb(p[0] - reach, p[1] - reach, p[2] - reach, p[0] + reach, p[1] + reach, p[2] + reach,
                -1L, fromTree, stack);
        world.brute.queryAabb(p[0] - reach, p[1] - reach, p[2] - reach, p[0] + reach, p[1] + reach, p[2] + reach,
                -1L, fromBrute, stack);
        assertTrue(fromBrute.count() > DEFERRED_OBJECTS, "answers: " + fromBrute.count());
        QueryWorld.assertSameSorted(fromBrute, fromTree, "query after a visitor threw");
    }

    @Test
    void shouldAllocateNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        double[] points = new double[3 * 32];
        double[] p = new double[3];
        for (int i = 0; i < 32; i++) {
            world.randomPoint(p);
            System.arraycopy(p, 0, points, 3 * i, 3);
        }
        double reach = world.scale * 15;
        Runnable round = () -> {
            for (int i = 0; i < 32; i++) {
                double x = points[3 * i];
                double y = points[3 * i + 1];
                double z = points[3 * i + 2];
                fromTree.reset();
                world.tree.queryAabb(x - reach, y - reach, z - reach, x + reach, y + reach, z + reach, -1L, fromTree,
                        stack);
                RegionQueries.querySphere(world.tree, x, y, z, reach, RegionMode.CROSSING, 0x5555L, null, fromTree,
                        stack);
            }
        };
        int most = 0;
        for (int i = 0; i < 32; i++) {
            fromTree.reset();
            world.tree.queryAabb(points[3 * i] - reach, points[3 * i + 1] - reach, points[3 * i + 2] - reach,
                    points[3 * i] + reach, points[3 * i + 1] + reach, points[3 * i + 2] + reach, -1L, fromTree, stack);
            most = Math.max(most, fromTree.count());
        }
        assertTrue(most > 2 * DEFERRED_OBJECTS, "some query should fill batches: " + most);
        for (int i = 0; i < 100; i++) {
            round.run();
        }
        long id = Thread.currentThread().getId();
        // Up to ten windows: a one-off allocation of the runtime during a window does not repeat.
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 10; i++) {
                round.run();
            }
            allocated = threads.getThreadAllocatedBytes(id) - before;
        }
        assertEquals(0, allocated, "bytes allocated by 10 rounds of queries that hold objects back");
        assertTrue(fromTree.count() > 0, "the queries should find objects");
    }

    private void reset() {
        fromTree.reset();
        fromBrute.reset();
    }
}
