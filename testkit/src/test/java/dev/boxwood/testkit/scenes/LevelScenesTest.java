package dev.boxwood.testkit.scenes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LevelScenesTest {

    @Test
    void shouldLoadEveryLineOfEachLevel() {
        // line counts of the shipped files (wc -l)
        assertEquals(288, LevelScenes.load(LevelScenes.Level.BOUNDS01).size());
        assertEquals(4221, LevelScenes.load(LevelScenes.Level.BOUNDS02).size());
        assertEquals(268, LevelScenes.load(LevelScenes.Level.BOUNDS03).size());
    }

    @Test
    void shouldParseTheFirstLineAndApplyTheScale() {
        BoxSet raw = LevelScenes.load(LevelScenes.Level.BOUNDS03, 1);
        // first line of bounds03.txt: -5600 9300 1800 -5400 9600 2100
        assertEquals(-5600, raw.minX[0]);
        assertEquals(9600, raw.maxY[0]);
        BoxSet scaled = LevelScenes.load(LevelScenes.Level.BOUNDS03);
        assertEquals(0.01, LevelScenes.Level.BOUNDS03.authorScale());
        for (int i = 0; i < raw.size(); i++) {
            assertEquals(raw.minZ[i] * 0.01, scaled.minZ[i], 1e-12);
            assertEquals(raw.maxX[i] * 0.01, scaled.maxX[i], 1e-12);
        }
        assertThrows(IllegalArgumentException.class, () -> LevelScenes.load(LevelScenes.Level.BOUNDS01, 0));
    }

    @Test
    void shouldDrawQueriesInsideTheLevelBounds() {
        BoxSet level = LevelScenes.load(LevelScenes.Level.BOUNDS02);
        double[] b = level.bounds();
        SegmentSet s = LevelScenes.randomSegments(level, 300, 1);
        BoxSet q = LevelScenes.randomBoxQueries(level, 300, 2);
        double diagonal = Math.sqrt(Math.pow(b[3] - b[0], 2) + Math.pow(b[4] - b[1], 2) + Math.pow(b[5] - b[2], 2));
        int anyHit = 0;
        for (int i = 0; i < 300; i++) {
            assertTrue(s.originX[i] >= b[0] && s.originX[i] <= b[3] && s.originZ[i] >= b[2] && s.originZ[i] <= b[5]);
            assertEquals(diagonal, s.length(i), 1e-9 * diagonal);
            double cx = (q.minX[i] + q.maxX[i]) / 2;
            assertTrue(cx >= b[0] && cx <= b[3] && q.minY[i] <= q.maxY[i]);
            for (int k = 0; k < level.size() && anyHit <= i; k++) {
                anyHit += level.testOverlap(k, q.minX[i], q.minY[i], q.minZ[i], q.maxX[i], q.maxY[i], q.maxZ[i]) ? 1 : 0;
            }
        }
        assertTrue(anyHit > 30, "queries overlapping something: " + anyHit);
        assertThrows(IllegalArgumentException.class, () -> LevelScenes.randomSegments(new BoxSet(0), 1, 1));
    }
}
