package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Several threads query one tree at once, each with its own stack and collectors, and get the oracle's answers. */
class ConcurrencyTest {

    private static final int THREADS = 4;

    @Test
    void shouldGiveEveryThreadTheBruteForceAnswers() throws Exception {
        SyntheticWorld world = SyntheticWorld.clustered(8000, 41);
        BoxSet boxes = world.boxes();
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex brute = new BruteForceIndex();
        for (int i = 0; i < boxes.size(); i++) {
            tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1);
            brute.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1);
        }
        BoxSet queries = world.boxQueries(300, 42);
        SegmentSet segments = world.segments(300, 43);
        // Expected answers from the oracle, computed up front on this thread.
        int[] expectedOverlaps = new int[queries.size()];
        int[] expectedClosest = new int[segments.size()];
        double[] expectedFraction = new double[segments.size()];
        int[] expectedAll = new int[segments.size()];
        TraversalStack stack = new TraversalStack();
        AllOverlaps overlaps = new AllOverlaps();
        ClosestHit closest = new ClosestHit();
        AllHits all = new AllHits();
        for (int i = 0; i < queries.size(); i++) {
            overlaps.reset();
            brute.queryAabb(queries.minX[i], queries.minY[i], queries.minZ[i],
                    queries.maxX[i], queries.maxY[i], queries.maxZ[i], -1L, overlaps, stack);
            expectedOverlaps[i] = checksum(overlaps);
        }
        for (int i = 0; i < segments.size(); i++) {
            brute.rayCast(segments.originX[i], segments.originY[i], segments.originZ[i], segments.translationX[i],
                    segments.translationY[i], segments.translationZ[i], 1.0, -1L, closest, stack);
            expectedClosest[i] = closest.handle();
            expectedFraction[i] = closest.fraction();
            brute.rayCast(segments.originX[i], segments.originY[i], segments.originZ[i], segments.translationX[i],
                    segments.translationY[i], segments.translationZ[i], 1.0, -1L, all, stack);
            expectedAll[i] = all.count();
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int offset = t * 37;
                results.add(pool.submit(() -> {
                    TraversalStack own = new TraversalStack(1);
                    AllOverlaps ownOverlaps = new AllOverlaps();
                    ClosestHit ownClosest = new ClosestHit();
                    AllHits ownAll = new AllHits();
                    start.await();
                    int checked = 0;
                    for (int round = 0; round < 20; round++) {
                        for (int k = 0; k < queries.size(); k++) {
                            int i = (k + offset) % queries.size();
                            ownOverlaps.reset();
                            tree.queryAabb(queries.minX[i], queries.minY[i], queries.minZ[i],
                                    queries.maxX[i], queries.maxY[i], queries.maxZ[i], -1L, ownOverlaps, own);
                            assertEquals(expectedOverlaps[i], checksum(ownOverlaps), "box query " + i);
                            int j = (k + offset) % segments.size();
                            tree.rayCast(segments.originX[j], segments.originY[j], segments.originZ[j],
                                    segments.translationX[j], segments.translationY[j], segments.translationZ[j],
                                    1.0, -1L, ownClosest, own);
                            assertEquals(expectedClosest[j], ownClosest.handle(), "closest " + j);
                            assertEquals(expectedFraction[j], ownClosest.fraction(), "fraction " + j);
                            tree.rayCast(segments.originX[j], segments.originY[j], segments.originZ[j],
                                    segments.translationX[j], segments.translationY[j], segments.translationZ[j],
                                    1.0, -1L, ownAll, own);
                            assertEquals(expectedAll[j], ownAll.count(), "all hits " + j);
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            start.countDown();
            for (Future<Integer> result : results) {
                assertEquals(20 * queries.size(), result.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Order-independent summary of a result set: count and sum of handles. */
    private static int checksum(AllOverlaps overlaps) {
        int sum = overlaps.count() * 1_000_003;
        for (int i = 0; i < overlaps.count(); i++) {
            sum += overlaps.handle(i);
        }
        return sum;
    }
}
