package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PlaneFrustumTest {

    /** The six planes of the box [lo, hi]^3 in the kernel convention (outward normals). */
    private static double[] boxPlanes(double lo, double hi) {
        return new double[] {
            1, 0, 0, hi, -1, 0, 0, -lo,
            0, 1, 0, hi, 0, -1, 0, -lo,
            0, 0, 1, hi, 0, 0, -1, -lo,
        };
    }

    @Test
    void shouldClassifyABoxAgainstAPlane() {
        // plane z = 1, outside above
        assertEquals(Geom.INSIDE, AabbPlane.classify(0, 0, 0, 1, 1, 1, 0, 0, 1, 1), "touching from inside");
        assertEquals(Geom.CROSSING, AabbPlane.classify(0, 0, 0, 1, 1, 2, 0, 0, 1, 1));
        assertEquals(Geom.CROSSING, AabbPlane.classify(0, 0, 1, 1, 1, 2, 0, 0, 1, 1), "touching from outside");
        assertEquals(Geom.OUTSIDE, AabbPlane.classify(0, 0, Math.nextUp(1.0), 1, 1, 2, 0, 0, 1, 1));
        assertEquals(Geom.INSIDE, AabbPlane.classify(0, 0, 1, 1, 1, 1, 0, 0, 1, 1), "flat box in the plane");
        // tilted normal of any length: x + y = 2, scaled by 3
        assertEquals(Geom.INSIDE, AabbPlane.classify(0, 0, 0, 1, 1, 1, 3, 3, 0, 6), "corner on the plane");
        assertEquals(Geom.CROSSING, AabbPlane.classify(0, 0, 0, 1, 1.5, 1, 3, 3, 0, 6));
        assertTrue(AabbPlane.test(0, 0, 0, 1, 1, 1, 0, 0, 1, 1));
        assertFalse(AabbPlane.test(0, 0, 0, 1, 1, 1, 0, 0, 1, 2));
        double b = 1e7;
        assertEquals(Geom.INSIDE, AabbPlane.classify(b, b, b, b + 1, b + 1, b + 1, 0, 0, 1, b + 1));
        assertEquals(Geom.OUTSIDE, AabbPlane.classify(b, b, b, b + 1, b + 1, b + 1, 0, 0, -1, -b - 1.5));
    }

    @Test
    void shouldAgreeWithExactSignsOfTheCornerDistances() {
        SplittableRandom random = new SplittableRandom(0x9A9A_0001L);
        int[] counts = new int[3];
        for (double base : new double[] {0, 1e5, 1e6}) {
            for (int n = 0; n < 3000; n++) {
                double[] box = new double[6];
                for (int i = 0; i < 3; i++) {
                    box[i] = base + random.nextDouble(-3, 3);
                    box[i + 3] = box[i] + (random.nextInt(6) == 0 ? 0 : random.nextDouble(0, 3));
                }
                double nx = random.nextDouble(-1, 1);
                double ny = random.nextInt(5) == 0 ? 0 : random.nextDouble(-1, 1);
                double nz = random.nextDouble(-1, 1);
                double d = nx * (base + random.nextDouble(-4, 4)) + ny * base + nz * base;
                int got = AabbPlane.classify(box[0], box[1], box[2], box[3], box[4], box[5], nx, ny, nz, d);
                // exact extreme distances over the 8 corners
                BigDecimal min = null;
                BigDecimal max = null;
                for (int corner = 0; corner < 8; corner++) {
                    BigDecimal s = ExactReference.exact(nx).multiply(ExactReference.exact(box[(corner & 1) * 3]))
                            .add(ExactReference.exact(ny).multiply(ExactReference.exact(box[1 + ((corner >> 1) & 1) * 3])))
                            .add(ExactReference.exact(nz).multiply(ExactReference.exact(box[2 + ((corner >> 2) & 1) * 3])))
                            .subtract(ExactReference.exact(d));
                    min = min == null || s.compareTo(min) < 0 ? s : min;
                    max = max == null || s.compareTo(max) > 0 ? s : max;
                }
                double tolerance = 16 * Math.ulp(Math.abs(base) + 8);
                if (Math.abs(min.doubleValue()) < tolerance || Math.abs(max.doubleValue()) < tolerance) {
                    continue;
                }
                int expected = min.signum() > 0 ? Geom.OUTSIDE : max.signum() > 0 ? Geom.CROSSING : Geom.INSIDE;
                assertEquals(expected, got, "case " + n + " base " + base);
                counts[expected]++;
            }
        }
        for (int c : counts) {
            assertTrue(c > 500, java.util.Arrays.toString(counts));
        }
    }

    @Test
    void shouldFindNoPointOfAnObliquePlaneOutsideIt() {
        // x + y + z <= 1 normalized: equal normal components and d, so the dyadic points with x + y + z = 1 lie on it
        // exactly, while their distances in double round to either side of 0
        double s = 1 / Math.sqrt(3);
        double[] planes = {s, s, s, s};
        int checked = 0;
        for (int i = 1; i < 256; i++) {
            for (int j = 1; i + j < 256; j++) {
                double x = i / 256.0;
                double y = j / 256.0;
                double z = 1 - x - y;
                String where = x + ", " + y + ", " + z;
                assertNotEquals(Geom.OUTSIDE, AabbPlane.classify(x, y, z, x, y, z, s, s, s, s), where);
                assertTrue(AabbPlane.test(x, y, z, x, y, z, s, s, s, s), where);
                assertNotEquals(FrustumAabb.CULLED, FrustumAabb.cull(planes, 1, x, y, z, x, y, z), where);
                // a hair above the plane, beyond the rounding, it is outside
                double above = z + 0x1p-40;
                assertEquals(Geom.OUTSIDE, AabbPlane.classify(x, y, above, x, y, above, s, s, s, s), where);
                assertEquals(FrustumAabb.CULLED, FrustumAabb.cull(planes, 1, x, y, above, x, y, above), where);
                checked++;
            }
        }
        assertTrue(checked > 30000);
    }

    @Test
    void shouldNotCullABoxWhoseCornerDistanceOverflowsInItsPartialSums() {
        // x + y + z <= 0.6e308 and the corner (1e308, 1e308, -1.5e308): every product is finite and the exact
        // distance is -0.1e308 (inside), but x + y rounds to infinity, which read as outside beyond any rounding
        double[] corner = {1e308, 1e308, -1.5e308};
        double d = 0.6e308;
        BigDecimal exact = ExactReference.exact(corner[0]).add(ExactReference.exact(corner[1]))
                .add(ExactReference.exact(corner[2])).subtract(ExactReference.exact(d));
        assertTrue(exact.signum() < 0);
        assertNotEquals(Geom.OUTSIDE, AabbPlane.classify(corner[0], corner[1], corner[2], corner[0], corner[1],
                corner[2], 1, 1, 1, d));
        assertNotEquals(Geom.OUTSIDE, AabbPlane.classify(corner[0], corner[1], corner[2], 1.5e308, 1.5e308, 0,
                1, 1, 1, d));
        assertNotEquals(FrustumAabb.CULLED, FrustumAabb.cull(new double[] {1, 1, 1, d}, 1, corner[0], corner[1],
                corner[2], corner[0], corner[1], corner[2]));
        // through the validated types: the unit normal of (1, 1, 1) and d = 1.7e308 / sqrt(3)
        Plane plane = new Plane(1, 1, 1, 1.7e308);
        Aabb box = new Aabb(1.7e308, 1.7e308, -1.79e308, 1.7e308, 1.7e308, -1.79e308);
        assertNotEquals(Geom.OUTSIDE, plane.classify(box));
        assertNotEquals(Geom.OUTSIDE, new Frustum(plane).classify(box));
        // still outside where the exact distance is positive, and where it is at that scale
        assertEquals(Geom.OUTSIDE, AabbPlane.classify(1e308, 1e308, -0.5e308, 1e308, 1e308, -0.5e308, 1, 1, 1, d));
        assertEquals(Geom.OUTSIDE, AabbPlane.classify(1e308, 1e308, 0, 1e308, 1e308, 0, 1, 1, 1, 0));
    }

    @Test
    void shouldClassifyAgainstTheExactSignWhereAPartialSumOverflowsToEitherInfinity() {
        // the point (-1e308, -1e308, 1.5e308) against x + y + z <= -1.7e308: exact distance +1.2e308 (outside), but
        // x + y rounds to minus infinity, which read as inside dropped the plane from a traversal's mask
        assertEquals(Geom.OUTSIDE, AabbPlane.classify(-1e308, -1e308, 1.5e308, -1e308, -1e308, 1.5e308,
                1, 1, 1, -1.7e308));
        assertEquals(FrustumAabb.CULLED, FrustumAabb.cull(new double[] {1, 1, 1, -1.7e308}, 1,
                -1e308, -1e308, 1.5e308, -1e308, -1e308, 1.5e308));
        // the box from (-1e308, -1e308, 1.5e308) down to z = -0.5e308 crosses it (its lowest corner is 0.8e308 in)
        assertEquals(1, FrustumAabb.cull(new double[] {1, 1, 1, -1.7e308}, 1,
                -1e308, -1e308, -0.5e308, -1e308, -1e308, 1.5e308));
        // the corner (1e308, 1e308, -1.5e308) against x + y + z <= 0.6e308 is inside (-0.1e308), x + y rounds to
        // plus infinity, which read as crossing
        assertEquals(Geom.INSIDE, AabbPlane.classify(1e308, 1e308, -1.5e308, 1e308, 1e308, -1.5e308,
                1, 1, 1, 0.6e308));
        assertEquals(0, FrustumAabb.cull(new double[] {1, 1, 1, 0.6e308}, 1,
                1e308, 1e308, -1.5e308, 1e308, 1e308, -1.5e308));

        // random boxes at the end of the double range against normals within [-1, 1]: every product is finite, many
        // sums overflow; the answers follow the exact sign of the nearest and farthest corners' distances
        SplittableRandom random = new SplittableRandom(20261129);
        double range = Double.MAX_VALUE;
        int overflowed = 0;
        for (int i = 0; i < 20000; i++) {
            double ax = (2 * random.nextDouble() - 1) * range;
            double ay = (2 * random.nextDouble() - 1) * range;
            double az = (2 * random.nextDouble() - 1) * range;
            double bx = random.nextInt(3) == 0 ? ax : (2 * random.nextDouble() - 1) * range;
            double by = random.nextInt(3) == 0 ? ay : (2 * random.nextDouble() - 1) * range;
            double bz = random.nextInt(3) == 0 ? az : (2 * random.nextDouble() - 1) * range;
            double minX = Math.min(ax, bx);
            double minY = Math.min(ay, by);
            double minZ = Math.min(az, bz);
            double maxX = Math.max(ax, bx);
            double maxY = Math.max(ay, by);
            double maxZ = Math.max(az, bz);
            double nx = random.nextDouble(-1, 1);
            double ny = random.nextDouble(-1, 1);
            double nz = random.nextDouble(-1, 1);
            double d = (2 * random.nextDouble() - 1) * range;
            double[] near = {nx >= 0 ? minX : maxX, ny >= 0 ? minY : maxY, nz >= 0 ? minZ : maxZ};
            double[] far = {nx >= 0 ? maxX : minX, ny >= 0 ? maxY : minY, nz >= 0 ? maxZ : minZ};
            BigDecimal nearest = exactDistance(near, nx, ny, nz, d);
            BigDecimal farthest = exactDistance(far, nx, ny, nz, d);
            if (!Double.isFinite(nx * near[0] + ny * near[1] + nz * near[2] - d)
                    || !Double.isFinite(nx * far[0] + ny * far[1] + nz * far[2] - d)) {
                overflowed++;
            }
            // decided where the exact distance is beyond 1e-12 of the range (far above any rounding)
            BigDecimal margin = BigDecimal.valueOf(range * 1e-12);
            int expected = nearest.compareTo(margin) > 0 ? Geom.OUTSIDE
                    : farthest.compareTo(margin.negate()) < 0 ? Geom.INSIDE
                    : nearest.signum() <= 0 && farthest.compareTo(margin) > 0 ? Geom.CROSSING : -2;
            int classified = AabbPlane.classify(minX, minY, minZ, maxX, maxY, maxZ, nx, ny, nz, d);
            int culled = FrustumAabb.cull(new double[] {nx, ny, nz, d}, 1, minX, minY, minZ, maxX, maxY, maxZ);
            String where = "case " + i;
            if (expected != -2) {
                assertEquals(expected, classified, where);
                assertEquals(expected, FrustumAabb.classification(culled), where);
            }
            if (nearest.signum() <= 0) {
                assertNotEquals(Geom.OUTSIDE, classified, where + ": never outside where a corner is not");
            }
        }
        assertTrue(overflowed > 2000, "overflowing sums tried: " + overflowed);
    }

    private static BigDecimal exactDistance(double[] corner, double nx, double ny, double nz, double d) {
        return ExactReference.exact(nx).multiply(ExactReference.exact(corner[0]))
                .add(ExactReference.exact(ny).multiply(ExactReference.exact(corner[1])))
                .add(ExactReference.exact(nz).multiply(ExactReference.exact(corner[2])))
                .subtract(ExactReference.exact(d));
    }

    @Test
    void shouldCullWithPlaneMasks() {
        double[] planes = boxPlanes(0, 10);
        int all = FrustumAabb.allPlanes(6);
        assertEquals(0b111111, all);
        assertEquals(0, FrustumAabb.cull(planes, all, 1, 1, 1, 2, 2, 2), "inside every plane");
        assertEquals(FrustumAabb.CULLED, FrustumAabb.cull(planes, all, 11, 1, 1, 12, 2, 2));
        assertEquals(0b000001, FrustumAabb.cull(planes, all, 9, 1, 1, 12, 2, 2), "crosses x = 10 only");
        assertEquals(0b000101, FrustumAabb.cull(planes, all, 9, 9, 1, 12, 12, 2), "crosses x = 10 and y = 10");
        assertEquals(0b000001, FrustumAabb.cull(planes, all, 10, 1, 1, 12, 2, 2), "touching from outside crosses");
        assertEquals(0, FrustumAabb.cull(planes, 0, 50, 50, 50, 60, 60, 60), "no active plane: nothing tested");
        assertEquals(Geom.INSIDE, FrustumAabb.classify(planes, 6, 0, 0, 0, 10, 10, 10));
        assertEquals(Geom.CROSSING, FrustumAabb.classify(planes, 6, -1, 0, 0, 10, 10, 10));
        assertEquals(Geom.OUTSIDE, FrustumAabb.classify(planes, 6, -2, 0, 0, -1, 10, 10));
        assertEquals(FrustumAabb.allPlanes(31), Integer.MAX_VALUE);
    }

    /**
     * Hierarchical culling: a child box tested only against the planes its parent crossed gets the same
     * classification as the child tested against all planes (when the parent was not culled).
     */
    @Test
    void shouldGiveTheSameAnswerWithInheritedMasks() {
        SplittableRandom random = new SplittableRandom(0x9A9A_0002L);
        double[] planes = new double[6 * 4];
        for (int n = 0; n < 20_000; n++) {
            for (int p = 0; p < 6; p++) {
                double nx = random.nextDouble(-1, 1);
                double ny = random.nextDouble(-1, 1);
                double nz = random.nextDouble(-1, 1);
                planes[4 * p] = nx;
                planes[4 * p + 1] = ny;
                planes[4 * p + 2] = nz;
                planes[4 * p + 3] = Math.abs(nx) + Math.abs(ny) + Math.abs(nz) + random.nextDouble(-1, 2);
            }
            double[] parent = new double[6];
            double[] child = new double[6];
            for (int i = 0; i < 3; i++) {
                parent[i] = random.nextDouble(-3, 2);
                parent[i + 3] = parent[i] + random.nextDouble(0, 3);
                child[i] = random.nextDouble(parent[i], parent[i + 3]);
                child[i + 3] = random.nextDouble(child[i], parent[i + 3]);
            }
            int parentMask = FrustumAabb.cull(planes, FrustumAabb.allPlanes(6),
                    parent[0], parent[1], parent[2], parent[3], parent[4], parent[5]);
            if (parentMask == FrustumAabb.CULLED) {
                assertEquals(Geom.OUTSIDE, FrustumAabb.classify(planes, 6,
                        child[0], child[1], child[2], child[3], child[4], child[5]));
                continue;
            }
            int inherited = FrustumAabb.cull(planes, parentMask,
                    child[0], child[1], child[2], child[3], child[4], child[5]);
            int direct = FrustumAabb.cull(planes, FrustumAabb.allPlanes(6),
                    child[0], child[1], child[2], child[3], child[4], child[5]);
            assertEquals(direct, inherited, "case " + n);
        }
    }

    @Test
    void shouldCastASegmentIntoAConvexPolyhedron() {
        double[] planes = boxPlanes(0, 1);
        assertEquals(0.5, SegmentConvex.intersect(-2, 0.5, 0.5, 4, 0, 0, 1, planes, 6));
        assertEquals(0.0, SegmentConvex.intersect(0.5, 0.5, 0.5, 4, 0, 0, 1, planes, 6), "start inside");
        assertEquals(0.0, SegmentConvex.intersect(1, 0.5, 0.5, 4, 0, 0, 1, planes, 6), "start on a face, leaving");
        assertEquals(0.5, SegmentConvex.intersect(-1, 1, 0.5, 2, 0, 0, 1, planes, 6), "parallel, on a face");
        assertEquals(Geom.NO_HIT, SegmentConvex.intersect(-1, 1.5, 0.5, 2, 0, 0, 1, planes, 6), "parallel, out");
        assertEquals(Geom.NO_HIT, SegmentConvex.intersect(-2, 0.5, 0.5, 1, 0, 0, 1, planes, 6), "stops short");
        assertEquals(0.0, SegmentConvex.intersect(0.5, 0.5, 0.5, 0, 0, 0, 1, planes, 6), "point inside");
        assertEquals(Geom.NO_HIT, SegmentConvex.intersect(1.5, 0.5, 0.5, 0, 0, 0, 1, planes, 6), "point outside");
        // a tetrahedron x, y, z >= 0, x + y + z <= 1
        double[] tetra = {-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 1, 1, 1, 1};
        assertEquals(0.5, SegmentConvex.intersect(2, 0, 0, -2, 0, 0, 1, tetra, 4), "enters at the vertex x = 1");
        assertEquals(0.375, SegmentConvex.intersect(0.25, 0.25, 2, 0, 0, -4, 1, tetra, 4), "face x + y + z = 1");
        assertEquals(0.0, SegmentConvex.intersect(5, 5, 5, 1, 1, 1, 1, tetra, 0), "no planes: all of space");
    }

    @Test
    void shouldCastIntoAConvexPolyhedronWhereThePlaneProductsOverflow() {
        // n . o and n . d beyond the double range gave infinity / infinity, a NaN fraction
        assertEquals(0.0, SegmentConvex.intersect(-1e10, 0, 0, -1e10, 0, 0, 1, new double[] {1e300, 0, 0, 0}, 1),
                "start inside a plane with a huge normal");
        assertEquals(0.0, SegmentConvex.intersect(-1.5e308, -1.5e308, 0, -1.5e308, -1.5e308, 0, 1,
                new double[] {0.6, 0.8, 0, 0}, 1), "start inside, coordinates near the top of the range");
        // entering a unit-normal half-space x <= -1e308 from 1.5e308 on, moving -1.5e308 (with a second plane
        // whose products overflow): it reaches x = -1e308 at t = 2.5 / 1.5
        double[] planes = {1, 0, 0, -1e308, 0, 1e300, 0, 1e300};
        double t = SegmentConvex.intersect(1.5e308, 0, 0, -1.5e308, 0, 0, 2, planes, 2);
        assertEquals(2.5 / 1.5, t, 1e-15);
        // a miss stays a miss: the same cast stopping at t = 1.5
        assertEquals(Geom.NO_HIT, SegmentConvex.intersect(1.5e308, 0, 0, -1.5e308, 0, 0, 1.5, planes, 2));
    }

    @Test
    void shouldCastLikeTheSlabTestForBoxPlanes() {
        SplittableRandom random = new SplittableRandom(0x9A9A_0003L);
        double[] planes = boxPlanes(-1, 2);
        int hits = 0;
        for (int n = 0; n < 8000; n++) {
            double ox = random.nextDouble(-4, 5);
            double oy = random.nextDouble(-4, 5);
            double oz = random.nextDouble(-4, 5);
            double dx = random.nextInt(6) == 0 ? 0 : random.nextDouble(-8, 8);
            double dy = random.nextDouble(-8, 8);
            double dz = random.nextDouble(-8, 8);
            double slab = SegmentAabb.intersect(ox, oy, oz, dx, dy, dz, 1, -1, -1, -1, 2, 2, 2);
            double convex = SegmentConvex.intersect(ox, oy, oz, dx, dy, dz, 1, planes, 6);
            // both decide on the same plane distances up to rounding: compare away from the boundary
            ExactReference.SegmentBox exact = ExactReference.segmentBox(new double[] {ox, oy, oz},
                    new double[] {dx, dy, dz}, 1, new double[] {-1, -1, -1}, new double[] {2, 2, 2});
            if (Math.abs(exact.margin) < 1e-12) {
                continue;
            }
            assertEquals(slab == Geom.NO_HIT, convex == Geom.NO_HIT, "case " + n);
            if (slab != Geom.NO_HIT) {
                hits++;
                assertEquals(slab, convex, 1e-15);
            }
        }
        assertTrue(hits > 800, "hits " + hits);
    }
}
