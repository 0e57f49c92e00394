package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The collectors record the part ({@link PartAware#enterPart}) of every result, so that equal handles from the
 * parts of one index (a tiled world's tiles) stay apart, and order results by part before handle.
 */
class CollectorPartsTest {

    private static void begin(SegmentCollector collector) {
        collector.begin(0, 0, 0, 1, 0, 0, 1.0);
    }

    @Test
    void shouldBreakClosestHitTiesByLowerPartThenLowerHandle() {
        ClosestHit closest = new ClosestHit();
        begin(closest);
        assertEquals(-1, closest.part(), "no hit, no part");
        closest.visit(7, 70, 0.5);
        assertEquals(0, closest.part(), "an index of one part reports part 0");
        closest.enterPart(2);
        assertTrue(closest.visit(1, 21, 0.5) < 0, "same fraction, higher part: not closer");
        closest.enterPart(0);
        assertTrue(closest.visit(3, 30, 0.5) > 0, "same part, lower handle: closer");
        assertEquals(3, closest.handle());
        closest.enterPart(3);
        // clipped to 0.4, an equal fraction in a lower part must still be reported and win
        assertEquals(0.4, closest.visit(9, 39, 0.4));
        closest.enterPart(1);
        assertEquals(0.4, closest.visit(11, 111, 0.4));
        assertEquals(1, closest.part());
        assertEquals(11, closest.handle());
        assertEquals(111, closest.userValue());
        begin(closest);
        assertFalse(closest.hasHit());
        closest.visit(5, 50, 0.9);
        assertEquals(0, closest.part(), "begin sets the part back to 0");
    }

    @Test
    void shouldSortAllHitsByFractionThenPartThenHandle() {
        AllHits all = new AllHits();
        begin(all);
        SplittableRandom random = new SplittableRandom(7);
        List<long[]> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int part = random.nextInt(4);
            int handle = random.nextInt(5);
            double fraction = random.nextInt(3) * 0.25;
            all.enterPart(part);
            all.visit(handle, 1000L * part + handle, fraction);
            expected.add(new long[] {Double.doubleToLongBits(fraction), part, handle});
        }
        expected.sort((a, b) -> {
            for (int k = 0; k < 3; k++) {
                int c = Long.compare(a[k], b[k]); // fractions are >= 0: their bits order like them
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        all.sort();
        assertEquals(expected.size(), all.count());
        for (int i = 0; i < all.count(); i++) {
            long[] e = expected.get(i);
            assertEquals(Double.longBitsToDouble(e[0]), all.fraction(i), "hit " + i);
            assertEquals(e[1], all.part(i), "hit " + i);
            assertEquals(e[2], all.handle(i), "hit " + i);
            assertEquals(1000L * all.part(i) + all.handle(i), all.userValue(i), "hit " + i);
        }
    }

    @Test
    void shouldSortOverlapsByPartThenHandleAndForgetThePartOnReset() {
        AllOverlaps overlaps = new AllOverlaps();
        List<Long> expected = new ArrayList<>();
        for (int part : new int[] {2, 0, 1}) {
            overlaps.enterPart(part);
            for (int handle : new int[] {4, 1, 3}) {
                assertTrue(overlaps.visit(handle, 10L * part + handle));
                expected.add(10L * part + handle);
            }
        }
        Collections.sort(expected);
        overlaps.sort();
        for (int i = 0; i < overlaps.count(); i++) {
            assertEquals(expected.get(i), overlaps.userValue(i));
            assertEquals(expected.get(i) / 10, overlaps.part(i));
            assertEquals(expected.get(i) % 10, overlaps.handle(i));
        }
        overlaps.reset();
        overlaps.visit(1, 1);
        assertEquals(0, overlaps.part(0), "reset sets the part back to 0");
    }

    @Test
    void shouldRejectANegativePartAndKeepTheCurrentOne() {
        AllOverlaps overlaps = new AllOverlaps();
        overlaps.enterPart(5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> overlaps.enterPart(-1));
        assertTrue(e.getMessage().contains("part"), e.getMessage());
        overlaps.visit(1, 1);
        assertEquals(5, overlaps.part(0));
        AnyHit any = new AnyHit();
        begin(any);
        any.enterPart(4);
        assertThrows(IllegalArgumentException.class, () -> any.enterPart(Integer.MIN_VALUE));
        assertEquals(4, any.currentPart());
        assertEquals(0.0, any.visit(2, 2, 0.3), "any hit stops at once");
        assertEquals(4, any.part());
        LowestOverlaps lowest = new LowestOverlaps();
        lowest.reset(4);
        lowest.enterPart(2);
        assertThrows(IllegalArgumentException.class, () -> lowest.enterPart(-3));
        lowest.visit(7, 70);
        lowest.enterPart(0);
        lowest.visit(9, 90);
        assertEquals(2, lowest.kept());
        int[] parts = new int[2];
        int[] handles = new int[2];
        long[] values = new long[2];
        lowest.drainSorted(parts, handles, values, 0);
        assertArrayEquals(new int[] {0, 2}, parts, "the refused part did not replace part 2");
        assertArrayEquals(new int[] {9, 7}, handles);
    }

    @Test
    void shouldMergeNearestResultsOfPartsByDistanceThenPartThenHandle() {
        SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 500; round++) {
            int k = random.nextInt(0, 12);
            NearestNeighbours merged = new NearestNeighbours();
            List<String> all = new ArrayList<>();
            for (int part : new int[] {3, 0, 5, 1}) {
                NearestNeighbours one = new NearestNeighbours();
                int n = random.nextInt(0, 8);
                double d = 0;
                for (int handle = 0; handle < n; handle++) {
                    // increasing (distance, handle), as a query leaves them; distances shared across parts
                    d += random.nextInt(0, 2);
                    one.addResult(handle, 100L * part + handle, d);
                    all.add(String.format("%04.0f %d %d", d, part, handle));
                }
                merged.mergePart(one, part, k);
            }
            Collections.sort(all);
            List<String> expected = all.subList(0, Math.min(k, all.size()));
            List<String> actual = new ArrayList<>();
            for (int i = 0; i < merged.count(); i++) {
                actual.add(String.format("%04.0f %d %d", merged.distance(i), merged.part(i), merged.handle(i)));
                assertEquals(100L * merged.part(i) + merged.handle(i), merged.userValue(i));
            }
            assertEquals(expected, actual, "round " + round + ", k " + k);
        }
    }

    @Test
    void shouldRejectABadMergeAndKeepTheResults() {
        NearestNeighbours a = new NearestNeighbours();
        NearestNeighbours b = new NearestNeighbours();
        a.addResult(3, 30, 1.0);
        b.addResult(4, 40, 2.0);
        assertThrows(IllegalArgumentException.class, () -> a.mergePart(b, 1, -1));
        assertThrows(IllegalArgumentException.class, () -> a.mergePart(b, -1, 2));
        assertThrows(IllegalArgumentException.class, () -> a.mergePart(null, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> a.mergePart(a, 1, 2));
        assertEquals(1, a.count());
        a.mergePart(b, 1, 2);
        assertEquals(2, a.count());
        assertEquals(1, a.part(1));
    }

    /** A visitor of both kinds compiles and gets one default, as the bench's contenders are written. */
    private static final class BothKinds implements OverlapVisitor, RayCastVisitor {
        int lastPart = -1;

        @Override
        public boolean visit(int handle, long userValue) {
            return true;
        }

        @Override
        public double visit(int handle, long userValue, double fraction) {
            return 1.0;
        }

        @Override
        public void enterPart(int part) {
            lastPart = part;
        }
    }

    @Test
    void shouldLetOneVisitorImplementBothKinds() {
        BothKinds both = new BothKinds();
        OverlapVisitor asOverlap = both;
        asOverlap.enterPart(3);
        assertEquals(3, both.lastPart);
        OverlapVisitor lambda = (handle, userValue) -> true;
        lambda.enterPart(9); // the default does nothing
    }
}
