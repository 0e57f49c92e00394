package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** The world writers word an invalid box as the trees do, naming the box's index in the array. */
class InvalidBoxWordingTest {

    @TempDir
    Path dir;

    private static void assertMessage(String expected, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(expected, e.getMessage());
    }

    @Test
    void shouldNameTheBoxTheAxisAndTheProblem() throws Exception {
        double[] inverted = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 2, 4, 5, 1, 5};
        double[] nan = inverted.clone();
        nan[13] = Double.NaN;
        double[] infinite = inverted.clone();
        infinite[12] = Double.NEGATIVE_INFINITY;
        String[] expected = {"boxes: box 2 is inverted on axis y: minY = 2.0 > maxY = 1.0",
            "boxes: box 2 has a NaN bound on axis y: minY = NaN, maxY = 1.0",
            "boxes: box 2 has an infinite bound on axis x: minX = -Infinity, maxX = 5.0"};
        double[][] bad = {inverted, nan, infinite};
        Path file = dir.resolve("world.bxw");
        Path tiles = Files.createDirectory(dir.resolve("tiles"));
        for (int i = 0; i < bad.length; i++) {
            double[] boxes = bad[i];
            assertMessage(expected[i], () -> StaticWorldWriter.write(file, boxes, null, null, null));
            assertMessage(expected[i], () -> TileSetWriter.writeGrid(tiles, "tile", boxes, null, null, 10));
        }
        assertFalse(Files.exists(file));
        try (var listing = Files.list(tiles)) {
            assertEquals(0, listing.count());
        }
    }
}
