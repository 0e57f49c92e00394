package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The 2D facade against the brute-force oracle fed the same rectangles as boxes in the z = 0 plane. */
class DynamicAabbTree2DTest {

    @Test
    void shouldRejectBadRectangleBatchesNamingTheArgument() {
        DynamicAabbTree2D tree = new DynamicAabbTree2D();
        tree.add(0, 0, 1, 1, 7, -1L);
        IllegalArgumentException e;
        for (double[] bad : new double[][] {null, {0, 0, 1}, {0, 0, Double.NaN, 1}, {2, 0, 1, 1},
                {0, Double.NEGATIVE_INFINITY, 1, 1}, {0, 0, 1, 1, 0, 0, 1e19, 1}}) {
            e = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> tree.addAll(bad, null, null));
            assertTrue(e.getMessage().contains("rectangles"), e.getMessage());
        }
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> tree.addAll(new double[] {0, 0, 1, 1}, new long[2], null));
        assertEquals("userValues length must be 1 (one per rectangle), got 2", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> tree.addAll(new double[] {0, 0, 1, 1, 2, 2, 3, 3}, null, new long[1]));
        assertEquals("categories length must be 2 (one per rectangle), got 1", e.getMessage());
        tree.validate();
        assertEquals(1, tree.size());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new DynamicAabbTree2D(null));
        assertTrue(e.getMessage().contains("config"), e.getMessage());
    }

    @Test
    void shouldAnswerLikeBruteForceInThePlane() {
        DynamicAabbTree2D tree = new DynamicAabbTree2D();
        BruteForceIndex brute = new BruteForceIndex();
        SplittableRandom random = new SplittableRandom(61);
        List<Integer> live = new ArrayList<>();
        TraversalStack stack = new TraversalStack();
        AllOverlaps a = new AllOverlaps();
        AllOverlaps b = new AllOverlaps();
        ClosestHit ca = new ClosestHit();
        ClosestHit cb = new ClosestHit();
        AllHits ha = new AllHits();
        AllHits hb = new AllHits();
        long hits = 0;
        for (int op = 0; op < 3000; op++) {
            double x = random.nextDouble() * 100;
            double y = random.nextDouble() * 100;
            // Thin rectangles (walls) as well as squares; zero width sometimes.
            double w = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 3;
            double h = random.nextDouble() * 3;
            int kind = random.nextInt(10);
            if (live.isEmpty() || kind < 4) {
                int handle = tree.add(x, y, x + w, y + h, op, 1);
                assertEquals(brute.add(x, y, 0, x + w, y + h, 0, op, 1), handle);
                live.add(handle);
            } else if (kind < 7) {
                int handle = live.get(random.nextInt(live.size()));
                tree.move(handle, x, y, x + w, y + h, random.nextDouble(), -random.nextDouble());
                brute.move(handle, x, y, 0, x + w, y + h, 0);
            } else if (kind == 7) {
                // a batch near (x, y), as the rectangles of a tile come in
                int count = 1 + random.nextInt(40);
                double[] rectangles = new double[4 * count];
                long[] users = new long[count];
                for (int i = 0; i < count; i++) {
                    double rx = x + random.nextDouble() * 10;
                    double ry = y + random.nextDouble() * 10;
                    double rw = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 3;
                    rectangles[4 * i] = rx;
                    rectangles[4 * i + 1] = ry;
                    rectangles[4 * i + 2] = rx + rw;
                    rectangles[4 * i + 3] = ry + random.nextDouble() * 3;
                    users[i] = -op - i;
                }
                int[] handles = tree.addAll(rectangles, users, null);
                for (int i = 0; i < count; i++) {
                    int o = 4 * i;
                    assertEquals(brute.add(rectangles[o], rectangles[o + 1], 0, rectangles[o + 2], rectangles[o + 3],
                            0, users[i], -1L), handles[i]);
                    live.add(handles[i]);
                }
            } else if (kind == 8 && live.size() > 10) {
                int[] batch = new int[1 + random.nextInt(10)];
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = live.remove(random.nextInt(live.size()));
                    brute.remove(batch[i]);
                }
                tree.removeAll(batch);
            } else {
                int handle = live.remove(random.nextInt(live.size()));
                tree.remove(handle);
                brute.remove(handle);
            }
            tree.validate();
            double qx = random.nextDouble() * 100;
            double qy = random.nextDouble() * 100;
            a.reset();
            b.reset();
            tree.queryAabb(qx, qy, qx + 8, qy + 8, -1L, a, stack);
            brute.queryAabb(qx, qy, 0, qx + 8, qy + 8, 0, -1L, b, stack);
            a.sort();
            b.sort();
            assertEquals(b.count(), a.count());
            for (int i = 0; i < a.count(); i++) {
                assertEquals(b.handle(i), a.handle(i));
            }
            double tx = (random.nextDouble() - 0.5) * 100;
            double ty = (random.nextDouble() - 0.5) * 100;
            tree.rayCast(qx, qy, tx, ty, 1.0, -1L, ca, stack);
            brute.rayCast(qx, qy, 0, tx, ty, 0, 1.0, -1L, cb, stack);
            assertEquals(cb.handle(), ca.handle());
            assertEquals(cb.fraction(), ca.fraction());
            tree.rayCast(qx, qy, tx, ty, 1.0, -1L, ha, stack);
            brute.rayCast(qx, qy, 0, tx, ty, 0, 1.0, -1L, hb, stack);
            assertEquals(hb.count(), ha.count());
            hits += hb.count() + b.count();
        }
        assertTrue(hits > 1000, "queries should hit: " + hits);
        assertTrue(tree.areaRatio() >= 1.0);
        assertEquals(live.size(), tree.size());
    }
}
