package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import dev.boxwood.query.OutwardFloat;
import org.junit.jupiter.api.Test;

/**
 * {@link ReadableTree#getStoredTightBox} and the origin accessors: the floats a tree and its read views store,
 * rounded outward relative to the origin, and validation that leaves the destination alone.
 */
class StoredTightBoxTest {

    @Test
    void shouldCopyTheOutwardRoundedFloatsOfTheTreeAndItsViews() {
        TreeConfig config = TreeConfig.defaults().withOrigin(1e6 + 0.1, -2.5, 1.0 / 3).withDeferredAdds(true);
        DynamicAabbTree tree = new DynamicAabbTree(config);
        SplittableRandom r = new SplittableRandom(3);
        int n = 200;
        double[] boxes = new double[6 * n];
        int[] handles = new int[n];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                double lo = 1e6 + (r.nextDouble() - 0.5) * 1e4;
                boxes[6 * i + a] = lo;
                boxes[6 * i + 3 + a] = lo + r.nextDouble() * (i % 7 == 0 ? 0 : 20);
            }
            handles[i] = tree.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                    boxes[6 * i + 4], boxes[6 * i + 5], i, 1);
        }
        float[] expected = new float[6];
        float[] stored = new float[7];
        double[] world = new double[6];
        // an object pending under deferred adds has its stored box already
        assertTrue(tree.pendingAdds() > 0);
        OutwardFloat.storeBox(expected, 0, config.originX(), config.originY(), config.originZ(), boxes[0], boxes[1],
                boxes[2], boxes[3], boxes[4], boxes[5]);
        tree.getStoredTightBox(handles[0], stored);
        assertArrayEquals(expected, Arrays.copyOf(stored, 6), "pending object");
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        snapshots.publish();
        try (ReadView view = snapshots.acquire()) {
            assertEquals(config.originX(), view.originX());
            assertEquals(config.originY(), view.originY());
            assertEquals(config.originZ(), view.originZ());
            for (int i = 0; i < n; i++) {
                OutwardFloat.storeBox(expected, 0, config.originX(), config.originY(), config.originZ(),
                        boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3], boxes[6 * i + 4],
                        boxes[6 * i + 5]);
                for (ReadableTree t : new ReadableTree[] {tree, view}) {
                    stored[6] = 42f;
                    t.getStoredTightBox(handles[i], stored);
                    assertArrayEquals(expected, Arrays.copyOf(stored, 6), "object " + i);
                    assertEquals(42f, stored[6], "only six floats written");
                    t.getTightBox(handles[i], world);
                    for (int c = 0; c < 6; c++) {
                        double origin = c % 3 == 0 ? t.originX() : c % 3 == 1 ? t.originY() : t.originZ();
                        assertEquals(origin + stored[c], world[c], "getTightBox is the stored box plus the origin");
                    }
                }
            }
        }
    }

    @Test
    void shouldRejectStaleHandlesAndShortDestinationsWithoutWriting() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int a = tree.add(0, 0, 0, 1, 1, 1, 0, 1);
        int b = tree.add(2, 2, 2, 3, 3, 3, 0, 1);
        tree.remove(b);
        float[] dest = {9, 9, 9, 9, 9, 9};
        IllegalArgumentException stale = assertThrows(IllegalArgumentException.class,
                () -> tree.getStoredTightBox(b, dest));
        assertTrue(stale.getMessage().contains("not a live handle"), stale.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> tree.getStoredTightBox(Integer.MIN_VALUE, dest));
        assertTrue(negative.getMessage().contains("never negative") && !negative.getMessage().contains("slot"),
                negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> tree.getStoredTightBox(-1, dest));
        assertThrows(IllegalArgumentException.class, () -> tree.getStoredTightBox(a, new float[5]));
        assertThrows(IllegalArgumentException.class, () -> tree.getStoredTightBox(a, null));
        assertArrayEquals(new float[] {9, 9, 9, 9, 9, 9}, dest);
        tree.getStoredTightBox(a, dest);
        assertArrayEquals(new float[] {0, 0, 0, 1, 1, 1}, dest);
    }
}
