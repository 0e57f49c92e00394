package dev.boxwood.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.RegionMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The reference refuses the arguments every index refuses, and answers nothing for them. */
class BruteForceIndexArgumentsTest {

    private static void assertRefused(String argument, Executable query) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, query, argument);
        assertTrue(e.getMessage().contains(argument), e.getMessage());
    }

    @Test
    void shouldRefuseBadQueryArgumentsAsTheIndexesDo() {
        BruteForceIndex index = new BruteForceIndex();
        int h = index.add(0, 0, 0, 1, 1, 1, 7, -1L);
        AllOverlaps overlaps = new AllOverlaps();
        RegionMode crossing = RegionMode.CROSSING;
        assertRefused("radius", () -> index.querySphere(0, 0, 0, -1, crossing, -1L, null, overlaps));
        assertRefused("radius", () -> index.querySphere(0, 0, 0, Double.NaN, crossing, -1L, null, overlaps));
        assertRefused("radius", () -> index.querySphere(0, 0, 0, 1e151, crossing, -1L, null, overlaps));
        assertRefused("centerX", () -> index.querySphere(Double.NaN, 0, 0, 1, crossing, -1L, null, overlaps));
        assertRefused("mode", () -> index.querySphere(0, 0, 0, 1, null, -1L, null, overlaps));
        assertRefused("box is inverted on axis x: minX = 2.0 > maxX = 1.0",
                () -> index.queryBox(2, 0, 0, 1, 1, 1, crossing, -1L, null, overlaps));
        double[] obb = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 1, 1};
        assertRefused("obb", () -> index.queryObb(obb, 0, crossing, -1L, null, overlaps));
        ConvexRegion halfSpace = new ConvexRegion(new double[] {1, 0, 0, 5}, 1);
        assertRefused("bounded", () -> index.queryConvex(halfSpace, crossing, -1L, null, overlaps));
        assertEquals(0, overlaps.count(), "nothing reported for a refused query");

        ClosestHit closest = new ClosestHit();
        index.sweepSphere(-5, 0.5, 0.5, 0.5, 10, 0, 0, -1L, closest);
        assertEquals(h, closest.handle());
        double fraction = closest.fraction();
        assertRefused("radius", () -> index.sweepSphere(0, 0, 0, -1, 1, 0, 0, -1L, closest));
        assertRefused("displacementX", () -> index.sweepSphere(0, 0, 0, 1, Double.NaN, 0, 0, -1L, closest));
        assertRefused("minX", () -> index.sweepBox(Double.NaN, 0, 0, 1, 1, 1, 1, 0, 0, -1L, closest));
        assertRefused("displacementZ", () -> index.sweepBox(0, 0, 0, 1, 1, 1, 0, 0,
                Double.POSITIVE_INFINITY, -1L, closest));
        assertEquals(h, closest.handle(), "a refused sweep leaves the collector as it was");
        assertEquals(fraction, closest.fraction());

        int[] handles = new int[4];
        double[] distances = new double[4];
        assertRefused("k", () -> index.kNearest(0, 0, 0, -1, 1, -1L, null, null, handles, distances));
        assertRefused("maxDistance", () -> index.kNearest(0, 0, 0, 1, Double.NaN, -1L, null, null, handles,
                distances));
        assertRefused("maxDistance", () -> index.kNearest(0, 0, 0, 1, -1, -1L, null, null, handles, distances));
        assertRefused("x", () -> index.kNearest(Double.NaN, 0, 0, 1, 1, -1L, null, null, handles, distances));
        assertRefused("1.0E150", () -> index.kNearest(1e151, 0, 0, 1, 1, -1L, null, null, handles, distances));
    }
}
