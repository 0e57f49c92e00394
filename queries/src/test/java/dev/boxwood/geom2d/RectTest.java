package dev.boxwood.geom2d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class RectTest {

    private static void assertRejects(String argument, Executable creation) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, creation);
        assertTrue(e.getMessage().startsWith(argument + " "), e.getMessage());
    }

    private static void assertMessage(String expected, Executable creation) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, creation);
        assertEquals(expected, e.getMessage());
    }

    @Test
    void shouldRejectBadBoundsInTheWordingOfEveryBoxCheck() {
        assertMessage("rectangle has a NaN bound on axis x: minX = NaN, maxX = 1.0",
                () -> new RectMinMax(Double.NaN, 0, 1, 1));
        assertMessage("rectangle has an infinite bound on axis y: minY = -Infinity, maxY = 1.0",
                () -> new RectMinMax(0, Double.NEGATIVE_INFINITY, 1, 1));
        assertMessage("rectangle has an infinite bound on axis x: minX = 0.0, maxX = Infinity",
                () -> new RectMinMax(0, 0, Double.POSITIVE_INFINITY, 1));
        assertMessage("rectangle has a NaN bound on axis y: minY = 0.0, maxY = NaN",
                () -> new RectMinMax(0, 0, 1, Double.NaN));
        assertMessage("rectangle is inverted on axis x: minX = 2.0 > maxX = 1.0", () -> new RectMinMax(2, 0, 1, 1));
        assertMessage("rectangle is inverted on axis y: minY = 2.0 > maxY = 1.0", () -> new RectMinMax(0, 2, 1, 1));
    }

    @Test
    void shouldRejectNonFiniteCoordinatesNamingTheArgument() {
        assertRejects("centerX", () -> new RectCenter(Double.NaN, 0, 1, 1));
        assertRejects("centerY", () -> new RectCenter(0, Double.POSITIVE_INFINITY, 1, 1));
        assertRejects("halfWidth", () -> new RectCenter(0, 0, Double.NaN, 1));
        assertRejects("halfHeight", () -> new RectCenter(0, 0, 1, Double.POSITIVE_INFINITY));
        assertRejects("x", () -> new RectCorner(Double.NaN, 0, 1, 1));
        assertRejects("y", () -> new RectCorner(0, Double.NaN, 1, 1));
        assertRejects("width", () -> new RectCorner(0, 0, Double.POSITIVE_INFINITY, 1));
        assertRejects("height", () -> new RectCorner(0, 0, 1, Double.NaN));
    }

    @Test
    void shouldRejectNegativeSizes() {
        assertRejects("halfWidth", () -> new RectCenter(0, 0, -1e-300, 1));
        assertRejects("halfHeight", () -> new RectCenter(0, 0, 1, -2));
        assertRejects("width", () -> new RectCorner(0, 0, -1, 1));
        assertRejects("height", () -> new RectCorner(0, 0, 1, -0.5));
    }

    @Test
    void shouldAcceptZeroSizeRectangles() {
        assertEquals(new RectMinMax(3, 4, 3, 4), new RectCenter(3, 4, 0, 0).toMinMax());
        assertEquals(new RectMinMax(3, 4, 3, 9), new RectCorner(3, 4, 0, 5).toMinMax());
    }

    @Test
    void shouldConvertBetweenTheThreeRepresentations() {
        // left 1, right 5, bottom -2, top 4: centre (3, 1), half extents (2, 3), size (4, 6)
        RectMinMax bounds = new RectMinMax(1, -2, 5, 4);
        RectCenter center = new RectCenter(3, 1, 2, 3);
        RectCorner corner = new RectCorner(1, -2, 4, 6);
        assertEquals(center, bounds.toCenter());
        assertEquals(corner, bounds.toCorner());
        assertEquals(bounds, center.toMinMax());
        assertEquals(corner, center.toCorner());
        assertEquals(bounds, corner.toMinMax());
        assertEquals(center, corner.toCenter());
    }

    @Test
    void shouldKeepTheCentreAccurateFarFromTheOrigin() {
        // (min + max) / 2 would be exact here too; the point is that min + (max - min) / 2 stays within the box
        RectMinMax bounds = new RectMinMax(1e7, -1e7, 1e7 + 1, -1e7 + 0.5);
        RectCenter center = bounds.toCenter();
        assertEquals(1e7 + 0.5, center.centerX());
        assertEquals(-1e7 + 0.25, center.centerY());
        assertEquals(0.5, center.halfWidth());
        assertEquals(0.25, center.halfHeight());
        assertEquals(bounds, center.toMinMax());
    }

    @Test
    void shouldReportOverflowingConversions() {
        RectMinMax huge = new RectMinMax(-Double.MAX_VALUE, 0, Double.MAX_VALUE, 1);
        assertRejects("width", huge::toCorner);
        assertRejects("centerX", huge::toCenter); // min + (max - min) / 2 overflows first
    }
}
