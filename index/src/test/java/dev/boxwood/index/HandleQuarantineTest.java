package dev.boxwood.index;

import dev.boxwood.query.Handles;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The promise of {@link Handles}' quarantine through the indexes: a removed object's handle names no other object
 * before {@code 128 * QUARANTINE} removals. The worst case is a pool of one: one object added and removed over and
 * over (a projectile fired and destroyed), where immediate reuse had given the first handle out again after 128
 * cycles.
 */
class HandleQuarantineTest {

    private static final int PROMISED = 128 * Handles.QUARANTINE;

    @Test
    void shouldKeepAHandleStaleFor128QuarantinesOfRemovalsInEveryIndex() {
        DynamicAabbTree tree = new DynamicAabbTree();
        DynamicAabbTree deferred = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(true));
        BruteForceIndex brute = new BruteForceIndex();
        SpatialIndex[] indexes = {tree, deferred, brute};
        // one object stays: the pool's single projectile comes and goes beside it
        for (SpatialIndex index : indexes) {
            index.add(10, 10, 10, 11, 11, 11, 0, -1L);
        }
        int stale = addAll(indexes, 0);
        for (SpatialIndex index : indexes) {
            index.remove(stale);
        }
        for (int removals = 1; removals < PROMISED; removals++) {
            int h = addAll(indexes, removals);
            assertNotEquals(stale, h, "the first handle given out again after " + removals + " removals");
            for (SpatialIndex index : indexes) {
                assertFalse(index.contains(stale), "removals: " + removals);
                if (removals % 64 == 0) {
                    assertThrows(IllegalArgumentException.class, () -> index.userValue(stale));
                    assertThrows(IllegalArgumentException.class, () -> index.move(stale, 0, 0, 0, 1, 1, 1));
                    assertThrows(IllegalArgumentException.class, () -> index.remove(stale));
                }
                assertEquals(removals, index.userValue(h));
                index.remove(h);
            }
            if (removals % 4096 == 0) {
                tree.validate();
                deferred.validate();
            }
        }
        tree.validate();
        deferred.validate();
        assertEquals(Handles.QUARANTINE + 1, tree.handles.highWater(), "a pool of one keeps a quarantine of slots");
        // the bound is exact: the 7-bit generation of the first slot wraps at its 128th reuse
        int again = addAll(indexes, PROMISED);
        assertEquals(stale, again);
        for (SpatialIndex index : indexes) {
            assertTrue(index.contains(stale));
            assertEquals(PROMISED, index.userValue(again));
        }
        tree.validate();
        deferred.validate();
    }

    /** Adds the same box to every index; they hand out the same handle, which this returns. */
    private static int addAll(SpatialIndex[] indexes, long userValue) {
        int handle = indexes[0].add(0, 0, 0, 1, 1, 1, userValue, -1L);
        for (int i = 1; i < indexes.length; i++) {
            assertEquals(handle, indexes[i].add(0, 0, 0, 1, 1, 1, userValue, -1L), "index " + i);
        }
        return handle;
    }
}
