package dev.boxwood.index;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Extreme but valid inputs: mixed scales (1e-6 .. 1e6 in one world), zero-extent and identical boxes, exactly
 * touching boxes, origins far from zero, worlds near the storage limit, and queries on face planes, with the
 * tree checked against the brute-force reference for every query kind.
 */
@Tag("long")
class ExtremeFuzzTest {

    /** Counters of what was compared, printed at the end of each world. */
    static final class Stats {
        long box, sphere, qbox, obb, convex, ray, sweepBox, sweepSphere, nearest, pairs, mutations, nonEmpty;

        @Override
        public String toString() {
            return "aabb " + box + ", sphere " + sphere + ", queryBox " + qbox + ", obb " + obb + ", convex "
                    + convex + ", ray " + ray + ", sweepBox " + sweepBox + ", sweepSphere " + sweepSphere
                    + ", nearest " + nearest + ", pairs " + pairs + ", mutations " + mutations + ", non-empty answers "
                    + nonEmpty;
        }
    }

    /** One world kind: how boxes are placed. */
    record Kind(String name, double originX, double originY, double originZ, double spread, double baseOffset,
                double minSize, double maxSize, boolean grid, TreeConfig config) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Kind> kinds() {
        List<Kind> list = new ArrayList<>();
        double[] origins = {0, 1e6, 1e9, 1e12, -3.5e12};
        for (double o : origins) {
            TreeConfig c = TreeConfig.defaults().withOrigin(o, -o, o * 0.5);
            list.add(new Kind("mixed scales, origin " + o, o, -o, o * 0.5, 1e3, 0, 1e-6, 1e6, false, c));
            list.add(new Kind("grid touching, origin " + o, o, -o, o * 0.5, 20, 0, 0, 0, true,
                    c.withMargin(0, 0)));
        }
        // origin 0 stated: the kinds name their origin, and a build would otherwise take the boxes' centre
        TreeConfig base = TreeConfig.defaults().withOrigin(0, 0, 0);
        list.add(new Kind("mixed, offset 1e9 from origin 0", 0, 0, 0, 1e3, 1e9, 1e-6, 1e6, false, base));
        list.add(new Kind("near storage limit 9e17", 0, 0, 0, 1e12, 9e17, 1e-6, 1e6, false, base));
        list.add(new Kind("near storage limit, wide 1e17", 1e15, 1e15, 1e15, 9e17, 0, 1e-6, 1e12, false,
                base.withOrigin(1e15, 1e15, 1e15)));
        list.add(new Kind("origin 1e300, small world", 1e300, -1e300, 1e299, 1e3, 0, 1e-6, 1e6, false,
                base.withOrigin(1e300, -1e300, 1e299)));
        list.add(new Kind("tiny world 1e-30", 0, 0, 0, 1e-30, 0, 1e-40, 1e-30, false, base));
        list.add(new Kind("mixed, no margin, no rotations", 1e6, 1e6, 1e6, 1e3, 0, 1e-6, 1e6, false,
                base.withOrigin(1e6, 1e6, 1e6).withMargin(0, 0).withRotations(false)));
        list.add(new Kind("mixed, huge margin + prediction", 0, 0, 0, 1e3, 0, 1e-6, 1e6, false,
                base.withMargin(1e30, 1e6).withPrediction(1e10)));
        list.add(new Kind("mixed, deferred adds", 1e9, 1e9, 1e9, 1e3, 0, 1e-6, 1e6, false,
                base.withOrigin(1e9, 1e9, 1e9).withDeferredAdds(true)));
        list.add(new Kind("big mixed, origin 1e9", 1e9, 1e9, 1e9, 1e3, 0, 1e-6, 1e6, false,
                base.withOrigin(1e9, 1e9, 1e9)));
        list.add(new Kind("big grid, deferred, origin 1e6", 1e6, 1e6, 1e6, 40, 0, 0, 0, true,
                base.withOrigin(1e6, 1e6, 1e6).withDeferredAdds(true).withMargin(0, 0)));
        list.add(new Kind("grid, deferred adds, origin 1e12", 1e12, 1e12, 1e12, 20, 0, 0, 0, true,
                base.withOrigin(1e12, 1e12, 1e12).withDeferredAdds(true).withMargin(0, 0)));
        return list.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void treeAnswersLikeBruteForceOnExtremeWorlds(Kind kind) {
        long seed = Long.getLong("fuzz.seed", 12345L) + kind.name().hashCode();
        int rounds = Integer.getInteger("fuzz.rounds", 60);
        Fuzz f = new Fuzz(kind, seed);
        int target = kind.name().startsWith("big") ? 3000 : 250;
        for (int round = 0; round < rounds; round++) {
            int mutations = 1 + f.random.nextInt(40);
            if (target > 250 && round < 10) {
                mutations = 400;
            }
            for (int m = 0; m < mutations; m++) {
                f.mutate(target);
            }
            if (kind.config().deferredAdds() && f.random.nextInt(4) == 0) {
                // a burst of adds between two queries: pending objects are taken in as a batch or by a rebuild
                int burst = 64 + f.random.nextInt(200);
                for (int m = 0; m < burst; m++) {
                    f.addOne();
                }
                assertTrue(f.tree.pendingAdds() > 0 || burst == 0);
            }
            for (int q = 0; q < 6; q++) {
                f.queries();
            }
            if (round % 10 == 0) {
                f.pairs();
                f.queries();
                f.queries();
            }
        }
        System.out.println(kind + ": " + f.stats);
    }

    // =============================================================================================================

    static final class Fuzz {
        final Kind kind;
        final SplittableRandom random;
        DynamicAabbTree tree;
        BruteForceIndex brute;
        final java.util.Set<Integer> moved = new java.util.HashSet<>();
        long ops;
        final TraversalStack stack = new TraversalStack(2);
        final Stats stats = new Stats();
        final List<Integer> live = new ArrayList<>();
        final AllOverlaps a1 = new AllOverlaps();
        final AllOverlaps a2 = new AllOverlaps();
        final ClosestHit c1 = new ClosestHit();
        final ClosestHit c2 = new ClosestHit();
        final AnyHit y1 = new AnyHit();
        final AnyHit y2 = new AnyHit();
        final AllHits h1 = new AllHits();
        final AllHits h2 = new AllHits();
        final NearestNeighbours nn = new NearestNeighbours();
        final StringBuilder log = new StringBuilder();

        Fuzz(Kind kind, long seed) {
            this.kind = kind;
            this.random = new SplittableRandom(seed);
            this.tree = new DynamicAabbTree(kind.config());
            this.brute = new BruteForceIndex(kind.originX(), kind.originY(), kind.originZ());
        }

        double logUniform(double lo, double hi) {
            if (lo <= 0) {
                lo = hi * 1e-12;
            }
            return Math.exp(Math.log(lo) + random.nextDouble() * (Math.log(hi) - Math.log(lo)));
        }

        double[] origin() {
            return new double[] {kind.originX(), kind.originY(), kind.originZ()};
        }

        /** A random box (world coordinates). */
        double[] randomBox() {
            double[] o = origin();
            double[] b = new double[6];
            int pick = random.nextInt(10);
            if (!live.isEmpty() && pick < 3) {
                // derived from an existing stored box: identical, touching on a face / edge / corner, or nested
                double[] s = tight(live.get(random.nextInt(live.size())));
                if (pick == 0) {
                    return s;
                }
                System.arraycopy(s, 0, b, 0, 6);
                for (int a = 0; a < 3; a++) {
                    int side = random.nextInt(3);
                    double ext = kind.grid() ? 1 + random.nextInt(3) : logUniform(Math.max(kind.minSize(), 1e-40),
                            Math.max(kind.maxSize(), 1e-30));
                    if (random.nextInt(4) == 0) {
                        ext = 0;
                    }
                    if (side == 0) {          // beyond max, touching
                        b[a] = s[a + 3];
                        b[a + 3] = s[a + 3] + ext;
                    } else if (side == 1) {   // below min, touching
                        b[a] = s[a] - ext;
                        b[a + 3] = s[a];
                    }
                }
                fix(b);
                return b;
            }
            for (int a = 0; a < 3; a++) {
                double c;
                double e;
                if (kind.grid()) {
                    c = o[a] + kind.baseOffset() + random.nextInt((int) kind.spread()) - kind.spread() / 2;
                    int ek = random.nextInt(4);
                    e = ek == 0 ? 0 : ek;
                    b[a] = c;
                    b[a + 3] = c + e;
                    continue;
                }
                double pos = (random.nextDouble() * 2 - 1) * kind.spread();
                if (random.nextInt(3) == 0) {
                    pos = Math.copySign(logUniform(1e-6, kind.spread()), pos);
                }
                c = o[a] + kind.baseOffset() + pos;
                int ek = random.nextInt(8);
                e = ek == 0 ? 0 : logUniform(kind.minSize(), kind.maxSize());
                b[a] = c - e / 2;
                b[a + 3] = c + e / 2;
            }
            fix(b);
            return b;
        }

        void fix(double[] b) {
            for (int a = 0; a < 3; a++) {
                if (b[a] > b[a + 3]) {
                    double t = b[a];
                    b[a] = b[a + 3];
                    b[a + 3] = t;
                }
            }
        }

        double[] tight(int handle) {
            double[] t = new double[6];
            tree.getTightBox(handle, t);
            return t;
        }

        long randomCategory() {
            int k = random.nextInt(4);
            return k == 0 ? -1L : k == 1 ? random.nextLong() : 1L << random.nextInt(64);
        }

        long randomMask() {
            int k = random.nextInt(4);
            return k < 2 ? -1L : k == 2 ? random.nextLong() : 1L << random.nextInt(64);
        }

        void mutate(int target) {
            stats.mutations++;
            ops++;
            view = null;
            if (random.nextInt(25) == 0) {
                special(target);
                tree.validate();
                assertEquals(brute.size(), tree.size());
                return;
            }
            int op = random.nextInt(10);
            if (live.isEmpty() || live.size() < target && op < 5) {
                if (!addOne()) {
                    tree.validate();
                    return;
                }
            } else if (op < 8) {
                int handle = live.get(random.nextInt(live.size()));
                double[] b;
                if (random.nextBoolean()) {
                    b = tight(handle);
                    double d = kind.grid() ? random.nextInt(3) - 1 : (random.nextDouble() - 0.5)
                            * logUniform(1e-9, kind.spread() * 2 + 1e-30);
                    int axis = random.nextInt(3);
                    b[axis] += d;
                    b[axis + 3] += d;
                } else {
                    b = randomBox();
                }
                double[] disp = new double[3];
                int dk = random.nextInt(4);
                for (int a = 0; a < 3; a++) {
                    disp[a] = dk == 0 ? 0 : dk == 1 ? (random.nextDouble() - 0.5) * kind.spread()
                            : dk == 2 ? (random.nextDouble() - 0.5) * 1e30 : random.nextGaussian() * 1e-300;
                }
                double[] before = tight(handle);
                try {
                    tree.move(handle, b[0], b[1], b[2], b[3], b[4], b[5], disp[0], disp[1], disp[2]);
                } catch (IllegalArgumentException e) {
                    final double[] bb = b;
                    assertThrows(IllegalArgumentException.class, () -> brute.move(handle, bb[0], bb[1], bb[2], bb[3],
                            bb[4], bb[5], disp[0], disp[1], disp[2]));
                    tree.validate();
                    assertEquals(Arrays.toString(before), Arrays.toString(tight(handle)), "refused move changed");
                    return;
                }
                brute.move(handle, b[0], b[1], b[2], b[3], b[4], b[5], disp[0], disp[1], disp[2]);
                moved.add(handle);
                log.append("move ").append(handle).append(' ').append(Arrays.toString(b)).append(" d ")
                        .append(Arrays.toString(disp)).append('\n');
            } else {
                int k = random.nextInt(live.size());
                int handle = live.get(k);
                tree.remove(handle);
                brute.remove(handle);
                categories.remove(handle);
                live.set(k, live.get(live.size() - 1));
                live.remove(live.size() - 1);
                moved.remove(handle);
                log.append("remove ").append(handle).append('\n');
            }
            tree.validate();
            assertEquals(brute.size(), tree.size());
        }

        /**
         * One add of a random box to both indexes (no validation: pending objects stay pending). A box the tree
         * refuses must be refused by the brute force too, with the tree's size unchanged.
         *
         * @return whether the box was added
         */
        boolean addOne() {
            double[] b = randomBox();
            long cat = randomCategory();
            long user = random.nextLong();
            int h1;
            try {
                h1 = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], user, cat);
            } catch (IllegalArgumentException e) {
                int size = tree.size();
                assertThrows(IllegalArgumentException.class, () -> brute.add(b[0], b[1], b[2], b[3], b[4], b[5],
                        user, -1L));
                assertEquals(size, tree.size());
                return false;
            }
            int h2 = brute.add(b[0], b[1], b[2], b[3], b[4], b[5], user, -1L);
            log.append("add ").append(Arrays.toString(b)).append(" cat ").append(cat).append('\n');
            assertEquals(h2, h1, "handles");
            categories.put(h2, cat);
            live.add(h1);
            moved.add(h1);
            view = null;
            return true;
        }

        /** The rarer mutations: categories, rebuilds, optimisation, batches, a static build. */
        void special(int target) {
            int k = random.nextInt(10);
            log.append("special ").append(k).append('\n');
            if (k == 0 && !live.isEmpty()) {
                for (int i = 0; i < 1 + random.nextInt(10); i++) {
                    int h = live.get(random.nextInt(live.size()));
                    long c = random.nextInt(5) == 0 ? 0L : randomCategory();
                    tree.setCategoryBits(h, c);
                    categories.put(h, c);
                }
            } else if (k == 1) {
                tree.rebuild(random.nextBoolean());
            } else if (k == 2) {
                tree.optimize(1 + random.nextInt(50));
            } else if (k == 3) {
                tree.compact();
            } else if (k == 4 && live.size() < target) {
                int n = 1 + random.nextInt(100);
                double[] boxes = new double[6 * n];
                long[] users = new long[n];
                long[] cats = new long[n];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(randomBox(), 0, boxes, 6 * i, 6);
                    users[i] = random.nextLong();
                    cats[i] = randomCategory();
                }
                int[] hs;
                try {
                    hs = tree.addAll(boxes, users, cats);
                } catch (IllegalArgumentException e) {
                    int size = live.size();
                    tree.validate();
                    assertEquals(size, tree.size(), "refused addAll changed the tree");
                    return;
                }
                for (int i = 0; i < n; i++) {
                    int h = brute.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                            boxes[6 * i + 4], boxes[6 * i + 5], users[i], -1L);
                    assertEquals(h, hs[i], "addAll handles");
                    categories.put(h, cats[i]);
                    live.add(h);
                    moved.add(h);
                }
            } else if (k == 5 && live.size() > 4) {
                int n = 1 + random.nextInt(live.size() / 2);
                java.util.Collections.shuffle(live, new java.util.Random(random.nextLong()));
                int[] hs = new int[n];
                for (int i = 0; i < n; i++) {
                    hs[i] = live.get(live.size() - 1);
                    live.remove(live.size() - 1);
                    brute.remove(hs[i]);
                    moved.remove(hs[i]);
                    categories.remove(hs[i]);
                }
                tree.removeAll(hs);
            } else if (k == 6) {
                // a static build of the live objects (handles 0 .. n-1), and the brute force rebuilt to match
                int n = live.size();
                double[] boxes = new double[6 * n];
                long[] users = new long[n];
                long[] cats = new long[n];
                for (int i = 0; i < n; i++) {
                    int h = live.get(i);
                    double[] t = tight(h);
                    System.arraycopy(t, 0, boxes, 6 * i, 6);
                    users[i] = brute.userValue(h);
                    cats[i] = categoryOf(h);
                }
                tree = DynamicAabbTree.build(kind.config(), boxes, users, cats);
                resetBrute(boxes, users, cats, false);
            } else if (k == 7) {
                tree.flushAdds();
            } else if (k == 8) {
                movedPairs();
            } else if (k == 9 && random.nextInt(4) == 0) {
                // clear: the brute force frees the same slots in the same (slot) order
                tree.clear();
                List<Integer> sorted = new ArrayList<>(live);
                sorted.sort(java.util.Comparator.comparingInt(h -> h & dev.boxwood.query.Handles.SLOT_MASK));
                for (int h : sorted) {
                    brute.remove(h);
                }
                live.clear();
                moved.clear();
                categories.clear();
            }
        }

        /** Replaces both indexes by ones holding {@code boxes}: 0 static build, 1 addAll, 2 one add each. */
        void load(double[] boxes, int how) {
            int n = boxes.length / 6;
            long[] users = new long[n];
            long[] cats = new long[n];
            for (int i = 0; i < n; i++) {
                users[i] = random.nextLong();
                cats[i] = randomCategory();
            }
            if (how == 0) {
                tree = DynamicAabbTree.build(kind.config(), boxes, users, cats);
            } else {
                tree = new DynamicAabbTree(kind.config());
                if (how == 1) {
                    tree.addAll(boxes, users, cats);
                } else {
                    for (int i = 0; i < n; i++) {
                        tree.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                                boxes[6 * i + 4], boxes[6 * i + 5], users[i], cats[i]);
                    }
                }
            }
            resetBrute(boxes, users, cats, how != 0);
            tree.validate();
            assertEquals(n, tree.size());
        }

        /**
         * The brute force rebuilt to hold the objects a new tree holds (handles 0 .. n-1, every object with
         * {@code -1L}: the categories are kept aside), {@code markMoved} when the tree marks them moved.
         */
        void resetBrute(double[] boxes, long[] users, long[] cats, boolean markMoved) {
            view = null;
            brute = new BruteForceIndex(kind.originX(), kind.originY(), kind.originZ());
            categories.clear();
            live.clear();
            moved.clear();
            for (int i = 0; i < users.length; i++) {
                int h = brute.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                        boxes[6 * i + 4], boxes[6 * i + 5], users[i], -1L);
                assertEquals(i, h);
                live.add(h);
                categories.put(h, cats[i]);
                if (markMoved) {
                    moved.add(h);
                }
            }
        }

        /** The categories of the tree's objects (the brute force holds every object with -1L). */
        final java.util.Map<Integer, Long> categories = new java.util.HashMap<>();

        long categoryOf(int h) {
            return categories.get(h);
        }

        boolean takes(int h, long mask) {
            return (categoryOf(h) & mask) != 0;
        }

        QueryFilter bruteFilter(long mask, QueryFilter filter) {
            return (h, u) -> takes(h, mask) && (filter == null || filter.accept(h, u));
        }

        /** A point of interest: a corner, face point or inside point of a stored box, or anywhere. */
        double[] point() {
            double[] p = new double[3];
            if (!live.isEmpty() && random.nextInt(5) != 0) {
                double[] t = tight(live.get(random.nextInt(live.size())));
                for (int a = 0; a < 3; a++) {
                    int k = random.nextInt(4);
                    p[a] = k == 0 ? t[a] : k == 1 ? t[a + 3] : t[a] + (t[a + 3] - t[a]) * random.nextDouble();
                }
                if (random.nextInt(4) == 0) {
                    int a = random.nextInt(3);
                    p[a] += (random.nextDouble() - 0.5) * reach();
                }
                return p;
            }
            double[] o = origin();
            for (int a = 0; a < 3; a++) {
                p[a] = o[a] + kind.baseOffset() + (random.nextDouble() * 2 - 1) * kind.spread() * 1.2;
            }
            return p;
        }

        double reach() {
            int k = random.nextInt(6);
            if (k == 0) {
                return 0;
            }
            double hi = Math.max(kind.spread(), kind.maxSize()) * 2;
            return logUniform(Math.max(hi * 1e-15, 1e-300), hi);
        }

        String where(String what) {
            return kind + " " + what;
        }

        void sameOverlaps(String where) {
            a1.sort();
            a2.sort();
            int[] t = new int[a1.count()];
            int[] b = new int[a2.count()];
            for (int i = 0; i < t.length; i++) {
                t[i] = a1.handle(i);
            }
            for (int i = 0; i < b.length; i++) {
                b[i] = a2.handle(i);
            }
            if (!Arrays.equals(t, b)) {
                fail(where + "\n tree  " + Arrays.toString(t) + "\n brute " + Arrays.toString(b) + "\n"
                        + describe(t, b));
            }
            if (b.length > 0) {
                stats.nonEmpty++;
            }
        }

        String describe(int[] t, int[] b) {
            StringBuilder s = new StringBuilder();
            java.util.Set<Integer> all = new java.util.TreeSet<>();
            for (int x : t) {
                all.add(x);
            }
            for (int x : b) {
                all.add(x);
            }
            for (int x : b) {
                all.remove(x);
            }
            for (int x : t) {
                if (Arrays.stream(b).noneMatch(y -> y == x)) {
                    s.append(" only tree: ").append(x).append(' ').append(stored(x)).append('\n');
                }
            }
            for (int x : b) {
                if (Arrays.stream(t).noneMatch(y -> y == x)) {
                    s.append(" only brute: ").append(x).append(' ').append(stored(x)).append('\n');
                }
            }
            return s.toString();
        }

        String stored(int handle) {
            float[] f = new float[6];
            brute.getStoredTightBox(handle, f);
            return Arrays.toString(f) + " cat " + categoryOf(handle);
        }

        void queries() {
            long mask = randomMask();
            QueryFilter filter = random.nextInt(4) == 0 ? (h, u) -> (u & 3) != 0 : null;
            double[] p = point();
            double[] q = point();
            // --- AABB from two points of interest (possibly a flat or point box)
            double[] box = {Math.min(p[0], q[0]), Math.min(p[1], q[1]), Math.min(p[2], q[2]),
                Math.max(p[0], q[0]), Math.max(p[1], q[1]), Math.max(p[2], q[2])};
            if (random.nextInt(3) == 0) {
                int a = random.nextInt(3);
                box[a + 3] = box[a];   // flat
            }
            a1.reset();
            a2.reset();
            tree.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], mask, a1, stack);
            brute.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, (h, u) -> !takes(h, mask) || a2.visit(h, u),
                    stack);
            sameOverlaps(where("queryAabb " + Arrays.toString(box) + " mask " + mask));
            if (view != null) {
                a1.reset();
                view.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], mask, a1, stack);
                sameOverlaps(where("read view queryAabb " + Arrays.toString(box) + " mask " + mask));
            }
            stats.box++;
            for (RegionMode mode : RegionMode.values()) {
                a1.reset();
                a2.reset();
                RegionQueries.queryBox(tree, box[0], box[1], box[2], box[3], box[4], box[5], mode, mask, filter, a1,
                        stack);
                brute.queryBox(box[0], box[1], box[2], box[3], box[4], box[5], mode, -1L, bruteFilter(mask, filter), a2);
                sameOverlaps(where("queryBox " + Arrays.toString(box) + " " + mode + " mask " + mask));
                stats.qbox++;

                double r = random.nextInt(5) == 0 ? distanceTo(p, random.nextInt(Math.max(1, live.size())))
                        : reach();
                r = Math.min(r, 1e150);
                a1.reset();
                a2.reset();
                RegionQueries.querySphere(tree, p[0], p[1], p[2], r, mode, mask, filter, a1, stack);
                brute.querySphere(p[0], p[1], p[2], r, mode, -1L, bruteFilter(mask, filter), a2);
                sameOverlaps(where("querySphere " + Arrays.toString(p) + " r " + r + " " + mode + " mask " + mask));
                if (view != null) {
                    a1.reset();
                    RegionQueries.querySphere(view, p[0], p[1], p[2], r, mode, mask, filter, a1, stack);
                    sameOverlaps(where("view querySphere"));
                }
                stats.sphere++;

                double[] obb = randomObb(p);
                a1.reset();
                a2.reset();
                RegionQueries.queryObb(tree, obb, 0, mode, mask, filter, a1, stack);
                brute.queryObb(obb, 0, mode, -1L, bruteFilter(mask, filter), a2);
                sameOverlaps(where("queryObb " + Arrays.toString(obb) + " " + mode + " mask " + mask));
                if (view != null) {
                    a1.reset();
                    RegionQueries.queryObb(view, obb, 0, mode, mask, filter, a1, stack);
                    sameOverlaps(where("view queryObb"));
                }
                stats.obb++;

                ConvexRegion region = randomRegion(p);
                if (region != null && !(mode == RegionMode.CROSSING && !region.isBounded())) {
                    a1.reset();
                    a2.reset();
                    RegionQueries.queryConvex(tree, region, mode, mask, filter, a1, stack);
                    brute.queryConvex(region, mode, -1L, bruteFilter(mask, filter), a2);
                    sameOverlaps(where("queryConvex " + Arrays.toString(region.planes()) + " " + mode + " mask "
                            + mask));
                    if (view != null) {
                        a1.reset();
                        RegionQueries.queryConvex(view, region, mode, mask, filter, a1, stack);
                        sameOverlaps(where("view queryConvex"));
                    }
                    stats.convex++;
                }
            }
            // --- rays
            for (int i = 0; i < 4; i++) {
                double[] o = point();
                double[] e = point();
                double[] t = {e[0] - o[0], e[1] - o[1], e[2] - o[2]};
                int k = random.nextInt(8);
                if (k == 0) {                 // axis parallel, on the start's planes
                    int a = random.nextInt(3);
                    for (int b = 0; b < 3; b++) {
                        if (b != a) {
                            t[b] = 0;
                        }
                    }
                } else if (k == 1) {
                    t[random.nextInt(3)] = 0;
                } else if (k == 2) {
                    t = new double[3];
                } else if (k == 3) {
                    double s = Math.pow(10, random.nextInt(40) - 20);
                    t = new double[] {t[0] * s, t[1] * s, t[2] * s};
                } else if (k == 4) {
                    t[random.nextInt(3)] = -0.0;
                }
                int mk = random.nextInt(6);
                double maxFraction = mk == 0 ? 0 : mk == 1 ? 1e300 : mk == 2 ? random.nextDouble() * 3
                        : mk == 3 ? Double.MAX_VALUE : 1.0;
                compareRay(o, t, maxFraction, randomMask());
            }
            // --- sweeps
            for (int i = 0; i < 2; i++) {
                double[] o = point();
                double[] e = point();
                double[] d = {e[0] - o[0], e[1] - o[1], e[2] - o[2]};
                int k = random.nextInt(5);
                if (k == 0) {
                    d = new double[3];
                } else if (k == 1) {
                    int a = random.nextInt(3);
                    for (int b = 0; b < 3; b++) {
                        if (b != a) {
                            d[b] = 0;
                        }
                    }
                }
                double hx = random.nextInt(3) == 0 ? 0 : reach();
                double hy = random.nextInt(3) == 0 ? 0 : reach();
                double hz = random.nextInt(3) == 0 ? 0 : reach();
                double[] mb = {o[0] - hx, o[1] - hy, o[2] - hz, o[0] + hx, o[1] + hy, o[2] + hz};
                if (random.nextInt(3) == 0 && !live.isEmpty()) {
                    mb = tight(live.get(random.nextInt(live.size())));
                }
                compareSweepBox(mb, d, randomMask());
                double r = Math.min(reach(), 1e150);
                compareSweepSphere(o, r, d, randomMask());
            }
            // --- nearest
            double[] np = point();
            int kk = random.nextInt(4) == 0 ? 1 : random.nextInt(20);
            double maxD = random.nextInt(3) == 0 ? Double.POSITIVE_INFINITY
                    : random.nextInt(2) == 0 ? distanceTo(np, random.nextInt(Math.max(1, live.size()))) : reach();
            compareNearest(np, kk, maxD, randomMask(), filter);
        }

        double distanceTo(double[] p, int i) {
            if (live.isEmpty()) {
                return 0;
            }
            int handle = live.get(i % live.size());
            double[] o = origin();
            float[] f = new float[6];
            brute.getStoredTightBox(handle, f);
            double x = p[0] - o[0];
            double y = p[1] - o[1];
            double z = p[2] - o[2];
            double ex = Math.max(f[0] - x, 0.0) + Math.max(x - f[3], 0.0);
            double ey = Math.max(f[1] - y, 0.0) + Math.max(y - f[4], 0.0);
            double ez = Math.max(f[2] - z, 0.0) + Math.max(z - f[5], 0.0);
            return Math.sqrt(ex * ex + ey * ey + ez * ez);
        }

        double[] randomObb(double[] p) {
            double[] out = new double[ObbLayout.STRIDE];
            double h0 = reach();
            double h1 = reach();
            double h2 = reach();
            if (random.nextInt(3) == 0) {
                // axis aligned
                Obb obb = new Obb(p[0], p[1], p[2], 1, 0, 0, 0, 1, 0, 0, 0, 1, h0, h1, h2);
                obb.writeTo(out, 0);
                return out;
            }
            // a random rotation, as RegionQueriesTest makes them (there at offset 3 of its array)
            return Arrays.copyOfRange(RegionQueriesTest.randomObb(random, p, h0, h1, h2), 3, 3 + ObbLayout.STRIDE);
        }

        ConvexRegion randomRegion(double[] p) {
            int k = random.nextInt(4);
            double rr = Math.max(reach(), 1e-300);
            if (k == 0) {
                // axis-aligned box as six planes through stored faces (p's coordinates)
                double[] q = point();
                double[] planes = {1, 0, 0, Math.max(p[0], q[0]), -1, 0, 0, -Math.min(p[0], q[0]),
                    0, 1, 0, Math.max(p[1], q[1]), 0, -1, 0, -Math.min(p[1], q[1]),
                    0, 0, 1, Math.max(p[2], q[2]), 0, 0, -1, -Math.min(p[2], q[2])};
                return new ConvexRegion(planes, 6);
            }
            if (k == 1) {
                // a single half-space through p (unbounded)
                double nx = random.nextGaussian();
                double ny = random.nextGaussian();
                double nz = random.nextGaussian();
                if (random.nextBoolean()) {
                    nx = 0;
                    ny = 0;
                    nz = random.nextBoolean() ? 1 : -1;
                }
                double d = nx * p[0] + ny * p[1] + nz * p[2];
                return new ConvexRegion(new double[] {nx, ny, nz, d}, 1);
            }
            if (k == 2) {
                double distance = rr * 3 + 1e-6;
                try {
                    PerspectiveCamera camera = PerspectiveCamera.lookAt(p[0] + random.nextGaussian() * distance,
                            p[1] + random.nextGaussian() * distance, p[2] + random.nextGaussian() * distance,
                            p[0], p[1], p[2], 0, 0, 1, 0.3 + random.nextDouble() * 1.5,
                            0.5 + random.nextDouble() * 2, distance * 0.05, distance * 3);
                    double u0 = random.nextDouble();
                    double v0 = random.nextDouble();
                    return camera.frustum(u0, v0, u0 + random.nextDouble() * 0.5, v0 + random.nextDouble() * 0.5);
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
            return RegionQueriesTest.randomPolyhedron(random, p, rr);
        }

        /** The brute force's hits (every object, all categories) filtered by the tree's categories, sorted. */
        List<double[]> expectedHits(long mask) {
            h2.sort();
            List<double[]> out = new ArrayList<>();
            for (int i = 0; i < h2.count(); i++) {
                if (takes(h2.handle(i), mask)) {
                    out.add(new double[] {h2.handle(i), h2.fraction(i)});
                }
            }
            return out;
        }

        void compareCast(String w, List<double[]> expected) {
            assertEquals(!expected.isEmpty(), c1.hasHit(), w + " closest hasHit");
            if (!expected.isEmpty()) {
                assertEquals((int) expected.get(0)[0], c1.handle(), w + " closest handle");
                assertEquals(expected.get(0)[1], c1.fraction(), w + " closest fraction");
                stats.nonEmpty++;
            }
            assertEquals(!expected.isEmpty(), y1.hasHit(), w + " any hasHit");
            if (y1.hasHit()) {
                boolean listed = false;
                for (double[] e : expected) {
                    listed |= (int) e[0] == y1.handle() && e[1] == y1.fraction();
                }
                assertTrue(listed, w + " any hit is one of the hits: " + y1.handle() + "@" + y1.fraction());
            }
            h1.sort();
            StringBuilder a = new StringBuilder();
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < h1.count(); i++) {
                a.append(h1.handle(i)).append('@').append(h1.fraction(i)).append(' ');
            }
            for (double[] e : expected) {
                b.append((int) e[0]).append('@').append(e[1]).append(' ');
            }
            if (!b.toString().equals(a.toString())) {
                fail(w + " all hits\n tree  " + a + "\n brute " + b + "\n" + hitDiff(a.toString(), b.toString()));
            }
        }

        String hitDiff(String a, String b) {
            java.util.Set<String> sa = new java.util.TreeSet<>(Arrays.asList(a.trim().split(" ")));
            java.util.Set<String> sb = new java.util.TreeSet<>(Arrays.asList(b.trim().split(" ")));
            StringBuilder s = new StringBuilder();
            for (String x : sa) {
                if (!x.isEmpty() && !sb.contains(x)) {
                    s.append(" only tree ").append(x).append(' ').append(stored(Integer.parseInt(x.split("@")[0])))
                            .append('\n');
                }
            }
            for (String x : sb) {
                if (!x.isEmpty() && !sa.contains(x)) {
                    s.append(" only brute ").append(x).append(' ').append(stored(Integer.parseInt(x.split("@")[0])))
                            .append('\n');
                }
            }
            return s.toString();
        }

        void compareRay(double[] o, double[] t, double maxFraction, long mask) {
            stats.ray++;
            String w = where("ray " + Arrays.toString(o) + " t " + Arrays.toString(t) + " max " + maxFraction
                    + " mask " + mask);
            tree.rayCast(o[0], o[1], o[2], t[0], t[1], t[2], maxFraction, mask, c1, stack);
            tree.rayCast(o[0], o[1], o[2], t[0], t[1], t[2], maxFraction, mask, y1, stack);
            tree.rayCast(o[0], o[1], o[2], t[0], t[1], t[2], maxFraction, mask, h1, stack);
            brute.rayCast(o[0], o[1], o[2], t[0], t[1], t[2], maxFraction, -1L, h2, stack);
            compareCast(w, expectedHits(mask));
            if (view != null) {
                view.rayCast(o[0], o[1], o[2], t[0], t[1], t[2], maxFraction, mask, c2, stack);
                assertEquals(c1.handle(), c2.handle(), w + " read view");
                assertEquals(c1.fraction(), c2.fraction(), w + " read view");
            }
        }

        void compareSweepBox(double[] mb, double[] d, long mask) {
            stats.sweepBox++;
            String w = where("sweepBox " + Arrays.toString(mb) + " d " + Arrays.toString(d) + " mask " + mask);
            SweepQueries.sweepBox(tree, mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], d[0], d[1], d[2], mask, c1, stack);
            SweepQueries.sweepBox(tree, mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], d[0], d[1], d[2], mask, y1, stack);
            SweepQueries.sweepBox(tree, mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], d[0], d[1], d[2], mask, h1, stack);
            brute.sweepBox(mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], d[0], d[1], d[2], -1L, h2);
            compareCast(w, expectedHits(mask));
            if (view != null) {
                SweepQueries.sweepBox(view, mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], d[0], d[1], d[2], mask, c1,
                        stack);
                SweepQueries.sweepBox(view, mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], d[0], d[1], d[2], mask, y1,
                        stack);
                SweepQueries.sweepBox(view, mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], d[0], d[1], d[2], mask, h1,
                        stack);
                compareCast(w + " view", expectedHits(mask));
            }
        }

        void compareSweepSphere(double[] c, double r, double[] d, long mask) {
            stats.sweepSphere++;
            String w = where("sweepSphere " + Arrays.toString(c) + " r " + r + " d " + Arrays.toString(d) + " mask "
                    + mask);
            SweepQueries.sweepSphere(tree, c[0], c[1], c[2], r, d[0], d[1], d[2], mask, c1, stack);
            SweepQueries.sweepSphere(tree, c[0], c[1], c[2], r, d[0], d[1], d[2], mask, y1, stack);
            SweepQueries.sweepSphere(tree, c[0], c[1], c[2], r, d[0], d[1], d[2], mask, h1, stack);
            brute.sweepSphere(c[0], c[1], c[2], r, d[0], d[1], d[2], -1L, h2);
            compareCast(w, expectedHits(mask));
        }

        void compareNearest(double[] p, int k, double maxD, long mask, QueryFilter filter) {
            stats.nearest++;
            double[] o = origin();
            if (Math.abs(p[0] - o[0]) > 1e150 || Math.abs(p[1] - o[1]) > 1e150 || Math.abs(p[2] - o[2]) > 1e150) {
                return;
            }
            boolean exactKind = random.nextInt(3) == 0;
            dev.boxwood.query.DistanceFunction exact = exactKind ? (h, u, x, y, z) -> {
                double d = Math.sqrt(boxSquaredDistance(h, x, y, z));
                int kindOf = (int) (u & 7);
                return kindOf == 0 ? d : kindOf == 1 ? d * 2 : kindOf == 2 ? -1 : kindOf == 3 ? Math.nextUp(d)
                        : d + 1e-3 * Math.abs(u % 1000);
            } : null;
            String w = where("kNearest " + Arrays.toString(p) + " k " + k + " max " + maxD + " mask " + mask
                    + " exact " + exactKind);
            NearestQueries.kNearest(tree, p[0], p[1], p[2], k, maxD, mask, filter, exact, nn);
            int all = Math.max(1, live.size());
            int[] hs = new int[all];
            double[] ds = new double[all];
            int n = brute.kNearest(p[0], p[1], p[2], k, maxD, -1L, bruteFilter(mask, filter), exact, hs, ds);
            StringBuilder a = new StringBuilder();
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < nn.count(); i++) {
                a.append(nn.handle(i)).append('@').append(nn.distance(i)).append(' ');
            }
            for (int i = 0; i < n; i++) {
                b.append(hs[i]).append('@').append(ds[i]).append(' ');
            }
            assertEquals(b.toString(), a.toString(), w);
            if (view != null) {
                NearestQueries.kNearest(view, p[0], p[1], p[2], k, maxD, mask, filter, exact, nn);
                StringBuilder v = new StringBuilder();
                for (int i = 0; i < nn.count(); i++) {
                    v.append(nn.handle(i)).append('@').append(nn.distance(i)).append(' ');
                }
                assertEquals(b.toString(), v.toString(), w + " view");
                PairBuffer fromView = new PairBuffer();
                PairBuffer fromTree = new PairBuffer();
                PairQueries.selfPairs(view, mask, fromView, stack);
                PairQueries.selfPairs(tree, mask, fromTree, stack);
                assertEquals(fromTree.size(), fromView.size(), w + " view pairs");
            }
            // browsing: the first m objects visited are kNearest's answer for k = m
            int m = 1 + random.nextInt(5);
            StringBuilder c = new StringBuilder();
            int[] seen = new int[1];
            NearestQueries.browseNearest(tree, p[0], p[1], p[2], maxD, mask, filter, exact, (h, u, d) -> {
                c.append(h).append('@').append(d).append(' ');
                return ++seen[0] < m;
            }, new NearestNeighbours());
            n = brute.kNearest(p[0], p[1], p[2], m, maxD, -1L, bruteFilter(mask, filter), exact, hs, ds);
            StringBuilder e = new StringBuilder();
            for (int i = 0; i < n; i++) {
                e.append(hs[i]).append('@').append(ds[i]).append(' ');
            }
            assertEquals(e.toString(), c.toString(), w + " browse " + m);
        }

        /** The squared distance from a world point to an object's stored box in the frame (as the indexes). */
        double boxSquaredDistance(int h, double x, double y, double z) {
            float[] f = new float[6];
            brute.getStoredTightBox(h, f);
            double[] o = origin();
            return dev.boxwood.query.RegionTests.squaredDistance(x - o[0], y - o[1], z - o[2], f[0], f[1], f[2], f[3],
                    f[4], f[5]);
        }

        ReadView view;

        void pairs() {
            stats.pairs++;
            long mask = randomMask();
            PairBuffer buffer = new PairBuffer();
            PairQueries.selfPairs(tree, mask, buffer, stack);
            List<String> expected = expectedPairs(mask, null);
            List<String> actual = new ArrayList<>();
            for (int i = 0; i < buffer.size(); i++) {
                actual.add(buffer.first(i) + "," + buffer.second(i));
            }
            samePairs(expected, actual, where("selfPairs mask " + mask));
            // against a second tree with another origin
            double[] o = origin();
            double shift = kind.grid() ? 3 : Math.min(kind.spread() * 0.37, 3.7e13);
            DynamicAabbTree other = new DynamicAabbTree(TreeConfig.defaults().withOrigin(o[0] + shift, o[1] - shift,
                    o[2] + 0.5 * shift));
            BruteForceIndex otherBrute = new BruteForceIndex(o[0] + shift, o[1] - shift, o[2] + 0.5 * shift);
            for (int i = 0; i < 60; i++) {
                double[] b = randomBox();
                try {
                    other.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, -1L);
                } catch (IllegalArgumentException e) {
                    b = new double[] {o[0], o[1], o[2], o[0], o[1], o[2]};
                    other.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, -1L);
                }
                otherBrute.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, -1L);
            }
            PairQueries.treePairs(tree, mask, other, -1L, buffer, stack);
            List<String> exp = new ArrayList<>();
            float[] fa = new float[6];
            float[] fb = new float[6];
            double dx = otherBrute.originX() - brute.originX();
            double dy = otherBrute.originY() - brute.originY();
            double dz = otherBrute.originZ() - brute.originZ();
            List<Integer> sorted = new ArrayList<>(live);
            sorted.sort(Integer::compare);
            for (int ha : sorted) {
                if (!takes(ha, mask)) {
                    continue;
                }
                brute.getStoredTightBox(ha, fa);
                for (int hb = 0; hb < 60; hb++) {
                    otherBrute.getStoredTightBox(hb, fb);
                    if (AabbAabb.test(fa[0], fa[1], fa[2], fa[3], fa[4], fa[5], fb[0] + dx, fb[1] + dy, fb[2] + dz,
                            fb[3] + dx, fb[4] + dy, fb[5] + dz)) {
                        exp.add(ha + "," + hb);
                    }
                }
            }
            actual.clear();
            for (int i = 0; i < buffer.size(); i++) {
                actual.add(buffer.first(i) + "," + buffer.second(i));
            }
            samePairs(exp, actual, where("treePairs mask " + mask));
            // a published read view answers as the tree
            TreeSnapshots snapshots = new TreeSnapshots(tree);
            snapshots.publish();
            view = snapshots.acquire();
        }

        void samePairs(List<String> expected, List<String> actual, String where) {
            if (expected.equals(actual)) {
                return;
            }
            List<String> missing = new ArrayList<>(expected);
            missing.removeAll(actual);
            List<String> extra = new ArrayList<>(actual);
            extra.removeAll(expected);
            fail(where + ": " + expected.size() + " expected, " + actual.size() + " reported; missing "
                    + missing.subList(0, Math.min(10, missing.size())) + " extra "
                    + extra.subList(0, Math.min(10, extra.size())));
        }

        List<String> expectedPairs(long mask, java.util.Set<Integer> movedOnly) {
            List<String> expected = new ArrayList<>();
            List<Integer> sorted = new ArrayList<>(live);
            sorted.sort(Integer::compare);
            float[] fa = new float[6];
            float[] fb = new float[6];
            for (int i = 0; i < sorted.size(); i++) {
                int ha = sorted.get(i);
                if (!takes(ha, mask)) {
                    continue;
                }
                brute.getStoredTightBox(ha, fa);
                for (int j = i + 1; j < sorted.size(); j++) {
                    int hb = sorted.get(j);
                    if (!takes(hb, mask)) {
                        continue;
                    }
                    if (movedOnly != null && !movedOnly.contains(ha) && !movedOnly.contains(hb)) {
                        continue;
                    }
                    brute.getStoredTightBox(hb, fb);
                    if (AabbAabb.test(fa[0], fa[1], fa[2], fa[3], fa[4], fa[5], fb[0], fb[1], fb[2], fb[3], fb[4],
                            fb[5])) {
                        expected.add(ha + "," + hb);
                    }
                }
            }
            return expected;
        }

        void movedPairs() {
            long mask = randomMask();
            PairBuffer buffer = new PairBuffer();
            PairQueries.movedPairs(tree, mask, buffer, stack);
            java.util.Set<Integer> m = new java.util.HashSet<>();
            for (int h : moved) {
                if (takes(h, mask)) {
                    m.add(h);
                }
            }
            List<String> expected = expectedPairs(mask, m);
            List<String> actual = new ArrayList<>();
            for (int i = 0; i < buffer.size(); i++) {
                actual.add(buffer.first(i) + "," + buffer.second(i));
            }
            samePairs(expected, actual, where("movedPairs mask " + mask));
            moved.clear();
            stats.pairs++;
        }
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> builds() {
        List<org.junit.jupiter.params.provider.Arguments> list = new ArrayList<>();
        int[] sizes = Boolean.getBoolean("fuzz.large") ? new int[] {1, 2, 3, 5, 6, 63, 64, 65, 129, 700, 3000}
                : new int[] {1, 2, 3, 5, 6, 63, 64, 65, 129, 700};
        for (int dist = 0; dist < 9; dist++) {
            for (int size : sizes) {
                list.add(org.junit.jupiter.params.provider.Arguments.of(dist, size));
            }
        }
        return list.stream();
    }

    /** Degenerate distributions, built statically, by addAll and one by one, then queried and mutated. */
    @ParameterizedTest(name = "distribution {0}, {1} objects")
    @MethodSource("builds")
    void degenerateWorldsBuiltEveryWayAnswerLikeBruteForce(int dist, int n) {
        double[] origins = {0, 1e12};
        for (double o : origins) {
            for (int how = 0; how < 3; how++) {
                Kind kind = new Kind("dist " + dist + " n " + n + " origin " + o + " how " + how, o, o, o, 1e3, 0, 1e-6,
                        1e6, false, TreeConfig.defaults().withOrigin(o, o, o)
                        .withMargin(how == 1 ? 0 : 0.1, how == 1 ? 0 : 0.125));
                Fuzz f = new Fuzz(kind, dist * 1000L + n * 7L + how + (long) o);
                f.load(distribution(f.random, dist, n, o), how);
                int queries = n > 1000 ? 6 : 10;
                for (int q = 0; q < queries; q++) {
                    f.queries();
                }
                f.pairs();
                f.tree.rebuild(f.random.nextBoolean());
                f.tree.validate();
                for (int q = 0; q < 3; q++) {
                    f.queries();
                }
                for (int m = 0; m < Math.min(n, 50); m++) {
                    f.mutate(n);
                }
                f.queries();
            }
        }
    }

    static double[] distribution(SplittableRandom random, int dist, int n, double o) {
        double[] b = new double[6 * n];
        double[] one = new double[6];
        for (int a = 0; a < 3; a++) {
            double c = o + (random.nextDouble() - 0.5) * 10;
            double e = random.nextDouble();
            one[a] = c - e;
            one[a + 3] = c + e;
        }
        float base = (float) (random.nextDouble() * 10);
        for (int i = 0; i < n; i++) {
            int at = 6 * i;
            switch (dist) {
                case 0 -> System.arraycopy(one, 0, b, at, 6);   // identical boxes
                case 1 -> {                                        // identical points
                    for (int a = 0; a < 3; a++) {
                        b[at + a] = one[a];
                        b[at + a + 3] = one[a];
                    }
                }
                case 2 -> {                                        // points one float apart on a line
                    float v = base;
                    for (int k = 0; k < i; k++) {
                        v = Math.nextUp(v);
                    }
                    b[at] = o + v;
                    b[at + 3] = o + v;
                    b[at + 1] = o;
                    b[at + 4] = o;
                    b[at + 2] = o;
                    b[at + 5] = o;
                }
                case 3 -> {                                        // two clusters at +-9e17, tiny boxes
                    double c = (i % 2 == 0 ? -9e17 : 9e17) + random.nextDouble() * 1e6;
                    for (int a = 0; a < 3; a++) {
                        b[at + a] = o + c;
                        b[at + a + 3] = o + c + 1e-6;
                    }
                }
                case 4 -> {                                        // log-uniform positions 1e-40 .. 1e17
                    for (int a = 0; a < 3; a++) {
                        double c = Math.copySign(Math.pow(10, -40 + random.nextDouble() * 57), random.nextDouble()
                                - 0.5);
                        double e = Math.pow(10, -40 + random.nextDouble() * 50);
                        b[at + a] = o + c;
                        b[at + a + 3] = o + c + e;
                    }
                }
                case 5 -> {                                        // flat boxes in one plane
                    for (int a = 0; a < 2; a++) {
                        double c = o + random.nextInt(20);
                        b[at + a] = c;
                        b[at + a + 3] = c + random.nextInt(3);
                    }
                    b[at + 2] = o + 1;
                    b[at + 5] = o + 1;
                }
                case 6 -> {                                        // concentric boxes 1e-6 .. 1e6
                    double e = Math.pow(10, -6 + 12.0 * i / Math.max(1, n - 1));
                    for (int a = 0; a < 3; a++) {
                        b[at + a] = o + 1 - e;
                        b[at + a + 3] = o + 1 + e;
                    }
                }
                case 7 -> {                                        // touching unit cubes on a grid
                    int side = (int) Math.ceil(Math.cbrt(n));
                    int x = i % side;
                    int y = (i / side) % side;
                    int z = i / (side * side);
                    b[at] = o + x;
                    b[at + 1] = o + y;
                    b[at + 2] = o + z;
                    b[at + 3] = o + x + 1;
                    b[at + 4] = o + y + 1;
                    b[at + 5] = o + z + 1;
                }
                default -> {                                       // subnormal-float coordinates near the origin
                    for (int a = 0; a < 3; a++) {
                        double c = (random.nextInt(200) - 100) * 1e-44;
                        b[at + a] = o + c;
                        b[at + a + 3] = o + c + random.nextInt(3) * 1e-44;
                    }
                }
            }
        }
        return b;
    }

    // =============================================================================================================
    // Borderline inputs: either accepted and answered exactly, or refused with IllegalArgumentException and the
    // tree left unchanged.
    // =============================================================================================================

    @Test
    void borderlineInputsAreAcceptedExactlyOrRefusedCleanly() {
        double[][] origins = {{0, 0, 0}, {1e300, 0, 0}, {1e12, -1e12, 0}};
        for (double[] o : origins) {
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(o[0], o[1], o[2]));
            BruteForceIndex brute = new BruteForceIndex(o[0], o[1], o[2]);
            double limit = 1e18;
            double[] values = {-0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, 1e-310,
                o[0] + limit, o[0] - limit, Math.nextUp(o[0] + limit), o[0] + Math.nextUp(limit),
                o[0] + (double) Math.nextUp((float) limit), o[0] + 1.0000001e18, o[0] + 1e19};
            TraversalStack stack = new TraversalStack();
            for (double v : values) {
                double[][] boxes = {{v, o[1], o[2], v, o[1], o[2]}, {o[0], o[1], o[2], v, o[1] + 1, o[2] + 1},
                    {v, o[1], o[2], v + Double.MIN_VALUE, o[1] + Double.MIN_VALUE, o[2]}};
                for (double[] b : boxes) {
                    int before = tree.size();
                    Integer ht = null;
                    Integer hb = null;
                    RuntimeException et = null;
                    RuntimeException eb = null;
                    try {
                        ht = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 1, -1L);
                    } catch (RuntimeException e) {
                        et = e;
                    }
                    try {
                        hb = brute.add(b[0], b[1], b[2], b[3], b[4], b[5], 1, -1L);
                    } catch (RuntimeException e) {
                        eb = e;
                    }
                    String w = Arrays.toString(o) + " box " + Arrays.toString(b);
                    if (et != null) {
                        assertTrue(et instanceof IllegalArgumentException, w + " " + et);
                        assertEquals(before, tree.size(), w);
                        tree.validate();
                    }
                    assertEquals(et == null, eb == null, w + " tree " + et + " brute " + eb);
                    if (ht != null) {
                        assertEquals(hb, ht, w);
                        tree.validate();
                        AllOverlaps x = new AllOverlaps();
                        AllOverlaps y = new AllOverlaps();
                        tree.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, x, stack);
                        brute.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, y, stack);
                        x.sort();
                        y.sort();
                        assertEquals(y.count(), x.count(), w);
                        assertTrue(x.count() >= 1, w + " finds itself");
                    }
                }
            }
        }
        DynamicAabbTree tree = new DynamicAabbTree();
        int h = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        TraversalStack stack = new TraversalStack();
        ClosestHit c = new ClosestHit();
        // -0.0 maxFraction is valid (>= 0); NaN and negative are refused
        tree.rayCast(0.5, 0.5, 0.5, 1, 0, 0, -0.0, -1L, c, stack);
        assertTrue(c.hasHit());
        assertEquals(0.0, c.fraction());
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(c.fraction()));
        assertThrows(IllegalArgumentException.class, () -> tree.rayCast(0, 0, 0, 1, 0, 0, -Double.MIN_VALUE, -1L, c,
                stack));
        assertThrows(IllegalArgumentException.class, () -> RegionQueries.querySphere(tree, 0, 0, 0,
                Math.nextUp(1e150), RegionMode.CROSSING, -1L, null, new AllOverlaps(), stack));
        assertThrows(IllegalArgumentException.class, () -> tree.move(h, 0, 0, 0, 1, 1, Math.nextDown(0.0)));
        assertThrows(IllegalArgumentException.class, () -> tree.move(h, 0, 0, 0, 1, 1, 1, Double.NaN, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> tree.move(h, 0, 0, 0, 1, 1, 1,
                Double.POSITIVE_INFINITY, 0, 0));
        double[] t = new double[6];
        tree.getTightBox(h, t);
        assertEquals("[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]", Arrays.toString(t));
        tree.validate();
        NearestNeighbours nn = new NearestNeighbours();
        assertThrows(IllegalArgumentException.class, () -> NearestQueries.kNearest(tree, Math.nextUp(1e150), 0, 0,
                1, Double.POSITIVE_INFINITY, -1L, null, null, nn));
        NearestQueries.kNearest(tree, 1e150, 0, 0, 1, Double.POSITIVE_INFINITY, -1L, null, null, nn);
        assertEquals(1, nn.count());
    }

    // =============================================================================================================
    // Invalid inputs on every entry point: IllegalArgumentException, tree unchanged (deferred adds or not).
    // =============================================================================================================

    interface Call {
        void run() throws Exception;
    }

    List<String> problems = new ArrayList<>();

    void expectIae(String name, Call c) {
        try {
            c.run();
            problems.add(name + ": accepted");
        } catch (IllegalArgumentException e) {
            // fine
        } catch (Throwable t) {
            problems.add(name + ": " + t);
        }
    }

    @Test
    void invalidInputsAreRefusedWithIllegalArgumentAndChangeNothing() {
        for (boolean deferred : new boolean[] {false, true}) {
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(1e12, 0, 0)
                    .withDeferredAdds(deferred));
            int h = tree.add(1e12, 0, 0, 1e12 + 1, 1, 1, 5, -1L);
            int h2 = tree.add(1e12 + 3, 0, 0, 1e12 + 4, 1, 1, 6, -1L);
            TraversalStack stack = new TraversalStack();
            AllOverlaps out = new AllOverlaps();
            ClosestHit closest = new ClosestHit();
            NearestNeighbours nn = new NearestNeighbours();
            String p = deferred ? "deferred " : "";
            expectIae(p + "add beyond storage", () -> tree.add(1e12 + 1.1e18, 0, 0, 1e12 + 1.1e18, 0, 0, 0, -1L));
            expectIae(p + "add -inf", () -> tree.add(Double.NEGATIVE_INFINITY, 0, 0, 0, 0, 0, 0, -1L));
            expectIae(p + "move beyond storage", () -> tree.move(h, 0, 0, 0, 1e19, 1, 1));
            expectIae(p + "move NaN disp", () -> tree.move(h, 1e12, 0, 0, 1e12 + 1, 1, 1, 0, Double.NaN, 0));
            expectIae(p + "move stale", () -> tree.move(h + (1 << 24), 1e12, 0, 0, 1e12 + 1, 1, 1));
            expectIae(p + "ray inf maxFraction", () -> tree.rayCast(1e12, 0, 0, 1, 0, 0, Double.POSITIVE_INFINITY, -1L,
                    closest, stack));
            expectIae(p + "ray NaN maxFraction", () -> tree.rayCast(1e12, 0, 0, 1, 0, 0, Double.NaN, -1L, closest,
                    stack));
            expectIae(p + "obb short array", () -> RegionQueries.queryObb(tree, new double[14], 0, RegionMode.CROSSING,
                    -1L, null, out, stack));
            expectIae(p + "obb offset -1", () -> RegionQueries.queryObb(tree, new double[15], -1, RegionMode.CROSSING,
                    -1L, null, out, stack));
            expectIae(p + "obb null", () -> RegionQueries.queryObb(tree, null, 0, RegionMode.CROSSING, -1L, null, out,
                    stack));
            expectIae(p + "obb zero axes", () -> RegionQueries.queryObb(tree, new double[15], 0, RegionMode.CROSSING,
                    -1L, null, out, stack));
            expectIae(p + "obb inf extent", () -> RegionQueries.queryObb(tree, new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0,
                0, 0, 1, Double.POSITIVE_INFINITY, 1, 1}, 0, RegionMode.CROSSING, -1L, null, out, stack));
            expectIae(p + "obb negative extent", () -> RegionQueries.queryObb(tree, new double[] {0, 0, 0, 1, 0, 0, 0,
                1, 0, 0, 0, 1, -1e-300, 1, 1}, 0, RegionMode.CROSSING, -1L, null, out, stack));
            expectIae(p + "sphere NaN", () -> RegionQueries.querySphere(tree, 0, 0, 0, Double.NaN, RegionMode.CROSSING,
                    -1L, null, out, stack));
            expectIae(p + "sweep sphere big radius", () -> SweepQueries.sweepSphere(tree, 0, 0, 0, 2e150, 1, 0, 0, -1L,
                    closest, stack));
            expectIae(p + "sweep box inverted", () -> SweepQueries.sweepBox(tree, 1, 0, 0, 0, 1, 1, 1, 0, 0, -1L,
                    closest, stack));
            expectIae(p + "sweep box inf disp", () -> SweepQueries.sweepBox(tree, 0, 0, 0, 1, 1, 1,
                    Double.POSITIVE_INFINITY, 0, 0, -1L, closest, stack));
            expectIae(p + "kNearest k -1", () -> NearestQueries.kNearest(tree, 0, 0, 0, -1, 1, -1L, null, null, nn));
            expectIae(p + "kNearest NaN max", () -> NearestQueries.kNearest(tree, 0, 0, 0, 1, Double.NaN, -1L, null,
                    null, nn));
            expectIae(p + "kNearest -max", () -> NearestQueries.kNearest(tree, 0, 0, 0, 1, -1, -1L, null, null, nn));
            expectIae(p + "kNearest far", () -> NearestQueries.kNearest(tree, 1e12 + 2e150, 0, 0, 1, 1, -1L, null,
                    null, nn));
            expectIae(p + "kNearest null tree", () -> NearestQueries.kNearest(null, 0, 0, 0, 1, 1, -1L, null, null,
                    nn));
            expectIae(p + "browse null visitor", () -> NearestQueries.browseNearest(tree, 0, 0, 0, 1, -1L, null, null,
                    null, nn));
            expectIae(p + "convex null", () -> RegionQueries.queryConvex(tree, null, RegionMode.CROSSING, -1L, null,
                    out, stack));
            expectIae(p + "convex NaN plane", () -> new ConvexRegion(new double[] {Double.NaN, 0, 0, 0}, 1));
            expectIae(p + "convex zero normal", () -> new ConvexRegion(new double[] {0, 0, 0, 1}, 1));
            expectIae(p + "convex huge d/normal", () -> new ConvexRegion(new double[] {1e-300, 0, 0, 1e300}, 1));
            expectIae(p + "convex unbounded CROSSING", () -> RegionQueries.queryConvex(tree,
                    new ConvexRegion(new double[] {1, 0, 0, 1}, 1), RegionMode.CROSSING, -1L, null, out, stack));
            expectIae(p + "pairs null", () -> PairQueries.selfPairs(tree, -1L, null, stack));
            expectIae(p + "removeAll dup", () -> tree.removeAll(new int[] {h, h}));
            expectIae(p + "removeAll stale", () -> tree.removeAll(new int[] {h, h2 + (1 << 24)}));
            expectIae(p + "addAll bad", () -> tree.addAll(new double[] {0, 0, 0, 1, 1, 1, 0, 0, 0, Double.NaN, 1, 1},
                    null, null));
            expectIae(p + "addAll beyond", () -> tree.addAll(new double[] {1e12, 0, 0, 1e12 + 1, 1, 1, 0, 0, 0, 2e18,
                1, 1}, null, null));
            expectIae(p + "addAll length", () -> tree.addAll(new double[7], null, null));
            expectIae(p + "addAll users length", () -> tree.addAll(new double[6], new long[2], null));
            expectIae(p + "optimize -1", () -> tree.optimize(-1));
            expectIae(p + "tight dest short", () -> tree.getTightBox(h, new double[5]));
            expectIae(p + "setCategory stale", () -> tree.setCategoryBits(h + (1 << 24), 1));
            expectIae(p + "origin 1e301", () -> TreeConfig.defaults().withOrigin(1e301, 0, 0));
            expectIae(p + "margin inf", () -> TreeConfig.defaults().withMargin(Double.POSITIVE_INFINITY, 0));
            expectIae(p + "prediction NaN", () -> TreeConfig.defaults().withPrediction(Double.NaN));
            expectIae(p + "build bad", () -> DynamicAabbTree.build(TreeConfig.defaults(), new double[] {0, 0, 0, -1, 0,
                0}, null, null));
            expectIae(p + "build far", () -> DynamicAabbTree.build(TreeConfig.defaults().withOrigin(0, 0, 0),
                new double[] {0, 0, 0, 2e18, 0, 0}, null, null));
            tree.validate();
            if (tree.size() != 2) {
                problems.add(p + "size changed " + tree.size());
            }
            out.reset();
            tree.queryAabb(-1e30, -1e30, -1e30, 1e30, 1e30, 1e30, -1L, out, stack);
            if (out.count() != 2) {
                problems.add(p + "objects changed " + out.count());
            }
            double[] t = new double[6];
            tree.getTightBox(h, t);
            if (t[3] != 1e12 + 1) {
                problems.add(p + "box changed " + java.util.Arrays.toString(t));
            }
        }
        assertEquals(List.of(), problems);
    }
}
