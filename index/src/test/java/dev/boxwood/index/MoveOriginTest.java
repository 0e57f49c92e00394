package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactGeometry;
import dev.boxwood.testkit.ExactOracle;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DynamicAabbTree#moveOrigin}: every object, handle and value kept, the tree valid, every given box still
 * found (no false miss), answers exact for the re-stored boxes, each bound grown by at most a float step of the new
 * frame plus a double step of the old, finer storage for objects moved afterwards, and bad origins refused with the
 * tree unchanged.
 */
class MoveOriginTest {

    /** The objects' neighbourhood, far from the default origin: floats there are whole metres. */
    private static final double CX = 1.2e7;
    private static final double CY = -3.4e6;
    private static final double CZ = 2.5e5;

    private final TraversalStack stack = new TraversalStack();

    /** A world of {@code n} boxes about the centre: log-uniform sizes, some flat or points, some touching pairs. */
    private static double[][] world(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] boxes = new double[n][];
        for (int i = 0; i < n; i++) {
            if (i > 0 && r.nextInt(8) == 0) {
                // touching the previous box along x
                double[] p = boxes[i - 1];
                double w = Math.exp(r.nextDouble(Math.log(0.01), Math.log(5)));
                boxes[i] = new double[] {p[3], p[1], p[2], p[3] + w, p[4], p[5]};
                continue;
            }
            double[] b = new double[6];
            double[] c = {CX, CY, CZ};
            for (int a = 0; a < 3; a++) {
                double e = r.nextInt(10) == 0 ? 0 : Math.exp(r.nextDouble(Math.log(0.01), Math.log(5)));
                double lo = c[a] + r.nextDouble(-400, 400);
                b[a] = lo;
                b[a + 3] = lo + e;
            }
            boxes[i] = b;
        }
        return boxes;
    }

    private static DynamicAabbTree fill(TreeConfig config, double[][] boxes, int[] handles) {
        DynamicAabbTree tree = new DynamicAabbTree(config);
        for (int i = 0; i < boxes.length; i++) {
            double[] b = boxes[i];
            handles[i] = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 1000L + i, 1L << (i % 3));
        }
        for (int i = 0; i < boxes.length; i += 7) {
            tree.remove(handles[i]);
            handles[i] = -1;
        }
        return tree;
    }

    @Test
    void shouldKeepEveryObjectFindEveryGivenBoxAndAnswerExactlyForTheStoredBoxes() {
        TreeConfig[] configs = {TreeConfig.defaults(), TreeConfig.defaults().withDeferredAdds(true),
                TreeConfig.defaults().withOrigin(CX - 5e5, CY + 2e5, 0)};
        double[][] targets = {{CX, CY, CZ}, {CX + 0.375, CY - 1e-3, CZ + 7}, {0, 0, 0}, {-2e9, 3e8, 1e5}};
        for (int ci = 0; ci < configs.length; ci++) {
            for (int ti = 0; ti < targets.length; ti++) {
                double[][] boxes = world(31L * ci + ti, 600);
                int[] handles = new int[boxes.length];
                DynamicAabbTree tree = fill(configs[ci], boxes, handles);
                float[][] before = storedBoxes(tree, handles);
                double[] from = {tree.originX(), tree.originY(), tree.originZ()};
                double[] to = targets[ti];
                tree.moveOrigin(to[0], to[1], to[2]);
                tree.validate();
                assertEquals(to[0], tree.originX());
                assertEquals(to[1], tree.originY());
                assertEquals(to[2], tree.originZ());
                String where = "config " + ci + ", origin " + Arrays.toString(to);
                checkKept(tree, boxes, handles, before, from, where);
                checkExact(tree, new SplittableRandom(ti), where);
                // the tree goes on: objects moved to their own boxes get the new frame's resolution
                for (int i = 0; i < boxes.length; i++) {
                    if (handles[i] >= 0 && i % 2 == 0) {
                        double[] b = boxes[i];
                        tree.move(handles[i], b[0], b[1], b[2], b[3], b[4], b[5]);
                    }
                }
                tree.validate();
                checkKept(tree, boxes, handles, null, null, where + ", after moves");
                checkExact(tree, new SplittableRandom(100 + ti), where + ", after moves");
            }
        }
    }

    private static float[][] storedBoxes(DynamicAabbTree tree, int[] handles) {
        float[][] stored = new float[handles.length][];
        for (int i = 0; i < handles.length; i++) {
            if (handles[i] >= 0) {
                stored[i] = new float[6];
                tree.getStoredTightBox(handles[i], stored[i]);
            }
        }
        return stored;
    }

    /**
     * Every object is there with its values; its stored box holds its given box as queries move it into the frame;
     * with {@code before}, each bound moved outward by at most one float step of the new frame plus a few double
     * steps of the old stored value.
     */
    private void checkKept(DynamicAabbTree tree, double[][] boxes, int[] handles, float[][] before, double[] from,
                           String where) {
        double[] o = {tree.originX(), tree.originY(), tree.originZ()};
        float[] s = new float[6];
        AllOverlaps found = new AllOverlaps();
        int live = 0;
        for (int i = 0; i < boxes.length; i++) {
            int h = handles[i];
            if (h < 0) {
                continue;
            }
            live++;
            assertTrue(tree.contains(h), where);
            assertEquals(1000L + i, tree.userValue(h), where);
            assertEquals(1L << (i % 3), tree.categoryBits(h), where);
            tree.getStoredTightBox(h, s);
            double[] b = boxes[i];
            for (int a = 0; a < 3; a++) {
                assertTrue(s[a] <= b[a] - o[a] && b[a + 3] - o[a] <= s[a + 3],
                        () -> where + ": handle " + h + "'s stored box " + Arrays.toString(s) + " misses its box");
                if (before != null) {
                    float old = before[i][a];
                    float oldMax = before[i][a + 3];
                    double slackLow = 4 * Math.ulp((double) old) + Math.ulp(s[a]);
                    double slackHigh = 4 * Math.ulp((double) oldMax) + Math.ulp(s[a + 3]);
                    int axis = a;
                    // the exact shift of the old bound, against the new one (both far below a float step apart)
                    double lowShift = (old - (double) s[a]) + (from[a] - o[a]);
                    double highShift = ((double) s[a + 3] - oldMax) - (from[a] - o[a]);
                    assertTrue(lowShift >= -slackLow && lowShift <= slackLow + Math.ulp(from[a] - o[a]),
                            () -> where + ": min " + axis + " of handle " + h + " moved by " + lowShift);
                    assertTrue(highShift >= -slackHigh && highShift <= slackHigh + Math.ulp(from[a] - o[a]),
                            () -> where + ": max " + axis + " of handle " + h + " moved by " + highShift);
                }
            }
            // no false miss: the given box finds its object
            found.reset();
            tree.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, found, stack);
            boolean self = false;
            for (int k = 0; k < found.count(); k++) {
                self |= found.handle(k) == h;
            }
            assertTrue(self, where + ": handle " + h + " not found by its own box");
        }
        assertEquals(live, tree.size(), where);
    }

    /** Box queries and segment casts against the exact answers for the stored boxes and the tree's origin. */
    private void checkExact(DynamicAabbTree tree, SplittableRandom r, String where) {
        ExactOracle oracle = new ExactOracle();
        int part = oracle.addPart(tree.originX(), tree.originY(), tree.originZ());
        float[] s = new float[6];
        for (int h : tree.liveHandles()) {
            tree.getStoredTightBox(h, s);
            oracle.add(part, h, s.clone(), tree.categoryBits(h), tree.userValue(h));
        }
        AllOverlaps overlaps = new AllOverlaps();
        AllHits hits = new AllHits();
        for (int q = 0; q < 60; q++) {
            double x = CX + r.nextDouble(-420, 420);
            double y = CY + r.nextDouble(-420, 420);
            double z = CZ + r.nextDouble(-420, 420);
            double e = r.nextDouble(0, 60);
            double[] box = {x, y, z, x + e, y + e, z + e};
            long mask = q % 4 == 0 ? 2L : -1L;
            overlaps.reset();
            tree.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], mask, overlaps, stack);
            Set<Integer> got = handles(overlaps);
            Set<Integer> want = new HashSet<>();
            for (ExactOracle.Entry en : oracle.entries()) {
                if ((en.categories & mask) != 0 && oracle.box(en, box, false) == ExactOracle.MUST) {
                    want.add(en.handle);
                }
            }
            assertEquals(want, got, where + ": box query " + q);
            // a segment through the cloud
            double[] d = {r.nextDouble(-800, 800), r.nextDouble(-800, 800), r.nextDouble(-50, 50)};
            tree.rayCast(x, y, z, d[0], d[1], d[2], 1.0, mask, hits, stack);
            Set<Integer> cast = new HashSet<>();
            for (int k = 0; k < hits.count(); k++) {
                cast.add(hits.handle(k));
            }
            for (ExactOracle.Entry en : oracle.entries()) {
                if ((en.categories & mask) == 0) {
                    continue;
                }
                ExactGeometry.SegmentResult res = oracle.segment(en, x, y, z, d, 1.0);
                if (res.hit) {
                    assertTrue(cast.contains(en.handle), where + ": segment " + q + " missed " + en.handle);
                } else if (res.relativeMiss() > ExactOracle.SLAB_BAND) {
                    assertFalse(cast.contains(en.handle), where + ": segment " + q + " reported " + en.handle);
                }
            }
        }
    }

    private static Set<Integer> handles(AllOverlaps overlaps) {
        Set<Integer> set = new HashSet<>();
        for (int k = 0; k < overlaps.count(); k++) {
            set.add(overlaps.handle(k));
        }
        return set;
    }

    @Test
    void shouldSeparateBoxesThatTheOldFrameMergedOnceTheyMove() {
        // two boxes a fifth of a metre apart, 1.2e7 from a tree made empty at 0: floats there are whole metres
        DynamicAabbTree tree = new DynamicAabbTree();
        int a = tree.add(CX + 0.1, 0, 0, CX + 0.3, 1, 1, 1, 1L);
        int b = tree.add(CX + 0.5, 0, 0, CX + 0.7, 1, 1, 2, 1L);
        AllOverlaps found = new AllOverlaps();
        tree.queryAabb(CX + 0.35, 0.2, 0.2, CX + 0.45, 0.8, 0.8, -1L, found, stack);
        assertEquals(2, found.count(), "the gap is inside both stored boxes at origin 0");
        tree.moveOrigin(CX, 0, 0);
        tree.validate();
        found.reset();
        tree.queryAabb(CX + 0.35, 0.2, 0.2, CX + 0.45, 0.8, 0.8, -1L, found, stack);
        assertEquals(2, found.count(), "re-stored boxes keep what they stood for");
        tree.move(a, CX + 0.1, 0, 0, CX + 0.3, 1, 1);
        tree.move(b, CX + 0.5, 0, 0, CX + 0.7, 1, 1);
        tree.validate();
        found.reset();
        tree.queryAabb(CX + 0.35, 0.2, 0.2, CX + 0.45, 0.8, 0.8, -1L, found, stack);
        assertEquals(0, found.count(), "moved objects are stored at the new frame's resolution");
        double[] box = new double[6];
        tree.getTightBox(a, box);
        assertEquals(0.2, box[3] - box[0], 1e-6);
    }

    @Test
    void shouldWidenAnObjectThatStaysByAtMostAFloatStepPerCallUntilItIsStoredAgain() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(CX, 0, 0));
        double lo = CX + 5000;
        double hi = lo + 0.5;
        int lamp = tree.add(lo, 0, 0, hi, 1, 1, 1, 1L);
        float[] s = new float[6];
        double[] box = new double[6];
        double allowed = 0;
        for (int call = 0; call < 400; call++) {
            double origin = call % 2 == 0 ? CX + 1000.3 : CX;
            tree.moveOrigin(origin, 0, 0);
            tree.getStoredTightBox(lamp, s);
            // one float step of the new frame per side and call, and double steps of the old value
            allowed += 2 * (Math.ulp(s[3]) + 4 * Math.ulp((double) s[3]));
            tree.getTightBox(lamp, box);
            assertTrue(box[0] <= lo && hi <= box[3], "call " + call);
            assertTrue((box[3] - box[0]) - 0.5 <= allowed + 1e-9, "call " + call + ": width " + (box[3] - box[0]));
        }
        tree.getTightBox(lamp, box);
        assertTrue(box[3] - box[0] > 0.5 + 0.05, "the steps add up: width " + (box[3] - box[0]));
        tree.move(lamp, lo, 0, 0, hi, 1, 1);
        tree.getTightBox(lamp, box);
        assertEquals(0.5, box[3] - box[0], 1e-3, "stored again from the double box");
        tree.validate();
    }

    @Test
    void shouldKeepTheBoxOfAnObjectThatStaysExactlyWhenTheOriginMovesByWholeMetres() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(CX, 0, 0));
        // between 4,096 and 8,192 m from either origin below (the same power-of-two range in both frames); the
        // lamp comes 1,000 m nearer, the other object goes 1,000 m farther
        int lamp = tree.add(CX + 6000, 0, 0, CX + 6000.5, 1, 1, 1, 1L);
        int far = tree.add(CX - 6000.25, -3.7, 2, CX - 5999.1, 1.3, 3, 2, 1L);
        float[] lampBefore = new float[6];
        float[] farBefore = new float[6];
        tree.getStoredTightBox(lamp, lampBefore);
        tree.getStoredTightBox(far, farBefore);
        float[] s = new float[6];
        for (int call = 1; call <= 400; call++) {
            tree.moveOrigin(call % 2 == 1 ? CX + 1000 : CX, 0, 0);
            tree.validate();
            if (call % 2 == 0) {
                tree.getStoredTightBox(lamp, s);
                assertArrayEquals(lampBefore, s, "call " + call);
                tree.getStoredTightBox(far, s);
                assertArrayEquals(farBefore, s, "call " + call);
            }
        }
        checkExact(tree, new SplittableRandom(5), "after 400 whole-metre moves");
    }

    @Test
    void shouldRefuseABadOriginAndLeaveTheTreeUnchanged() {
        double[][] boxes = world(5, 200);
        int[] handles = new int[boxes.length];
        DynamicAabbTree tree = fill(TreeConfig.defaults(), boxes, handles);
        float[][] before = storedBoxes(tree, handles);
        double[] fat = new double[6];
        tree.getFatBox(handles[1], fat);
        IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
                () -> tree.moveOrigin(1e300, 0, 0));
        assertTrue(far.getMessage().contains("beyond the storage range on axis x"), far.getMessage());
        assertTrue(far.getMessage().contains("handle"), far.getMessage());
        assertThrows(IllegalArgumentException.class, () -> tree.moveOrigin(Double.NaN, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> tree.moveOrigin(0, Double.POSITIVE_INFINITY, 0));
        assertThrows(IllegalArgumentException.class, () -> tree.moveOrigin(0, 0, -1e301));
        // just inside the range on one axis, beyond it on another
        assertThrows(IllegalArgumentException.class, () -> tree.moveOrigin(CX - 9e17, CY + 2e18, 0));
        tree.validate();
        assertEquals(0, tree.originX());
        for (int i = 0; i < handles.length; i++) {
            if (handles[i] >= 0) {
                float[] s = new float[6];
                tree.getStoredTightBox(handles[i], s);
                assertArrayEquals(before[i], s);
            }
        }
        double[] fatAfter = new double[6];
        tree.getFatBox(handles[1], fatAfter);
        assertArrayEquals(fat, fatAfter);
        // pending objects stay pending when the origin is refused
        DynamicAabbTree deferred = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(true));
        deferred.add(CX, CY, CZ, CX + 1, CY + 1, CZ + 1, 1, 1L);
        deferred.add(CX + 3, CY, CZ, CX + 4, CY + 1, CZ + 1, 2, 1L);
        assertEquals(2, deferred.pendingAdds());
        assertThrows(IllegalArgumentException.class, () -> deferred.moveOrigin(-1e300, 0, 0));
        assertEquals(2, deferred.pendingAdds(), "a refused origin takes nothing in");
        deferred.moveOrigin(CX, CY, CZ);
        assertEquals(0, deferred.pendingAdds());
        deferred.validate();
        // a 2D tree keeps its boxes in the plane z = 0
        DynamicAabbTree2D flat = new DynamicAabbTree2D();
        flat.add(0, 0, 1, 1, 0, 1L);
        assertThrows(IllegalArgumentException.class, () -> flat.tree().moveOrigin(0, 0, 1));
        flat.validate();
    }

    @Test
    void shouldTakeBoxesAtTheStorageLimitAlongWhereTheOriginMovesTowardThem() {
        double m = OutwardFloat.MAX_STORED;
        for (double[] box : new double[][] {{0, 0, 0, m, 1, 1}, {-m, -1, -1, 0, 0, 0}, {-m, 0, 0, m, 1, 1}}) {
            DynamicAabbTree tree = new DynamicAabbTree();
            int h = tree.add(box[0], box[1], box[2], box[3], box[4], box[5], 7, 1L);
            // toward the box at its limit by one unit: its exact offset stays in the range, so the move is taken
            // and the bound stays at the limit (its half-step reach, beyond the range, is not kept)
            double toward = box[3] == m ? 1 : -1;
            if (box[0] == -m && box[3] == m) {
                // a box reaching both limits: any move takes one side beyond
                assertThrows(IllegalArgumentException.class, () -> tree.moveOrigin(1, 0, 0));
                tree.validate();
                continue;
            }
            tree.moveOrigin(toward, 0, 0);
            tree.validate();
            float[] s = new float[6];
            tree.getStoredTightBox(h, s);
            assertEquals(toward > 0 ? OutwardFloat.MAX_STORED : -OutwardFloat.MAX_STORED, toward > 0 ? s[3] : s[0]);
            double[] world = new double[6];
            tree.getTightBox(h, world);
            assertTrue(world[0] <= box[0] && world[3] >= box[3], "the given box is still held");
            AllOverlaps found = new AllOverlaps();
            tree.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, found, new TraversalStack());
            assertEquals(1, found.count());
            // away from it: the box would lie beyond the range, refused as before
            double away = -2 * toward;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> tree.moveOrigin(away, 0, 0));
            assertTrue(e.getMessage().contains("beyond the storage range on axis x"), e.getMessage());
            tree.validate();
        }
    }

    @Test
    void shouldMoveTheOriginOfAnEmptyTreeAndOfA2DTree() {
        DynamicAabbTree empty = new DynamicAabbTree();
        empty.moveOrigin(CX, CY, CZ);
        empty.validate();
        int h = empty.add(CX + 0.1, CY, CZ, CX + 0.3, CY + 1, CZ + 1, 7, 1L);
        double[] box = new double[6];
        empty.getTightBox(h, box);
        assertEquals(0.2, box[3] - box[0], 1e-6, "stored relative to the new origin");

        DynamicAabbTree2D flat = new DynamicAabbTree2D();
        SplittableRandom r = new SplittableRandom(9);
        List<double[]> rects = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            double x = CX + r.nextDouble(-100, 100);
            double y = CY + r.nextDouble(-100, 100);
            double w = r.nextDouble(0, 3);
            rects.add(new double[] {x, y, x + w, y + w});
            flat.add(x, y, x + w, y + w, i, 1L);
        }
        flat.moveOrigin(CX, CY);
        flat.validate();
        assertEquals(0, flat.tree().originZ());
        AllOverlaps found = new AllOverlaps();
        for (int i = 0; i < rects.size(); i++) {
            double[] q = rects.get(i);
            found.reset();
            flat.queryAabb(q[0], q[1], q[2], q[3], -1L, found, stack);
            boolean self = false;
            for (int k = 0; k < found.count(); k++) {
                self |= flat.tree().userValue(found.handle(k)) == i;
            }
            assertTrue(self, "rectangle " + i + " not found by itself");
        }
    }

    @Test
    void readViewsShouldKeepTheirOriginUntilTheNextPublish() {
        double[][] boxes = world(8, 300);
        int[] handles = new int[boxes.length];
        DynamicAabbTree tree = fill(TreeConfig.defaults(), boxes, handles);
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        snapshots.publish();
        try (ReadView old = snapshots.acquire()) {
            tree.moveOrigin(CX, CY, CZ);
            assertEquals(0, old.originX(), "a published view keeps its copy");
            snapshots.publish();
            try (ReadView fresh = snapshots.acquire()) {
                assertEquals(CX, fresh.originX());
                assertEquals(CZ, fresh.originZ());
                float[] a = new float[6];
                float[] b = new float[6];
                AllOverlaps fromTree = new AllOverlaps();
                AllOverlaps fromView = new AllOverlaps();
                for (int i = 0; i < boxes.length; i++) {
                    if (handles[i] < 0) {
                        continue;
                    }
                    tree.getStoredTightBox(handles[i], a);
                    fresh.getStoredTightBox(handles[i], b);
                    assertArrayEquals(a, b);
                    double[] q = boxes[i];
                    fromTree.reset();
                    fromView.reset();
                    tree.queryBox(q[0] - 2, q[1] - 2, q[2] - 2, q[3] + 2, q[4] + 2, q[5] + 2, RegionMode.CROSSING,
                            -1L, null, fromTree, stack);
                    fresh.queryBox(q[0] - 2, q[1] - 2, q[2] - 2, q[3] + 2, q[4] + 2, q[5] + 2, RegionMode.CROSSING,
                            -1L, null, fromView, stack);
                    assertEquals(handles(fromTree), handles(fromView));
                }
            }
        }
    }

    @Test
    void shouldRefuseToMoveTheOriginFromInsideAQuery() {
        double[][] boxes = world(12, 100);
        int[] handles = new int[boxes.length];
        DynamicAabbTree tree = fill(TreeConfig.defaults(), boxes, handles);
        assertThrows(ConcurrentModificationException.class, () -> tree.queryAabb(CX - 500, CY - 500, CZ - 500,
                CX + 500, CY + 500, CZ + 500, -1L, (h, uv) -> {
                    tree.moveOrigin(tree.originX() + 1, tree.originY(), tree.originZ());
                    return true;
                }, stack));
        tree.validate();
    }
}
