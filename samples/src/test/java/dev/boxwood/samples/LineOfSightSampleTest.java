package dev.boxwood.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.BitSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.boxwood.query.AnyHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.samples.LineOfSightSample.Result;
import dev.boxwood.samples.LineOfSightSample.Settings;
import dev.boxwood.samples.support.City;
import dev.boxwood.samples.support.SampleArgs;
import dev.boxwood.samples.support.Scene;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.testkit.BruteForceIndex;

/** Runs the line-of-sight sample small and recomputes its last tick by brute force. */
class LineOfSightSampleTest {

    @TempDir
    Path out;

    @Test
    void shouldReportTheNearestEnemiesAndSightLinesOfABruteForceRecomputation() throws Exception {
        SampleArgs.quiet();
        Settings settings = new Settings(4, 500, 3, 4, 60, 2);
        Result result = LineOfSightSample.run(out, settings);

        Pictures.assertPicture(result.picture(), 1000, 1000);
        int agents = settings.agents();
        int k = settings.nearest();

        // The same static world and the same agents, in brute-force indexes with the same origins, so the stored
        // float boxes are identical and so are the answers.
        Scene city = new City(0, 0, settings.blocks(), settings.blocks()).generate(LineOfSightSample.SEED);
        BruteForceIndex buildings;
        try (MappedWorld world = MappedWorld.open(result.worldFile())) {
            assertEquals(city.size(), world.size());
            buildings = new BruteForceIndex(world.originX(), world.originY(), world.originZ());
        }
        for (int i = 0; i < city.size(); i++) {
            buildings.add(city.bound(i, 0), city.bound(i, 1), city.bound(i, 2), city.bound(i, 3), city.bound(i, 4),
                    city.bound(i, 5), i, 1L << city.kind(i));
        }
        BruteForceIndex bodies = new BruteForceIndex();
        int[] handles = new int[agents];
        double[] b = result.agentBoxes();
        for (int i = 0; i < agents; i++) {
            handles[i] = bodies.add(b[6 * i], b[6 * i + 1], b[6 * i + 2], b[6 * i + 3], b[6 * i + 4], b[6 * i + 5],
                    i, LineOfSightSample.TEAM_0 << Result.team(i));
        }
        double[] centreX = new double[agents];
        double[] centreZ = new double[agents];
        double[] stored = new double[6 * agents];
        double[] box = new double[6];
        for (int i = 0; i < agents; i++) {
            bodies.getTightBox(handles[i], box);
            System.arraycopy(box, 0, stored, 6 * i, 6);
            centreX[i] = (box[0] + box[3]) / 2;
            centreZ[i] = (box[2] + box[5]) / 2;
        }

        int[] expectedTargets = new int[agents * k];
        BitSet expectedVisible = new BitSet();
        TraversalStack stack = new TraversalStack();
        AnyHit hit = new AnyHit();
        double range = settings.range();
        for (int i = 0; i < agents; i++) {
            // Every enemy within range, by the distance from the eyes to its body's stored box, then by index:
            // the k first.
            for (int slot = 0; slot < k; slot++) {
                int best = -1;
                double bestDistance = Double.POSITIVE_INFINITY;
                for (int j = 0; j < agents; j++) {
                    if (Result.team(j) == Result.team(i) || taken(expectedTargets, i * k, slot, j)) {
                        continue;
                    }
                    double d = squaredDistanceToBox(centreX[i], LineOfSightSample.EYE, centreZ[i], stored, j);
                    if (d <= range * range && d < bestDistance) {
                        best = j;
                        bestDistance = d;
                    }
                }
                expectedTargets[i * k + slot] = best;
                if (best < 0) {
                    continue;
                }
                double dx = centreX[best] - centreX[i];
                double dz = centreZ[best] - centreZ[i];
                double dy = LineOfSightSample.CHEST - LineOfSightSample.EYE;
                buildings.rayCast(centreX[i], LineOfSightSample.EYE, centreZ[i], dx, dy, dz, 1.0,
                        LineOfSightSample.OPAQUE, hit, stack);
                boolean blocked = hit.hasHit();
                hit.setIgnored(handles[i], handles[best]);
                bodies.rayCast(centreX[i], LineOfSightSample.EYE, centreZ[i], dx, dy, dz, 1.0, -1L, hit, stack);
                hit.setIgnored(-1, -1);
                if (!blocked && !hit.hasHit()) {
                    expectedVisible.set(i * k + slot);
                }
            }
        }
        assertArrayEquals(expectedTargets, result.targets(), "nearest enemies at the last tick");
        assertEquals(expectedVisible, result.visibleAtLastTick(), "visible lines at the last tick");
        // The scene must exercise both answers, or the comparison above proves little.
        int lines = 0;
        for (int t : expectedTargets) {
            lines += t >= 0 ? 1 : 0;
        }
        assertTrue(expectedVisible.cardinality() > lines / 10 && expectedVisible.cardinality() < lines * 9 / 10,
                expectedVisible.cardinality() + " of " + lines + " visible");
    }

    /** The squared distance from a point to box {@code j} of {@code boxes} (0 inside), axis by axis. */
    private static double squaredDistanceToBox(double x, double y, double z, double[] boxes, int j) {
        double squared = 0;
        double[] point = {x, y, z};
        for (int axis = 0; axis < 3; axis++) {
            double below = boxes[6 * j + axis] - point[axis];
            double above = point[axis] - boxes[6 * j + 3 + axis];
            double gap = below > 0 ? below : above > 0 ? above : 0;
            squared += gap * gap;
        }
        return squared;
    }

    private static boolean taken(int[] targets, int first, int slots, int candidate) {
        for (int s = 0; s < slots; s++) {
            if (targets[first + s] == candidate) {
                return true;
            }
        }
        return false;
    }
}
