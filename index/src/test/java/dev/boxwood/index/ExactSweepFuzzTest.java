package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.SegmentCollector;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SweepQueries.sweepBox / sweepSphere through the tree (and read views) against an exact BigDecimal reference,
 * computed from the stored float tight boxes and the query moved into the tree's frame in double (the documented
 * frame rule). Worlds with non-zero origins, far coordinates, constructed exact touches, mutations, masks, filters,
 * ignored handles. The default run takes one seed of 200 queries per world kind; the long profile adds the extreme
 * scales, and {@code -DexactSweep.seeds=N -DexactSweep.queries=M} run more.
 */
class ExactSweepFuzzTest {

    static final int SEEDS = Integer.getInteger("exactSweep.seeds", 1);
    /** Relative margin within which a disagreement counts as rounding: 64 ulps of 1. */
    static final double BOUNDARY = 0x1p-46;
    static final int QUERIES = Integer.getInteger("exactSweep.queries", 200);

    final TraversalStack stack = new TraversalStack(2);
    final ClosestHit closest = new ClosestHit();
    final AnyHit any = new AnyHit();
    final AllHits all = new AllHits();

    long queries;
    long exactHits;
    long touches;
    long zeroHits;
    final List<String> bugs = new ArrayList<>();
    final List<String> boundary = new ArrayList<>();
    int boundaryCount;
    int bugCount;
    double worstSphereErr;
    String worstSphereWhere = "";

    /** One object of the reference: handle, stored box (frame), category. */
    record Obj(int handle, double[] min, double[] max, long category, long user) {
    }

    static final class World {
        final String name;
        final DynamicAabbTree tree;
        final double[] origin;
        final double grid;      // frame grid for exact constructions
        final double extent;    // frame half extent of the world
        final boolean onGrid;
        boolean planar;
        final Map<Integer, Long> categories = new HashMap<>();
        final List<Integer> live = new ArrayList<>();

        World(String name, TreeConfig config, double[] origin, double grid, double extent, boolean onGrid) {
            this(name, new DynamicAabbTree(config.withOrigin(origin[0], origin[1], origin[2])), origin, grid, extent,
                    onGrid);
        }

        World(String name, DynamicAabbTree tree, double[] origin, double grid, double extent, boolean onGrid) {
            this.name = name;
            this.tree = tree;
            this.origin = origin;
            this.grid = grid;
            this.extent = extent;
            this.onGrid = onGrid;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    World makeWorld(int kind, SplittableRandom rnd) {
        TreeConfig base = switch (rnd.nextInt(4)) {
            case 0 -> TreeConfig.defaults().withMargin(0, 0);
            case 1 -> TreeConfig.defaults().withDeferredAdds(true);
            case 2 -> TreeConfig.defaults().withPrediction(2);
            default -> TreeConfig.defaults();
        };
        return switch (kind) {
            case 0 -> new World("origin 0, unit scale", base, new double[] {0, 0, 0}, 0x1p-10, 64, true);
            case 1 -> new World("origin 1e6+, grid", base, new double[] {1e6 + 0.375, -2e6 + 0.125, 5e5}, 0x1p-8,
                    1000, true);
            case 2 -> new World("origin ~1e9, grid", base, new double[] {1e9, 1e9 + 256, -1e9 + 0.5}, 0x1p-6,
                    1e4, true);
            case 3 -> new World("origin ~1e9 non-grid", base,
                    new double[] {987654321.123456, -123456789.98765, 5e8 + 0.3}, 0x1p-6, 1e4, false);
            case 4 -> new World("origin 0, coords 1e9 (frame grid 128)", base, new double[] {0, 0, 0}, 128, 1e9, true);
            case 5 -> new World("origin 0, coords 1e6 non-grid", base, new double[] {0, 0, 0}, 0x1p-4, 1e6, false);
            case 6 -> new World("origin 1e6, coords 1e6 off (frame 1e5)", base,
                    new double[] {1e6 + 0.5, 1e6 + 0.25, 1e6}, 0x1p-6, 1e5, false);
            case 7 -> new World("origin 0, frame 1e15 (grid 2^30)", base, new double[] {0, 0, 0}, 0x1p30, 1e15,
                    true);
            case 10 -> planar(new World("2D facade, origin 1e6+ non-grid",
                    new DynamicAabbTree2D(base.withOrigin(1e6 + 0.3, -2e6 + 0.7, 0)).tree(),
                    new double[] {1e6 + 0.3, -2e6 + 0.7, 0}, 0x1p-8, 1000, false));
            case 11 -> planar(new World("2D facade, origin 0 grid", new DynamicAabbTree2D(base).tree(),
                    new double[] {0, 0, 0}, 0x1p-10, 64, true));
            case 8 -> new World("tiny world 1e-20", base, new double[] {0, 0, 0}, 0x1p-90, 1e-20 * 64, true);
            default -> new World("origin 1e17 non-grid, frame 1e9", base, new double[] {1e17, -3e17, 7e16},
                    1024, 1e9, false);
        };
    }

    static World planar(World w) {
        w.planar = true;
        return w;
    }

    double gridValue(World w, SplittableRandom rnd, double lo, double hi) {
        double v = lo + rnd.nextDouble() * (hi - lo);
        return Math.rint(v / w.grid) * w.grid;
    }

    /** Frame centre for objects: clustered near 0 of the frame (plus an offset for the far worlds). */
    double frameBase(World w) {
        return w.extent >= 1e15 ? 1e15 : w.extent >= 1e9 ? 1e9 : w.extent >= 1e6 ? 1e6 : 0;
    }

    double[] randomWorldBox(World w, SplittableRandom rnd) {
        double[] b = new double[6];
        double base = frameBase(w);
        double span = w.extent >= 1e15 ? 1e14 : w.extent >= 1e6 ? 1e5 : w.extent;
        double size = span * (rnd.nextInt(3) == 0 ? 0.2 : 0.02);
        if (w.grid >= 1) {
            size = Math.max(size, 16 * w.grid);
        }
        for (int a = 0; a < 3; a++) {
            double lo;
            double len;
            if (w.onGrid) {
                lo = gridValue(w, rnd, base - span, base + span);
                len = rnd.nextInt(5) == 0 ? 0 : gridValue(w, rnd, 0, size);
            } else {
                lo = base - span + rnd.nextDouble() * 2 * span;
                len = rnd.nextInt(5) == 0 ? 0 : rnd.nextDouble() * size;
            }
            b[a] = w.origin[a] + lo;
            b[a + 3] = w.origin[a] + lo + len;
        }
        if (w.planar) {
            b[2] = 0;
            b[5] = 0;
        }
        return b;
    }

    long randomCategory(SplittableRandom rnd) {
        int k = rnd.nextInt(5);
        return k == 0 ? -1L : k == 1 ? rnd.nextLong() : k == 2 ? 1L << rnd.nextInt(64) : k == 3 ? 0L : 3L << 31;
    }

    void add(World w, SplittableRandom rnd) {
        double[] b = randomWorldBox(w, rnd);
        long cat = randomCategory(rnd);
        int h = w.tree.add(b[0], b[1], b[2], b[3], b[4], b[5], rnd.nextLong(), cat);
        w.categories.put(h, cat);
        w.live.add(h);
    }

    void mutate(World w, SplittableRandom rnd) {
        int op = rnd.nextInt(10);
        if (w.live.isEmpty() || op < 3) {
            add(w, rnd);
        } else if (op < 7) {
            int h = w.live.get(rnd.nextInt(w.live.size()));
            double[] b;
            if (op < 6) {
                b = new double[6];
                w.tree.getTightBox(h, b);
                for (int a = 0; a < 3; a++) {
                    double s = w.onGrid ? gridValue(w, rnd, -w.extent * 0.05, w.extent * 0.05)
                            : (rnd.nextDouble() - 0.5) * w.extent * 0.1;
                    if (w.planar && a == 2) {
                        s = 0;
                    }
                    b[a] += s;
                    b[a + 3] += s;
                }
            } else {
                b = randomWorldBox(w, rnd);
            }
            w.tree.move(h, b[0], b[1], b[2], b[3], b[4], b[5], rnd.nextDouble() - 0.5, 0, rnd.nextDouble());
        } else if (op < 8 && rnd.nextInt(30) == 0) {
            int k = rnd.nextInt(4);
            if (k == 0) {
                w.tree.rebuild(rnd.nextBoolean());
            } else if (k == 1) {
                w.tree.optimize(1 + rnd.nextInt(20));
            } else if (k == 2) {
                w.tree.compact();
            } else {
                w.tree.flushAdds();
            }
        } else if (op < 8) {
            int h = w.live.get(rnd.nextInt(w.live.size()));
            long cat = randomCategory(rnd);
            w.tree.setCategoryBits(h, cat);
            w.categories.put(h, cat);
        } else {
            int k = rnd.nextInt(w.live.size());
            int h = w.live.get(k);
            w.tree.remove(h);
            w.categories.remove(h);
            w.live.set(k, w.live.get(w.live.size() - 1));
            w.live.remove(w.live.size() - 1);
        }
    }

    List<Obj> snapshot(World w, ReadableTree t) {
        List<Obj> list = new ArrayList<>();
        float[] f = new float[6];
        for (int h : t.liveHandles()) {
            t.getStoredTightBox(h, f);
            list.add(new Obj(h, new double[] {f[0], f[1], f[2]}, new double[] {f[3], f[4], f[5]},
                    w.categories.get(h), t.userValue(h)));
        }
        return list;
    }

    // ---------------------------------------------------------------------------------------------------------
    // queries

    /** A query: box (world min/max) or sphere (world centre, radius), displacement. */
    static final class Query {
        boolean sphere;
        double[] min = new double[3];
        double[] max = new double[3];
        double[] c = new double[3];
        double r;
        double[] d = new double[3];
        String how;

        @Override
        public String toString() {
            return sphere ? "sphereSweep c=" + Arrays.toString(c) + " r=" + r + " d=" + Arrays.toString(d) + " (" + how
                    + ")"
                    : "boxSweep min=" + Arrays.toString(min) + " max=" + Arrays.toString(max) + " d="
                    + Arrays.toString(d) + " (" + how + ")";
        }
    }

    Query makeQuery(World w, List<Obj> objs, SplittableRandom rnd) {
        Query q = new Query();
        q.sphere = rnd.nextBoolean();
        double g = w.grid;
        double scaleD = w.grid >= 1 ? 4096 * g : Math.min(w.extent, 1e4) * 0.1;
        int style = rnd.nextInt(10);
        // displacement on a grid of 4g (so t * d is exact for t = 1/4, 1/2)
        for (int a = 0; a < 3; a++) {
            int z = rnd.nextInt(6);
            q.d[a] = z == 0 ? 0 : Math.rint((rnd.nextDouble() - 0.5) * scaleD / (4 * g)) * 4 * g;
        }
        if (rnd.nextInt(15) == 0) {
            q.d[0] = q.d[1] = q.d[2] = 0;
        }
        if (objs.isEmpty() || style < 2) {
            // random query
            double base = frameBase(w);
            double span = w.extent >= 1e15 ? 1e14 : w.extent >= 1e6 ? 1e5 : w.extent;
            for (int a = 0; a < 3; a++) {
                double lo = base - span + rnd.nextDouble() * 2 * span;
                double h = rnd.nextDouble() * span * 0.05;
                q.min[a] = w.origin[a] + lo;
                q.max[a] = w.origin[a] + lo + h;
                q.c[a] = w.origin[a] + lo;
                q.d[a] = (rnd.nextDouble() - 0.5) * span * 0.3;
            }
            q.r = rnd.nextDouble() * span * 0.05;
            q.how = "random";
            return q;
        }
        Obj o = objs.get(rnd.nextInt(objs.size()));
        double[] t = {0, 1, 0.5, 0.25, 1, 0};
        double tc = t[rnd.nextInt(t.length)];
        // contact: per axis side -1 (min), +1 (max), 0 (within)
        int[] side = new int[3];
        int contactAxes = 1 + rnd.nextInt(3);
        for (int a = 0; a < 3; a++) {
            side[a] = 0;
        }
        int first = rnd.nextInt(3);
        for (int k = 0; k < contactAxes; k++) {
            side[(first + k) % 3] = rnd.nextBoolean() ? 1 : -1;
        }
        // approach direction: on contact axes, move towards the box (or parallel: grazing)
        for (int a = 0; a < 3; a++) {
            if (side[a] != 0 && q.d[a] != 0) {
                double mag = Math.abs(q.d[a]);
                q.d[a] = rnd.nextInt(4) == 0 ? 0 : -side[a] * mag;
            }
        }
        // contact point on the object's stored box (frame)
        double[] p = new double[3];
        for (int a = 0; a < 3; a++) {
            if (side[a] > 0) {
                p[a] = o.max[a];
            } else if (side[a] < 0) {
                p[a] = o.min[a];
            } else {
                double lo = o.min[a];
                double hi = o.max[a];
                int k = rnd.nextInt(4);
                p[a] = k == 0 ? lo : k == 1 ? hi : lo + Math.rint((hi - lo) * rnd.nextDouble() / g) * g;
                if (p[a] > hi) {
                    p[a] = hi;
                }
            }
        }
        double[] frame = new double[3];
        if (q.sphere) {
            double k = g * (1 + rnd.nextInt(64));
            int[][] triples = {{1, 0, 0}, {3, 4, 0}, {1, 2, 2}, {2, 3, 6}, {2, 6, 9}};
            int[] tr;
            double rr;
            if (contactAxes == 1) {
                tr = new int[] {1, 0, 0};
                rr = 1;
            } else if (contactAxes == 2) {
                tr = new int[] {3, 4, 0};
                rr = 5;
            } else {
                tr = rnd.nextBoolean() ? new int[] {1, 2, 2} : rnd.nextBoolean() ? new int[] {2, 3, 6}
                        : new int[] {2, 6, 9};
                rr = tr == null ? 0 : (tr[0] == 1 ? 3 : tr[0] == 2 && tr[1] == 3 ? 7 : 11);
            }
            if (rnd.nextInt(12) == 0) {
                k = 0; // radius 0: a point sweep
            }
            q.r = rr * k;
            int idx = 0;
            for (int a = 0; a < 3; a++) {
                int ax = (first + idx) % 3;
                if (idx < contactAxes) {
                    frame[ax] = p[ax] + side[ax] * tr[idx] * k;
                } else {
                    frame[ax] = p[ax];
                }
                idx++;
            }
        } else {
            // box extents per axis; at contact, the moving box's face on the contact side lies on p
            for (int a = 0; a < 3; a++) {
                double len = rnd.nextInt(5) == 0 ? 0 : g * rnd.nextInt(1, 256);
                if (side[a] > 0) {
                    q.min[a] = p[a];
                    q.max[a] = p[a] + len;
                } else if (side[a] < 0) {
                    q.max[a] = p[a];
                    q.min[a] = p[a] - len;
                } else {
                    double f = rnd.nextInt(3) == 0 ? 0
                            : rnd.nextInt(3) == 0 ? len : Math.rint(rnd.nextDouble() * len / g) * g;
                    q.min[a] = p[a] - f;
                    q.max[a] = p[a] - f + len;
                }
            }
        }
        // start = contact - tc d, then world = frame + origin; optionally nudged by an ulp / a grid step
        int nudge = rnd.nextInt(6);
        int nudgeAxis = rnd.nextInt(3);
        for (int a = 0; a < 3; a++) {
            double back = tc * q.d[a];
            if (q.sphere) {
                q.c[a] = w.origin[a] + (frame[a] - back);
            } else {
                q.min[a] = w.origin[a] + (q.min[a] - back);
                q.max[a] = w.origin[a] + (q.max[a] - back);
            }
        }
        if (nudge == 0) {
            double s = rnd.nextBoolean() ? 1 : -1;
            if (q.sphere) {
                q.c[nudgeAxis] += s * Math.ulp(q.c[nudgeAxis]);
            } else {
                q.min[nudgeAxis] += s * Math.ulp(q.min[nudgeAxis]);
                q.max[nudgeAxis] += s * Math.ulp(q.max[nudgeAxis]);
            }
        } else if (nudge == 1 && q.d[nudgeAxis] != 0) {
            q.d[nudgeAxis] = rnd.nextBoolean() ? Math.nextUp(q.d[nudgeAxis]) : Math.nextDown(q.d[nudgeAxis]);
        } else if (nudge == 2) {
            // a near contact, 2^-10 to 2^-40 of the query's size inside or outside: well clear of rounding, so
            // the answer is certain, but close enough that any culling slack short of the exact test drops it
            double size = q.r + Math.abs(q.d[0]) + Math.abs(q.d[1]) + Math.abs(q.d[2]) + (q.max[nudgeAxis]
                    - q.min[nudgeAxis]) + Math.abs(frame[nudgeAxis]) + g;
            double s = (rnd.nextBoolean() ? 1 : -1) * size * Math.scalb(1.0, -rnd.nextInt(10, 41));
            if (q.sphere) {
                q.c[nudgeAxis] += s;
            } else {
                q.min[nudgeAxis] += s;
                q.max[nudgeAxis] += s;
            }
        }
        q.how = "contact t=" + tc + " sides=" + Arrays.toString(side) + " on " + o.handle + " nudge=" + nudge;
        return q;
    }

    // ---------------------------------------------------------------------------------------------------------

    static final class Setup {
        long mask;
        QueryFilter filter;
        int ign1 = Handles.NONE;
        int ign2 = Handles.NONE;
        String describe() {
            return "mask=" + Long.toHexString(mask) + " filter=" + (filter != null) + " ignored=" + ign1 + "," + ign2;
        }
    }

    Setup makeSetup(List<Obj> objs, SplittableRandom rnd) {
        Setup s = new Setup();
        int k = rnd.nextInt(4);
        s.mask = k == 0 ? rnd.nextLong() : k == 1 ? 1L << rnd.nextInt(64) : -1L;
        if (rnd.nextInt(4) == 0) {
            long bit = rnd.nextLong();
            s.filter = (h, uv) -> ((uv ^ bit) & 1) == 0;
        }
        if (!objs.isEmpty() && rnd.nextInt(3) == 0) {
            s.ign1 = objs.get(rnd.nextInt(objs.size())).handle();
            s.ign2 = rnd.nextBoolean() ? Handles.NONE : objs.get(rnd.nextInt(objs.size())).handle();
        }
        return s;
    }

    void configure(SegmentCollector c, Setup s) {
        c.setFilter(s.filter);
        c.setIgnored(s.ign1, s.ign2);
    }

    void run(ReadableTree t, Query q, Setup s, RayCastVisitor v) {
        if (q.sphere) {
            SweepQueries.sweepSphere(t, q.c[0], q.c[1], q.c[2], q.r, q.d[0], q.d[1], q.d[2], s.mask, v, stack);
        } else {
            SweepQueries.sweepBox(t, q.min[0], q.min[1], q.min[2], q.max[0], q.max[1], q.max[2], q.d[0], q.d[1],
                    q.d[2], s.mask, v, stack);
        }
    }

    /** Frame values of the query as the library computes them (world - origin in double). */
    ExactSweep.Result reference(ReadableTree t, Query q, Obj o) {
        double[] org = {t.originX(), t.originY(), t.originZ()};
        if (q.sphere) {
            double[] c = new double[3];
            for (int a = 0; a < 3; a++) {
                c[a] = q.c[a] - org[a];
            }
            return ExactSweep.sphere(c, q.r, q.d, o.min(), o.max());
        }
        double[] mn = new double[3];
        double[] mx = new double[3];
        for (int a = 0; a < 3; a++) {
            mn[a] = q.min[a] - org[a];
            mx[a] = q.max[a] - org[a];
        }
        return ExactSweep.box(mn, mx, q.d, o.min(), o.max());
    }

    double scaleOf(ReadableTree t, Query q, Obj o) {
        double[] org = {t.originX(), t.originY(), t.originZ()};
        double s = q.r;
        for (int a = 0; a < 3; a++) {
            s = Math.max(s, Math.abs(o.min()[a]));
            s = Math.max(s, Math.abs(o.max()[a]));
            double c = q.sphere ? q.c[a] - org[a] : Math.max(Math.abs(q.min[a] - org[a]), Math.abs(q.max[a] - org[a]));
            s = Math.max(s, Math.abs(c) + Math.abs(q.d[a]));
        }
        return s;
    }

    /**
     * Whether an exact result counts as "at the boundary" (a disagreement there is rounding, documented): within
     * about 64 ulps of the query's scale. Tighter than that is not rounding: a sphere's cull radius shrunk by a
     * millionth fails here.
     */
    boolean atBoundary(ReadableTree t, Query q, Obj o, ExactSweep.Result e) {
        if (q.sphere) {
            return Math.abs(e.margin) <= BOUNDARY * scaleOf(t, q, o);
        }
        // box: margin in t units (hi - lo); static-axis gaps are decided exactly, so those are never boundary
        return Math.abs(e.margin) <= BOUNDARY;
    }

    void record(boolean isBug, String msg) {
        if (isBug) {
            bugCount++;
            if (bugs.size() < 40) {
                bugs.add(msg);
            }
        } else {
            boundaryCount++;
            if (boundary.size() < 15) {
                boundary.add(msg);
            }
        }
    }

    void check(World w, ReadableTree t, String tname, List<Obj> objs, Query q, Setup s) {
        queries++;
        // exact per object
        Map<Integer, ExactSweep.Result> exact = new HashMap<>();
        Map<Integer, Obj> byHandle = new HashMap<>();
        for (Obj o : objs) {
            byHandle.put(o.handle(), o);
            if ((o.category() & s.mask) == 0) {
                continue;
            }
            if (o.handle() == s.ign1 || o.handle() == s.ign2) {
                continue;
            }
            if (s.filter != null && !s.filter.accept(o.handle(), o.user())) {
                continue;
            }
            exact.put(o.handle(), reference(t, q, o));
        }
        String where = w + " / " + tname + " : " + q + " " + s.describe();
        // all hits
        configure(all, s);
        run(t, q, s, all);
        all.sort();
        Map<Integer, Double> lib = new HashMap<>();
        for (int i = 0; i < all.count(); i++) {
            lib.put(all.handle(i), all.fraction(i));
        }
        for (Map.Entry<Integer, ExactSweep.Result> en : exact.entrySet()) {
            int h = en.getKey();
            ExactSweep.Result e = en.getValue();
            Obj o = byHandle.get(h);
            if (e.hit) {
                exactHits++;
                if (e.margin == 0) {
                    touches++;
                }
                if (e.first.signum() == 0) {
                    zeroHits++;
                }
            }
            Double lf = lib.get(h);
            if (e.hit && lf == null) {
                record(!atBoundary(t, q, o, e), "MISS " + where + " handle " + h + " box " + Arrays.toString(o.min())
                        + Arrays.toString(o.max()) + " exact first " + e.firstDouble() + " margin " + e.margin);
            } else if (!e.hit && lf != null) {
                record(!atBoundary(t, q, o, e), "FALSE HIT " + where + " handle " + h + " box "
                        + Arrays.toString(o.min()) + Arrays.toString(o.max()) + " lib " + lf + " margin " + e.margin);
            } else if (e.hit) {
                double ef = e.firstDouble();
                double err = Math.abs(lf - ef);
                if (q.sphere) {
                    if (err > worstSphereErr) {
                        worstSphereErr = err;
                        worstSphereWhere = where + " handle " + h + " lib " + lf + " exact " + ef + " margin "
                                + e.margin;
                    }
                    if (err > 1e-9 && !atBoundary(t, q, o, e)) {
                        record(true, "SPHERE FRACTION " + where + " handle " + h + " lib " + lf + " exact " + ef
                                + " margin " + e.margin);
                    } else if (err > 1e-12) {
                        record(false, "sphere fraction (near tangent) " + where + " handle " + h + " lib " + lf
                                + " exact " + ef + " margin " + e.margin);
                    }
                } else {
                    boolean ok = ef == 0 ? lf == 0 : err <= 4 * Math.ulp(ef);
                    if (!ok) {
                        record(true, "BOX FRACTION " + where + " handle " + h + " box " + Arrays.toString(o.min())
                                + Arrays.toString(o.max()) + " lib " + lf + " exact " + ef);
                    }
                }
            }
        }
        for (int h : lib.keySet()) {
            if (!exact.containsKey(h)) {
                record(true, "EXCLUDED OBJECT REPORTED " + where + " handle " + h + " category "
                        + (byHandle.containsKey(h) ? Long.toHexString(byHandle.get(h).category()) : "not live"));
            }
        }
        // closest
        configure(closest, s);
        run(t, q, s, closest);
        double best = Double.POSITIVE_INFINITY;
        int bestHandle = Handles.NONE;
        for (Map.Entry<Integer, ExactSweep.Result> en : exact.entrySet()) {
            ExactSweep.Result e = en.getValue();
            if (e.hit) {
                double f = e.firstDouble();
                int c = Double.compare(f, best);
                if (c < 0 || c == 0 && en.getKey() < bestHandle) {
                    best = f;
                    bestHandle = en.getKey();
                }
            }
        }
        if (closest.hasHit()) {
            int h = closest.handle();
            ExactSweep.Result e = exact.get(h);
            if (e == null) {
                record(true, "CLOSEST EXCLUDED " + where + " handle " + h);
            } else if (!e.hit) {
                record(!atBoundary(t, q, byHandle.get(h), e), "CLOSEST FALSE HIT " + where + " handle " + h);
            } else {
                double ef = e.firstDouble();
                double tol = q.sphere ? 1e-9 : 4 * Math.ulp(Math.max(best, Double.MIN_NORMAL));
                if (ef - best > tol) {
                    record(true, "CLOSEST NOT CLOSEST " + where + " lib " + h + "@" + closest.fraction() + " exact "
                            + ef + "; best " + bestHandle + "@" + best + " lib all has best? " + lib.get(bestHandle));
                } else if (h != bestHandle && e.first.compareTo(exact.get(bestHandle).first) == 0
                        && lib.containsKey(bestHandle) && lib.get(bestHandle) == closest.fraction()
                        && bestHandle < h) {
                    record(true, "CLOSEST TIE NOT LOWER HANDLE " + where + " lib " + h + "@" + closest.fraction()
                            + "; lower " + bestHandle + "@" + lib.get(bestHandle));
                } else if (h != bestHandle) {
                    record(false, "closest tie/rounding " + where + " lib " + h + "@" + closest.fraction() + " exact "
                            + ef + "; best " + bestHandle + "@" + best);
                }
                if (Double.compare(closest.fraction(), lib.getOrDefault(h, -2.0)) != 0) {
                    record(true, "CLOSEST FRACTION != ALLHITS FRACTION " + where + " handle " + h + " closest "
                            + closest.fraction() + " all " + lib.get(h));
                }
            }
        } else if (bestHandle != Handles.NONE) {
            ExactSweep.Result e = exact.get(bestHandle);
            record(!atBoundary(t, q, byHandle.get(bestHandle), e), "CLOSEST MISSED " + where + " best " + bestHandle
                    + "@" + best);
        }
        clipProtocol(t, q, s, where);
        // any
        configure(any, s);
        run(t, q, s, any);
        if (any.hasHit() != !lib.isEmpty()) {
            record(true, "ANY != ALL " + where + " any " + any.hasHit() + " all " + lib.size());
        }
        if (any.hasHit() && !exact.containsKey(any.handle())) {
            record(true, "ANY EXCLUDED " + where + " handle " + any.handle());
        }
    }

    final AllHits plain = new AllHits();
    final SplittableRandom clipRandom = new SplittableRandom(5);
    long clipChecks;

    /** A visitor that clips to random values, skips, returns NaN; checks the protocol against an unclipped run. */
    void clipProtocol(ReadableTree t, Query q, Setup s, String where) {
        run(t, q, s, plain);
        Map<Integer, Double> full = new HashMap<>();
        for (int i = 0; i < plain.count(); i++) {
            full.put(plain.handle(i), plain.fraction(i));
        }
        Map<Integer, Double> visited = new HashMap<>();
        double[] max = {1.0};
        List<String> errors = new ArrayList<>();
        RayCastVisitor v = (h, uv, f) -> {
            if (visited.put(h, f) != null) {
                errors.add("visited twice " + h);
            }
            if (!(f >= 0 && f <= max[0])) {
                errors.add("visited " + h + " at " + f + " beyond max " + max[0]);
            }
            Double expect = full.get(h);
            if (expect == null || expect != f) {
                errors.add("visited " + h + " at " + f + " but unclipped run says " + expect);
            }
            int k = clipRandom.nextInt(6);
            if (k == 0) {
                return -1.0;
            } else if (k == 1) {
                return Double.NaN;
            } else if (k == 2) {
                return Double.POSITIVE_INFINITY;
            }
            double c = k == 3 ? f : f + (max[0] - f) * clipRandom.nextDouble();
            if (c == 0) {
                c = Double.MIN_VALUE;
            }
            if (c > 0 && c < max[0]) {
                max[0] = c;
            }
            return c;
        };
        run(t, q, s, v);
        clipChecks++;
        for (Map.Entry<Integer, Double> e : full.entrySet()) {
            if (e.getValue() <= max[0] && !visited.containsKey(e.getKey())) {
                errors.add("not visited " + e.getKey() + " at " + e.getValue() + " <= final max " + max[0]);
            }
        }
        if (!errors.isEmpty()) {
            record(true, "CLIP PROTOCOL " + where + " " + errors);
        }
    }

    @Test
    @Tag("long")
    void shouldAgreeWithExactReferenceAtExtremeScalesAndInBigTrees() {
        SplittableRandom rnd = new SplittableRandom(77);
        for (int round = 0; round < 6; round++) {
            double[] origin = round % 2 == 0 ? new double[] {0, 0, 0} : new double[] {1e6 + 0.1, -1e6, 3e7 + 0.7};
            World w = new World("extreme " + round, round < 3 ? TreeConfig.defaults()
                    : TreeConfig.defaults().withMargin(0, 0), origin, 0x1p-10, 1000, round % 2 == 0);
            int n = round == 5 ? 8000 : 300;
            for (int i = 0; i < n; i++) {
                add(w, rnd);
            }
            List<Obj> objs = snapshot(w, w.tree);
            int queriesHere = round == 5 ? 30 : 400;
            for (int qi = 0; qi < queriesHere; qi++) {
                Obj target = objs.get(rnd.nextInt(objs.size()));
                Query q = new Query();
                q.sphere = rnd.nextBoolean();
                double far = Math.pow(10, rnd.nextInt(0, 300));
                double[] dir = {rnd.nextDouble() - 0.5, rnd.nextDouble() - 0.5, rnd.nextDouble() - 0.5};
                double[] aim = new double[3];
                for (int a = 0; a < 3; a++) {
                    aim[a] = origin[a] + target.min()[a] + rnd.nextDouble() * (target.max()[a] - target.min()[a]);
                }
                double overshoot = 1 + rnd.nextDouble() * 2 - 0.5;
                double[] rs = {0, 1e-300, 1e-200, 1e-160, 1e-3, 1, 10, 1e5, 1e100, 1e150};
                double r = rs[rnd.nextInt(rs.length)];
                double ext = rs[rnd.nextInt(rs.length)];
                for (int a = 0; a < 3; a++) {
                    double start = aim[a] + dir[a] * far;
                    q.c[a] = start;
                    q.min[a] = start - ext * rnd.nextDouble();
                    q.max[a] = start + ext * rnd.nextDouble();
                    q.d[a] = (aim[a] - start) * overshoot;
                }
                q.r = r;
                q.how = "extreme far " + far + " r/ext " + r + "/" + ext;
                Setup s = makeSetup(objs, rnd);
                check(w, w.tree, "tree", objs, q, s);
            }
        }
        report("EXTREME: queries " + queries + ", exact object hits " + exactHits + ", bugs " + bugCount
                + ", boundary " + boundaryCount);
    }

    @Test
    void shouldAgreeWithExactReference() {
        for (int seed = 0; seed < SEEDS; seed++) {
            for (int kind = 0; kind < 12; kind++) {
                SplittableRandom rnd = new SplittableRandom(seed * 1000L + kind);
                World w = makeWorld(kind, rnd);
                int n = 20 + rnd.nextInt(300);
                if (rnd.nextInt(3) == 0) {
                    double[] boxes = new double[6 * n];
                    long[] cats = new long[n];
                    long[] users = new long[n];
                    for (int i = 0; i < n; i++) {
                        System.arraycopy(randomWorldBox(w, rnd), 0, boxes, 6 * i, 6);
                        cats[i] = randomCategory(rnd);
                        users[i] = rnd.nextLong();
                    }
                    DynamicAabbTree built = w.planar ? w.tree
                            : DynamicAabbTree.build(TreeConfig.defaults().withOrigin(w.origin[0], w.origin[1],
                                    w.origin[2]), boxes, users, cats);
                    if (w.planar) {
                        for (int i = 0; i < n; i++) {
                            built.add(boxes[6 * i], boxes[6 * i + 1], 0, boxes[6 * i + 3], boxes[6 * i + 4], 0,
                                    users[i], cats[i]);
                        }
                    }
                    World bw = new World(w.name + " (bulk)", built, w.origin, w.grid, w.extent, w.onGrid);
                    bw.planar = w.planar;
                    for (int i = 0; i < n; i++) {
                        bw.categories.put(i, cats[i]);
                        bw.live.add(i);
                    }
                    w = bw;
                } else {
                    for (int i = 0; i < n; i++) {
                        add(w, rnd);
                    }
                }
                TreeSnapshots snaps = new TreeSnapshots(w.tree);
                ReadView held = null;
                List<Obj> heldObjs = null;
                for (int qi = 0; qi < QUERIES; qi++) {
                    int muts = rnd.nextInt(4);
                    for (int m = 0; m < muts; m++) {
                        mutate(w, rnd);
                    }
                    if (qi % 50 == 0) {
                        w.tree.validate();
                    }
                    if (rnd.nextInt(25) == 0) {
                        if (held != null) {
                            held.close();
                        }
                        snaps.publish();
                        held = snaps.acquire();
                        heldObjs = snapshot(w, held);
                    }
                    List<Obj> objs = snapshot(w, w.tree);
                    Query q = makeQuery(w, objs, rnd);
                    Setup s = makeSetup(objs, rnd);
                    check(w, w.tree, "tree", objs, q, s);
                    if (held != null && rnd.nextInt(3) == 0) {
                        // the held view answers for the state at its publication
                        check(w, held, "view", heldObjs, q, s);
                    }
                }
                if (held != null) {
                    held.close();
                }
            }
        }
        report("EXACT SWEEP: queries " + queries + ", exact object hits " + exactHits + ", exact touches "
                + touches + ", hits at 0 " + zeroHits + ", clip checks " + clipChecks + ", bugs " + bugCount
                + ", boundary " + boundaryCount);
    }

    /** Prints the counts, the rounding-level differences and any disagreement, and fails on a disagreement. */
    private void report(String counts) {
        System.out.println(counts);
        System.out.println("worst sphere fraction error " + worstSphereErr + " at " + worstSphereWhere);
        for (String b : boundary) {
            System.out.println("BOUNDARY: " + b);
        }
        for (String b : bugs) {
            System.out.println("BUG: " + b);
        }
        assertEquals(0, bugCount, "disagreements with the exact reference (see stdout)");
    }
}
