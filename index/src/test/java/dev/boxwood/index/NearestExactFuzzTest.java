package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.boxwood.testkit.ExactNearest;
import dev.boxwood.testkit.ExactNearest.Cand;
import dev.boxwood.testkit.ExactNearest.Got;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.QueryFilter;
import org.junit.jupiter.api.Test;

/**
 * Nearest queries (kNearest, nearest, browseNearest) of the dynamic tree and its read views against an exact
 * reference, with category masks, filters and distance functions, after random add / move / remove /
 * setCategoryBits sequences, with far origins. Grid worlds (coordinates multiples of 1/16 near the origin) are
 * checked bit for bit; off-grid worlds with a relative tolerance at the boundaries.
 */
class NearestExactFuzzTest {

    static final class Obj {
        final double[] box;
        final long uv;
        final long cat;

        Obj(double[] box, long uv, long cat) {
            this.box = box;
            this.uv = uv;
            this.cat = cat;
        }
    }

    int worlds;
    int queries;
    int nonEmptyAnswers;
    int failures;
    final List<String> messages = new ArrayList<>();

    // ---------------------------------------------------------------------------------------------------

    final class World {
        final SplittableRandom rnd;
        final boolean grid;
        final boolean planar;
        final double ox;
        final double oy;
        final double oz;
        final double w;
        final DynamicAabbTree tree;
        final DynamicAabbTree2D tree2d;
        final Map<Integer, Obj> model = new LinkedHashMap<>();
        long nextUv;
        final String name;

        World(long seed) {
            rnd = new SplittableRandom(seed);
            grid = rnd.nextInt(3) != 0;
            planar = rnd.nextInt(6) == 0;
            double[] origins = grid ? new double[] {0, 0, 1_000_000, 33_554_432.5, -123_456_789.25, 4096}
                    : new double[] {0, 12_345_678.901, -3.3e6 + 0.1, 7.7e7, 1e-3};
            ox = origins[rnd.nextInt(origins.length)];
            oy = rnd.nextBoolean() ? ox : origins[rnd.nextInt(origins.length)];
            oz = planar ? 0 : origins[rnd.nextInt(origins.length)];
            double[] sizes = grid ? new double[] {2, 8, 40, 500, 1800} : new double[] {1, 30, 1000, 1e5};
            w = sizes[rnd.nextInt(sizes.length)];
            TreeConfig config = TreeConfig.defaults().withOrigin(ox, oy, oz);
            if (rnd.nextBoolean()) {
                config = config.withMargin(rnd.nextInt(4) * w / 50, rnd.nextInt(3) * 0.1);
            }
            if (rnd.nextInt(3) == 0) {
                config = config.withPrediction(rnd.nextInt(4));
            }
            if (rnd.nextInt(4) == 0) {
                config = config.withRotations(false);
            }
            if (rnd.nextInt(3) == 0) {
                config = config.withDeferredAdds(true);
            }
            if (rnd.nextInt(4) == 0) {
                config = config.withAddOptimization(rnd.nextInt(3));
            }
            name = "seed " + seed + (grid ? " grid" : " offgrid") + (planar ? " 2D" : "") + " origin (" + ox + ", "
                    + oy + ", " + oz + ") w " + w + " deferred " + config.deferredAdds();
            if (planar) {
                tree2d = new DynamicAabbTree2D(config);
                tree = tree2d.tree();
            } else {
                tree2d = null;
                if (rnd.nextInt(4) == 0) {
                    int n = rnd.nextInt(1, 200);
                    double[] boxes = new double[6 * n];
                    long[] uvs = new long[n];
                    long[] cats = new long[n];
                    for (int i = 0; i < n; i++) {
                        double[] b = randomBox();
                        System.arraycopy(b, 0, boxes, 6 * i, 6);
                        uvs[i] = nextUv++;
                        cats[i] = randomCategory();
                    }
                    tree = DynamicAabbTree.build(config, boxes, uvs, cats);
                    for (int i = 0; i < n; i++) {
                        model.put(i, new Obj(java.util.Arrays.copyOfRange(boxes, 6 * i, 6 * i + 6), uvs[i], cats[i]));
                    }
                } else {
                    tree = new DynamicAabbTree(config);
                }
            }
        }

        double coord(double origin, double range) {
            if (grid) {
                return origin + Math.round(rnd.nextDouble(-range, range) * 16) / 16.0;
            }
            return origin + rnd.nextDouble(-range, range);
        }

        double extent() {
            double e;
            switch (rnd.nextInt(5)) {
                case 0:
                    e = 0;
                    break;
                case 1:
                    e = rnd.nextDouble() * w / 200;
                    break;
                case 2:
                    e = rnd.nextDouble() * w / 20;
                    break;
                case 3:
                    e = rnd.nextDouble() * w / 5;
                    break;
                default:
                    e = rnd.nextDouble() * w / 50;
            }
            return grid ? Math.round(e * 16) / 16.0 : e;
        }

        double[] randomBox() {
            double cx = coord(ox, w);
            double cy = coord(oy, w);
            double cz = planar ? 0 : coord(oz, w);
            double ex = extent();
            double ey = extent();
            double ez = planar ? 0 : extent();
            return new double[] {cx - ex, cy - ey, cz - ez, cx + ex, cy + ey, cz + ez};
        }

        long randomCategory() {
            if (rnd.nextInt(8) == 0) {
                return rnd.nextLong();
            }
            return ExactNearest.CATEGORIES[rnd.nextInt(ExactNearest.CATEGORIES.length)];
        }

        int add(double[] b, long uv, long cat) {
            int h = planar ? tree2d.add(b[0], b[1], b[3], b[4], uv, cat) : tree.add(b[0], b[1], b[2], b[3], b[4], b[5],
                    uv, cat);
            model.put(h, new Obj(b, uv, cat));
            return h;
        }

        void mutate() {
            int op = rnd.nextInt(100);
            List<Integer> handles = new ArrayList<>(model.keySet());
            if (op < 30 || handles.isEmpty()) {
                add(randomBox(), nextUv++, randomCategory());
            } else if (op < 50) {
                // small move: a jitter, usually inside the fat box
                int h = handles.get(rnd.nextInt(handles.size()));
                Obj o = model.get(h);
                double[] b = o.box.clone();
                double step = grid ? 1 / 16.0 : w * 1e-4;
                double dx = (rnd.nextInt(3) - 1) * step;
                double dy = (rnd.nextInt(3) - 1) * step;
                double dz = planar ? 0 : (rnd.nextInt(3) - 1) * step;
                b[0] += dx;
                b[3] += dx;
                b[1] += dy;
                b[4] += dy;
                b[2] += dz;
                b[5] += dz;
                if (rnd.nextBoolean()) {
                    // shrink one side
                    b[3] = Math.max(b[0], b[3] - step);
                }
                move(h, b, dx, dy, dz);
                model.put(h, new Obj(b, o.uv, o.cat));
            } else if (op < 65) {
                int h = handles.get(rnd.nextInt(handles.size()));
                Obj o = model.get(h);
                double[] b = rnd.nextInt(3) == 0 ? shifted(o.box) : randomBox();
                move(h, b, b[0] - o.box[0], b[1] - o.box[1], b[2] - o.box[2]);
                model.put(h, new Obj(b, o.uv, o.cat));
            } else if (op < 80) {
                int h = handles.get(rnd.nextInt(handles.size()));
                if (planar) {
                    tree2d.remove(h);
                } else {
                    tree.remove(h);
                }
                model.remove(h);
            } else if (op < 90) {
                int h = handles.get(rnd.nextInt(handles.size()));
                Obj o = model.get(h);
                long cat = randomCategory();
                tree.setCategoryBits(h, cat);
                model.put(h, new Obj(o.box, o.uv, cat));
            } else if (op < 93) {
                int h = handles.get(rnd.nextInt(handles.size()));
                Obj o = model.get(h);
                long uv = nextUv++;
                tree.setUserValue(h, uv);
                model.put(h, new Obj(o.box, uv, o.cat));
            } else if (op < 95 && !planar) {
                int n = rnd.nextInt(1, 30);
                double[] boxes = new double[6 * n];
                long[] uvs = new long[n];
                long[] cats = new long[n];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(randomBox(), 0, boxes, 6 * i, 6);
                    uvs[i] = nextUv++;
                    cats[i] = randomCategory();
                }
                int[] hs = tree.addAll(boxes, uvs, cats);
                for (int i = 0; i < n; i++) {
                    model.put(hs[i], new Obj(java.util.Arrays.copyOfRange(boxes, 6 * i, 6 * i + 6), uvs[i], cats[i]));
                }
            } else if (op < 96) {
                int m = Math.min(handles.size(), rnd.nextInt(1, 10));
                java.util.Collections.shuffle(handles, new java.util.Random(rnd.nextLong()));
                int[] hs = new int[m];
                for (int i = 0; i < m; i++) {
                    hs[i] = handles.get(i);
                    model.remove(hs[i]);
                }
                tree.removeAll(hs);
            } else if (op < 97) {
                tree.rebuild(rnd.nextBoolean());
            } else if (op < 98) {
                tree.optimize(rnd.nextInt(1, 20));
            } else if (op < 99) {
                tree.compact();
            } else {
                tree.flushAdds();
            }
        }

        double[] shifted(double[] box) {
            double[] b = box.clone();
            double d = grid ? Math.round(rnd.nextDouble(-w / 4, w / 4) * 16) / 16.0 : rnd.nextDouble(-w / 4, w / 4);
            int a = planar ? rnd.nextInt(2) : rnd.nextInt(3);
            b[a] += d;
            b[a + 3] += d;
            return b;
        }

        void move(int h, double[] b, double dx, double dy, double dz) {
            if (planar) {
                if (rnd.nextBoolean()) {
                    tree2d.move(h, b[0], b[1], b[3], b[4]);
                } else {
                    tree2d.move(h, b[0], b[1], b[3], b[4], dx, dy);
                }
            } else if (rnd.nextBoolean()) {
                tree.move(h, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                tree.move(h, b[0], b[1], b[2], b[3], b[4], b[5], dx, dy, dz);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------

    /** One query's parameters and its reference. */
    final class Query {
        double x;
        double y;
        double z;
        int k;
        double maxDistance;
        long mask;
        int filterKind;
        int exactKind;
        String desc;
    }

    Query randomQuery(World wd, Map<Integer, Obj> model) {
        SplittableRandom rnd = wd.rnd;
        Query q = new Query();
        List<Obj> objs = new ArrayList<>(model.values());
        int kind = rnd.nextInt(10);
        if (kind < 5 || objs.isEmpty()) {
            q.x = wd.coord(wd.ox, wd.w * 1.3);
            q.y = wd.coord(wd.oy, wd.w * 1.3);
            q.z = wd.planar && rnd.nextBoolean() ? 0 : wd.coord(wd.oz, wd.w * 1.3);
        } else {
            Obj o = objs.get(rnd.nextInt(objs.size()));
            // on a corner, face or inside
            q.x = pick(rnd, o.box[0], o.box[3], wd);
            q.y = pick(rnd, o.box[1], o.box[4], wd);
            q.z = wd.planar && rnd.nextInt(3) == 0 ? wd.coord(wd.oz, 3) : pick(rnd, o.box[2], o.box[5], wd);
        }
        int n = model.size();
        int[] ks = {0, 1, 1, 2, 3, 4, 5, 8, 16, 17, 40, n, n + 3, Math.max(0, n - 1)};
        q.k = ks[rnd.nextInt(ks.length)];
        q.mask = ExactNearest.MASKS[rnd.nextInt(ExactNearest.MASKS.length)];
        q.filterKind = rnd.nextInt(4);
        q.exactKind = rnd.nextInt(10) < 6 ? 0 : rnd.nextInt(1, 5);
        q.maxDistance = Double.POSITIVE_INFINITY;
        return q;
    }

    static double pick(SplittableRandom rnd, double lo, double hi, World wd) {
        switch (rnd.nextInt(4)) {
            case 0:
                return lo;
            case 1:
                return hi;
            case 2:
                return wd.grid ? lo + Math.round((hi - lo) * rnd.nextDouble() * 16) / 16.0
                        : lo + (hi - lo) * rnd.nextDouble();
            default:
                return wd.grid ? lo - Math.round(rnd.nextDouble() * 16 * 3) / 16.0 : lo - rnd.nextDouble() * wd.w / 10;
        }
    }

    /** The candidates of a query against a model (snapshot) in the frame of the given origin. */
    List<Cand> candidates(Query q, Map<Integer, Obj> model, double ox, double oy, double oz, boolean grid,
                          Map<Integer, Double> boxDistOut) {
        double px = q.x - ox;
        double py = q.y - oy;
        double pz = q.z - oz;
        List<Cand> out = new ArrayList<>();
        for (Map.Entry<Integer, Obj> e : model.entrySet()) {
            Obj o = e.getValue();
            int h = e.getKey();
            float[] s = ExactNearest.stored(o.box, ox, oy, oz);
            BigDecimal sq = ExactNearest.exactSquare(px, py, pz, s);
            double boxDist = ExactNearest.sqrt(sq);
            boxDistOut.put(h, boxDist);
            if ((o.cat & q.mask) == 0 || !ExactNearest.filterAccepts(q.filterKind, h, o.uv)) {
                continue;
            }
            if (q.exactKind == 0) {
                out.add(new Cand(0, h, sq, boxDist, o.uv));
            } else {
                double d = ExactNearest.exactDistance(q.exactKind, boxDist, o.uv, grid);
                double d2 = d * d;
                if (d >= 0 && d2 < Double.POSITIVE_INFINITY) {
                    out.add(new Cand(0, h, new BigDecimal(d2), Math.sqrt(d2), o.uv));
                }
            }
        }
        return out;
    }

    final NearestNeighbours dest = new NearestNeighbours();
    final NearestNeighbours scratch = new NearestNeighbours();
    final NearestNeighbours again = new NearestNeighbours();

    void runQueries(World wd, ReadableTree index, Map<Integer, Obj> model, int count, String where) {
        for (int i = 0; i < count; i++) {
            Query q = randomQuery(wd, model);
            Map<Integer, Double> boxDist = new java.util.HashMap<>();
            List<Cand> cands = candidates(q, model, wd.ox, wd.oy, wd.oz, wd.grid, boxDist);
            // maxDistance choices, some on an object's reported distance exactly
            int mk = wd.rnd.nextInt(10);
            if (mk < 3 && !cands.isEmpty()) {
                double d = cands.get(wd.rnd.nextInt(cands.size())).dist;
                q.maxDistance = mk == 2 && d > 0 ? Math.nextDown(d) : d;
            } else if (mk == 3) {
                q.maxDistance = wd.rnd.nextDouble() * wd.w;
            } else if (mk == 4) {
                q.maxDistance = 0;
            }
            final String[] bad = {null};
            QueryFilter filter = q.filterKind == 0 && wd.rnd.nextBoolean() ? null : (h, uv) -> {
                Obj o = model.get(h);
                if (o == null || o.uv != uv) {
                    bad[0] = "filter called with handle " + h + " uv " + uv + " model " + (o == null ? null : o.uv);
                }
                return ExactNearest.filterAccepts(q.filterKind, h, uv);
            };
            DistanceFunction exact = q.exactKind == 0 ? null : (h, uv, x, y, z) -> {
                Obj o = model.get(h);
                if (o == null || o.uv != uv || x != q.x || y != q.y || z != q.z) {
                    bad[0] = "exact called with handle " + h + " uv " + uv + " point " + x + "," + y + "," + z;
                    return -1;
                }
                return ExactNearest.exactDistance(q.exactKind, boxDist.get(h), uv, wd.grid);
            };
            q.desc = where + " " + wd.name + ": point (" + q.x + ", " + q.y + ", " + q.z + ") k " + q.k + " max "
                    + q.maxDistance + " mask " + Long.toHexString(q.mask) + " filter " + q.filterKind + " exact "
                    + q.exactKind + " n " + model.size();
            queries++;
            NearestQueries.kNearest(index, q.x, q.y, q.z, q.k, q.maxDistance, q.mask, filter, exact, dest);
            List<Got> got = ExactNearest.answer(dest);
            if (!got.isEmpty()) {
                nonEmptyAnswers++;
            }
            report(q, "kNearest", bad[0] != null ? bad[0]
                    : ExactNearest.check(cands, got, q.k, q.maxDistance, wd.grid, 1e-12));
            // maxDistance is closed on the reported distance: each result comes back with maxDistance = its distance
            if (!got.isEmpty() && bad[0] == null) {
                Got g = got.get(wd.rnd.nextInt(got.size()));
                NearestQueries.kNearest(index, q.x, q.y, q.z, model.size() + 1, g.dist, q.mask, filter, exact, again);
                boolean found = false;
                for (Got a : ExactNearest.answer(again)) {
                    found |= a.handle == g.handle && a.dist == g.dist;
                }
                if (!found) {
                    report(q, "closed maxDistance", g + " not reported again with maxDistance " + g.dist + ": "
                            + ExactNearest.answer(again));
                }
            }
            // nearest = k 1
            NearestQueries.nearest(index, q.x, q.y, q.z, q.maxDistance, q.mask, filter, exact, dest);
            report(q, "nearest", bad[0] != null ? bad[0]
                    : ExactNearest.check(cands, ExactNearest.answer(dest), 1, q.maxDistance, wd.grid, 1e-12));
            // browse: stop after m
            int m = wd.rnd.nextInt(0, cands.size() + 3);
            List<Got> visited = new ArrayList<>();
            NearestQueries.browseNearest(index, q.x, q.y, q.z, q.maxDistance, q.mask, filter, exact,
                    (h, uv, d) -> {
                        visited.add(new Got(0, h, d, uv));
                        return visited.size() < Math.max(m, 1);
                    }, scratch);
            int mm = Math.max(m, 1);
            String msg = ExactNearest.check(cands, visited, mm, q.maxDistance, wd.grid, 1e-12);
            if (msg == null) {
                List<Got> listed = ExactNearest.answer(scratch);
                if (!ExactNearest.sameAnswers(listed, visited)) {
                    msg = "browse scratch list " + listed + " differs from visits " + visited;
                }
            }
            if (msg == null) {
                NearestQueries.kNearest(index, q.x, q.y, q.z, mm, q.maxDistance, q.mask, filter, exact, again);
                if (!ExactNearest.sameAnswers(ExactNearest.answer(again), visited)) {
                    msg = "browse " + visited + " differs from kNearest(k=" + mm + ") " + ExactNearest.answer(again);
                }
            }
            report(q, "browseNearest(m=" + mm + ")", bad[0] != null ? bad[0] : msg);
        }
    }

    void report(Query q, String what, String msg) {
        if (msg != null) {
            failures++;
            if (messages.size() < 30) {
                messages.add(what + " " + q.desc + "\n   " + msg);
            }
        }
    }

    /** The stored floats the library keeps equal those computed by the reference's rounding rule. */
    void checkStored(World wd, ReadableTree index, Map<Integer, Obj> model) {
        float[] got = new float[6];
        for (Map.Entry<Integer, Obj> e : model.entrySet()) {
            index.getStoredTightBox(e.getKey(), got);
            float[] s = ExactNearest.stored(e.getValue().box, wd.ox, wd.oy, wd.oz);
            if (!java.util.Arrays.equals(got, s)) {
                failures++;
                if (messages.size() < 30) {
                    messages.add("stored box of " + e.getKey() + " in " + wd.name + ": "
                            + java.util.Arrays.toString(got)
                            + " vs reference " + java.util.Arrays.toString(s));
                }
            }
            if (index.userValue(e.getKey()) != e.getValue().uv || index.categoryBits(e.getKey()) != e.getValue().cat) {
                failures++;
                messages.add("user value / category of " + e.getKey() + " in " + wd.name);
            }
        }
        if (index.size() != model.size()) {
            failures++;
            messages.add("size " + index.size() + " vs " + model.size() + " in " + wd.name);
        }
    }

    static final class HeldView {
        final ReadView view;
        final Map<Integer, Obj> model;

        HeldView(ReadView view, Map<Integer, Obj> model) {
            this.view = view;
            this.model = model;
        }
    }

    @Test
    void nearestMatchesExactReference() {
        long seeds = Long.getLong("nearest.seeds", 40);
        long first = Long.getLong("nearest.first", 1);
        for (long seed = first; seed < first + seeds; seed++) {
            World wd = new World(seed);
            worlds++;
            TreeSnapshots snapshots = new TreeSnapshots(wd.tree);
            Deque<HeldView> held = new ArrayDeque<>();
            int rounds = wd.rnd.nextInt(3, 12);
            for (int r = 0; r < rounds; r++) {
                int muts = wd.rnd.nextInt(0, (r == 0 ? 150 : 40) * Integer.getInteger("nearest.scale", 1));
                for (int i = 0; i < muts; i++) {
                    wd.mutate();
                }
                runQueries(wd, wd.tree, wd.model, 6, "tree");
                wd.tree.validate();
                checkStored(wd, wd.tree, wd.model);
                // views: query those held (taken before the mutations above) against their snapshot
                for (HeldView hv : held) {
                    runQueries(wd, hv.view, hv.model, 3, "view v" + hv.view.version());
                }
                if (wd.rnd.nextInt(3) == 0) {
                    snapshots.publish();
                    held.addLast(new HeldView(snapshots.acquire(), new LinkedHashMap<>(wd.model)));
                    if (held.size() > 2) {
                        held.removeFirst().view.close();
                    }
                }
            }
            for (HeldView hv : held) {
                checkStored(wd, hv.view, hv.model);
                hv.view.close();
            }
        }
        System.out.println("NearestExactFuzzTest: worlds " + worlds + ", query sets " + queries + " (x3 forms), "
                + "non-empty " + nonEmptyAnswers + ", failures " + failures);
        for (String m : messages) {
            System.out.println(m);
        }
        assertTrue(failures == 0, failures + " failures; first: " + (messages.isEmpty() ? "" : messages.get(0)));
    }
}
