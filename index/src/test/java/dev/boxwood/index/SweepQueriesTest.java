package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Box and sphere sweeps against the brute-force oracle (the kernels themselves are tested in the queries module). */
class SweepQueriesTest {

    private final TraversalStack stack = new TraversalStack(2);
    private final ClosestHit treeClosest = new ClosestHit();
    private final ClosestHit bruteClosest = new ClosestHit();
    private final AnyHit treeAny = new AnyHit();
    private final AllHits treeAll = new AllHits();
    private final AllHits bruteAll = new AllHits();
    private long hits;

    static Stream<QueryWorld> worlds() {
        return QueryWorld.worlds(43);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldSweepLikeBruteForceThroughMutations(QueryWorld w) {
        for (int op = 0; op < 400; op++) {
            w.mutate(Math.min(400, w.pool.size()));
            if (op % 4 == 0) {
                compareRandomSweeps(w);
            }
        }
        w.addAll();
        for (int q = 0; q < 40; q++) {
            compareRandomSweeps(w);
        }
        assertTrue(hits > 20, w + ": sweeps should hit: " + hits);
    }

    private void compareRandomSweeps(QueryWorld w) {
        double[] a = new double[3];
        double[] b = new double[3];
        w.randomPoint(a);
        w.randomPoint(b);
        double h = w.randomReach() * 0.5;
        long mask = w.randomMask();
        double dx = b[0] - a[0];
        double dy = b[1] - a[1];
        double dz = w.random.nextInt(4) == 0 ? 0 : b[2] - a[2];
        String where = w + " sweep from " + Arrays.toString(a) + " by " + dx + ", " + dy + ", " + dz + " h " + h;
        for (int kind = 0; kind < 2; kind++) {
            for (int collector = 0; collector < 3; collector++) {
                if (kind == 0) {
                    SweepQueries.sweepBox(w.tree, a[0] - h, a[1] - h, a[2] - h, a[0] + h, a[1] + h, a[2] + 2 * h,
                            dx, dy, dz, mask, collector == 0 ? treeClosest : collector == 1 ? treeAny : treeAll,
                            stack);
                    w.brute.sweepBox(a[0] - h, a[1] - h, a[2] - h, a[0] + h, a[1] + h, a[2] + 2 * h, dx, dy, dz,
                            mask, collector == 0 ? bruteClosest : bruteAll);
                } else {
                    SweepQueries.sweepSphere(w.tree, a[0], a[1], a[2], h, dx, dy, dz, mask,
                            collector == 0 ? treeClosest : collector == 1 ? treeAny : treeAll, stack);
                    w.brute.sweepSphere(a[0], a[1], a[2], h, dx, dy, dz, mask,
                            collector == 0 ? bruteClosest : bruteAll);
                }
            }
            assertEquals(bruteClosest.handle(), treeClosest.handle(), where);
            assertEquals(bruteClosest.fraction(), treeClosest.fraction(), where);
            assertEquals(bruteClosest.hasHit(), treeAny.hasHit(), where);
            treeAll.sort();
            bruteAll.sort();
            assertEquals(bruteAll.count(), treeAll.count(), where);
            for (int i = 0; i < bruteAll.count(); i++) {
                assertEquals(bruteAll.handle(i), treeAll.handle(i), where);
                assertEquals(bruteAll.fraction(i), treeAll.fraction(i), where);
            }
            hits += bruteAll.count();
        }
    }

    @Test
    void shouldFindTheContactThatAPerFrameOverlapCheckTunnelsThrough() {
        DynamicAabbTree tree = new DynamicAabbTree();
        int wall = tree.add(10, -5, -5, 10.1, 5, 5, 7, 1);
        AllOverlaps overlaps = new AllOverlaps();
        // a 1 m bullet at x in [0, 1] moving 20 m in one frame: before and after the frame it is clear of the wall
        tree.queryAabb(0, 0, 0, 1, 1, 1, -1L, overlaps, stack);
        tree.queryAabb(20, 0, 0, 21, 1, 1, -1L, overlaps, stack);
        assertEquals(0, overlaps.count(), "the per-frame overlap check misses the wall");
        ClosestHit hit = new ClosestHit();
        SweepQueries.sweepBox(tree, 0, 0, 0, 1, 1, 1, 20, 0, 0, -1L, hit, stack);
        assertTrue(hit.hasHit());
        assertEquals(wall, hit.handle());
        // contact when the leading face x = 1 + 20 u reaches 10
        assertEquals(9.0 / 20.0, hit.fraction(), 1e-15);
        SweepQueries.sweepSphere(tree, 0.5, 0.5, 0.5, 0.5, 20, 0, 0, -1L, hit, stack);
        assertEquals(wall, hit.handle());
        assertEquals(9.0 / 20.0, hit.fraction(), 1e-15);
    }

    @Test
    void shouldFindSpheresTouchingBoxesWithoutMarginAtTheEdgeOfRounding() {
        // objects without margin (fat box = tight box, as spliced objects are too) and sphere centres a few ulps
        // around the grown box's face: the node cull must keep every box the exact test touches
        SplittableRandom random = new SplittableRandom(91);
        int disagreements = 0;
        int touching = 0;
        for (int i = 0; i < 4000; i++) {
            double scale = Math.pow(10, random.nextInt(-3, 8));
            double[] b = new double[6];
            for (int a = 0; a < 3; a++) {
                b[a] = (float) ((random.nextDouble() - 0.5) * scale);
                b[3 + a] = (float) (b[a] + random.nextDouble() * scale);
            }
            double r = random.nextDouble() * scale;
            double[] c = new double[3];
            int axis = random.nextInt(3);
            for (int a = 0; a < 3; a++) {
                c[a] = b[a] + random.nextDouble() * (b[3 + a] - b[a]);
            }
            // a face's grown plane, then a few ulps either way
            double face = random.nextBoolean() ? b[axis] - r : b[3 + axis] + r;
            for (int k = random.nextInt(-3, 4); k < 0; k++) {
                face = Math.nextDown(face);
            }
            for (int k = random.nextInt(-3, 4); k > 0; k--) {
                face = Math.nextUp(face);
            }
            c[axis] = face;
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0, 0));
            BruteForceIndex brute = new BruteForceIndex();
            tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 1, -1L);
            brute.add(b[0], b[1], b[2], b[3], b[4], b[5], 1, -1L);
            double[] d = {0, 0, 0};
            d[random.nextInt(3)] = random.nextBoolean() ? 0 : (random.nextDouble() - 0.5) * 1e-3 * scale;
            SweepQueries.sweepSphere(tree, c[0], c[1], c[2], r, d[0], d[1], d[2], -1L, treeAll, stack);
            brute.sweepSphere(c[0], c[1], c[2], r, d[0], d[1], d[2], -1L, bruteAll);
            touching += bruteAll.count();
            if (treeAll.count() != bruteAll.count()
                    || bruteAll.count() == 1 && treeAll.fraction(0) != bruteAll.fraction(0)) {
                disagreements++;
            }
        }
        assertEquals(0, disagreements, "sweeps that disagree with the exact test, of " + touching + " touching");
        assertTrue(touching > 500, touching + " touching");
    }

    @Test
    void shouldCullNoTinySphereTheExactTestTouches() {
        // squared distances like 3e-340 underflow to 0, so the exact test touches a point 1e-170 from the box; the
        // cull (a slab test, no squares) must keep every box it accepts
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withMargin(0, 0));
        BruteForceIndex brute = new BruteForceIndex();
        tree.add(0, 0, 0, 1, 1, 1, 1, -1L);
        brute.add(0, 0, 0, 1, 1, 1, 1, -1L);
        for (double r : new double[] {0, 1e-200, 1e-165}) {
            for (double c : new double[] {-1e-170, -1e-163, -Double.MIN_VALUE, -3e-300}) {
                for (double dx : new double[] {0, -1, 1e-3}) {
                    SweepQueries.sweepSphere(tree, c, c, c, r, dx, 0, 0, -1L, treeAll, stack);
                    brute.sweepSphere(c, c, c, r, dx, 0, 0, -1L, bruteAll);
                    String where = "r " + r + " centre " + c + " dx " + dx;
                    assertEquals(bruteAll.count(), treeAll.count(), where);
                    if (dx == 0) {
                        // every gap here is below 1.5e-162, whose square underflows to 0: the sphere test touches
                        assertEquals(1, bruteAll.count(), where);
                    }
                }
            }
        }
    }

    @Test
    void shouldGiveTheExactTestACentreInsideASubnormalBox() {
        // halving each end first rounded the halves: the centre of [MIN_VALUE, MIN_VALUE] came out 0, outside it
        for (double x : new double[] {Double.MIN_VALUE, 3 * Double.MIN_VALUE}) {
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults());
            int handle = tree.add(x, 0, 0, x, 1, 1, 7, -1L);
            double[] begun = new double[1];
            ClosestHit closest = new ClosestHit();
            closest.setExactTest((h, userValue, ox, oy, oz, tx, ty, tz, maxFraction) -> {
                begun[0] = ox;
                return dev.boxwood.geom.SegmentAabb.intersect(ox, oy, oz, tx, ty, tz, maxFraction, x, 0, 0, x, 1, 1);
            });
            SweepQueries.sweepBox(tree, x, 0, 0, x, 1, 1, 0, 0, 0, -1L, closest, new TraversalStack());
            assertEquals(x, begun[0], "centre of the box at x = " + x);
            assertTrue(closest.hasHit(), "the centre lies in the object's box");
            assertEquals(handle, closest.handle());
        }
    }

    @Test
    void shouldGiveTheExactTestTheBoxCentreAtTheEdgeOfTheDoubleRange() {
        // 0.5 * (minX + maxX) overflowed for boxes whose coordinates sum beyond Double.MAX_VALUE: a swept box out
        // there, coming back to an object at the origin (no index takes an origin out there, OutwardFloat.MAX_ORIGIN)
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults());
        int handle = tree.add(0, 0, 0, 0, 1, 1, 7, -1L);
        double[] begun = new double[3];
        ClosestHit closest = new ClosestHit();
        closest.setExactTest((h, userValue, ox, oy, oz, tx, ty, tz, maxFraction) -> {
            begun[0] = ox;
            begun[1] = oy;
            begun[2] = oz;
            return dev.boxwood.geom.SegmentAabb.intersect(ox, oy, oz, tx, ty, tz, maxFraction, 0, 0, 0, 0, 1, 1);
        });
        SweepQueries.sweepBox(tree, 1.4e308, 0, 0, 1.6e308, 1, 1, -1.5e308, 0, 0, -1L, closest,
                new TraversalStack());
        assertEquals(1.5e308, begun[0]);
        assertEquals(0.5, begun[1]);
        assertTrue(closest.hasHit(), "the centre lies in the object's box");
        assertEquals(handle, closest.handle());
    }
}
