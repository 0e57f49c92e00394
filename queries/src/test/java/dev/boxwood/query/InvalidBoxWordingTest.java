package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.boxwood.geom.Aabb;
import dev.boxwood.geom.BoxMessages;
import dev.boxwood.geom2d.RectMinMax;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** One wording for an invalid box, whichever entry point of this module refuses it. */
class InvalidBoxWordingTest {

    private static void assertMessage(String expected, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(expected, e.getMessage());
    }

    @Test
    void shouldWordEachProblemOnceForTheValueTypeAndTheIndexChecks() {
        String inverted = "box is inverted on axis x: minX = 2.0 > maxX = 1.0";
        assertMessage(inverted, () -> new Aabb(2, 0, 0, 1, 1, 1));
        assertMessage(inverted, () -> Arguments.requireBox(2, 0, 0, 1, 1, 1));
        assertMessage(inverted, () -> Arguments.requireStorableBox(0, 0, 0, 2, 0, 0, 1, 1, 1));
        assertMessage("boxes: box 7 " + inverted.substring("box ".length()),
                () -> Arguments.requireBox("boxes", 7, 2, 0, 0, 1, 1, 1));

        String nan = "box has a NaN bound on axis y: minY = 0.0, maxY = NaN";
        assertMessage(nan, () -> new Aabb(0, 0, 0, 1, Double.NaN, 1));
        assertMessage(nan, () -> Arguments.requireBox(0, 0, 0, 1, Double.NaN, 1));
        String infinite = "box has an infinite bound on axis z: minZ = -Infinity, maxZ = 1.0";
        assertMessage(infinite, () -> new Aabb(0, 0, Double.NEGATIVE_INFINITY, 1, 1, 1));
        assertMessage(infinite, () -> Arguments.requireBox(0, 0, Double.NEGATIVE_INFINITY, 1, 1, 1));
        assertMessage("boxes: box 0 has an infinite bound on axis z: minZ = -Infinity, maxZ = 1.0",
                () -> Arguments.requireBox("boxes", 0, 0, 0, Double.NEGATIVE_INFINITY, 1, 1, 1));
        assertMessage("rectangle is inverted on axis y: minY = 2.0 > maxY = 1.0", () -> new RectMinMax(0, 2, 1, 1));
    }

    @Test
    void shouldNameTheFirstAxisWithAProblemAndNaNBeforeInfiniteBeforeInverted() {
        // x is fine, y is inverted and z is NaN: the axes are taken in order
        assertMessage("box is inverted on axis y: minY = 3.0 > maxY = 1.0",
                () -> Arguments.requireBox(0, 3, Double.NaN, 1, 1, 1));
        assertMessage("box is inverted on axis y: minY = 3.0 > maxY = 1.0", () -> new Aabb(0, 3, Double.NaN, 1, 1, 1));
        // an infinite lower bound above a finite upper one is inverted too: infinite is named
        assertEquals("has an infinite bound on axis x: minX = Infinity, maxX = 1.0",
                BoxMessages.problem(0, Double.POSITIVE_INFINITY, 1.0));
        assertEquals("has a NaN bound on axis x: minX = NaN, maxX = Infinity",
                BoxMessages.problem(0, Double.NaN, Double.POSITIVE_INFINITY));
        // floats written as floats
        assertEquals("is inverted on axis z: minZ = 0.2 > maxZ = 0.1", BoxMessages.problem(2, 0.2f, 0.1f));
        assertNull(BoxMessages.problem(1, 0.0, 0.0), "a flat interval is valid");
        assertNull(BoxMessages.problem(1, -0.0f, 0.0f));
        assertEquals("z", BoxMessages.axisName(2));
        assertThrows(IllegalArgumentException.class, () -> BoxMessages.problem(3, 0.0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> BoxMessages.invalid("box", 0, 0.0, 1.0));
    }

    @Test
    void shouldNameTheAxisAndBothBoundsOfABoxBeyondTheStorageRange() {
        assertMessage("box reaches more than 1.0E18 from the origin 5.0 on axis y (the float storage range): "
                + "minY = 0.0, maxY = 2.0E18", () -> Arguments.requireStorableBox(5, 5, 5, 0, 0, 0, 1, 2e18, 1));
        // checked after every axis is valid
        assertMessage("box is inverted on axis z: minZ = 1.0 > maxZ = 0.0",
                () -> Arguments.requireStorableBox(0, 0, 0, 0, 0, 1, 1, 2e18, 0));
    }
}
