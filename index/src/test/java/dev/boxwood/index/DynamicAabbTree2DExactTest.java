package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

import dev.boxwood.geom.SurfaceHit;
import dev.boxwood.geom2d.Intersect2;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.Exact2D;
import dev.boxwood.testkit.ExactGeometry;
import dev.boxwood.testkit.ExactOracle;
import org.junit.jupiter.api.Test;

/**
 * The 2D facade against an exact reference ({@link Exact2D}) under the frame rule: rectangles on a grid (exact
 * touches along edges and corners, zero-size rectangles) around near and far origins, mutated by add, move, remove
 * and the batch forms with {@code validate()} after each step; rectangle queries, casts (all, closest, any hit,
 * ignored handles, filter, mask) and hit points and normals of {@link Intersect2#surfaceSegmentRect} on the reported
 * fraction. Larger runs: {@code -Dboxwood.exact2d.rounds=N} (default 6 worlds per origin).
 */
class DynamicAabbTree2DExactTest {

    private static final int ROUNDS = Integer.getInteger("boxwood.exact2d.rounds", 6);
    private static final double[][] ORIGINS = {
        {0, 0}, {1e6 + 0.5, -3e6}, {-7.25e7, 4.5e7}, {1e12, -1e12},
    };

    /** Counters reported at the end, so a run says what it checked. */
    private long boxQueries;
    private long casts;
    private long mustHits;
    private long surfaces;
    private long ties;

    @Test
    void shouldMatchTheExactReferenceOnGridWorlds() {
        for (double[] origin : ORIGINS) {
            for (int round = 0; round < ROUNDS; round++) {
                world(new SplittableRandom(1000L * round + (long) origin[0] % 977), origin[0], origin[1]);
            }
        }
        System.out.printf("2D exact: %d box queries, %d casts (%d exact hits), %d surfaces, %d exact closest ties%n",
                boxQueries, casts, mustHits, surfaces, ties);
    }

    private void world(SplittableRandom r, double ox, double oy) {
        double g = r.nextBoolean() ? 0.25 : 1.0;
        // world coordinates: the grid is taken about a point near the origin but not at it
        double cx = ox + g * (r.nextInt(64) - 32);
        double cy = oy + g * (r.nextInt(64) - 32);
        int span = 24;
        DynamicAabbTree2D tree = new DynamicAabbTree2D(TreeConfig.defaults().withOrigin(ox, oy, 0));
        Map<Integer, Long> live = new HashMap<>();
        TraversalStack stack = new TraversalStack();
        int ops = 60 + r.nextInt(120);
        for (int op = 0; op < ops; op++) {
            int kind = r.nextInt(10);
            if (live.isEmpty() || kind < 4) {
                double[] rect = gridRect(r, g, cx, cy, span);
                long cat = 1L << r.nextInt(3);
                int h = tree.add(rect[0], rect[1], rect[2], rect[3], op, cat);
                live.put(h, cat);
            } else if (kind < 6) {
                int h = pick(r, live);
                double[] rect = gridRect(r, g, cx, cy, span);
                if (r.nextBoolean()) {
                    tree.move(h, rect[0], rect[1], rect[2], rect[3]);
                } else {
                    tree.move(h, rect[0], rect[1], rect[2], rect[3], g * (r.nextInt(9) - 4), g * (r.nextInt(9) - 4));
                }
            } else if (kind == 6) {
                int h = pick(r, live);
                tree.remove(h);
                live.remove(h);
            } else if (kind == 7) {
                int n = 1 + r.nextInt(12);
                double[] rects = new double[4 * n];
                long[] cats = new long[n];
                long[] users = new long[n];
                for (int i = 0; i < n; i++) {
                    double[] rect = gridRect(r, g, cx, cy, span);
                    System.arraycopy(rect, 0, rects, 4 * i, 4);
                    cats[i] = 1L << r.nextInt(3);
                    users[i] = 10_000 + i;
                }
                int[] hs = tree.addAll(rects, users, cats);
                for (int i = 0; i < n; i++) {
                    live.put(hs[i], cats[i]);
                }
            } else if (kind == 8 && live.size() > 4) {
                List<Integer> all = new ArrayList<>(new TreeSet<>(live.keySet()));
                int n = 1 + r.nextInt(Math.min(4, all.size()));
                int[] hs = new int[n];
                for (int i = 0; i < n; i++) {
                    hs[i] = all.remove(r.nextInt(all.size()));
                    live.remove(hs[i]);
                }
                tree.removeAll(hs);
            } else {
                queries(r, tree, live, g, cx, cy, span, stack);
            }
            tree.validate();
            assertEquals(live.size(), tree.size());
        }
        for (int q = 0; q < 20; q++) {
            queries(r, tree, live, g, cx, cy, span, stack);
        }
    }

    private static int pick(SplittableRandom r, Map<Integer, Long> live) {
        List<Integer> all = new ArrayList<>(new TreeSet<>(live.keySet()));
        return all.get(r.nextInt(all.size()));
    }

    /** A grid rectangle: often zero width, zero height or a point. */
    private static double[] gridRect(SplittableRandom r, double g, double cx, double cy, int span) {
        int x0 = r.nextInt(span) - span / 2;
        int y0 = r.nextInt(span) - span / 2;
        int w = r.nextInt(5) == 0 ? 0 : r.nextInt(4);
        int h = r.nextInt(5) == 0 ? 0 : r.nextInt(4);
        return new double[] {cx + g * x0, cy + g * y0, cx + g * (x0 + w), cy + g * (y0 + h)};
    }

    private void queries(SplittableRandom r, DynamicAabbTree2D tree, Map<Integer, Long> live, double g, double cx,
                         double cy, int span, TraversalStack stack) {
        DynamicAabbTree t3 = tree.tree();
        double ox = t3.originX();
        double oy = t3.originY();
        Map<Integer, double[]> stored = new HashMap<>();
        float[] f = new float[6];
        for (int h : live.keySet()) {
            t3.getStoredTightBox(h, f);
            assertEquals(0f, f[2]);
            assertEquals(0f, f[5]);
            stored.put(h, new double[] {f[0], f[1], f[3], f[4]});
        }
        // ---- rectangle query
        double[] q = gridRect(r, g, cx, cy, span);
        long mask = r.nextInt(3) == 0 ? -1L : (long) (1 + r.nextInt(7));
        AllOverlaps found = new AllOverlaps();
        tree.queryAabb(q[0], q[1], q[2], q[3], mask, found, stack);
        TreeSet<Integer> got = new TreeSet<>();
        for (int i = 0; i < found.count(); i++) {
            assertTrue(got.add(found.handle(i)), "reported twice");
        }
        double[] qf = {q[0] - ox, q[1] - oy, q[2] - ox, q[3] - oy};
        TreeSet<Integer> want = new TreeSet<>();
        for (Map.Entry<Integer, double[]> e : stored.entrySet()) {
            if ((live.get(e.getKey()) & mask) != 0 && Exact2D.overlaps(qf, e.getValue())) {
                want.add(e.getKey());
            }
        }
        assertEquals(want, got, () -> "queryAabb " + java.util.Arrays.toString(q) + " mask " + mask);
        boxQueries++;
        // ---- casts
        for (int c = 0; c < 6; c++) {
            cast(r, tree, live, stored, g, cx, cy, span, stack, mask);
        }
    }

    private void cast(SplittableRandom r, DynamicAabbTree2D tree, Map<Integer, Long> live,
                      Map<Integer, double[]> stored, double g, double cx, double cy, int span, TraversalStack stack,
                      long mask) {
        DynamicAabbTree t3 = tree.tree();
        double orx = t3.originX();
        double ory = t3.originY();
        double sx = cx + g * (r.nextInt(span + 8) - span / 2 - 4) + (r.nextInt(4) == 0 ? g * 0.5 : 0);
        double sy = cy + g * (r.nextInt(span + 8) - span / 2 - 4);
        double dx;
        double dy;
        switch (r.nextInt(6)) {
            case 0 -> { // parallel to x (along grid lines: lies on edges)
                dx = g * (r.nextInt(41) - 20);
                dy = 0;
            }
            case 1 -> {
                dx = 0;
                dy = g * (r.nextInt(41) - 20);
            }
            case 2 -> { // diagonal through corners
                int k = r.nextInt(21) - 10;
                dx = g * k;
                dy = g * k * (r.nextBoolean() ? 1 : -1);
            }
            case 3 -> { // zero length
                dx = 0;
                dy = 0;
            }
            default -> {
                dx = g * (r.nextInt(41) - 20) / (1 + r.nextInt(3));
                dy = g * (r.nextInt(41) - 20) / (1 + r.nextInt(3));
            }
        }
        double maxFraction = r.nextInt(3) == 0 ? 1.0 : (r.nextInt(4)) * 0.5;
        double fx = sx - orx;
        double fy = sy - ory;
        // exact answers
        Map<Integer, ExactGeometry.SegmentResult> exact = new HashMap<>();
        int ignoreA = r.nextInt(3) == 0 && !live.isEmpty() ? pick(r, live) : Handles.NONE;
        int ignoreB = r.nextInt(4) == 0 && !live.isEmpty() ? pick(r, live) : Handles.NONE;
        boolean useFilter = r.nextInt(4) == 0;
        for (Map.Entry<Integer, double[]> e : stored.entrySet()) {
            exact.put(e.getKey(), Exact2D.segment(fx, fy, dx, dy, maxFraction, e.getValue()));
        }
        java.util.function.IntPredicate candidate = h -> (live.get(h) & mask) != 0 && h != ignoreA && h != ignoreB
                && (!useFilter || h % 3 != 1);
        String what = String.format("cast o=(%s, %s) d=(%s, %s) max=%s origin=(%s, %s) mask=%d ignore=%d,%d filter=%b",
                sx, sy, dx, dy, maxFraction, orx, ory, mask, ignoreA, ignoreB, useFilter);
        // all hits
        AllHits all = new AllHits();
        all.setIgnored(ignoreA, ignoreB);
        if (useFilter) {
            all.setFilter((h, v) -> h % 3 != 1);
        }
        tree.rayCast(sx, sy, dx, dy, maxFraction, mask, all, stack);
        Map<Integer, Double> reported = new HashMap<>();
        for (int i = 0; i < all.count(); i++) {
            assertTrue(reported.put(all.handle(i), all.fraction(i)) == null, "twice: " + what);
        }
        casts++;
        for (Map.Entry<Integer, ExactGeometry.SegmentResult> e : exact.entrySet()) {
            int h = e.getKey();
            ExactGeometry.SegmentResult x = e.getValue();
            Double rf = reported.get(h);
            if (!candidate.test(h)) {
                assertTrue(rf == null, () -> "ignored/masked object reported " + h + " " + what);
                continue;
            }
            if (x.hit) {
                mustHits++;
                assertTrue(rf != null, () -> "exact hit missed: " + h + " box " + java.util.Arrays.toString(
                        stored.get(h)) + " entry " + x.entry + " " + what);
                assertTrue(ExactGeometry.fractionAgrees(rf, x.entry, 4, 0), () -> "fraction " + rf + " vs exact "
                        + x.entry + " object " + h + " " + what);
                if (x.entryAxis < 0) {
                    assertEquals(0.0, rf, () -> "start inside/on must be 0: " + h + " " + what);
                }
            } else if (rf != null) {
                assertTrue(x.relativeMiss() <= ExactOracle.SLAB_BAND, () -> "false hit " + h + " miss "
                        + x.relativeMiss() + " " + what);
            }
        }
        // closest: the smallest reported fraction, lowest handle among those
        double best = Double.POSITIVE_INFINITY;
        int bestHandle = Handles.NONE;
        for (Map.Entry<Integer, Double> e : reported.entrySet()) {
            if (e.getValue() < best || e.getValue() == best && e.getKey() < bestHandle) {
                best = e.getValue();
                bestHandle = e.getKey();
            }
        }
        ClosestHit closest = new ClosestHit();
        closest.setIgnored(ignoreA, ignoreB);
        if (useFilter) {
            closest.setFilter((h, v) -> h % 3 != 1);
        }
        tree.rayCast(sx, sy, dx, dy, maxFraction, mask, closest, stack);
        assertEquals(bestHandle, closest.handle(), "closest handle " + what);
        if (bestHandle != Handles.NONE) {
            assertEquals(best, closest.fraction(), "closest fraction " + what);
            // exact closest: lowest exact entry among exact hits; lowest handle on exact ties with the same plane
            ExactGeometry.Rational min = null;
            for (Map.Entry<Integer, ExactGeometry.SegmentResult> e : exact.entrySet()) {
                if (candidate.test(e.getKey()) && e.getValue().hit
                        && (min == null || e.getValue().entry.compareTo(min) < 0)) {
                    min = e.getValue().entry;
                }
            }
            if (min != null) {
                ExactGeometry.Rational m = min;
                double bf = best;
                ExactGeometry.SegmentResult kept = exact.get(bestHandle);
                // the kept object: an exact hit at the exact minimum, or (documented slab slack) a near miss by a
                // relative few ulps entered no later than it
                assertTrue(kept.hit ? ExactGeometry.fractionAgrees(best, min, 4, 0)
                        : kept.relativeMiss() <= ExactOracle.SLAB_BAND && (kept.entry.compareTo(min) <= 0
                        || ExactGeometry.fractionAgrees(best, min, 4, 0)), () -> "closest " + bf + " vs exact " + m
                        + " " + what);
                int lowestTied = Integer.MAX_VALUE;
                for (Map.Entry<Integer, ExactGeometry.SegmentResult> e : exact.entrySet()) {
                    ExactGeometry.SegmentResult x = e.getValue();
                    if (candidate.test(e.getKey()) && x.hit && x.entry.compareTo(min) == 0) {
                        lowestTied = Math.min(lowestTied, e.getKey());
                    }
                }
                ExactGeometry.SegmentResult chosen = exact.get(bestHandle);
                ExactGeometry.SegmentResult lowest = exact.get(lowestTied);
                if (chosen.hit && chosen.entry.compareTo(min) == 0 && chosen.entryAxis == lowest.entryAxis
                        && chosen.entryPlane == lowest.entryPlane) {
                    ties++;
                    assertEquals(lowestTied, bestHandle, "tie by lower handle " + what);
                }
            }
            surface(tree, bestHandle, sx, sy, dx, dy, best, fx, fy, stored.get(bestHandle), what);
        }
        exactTestHook(tree, reported, sx, sy, dx, dy, maxFraction, mask, ignoreA, ignoreB, stack, what);
        // any hit
        AnyHit any = new AnyHit();
        any.setIgnored(ignoreA, ignoreB);
        if (useFilter) {
            any.setFilter((h, v) -> h % 3 != 1);
        }
        tree.rayCast(sx, sy, dx, dy, maxFraction, mask, any, stack);
        assertEquals(!reported.isEmpty(), any.hasHit(), "any hit " + what);
        if (any.hasHit()) {
            assertTrue(reported.containsKey(any.handle()), "any hit object " + what);
            assertEquals(reported.get(any.handle()), any.fraction(), "any hit fraction " + what);
        } else {
            assertEquals(Handles.NONE, any.handle());
            assertEquals(-1.0, any.fraction());
            assertEquals(-1, any.part());
        }
    }

    /**
     * The exact-test hook: each rectangle's inscribed disc as the object's shape ({@link Intersect2
     * #intersectSegmentCircle} in world coordinates). The closest hit must be the smallest kernel fraction among the
     * objects whose boxes the cast reports, lowest handle on ties, bit for bit; its surface point lies on the circle
     * and the normal points from the centre.
     */
    private void exactTestHook(DynamicAabbTree2D tree, Map<Integer, Double> boxHits, double sx, double sy,
                               double dx, double dy, double maxFraction, long mask, int ignoreA, int ignoreB,
                               TraversalStack stack, String what) {
        DynamicAabbTree t3 = tree.tree();
        dev.boxwood.geom2d.SegmentHit2 sh = new dev.boxwood.geom2d.SegmentHit2();
        double[] box = new double[6];
        int[] calls = new int[1];
        dev.boxwood.query.SegmentIntersector disc = (h, v, ox, oy, oz, tx, ty, tz, max) -> {
            calls[0]++;
            assertEquals(0.0, oz, "z of the origin handed to the exact test");
            assertEquals(0.0, tz, "z of the translation handed to the exact test");
            assertEquals(sx, ox, what);
            assertEquals(sy, oy, what);
            assertEquals(maxFraction, max, what);
            t3.getTightBox(h, box);
            double rad = 0.5 * Math.min(box[3] - box[0], box[4] - box[1]);
            return Intersect2.intersectSegmentCircle(ox, oy, tx, ty, max, 0.5 * (box[0] + box[3]),
                    0.5 * (box[1] + box[4]), rad, sh);
        };
        double best = Double.POSITIVE_INFINITY;
        int bestHandle = Handles.NONE;
        for (int h : new TreeSet<>(boxHits.keySet())) {
            t3.getTightBox(h, box);
            double rad = 0.5 * Math.min(box[3] - box[0], box[4] - box[1]);
            double t = Intersect2.intersectSegmentCircle(sx, sy, dx, dy, maxFraction, 0.5 * (box[0] + box[3]),
                    0.5 * (box[1] + box[4]), rad, sh);
            if (t >= 0 && t <= maxFraction && (t < best || t == best && h < bestHandle)) {
                best = t;
                bestHandle = h;
            }
        }
        ClosestHit c = new ClosestHit();
        c.setIgnored(ignoreA, ignoreB);
        c.setExactTest(disc);
        boolean filtered = what.endsWith("filter=true");
        if (filtered) {
            c.setFilter((h, v) -> h % 3 != 1);
        }
        tree.rayCast(sx, sy, dx, dy, maxFraction, mask, c, stack);
        assertEquals(bestHandle, c.handle(), "exact-test closest " + what);
        if (bestHandle != Handles.NONE) {
            assertEquals(best, c.fraction(), "exact-test fraction " + what);
            t3.getTightBox(bestHandle, box);
            double cx = 0.5 * (box[0] + box[3]);
            double cy = 0.5 * (box[1] + box[4]);
            double rad = 0.5 * Math.min(box[3] - box[0], box[4] - box[1]);
            SurfaceHit s = new SurfaceHit();
            assertTrue(Intersect2.surfaceSegmentCircle(sx, sy, dx, dy, best, cx, cy, rad, s));
            double dist = Math.hypot(s.x - cx, s.y - cy);
            if (!s.startInside) {
                double scale = Math.max(Math.abs(cx - t3.originX()), 1) + Math.abs(cx);
                assertEquals(rad, dist, 1e-9 * scale, "point on the circle " + what + " " + s);
                if (rad > 0) {
                    assertEquals(1.0, Math.hypot(s.normalX, s.normalY), 1e-12, "unit normal " + s);
                    assertTrue((s.x - cx) * s.normalX + (s.y - cy) * s.normalY >= 0, "outward " + s);
                }
            }
        }
        surfaces++;
    }

    /** Point and normal of the kept hit, on the object's world tight box, checked exactly. */
    private void surface(DynamicAabbTree2D tree, int handle, double sx, double sy, double dx, double dy,
                         double fraction, double fx, double fy, double[] frameRect, String what) {
        double[] box = new double[6];
        tree.tree().getTightBox(handle, box);
        double[] b = {box[0], box[1], box[3], box[4]};
        SurfaceHit s = new SurfaceHit();
        assertTrue(Intersect2.surfaceSegmentRect(sx, sy, dx, dy, fraction, b[0], b[1], b[2], b[3], s), what);
        surfaces++;
        String w = what + " box " + java.util.Arrays.toString(b) + " fraction " + fraction + " -> " + s;
        assertEquals(0.0, s.z, w);
        assertEquals(0.0, s.normalZ, w);
        int state = Exact2D.pointState(sx, sy, b);
        if (state == 1) {
            assertTrue(s.startInside, "start strictly inside " + w);
            assertEquals(sx, s.x, w);
            assertEquals(sy, s.y, w);
            double len = Math.hypot(dx, dy);
            if (len > 0) {
                assertEquals(-dx / len, s.normalX, 1e-15, w);
                assertEquals(-dy / len, s.normalY, 1e-15, w);
            } else {
                assertEquals(0.0, s.normalX, w);
                assertEquals(0.0, s.normalY, w);
            }
            return;
        }
        assertTrue(!s.startInside, "not inside " + w);
        // the normal is a unit axis, the point on that face and within the box
        boolean xFace = Math.abs(s.normalX) == 1 && s.normalY == 0;
        boolean yFace = Math.abs(s.normalY) == 1 && s.normalX == 0;
        assertTrue(xFace || yFace, "axis normal " + w);
        double plane = xFace ? (s.normalX < 0 ? b[0] : b[2]) : (s.normalY < 0 ? b[1] : b[3]);
        assertEquals(plane, xFace ? s.x : s.y, "point on the face " + w);
        assertTrue(s.x >= b[0] && s.x <= b[2] && s.y >= b[1] && s.y <= b[3], "point within the box " + w);
        if (state == 0) {
            // start on the boundary: a face the start lies on, the one most against the translation, x first
            assertEquals(0.0, fraction, w);
            double bestDot = Double.POSITIVE_INFINITY;
            boolean xBest = false;
            double[][] faces = {{-1, 0, b[0]}, {1, 0, b[2]}, {0, -1, b[1]}, {0, 1, b[3]}};
            for (double[] face : faces) {
                boolean on = face[0] != 0 ? sx == face[2] : sy == face[2];
                if (!on) {
                    continue;
                }
                double dot = face[0] * dx + face[1] * dy;
                if (dot < bestDot) {
                    bestDot = dot;
                    xBest = face[0] != 0;
                }
            }
            double got = s.normalX * dx + s.normalY * dy;
            assertEquals(bestDot, got, "face most against the translation " + w);
            assertEquals(xBest, xFace, "lowest axis on ties " + w);
            assertEquals(sx, s.x, w);
            assertEquals(sy, s.y, w);
            return;
        }
        // start outside: the side entered last (exactly), x on an exact tie
        ExactGeometry.SegmentResult x = Exact2D.segment(sx, sy, dx, dy, Double.MAX_VALUE, b);
        int[] tie = new int[1];
        double[] n = Exact2D.entryNormal(x, dx, dy, tie, sx, sy, b);
        assertTrue(n != null, w);
        if (nearTie(sx, sy, dx, dy, b)) {
            ties++;
        } else {
            assertEquals(n[0], s.normalX, "entry side " + w);
            assertEquals(n[1], s.normalY, "entry side " + w);
        }
        // the point is within a few ulps of origin + fraction * translation (off the face's axis)
        BigDecimal px = ExactGeometry.x(sx).add(ExactGeometry.x(fraction).multiply(ExactGeometry.x(dx)));
        BigDecimal py = ExactGeometry.x(sy).add(ExactGeometry.x(fraction).multiply(ExactGeometry.x(dy)));
        double tol = 8 * Math.ulp(Math.max(Math.abs(sx), Math.abs(sy)) + Math.abs(dx) + Math.abs(dy));
        assertTrue(ExactGeometry.x(s.x).subtract(px).abs().doubleValue() <= tol + Math.abs(fraction * dx) * 1e-15
                || xFace, "x of point " + w);
        assertTrue(ExactGeometry.x(s.y).subtract(py).abs().doubleValue() <= tol + Math.abs(fraction * dy) * 1e-15
                || yFace, "y of point " + w);
    }

    /** Whether the x and y slabs are entered within 1e-12 (relative) of each other: either side may be reported. */
    private static boolean nearTie(double sx, double sy, double dx, double dy, double[] b) {
        if (dx == 0 || dy == 0) {
            return false;
        }
        double tx = ((dx > 0 ? b[0] : b[2]) - sx) / dx;
        double ty = ((dy > 0 ? b[1] : b[3]) - sy) / dy;
        return Math.abs(tx - ty) <= 1e-12 * Math.max(Math.abs(tx), Math.abs(ty));
    }
}
