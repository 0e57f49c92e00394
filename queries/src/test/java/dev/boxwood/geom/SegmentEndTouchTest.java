package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Segments and sphere paths that end exactly on a round surface (integer coordinates and Pythagorean quadruples, so
 * the end point and the touch are exact): closed shapes count the touch (docs/conventions.md), so the casts must
 * report it at {@code maxFraction} at the latest, although the computed root of their quadratic can come out a few
 * ulps beyond it (its terms cancel for a start near the surface).
 */
class SegmentEndTouchTest {

    /** {a, b, c, d} with a^2 + b^2 + c^2 = d^2. */
    private static final int[][] QUADRUPLES = {
        {1, 2, 2, 3}, {2, 3, 6, 7}, {1, 4, 8, 9}, {4, 4, 7, 9}, {2, 6, 9, 11}, {6, 6, 7, 11}, {3, 4, 12, 13},
        {2, 5, 14, 15}, {2, 10, 11, 15}, {1, 12, 12, 17}, {8, 9, 12, 17}, {12, 15, 16, 25},
    };

    @Test
    void aSegmentEndingOnTheSphereAtAnAngleIsAHit() {
        // the end point (1048, 4403, 6909) is the centre plus 739 (2, 6, 9), at 739 * 11 = 8129 from it; the
        // segment arrives 18 degrees off the inward normal (the computed root was an ulp beyond 1)
        double ox = 1166.80078125;
        double oy = 5206.59375;
        double oz = 6661.1240234375;
        double dx = -118.80078125;
        double dy = -803.59375;
        double dz = 247.8759765625;
        assertEquals(1048.0, ox + dx);
        assertEquals(4403.0, oy + dy);
        assertEquals(6909.0, oz + dz);
        assertTrue(SphereSphere.test(1048, 4403, 6909, 0, -430, -31, 258, 8129));
        assertEquals(1.0, SegmentSphere.intersect(ox, oy, oz, dx, dy, dz, 1.0, -430, -31, 258, 8129));
        assertEquals(1.0, SegmentCapsule.intersect(ox, oy, oz, dx, dy, dz, 1.0, -430, -31, 258, -430, -31, 258,
                8129));
        assertEquals(1.0, SegmentCapsule.intersect(ox, oy, oz, dx, dy, dz, 1.0, -430, -31, 258, -430, -31, 158,
                8129));
        // a segment stopping short of the surface is still a miss
        assertEquals(Geom.NO_HIT, SegmentSphere.intersect(ox, oy, oz, dx, dy, dz, 0.99, -430, -31, 258, 8129));
    }

    @Test
    void segmentsEndingExactlyOnSpheresAndCapsuleEndsAreHits() {
        SplittableRandom random = new SplittableRandom(31);
        int ended = 0;
        for (int i = 0; i < 20_000; i++) {
            int[] q = QUADRUPLES[random.nextInt(QUADRUPLES.length)];
            double k = random.nextInt(1, 1000);
            double cx = anywhere(random);
            double cy = anywhere(random);
            double cz = anywhere(random);
            double nx = sign(random) * q[0] * k;
            double ny = sign(random) * q[1] * k;
            double nz = sign(random) * q[2] * k;
            double r = q[3] * k;
            double dx = step(random, 20_000);
            double dy = step(random, 20_000);
            double dz = step(random, 20_000);
            if (nx * dx + ny * dy + nz * dz > 0) {
                dx = -dx;
                dy = -dy;
                dz = -dz;
            }
            // end point c + n, exactly on the sphere; start o = end - d, all in integers
            double ox = cx + nx - dx;
            double oy = cy + ny - dy;
            double oz = cz + nz - dz;
            if (SphereSphere.test(ox, oy, oz, 0, cx, cy, cz, r)) {
                continue;
            }
            ended++;
            double t = SegmentSphere.intersect(ox, oy, oz, dx, dy, dz, 1.0, cx, cy, cz, r);
            assertTrue(t >= 0 && t <= 1.0, "sphere case " + i + ": " + t);
            // a capsule whose axis runs from c away from the end point: the end point's nearest axis point is c
            double s = random.nextInt(0, 3);
            double c = SegmentCapsule.intersect(ox, oy, oz, dx, dy, dz, 1.0, cx, cy, cz,
                    cx - s * nx, cy - s * ny, cz - s * nz, r);
            assertTrue(c >= 0 && c <= 1.0, "capsule case " + i + ": " + c);
        }
        assertTrue(ended > 10_000, "cases run: " + ended);
    }

    @Test
    void spherePathsEndingExactlyOnABoxCornerAreHits() {
        SplittableRandom random = new SplittableRandom(37);
        int ended = 0;
        for (int i = 0; i < 20_000; i++) {
            int[] q = QUADRUPLES[random.nextInt(QUADRUPLES.length)];
            double k = random.nextInt(1, 1000);
            double minX = anywhere(random);
            double minY = anywhere(random);
            double minZ = anywhere(random);
            double maxX = minX + random.nextInt(0, 5000);
            double maxY = minY + random.nextInt(0, 5000);
            double maxZ = minZ + random.nextInt(0, 5000);
            int corner = random.nextInt(8);
            boolean highX = (corner & 1) != 0;
            boolean highY = (corner & 2) != 0;
            boolean highZ = (corner & 4) != 0;
            // the end centre lies beyond the corner on all three axes, at exactly r from it
            double ex = (highX ? maxX : minX) + (highX ? 1 : -1) * q[0] * k;
            double ey = (highY ? maxY : minY) + (highY ? 1 : -1) * q[1] * k;
            double ez = (highZ ? maxZ : minZ) + (highZ ? 1 : -1) * q[2] * k;
            double r = q[3] * k;
            double dx = step(random, 20_000);
            double dy = step(random, 20_000);
            double dz = step(random, 20_000);
            double cx = ex - dx;
            double cy = ey - dy;
            double cz = ez - dz;
            if (SphereAabb.test(cx, cy, cz, r, minX, minY, minZ, maxX, maxY, maxZ)) {
                continue;
            }
            ended++;
            assertTrue(SphereAabb.test(ex, ey, ez, r, minX, minY, minZ, maxX, maxY, maxZ));
            double t = SweepAabb.intersectMovingSphere(cx, cy, cz, r, dx, dy, dz, 1.0,
                    minX, minY, minZ, maxX, maxY, maxZ);
            assertTrue(t >= 0 && t <= 1.0, "case " + i + ": " + t);
        }
        assertTrue(ended > 5_000, "cases run: " + ended);
    }

    @Test
    void spheresSweptIntoAnExactTouchAtTheEndOfTheFrameAreInContact() {
        SplittableRandom random = new SplittableRandom(41);
        SweepResult result = new SweepResult();
        int ended = 0;
        for (int i = 0; i < 20_000; i++) {
            int[] q = QUADRUPLES[random.nextInt(QUADRUPLES.length)];
            double k = random.nextInt(1, 1000);
            double ra = random.nextInt(0, (int) (q[3] * k) + 1);
            double rb = q[3] * k - ra;
            double ax = anywhere(random);
            double ay = anywhere(random);
            double az = anywhere(random);
            double vax = step(random, 5000);
            double vay = step(random, 5000);
            double vaz = step(random, 5000);
            // b ends at a's end position plus (a, b, c) k: the two touch exactly at u = 1
            double ex = ax + vax + sign(random) * q[0] * k;
            double ey = ay + vay + sign(random) * q[1] * k;
            double ez = az + vaz + sign(random) * q[2] * k;
            double vbx = step(random, 20_000);
            double vby = step(random, 20_000);
            double vbz = step(random, 20_000);
            double bx = ex - vbx;
            double by = ey - vby;
            double bz = ez - vbz;
            if (SphereSphere.test(ax, ay, az, ra, bx, by, bz, rb)) {
                continue;
            }
            ended++;
            assertTrue(SphereSphere.sweep(ax, ay, az, ra, vax, vay, vaz, bx, by, bz, rb, vbx, vby, vbz, result),
                    "case " + i);
            assertTrue(result.first >= 0 && result.first <= 1.0 && result.last <= 1.0, "case " + i + ": " + result);
        }
        assertTrue(ended > 10_000, "cases run: " + ended);
    }

    @Test
    void pathsGrazingTheSurfaceExactlyAtTheirEndAreHits() {
        // the motion is perpendicular to the end offset n (d = n x w), so the path touches the sphere at its end
        // and only there: a double root whose discriminant, 0, can round negative
        assertTrue(SphereSphere.sweep(0, 0, 0, 0, 0, 0, 0, 24057, 17523, -22869, 7425, -20493, -13068, 27621,
                new SweepResult()));
        SplittableRandom random = new SplittableRandom(43);
        SweepResult result = new SweepResult();
        for (int i = 0; i < 20_000; i++) {
            int[] q = QUADRUPLES[random.nextInt(QUADRUPLES.length)];
            double k = random.nextInt(1, 1000);
            double nx = sign(random) * q[0] * k;
            double ny = sign(random) * q[1] * k;
            double nz = sign(random) * q[2] * k;
            double r = q[3] * k;
            double wx = step(random, 50);
            double wy = step(random, 50);
            double wz = step(random, 50);
            double dx = ny * wz - nz * wy;
            double dy = nz * wx - nx * wz;
            double dz = nx * wy - ny * wx;
            if (dx == 0 && dy == 0 && dz == 0) {
                continue;
            }
            double cx = anywhere(random);
            double cy = anywhere(random);
            double cz = anywhere(random);
            // start o = c + n - d, end c + n on the sphere
            double ox = cx + nx - dx;
            double oy = cy + ny - dy;
            double oz = cz + nz - dz;
            String at = "case " + i;
            double t = SegmentSphere.intersect(ox, oy, oz, dx, dy, dz, 1.0, cx, cy, cz, r);
            assertTrue(t >= 0 && t <= 1.0, at + ": sphere " + t);
            double c = SegmentCapsule.intersect(ox, oy, oz, dx, dy, dz, 1.0, cx, cy, cz, cx - nx, cy - ny, cz - nz,
                    r);
            assertTrue(c >= 0 && c <= 1.0, at + ": capsule " + c);
            assertTrue(SphereSphere.sweep(cx, cy, cz, 0, 0, 0, 0, ox, oy, oz, r, dx, dy, dz, result), at);
            // a sphere of radius r whose centre path grazes a box corner at c (the box on the far side of c)
            double mx = cx + (nx > 0 ? -3 : 0);
            double my = cy + (ny > 0 ? -3 : 0);
            double mz = cz + (nz > 0 ? -3 : 0);
            double s = SweepAabb.intersectMovingSphere(ox, oy, oz, r, dx, dy, dz, 1.0, mx, my, mz, mx + 3, my + 3,
                    mz + 3);
            assertTrue(s >= 0 && s <= 1.0, at + ": corner " + s);
        }
    }

    @Test
    void endTestsAtTheEndsOfTheDoubleRangeReportNoFalseHits() {
        // an end point that overflows, and a robust bound of maxFraction near MAX_VALUE, decide nothing
        assertEquals(Geom.NO_HIT, SegmentSphere.intersect(0, -1e200, 0, 0, -1e200, 0, 1e200, 0, 0, 0, 1e160));
        assertEquals(Geom.NO_HIT, SegmentCapsule.intersect(0, -1e200, 0, 0, -1e200, 0, 1e200, 0, 0, 0, 1, 0, 0,
                1e160));
        assertEquals(Geom.NO_HIT, SegmentCapsule.intersect(10, 0, 0, 1, 0, 0, Double.MAX_VALUE, 0, 0, 0, 0, 1, 0, 1));
        assertEquals(Geom.NO_HIT, SweepAabb.intersectMovingSphere(1.9, 1.9, -5, 1, 0, 0, 1, Double.MAX_VALUE,
                0, 0, 0, 1, 1, 1));
        assertFalse(SphereSphere.sweep(0, 0, 0, 1e160, 0, 0, 0, 0, -1e308, 0, 1, 0, -1e308, 0, new SweepResult()));
        // the six-axis forms take doubled lengths only where they cannot overflow
        for (double s : new double[] {1e300, 2e307}) {
            assertFalse(SegmentAabb.testSeparatingAxes(3 * s, 0, 0, s, 0, 0, 1.0, -s, -s, -s, s, s, s), "s " + s);
            double[] obb = new double[ObbLayout.STRIDE];
            Obb.of(new Aabb(-s, -s, -s, s, s, s)).writeTo(obb, 0);
            assertFalse(SegmentObb.test(3 * s, 0, 0, s, 0, 0, 1.0, obb, 0), "s " + s);
        }
    }

    @Test
    void aPathStoppingWellShortOfTheSurfaceIsStillAMiss() {
        // the end point 1% of the radius outside: no robust bound or end test may take it
        assertEquals(Geom.NO_HIT, SegmentSphere.intersect(-20, 0, 0, 9.9, 0, 0, 1.0, 0, 0, 0, 10));
        assertEquals(Geom.NO_HIT, SegmentCapsule.intersect(-20, 0, 0, 9.9, 0, 0, 1.0, 0, 0, 0, 0, 0, -5, 10));
        assertEquals(Geom.NO_HIT, SweepAabb.intersectMovingSphere(-20, 0, 0, 10, 9.9, 0, 0, 1.0, 0, 0, 0, 1, 1, 1));
        assertFalse(SphereSphere.test(-10.1, 0, 0, 0, 0, 0, 0, 10));
        assertFalse(SphereSphere.sweep(-20, 0, 0, 4, 9.9, 0, 0, 0, 0, 0, 6, 0, 0, 0, new SweepResult()));
    }

    @Test
    void subnormalSegmentsEndingOnAFaceTouchInTheSeparatingAxisForms() {
        // the segment from 2u to u along x ends on the face x = u of the box [0, u] x [0, 0] x [0, 0]
        double u = Double.MIN_VALUE;
        assertTrue(SegmentAabb.testSeparatingAxes(2 * u, 0, 0, -u, 0, 0, 1.0, 0, 0, 0, u, 0, 0));
        assertTrue(SegmentAabb.testDivisionFree(2 * u, 0, 0, -u, 0, 0, 1.0, 0, 0, 0, u, 0, 0));
        double[] obb = new double[ObbLayout.STRIDE];
        Obb.of(new Aabb(0, 0, 0, u, 0, 0)).writeTo(obb, 0);
        assertTrue(SegmentObb.test(2 * u, 0, 0, -u, 0, 0, 1.0, obb, 0));
        assertTrue(SegmentAabb.testSeparatingAxes(2001 * u, 7 * u, 0, -1000 * u, -3 * u, 0, 1.0,
                0, 0, 0, 1001 * u, 4 * u, 0));
        // one step short is still apart
        assertFalse(SegmentAabb.testSeparatingAxes(3 * u, 0, 0, -u, 0, 0, 1.0, 0, 0, 0, u, 0, 0));
        assertFalse(SegmentObb.test(3 * u, 0, 0, -u, 0, 0, 1.0, obb, 0));
    }

    private static double anywhere(SplittableRandom random) {
        return random.nextInt(-1_000_000, 1_000_000);
    }

    private static double step(SplittableRandom random, int bound) {
        return random.nextInt(-bound, bound);
    }

    private static double sign(SplittableRandom random) {
        return random.nextBoolean() ? 1 : -1;
    }
}
