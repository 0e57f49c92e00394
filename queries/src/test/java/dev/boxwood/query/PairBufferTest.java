package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PairBufferTest {

    @Test
    void shouldKeepEveryPairInOrderThroughGrowthAndSortThem() {
        PairBuffer pairs = new PairBuffer(1);
        for (int i = 0; i < 1000; i++) {
            pairs.add(999 - i, i % 7);
        }
        assertEquals(1000, pairs.size());
        for (int i = 0; i < 1000; i++) {
            assertEquals(999 - i, pairs.first(i));
            assertEquals(i % 7, pairs.second(i));
        }
        pairs.sort();
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, pairs.first(i));
            assertEquals((999 - i) % 7, pairs.second(i));
        }
        pairs.clear();
        assertEquals(0, pairs.size());
        assertThrows(IndexOutOfBoundsException.class, () -> pairs.first(0));
    }

    @Test
    void shouldGrowByDoublingUpToTheLargestArrayAndThenRefuseClearly() {
        assertEquals(128, PairBuffer.grownCapacity(64));
        assertEquals(1 << 30, PairBuffer.grownCapacity(1 << 29));
        // doubling 2^30 would overflow to a negative length
        assertEquals(PairBuffer.MAX_PAIRS, PairBuffer.grownCapacity(1 << 30));
        assertEquals(PairBuffer.MAX_PAIRS, PairBuffer.grownCapacity(PairBuffer.MAX_PAIRS - 1));
        IllegalStateException full = assertThrows(IllegalStateException.class,
                () -> PairBuffer.grownCapacity(PairBuffer.MAX_PAIRS));
        assertTrue(full.getMessage().contains("at most"), full.getMessage());
    }
}
