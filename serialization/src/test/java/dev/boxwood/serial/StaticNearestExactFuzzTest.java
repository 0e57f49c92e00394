package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.testkit.ExactNearest;
import dev.boxwood.testkit.ExactNearest.Cand;
import dev.boxwood.testkit.ExactNearest.Got;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nearest queries of mapped static worlds and tiled worlds against an exact reference (BigDecimal squares on the
 * stored floats computed independently from each file's origin), with category masks, filters, distance
 * functions, points on tile borders, k beyond a tile's size and maxDistance across tiles.
 */
class StaticNearestExactFuzzTest {

    @TempDir
    Path dir;

    int worlds;
    int tiledWorlds;
    int queries;
    int nonEmpty;
    int failures;
    int strictWorlds;
    final List<String> messages = new ArrayList<>();

    /** One object as the reference sees it in one index (part = tile). */
    static final class Ref {
        final int part;
        final int handle;
        final float[] stored;
        final long uv;
        final long cat;

        Ref(int part, int handle, float[] stored, long uv, long cat) {
            this.part = part;
            this.handle = handle;
            this.stored = stored;
            this.uv = uv;
            this.cat = cat;
        }
    }

    /** An index part: its origin and objects. */
    static final class Part {
        final double ox;
        final double oy;
        final double oz;
        final List<Ref> refs = new ArrayList<>();

        Part(double ox, double oy, double oz) {
            this.ox = ox;
            this.oy = oy;
            this.oz = oz;
        }
    }

    static boolean onGrid(double v) {
        return v == Math.rint(v * 4096) / 4096;
    }

    @Test
    void staticWorldsMatchExactReference() throws IOException {
        long seeds = Long.getLong("nearest.seeds", 6);
        long first = Long.getLong("nearest.first", 1);
        for (long seed = first; seed < first + seeds; seed++) {
            runWorld(seed);
        }
        System.out.println("StaticNearestExactFuzzTest: worlds " + worlds + " (tiled " + tiledWorlds + ", strict "
                + strictWorlds + "), queries " + queries + " (x3 forms), non-empty " + nonEmpty + ", failures "
                + failures);
        for (String m : messages) {
            System.out.println(m);
        }
        assertTrue(failures == 0, failures + " failures; first: " + (messages.isEmpty() ? "" : messages.get(0)));
    }

    void runWorld(long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed * 7919);
        boolean grid = rnd.nextInt(3) != 0;
        double[] origins = grid ? new double[] {0, 1_000_000, 33_554_432.5, -123_456_789.25}
                : new double[] {0, 12_345_678.901, -3.3e6 + 0.1, 1e-3};
        double cx = origins[rnd.nextInt(origins.length)];
        double cy = origins[rnd.nextInt(origins.length)];
        double cz = origins[rnd.nextInt(origins.length)];
        double[] sizes = grid ? new double[] {2, 8, 40, 500, 1800} : new double[] {1, 30, 1000, 1e5};
        double w = sizes[rnd.nextInt(sizes.length)];
        int[] counts = {0, 1, 2, 5, 17, 60, 200, 300, 800, 1500};
        int n = counts[rnd.nextInt(counts.length)];
        double[] boxes = new double[6 * n];
        long[] cats = new long[n];
        long[] uvs = new long[n];
        boolean clustered = rnd.nextBoolean();
        for (int i = 0; i < n; i++) {
            double[] c = {cx, cy, cz};
            for (int a = 0; a < 3; a++) {
                double r = clustered && rnd.nextBoolean() ? w / 10 : w;
                double centre = c[a] + (grid ? Math.round(rnd.nextDouble(-r, r) * 16) / 16.0 : rnd.nextDouble(-r, r));
                double e;
                switch (rnd.nextInt(4)) {
                    case 0:
                        e = 0;
                        break;
                    case 1:
                        e = rnd.nextDouble() * w / 100;
                        break;
                    case 2:
                        e = rnd.nextDouble() * w / 10;
                        break;
                    default:
                        e = rnd.nextDouble() * w / 3;
                }
                if (grid) {
                    e = Math.round(e * 16) / 16.0;
                }
                boxes[6 * i + a] = centre - e;
                boxes[6 * i + 3 + a] = centre + e;
            }
            cats[i] = rnd.nextInt(8) == 0 ? rnd.nextLong()
                    : ExactNearest.CATEGORIES[rnd.nextInt(ExactNearest.CATEGORIES.length)];
            uvs[i] = 1000L * i + rnd.nextInt(1000) - 500_000L; // unique per object
        }
        Map<Long, Integer> indexOfUv = new HashMap<>();
        for (int i = 0; i < n; i++) {
            indexOfUv.put(uvs[i], i);
        }
        String name = "seed " + seed + (grid ? " grid" : " offgrid") + " n " + n + " w " + w + " centre (" + cx + ", "
                + cy + ", " + cz + ")";
        worlds++;
        long t0 = System.nanoTime();
        // ---- mapped world
        Path file = dir.resolve("w" + seed + ".bxw");
        StaticWorldWriter.write(file, boxes, uvs, cats, null);
        try (MappedWorld world = MappedWorld.open(file)) {
            Part part = new Part(world.originX(), world.originY(), world.originZ());
            boolean strict = grid && onGrid(part.ox) && onGrid(part.oy) && onGrid(part.oz);
            strict &= collect(world, 0, part, boxes, cats, indexOfUv, name);
            if (strict) {
                strictWorlds++;
            }
            List<Part> parts = List.of(part);
            for (int q = 0; q < 60; q++) {
                query(rnd, parts, null, world, null, null, strict, w, cx, cy, cz, name + " mapped", 0);
            }
        } finally {
            Files.deleteIfExists(file);
        }
        long t1 = System.nanoTime();
        // ---- tiled world
        if (n == 0) {
            return;
        }
        tiledWorlds++;
        double[] cells = {w / 5, w / 4, w / 2, w / 1.5, w * 3};
        double cell = cells[rnd.nextInt(cells.length)];
        if (grid) {
            cell = Math.max(1, Math.round(cell));
        }
        Path sub = Files.createDirectory(dir.resolve("t" + seed));
        List<Path> tiles = new ArrayList<>(TileSetWriter.writeGrid(sub, "t", boxes, uvs, cats, cell));
        if (Boolean.getBoolean("nearest.timing")) {
            System.out.printf("%s mapped %.1f s, tiles written %.1f s (%d)%n", name, (t1 - t0) / 1e9,
                    (System.nanoTime() - t1) / 1e9, tiles.size());
        }
        if (rnd.nextBoolean()) {
            Collections.shuffle(tiles, new Random(seed));
        }
        if (rnd.nextInt(5) == 0) {
            Path empty = sub.resolve("empty.bxw");
            StaticWorldWriter.write(empty, new double[0], null, null, null);
            tiles.add(rnd.nextInt(tiles.size() + 1), empty);
        }
        long[] budgets = {0, 200_000, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        long budget = budgets[rnd.nextInt(budgets.length)];
        try (TiledWorld tiled = TiledWorld.open(tiles, budget)) {
            List<Part> parts = new ArrayList<>();
            boolean strict = grid;
            int total = 0;
            for (int t = 0; t < tiled.tileCount(); t++) {
                try (MappedWorld tw = MappedWorld.open(tiled.tileFile(t))) {
                    Part p = new Part(tw.originX(), tw.originY(), tw.originZ());
                    strict &= onGrid(p.ox) && onGrid(p.oy) && onGrid(p.oz);
                    strict &= collect(tw, t, p, boxes, cats, indexOfUv, name + " tile " + t);
                    total += p.refs.size();
                    // the tiled world's own accessors agree
                    for (Ref r : p.refs.subList(0, Math.min(3, p.refs.size()))) {
                        if (tiled.userValue(t, r.handle) != r.uv || tiled.categoryBits(t, r.handle) != r.cat) {
                            fail(name + " tiled accessors of tile " + t + " handle " + r.handle);
                        }
                    }
                    parts.add(p);
                }
            }
            if (total != n) {
                fail(name + " tiles hold " + total + " objects, world " + n);
            }
            TiledWorld.Scratch scratch = new TiledWorld.Scratch();
            int tq = budget == 0 && tiles.size() > 20 ? 10 : 60;
            for (int q = 0; q < tq; q++) {
                query(rnd, parts, tiled, null, scratch, boxes, strict, w, cx, cy, cz,
                        name + " tiled (" + tiled.tileCount() + " tiles, cell " + cell + ")", cell);
            }
        }
    }

    /** Reads a world's objects into the reference; returns whether every stored float is exact (strict mode). */
    boolean collect(MappedWorld world, int partIndex, Part part, double[] boxes, long[] cats,
                    Map<Long, Integer> indexOfUv, String name) {
        boolean exact = true;
        double[] got = new double[6];
        for (int h = 0; h < world.size(); h++) {
            long uv = world.userValue(h);
            Integer i = indexOfUv.get(uv);
            if (i == null) {
                fail(name + ": handle " + h + " has unknown user value " + uv);
                continue;
            }
            double[] box = Arrays.copyOfRange(boxes, 6 * i, 6 * i + 6);
            float[] s = ExactNearest.stored(box, part.ox, part.oy, part.oz);
            world.getTightBox(h, got);
            double[] o = {part.ox, part.oy, part.oz};
            for (int a = 0; a < 6; a++) {
                if (got[a] != o[a % 3] + s[a]) {
                    fail(name + ": stored box of handle " + h + " " + Arrays.toString(got) + " vs reference floats "
                            + Arrays.toString(s) + " + origin " + Arrays.toString(o));
                    break;
                }
                if (s[a] != box[a] - o[a % 3]) {
                    exact = false;
                }
            }
            if (world.categoryBits(h) != cats[i]) {
                fail(name + ": categories of handle " + h);
            }
            part.refs.add(new Ref(partIndex, h, s, uv, cats[i]));
        }
        return exact;
    }

    void fail(String m) {
        failures++;
        if (messages.size() < 30) {
            messages.add(m);
        }
    }

    final NearestNeighbours dest = new NearestNeighbours();
    final NearestNeighbours scratchList = new NearestNeighbours();
    final NearestNeighbours again = new NearestNeighbours();

    double coord(SplittableRandom rnd, double c, double range, boolean grid) {
        return c + (grid ? Math.round(rnd.nextDouble(-range, range) * 16) / 16.0 : rnd.nextDouble(-range, range));
    }

    void query(SplittableRandom rnd, List<Part> parts, TiledWorld tiled, MappedWorld mapped, TiledWorld.Scratch ts,
               double[] boxes, boolean strict, double w, double cx, double cy, double cz, String name, double cell) {
        double x;
        double y;
        double z;
        int kind = rnd.nextInt(10);
        List<Ref> all = new ArrayList<>();
        for (Part p : parts) {
            all.addAll(p.refs);
        }
        if (kind < 4 || all.isEmpty()) {
            x = coord(rnd, cx, w * 1.3, strict);
            y = coord(rnd, cy, w * 1.3, strict);
            z = coord(rnd, cz, w * 1.3, strict);
        } else if (kind < 7 && cell > 0) {
            // on a cell border (a multiple of the cell size) on one or more axes
            x = coord(rnd, cx, w, strict);
            y = coord(rnd, cy, w, strict);
            z = coord(rnd, cz, w, strict);
            double[] p = {x, y, z};
            for (int a = 0; a < 3; a++) {
                if (rnd.nextBoolean()) {
                    p[a] = Math.floor(p[a] / cell) * cell;
                }
            }
            x = p[0];
            y = p[1];
            z = p[2];
        } else {
            Ref r = all.get(rnd.nextInt(all.size()));
            Part p = parts.get(r.part);
            x = p.ox + r.stored[rnd.nextBoolean() ? 0 : 3];
            y = p.oy + r.stored[rnd.nextBoolean() ? 1 : 4];
            z = p.oz + r.stored[rnd.nextBoolean() ? 2 : 5] + (rnd.nextBoolean() ? 0 : (strict ? 0.5 : 0.3));
        }
        int total = all.size();
        int[] ks = {0, 1, 1, 2, 3, 5, 16, 17, 33, 100, total, total + 1, 300};
        int k = ks[rnd.nextInt(ks.length)];
        long mask = ExactNearest.MASKS[rnd.nextInt(ExactNearest.MASKS.length)];
        int filterKind = rnd.nextInt(4);
        int exactKind = rnd.nextInt(10) < 6 ? 0 : rnd.nextInt(1, 5);
        // the reference
        Map<Long, Double> boxDist = new HashMap<>();
        List<Cand> cands = new ArrayList<>();
        for (Part p : parts) {
            double px = x - p.ox;
            double py = y - p.oy;
            double pz = z - p.oz;
            for (Ref r : p.refs) {
                BigDecimal sq = ExactNearest.exactSquare(px, py, pz, r.stored);
                double bd = ExactNearest.sqrt(sq);
                boxDist.put(((long) r.part << 32) | r.handle, bd);
                if ((r.cat & mask) == 0 || !ExactNearest.filterAccepts(filterKind, r.handle, r.uv)) {
                    continue;
                }
                if (exactKind == 0) {
                    cands.add(new Cand(r.part, r.handle, sq, bd, r.uv));
                } else {
                    double d = ExactNearest.exactDistance(exactKind, bd, r.uv, strict);
                    double d2 = d * d;
                    if (d >= 0 && d2 < Double.POSITIVE_INFINITY) {
                        cands.add(new Cand(r.part, r.handle, new BigDecimal(d2), Math.sqrt(d2), r.uv));
                    }
                }
            }
        }
        double maxDistance = Double.POSITIVE_INFINITY;
        int mk = rnd.nextInt(10);
        if (mk < 3 && !cands.isEmpty()) {
            double d = cands.get(rnd.nextInt(cands.size())).dist;
            maxDistance = mk == 2 && d > 0 ? Math.nextDown(d) : d;
        } else if (mk == 3) {
            maxDistance = rnd.nextDouble() * w;
        } else if (mk == 4) {
            maxDistance = cell > 0 ? cell * rnd.nextInt(1, 3) : 0;
        }
        final String[] bad = {null};
        final double fx = x;
        final double fy = y;
        final double fz = z;
        QueryFilter filter = filterKind == 0 && rnd.nextBoolean() ? null : (h, uv) -> {
            int part = ts == null ? 0 : ts.tile();
            if (part < 0 || part >= parts.size() || h < 0 || h >= parts.get(part).refs.size()
                    || parts.get(part).refs.get(h).uv != uv) {
                bad[0] = "filter called with tile " + part + " handle " + h + " uv " + uv;
            }
            return ExactNearest.filterAccepts(filterKind, h, uv);
        };
        DistanceFunction exact = exactKind == 0 ? null : (h, uv, px, py, pz) -> {
            int part = ts == null ? 0 : ts.tile();
            Double bd = boxDist.get(((long) part << 32) | h);
            if (bd == null || px != fx || py != fy || pz != fz || parts.get(part).refs.get(h).uv != uv) {
                bad[0] = "exact called with tile " + part + " handle " + h + " uv " + uv;
                return -1;
            }
            return ExactNearest.exactDistance(exactKind, bd, uv, strict);
        };
        String desc = name + ": point (" + x + ", " + y + ", " + z + ") k " + k + " max " + maxDistance + " mask "
                + Long.toHexString(mask) + " filter " + filterKind + " exact " + exactKind;
        queries++;
        if (tiled != null) {
            tiled.kNearest(x, y, z, k, maxDistance, mask, filter, exact, dest, ts);
        } else {
            mapped.kNearest(x, y, z, k, maxDistance, mask, filter, exact, dest);
        }
        List<Got> got = ExactNearest.answer(dest);
        if (!got.isEmpty()) {
            nonEmpty++;
        }
        report(desc, "kNearest", bad[0] != null ? bad[0]
                : ExactNearest.check(cands, got, k, maxDistance, strict, 1e-12));
        if (!got.isEmpty() && bad[0] == null) {
            Got g = got.get(rnd.nextInt(got.size()));
            if (tiled != null) {
                tiled.kNearest(x, y, z, total + 1, g.dist, mask, filter, exact, again, ts);
            } else {
                mapped.kNearest(x, y, z, total + 1, g.dist, mask, filter, exact, again);
            }
            boolean found = false;
            for (Got a : ExactNearest.answer(again)) {
                found |= a.handle == g.handle && a.part == g.part && a.dist == g.dist;
            }
            if (!found) {
                report(desc, "closed maxDistance", g + " not reported again with maxDistance " + g.dist + ": "
                        + ExactNearest.answer(again));
            }
        }
        if (tiled != null) {
            tiled.nearest(x, y, z, maxDistance, mask, filter, exact, dest, ts);
        } else {
            mapped.nearest(x, y, z, maxDistance, mask, filter, exact, dest);
        }
        report(desc, "nearest", bad[0] != null ? bad[0]
                : ExactNearest.check(cands, ExactNearest.answer(dest), 1, maxDistance, strict, 1e-12));
        int m = Math.max(1, rnd.nextInt(0, cands.size() + 3));
        List<Got> visited = new ArrayList<>();
        if (tiled != null) {
            tiled.browseNearest(x, y, z, maxDistance, mask, filter, exact, (h, uv, d) -> {
                visited.add(new Got(ts.tile(), h, d, uv));
                return visited.size() < m;
            }, scratchList, ts);
        } else {
            mapped.browseNearest(x, y, z, maxDistance, mask, filter, exact, (h, uv, d) -> {
                visited.add(new Got(0, h, d, uv));
                return visited.size() < m;
            }, scratchList);
        }
        String msg = ExactNearest.check(cands, visited, m, maxDistance, strict, 1e-12);
        if (msg == null) {
            List<Got> listed = ExactNearest.answer(scratchList);
            if (listed.size() < visited.size()
                    || !ExactNearest.sameAnswers(listed.subList(0, visited.size()), visited)) {
                msg = "browse list " + listed + " does not start with the visits " + visited;
            }
        }
        if (msg == null) {
            if (tiled != null) {
                tiled.kNearest(x, y, z, m, maxDistance, mask, filter, exact, again, ts);
            } else {
                mapped.kNearest(x, y, z, m, maxDistance, mask, filter, exact, again);
            }
            if (!ExactNearest.sameAnswers(ExactNearest.answer(again), visited)) {
                msg = "browse " + visited + " differs from kNearest(k=" + m + ") " + ExactNearest.answer(again);
            }
        }
        report(desc, "browseNearest(m=" + m + ")", bad[0] != null ? bad[0] : msg);
    }

    void report(String desc, String what, String msg) {
        if (msg != null) {
            fail(what + " " + desc + "\n   " + msg);
        }
    }
}
