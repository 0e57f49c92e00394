package dev.boxwood.testkit.scenes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MovingWorkloadTest {

    @Test
    void shouldMoveEveryBoxAtMostHalfAMetrePerTickKeepingItsSize() {
        SyntheticWorld world = SyntheticWorld.clustered(10_000, 1);
        MovingWorkload moving = world.moving(2);
        BoxSet start = world.boxes();
        BoxSet b = moving.boxes();
        BoxSet previous = b.copy();
        int moved = 0;
        for (int t = 0; t < 50; t++) {
            moving.tick();
            for (int i = 0; i < b.size(); i++) {
                double dx = b.minX[i] - previous.minX[i];
                double dy = b.minY[i] - previous.minY[i];
                double dz = b.minZ[i] - previous.minZ[i];
                assertTrue(Math.sqrt(dx * dx + dy * dy + dz * dz) <= 0.5 + 1e-9, "box " + i);
                assertEquals(dx, moving.displacementX[i], 1e-9);
                assertEquals(dz, moving.displacementZ[i], 1e-9);
                assertEquals(start.maxX[i] - start.minX[i], b.maxX[i] - b.minX[i], 1e-9);
                assertEquals(start.maxZ[i] - start.minZ[i], b.maxZ[i] - b.minZ[i], 1e-9);
                double cz = (b.minZ[i] + b.maxZ[i]) / 2;
                assertTrue(cz >= 0 && cz <= 200, "box " + i + " left the world");
                moved += dx != 0 || dy != 0 || dz != 0 ? 1 : 0;
            }
            b.copyInto(previous);
        }
        assertEquals(50, moving.ticks());
        assertTrue(moved > 0.99 * 50 * b.size(), "moved " + moved);
        assertNotEquals(start, b);
    }

    @Test
    void shouldBeDeterministicGivenTheSeed() {
        SyntheticWorld world = SyntheticWorld.clustered(2_000, 1);
        MovingWorkload a = world.moving(3);
        MovingWorkload c = world.moving(3);
        for (int t = 0; t < 10; t++) {
            a.tick();
            c.tick();
        }
        assertEquals(a.boxes(), c.boxes());
    }
}
