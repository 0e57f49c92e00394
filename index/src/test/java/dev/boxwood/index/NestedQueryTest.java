package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import java.util.TreeSet;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;

/**
 * Queries run from inside another query's visitor. With a stack of their own they answer as at top level; on the
 * running query's stack (a misuse the stack's Javadoc forbids) the outer query resumes from what the inner one left,
 * which made box and sphere queries walk forever and casts visit millions of objects: every walk now counts the
 * nodes it opens and throws {@link IllegalStateException} once it has opened more than the tree has, and checks at
 * its end that no other walk began on its stack meanwhile ({@link TraversalStack#checkQuery}).
 */
class NestedQueryTest {

    private static DynamicAabbTree world(int n) {
        Random random = new Random(1);
        DynamicAabbTree tree = new DynamicAabbTree();
        for (int i = 0; i < n; i++) {
            double x = random.nextDouble() * 100;
            double y = random.nextDouble() * 100;
            double z = random.nextDouble() * 100;
            double s = 0.5 + random.nextDouble() * 1.5;
            tree.add(x, y, z, x + s, y + s, z + s, i, -1L);
        }
        for (int i = 0; i < 100; i++) {
            tree.add(i, 50, 50, i + 0.8, 51, 51, n + i, -1L);
        }
        return tree;
    }

    /** The outer query's answer, nesting on {@code inner} for each object it visits; or the exception it threw. */
    private static Object nestedBoxQueries(DynamicAabbTree tree, TraversalStack outer, TraversalStack inner) {
        TreeSet<Integer> got = new TreeSet<>();
        double[] b = new double[6];
        AllOverlaps in = new AllOverlaps();
        try {
            tree.queryAabb(30, 30, 30, 70, 70, 70, -1L, (h, uv) -> {
                got.add(h);
                tree.getTightBox(h, b);
                in.reset();
                tree.queryAabb(b[0] - 3, b[1] - 3, b[2] - 3, b[3] + 3, b[4] + 3, b[5] + 3, -1L, in, inner);
                return true;
            }, outer);
        } catch (IllegalStateException e) {
            return e;
        }
        return got;
    }

    private static Object nestedSphereQueries(DynamicAabbTree tree, TraversalStack outer, TraversalStack inner) {
        TreeSet<Integer> got = new TreeSet<>();
        AllOverlaps in = new AllOverlaps();
        try {
            RegionQueries.querySphere(tree, 50, 50, 50, 20, RegionMode.CROSSING, -1L, null, (h, uv) -> {
                got.add(h);
                in.reset();
                RegionQueries.querySphere(tree, 50, 50, 50, 5, RegionMode.CROSSING, -1L, null, in, inner);
                return true;
            }, outer);
        } catch (IllegalStateException e) {
            return e;
        }
        return got;
    }

    private static Object nestedCasts(DynamicAabbTree tree, TraversalStack outer, TraversalStack inner) {
        TreeSet<Integer> got = new TreeSet<>();
        AnyHit any = new AnyHit();
        try {
            tree.rayCast(0, 50.5, 50.5, 100, 0, 0, 1, -1L, (RayCastVisitor) (h, uv, f) -> {
                got.add(h);
                tree.rayCast(50, 0, 50, 0, 100, 0, 1, -1L, any, inner);
                return Double.POSITIVE_INFINITY;
            }, outer);
        } catch (IllegalStateException e) {
            return e;
        }
        return got;
    }

    @Test
    void shouldBoundANearestQueryWhoseResultsANestedOneReused() {
        DynamicAabbTree tree = world(3000);
        dev.boxwood.query.NearestNeighbours expected = new dev.boxwood.query.NearestNeighbours();
        NearestQueries.kNearest(tree, 50, 50, 50, 20, Double.POSITIVE_INFINITY, -1L, null, null, expected);
        dev.boxwood.query.NearestNeighbours own = new dev.boxwood.query.NearestNeighbours();
        dev.boxwood.query.NearestNeighbours inner = new dev.boxwood.query.NearestNeighbours();
        dev.boxwood.query.NearestNeighbours shared = new dev.boxwood.query.NearestNeighbours();
        // with results of its own the nested search leaves the outer one alone
        NearestQueries.kNearest(tree, 50, 50, 50, 20, Double.POSITIVE_INFINITY, -1L, (h, uv) -> {
            NearestQueries.kNearest(tree, 10, 10, 10, 5, Double.POSITIVE_INFINITY, -1L, null, null, inner);
            return true;
        }, null, own);
        assertEquals(expected.count(), own.count());
        for (int i = 0; i < own.count(); i++) {
            assertEquals(expected.handle(i), own.handle(i));
        }
        // on the outer search's own results: the exception (its node count, or the results' check at its end that
        // no other search began on them meanwhile; it used to answer wrongly at times), and soon
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, () ->
                    NearestQueries.kNearest(tree, 50, 50, 50, 20, Double.POSITIVE_INFINITY, -1L, (h, uv) -> {
                        NearestQueries.kNearest(tree, 10, 10, 10, 5, Double.POSITIVE_INFINITY, -1L, null, null,
                                shared);
                        return true;
                    }, null, shared));
            assertTrue(e.getMessage().contains("opened more nodes than the tree has")
                    || e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
        });
        // browsing whose visitor searches on the browse's own list
        IllegalStateException e = assertThrows(IllegalStateException.class, () ->
                NearestQueries.browseNearest(tree, 50, 50, 50, Double.POSITIVE_INFINITY, -1L, null, null,
                        (h, uv, d) -> {
                            NearestQueries.kNearest(tree, 10, 10, 10, 5, Double.POSITIVE_INFINITY, -1L, null, null,
                                    shared);
                            return true;
                        }, shared));
        assertTrue(e.getMessage().contains("opened more nodes than the tree has")
                || e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
        // a search nested in the filter, on another tree whose objects all lie at one distance: refused before the
        // visitor is handed any of the other tree's objects (it was handed them as the nearest before)
        DynamicAabbTree other = new DynamicAabbTree();
        for (int i = 0; i < 100; i++) {
            other.add(98, 98, 98, 100, 100, 100, i, -1L);
        }
        DynamicAabbTree small = world(20);
        boolean[] nested = {false};
        java.util.List<Integer> seen = new java.util.ArrayList<>();
        e = assertThrows(IllegalStateException.class, () -> NearestQueries.browseNearest(small, 50, 50, 50,
                Double.POSITIVE_INFINITY, -1L, (h, uv) -> {
                    if (!nested[0]) {
                        nested[0] = true;
                        NearestQueries.kNearest(other, 99, 99, 99, 1, Double.POSITIVE_INFINITY, -1L, null, null,
                                shared);
                    }
                    return true;
                }, null, (h, uv, d) -> seen.add(h), shared));
        assertTrue(e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
        assertEquals(java.util.List.of(), seen);
        tree.validate();
    }

    @Test
    void shouldAnswerNestedQueriesOnTheirOwnStacksAndNeverRunAwayOnAShared() {
        for (int n : new int[] {300, 3000}) {
            DynamicAabbTree tree = world(n);
            TreeSet<Integer> box = new TreeSet<>();
            tree.queryAabb(30, 30, 30, 70, 70, 70, -1L, (h, uv) -> box.add(h), new TraversalStack());
            TreeSet<Integer> sphere = new TreeSet<>();
            RegionQueries.querySphere(tree, 50, 50, 50, 20, RegionMode.CROSSING, -1L, null,
                    (h, uv) -> sphere.add(h), new TraversalStack());
            AllHits all = new AllHits();
            tree.rayCast(0, 50.5, 50.5, 100, 0, 0, 1, -1L, all, new TraversalStack());
            TreeSet<Integer> cast = new TreeSet<>();
            for (int i = 0; i < all.count(); i++) {
                cast.add(all.handle(i));
            }
            // a stack each: the top-level answers
            assertEquals(box, nestedBoxQueries(tree, new TraversalStack(), new TraversalStack()));
            assertEquals(sphere, nestedSphereQueries(tree, new TraversalStack(), new TraversalStack()));
            assertEquals(cast, nestedCasts(tree, new TraversalStack(), new TraversalStack()));
            // one stack for both: the outer query throws, soon (its node count, or the stack's check at its end
            // that no other query began on it meanwhile); it used to answer wrongly at times
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                TraversalStack shared = new TraversalStack();
                for (Object outcome : new Object[] {nestedBoxQueries(tree, shared, shared),
                    nestedSphereQueries(tree, shared, shared), nestedCasts(tree, shared, shared)}) {
                    assertTrue(outcome instanceof IllegalStateException, "n = " + n + ": " + outcome);
                    String message = ((IllegalStateException) outcome).getMessage();
                    assertTrue(message.contains("opened more nodes than the tree has")
                            || message.contains("another query ran on this TraversalStack"), message);
                }
            }, "n = " + n + ": a query nested on its outer query's stack ran away");
            tree.validate();
        }
    }
    @Test
    void shouldRefuseANestingOnTheSameStackByAnotherTreeAPairQueryOrTheNodeWalk() {
        DynamicAabbTree small = world(300);
        DynamicAabbTree big = world(20_000);
        TraversalStack stack = new TraversalStack();
        PairQueries.selfPairs(big, -1L, new PairBuffer(), stack);
        // a query of a larger tree nested on the running query's stack: the references the outer walk takes back
        // are out of its range (an index out of bounds before), refused as the misuse
        Runnable[] inner = {
            () -> big.queryAabb(0, 0, 0, 100, 100, 100, -1L, new AllOverlaps(), stack),
            () -> big.rayCast(0, 50.5, 50.5, 100, 0, 0, 1, -1L, new AllHits(), stack),
            () -> RegionQueries.querySphere(big, 50, 50, 50, 30, RegionMode.CROSSING, -1L, null, new AllOverlaps(),
                    stack),
            () -> PairQueries.selfPairs(big, -1L, new PairBuffer(), stack),
            () -> big.visitNodes((depth, handle, x0, y0, z0, x1, y1, z1) -> { }, stack),
        };
        for (int k = 0; k < inner.length; k++) {
            Runnable nested = inner[k];
            boolean[] fired = {false};
            String kind = "inner kind " + k;
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> small.queryAabb(0, 0, 0, 100, 100, 100, -1L, (h, uv) -> {
                        if (!fired[0]) {
                            fired[0] = true;
                            nested.run();
                        }
                        return true;
                    }, stack), kind);
            assertTrue(e.getMessage().contains("another query ran on this TraversalStack")
                    || e.getMessage().contains("opened more nodes than the tree has"), kind + ": " + e.getMessage());
            fired[0] = false;
            e = assertThrows(IllegalStateException.class,
                    () -> small.rayCast(0, 50.5, 50.5, 100, 0, 0, 1, -1L, (RayCastVisitor) (h, uv, f) -> {
                        if (!fired[0]) {
                            fired[0] = true;
                            nested.run();
                        }
                        return Double.POSITIVE_INFINITY;
                    }, stack), kind);
            fired[0] = false;
            e = assertThrows(IllegalStateException.class,
                    () -> small.visitNodes((depth, handle, x0, y0, z0, x1, y1, z1) -> {
                        if (!fired[0]) {
                            fired[0] = true;
                            nested.run();
                        }
                    }, stack), kind);
            assertTrue(e.getMessage().contains("another query ran on this TraversalStack"), kind + ": "
                    + e.getMessage());
        }
        small.validate();
        big.validate();
    }
}
