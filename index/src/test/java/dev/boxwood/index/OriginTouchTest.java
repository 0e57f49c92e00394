package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Shapes at rest that touch a box exactly in world coordinates, in a tree whose origin is off the coordinates'
 * grid, so that {@code x - origin} rounds: the stored box holds the given box's exact offsets and a sphere (or an
 * oriented box) grows by the exact error of moving its centre, so the touch is kept (docs/queries.md, Stored tight
 * boxes).
 */
class OriginTouchTest {

    /** {a, b, c, d} with a^2 + b^2 + c^2 = d^2. */
    private static final int[][] QUADRUPLES = {
        {1, 2, 2, 3}, {2, 3, 6, 7}, {1, 4, 8, 9}, {4, 4, 7, 9}, {2, 6, 9, 11}, {6, 6, 7, 11}, {3, 4, 12, 13},
        {12, 15, 16, 25},
    };

    private final TraversalStack stack = new TraversalStack();
    private final AllOverlaps found = new AllOverlaps();

    @Test
    void aSphereTouchingAFaceIsFoundWhereTheOffsetsRoundApart() {
        // minX - o rounds up onto the float 1048576.5 while cx - o, in the binade below, is exact: before the exact
        // storage the stored face lay 1.2e-10 beyond the sphere
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(0.2906692804390121, 0, 0));
        int box = tree.add(1048576.7906692803, 0, 0, 1048577.7906692803, 1, 1, 7L, 1L);
        tree.validate();
        for (RegionMode mode : new RegionMode[] {RegionMode.CROSSING, RegionMode.CROSSING_CONSERVATIVE}) {
            found.reset();
            RegionQueries.querySphere(tree, 1048575.7906692803, 0.5, 0.5, 1.0, mode, -1L, null, found, stack);
            assertEquals(1, found.count(), mode.name());
            assertEquals(box, found.handle(0));
        }
    }

    @Test
    void aSphereWhoseCentreRoundsAwayFromTheBoxStillTouchesIt() {
        // the box's exact offset lies 2.5e-11 above the float 2^20, where it is stored; the centre's offset rounds
        // 4.9e-11 away from the box, so without growing the radius by that error the gap would exceed r
        double origin = -1048575.4237636861;
        double minX = 0.5762363139326306;
        double r = 0.11971512457750627;
        double cx = 0.45652118935512437;
        assertEquals(0, new BigDecimal(cx).add(new BigDecimal(r)).compareTo(new BigDecimal(minX)), "an exact touch");
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(origin, 0, 0));
        int box = tree.add(minX, 0, 0, minX + 1, 1, 1, 7L, 1L);
        found.reset();
        RegionQueries.querySphere(tree, cx, 0.5, 0.5, r, RegionMode.CROSSING, -1L, null, found, stack);
        assertEquals(1, found.count());
        assertEquals(box, found.handle(0));
    }

    @Test
    void theBruteForceReferenceFindsTheSameTouches() {
        double origin = -1048575.4237636861;
        BruteForceIndex brute = new BruteForceIndex(origin, 0, 0);
        int box = brute.add(0.5762363139326306, 0, 0, 1.5762363139326306, 1, 1, 7L, 1L);
        found.reset();
        brute.querySphere(0.45652118935512437, 0.5, 0.5, 0.11971512457750627, RegionMode.CROSSING, -1L, null, found);
        assertEquals(1, found.count());
        assertEquals(box, found.handle(0));
    }

    @Test
    void boxesAtTheEdgeOfTheStorageRangeStayInsideIt() {
        // -MAX_STORED - 1e-3 rounds onto -MAX_STORED, which the range accepts; its exact offset lies beyond it
        float limit = OutwardFloat.MAX_STORED;
        for (TreeConfig config : new TreeConfig[] {TreeConfig.defaults().withOrigin(1e-3, 0, 0),
            TreeConfig.defaults().withOrigin(1e-3, 0, 0).withMargin(0, 0)}) {
            DynamicAabbTree tree = new DynamicAabbTree(config);
            int low = tree.add(-limit, 0, 0, -limit + 1e12, 1, 1, 1L, 1L);
            int high = tree.add(limit - 1e12, 0, 0, limit, 1, 1, 2L, 1L);
            tree.validate();
            double[] b = new double[6];
            tree.getTightBox(low, b);
            int again = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 3L, 1L);
            tree.getTightBox(high, b);
            tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 4L, 1L);
            tree.validate();
            tree.rebuild(true);
            tree.validate();
            assertTrue(tree.contains(again));
        }
    }

    @Test
    void spheresAndPlanesTouchingBoxesExactlyAreFoundInAnOffGridFrame() {
        SplittableRandom random = new SplittableRandom(59);
        int spheres = 0;
        for (int round = 0; round < 40; round++) {
            double o = (random.nextDouble() - 0.5) * 2e7;
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(o, -o / 3, o / 7));
            int n = 50;
            double[][] boxes = new double[n][];
            int[] handles = new int[n];
            for (int i = 0; i < n; i++) {
                // world coordinates on a 2^-10 grid about the origin, whose offsets from it round
                double x = grid(random, o);
                double y = grid(random, -o / 3);
                double z = grid(random, o / 7);
                double[] b = {x, y, z, x + random.nextInt(0, 40) / 1024.0, y + random.nextInt(0, 40) / 1024.0,
                    z + random.nextInt(0, 40) / 1024.0};
                boxes[i] = b;
                handles[i] = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], i, 1L);
            }
            tree.validate();
            for (int i = 0; i < n; i++) {
                double[] b = boxes[i];
                int[] q = QUADRUPLES[random.nextInt(QUADRUPLES.length)];
                double k = random.nextInt(1, 64) / 1024.0;
                // a corner touch: the centre beyond the min corner by k (a, b, c), at k d from it
                double cx = b[0] - q[0] * k;
                double cy = b[1] - q[1] * k;
                double cz = b[2] - q[2] * k;
                assertSphereFinds(tree, handles[i], cx, cy, cz, q[3] * k);
                // a face touch from the max x side
                assertSphereFinds(tree, handles[i], b[3] + q[3] * k, 0.5 * (b[1] + b[4]), b[2], q[3] * k);
                // the half-space x <= b[0] touches the box's min x face
                found.reset();
                ConvexRegion halfSpace = new ConvexRegion(new double[] {1, 0, 0, b[0]}, 1);
                RegionQueries.queryConvex(tree, halfSpace, RegionMode.CROSSING_CONSERVATIVE, -1L, null, found, stack);
                assertTrue(contains(found, handles[i]), "half-space x <= " + b[0] + " about " + o);
                spheres += 2;
            }
        }
        assertTrue(spheres > 3000, "spheres: " + spheres);
    }

    @Test
    void orientedBoxesTouchingBoxesExactlyAreFoundWhereTheirCentreRoundsIntoTheFrame() {
        // boxes near world zero whose faces lie at exact float offsets from an origin 6.7e7 to 1e9 away (so the
        // stored box has no outward slack there), touched by an oriented box whose centre's offset rounds: its
        // slack is relative to its size in the frame (1e-10 of a few units), far below that rounding (up to 6e-8
        // at 1e9), so it must grow by it; without that a touch was missed about 1 time in 4
        SplittableRandom random = new SplittableRandom(61);
        int touches = 0;
        for (int round = 0; round < 40; round++) {
            double o = (round % 2 == 0 ? 64.0 : -64.0) * random.nextLong(1L << 20, 1L << 24);
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(o, o, o));
            BruteForceIndex brute = new BruteForceIndex(o, o, o);
            for (int i = 0; i < 50; i++) {
                double face = 64.0 * random.nextInt(-100, 100);
                int handle = tree.add(face, 0, 0, face + 1, 1, 1, i, 1L);
                assertEquals(handle, brute.add(face, 0, 0, face + 1, 1, 1, i, 1L));
                // the half extent the exact rest of the centre (Sterbenz): its max x face is the box's min x face
                double c = face - random.nextDouble(0.01, 1);
                double h = face - c;
                double[] obb = {c, 0.5, 0.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, h, 1, 1};
                found.reset();
                RegionQueries.queryObb(tree, obb, 0, RegionMode.CROSSING, -1L, null, found, stack);
                assertTrue(contains(found, handle), () -> "oriented box " + java.util.Arrays.toString(obb)
                        + " touching x = " + face + " about " + o);
                found.reset();
                brute.queryObb(obb, 0, RegionMode.CROSSING, -1L, null, found);
                assertTrue(contains(found, handle), () -> "brute force: oriented box touching x = " + face);
                touches++;
            }
        }
        assertEquals(2000, touches);
    }

    private void assertSphereFinds(DynamicAabbTree tree, int handle, double cx, double cy, double cz, double r) {
        found.reset();
        RegionQueries.querySphere(tree, cx, cy, cz, r, RegionMode.CROSSING, -1L, null, found, stack);
        assertTrue(contains(found, handle),
                () -> "sphere " + cx + ", " + cy + ", " + cz + " r " + r + " about " + tree.originX());
    }

    private static boolean contains(AllOverlaps found, int handle) {
        for (int i = 0; i < found.count(); i++) {
            if (found.handle(i) == handle) {
                return true;
            }
        }
        return false;
    }

    /** A coordinate on the 2^-10 grid within 2000 of {@code around}. */
    private static double grid(SplittableRandom random, double around) {
        return Math.rint(around) + random.nextInt(-2_048_000, 2_048_000) / 1024.0;
    }
}
