package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ConvexRegion#translated}: the same solid in a frame whose origin is elsewhere. */
class ConvexRegionTranslationTest {

    /** The cube [-1, 1]^3 around (cx, cy, cz) cut by the plane x + y + z <= cx + cy + cz + 1. */
    private static ConvexRegion cutCube(double cx, double cy, double cz) {
        double s = 1 / Math.sqrt(3);
        return new ConvexRegion(new double[] {
            1, 0, 0, cx + 1, -1, 0, 0, -cx + 1,
            0, 1, 0, cy + 1, 0, -1, 0, -cy + 1,
            0, 0, 1, cz + 1, 0, 0, -1, -cz + 1,
            s, s, s, s * (cx + cy + cz + 1)}, 7);
    }

    @Test
    void shouldKeepTheCopiesOfTheLastSixteenOrigins() {
        ConvexRegion world = cutCube(5, 5, 5);
        ConvexRegion[] copies = new ConvexRegion[17];
        for (int i = 0; i < 16; i++) {
            copies[i] = world.translated(i + 1, 0, 0);
        }
        for (int i = 0; i < 16; i++) {
            assertSame(copies[i], world.translated(i + 1, 0, 0), "origin " + (i + 1));
        }
        copies[16] = world.translated(100, 0, 0);
        assertSame(copies[16], world.translated(100, 0, 0));
        assertNotSame(copies[0], world.translated(1, 0, 0), "the oldest copy gives way to the seventeenth origin");
        for (int i = 2; i < 16; i++) {
            assertSame(copies[i], world.translated(i + 1, 0, 0), "origin " + (i + 1));
        }
    }

    @Test
    void shouldNormalizeTinyAndHugeNormalsLikeUnitOnes() {
        ConvexRegion unit = cutCube(3, -2, 1);
        for (double scale : new double[] {1e-200, 1e-300, 1e200}) {
            double[] planes = unit.planes().clone();
            for (int i = 0; i < planes.length; i++) {
                planes[i] *= scale;
            }
            ConvexRegion scaled = new ConvexRegion(planes, unit.planeCount());
            double[] normalized = scaled.planes();
            for (int i = 0; i < planes.length; i++) {
                assertEquals(unit.planes()[i], normalized[i], 1e-14, "scale " + scale + ", entry " + i);
            }
            assertTrue(scaled.isBounded());
            assertEquals(unit.vertexCount(), scaled.vertexCount());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ConvexRegion(new double[] {1e-200, 0, 0, 1e200}, 1));
        assertTrue(e.getMessage().contains("planes[0]"), e.getMessage());
    }

    @Test
    void shouldDecideBoxesMovedIntoTheNewFrameLikeTheOriginalRegion() {
        double ox = 1e6 + 0.25;
        double oy = -3e5;
        double oz = 42;
        ConvexRegion world = cutCube(ox + 3, oy - 2, oz + 1);
        ConvexRegion local = world.translated(ox, oy, oz);
        ConvexRegion expected = cutCube(3, -2, 1);
        assertSame(local, world.translated(ox, oy, oz), "the copy is kept");
        assertSame(world, world.translated(0, 0, 0));
        assertEquals(world.vertexCount(), local.vertexCount());
        SplittableRandom random = new SplittableRandom(0xC0_4E);
        int inside = 0;
        int crossing = 0;
        for (int n = 0; n < 5000; n++) {
            double x = 3 + random.nextDouble(-2.5, 2.5);
            double y = -2 + random.nextDouble(-2.5, 2.5);
            double z = 1 + random.nextDouble(-2.5, 2.5);
            double h = random.nextDouble(0, 0.7);
            int want = expected.cull(expected.allPlanes(), x - h, y - h, z - h, x + h, y + h, z + h);
            int got = local.cull(local.allPlanes(), x - h, y - h, z - h, x + h, y + h, z + h);
            assertEquals(want, got, "box at " + x + ", " + y + ", " + z + " half " + h);
            assertEquals(expected.testBox(x - h, y - h, z - h, x + h, y + h, z + h),
                    local.testBox(x - h, y - h, z - h, x + h, y + h, z + h));
            inside += got == 0 ? 1 : 0;
            crossing += got > 0 ? 1 : 0;
        }
        assertTrue(inside > 30 && crossing > 100, "inside " + inside + ", crossing " + crossing);
    }
}
