package dev.boxwood.query;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraversalStackTest {

    @Test
    void shouldKeepTheRingAPowerOfTwoWhateverTheStackGrewTo() {
        TraversalStack stack = new TraversalStack(3);
        // the reference stack grows to sizes that are not powers of two; the ring must not follow it
        assertEquals(100, stack.references(100).length);
        for (int height = 0; height < 300; height += 7) {
            for (int entries = 1; entries <= 2; entries++) {
                int[] ring = stack.ring(height, entries);
                assertEquals(0, ring.length & (ring.length - 1), "a power of two: " + ring.length);
                assertTrue(ring.length >= entries * (TraversalStack.WINDOW + height + 2));
            }
        }
        int[] ring = stack.ring(10, 1);
        assertSame(ring, stack.ring(5, 2), "reused once large enough");
        assertEquals(100, stack.references(1).length, "the reference stack is unchanged by the ring");
    }

    @Test
    void shouldRejectANonPositiveInitialCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new TraversalStack(0));
    }
}
