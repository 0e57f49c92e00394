package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Batched line of sight, closest rays and sphere queries on several threads, against the brute-force oracle. */
class BatchQueriesTest {

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(53);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerEachBatchedQueryLikeBruteForce(QueryWorld w) {
        w.addAll();
        int n = 500;
        double[] from = new double[3 * n];
        double[] to = new double[3 * n];
        int[] ignoreA = new int[n];
        int[] ignoreB = new int[n];
        double[] spheres = new double[4 * n];
        double[] p = new double[3];
        for (int i = 0; i < n; i++) {
            w.randomPoint(p);
            System.arraycopy(p, 0, from, 3 * i, 3);
            spheres[4 * i] = p[0];
            spheres[4 * i + 1] = p[1];
            spheres[4 * i + 2] = p[2];
            spheres[4 * i + 3] = w.randomReach();
            w.randomPoint(p);
            System.arraycopy(p, 0, to, 3 * i, 3);
            ignoreA[i] = w.live[w.random.nextInt(w.liveCount)];
            ignoreB[i] = w.random.nextBoolean() ? w.live[w.random.nextInt(w.liveCount)] : Handles.NONE;
        }
        double[] translations = new double[3 * n];
        for (int i = 0; i < 3 * n; i++) {
            translations[i] = to[i] - from[i];
        }
        boolean[] visible = new boolean[n];
        int[] handles = new int[n];
        double[] fractions = new double[n];
        int max = 8;
        int[] found = new int[n * max];
        int[] counts = new int[n];
        TraversalStack stack = new TraversalStack();
        AnyHit any = new AnyHit();
        ClosestHit closest = new ClosestHit();
        AllOverlaps all = new AllOverlaps();
        try (BatchQueries batch = new BatchQueries(3)) {
            for (int round = 0; round < 3; round++) {
                long mask = round == 0 ? -1L : w.random.nextLong();
                batch.lineOfSight(w.tree, from, to, ignoreA, ignoreB, n, mask, visible);
                batch.closestRays(w.tree, from, translations, n, 1.0, mask, handles, fractions);
                batch.spheres(w.tree, spheres, n, RegionMode.CROSSING, mask, max, found, counts);
                int blocked = 0;
                for (int i = 0; i < n; i++) {
                    any.setIgnored(ignoreA[i], ignoreB[i]);
                    w.brute.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], translations[3 * i],
                            translations[3 * i + 1], translations[3 * i + 2], 1.0, mask, any, stack);
                    assertEquals(!any.hasHit(), visible[i], w + " line of sight " + i);
                    blocked += any.hasHit() ? 1 : 0;
                    w.brute.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], translations[3 * i],
                            translations[3 * i + 1], translations[3 * i + 2], 1.0, mask, closest, stack);
                    assertEquals(closest.hasHit() ? closest.handle() : Handles.NONE, handles[i], w + " ray " + i);
                    assertEquals(closest.hasHit() ? closest.fraction() : -1.0, fractions[i], w + " ray " + i);
                    all.reset();
                    w.brute.querySphere(spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2], spheres[4 * i + 3],
                            RegionMode.CROSSING, mask, null, all);
                    all.sort();
                    assertEquals(all.count(), counts[i], w + " sphere " + i);
                    for (int k = 0; k < Math.min(max, all.count()); k++) {
                        assertEquals(all.handle(k), found[i * max + k], w + " sphere " + i);
                    }
                }
                if (round == 0) {
                    assertTrue(blocked > 5 && blocked < n, w + ": blocked lines " + blocked);
                }
            }
        }
    }
}
