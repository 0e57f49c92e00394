package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A world file larger than 2 GiB: every section offset past 2^31 is read through 64-bit offsets. Format version 2
 * stores about 41 bytes per object (the nodes, boxes and categories of 56 million objects take 1.85 GB), so the
 * user values of the last 37 million handles, the last objects of the file, lie past 2^31.
 */
@Tag("long")
class LargeWorldTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteMapVerifyAndQueryAWorldBeyondTwoGibibytes() throws IOException {
        int n = 56_000_000;
        float[] boxes = new float[6 * n];
        SplittableRandom r = new SplittableRandom(2026);
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                float c = (float) r.nextDouble(-20_000, 20_000);
                float h = (float) r.nextDouble(0.5, 4);
                boxes[6 * i + a] = c - h;
                boxes[6 * i + 3 + a] = c + h;
            }
        }
        FlatBvh tree = BinnedSahBuilder.defaults().build(boxes, 1.0e6, -2.0e6, 3.0e5);
        Path file = dir.resolve("large.bxw");
        // no user values given: each object's user value is its input index
        WrittenWorld written = StaticWorldWriter.write(file, tree, boxes, null, null, null);
        assertTrue(Files.size(file) > (1L << 31), Files.size(file) + " bytes");
        try (MappedWorld world = MappedWorld.open(file)) {
            world.verify();
            assertEquals(n, world.size());
            TraversalStack stack = new TraversalStack();
            AllOverlaps found = new AllOverlaps();
            ClosestHit closest = new ClosestHit();
            // objects stored last in the file (highest offsets) must be found and reported with their user value
            for (int probe : new int[] {n - 1, n - 2, n / 2, 0}) {
                long expectedUserValue = written.inputIndexOf(probe);
                assertEquals(expectedUserValue, world.userValue(probe), "user value of handle " + probe);
                double[] b = new double[6];
                world.getTightBox(probe, b);
                int input = written.inputIndexOf(probe);
                double[] origin = {1.0e6, -2.0e6, 3.0e5, 1.0e6, -2.0e6, 3.0e5};
                for (int k = 0; k < 6; k++) {
                    assertEquals(origin[k] + boxes[6 * input + k], b[k], "box of handle " + probe + ", coordinate " + k);
                }
                found.reset();
                world.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, found, stack);
                boolean seen = false;
                for (int i = 0; i < found.count(); i++) {
                    seen |= found.handle(i) == probe && found.userValue(i) == expectedUserValue;
                }
                assertTrue(seen, "object " + probe + " found by its own box");
            }
            // closest hits equal a brute-force scan of the stored boxes
            for (int q = 0; q < 8; q++) {
                double ox = 1.0e6 + r.nextDouble(-20_000, 20_000);
                double oy = -2.0e6 + r.nextDouble(-20_000, 20_000);
                double oz = 3.0e5 + r.nextDouble(-20_000, 20_000);
                double tx = r.nextDouble(-3000, 3000);
                double ty = r.nextDouble(-3000, 3000);
                double tz = r.nextDouble(-3000, 3000);
                world.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, closest, stack);
                double best = Double.POSITIVE_INFINITY;
                int bestHandle = -1;
                double ix = SegmentAabb.inverse(tx);
                double iy = SegmentAabb.inverse(ty);
                double iz = SegmentAabb.inverse(tz);
                for (int i = 0; i < n; i++) {
                    int o = 6 * i;
                    double t = SegmentAabb.intersectInverse(ox - 1.0e6, oy + 2.0e6, oz - 3.0e5, ix, iy, iz, 1.0,
                            boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3], boxes[o + 4], boxes[o + 5]);
                    if (t >= 0 && t < best) {
                        best = t;
                        bestHandle = i;
                    }
                }
                assertEquals(bestHandle >= 0, closest.hasHit(), "ray " + q);
                if (bestHandle >= 0) {
                    assertEquals(best, closest.fraction(), "ray " + q);
                }
            }
        }
    }
}
