package dev.boxwood.index;

import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionTests;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.NearestRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Nearest and k-nearest queries against the brute-force oracle. */
class NearestQueriesTest {

    private final NearestNeighbours found = new NearestNeighbours();
    private final NearestNeighbours browsed = new NearestNeighbours();
    private final NearestRecorder recorder = new NearestRecorder();
    private long reported;

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(47);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldFindTheNearestLikeBruteForceThroughMutations(QueryWorld w) {
        for (int op = 0; op < 400; op++) {
            w.mutate(Math.min(400, w.pool.size()));
            if (op % 4 == 0) {
                compareRandomNearest(w);
            }
        }
        w.addAll();
        for (int q = 0; q < 40; q++) {
            compareRandomNearest(w);
        }
        assertTrue(reported > 100, w + ": results " + reported);
    }

    private void compareRandomNearest(QueryWorld w) {
        double[] p = new double[3];
        w.randomPoint(p);
        int[] ks = {0, 1, 1 + w.random.nextInt(8), 20 + w.random.nextInt(60), w.tree.size() + 3};
        int k = ks[w.random.nextInt(ks.length)];
        double max = w.random.nextBoolean() ? Double.POSITIVE_INFINITY : w.randomReach();
        long mask = w.randomMask();
        QueryFilter filter = w.random.nextInt(4) == 0 ? (handle, user) -> (user & 1) == 0 : null;
        DistanceFunction exact = w.random.nextInt(3) == 0 ? inscribedSphere(w.tree) : null;
        if (w.random.nextInt(5) == 0) {
            // many ties: a point in a spot where several boxes are at distance 0
            max = 0;
        }
        NearestQueries.kNearest(w.tree, p[0], p[1], p[2], k, max, mask, filter, exact, found);
        int[] handles = new int[w.tree.size() + 1];
        double[] distances = new double[w.tree.size() + 1];
        int n = w.brute.kNearest(p[0], p[1], p[2], k, max, mask, filter, exact, handles, distances);
        String where = w + " point " + Arrays.toString(p) + " k " + k + " max " + max + " exact " + (exact != null);
        assertEquals(n, found.count(), where);
        for (int i = 0; i < n; i++) {
            assertEquals(handles[i], found.handle(i), where + " rank " + i);
            assertEquals(distances[i], found.distance(i), where + " rank " + i);
        }
        reported += n;
        // browsing, stopped after k objects (or run to the end when k exceeds the count): the k-nearest answer
        if (k > 0) {
            NearestQueries.browseNearest(w.tree, p[0], p[1], p[2], max, mask, filter, exact, recorder.reset(k),
                    browsed);
            assertNull(recorder.differenceFrom(found, where));
            assertEquals(Math.min(k, n), recorder.count(), where);
            assertEquals(recorder.count(), browsed.count(), where + ": the scratch lists what was visited");
        }
    }

    /** The distance to the sphere inscribed in the object's box, never below the box distance. */
    private static DistanceFunction inscribedSphere(DynamicAabbTree tree) {
        double[] box = new double[6];
        return (handle, user, x, y, z) -> {
            tree.getTightBox(handle, box);
            double cx = 0.5 * (box[0] + box[3]);
            double cy = 0.5 * (box[1] + box[4]);
            double cz = 0.5 * (box[2] + box[5]);
            double r = 0.5 * Math.min(box[3] - box[0], Math.min(box[4] - box[1], box[5] - box[2]));
            double toCentre = Math.sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz));
            double ex = Math.max(box[0] - x, 0) + Math.max(x - box[3], 0);
            double ey = Math.max(box[1] - y, 0) + Math.max(y - box[4], 0);
            double ez = Math.max(box[2] - z, 0) + Math.max(z - box[5], 0);
            double boxDistance = Math.sqrt(ex * ex + ey * ey + ez * ez);
            return (user & 7) == 0 ? -1 : Math.max(boxDistance, toCentre - r);
        };
    }

    @Test
    void shouldKeepAClosedLimitWhoseSquareIsSubnormal() {
        // an object 3.85e-162 from the query point; the limit 3.6e-162 squares to a subnormal that rounded up
        // to the object's own squared distance, so it was reported beyond the limit
        DynamicAabbTree tree = new DynamicAabbTree();
        int near = tree.add(0, 0, 0, 1, 1, 1, 7, 1);
        tree.add(-2, -2, -2, -1.5, -1.5, -1.5, 8, 1);
        double x = -3.8e-162;
        NearestQueries.kNearest(tree, x, 0.5, 0.5, 5, 3.6e-162, -1L, null, null, found);
        assertEquals(0, found.count(), "the object lies beyond the limit");
        NearestQueries.kNearest(tree, x, 0.5, 0.5, 5, 3.9e-162, -1L, null, null, found);
        assertEquals(1, found.count());
        assertEquals(near, found.handle(0));
        assertTrue(found.distance(0) <= 3.9e-162);
    }

    @Test
    void shouldBreakTiesByTheLowerHandle() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int[] handles = new int[6];
        // six boxes all at distance exactly 1 from the origin, one along each axis direction, in shuffled order
        int[] direction = {3, 0, 5, 1, 4, 2};
        for (int i = 0; i < 6; i++) {
            double[] c = new double[3];
            c[direction[i] % 3] = direction[i] < 3 ? 2 : -2;
            handles[i] = tree.add(c[0] - 1, c[1] - 1, c[2] - 1, c[0] + 1, c[1] + 1, c[2] + 1, i, 1);
        }
        NearestQueries.kNearest(tree, 0, 0, 0, 4, Double.POSITIVE_INFINITY, -1L, null, null, found);
        assertEquals(4, found.count());
        for (int i = 0; i < 4; i++) {
            assertEquals(handles[i], found.handle(i));
            assertEquals(1.0, found.distance(i));
        }
        assertThrows(IllegalArgumentException.class, () ->
                NearestQueries.kNearest(tree, 0, 0, 0, -1, 1, -1L, null, null, found));
        assertThrows(IllegalArgumentException.class, () ->
                NearestQueries.kNearest(tree, 0, 0, 0, 1, Double.NaN, -1L, null, null, found));
        // browsing visits the same order, ties included, and stops when told
        NearestQueries.browseNearest(tree, 0, 0, 0, Double.POSITIVE_INFINITY, -1L, null, null, recorder.reset(3),
                browsed);
        assertEquals(3, recorder.count());
        assertNull(recorder.differenceFrom(found, "ties"));
        assertThrows(IllegalArgumentException.class, () -> NearestQueries.browseNearest(tree, 0, 0, 0, 1, -1L, null,
                null, null, browsed));
        assertThrows(IllegalArgumentException.class, () -> NearestQueries.browseNearest(tree, 0, 0, 0, -1, -1L,
                null, null, recorder, browsed));
    }

    @Test
    void shouldOrderExactDistancesEqualToTheBoxDistanceBySquareThenHandle() {
        // A (handle 0) lies 2 and 3 away on y and z: box key 13, box distance fl(sqrt(13)), whose square rounds
        // below 13. B (handle 1) lies that distance away on x alone: box key fl(sqrt(13))^2. A distance function
        // returning the box distance gives both the same square: A comes first. Queued by its box key 13, A came
        // out after B.
        double px = 4 - Math.sqrt(13);
        double[] boxes = {0, 2, 3, 1, 3, 4, 4, -1, -1, 5, 1, 1};
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex oracle = new BruteForceIndex();
        for (int i = 0; i < 2; i++) {
            int o = 6 * i;
            tree.add(boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4], boxes[o + 5], i, 1L);
            oracle.add(boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4], boxes[o + 5], i, 1L);
        }
        DistanceFunction boxDistance = (handle, userValue, x, y, z) -> {
            int o = 6 * (int) userValue;
            return Math.sqrt(RegionTests.squaredDistance(x, y, z, boxes[o], boxes[o + 1], boxes[o + 2],
                    boxes[o + 3], boxes[o + 4], boxes[o + 5]));
        };
        assertEquals(boxDistance.distance(0, 0, px, 0, 0), boxDistance.distance(1, 1, px, 0, 0));
        int[] handles = new int[2];
        double[] distances = new double[2];
        for (int k = 1; k <= 2; k++) {
            int n = oracle.kNearest(px, 0, 0, k, Double.POSITIVE_INFINITY, -1L, null, boxDistance, handles,
                    distances);
            NearestQueries.kNearest(tree, px, 0, 0, k, Double.POSITIVE_INFINITY, -1L, null, boxDistance, found);
            assertEquals(n, found.count());
            for (int i = 0; i < n; i++) {
                assertEquals(handles[i], found.handle(i), "k " + k + ", result " + i);
                assertEquals(distances[i], found.distance(i), "k " + k + ", result " + i);
            }
        }
        assertEquals(0, found.handle(0), "equal squares: the lower handle first");
        NearestQueries.browseNearest(tree, px, 0, 0, Double.POSITIVE_INFINITY, -1L, null, boxDistance,
                recorder.reset(1), browsed);
        assertEquals(0, browsed.handle(0));
    }

    @Test
    void shouldReportAnObjectAtExactlyADistanceItReported() {
        // maxDistance is closed on the reported distance: "nearest, then everything within that distance" must find
        // the nearest again, though the reported distance squared can round below the squared distance searched
        // (fl(sqrt(3))^2 < 3)
        SplittableRandom random = new SplittableRandom(11);
        int roundedBelow = 0;
        for (int i = 0; i < 400; i++) {
            DynamicAabbTree tree = new DynamicAabbTree();
            int x = 1 + random.nextInt(9);
            int y = 1 + random.nextInt(9);
            int z = 1 + random.nextInt(9);
            int handle = tree.add(x, y, z, x + 1, y + 1, z + 1, i, 1L);
            tree.add(x + 20, y, z, x + 21, y + 1, z + 1, i, 1L);
            NearestQueries.nearest(tree, 0, 0, 0, Double.POSITIVE_INFINITY, -1L, null, null, found);
            double d = found.distance(0);
            // the squared distance is exact here: integers
            double squared = (double) x * x + (double) y * y + (double) z * z;
            if (d * d < squared) {
                roundedBelow++;
            }
            NearestQueries.kNearest(tree, 0, 0, 0, 2, d, -1L, null, null, found);
            assertEquals(1, found.count(), "within the reported distance " + d);
            assertEquals(handle, found.handle(0));
            assertEquals(d, found.distance(0));
            NearestQueries.kNearest(tree, 0, 0, 0, 2, Math.nextDown(d), -1L, null, null, found);
            assertEquals(0, found.count(), "just below the reported distance " + d);
        }
        assertTrue(roundedBelow > 20, "cases whose reported distance squared rounds below: " + roundedBelow);
    }

    @Test
    void shouldRejectAPointSoFarThatSquaredDistancesOverflow() {
        DynamicAabbTree tree = new DynamicAabbTree();
        tree.add(0, 0, 0, 1, 1, 1, 5, 1L);
        NearestQueries.nearest(tree, 0.5, 0.5, 3, Double.POSITIVE_INFINITY, -1L, null, null, found);
        assertEquals(1, found.count());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NearestQueries.nearest(
                tree, -1.5e154, 0, 0, Double.POSITIVE_INFINITY, -1L, null, null, found));
        assertTrue(e.getMessage().contains("overflow"), e.getMessage());
        assertEquals(1, found.count(), "the previous results stay");
        assertThrows(IllegalArgumentException.class, () -> NearestQueries.browseNearest(tree, 0, 0, 2e150,
                Double.POSITIVE_INFINITY, -1L, null, null, recorder.reset(3), browsed));
        // within reach, far points still work
        NearestQueries.nearest(tree, 0, 0, -1e150, Double.POSITIVE_INFINITY, -1L, null, null, found);
        assertEquals(1e150, found.distance(0), 1e136);
    }

    @Test
    void shouldDropExactDistancesWhoseSquareOverflowsLikeBruteForce() {
        DynamicAabbTree tree = new DynamicAabbTree();
        dev.boxwood.testkit.BruteForceIndex brute = new dev.boxwood.testkit.BruteForceIndex();
        // each at least the distance to its box (object i lies i - 0.5 from the point)
        double[] exactByValue = {Double.POSITIVE_INFINITY, 3, 1e200, 1e154, 1.3e154, 6};
        for (int i = 0; i < exactByValue.length; i++) {
            tree.add(i, 0, 0, i + 1, 1, 1, i, 1L);
            brute.add(i, 0, 0, i + 1, 1, 1, i, 1L);
        }
        DistanceFunction exact = (handle, userValue, x, y, z) -> exactByValue[(int) userValue];
        int[] handles = new int[exactByValue.length];
        double[] distances = new double[exactByValue.length];
        for (double maxDistance : new double[] {Double.POSITIVE_INFINITY, Double.MAX_VALUE, 1e200, 1e154, 5}) {
            for (int k = 1; k <= exactByValue.length; k++) {
                NearestQueries.kNearest(tree, 0.5, 0.5, 0.5, k, maxDistance, -1L, null, exact, found);
                int n = brute.kNearest(0.5, 0.5, 0.5, k, maxDistance, -1L, null, exact, handles, distances);
                String where = "k " + k + ", max " + maxDistance;
                assertEquals(n, found.count(), where);
                for (int i = 0; i < n; i++) {
                    assertEquals(handles[i], found.handle(i), where);
                    assertEquals(distances[i], found.distance(i), where);
                    assertEquals(exactByValue[(int) found.userValue(i)], found.distance(i), where);
                    assertTrue(found.distance(i) <= maxDistance, where);
                }
            }
        }
        // nearest first: 3, 6, 1e154 and 1.3e154 (whose squares are finite); 1e200 and infinity are dropped
        NearestQueries.kNearest(tree, 0.5, 0.5, 0.5, 6, Double.POSITIVE_INFINITY, -1L, null, exact, found);
        assertEquals(4, found.count());
        assertEquals(1.3e154, found.distance(3));
    }

    @Test
    void shouldLeavePendingAddsPendingWhenANearestQueryIsRejected() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(true));
        for (int i = 0; i < 13; i++) {
            tree.add(i, 0, 0, i + 1, 1, 1, i, 1L);
        }
        long memory = tree.memoryBytes();
        assertThrows(IllegalArgumentException.class, () -> NearestQueries.kNearest(tree, 1e200, 0, 0, 1, 1, -1L,
                null, null, found));
        assertThrows(IllegalArgumentException.class, () -> NearestQueries.browseNearest(tree, 0, -1e151, 0, 1,
                -1L, null, null, recorder.reset(3), browsed));
        assertEquals(13, tree.pendingAdds(), "nothing taken in");
        assertEquals(memory, tree.memoryBytes());
        NearestQueries.nearest(tree, 0.5, 0.5, 0.5, 1, -1L, null, null, found);
        assertEquals(0, tree.pendingAdds(), "a valid query takes them in");
        assertEquals(1, found.count());
        tree.validate();
    }
}
