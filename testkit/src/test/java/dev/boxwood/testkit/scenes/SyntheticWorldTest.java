package dev.boxwood.testkit.scenes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SyntheticWorldTest {

    @Test
    void shouldBeDeterministicGivenTheSeed() {
        assertEquals(SyntheticWorld.clustered(5_000, 7).boxes(), SyntheticWorld.clustered(5_000, 7).boxes());
        assertNotEquals(SyntheticWorld.clustered(5_000, 7).boxes(), SyntheticWorld.clustered(5_000, 8).boxes());
        SyntheticWorld w = SyntheticWorld.clustered(5_000, 7);
        assertEquals(w.boxQueries(50, 3), w.boxQueries(50, 3));
        assertEquals(Arrays.toString(w.segments(50, 3).translationX),
                Arrays.toString(w.segments(50, 3).translationX));
    }

    @Test
    void shouldKeepBoxCentresInsideTheWorldWithEdgesAroundTwoMetres() {
        BoxSet b = SyntheticWorld.clustered(50_000, 1).boxes();
        double[] edges = new double[3 * b.size()];
        for (int i = 0; i < b.size(); i++) {
            double cx = (b.minX[i] + b.maxX[i]) / 2;
            double cy = (b.minY[i] + b.maxY[i]) / 2;
            double cz = (b.minZ[i] + b.maxZ[i]) / 2;
            assertTrue(cx >= 0 && cx <= 10_000 && cy >= 0 && cy <= 10_000 && cz >= 0 && cz <= 200, "box " + i);
            edges[3 * i] = b.maxX[i] - b.minX[i];
            edges[3 * i + 1] = b.maxY[i] - b.minY[i];
            edges[3 * i + 2] = b.maxZ[i] - b.minZ[i];
        }
        Arrays.sort(edges);
        assertTrue(edges[0] > 0 && edges[edges.length - 1] <= SyntheticWorld.MAX_EDGE);
        double median = edges[edges.length / 2];
        assertTrue(median > 1.9 && median < 2.1, "median edge " + median);
    }

    @Test
    void shouldConcentrateClusteredBoxesInFewerCellsThanUniformBoxes() {
        int clusteredCells = occupiedCells(SyntheticWorld.clustered(50_000, 2).boxes());
        int uniformCells = occupiedCells(SyntheticWorld.uniform(50_000, 2, WorldFrame.STANDARD).boxes());
        // uniform: 50k boxes in 10k cells leave almost none empty; clusters leave most of the world sparse
        assertTrue(uniformCells > 9_900, "uniform " + uniformCells);
        assertTrue(clusteredCells < 0.8 * uniformCells, "clustered " + clusteredCells);
    }

    private static int occupiedCells(BoxSet b) {
        boolean[] seen = new boolean[100 * 100];
        for (int i = 0; i < b.size(); i++) {
            int cx = (int) Math.min(99, (b.minX[i] + b.maxX[i]) / 200);
            int cy = (int) Math.min(99, (b.minY[i] + b.maxY[i]) / 200);
            seen[cy * 100 + cx] = true;
        }
        int count = 0;
        for (boolean s : seen) {
            count += s ? 1 : 0;
        }
        return count;
    }

    @Test
    void shouldPlaceTheSameWorldUnderAnOffsetOrScaledFrame() {
        BoxSet standard = SyntheticWorld.clustered(2_000, 4).boxes();
        BoxSet far = SyntheticWorld.clustered(2_000, 4, WorldFrame.offset(1e6)).boxes();
        BoxSet unit = SyntheticWorld.clustered(2_000, 4, WorldFrame.scaled(1e-4)).boxes();
        for (int i = 0; i < standard.size(); i++) {
            assertEquals(standard.minX[i] + 1e6, far.minX[i], 1e-9);
            assertEquals(standard.maxZ[i] + 1e6, far.maxZ[i], 1e-9);
            assertEquals(standard.maxY[i] * 1e-4, unit.maxY[i], 1e-12);
            assertEquals(standard.minZ[i] * 1e-4, unit.minZ[i], 1e-12);
        }
    }

    @Test
    void shouldSizeBoxQueriesForTenToOneHundredHits() {
        SyntheticWorld w = SyntheticWorld.clustered(20_000, 5);
        BoxSet b = w.boxes();
        BoxSet q = w.boxQueries(200, 6);
        long total = 0;
        for (int k = 0; k < q.size(); k++) {
            int hits = 0;
            for (int i = 0; i < b.size(); i++) {
                if (b.testOverlap(i, q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k])) {
                    hits++;
                }
            }
            assertTrue(hits >= SyntheticWorld.MIN_HITS && hits <= SyntheticWorld.MAX_HITS + 2, "query " + k + ": " + hits);
            total += hits;
        }
        double mean = total / (double) q.size();
        // log-uniform in [10, 100] has mean 90 / ln 10 = 39
        assertTrue(mean > 32 && mean < 47, "mean hits " + mean);
    }

    @Test
    void shouldSizeBoxQueriesInAScaledWorldToo() {
        SyntheticWorld w = SyntheticWorld.clustered(3_000, 5, new WorldFrame(1e6, -1e6, 5, 1e-3));
        BoxSet b = w.boxes();
        BoxSet q = w.boxQueries(30, 6);
        for (int k = 0; k < q.size(); k++) {
            int hits = 0;
            for (int i = 0; i < b.size(); i++) {
                hits += b.testOverlap(i, q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k]) ? 1 : 0;
            }
            assertTrue(hits >= SyntheticWorld.MIN_HITS && hits <= SyntheticWorld.MAX_HITS + 2, "query " + k + ": " + hits);
        }
    }

    @Test
    void shouldDrawFiveHundredMetreSegmentsWithinEightDegreesOfHorizontal() {
        SegmentSet s = SyntheticWorld.clustered(1_000, 9, WorldFrame.scaled(2)).segments(500, 10);
        for (int i = 0; i < s.size(); i++) {
            assertEquals(1000, s.length(i), 1e-9);
            double elevation = Math.toDegrees(Math.asin(s.translationZ[i] / s.length(i)));
            assertTrue(Math.abs(elevation) <= 8 + 1e-9, "elevation " + elevation);
            assertTrue(s.originZ[i] >= 0 && s.originZ[i] <= 400);
        }
    }

    @Test
    void shouldRejectNegativeCounts() {
        assertThrows(IllegalArgumentException.class, () -> SyntheticWorld.clustered(-1, 0));
        SyntheticWorld w = SyntheticWorld.clustered(10, 0);
        assertThrows(IllegalArgumentException.class, () -> w.boxQueries(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> w.segments(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new WorldFrame(0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new WorldFrame(Double.NaN, 0, 0, 1));
    }
}
