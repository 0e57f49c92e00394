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
    void shouldReuseFreedSlotsFirstInFirstOutWithANewGeneration() {
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
        int d = handles.allocate();
        assertEquals(1, d & Handles.SLOT_MASK, "the oldest freed slot comes back first");
        assertEquals(1, (d & Handles.GENERATION_MASK) >>> Handles.SLOT_BITS);
        int e = handles.allocate();
        assertEquals(0, e & Handles.SLOT_MASK);
        assertEquals(3, handles.allocate(), "then fresh slots");
        assertFalse(handles.isLive(a));
        assertFalse(handles.isLive(b));
        assertTrue(handles.isLive(d));
        assertEquals(4, handles.size());
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
    void shouldWrapTheGenerationAfter128Reuses() {
        Handles handles = new Handles(1);
        int first = handles.allocate();
        int h = first;
        for (int i = 0; i < 127; i++) {
            handles.free(h);
            h = handles.allocate();
            assertTrue(h >= 0, "handles stay non-negative");
            assertFalse(handles.isLive(first));
        }
        handles.free(h);
        assertEquals(first, handles.allocate(), "the 7-bit generation wraps after 128 uses of one slot");
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
