package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capsule overlap query of {@code docs/queries.md}: a sphere swept from one end of the capsule's axis to the
 * other touches exactly the boxes the capsule overlaps, checked against the segment-to-box distance minimised
 * directly.
 */
class CapsuleOverlapTest {

    @ParameterizedTest(name = "origin {0}")
    @ValueSource(doubles = {0, 1e6})
    void shouldFindTheBoxesWithinTheRadiusOfTheAxisBySweepingASphere(double origin) {
        SplittableRandom random = new SplittableRandom(0xCA95L);
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin, origin, origin));
        int n = 2000;
        double[] boxes = new double[6 * n];
        int[] handles = new int[n];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                double lo = origin + random.nextDouble(-50, 50);
                double size = random.nextInt(8) == 0 ? 0 : random.nextDouble(0, 4);
                boxes[6 * i + a] = lo;
                boxes[6 * i + 3 + a] = lo + size;
            }
            handles[i] = tree.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                    boxes[6 * i + 4], boxes[6 * i + 5], i, -1L);
        }
        tree.validate();
        TraversalStack stack = new TraversalStack();
        AllHits hits = new AllHits();
        int compared = 0;
        int found = 0;
        for (int q = 0; q < 300; q++) {
            double[] from = new double[3];
            double[] to = new double[3];
            for (int a = 0; a < 3; a++) {
                from[a] = origin + random.nextDouble(-60, 60);
                // a quarter of the capsules are spheres, a quarter are axis-parallel
                to[a] = q % 4 == 0 ? from[a] : q % 4 == 1 && a > 0 ? from[a] : origin + random.nextDouble(-60, 60);
            }
            double radius = random.nextInt(6) == 0 ? 0 : random.nextDouble(0, 8);
            hits.reset();
            SweepQueries.sweepSphere(tree, from[0], from[1], from[2], radius,
                    to[0] - from[0], to[1] - from[1], to[2] - from[2], -1L, hits, stack);
            boolean[] reported = new boolean[n];
            for (int h = 0; h < hits.count(); h++) {
                int i = (int) hits.userValue(h);
                assertTrue(!reported[i], "each object once");
                reported[i] = true;
                assertEquals(handles[i], hits.handle(h));
                assertTrue(hits.fraction(h) >= 0 && hits.fraction(h) <= 1, "fraction in [0, 1]");
            }
            for (int i = 0; i < n; i++) {
                double d2 = segmentBoxDistanceSquared(from, to, boxes, 6 * i);
                double r2 = radius * radius;
                // Only clear cases: the reference itself rounds, and the kernel may count a near touch.
                if (Math.abs(d2 - r2) <= 1e-9 * (r2 + 1)) {
                    continue;
                }
                compared++;
                boolean overlaps = d2 < r2;
                found += overlaps ? 1 : 0;
                assertEquals(overlaps, reported[i], "capsule " + Arrays.toString(from) + " to "
                        + Arrays.toString(to) + " radius " + radius + ", box " + i + ": squared distance " + d2);
            }
        }
        assertTrue(compared > 500_000 && found > 2_000, "compared " + compared + ", overlaps " + found);
    }

    /**
     * The squared distance from segment {@code from}-{@code to} to the box at {@code boxes[o]}: along the segment it
     * is a convex piecewise quadratic whose pieces end where a coordinate crosses a face plane; each piece's
     * minimum is at its vertex or an end.
     */
    private static double segmentBoxDistanceSquared(double[] from, double[] to, double[] boxes, int o) {
        double[] breaks = new double[8];
        int count = 0;
        breaks[count++] = 0;
        breaks[count++] = 1;
        for (int a = 0; a < 3; a++) {
            double d = to[a] - from[a];
            if (d == 0) {
                continue;
            }
            for (int side = 0; side < 2; side++) {
                double t = (boxes[o + 3 * side + a] - from[a]) / d;
                if (t > 0 && t < 1) {
                    breaks[count++] = t;
                }
            }
        }
        Arrays.sort(breaks, 0, count);
        double best = Double.POSITIVE_INFINITY;
        for (int k = 0; k + 1 < count; k++) {
            double t0 = breaks[k];
            double t1 = breaks[k + 1];
            double mid = 0.5 * (t0 + t1);
            double qa = 0;
            double qb = 0;
            for (int a = 0; a < 3; a++) {
                double d = to[a] - from[a];
                double p = from[a] + mid * d;
                double face = p < boxes[o + a] ? boxes[o + a] : p > boxes[o + 3 + a] ? boxes[o + 3 + a] : Double.NaN;
                if (!Double.isNaN(face)) {
                    qa += d * d;
                    qb += (from[a] - face) * d;
                }
            }
            double t = qa == 0 ? t0 : Math.max(t0, Math.min(t1, -qb / qa));
            best = Math.min(best, Math.min(pointBox(from, to, t, boxes, o),
                    Math.min(pointBox(from, to, t0, boxes, o), pointBox(from, to, t1, boxes, o))));
        }
        return best;
    }

    private static double pointBox(double[] from, double[] to, double t, double[] boxes, int o) {
        double sum = 0;
        for (int a = 0; a < 3; a++) {
            double p = from[a] + t * (to[a] - from[a]);
            double gap = Math.max(0, Math.max(boxes[o + a] - p, p - boxes[o + 3 + a]));
            sum += gap * gap;
        }
        return sum;
    }
}
