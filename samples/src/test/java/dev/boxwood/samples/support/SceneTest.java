package dev.boxwood.samples.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.geom.SurfaceHit;
import org.junit.jupiter.api.Test;

/** The samples' exact geometry: the hit of an object of several parts is described on the part entered first. */
class SceneTest {

    @Test
    void shouldDescribeTheHitOnThePartEnteredFirst() {
        Scene scene = new Scene();
        scene.begin(Scene.PROP);
        // part 0 is entered an ulp after part 1 along this segment
        scene.part(-1, 0x1p-53, 0, 1, 1, 1);
        scene.part(0, -1, 0, 1, 1, 1);
        scene.end();
        double t = scene.intersectSegment(0, -1, -0.5, 0.5, 2, 1, 0, 1.0);
        assertEquals(0.5, t);
        SurfaceHit hit = new SurfaceHit();
        assertTrue(scene.surface(0, -1, -0.5, 0.5, 2, 1, 0, 1.0, t, hit));
        assertEquals(-1.0, hit.normalX, hit.toString());
        assertEquals(0.0, hit.normalY, hit.toString());
        assertEquals(0.0, hit.x);
        assertEquals(0.0, hit.y);
        // a fraction no part is entered at: no surface
        assertFalse(scene.surface(0, -1, -0.5, 0.5, 2, 1, 0, 1.0, 0.25, hit));
        assertFalse(hit.hit);
    }
}
