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

    @Test
    void shouldRefuseArraysItCannotDrainIntoAndKeepTheResults() {
        LowestOverlaps lowest = new LowestOverlaps();
        lowest.reset(3);
        for (int h : new int[] {9, 3, 7, 1}) {
            lowest.visit(h, h * 10L);
        }
        int[] shared = new int[3];
        assertNamed("parts and handles", () -> lowest.drainSorted(shared, shared, null, 0));
        assertNamed("handles", () -> lowest.drainSorted(null, null, null, 0));
        assertNamed("at", () -> lowest.drainSorted(null, new int[3], null, -1));
        assertNamed("handles must hold at least 4", () -> lowest.drainSorted(null, new int[3], null, 1));
        assertNamed("parts", () -> lowest.drainSorted(new int[2], new int[3], null, 0));
        assertNamed("userValues", () -> lowest.drainSorted(null, new int[3], new long[2], 0));
        assertNamed("handles must hold at least", () -> lowest.drainSorted(null, new int[3], null,
                Integer.MAX_VALUE));
        assertEquals(3, lowest.kept(), "nothing drained");
        int[] parts = new int[3];
        int[] handles = new int[3];
        long[] values = new long[3];
        lowest.drainSorted(parts, handles, values, 0);
        assertArrayEquals(new int[] {1, 3, 7}, handles);
        assertArrayEquals(new long[] {10, 30, 70}, values);
    }

    private static void assertNamed(String what, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains(what), e.getMessage());
    }
}
