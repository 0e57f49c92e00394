package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LowestOverlapsTest {

    @Test
    void shouldKeepTheLowestByPartThenHandleAndCountAll() {
        SplittableRandom random = new SplittableRandom(5);
        LowestOverlaps lowest = new LowestOverlaps();
        for (int trial = 0; trial < 2_000; trial++) {
            int n = random.nextInt(0, 60);
            int max = random.nextInt(0, 20);
            long[] keys = new long[n];
            lowest.reset(max);
            int part = 0;
            for (int i = 0; i < n; i++) {
                if (random.nextInt(8) == 0) {
                    part = random.nextInt(0, 5);
                    lowest.enterPart(part);
                }
                int handle = random.nextInt(0, Integer.MAX_VALUE);
                keys[i] = (long) part << 32 | handle;
                lowest.visit(handle, keys[i] ^ 0x5555);
            }
            Arrays.sort(keys);
            int kept = Math.min(n, max);
            assertEquals(n, lowest.count());
            assertEquals(kept, lowest.kept());
            int[] parts = new int[kept + 1];
            int[] handles = new int[kept + 1];
            long[] values = new long[kept + 1];
            lowest.drainSorted(parts, handles, values, 1);
            for (int k = 0; k < kept; k++) {
                assertEquals((int) (keys[k] >>> 32), parts[k + 1], "trial " + trial);
                assertEquals((int) keys[k], handles[k + 1], "trial " + trial);
                assertEquals(keys[k] ^ 0x5555, values[k + 1], "trial " + trial);
            }
            assertEquals(0, lowest.kept(), "drained");
        }
        // without parts and values: handles alone
        lowest.reset(2);
        for (int h : new int[] {9, 3, 7, 1}) {
            lowest.visit(h, 0);
        }
        int[] handles = new int[2];
        lowest.drainSorted(null, handles, null, 0);
        assertArrayEquals(new int[] {1, 3}, handles);
        assertThrows(IllegalArgumentException.class, () -> lowest.reset(-1));
    }
}
