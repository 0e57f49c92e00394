package dev.boxwood.query;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandlesTest {

    @Test
    void shouldReuseFreedSlotsFirstInFirstOutWithANewGenerationOnceTheQuarantineIsFull() {
        Handles handles = new Handles(1);
        int a = handles.allocate();
        int b = handles.allocate();
        int c = handles.allocate();
        assertEquals(0, a);
        assertEquals(1, b);
        assertEquals(2, c);
        handles.free(b);
        handles.free(a);
        handles.validate();
        // two slots free, fewer than the quarantine holds: fresh slots
        assertEquals(3, handles.allocate());
        assertEquals(4, handles.allocate());
        int[] more = new int[Handles.QUARANTINE];
        for (int i = 0; i < more.length; i++) {
            more[i] = handles.allocate();
        }
        assertEquals(4 + Handles.QUARANTINE, more[more.length - 1], "still fresh slots, in order");
        // free the rest of a full quarantine: b and a first, then these
        for (int i = 0; i < Handles.QUARANTINE - 2; i++) {
            handles.free(more[i]);
        }
        handles.validate();
        assertEquals(Handles.QUARANTINE, handles.highWater() - handles.size(), "a full quarantine");
        int d = handles.allocate();
        assertEquals(1, d & Handles.SLOT_MASK, "the oldest freed slot comes back first");
        assertEquals(1, (d & Handles.GENERATION_MASK) >>> Handles.SLOT_BITS);
        int e = handles.allocate();
        assertEquals(5 + Handles.QUARANTINE, e, "one short of a full quarantine again: a fresh slot");
        handles.free(e);
        int f = handles.allocate();
        assertEquals(0, f & Handles.SLOT_MASK, "full again: the next oldest");
        assertFalse(handles.isLive(a));
        assertFalse(handles.isLive(b));
        assertTrue(handles.isLive(d));
        assertTrue(handles.isLive(f));
        handles.validate();
    }

    @Test
    void shouldRejectStaleHandlesNamingTheArgument() {
        Handles handles = new Handles(4);
        int a = handles.allocate();
        handles.free(a);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> handles.slotOf(a, "target"));
        assertTrue(e.getMessage().startsWith("target " + a), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> handles.free(a));
        assertThrows(IllegalArgumentException.class, () -> handles.slotOf(Handles.NONE, "handle"));
        assertThrows(IllegalArgumentException.class, () -> handles.slotOf(77, "handle"));
    }

    @Test
    void shouldNotHandAStaleHandleOutAgainBefore128QuarantinesOfRemovals() {
        Handles handles = new Handles(1);
        int first = handles.allocate();
        int h = first;
        int promised = 128 * Handles.QUARANTINE;
        for (int removals = 1; removals < promised; removals++) {
            handles.free(h);
            h = handles.allocate();
            assertTrue(h >= 0, "handles stay non-negative");
            assertFalse(h == first, "handle " + first + " given out again after " + removals + " removals");
            assertFalse(handles.isLive(first));
        }
        handles.validate();
        handles.free(h);
        assertEquals(first, handles.allocate(), "one object added and removed over and over reaches the bound"
                + " exactly: the 7-bit generation of slot 0 wraps at its 128th reuse");
        handles.validate();
    }

    @Test
    void shouldGiveTheQuarantineUpRatherThanFailOnceEverySlotWasUsed() {
        Handles handles = new Handles(Handles.MAX_SLOTS - 1);
        for (int i = 0; i < Handles.MAX_SLOTS - 1; i++) {
            handles.allocate();
        }
        assertThrows(IllegalStateException.class, handles::allocate, "every slot live: full");
        handles.free(7);
        handles.free(3);
        int h = handles.allocate();
        assertEquals(7, h & Handles.SLOT_MASK, "two slots free, far fewer than the quarantine: the oldest reused");
        assertEquals(3, handles.allocate() & Handles.SLOT_MASK);
        assertEquals(Handles.MAX_SLOTS - 1, handles.size());
        assertThrows(IllegalStateException.class, handles::allocate);
        handles.validate();
    }

    @Test
    void shouldStayConsistentThroughRandomUse() {
        Handles handles = new Handles(2);
        ArrayDeque<Integer> live = new ArrayDeque<>();
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 20000; i++) {
            if (live.isEmpty() || random.nextInt(3) != 0) {
                int h = handles.allocate();
                assertFalse(live.contains(h));
                live.addLast(h);
            } else {
                handles.free(random.nextBoolean() ? live.removeFirst() : live.removeLast());
            }
            if (i % 500 == 0) {
                handles.validate();
            }
        }
        handles.validate();
        assertEquals(live.size(), handles.size());
        for (int h : live) {
            assertTrue(handles.isLive(h));
        }
    }
}
