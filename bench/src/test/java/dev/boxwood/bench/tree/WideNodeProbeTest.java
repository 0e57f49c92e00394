package dev.boxwood.bench.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
import org.junit.jupiter.api.Test;

/**
 * The probe's figures mean something only if its three layouts answer the same questions: its binary walk is
 * checked against a scan of the same float boxes, and the wide layouts against the binary one (exactly for floats,
 * never missing a box for the quantised bounds).
 */
class WideNodeProbeTest {

    @Test
    void layoutsAnswerAsAScanOfTheFloatBoxes() {
        PeerWorkload w = PeerWorkload.of(100_000, 400);
        BoxSet boxes = w.boxes();
        WideNodeProbe probe = WideNodeProbe.of(boxes);
        double[] bounds = BinnedSahBuilder.emptyBounds();
        BinnedSahBuilder.growBounds(boxes.toInterleaved(), boxes.size(), bounds);
        double[] origin = BinnedSahBuilder.originOf(bounds);
        float[] f = BinnedSahBuilder.toFloatBoxes(boxes.toInterleaved(), origin[0], origin[1], origin[2]);

        SegmentSet s = w.segments();
        int hits = 0;
        for (int i = 0; i < s.size(); i++) {
            double ox = s.originX[i] - origin[0];
            double oy = s.originY[i] - origin[1];
            double oz = s.originZ[i] - origin[2];
            double best = -1;
            for (int b = 0; b < boxes.size(); b++) {
                double t = SegmentAabb.intersectInverse(ox, oy, oz, 1.0 / s.translationX[i],
                        1.0 / s.translationY[i], 1.0 / s.translationZ[i], 1.0, f[6 * b], f[6 * b + 1], f[6 * b + 2],
                        f[6 * b + 3], f[6 * b + 4], f[6 * b + 5]);
                if (t >= 0 && (best < 0 || t < best)) {
                    best = t;
                }
            }
            assertEquals(best, probe.cast(0, s, i), "segment " + i);
            hits += best >= 0 ? 1 : 0;
        }
        assertTrue(hits >= 10 && hits <= s.size() - 10, "a mix of hits and misses: " + hits);

        BoxSet q = w.boxQueries();
        for (int i = 0; i < q.size(); i++) {
            float x0 = (float) (q.minX[i] - origin[0]);
            float y0 = (float) (q.minY[i] - origin[1]);
            float z0 = (float) (q.minZ[i] - origin[2]);
            float x1 = (float) (q.maxX[i] - origin[0]);
            float y1 = (float) (q.maxY[i] - origin[1]);
            float z1 = (float) (q.maxZ[i] - origin[2]);
            int count = 0;
            for (int b = 0; b < boxes.size(); b++) {
                if (f[6 * b] <= x1 && f[6 * b + 3] >= x0 && f[6 * b + 1] <= y1 && f[6 * b + 4] >= y0
                        && f[6 * b + 2] <= z1 && f[6 * b + 5] >= z0) {
                    count++;
                }
            }
            assertEquals(count, probe.box(0, q, i), "box query " + i);
        }

        // throws naming the first disagreement of the wide layouts with the binary one
        probe.check(s, q);
    }

    @Test
    void wideNodesHalveTheRecordsRead() {
        PeerWorkload w = PeerWorkload.of(100_000, 400);
        WideNodeProbe probe = WideNodeProbe.of(w.boxes());
        assertTrue(probe.wideNodes() < 100_000 * 0.55, "wide nodes " + probe.wideNodes());
        SegmentSet s = w.segments();
        long[] visits = new long[3];
        for (int layout = 0; layout < 3; layout++) {
            probe.takeVisits();
            for (int i = 0; i < s.size(); i++) {
                probe.cast(layout, s, i);
            }
            visits[layout] = probe.takeVisits();
        }
        assertTrue(visits[1] < 0.6 * visits[0], "binary " + visits[0] + ", wide4 " + visits[1]);
        assertTrue(visits[2] < 0.6 * visits[0], "binary " + visits[0] + ", wide4q " + visits[2]);
    }
}
