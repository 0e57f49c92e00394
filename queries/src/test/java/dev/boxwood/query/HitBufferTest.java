package dev.boxwood.query;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HitBufferTest {

    @Test
    void shouldKeepEveryEntryAsItGrows() {
        HitBuffer hits = new HitBuffer(1);
        for (int i = 0; i < 1000; i++) {
            hits.add(i, 10L * i, 0.5 * i, i % 3);
        }
        assertEquals(1000, hits.count());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, hits.handle(i));
            assertEquals(10L * i, hits.userValue(i));
            assertEquals(0.5 * i, hits.fraction(i));
            assertEquals(i % 3, hits.part(i));
        }
    }

    @Test
    void shouldGrowByDoublingUpToTheLargestArrayAndThenRefuseClearly() {
        assertEquals(32, HitBuffer.grownCapacity(16));
        // doubling 2^30 would overflow to a negative length
        assertEquals(HitBuffer.MAX_ENTRIES, HitBuffer.grownCapacity(1 << 30));
        assertEquals(HitBuffer.MAX_ENTRIES, HitBuffer.grownCapacity(HitBuffer.MAX_ENTRIES - 1));
        IllegalStateException full = assertThrows(IllegalStateException.class,
                () -> HitBuffer.grownCapacity(HitBuffer.MAX_ENTRIES));
        assertTrue(full.getMessage().contains("collector holds at most") && full.getMessage().contains("reset()"),
                full.getMessage());
    }
}
