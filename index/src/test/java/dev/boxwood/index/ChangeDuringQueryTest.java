package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tree changed from inside one of its queries' callbacks: every query of the live tree compares the tree's count
 * of structural changes at its end with the count at its start and throws {@link ConcurrentModificationException}
 * when they differ, and the tree itself stays valid. Without the check, a box query whose visitor removed every
 * object it visited ran to its end without a word and left the tree empty. (A visitor that changes nothing never
 * triggers it: every other query test.)
 */
class ChangeDuringQueryTest {

    /** What a callback does to the tree with the handle it was given. */
    enum Change {
        REMOVE, ADD, MOVE_FAR, RECATEGORISE
    }

    /** The query whose callback changes the tree. */
    enum Query {
        BOX, CAST, NEAREST, NEAREST_FILTER, SPHERE, BOX_WINDOW, SWEEP, VISIT_NODES
    }

    private final TraversalStack stack = new TraversalStack();

    static Stream<Arguments> queriesAndChanges() {
        return Stream.of(Query.values()).flatMap(q -> Stream.of(Change.values()).map(c -> Arguments.of(q, c)));
    }

    private static DynamicAabbTree world(TreeConfig config) {
        DynamicAabbTree tree = new DynamicAabbTree(config);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 2000; i++) {
            double x = random.nextDouble(0, 100);
            double y = random.nextDouble(0, 100);
            double z = random.nextDouble(0, 100);
            double e = random.nextDouble(0.5, 3);
            tree.add(x, y, z, x + e, y + e, z + e, i, 1L);
        }
        // a row along the casts' line, so that they meet objects
        for (int i = 0; i < 50; i++) {
            tree.add(2 * i, 49.5, 49.5, 2 * i + 1, 50.5, 50.5, 2000 + i, 1L);
        }
        tree.flushAdds();
        return tree;
    }

    private static void change(DynamicAabbTree tree, Change change, int handle, SplittableRandom random) {
        switch (change) {
            case REMOVE -> tree.remove(handle);
            case ADD -> {
                double x = random.nextDouble(0, 100);
                tree.add(x, x, x, x + 1, x + 1, x + 1, -1, 1L);
            }
            // far out of its fat box and its parent's: re-inserted
            case MOVE_FAR -> tree.move(handle, 500, 500, 500, 501, 501, 501);
            case RECATEGORISE -> tree.setCategoryBits(handle, 2L);
        }
    }

    /** Runs {@code query} on the tree with a callback that hands each object it sees to {@code onObject}. */
    private void run(DynamicAabbTree tree, Query query, IntConsumer onObject) {
        switch (query) {
            case BOX -> tree.queryAabb(20, 20, 20, 80, 80, 80, -1L, (h, uv) -> {
                onObject.accept(h);
                return true;
            }, stack);
            case CAST -> tree.rayCast(-10, 50, 50, 120, 0, 0, 1.0, -1L, (h, uv, fraction) -> {
                onObject.accept(h);
                return Double.POSITIVE_INFINITY;
            }, stack);
            case NEAREST -> NearestQueries.browseNearest(tree, 50, 50, 50, Double.POSITIVE_INFINITY, -1L, null, null,
                    (h, uv, distance) -> {
                        onObject.accept(h);
                        return true;
                    }, new NearestNeighbours());
            case NEAREST_FILTER -> NearestQueries.kNearest(tree, 50, 50, 50, 50, Double.POSITIVE_INFINITY, -1L,
                    (h, uv) -> {
                        onObject.accept(h);
                        return true;
                    }, null, new NearestNeighbours());
            case SPHERE -> RegionQueries.querySphere(tree, 50, 50, 50, 30, RegionMode.CROSSING, -1L, null, (h, uv) -> {
                onObject.accept(h);
                return true;
            }, stack);
            case BOX_WINDOW -> RegionQueries.queryBox(tree, 10, 10, 10, 90, 90, 90, RegionMode.WINDOW, -1L, null,
                    (h, uv) -> {
                        onObject.accept(h);
                        return true;
                    }, stack);
            case SWEEP -> SweepQueries.sweepSphere(tree, -10, 50, 50, 3, 120, 0, 0, -1L,
                    (h, uv, fraction) -> {
                        onObject.accept(h);
                        return Double.POSITIVE_INFINITY;
                    }, stack);
            case VISIT_NODES -> tree.visitNodes((depth, h, x0, y0, z0, x1, y1, z1) -> {
                if (h >= 0) {
                    onObject.accept(h);
                }
            }, stack);
        }
    }

    @ParameterizedTest(name = "{1} in a {0} callback")
    @MethodSource("queriesAndChanges")
    void shouldThrowWhenACallbackChangesTheTree(Query query, Change change) {
        DynamicAabbTree tree = world(TreeConfig.defaults());
        int before = tree.size();
        SplittableRandom random = new SplittableRandom(7);
        int[] seen = {0};
        ConcurrentModificationException e = assertThrows(ConcurrentModificationException.class,
                () -> run(tree, query, h -> {
                    seen[0]++;
                    // every object seen, as long as it is still the tree's
                    if (tree.contains(h)) {
                        change(tree, change, h, random);
                    }
                }));
        assertTrue(e.getMessage().startsWith("the tree changed during a query"), e.getMessage());
        assertTrue(seen[0] > 0, "the callback ran");
        tree.validate();
        switch (change) {
            case REMOVE -> assertTrue(tree.size() < before, "the removals were made: " + tree.size());
            case ADD -> assertTrue(tree.size() > before, "the adds were made: " + tree.size());
            default -> assertEquals(before, tree.size());
        }
        // the tree answers again once the query is over
        AllOverlaps all = new AllOverlaps();
        tree.queryAabb(-1e3, -1e3, -1e3, 1e3, 1e3, 1e3, -1L, all, stack);
        assertEquals(tree.size(), all.count());
    }

    @Test
    void shouldThrowWhenAVisitorRemovesEveryObjectItVisits() {
        // removing each visited handle inside a box query, unchecked, emptied the tree silently
        DynamicAabbTree tree = world(TreeConfig.defaults());
        assertThrows(ConcurrentModificationException.class,
                () -> tree.queryAabb(-1e3, -1e3, -1e3, 1e3, 1e3, 1e3, -1L, (h, uv) -> {
                    tree.remove(h);
                    return true;
                }, stack));
        tree.validate();
        assertFalse(tree.size() == 2050, "the visitor's removals were made before the query threw");
    }

    @Test
    void shouldThrowWhenAVisitorAddsUnderDeferredAddsOrChangesTheTreeAsAWhole() {
        DynamicAabbTree deferred = world(TreeConfig.defaults().withDeferredAdds(true));
        assertThrows(ConcurrentModificationException.class, () -> run(deferred, Query.BOX,
                h -> deferred.add(0, 0, 0, 1, 1, 1, 0, 1L)));
        assertTrue(deferred.pendingAdds() > 0, "left pending: the query did not take them in");
        deferred.validate();
        for (IntConsumerOnTree action : new IntConsumerOnTree[] {
            (t, h) -> t.clear(),
            (t, h) -> t.rebuild(true),
            (t, h) -> t.rebuild(false),
            (t, h) -> t.optimize(1),
            (t, h) -> t.compact(),
            (t, h) -> t.addAll(new double[] {1, 1, 1, 2, 2, 2}, null, null),
            (t, h) -> t.removeAll(new int[] {h})}) {
            DynamicAabbTree tree = world(TreeConfig.defaults());
            assertThrows(ConcurrentModificationException.class, () -> run(tree, Query.CAST, h -> {
                if (tree.contains(h)) {
                    action.accept(tree, h);
                }
            }));
            tree.validate();
        }
    }

    /** A change made with the tree and the handle a callback got. */
    private interface IntConsumerOnTree {
        void accept(DynamicAabbTree tree, int handle);
    }

    @Test
    void shouldThrowWhenABatchSeesTheTreeChangeBetweenItsQueries() {
        DynamicAabbTree statics = world(TreeConfig.defaults());
        int[] victim = {statics.liveHandles()[0]};
        // the moving objects' index removes a static object while the batch runs: outside any query of the static
        // tree, so only the batch's own check, after all its queries, can see it
        DelegatingIndex entities = new DelegatingIndex(new DynamicAabbTree()) {
            @Override
            public void rayCast(double ox, double oy, double oz, double tx, double ty, double tz, double maxFraction,
                                long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
                if (statics.contains(victim[0])) {
                    statics.remove(victim[0]);
                }
                super.rayCast(ox, oy, oz, tx, ty, tz, maxFraction, categoryMask, visitor, stack);
            }
        };
        double[] from = {-10, 50, 50, -10, 60, 60};
        double[] to = {110, 50, 50, 110, 60, 60};
        boolean[] visible = new boolean[2];
        try (BatchQueries batch = new BatchQueries(1)) {
            assertThrows(ConcurrentModificationException.class,
                    () -> batch.lineOfSight(statics, entities, from, to, null, null, 2, -1L, -1L, visible));
            // the instance takes the next batch, and answers once nothing changes
            batch.lineOfSight(statics, new DelegatingIndex(new DynamicAabbTree()), from, to, null, null, 2, -1L,
                    -1L, visible);
        }
        statics.validate();
    }

    /** The pair walks, which no node budget bounds. */
    enum PairWalk {
        SELF, TREE_WITH_OTHER, OTHER_WITH_TREE, MOVED
    }

    @ParameterizedTest
    @EnumSource(PairWalk.class)
    void shouldEndAPairWalkCaughtInACycleThatAnotherThreadsChangeLeft(PairWalk walk) {
        // another thread's change can leave the walk a cycle to follow (here the root read as its own children):
        // the walk must end with the change named once this thread sees the change count move, not follow the
        // cycle forever (the pair walks did, now and then, under the mutator of the test below)
        DynamicAabbTree tree = world(TreeConfig.defaults());
        DynamicAabbTree other = world(TreeConfig.defaults());
        int root = tree.child(0);
        tree.records[DynamicAabbTree.refIndex(2 * root)] = root;
        tree.records[DynamicAabbTree.refIndex(2 * root + 1)] = root;
        // bumped again and again until the walk has ended, so that the walk sees a change after it started however
        // late it starts
        AtomicBoolean done = new AtomicBoolean();
        Thread changer = new Thread(() -> {
            while (!done.get()) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
                tree.modCount++;
            }
        }, "changer");
        changer.setDaemon(true);
        changer.start();
        PairBuffer pairs = new PairBuffer();
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThrows(
                    ConcurrentModificationException.class, () -> {
                        switch (walk) {
                            case SELF -> PairQueries.selfPairs(tree, -1L, pairs, stack);
                            case TREE_WITH_OTHER -> PairQueries.treePairs(tree, -1L, other, -1L, pairs, stack);
                            case OTHER_WITH_TREE -> PairQueries.treePairs(other, -1L, tree, -1L, pairs, stack);
                            default -> PairQueries.movedPairs(tree, -1L, pairs, stack);
                        }
                    }));
        } finally {
            done.set(true);
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 120, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldNameAChangeFromAnotherThreadThatBreaksAPairWalk() throws InterruptedException {
        // pair queries run no callback, so only another thread can change the tree under them; whatever that breaks
        // in the walk (an index out of range, a reference to a freed node) must reach the caller as the change, as
        // far as the querying thread sees the change count move (a plain field: docs/tree.md, Queries): a walk that
        // starts while a change is under way has read the count that change already bumped, and may fail unnamed
        DynamicAabbTree tree = world(TreeConfig.defaults());
        DynamicAabbTree other = world(TreeConfig.defaults());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> mutatorFailure = new AtomicReference<>();
        // odd while the mutator changes the tree: a walk that began and ended at the same even value overlapped no
        // change (the volatile count orders the mutator's writes before it), so it must answer, whatever the load
        AtomicLong changing = new AtomicLong();
        Thread mutator = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(11);
            try {
                for (int round = 0; !stop.get(); round++) {
                    int[] live = tree.liveHandles();
                    for (int i = round & 1; i < live.length; i += 2) {
                        changing.incrementAndGet();
                        tree.remove(live[i]);
                        changing.incrementAndGet();
                    }
                    if (round % 3 == 0) {
                        changing.incrementAndGet();
                        tree.compact();
                        changing.incrementAndGet();
                    }
                    for (int i = 0; i < live.length / 2; i++) {
                        double x = random.nextDouble(0, 100);
                        double y = random.nextDouble(0, 100);
                        double z = random.nextDouble(0, 100);
                        changing.incrementAndGet();
                        tree.add(x, y, z, x + 2, y + 2, z + 2, i, 1L);
                        changing.incrementAndGet();
                    }
                    if (round % 4 == 1) {
                        changing.incrementAndGet();
                        tree.rebuild(round % 8 == 1);
                        changing.incrementAndGet();
                    }
                }
            } catch (Throwable t) {
                mutatorFailure.set(t);
            }
        }, "mutator");
        mutator.setDaemon(true);
        mutator.start();
        PairBuffer pairs = new PairBuffer();
        TraversalStack scratch = new TraversalStack();
        int changes = 0;
        int completed = 0;
        int unnamedCount = 0;
        RuntimeException unnamed = null;
        try {
            // at least 1.5 s and 100 named changes (for the ratio below to mean something on a slow machine),
            // at most 60 s
            long start = System.nanoTime();
            for (long elapsed = 0; elapsed < 60_000_000_000L && (elapsed < 1_500_000_000L || changes < 100);
                 elapsed = System.nanoTime() - start) {
                for (int kind = 0; kind < 3; kind++) {
                    long before = changing.get();
                    try {
                        switch (kind) {
                            case 0 -> PairQueries.selfPairs(tree, -1L, pairs, scratch);
                            case 1 -> PairQueries.treePairs(tree, -1L, other, -1L, pairs, scratch);
                            default -> PairQueries.treePairs(other, -1L, tree, -1L, pairs, scratch);
                        }
                        completed++;
                    } catch (ConcurrentModificationException e) {
                        changes++;
                    } catch (RuntimeException e) {
                        if ((before & 1) == 0 && changing.get() == before) {
                            throw new AssertionError("a pair walk failed on a tree no thread changed during it", e);
                        }
                        unnamed = e;
                        unnamedCount++;
                    }
                }
            }
        } finally {
            stop.set(true);
            mutator.join();
        }
        assertNull(mutatorFailure.get(), () -> "the mutator failed: " + mutatorFailure.get());
        if (unnamedCount * 20 > changes) {
            throw new AssertionError("pair walks broken by a change failed unnamed " + unnamedCount + " times against "
                    + changes + " named, last as " + unnamed, unnamed);
        }
        assertTrue(changes > 0, "no change seen in " + completed + " walks");
        other.validate();
    }
}
