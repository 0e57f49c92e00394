package dev.boxwood.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;

/** Checks on the samples' pictures. */
final class Pictures {

    private Pictures() {
    }

    /** The file exists, decodes as an image of the given size, and is not one flat colour. */
    static void assertPicture(Path file, int width, int height) throws IOException {
        assertTrue(Files.isRegularFile(file), file + " exists");
        BufferedImage image = ImageIO.read(file.toFile());
        assertNotNull(image, file + " is an image");
        assertEquals(width, image.getWidth(), file + " width");
        assertEquals(height, image.getHeight(), file + " height");
        int first = image.getRGB(0, 0);
        boolean varied = false;
        for (int y = 0; y < height && !varied; y += 7) {
            for (int x = 0; x < width && !varied; x += 7) {
                varied = image.getRGB(x, y) != first;
            }
        }
        assertTrue(varied, file + " shows something");
    }
}
