package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.geom.SegmentSphere;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.SegmentIntersector;
import dev.boxwood.query.TraversalStack;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The filter and exact test of the ray batches ({@link BatchQueries#setRayTests}): each batched answer is the one a
 * single cast with a collector configured the same way gives, against the brute-force oracle.
 */
class BatchRayTestsTest {

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(61);
    }

    /** Objects with odd user values are see-through. */
    private static final QueryFilter EVEN_USER_VALUES = (handle, userValue) -> (userValue & 1) == 0;

    /** The exact shape of an object: the ball inscribed in its tight box (read from the oracle, thread-safe). */
    private static SegmentIntersector inscribedBalls(QueryWorld w) {
        ThreadLocal<double[]> boxes = ThreadLocal.withInitial(() -> new double[6]);
        return (handle, userValue, ox, oy, oz, tx, ty, tz, maxFraction) -> {
            double[] b = boxes.get();
            w.brute.getTightBox(handle, b);
            double r = 0.5 * Math.min(b[3] - b[0], Math.min(b[4] - b[1], b[5] - b[2]));
            return SegmentSphere.intersect(ox, oy, oz, tx, ty, tz, maxFraction, 0.5 * (b[0] + b[3]),
                    0.5 * (b[1] + b[4]), 0.5 * (b[2] + b[5]), r);
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerLikeSingleCastsWithTheSameFilterAndExactTest(QueryWorld w) {
        w.addAll();
        int n = 400;
        double[] from = w.randomPoints(n);
        double[] to = w.randomPoints(n);
        double[] translations = new double[3 * n];
        int[] ignoreA = new int[n];
        for (int i = 0; i < n; i++) {
            ignoreA[i] = w.live[w.random.nextInt(w.liveCount)];
        }
        for (int i = 0; i < 3 * n; i++) {
            translations[i] = to[i] - from[i];
        }
        SegmentIntersector balls = inscribedBalls(w);
        boolean[] visible = new boolean[n];
        int[] handles = new int[n];
        double[] fractions = new double[n];
        TraversalStack stack = new TraversalStack();
        AnyHit any = new AnyHit();
        ClosestHit closest = new ClosestHit();
        try (BatchQueries batch = new BatchQueries(3)) {
            QueryFilter[] filters = {EVEN_USER_VALUES, null, EVEN_USER_VALUES, null};
            SegmentIntersector[] exacts = {null, balls, balls, null};
            int[] changed = new int[2];
            for (int round = 0; round < filters.length; round++) {
                batch.setRayTests(filters[round], exacts[round]);
                any.setFilter(filters[round]);
                any.setExactTest(exacts[round]);
                closest.setFilter(filters[round]);
                closest.setExactTest(exacts[round]);
                batch.lineOfSight(w.tree, from, to, ignoreA, null, n, -1L, visible);
                batch.closestRays(w.tree, from, translations, n, 1.0, -1L, handles, fractions);
                for (int i = 0; i < n; i++) {
                    int a = 3 * i;
                    any.setIgnored(ignoreA[i], Handles.NONE);
                    w.brute.rayCast(from[a], from[a + 1], from[a + 2], translations[a], translations[a + 1],
                            translations[a + 2], 1.0, -1L, any, stack);
                    assertEquals(!any.hasHit(), visible[i], "round " + round + ", line of sight " + i);
                    w.brute.rayCast(from[a], from[a + 1], from[a + 2], translations[a], translations[a + 1],
                            translations[a + 2], 1.0, -1L, closest, stack);
                    assertEquals(closest.hasHit() ? closest.handle() : Handles.NONE, handles[i],
                            "round " + round + ", closest ray " + i);
                    assertEquals(closest.hasHit() ? closest.fraction() : -1.0, fractions[i],
                            "round " + round + ", closest ray " + i);
                }
                if (round == 3) {
                    // back to no filter and no exact test: the answers of the plain batch
                    boolean[] plain = new boolean[n];
                    try (BatchQueries fresh = new BatchQueries(2)) {
                        fresh.lineOfSight(w.tree, from, to, ignoreA, null, n, -1L, plain);
                    }
                    assertArrayEquals(plain, visible);
                }
                int blocked = 0;
                for (boolean v : visible) {
                    blocked += v ? 0 : 1;
                }
                changed[round % 2] += blocked;
            }
            assertTrue(changed[0] > 0 && changed[1] > 0, "segments blocked: " + changed[0] + ", " + changed[1]);
        }
    }

    @Test
    void shouldRefuseToChangeTheTestsWhileABatchRuns() {
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < 50; i++) {
            tree.add(i, 0, 0, i + 0.5, 1, 1, i, -1L);
        }
        double[] from = {-1, 0.5, 0.5};
        double[] to = {60, 0.5, 0.5};
        boolean[] visible = new boolean[1];
        try (BatchQueries batch = new BatchQueries(1)) {
            batch.setRayTests((handle, userValue) -> {
                batch.setRayTests(null, null);
                return true;
            }, null);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> batch.lineOfSight(tree, from, to, null, null, 1, -1L, visible));
            assertTrue(e.getMessage().contains("running a batch already"), e.getMessage());
            // the failed change changed nothing: the filter is still the one that tries it
            assertThrows(IllegalStateException.class,
                    () -> batch.lineOfSight(tree, from, to, null, null, 1, -1L, visible));
            batch.setRayTests((handle, userValue) -> userValue >= 100, null);
            batch.lineOfSight(tree, from, to, null, null, 1, -1L, visible);
            assertTrue(visible[0], "every object filtered out");
        }
    }
}
