package dev.boxwood.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.samples.LevelEditorSample.Level;
import dev.boxwood.samples.LevelEditorSample.LevelResult;
import dev.boxwood.samples.LevelEditorSample.Pick;
import dev.boxwood.samples.support.SampleArgs;
import dev.boxwood.samples.support.Scene;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.testkit.scenes.LevelScenes;

/** Runs the level editor in quick mode and recomputes every pick and selection by scanning all objects. */
class LevelEditorSampleTest {

    @TempDir
    Path out;

    @Test
    void shouldPickAndSelectWhatABruteForceScanFinds() throws Exception {
        SampleArgs.quiet();
        List<LevelResult> results = LevelEditorSample.run(out, true);
        List<Level> levels = List.of(LevelEditorSample.cityLevel(4),
                LevelEditorSample.realLevel(LevelScenes.Level.BOUNDS02));
        assertEquals(levels.size(), results.size());
        for (int l = 0; l < levels.size(); l++) {
            Level level = levels.get(l);
            LevelResult result = results.get(l);
            Scene scene = level.scene();
            Pictures.assertPicture(result.picture(), LevelEditorSample.WIDTH, LevelEditorSample.HEIGHT);
            Pictures.assertPicture(result.overview(), LevelEditorSample.WIDTH, LevelEditorSample.HEIGHT);

            int picked = 0;
            for (Pick pick : result.picks()) {
                double[] r = pick.ray();
                int best = -1;
                double bestFraction = Double.NaN;
                for (int i = 0; i < scene.size(); i++) {
                    double t = scene.intersectSegment(i, r[0], r[1], r[2], r[3], r[4], r[5], 1.0);
                    if (t >= 0 && (best < 0 || t < bestFraction)) {
                        best = i;
                        bestFraction = t;
                    }
                }
                assertEquals(best, pick.object(), level.name() + " pick at " + pick.x() + ", " + pick.y());
                assertEquals(bestFraction, pick.fraction(), 0.0, level.name() + " pick fraction");
                if (best >= 0) {
                    assertSurface(scene, best, r, pick, level.name());
                } else {
                    assertEquals(null, pick.surface(), level.name() + " no surface without a pick");
                }
                picked += best >= 0 ? 1 : 0;
            }
            assertTrue(picked > 0, level.name() + ": some click picks something");

            assertArrayEquals(expected(level, LevelEditorSample.CROSSING, false), result.crossing(),
                    level.name() + " crossing selection");
            assertArrayEquals(expected(level, LevelEditorSample.WINDOW, true), result.window(),
                    level.name() + " window selection");
            assertTrue(result.crossing().length > 0 && result.window().length > 0, level.name() + " selects");

            // saved without the window selection: the crossing marquee on the mapped file selects the rest
            int[] kept = Arrays.stream(result.crossing())
                    .filter(o -> Arrays.binarySearch(result.window(), o) < 0).toArray();
            assertArrayEquals(kept, result.savedCrossing(), level.name() + " crossing selection in the saved file");
            try (MappedWorld saved = MappedWorld.open(result.savedWorld())) {
                assertEquals(scene.size() - result.window().length, saved.size());
                long[] values = saved.readUserValues();
                Arrays.sort(values);
                for (int object : result.window()) {
                    assertTrue(Arrays.binarySearch(values, object) < 0, level.name() + " deleted " + object);
                }
            }
        }
    }

    /** The pick's point lies on a face of one of the object's parts, on the ray, and its normal is that face's. */
    private static void assertSurface(Scene scene, int object, double[] r, Pick pick, String level) {
        double[] s = pick.surface();
        double t = pick.fraction();
        for (int k = 0; k < 3; k++) {
            assertEquals(r[k] + t * r[k + 3], s[k], 1e-9 * (1 + Math.abs(s[k])), level + " point on the ray");
        }
        double[] normal = {s[3], s[4], s[5]};
        int axis = -1;
        for (int k = 0; k < 3; k++) {
            if (normal[k] != 0) {
                assertEquals(-1, axis, level + " an axis-aligned normal");
                assertEquals(1.0, Math.abs(normal[k]), level + " a unit normal");
                axis = k;
            }
        }
        assertTrue(axis >= 0 && normal[axis] * r[axis + 3] < 0, level + " the normal faces the camera");
        // the part entered first (the lowest on ties), found by scanning the parts with the pick's maxFraction
        int first = -1;
        for (int p = scene.firstPart(object); p < scene.endPart(object) && first < 0; p++) {
            double pt = SegmentAabb.intersect(r[0], r[1], r[2], r[3], r[4], r[5], 1.0, scene.partBound(p, 0),
                    scene.partBound(p, 1), scene.partBound(p, 2), scene.partBound(p, 3), scene.partBound(p, 4),
                    scene.partBound(p, 5));
            first = pt == t ? p : -1;
        }
        assertTrue(first >= 0, level + " a part entered at the pick's fraction");
        for (int k = 0; k < 3; k++) {
            assertTrue(s[k] >= scene.partBound(first, k) && s[k] <= scene.partBound(first, k + 3),
                    level + " the point on that part");
        }
        assertEquals(scene.partBound(first, normal[axis] < 0 ? axis : axis + 3), s[axis],
                level + " the point on the face of the normal");
    }

    /** Every object, tested directly: inside the marquee's frustum (window) or touching it with a part (crossing). */
    private static int[] expected(Level level, double[] rectangle, boolean window) {
        ConvexRegion frustum = level.camera().frustum(
                LevelEditorSample.u(rectangle[0] * LevelEditorSample.WIDTH),
                LevelEditorSample.v(rectangle[1] * LevelEditorSample.HEIGHT),
                LevelEditorSample.u(rectangle[2] * LevelEditorSample.WIDTH),
                LevelEditorSample.v(rectangle[3] * LevelEditorSample.HEIGHT));
        Scene scene = level.scene();
        int[] selected = new int[scene.size()];
        int n = 0;
        for (int i = 0; i < scene.size(); i++) {
            boolean in = window
                    ? frustum.containsBox(scene.bound(i, 0), scene.bound(i, 1), scene.bound(i, 2), scene.bound(i, 3),
                    scene.bound(i, 4), scene.bound(i, 5))
                    : LevelEditorSample.touchesAnyPart(frustum, scene, i);
            if (in) {
                selected[n++] = i;
            }
        }
        return Arrays.copyOf(selected, n);
    }
}
