package dev.boxwood.index;

import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactPairs;
import dev.boxwood.testkit.ExactPairs.Place;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PairQueries} against an exact reference written from the documented rule alone (class comment of
 * {@code PairQueries}, docs/queries.md, Pairs): the stored float tight boxes ({@link ReadableTree#getStoredTightBox}),
 * closed boxes, within one tree the floats compared as they are, between two trees each float {@code f} of
 * {@code b} taken to the double nearest to {@code f + d} with {@code d} the double nearest to
 * {@code originB - originA}, both roundings done here in {@link BigDecimal} (no library arithmetic), the category
 * test {@code (bits & mask) != 0}, each pair once, sorted by {@code (first, second)}.
 *
 * <p>The moved-set model follows the Javadoc of {@link PairQueries#movedPairs}: adds (also {@code addAll}, deferred
 * adds) and every {@code move} mark the object, {@code remove} forgets it, a bulk build starts empty,
 * {@code clear()} empties it, {@code setCategoryBits}, rebuilds, {@code optimize} and {@code compact} leave it as it
 * is; a call reports the pairs (both objects passing the mask) with at least one marked object passing the mask,
 * then forgets every marked object.
 *
 * <p>Default run: a few seconds. Larger: {@code -Dboxwood.pairsExact.rounds=N} (random scenarios per profile, default
 * 3) and {@code -Dboxwood.pairsExact.ops=N} (mutations per scenario, default 250).
 */
class PairQueriesExactTest {

    private static final int ROUNDS = Integer.getInteger("boxwood.pairsExact.rounds", 3);
    private static final int OPS = Integer.getInteger("boxwood.pairsExact.ops", 250);

    private static final long[] CATEGORIES = {
        -1L, 0L, 1L, 2L, 1L << 31, 1L << 32, 1L << 33, 1L << 63, 3L, (1L << 32) | 1L, 0xFFFF_FFFF_0000_0000L,
        0x0000_0000_FFFF_FFFFL, 1L << 40, (1L << 63) | (1L << 31)};
    private static final long[] MASKS = {
        -1L, 0L, 1L, 2L, 1L << 32, 1L << 33, 1L << 63, 1L << 31, 0x0000_0000_FFFF_FFFFL, 0xFFFF_FFFF_0000_0000L,
        (1L << 32) | 2L, 1L << 40, ~1L, ~(1L << 32)};

    private final TraversalStack stack = new TraversalStack(1);
    private final PairBuffer pairs = new PairBuffer(1);
    private final ExactPairs.Tally tally = new ExactPairs.Tally();

    // ------------------------------------------------------------------------------------------------------------
    // The exact reference
    // ------------------------------------------------------------------------------------------------------------

    /** One tree's state as the reference sees it: stored floats, categories, handles, origin. */
    static final class Snap {
        final int[] handles;
        final float[] boxes;
        final long[] categories;
        final double[] origin;

        Snap(ReadableTree t) {
            handles = t.liveHandles();
            java.util.Arrays.sort(handles);
            boxes = new float[6 * handles.length];
            categories = new long[handles.length];
            float[] b = new float[6];
            for (int i = 0; i < handles.length; i++) {
                t.getStoredTightBox(handles[i], b);
                System.arraycopy(b, 0, boxes, 6 * i, 6);
                categories[i] = t.categoryBits(handles[i]);
            }
            origin = new double[] {t.originX(), t.originY(), t.originZ()};
        }

        /** The boxes moved into {@code into}'s frame by the documented rule, computed exactly. */
        double[] movedInto(double[] into) {
            double[] d = new double[3];
            for (int a = 0; a < 3; a++) {
                d[a] = ExactPairs.nearestDouble(new BigDecimal(origin[a]).subtract(new BigDecimal(into[a])));
            }
            double[] m = new double[boxes.length];
            for (int i = 0; i < boxes.length; i++) {
                double da = d[i % 3];
                m[i] = da == 0 ? boxes[i]
                        : ExactPairs.nearestDouble(new BigDecimal(boxes[i]).add(new BigDecimal(da)));
            }
            return m;
        }
    }

    private static boolean overlap(float[] a, int i, double[] b, int j) {
        // doubles and floats compare exactly in Java (the float widens exactly)
        for (int k = 0; k < 3; k++) {
            if (!(a[6 * i + k] <= b[6 * j + 3 + k] && b[6 * j + k] <= a[6 * i + 3 + k])) {
                return false;
            }
        }
        return true;
    }

    private static double[] widen(float[] f) {
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            d[i] = f[i];
        }
        return d;
    }

    /** Self pairs of one tree; with {@code moved}, only those involving a marked object passing the mask. */
    static List<long[]> selfReference(Snap s, long mask, Set<Integer> moved) {
        double[] b = widen(s.boxes);
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < s.handles.length; i++) {
            if ((s.categories[i] & mask) == 0) {
                continue;
            }
            for (int j = i + 1; j < s.handles.length; j++) {
                if ((s.categories[j] & mask) == 0) {
                    continue;
                }
                if (moved != null && !moved.contains(s.handles[i]) && !moved.contains(s.handles[j])) {
                    continue;
                }
                if (overlap(s.boxes, i, b, j)) {
                    out.add(new long[] {s.handles[i], s.handles[j]});
                }
            }
        }
        return out;
    }

    /** Pairs (object of a, object of b), decided in a's frame. */
    static List<long[]> treeReference(Snap a, long maskA, Snap b, long maskB) {
        double[] mb = b.movedInto(a.origin);
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < a.handles.length; i++) {
            if ((a.categories[i] & maskA) == 0) {
                continue;
            }
            for (int j = 0; j < b.handles.length; j++) {
                if ((b.categories[j] & maskB) != 0 && overlap(a.boxes, i, mb, j)) {
                    out.add(new long[] {a.handles[i], b.handles[j]});
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Scenes
    // ------------------------------------------------------------------------------------------------------------

    /** Off-grid coordinates too: a random fraction of a step. */
    private static double[] offGridBox(SplittableRandom r, Place p, int cells) {
        double[] b = ExactPairs.gridBox(r, p, cells);
        for (int a = 0; a < 3; a++) {
            double shift = r.nextDouble() * p.step;
            b[a] += shift;
            b[a + 3] += shift + (r.nextBoolean() ? 0 : r.nextDouble() * p.step);
        }
        return b;
    }

    private static double[] origin(SplittableRandom r, Place p, int kind) {
        switch (kind) {
            case 0:
                return new double[] {0, 0, 0};
            case 1:
                return new double[] {p.base, p.base, p.base};
            case 2:
                return new double[] {p.base + r.nextDouble() * 20 * p.step, p.base - r.nextDouble() * 7 * p.step,
                    p.base + 0.1 * p.step};
            default:
                return new double[] {p.base + 1e-3 * r.nextDouble(), p.base + Math.PI, p.base - Math.E};
        }
    }

    private static TreeConfig config(SplittableRandom r, double[] origin, boolean deferred) {
        TreeConfig c = TreeConfig.defaults().withOrigin(origin[0], origin[1], origin[2]).withDeferredAdds(deferred);
        switch (r.nextInt(4)) {
            case 0:
                return c.withMargin(0, 0);
            case 1:
                return c.withMargin(1e9, 0.5).withPrediction(2);
            case 2:
                return c.withRotations(false).withAddOptimization(1);
            default:
                return c;
        }
    }

    /** A tree under random mutations, with the moved-set model. */
    private final class Live {
        final DynamicAabbTree tree;
        final Place place;
        final int cells;
        final List<Integer> handles = new ArrayList<>();
        final Set<Integer> moved = new HashSet<>();
        final List<double[]> recent = new ArrayList<>();

        Live(DynamicAabbTree tree, Place place, int cells) {
            this.tree = tree;
            this.place = place;
            this.cells = cells;
        }

        double[] box(SplittableRandom r) {
            int k = r.nextInt(10);
            if (k < 2 && !recent.isEmpty()) {
                // a duplicate of a recent box, exactly
                return recent.get(r.nextInt(recent.size())).clone();
            }
            double[] b = k < 7 ? ExactPairs.gridBox(r, place, cells) : offGridBox(r, place, cells);
            recent.add(b);
            if (recent.size() > 40) {
                recent.remove(0);
            }
            return b;
        }

        void add(SplittableRandom r) {
            double[] b = box(r);
            int h = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, CATEGORIES[r.nextInt(CATEGORIES.length)]);
            handles.add(h);
            moved.add(h);
        }

        void mutate(SplittableRandom r) {
            int k = r.nextInt(100);
            if (handles.isEmpty() || k < 30) {
                add(r);
                return;
            }
            int i = r.nextInt(handles.size());
            int h = handles.get(i);
            if (k < 45) {
                tree.remove(h);
                handles.set(i, handles.get(handles.size() - 1));
                handles.remove(handles.size() - 1);
                moved.remove(h);
            } else if (k < 60) {
                // a small move, usually inside the fat box (or the same box again)
                double[] t = new double[6];
                tree.getTightBox(h, t);
                double e = r.nextInt(3) == 0 ? 0 : place.step * 1e-3 * r.nextDouble();
                tree.move(h, t[0] + e, t[1], t[2], t[3] + e, t[4], t[5]);
                moved.add(h);
            } else if (k < 75) {
                double[] b = box(r);
                if (r.nextBoolean()) {
                    tree.move(h, b[0], b[1], b[2], b[3], b[4], b[5]);
                } else {
                    tree.move(h, b[0], b[1], b[2], b[3], b[4], b[5], place.step * (r.nextDouble() - 0.5),
                            place.step * r.nextDouble(), 0);
                }
                moved.add(h);
            } else if (k < 85) {
                tree.setCategoryBits(h, CATEGORIES[r.nextInt(CATEGORIES.length)]);
            } else if (k < 88) {
                int m = 1 + r.nextInt(r.nextInt(8) == 0 ? 150 : 12);
                double[] boxes = new double[6 * m];
                long[] cats = new long[m];
                for (int j = 0; j < m; j++) {
                    System.arraycopy(box(r), 0, boxes, 6 * j, 6);
                    cats[j] = CATEGORIES[r.nextInt(CATEGORIES.length)];
                }
                for (int added : tree.addAll(boxes, null, cats)) {
                    handles.add(added);
                    moved.add(added);
                }
            } else if (k < 89) {
                // a dense cluster (inserted whole as a prebuilt part) as a batch, or as a burst of single adds
                // (under deferred adds: taken in by the batch path or by a rebuild)
                int m = 64 + r.nextInt(70);
                double[] c = box(r);
                double[] boxes = new double[6 * m];
                long[] cats = new long[m];
                for (int j = 0; j < m; j++) {
                    for (int a = 0; a < 3; a++) {
                        double lo = c[a] + place.step * 0.125 * r.nextInt(40);
                        boxes[6 * j + a] = lo;
                        boxes[6 * j + 3 + a] = lo + place.step * 0.125 * r.nextInt(3);
                    }
                    cats[j] = CATEGORIES[r.nextInt(CATEGORIES.length)];
                }
                if (r.nextBoolean()) {
                    for (int added : tree.addAll(boxes, null, cats)) {
                        handles.add(added);
                        moved.add(added);
                    }
                } else {
                    for (int j = 0; j < m; j++) {
                        int h2 = tree.add(boxes[6 * j], boxes[6 * j + 1], boxes[6 * j + 2], boxes[6 * j + 3],
                                boxes[6 * j + 4], boxes[6 * j + 5], 0, cats[j]);
                        handles.add(h2);
                        moved.add(h2);
                    }
                }
            } else if (k < 90) {
                tree.rebuild(r.nextBoolean());
            } else if (k < 92) {
                tree.optimize(1 + r.nextInt(4));
            } else if (k < 93) {
                tree.compact();
            } else if (k < 94 && r.nextInt(10) == 0) {
                tree.clear();
                handles.clear();
                moved.clear();
            } else {
                add(r);
            }
        }
    }

    private long mask(SplittableRandom r) {
        return r.nextInt(4) == 0 ? r.nextLong() : MASKS[r.nextInt(MASKS.length)];
    }

    // ------------------------------------------------------------------------------------------------------------
    // Random scenarios
    // ------------------------------------------------------------------------------------------------------------

    @Test
    void selfMovedAndTreePairsMatchTheExactReferenceThroughMutations() {
        for (Place place : Place.values()) {
            for (int round = 0; round < ROUNDS; round++) {
                long seed = place.ordinal() * 1000L + round;
                runScenario(place, seed);
            }
        }
        assertTrue(tally.pairs() > 10_000, "pairs checked: " + tally.pairs());
        System.out.println("PairQueriesExactTest: " + tally.calls() + " calls, " + tally.pairs() + " pairs checked");
    }

    private void runScenario(Place place, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int cells = 6 + r.nextInt(30);
        boolean deferred = r.nextInt(3) == 0;
        double[] originA = origin(r, place, r.nextInt(4));
        double[] originB = origin(r, place, r.nextInt(4));
        Live a = new Live(new DynamicAabbTree(config(r, originA, deferred)), place, cells);
        // b: bulk built (starts with an empty moved set), then mutated as well
        int nb = 20 + r.nextInt(200);
        double[] boxes = new double[6 * nb];
        long[] cats = new long[nb];
        Live proto = new Live(null, place, cells);
        for (int i = 0; i < nb; i++) {
            System.arraycopy(proto.box(r), 0, boxes, 6 * i, 6);
            cats[i] = CATEGORIES[r.nextInt(CATEGORIES.length)];
        }
        Live b = new Live(DynamicAabbTree.build(config(r, originB, !deferred), boxes, null, cats), place, cells);
        for (int i = 0; i < nb; i++) {
            b.handles.add(i);
        }
        TreeSnapshots snapshots = new TreeSnapshots(a.tree);
        ReadView held = null;
        Snap heldSnap = null;
        String scene = place + " seed " + seed + " cells " + cells + " deferred " + deferred;
        assertEquals(0, PairQueries.movedCount(b.tree), scene + ": a bulk-built tree starts unmarked");
        for (int op = 0; op < OPS; op++) {
            a.mutate(r);
            if (r.nextInt(3) == 0) {
                b.mutate(r);
            }
            String where = scene + " op " + op;
            if (op % 10 == 9) {
                long mask = mask(r);
                Snap sa = new Snap(a.tree);
                PairQueries.selfPairs(a.tree, mask, pairs, stack);
                tally.check(selfReference(sa, mask, null), pairs, where + ": selfPairs(a), mask " + mask);
            }
            if (op % 7 == 6) {
                Live l = r.nextBoolean() ? a : b;
                long mask = mask(r);
                Snap s = new Snap(l.tree);
                assertEquals(l.moved.size(), PairQueries.movedCount(l.tree), where + ": movedCount");
                List<long[]> expected = selfReference(s, mask, markedInMask(l, mask));
                PairQueries.movedPairs(l.tree, mask, pairs, stack);
                tally.check(expected, pairs, where + ": movedPairs(" + (l == a ? "a" : "b") + "), mask " + mask);
                l.moved.clear();
                assertEquals(0, PairQueries.movedCount(l.tree), where + ": movedCount after the call");
            }
            if (op % 13 == 12) {
                long maskA = mask(r);
                long maskB = mask(r);
                Snap sa = new Snap(a.tree);
                Snap sb = new Snap(b.tree);
                PairQueries.treePairs(a.tree, maskA, b.tree, maskB, pairs, stack);
                tally.check(treeReference(sa, maskA, sb, maskB), pairs, where + ": treePairs(a, b)");
                PairQueries.treePairs(b.tree, maskB, a.tree, maskA, pairs, stack);
                tally.check(treeReference(sb, maskB, sa, maskA), pairs, where + ": treePairs(b, a)");
                PairQueries.treePairs(a.tree, maskA, a.tree, maskB, pairs, stack);
                tally.check(treeReference(sa, maskA, sa, maskB), pairs, where + ": treePairs(a, a)");
            }
            if (op % 17 == 16) {
                // read views: one held across later mutations and publishes
                if (held == null || r.nextInt(3) == 0) {
                    if (held != null) {
                        held.close();
                    }
                    snapshots.publish();
                    held = snapshots.acquire();
                    heldSnap = new Snap(a.tree);
                }
                snapshots.publish();
                long mask = mask(r);
                PairQueries.selfPairs(held, mask, pairs, stack);
                tally.check(selfReference(heldSnap, mask, null), pairs, where + ": selfPairs(held view)");
                Snap sb = new Snap(b.tree);
                PairQueries.treePairs(held, mask, b.tree, -1L, pairs, stack);
                tally.check(treeReference(heldSnap, mask, sb, -1L), pairs, where + ": treePairs(held view, b)");
                Snap now = new Snap(a.tree);
                PairQueries.treePairs(held, -1L, a.tree, mask, pairs, stack);
                tally.check(treeReference(heldSnap, -1L, now, mask), pairs, where + ": treePairs(held view, a)");
                try (ReadView latest = snapshots.acquire()) {
                    PairQueries.treePairs(a.tree, mask, latest, -1L, pairs, stack);
                    tally.check(treeReference(now, mask, now, -1L), pairs, where + ": treePairs(a, latest view)");
                }
            }
        }
        if (held != null) {
            held.close();
        }
        a.tree.validate();
        b.tree.validate();
    }

    /** The marked objects whose categories pass the mask (the others are forgotten without pairs). */
    private static Set<Integer> markedInMask(Live l, long mask) {
        Set<Integer> s = new HashSet<>();
        for (int h : l.moved) {
            if ((l.tree.categoryBits(h) & mask) != 0) {
                s.add(h);
            }
        }
        return s;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Constructed cases
    // ------------------------------------------------------------------------------------------------------------

    /** Many identical, touching and zero-extent boxes: the descent must find each pair exactly once. */
    @Test
    void duplicatesTouchingAndPointsAreEachPairedOnce() {
        for (int variant = 0; variant < 4; variant++) {
            double o = variant < 2 ? 0 : 1e9 + 0.37;
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(o + 0.1, o, o - 0.3)
                    .withMargin(variant % 2 == 0 ? 0 : 0.1, variant % 2 == 0 ? 0 : 0.125));
            int n = 0;
            for (int i = 0; i < 120; i++) {
                // 120 copies of one box
                tree.add(o, o, o, o + 1, o + 1, o + 1, 0, -1L);
                n++;
            }
            for (int i = 0; i < 60; i++) {
                // 60 copies of a point at its corner, 60 boxes touching its face
                tree.add(o + 1, o + 1, o + 1, o + 1, o + 1, o + 1, 0, i % 2 == 0 ? 1L : 1L << 32);
                tree.add(o + 1, o, o, o + 2, o + 1, o + 1, 0, -1L);
                n += 2;
            }
            Snap s = new Snap(tree);
            for (long mask : MASKS) {
                PairQueries.selfPairs(tree, mask, pairs, stack);
                tally.check(selfReference(s, mask, null), pairs, "variant " + variant + " mask " + mask);
                PairQueries.treePairs(tree, mask, tree, -1L, pairs, stack);
                tally.check(treeReference(s, mask, s, -1L), pairs, "variant " + variant + " same tree, mask " + mask);
            }
            Set<Integer> all = new HashSet<>();
            for (int h : s.handles) {
                all.add(h);
            }
            PairQueries.movedPairs(tree, -1L, pairs, stack);
            tally.check(selfReference(s, -1L, all), pairs, "variant " + variant + " moved pairs");
            assertEquals(n * (n - 1) / 2 - 0, pairs.size() + countApart(s), "variant " + variant);
        }
    }

    private static int countApart(Snap s) {
        int apart = 0;
        double[] b = widen(s.boxes);
        for (int i = 0; i < s.handles.length; i++) {
            for (int j = i + 1; j < s.handles.length; j++) {
                if (!overlap(s.boxes, i, b, j)) {
                    apart++;
                }
            }
        }
        return apart;
    }

    /**
     * Trees of more than {@link TraversalStack#SMALL_TREE_NODES} nodes, whose walks take the windowed (breadth-first,
     * then depth-first) order, with clusters of duplicates; against a small tree (no window) and a large one.
     */
    @Test
    void largeTreesTakeTheWindowedOrderAndStayExact() {
        int n = Integer.getInteger("boxwood.pairsExact.large", 2500);
        for (int variant = 0; variant < 3; variant++) {
            SplittableRandom r = new SplittableRandom(77 + variant);
            Place place = variant == 0 ? Place.NEAR_ZERO : variant == 1 ? Place.MILLION : Place.FAR_1E9;
            double[] oa = origin(r, place, 2);
            double[] ob = origin(r, place, 3);
            boolean deferred = variant == 2;
            Live a = new Live(new DynamicAabbTree(config(r, oa, deferred)), place, 60);
            for (int i = 0; i < n; i++) {
                a.add(r);
            }
            double[] boxes = new double[6 * n];
            for (int i = 0; i < n; i++) {
                System.arraycopy(a.box(r), 0, boxes, 6 * i, 6);
            }
            DynamicAabbTree big = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(ob[0], ob[1], ob[2]), boxes,
                    null, null);
            Live small = new Live(new DynamicAabbTree(config(r, ob, false)), place, 60);
            for (int i = 0; i < 40; i++) {
                small.add(r);
            }
            assertTrue(a.tree.nodeHighWater >= TraversalStack.SMALL_TREE_NODES || deferred,
                    "nodes " + a.tree.nodeHighWater);
            for (int round = 0; round < 3; round++) {
                String where = "large variant " + variant + " round " + round;
                long mask = round == 0 ? -1L : mask(r);
                Snap sa = new Snap(a.tree);
                assertEquals(a.moved.size(), PairQueries.movedCount(a.tree), where);
                List<long[]> movedExpected = selfReference(sa, mask, markedInMask(a, mask));
                PairQueries.movedPairs(a.tree, mask, pairs, stack);
                tally.check(movedExpected, pairs, where + ": movedPairs");
                a.moved.clear();
                PairQueries.selfPairs(a.tree, mask, pairs, stack);
                tally.check(selfReference(sa, mask, null), pairs, where + ": selfPairs");
                Snap sBig = new Snap(big);
                Snap sSmall = new Snap(small.tree);
                PairQueries.treePairs(a.tree, mask, big, -1L, pairs, stack);
                tally.check(treeReference(sa, mask, sBig, -1L), pairs, where + ": treePairs(a, big)");
                PairQueries.treePairs(small.tree, -1L, a.tree, mask, pairs, stack);
                tally.check(treeReference(sSmall, -1L, sa, mask), pairs, where + ": treePairs(small, a)");
                PairQueries.treePairs(a.tree, mask, small.tree, -1L, pairs, stack);
                tally.check(treeReference(sa, mask, sSmall, -1L), pairs, where + ": treePairs(a, small)");
                for (int k = 0; k < n / 5; k++) {
                    a.mutate(r);
                }
            }
            a.tree.validate();
        }
    }

    /** Boxes touching exactly in world coordinates on a 1/1024 grid near 1e6..1e9, across trees of other origins. */
    @Test
    void touchingAcrossFarOriginsOnAnExactGrid() {
        double[] bases = {1e6, 3.75e8, -1e9, 1e9 + 512};
        for (double base : bases) {
            DynamicAabbTree a = new DynamicAabbTree(TreeConfig.defaults().withOrigin(base, base + 1024, base - 4096));
            DynamicAabbTree b = new DynamicAabbTree(TreeConfig.defaults().withOrigin(base + 2048, base, base + 8));
            SplittableRandom r = new SplittableRandom((long) base);
            for (int i = 0; i < 200; i++) {
                double x = base + r.nextInt(64) / 1024.0 * 64;
                double y = base + r.nextInt(64) / 1024.0 * 64;
                double z = base + r.nextInt(64) / 1024.0 * 64;
                double e = 4 / 1024.0 * (1 + r.nextInt(8));
                a.add(x, y, z, x + e, y + e, z + e, 0, -1L);
                b.add(x + e, y, z, x + 2 * e, y + e, z + e, 0, -1L); // touches a's +x face
                b.add(x + e + 1 / 1024.0, y, z, x + 3 * e, y + e, z + e, 0, -1L); // a gap of 1/1024
            }
            Snap sa = new Snap(a);
            Snap sb = new Snap(b);
            PairQueries.treePairs(a, -1L, b, -1L, pairs, stack);
            tally.check(treeReference(sa, -1L, sb, -1L), pairs, "base " + base + " a, b");
            PairQueries.treePairs(b, -1L, a, -1L, pairs, stack);
            tally.check(treeReference(sb, -1L, sa, -1L), pairs, "base " + base + " b, a");
        }
    }
}
