package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hit points and surface normals ({@link SurfaceHit}) of the segment kernels, against what the shapes say
 * independently of the kernels: the point lies on the surface, the normal is perpendicular to it, unit, pointing
 * out and against the segment, and, for boxes, the face the exact entry (BigDecimal) goes through. Starts inside, on
 * the surface, degenerate shapes and scale invariance are pinned down by hand.
 */
class SurfaceHitTest {

    private static final MathContext MC = new MathContext(40);

    private final SurfaceHit hit = new SurfaceHit();

    // ---------------------------------------------------------------------------------------------------------------
    // boxes

    @Test
    void shouldPutBoxHitsOnTheEnteredFace() {
        SplittableRandom random = new SplittableRandom(0xFACE);
        int checked = 0;
        for (int i = 0; i < 40_000; i++) {
            double scale = i % 3 == 0 ? 1 : i % 3 == 1 ? 1e-3 : 1e4;
            double base = i % 4 == 0 ? 1e6 : 0;
            double[] min = point(random, base, scale);
            double[] max = new double[3];
            for (int k = 0; k < 3; k++) {
                max[k] = min[k] + (i % 7 == 0 && k == i % 3 ? 0 : random.nextDouble(0, 2 * scale)); // some flat
            }
            double[] o = point(random, base, 6 * scale);
            double[] target = new double[3];
            for (int k = 0; k < 3; k++) {
                target[k] = random.nextDouble(min[k] - 0.2 * scale, max[k] + 0.2 * scale);
            }
            double[] d = {(target[0] - o[0]) * 1.5, (target[1] - o[1]) * 1.5, (target[2] - o[2]) * 1.5};
            double t = SegmentAabb.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, min[0], min[1], min[2],
                    max[0], max[1], max[2]);
            if (!(t > 0)) {
                continue;
            }
            String what = Arrays.toString(o) + " " + Arrays.toString(d) + " " + Arrays.toString(min) + " "
                    + Arrays.toString(max);
            assertTrue(SegmentAabb.surface(o[0], o[1], o[2], d[0], d[1], d[2], t, min[0], min[1], min[2],
                    max[0], max[1], max[2], hit), what);
            assertTrue(hit.hit && !hit.startInside && hit.fraction == t, what);
            int face = faceOf(hit);
            int axis = face >> 1;
            double[] p = {hit.x, hit.y, hit.z};
            for (int k = 0; k < 3; k++) {
                assertTrue(p[k] >= min[k] && p[k] <= max[k], "point in the box: " + hit + " " + what);
                assertEquals(o[k] + t * d[k], p[k], 1e-12 * (Math.abs(base) + 10 * scale), what);
            }
            assertEquals((face & 1) == 0 ? min[axis] : max[axis], p[axis], "point on its face: " + what);
            assertTrue(d[axis] * ((face & 1) == 0 ? -1 : 1) < 0, "the face looks at the start: " + what);
            int expected = exactEnteredFace(o, d, min, max);
            if (expected >= 0) {
                checked++;
                assertEquals(expected, face, "entered face: " + hit + " " + what);
            }
        }
        assertTrue(checked > 15_000, checked + " checked");
    }

    /** The face index (2 axis + side) of an axis-aligned unit normal. */
    private static int faceOf(SurfaceHit h) {
        double[] n = {h.normalX, h.normalY, h.normalZ};
        int face = -1;
        for (int k = 0; k < 3; k++) {
            if (n[k] != 0) {
                assertEquals(-1, face, "one axis: " + h);
                assertEquals(1.0, Math.abs(n[k]), "unit: " + h);
                face = 2 * k + (n[k] > 0 ? 1 : 0);
            }
        }
        assertTrue(face >= 0, "a normal: " + h);
        return face;
    }

    /** The face of the largest exact entry distance, or -1 when the two largest are within 1e-9 (an edge). */
    private static int exactEnteredFace(double[] o, double[] d, double[] min, double[] max) {
        BigDecimal best = null;
        BigDecimal second = null;
        int face = -1;
        for (int k = 0; k < 3; k++) {
            if (d[k] == 0) {
                continue;
            }
            double bound = d[k] > 0 ? min[k] : max[k];
            BigDecimal entry = b(bound).subtract(b(o[k])).divide(b(d[k]), MC);
            if (best == null || entry.compareTo(best) > 0) {
                second = best;
                best = entry;
                face = 2 * k + (d[k] > 0 ? 0 : 1);
            } else if (second == null || entry.compareTo(second) > 0) {
                second = entry;
            }
        }
        if (second != null && best.subtract(second).abs().compareTo(best.abs().multiply(b(1e-9))) <= 0) {
            return -1;
        }
        return face;
    }

    @Test
    void shouldDescribeBoxStartsInsideAndOnTheBoundary() {
        // strictly inside: the start, the reversed unit translation
        SegmentAabb.surface(0.5, 0.5, 0.5, 3, 0, 4, 0, 0, 0, 0, 1, 1, 1, hit);
        assertTrue(hit.hit && hit.startInside);
        assertPoint(0.5, 0.5, 0.5);
        assertNormal(-0.6, 0, -0.8);
        // inside, not moving: no direction at all
        SegmentAabb.surface(0.5, 0.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertTrue(hit.startInside);
        assertNormal(0, 0, 0);
        // on the min x face, moving in or out: that face
        SegmentAabb.surface(0, 0.5, 0.5, 1, 0.2, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertFalse(hit.startInside);
        assertNormal(-1, 0, 0);
        SegmentAabb.surface(0, 0.5, 0.5, -1, 0.2, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertNormal(-1, 0, 0);
        // on the edge of the min x and min y faces: the face most against the translation
        SegmentAabb.surface(0, 0, 0.5, 1, 2, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertNormal(0, -1, 0);
        SegmentAabb.surface(0, 0, 0.5, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertNormal(-1, 0, 0);
        // tie on the edge: the lower axis
        SegmentAabb.surface(0, 0, 0.5, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertNormal(-1, 0, 0);
        // a flat box met by a start on it: the side the segment comes from
        SegmentAabb.surface(2, 0.5, 0.5, -1, 0, 0, 0, 2, 0, 0, 2, 1, 1, hit);
        assertNormal(1, 0, 0);
        SegmentAabb.surface(2, 0.5, 0.5, 1, 0, 0, 0, 2, 0, 0, 2, 1, 1, hit);
        assertNormal(-1, 0, 0);
        // through a corner exactly: x entered first on ties, the point the corner itself
        double t = SegmentAabb.intersect(-1, -1, -1, 2, 2, 2, 1, 0, 0, 0, 1, 1, 1);
        SegmentAabb.surface(-1, -1, -1, 2, 2, 2, t, 0, 0, 0, 1, 1, 1, hit);
        assertNormal(-1, 0, 0);
        assertPoint(0, 0, 0);
        // a point box
        t = SegmentAabb.intersect(3, 1, 1, -4, 0, 0, 1, 1, 1, 1, 1, 1, 1);
        SegmentAabb.surface(3, 1, 1, -4, 0, 0, t, 1, 1, 1, 1, 1, 1, hit);
        assertEquals(0.5, hit.fraction);
        assertNormal(1, 0, 0);
        assertPoint(1, 1, 1);
    }

    @Test
    void shouldKeepBoxHitPointsOnTheBoxWhereRoundingStepsOut() {
        // fractions whose point o + t d rounds beyond the face or off the box: the point is moved onto it
        SplittableRandom random = new SplittableRandom(0xB0B);
        int moved = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] o = point(random, 1e6, 3);
            double[] d = point(random, 0, 1e3);
            double[] min = point(random, 1e6 + 10, 1);
            double[] max = {min[0] + 1e-9, min[1] + random.nextDouble(0, 1e-9), min[2] + 1e-9};
            double t = SegmentAabb.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, min[0], min[1], min[2], max[0],
                    max[1], max[2]);
            // any fraction near the box, as a cast in another frame could report it
            t = t > 0 ? t * (1 + random.nextDouble(-1e-12, 1e-12)) : random.nextDouble(0, 1);
            SegmentAabb.surface(o[0], o[1], o[2], d[0], d[1], d[2], t, min[0], min[1], min[2], max[0], max[1], max[2],
                    hit);
            double[] p = {hit.x, hit.y, hit.z};
            for (int k = 0; k < 3; k++) {
                assertTrue(p[k] >= min[k] && p[k] <= max[k], hit.toString());
                if (o[k] + t * d[k] != p[k]) {
                    moved++;
                }
            }
        }
        assertTrue(moved > 1000, moved + " coordinates moved onto the box");
    }

    // ---------------------------------------------------------------------------------------------------------------
    // spheres and capsules

    @Test
    void shouldPointSphereNormalsFromTheCentre() {
        SplittableRandom random = new SplittableRandom(0x5F);
        int checked = 0;
        for (int i = 0; i < 30_000; i++) {
            double scale = i % 3 == 0 ? 1 : i % 3 == 1 ? 1e-3 : 1e4;
            double base = i % 4 == 0 ? 1e6 : 0;
            double[] c = point(random, base, scale);
            double r = random.nextDouble(0.05, 1) * scale;
            double[] o = point(random, base, 5 * scale);
            double[] aim = point(random, 0, r);
            double[] d = {(c[0] + aim[0] - o[0]) * 1.3, (c[1] + aim[1] - o[1]) * 1.3, (c[2] + aim[2] - o[2]) * 1.3};
            double t = SegmentSphere.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, c[0], c[1], c[2], r);
            if (!(t > 0)) {
                continue;
            }
            checked++;
            String what = Arrays.toString(o) + " " + Arrays.toString(d) + " " + Arrays.toString(c) + " " + r;
            assertTrue(SegmentSphere.surface(o[0], o[1], o[2], d[0], d[1], d[2], t, c[0], c[1], c[2], r, hit));
            assertFalse(hit.startInside, what);
            double[] m = {hit.x - c[0], hit.y - c[1], hit.z - c[2]};
            double length = Math.sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
            double tolerance = 1e-9 * (r + length + Math.abs(base) * 1e-3);
            assertEquals(r, length, tolerance, "point on the sphere: " + what);
            assertUnit();
            // the point's rounding, relative to the radius, is the normal's
            double nt = 1e-9 + 1e-15 * (Math.abs(base) + 10 * scale) / r;
            assertEquals(m[0] / length, hit.normalX, nt, what);
            assertEquals(m[1] / length, hit.normalY, nt, what);
            assertEquals(m[2] / length, hit.normalZ, nt, what);
            assertTrue(hit.normalX * d[0] + hit.normalY * d[1] + hit.normalZ * d[2] <= nt * norm(d), what);
        }
        assertTrue(checked > 20_000, checked + " checked");
    }

    @Test
    void shouldDescribeSphereStartsAndDegenerateSpheres() {
        SegmentSphere.surface(0.5, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, hit);
        assertTrue(hit.startInside);
        assertNormal(0, -1, 0);
        assertPoint(0.5, 0, 0);
        // on the surface: its normal there, even moving outward
        SegmentSphere.surface(1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, hit);
        assertFalse(hit.startInside);
        assertNormal(1, 0, 0);
        // a point sphere met head-on: the reversed translation
        double t = SegmentSphere.intersect(-2, 0, 0, 4, 0, 0, 1, 0, 0, 0, 0);
        SegmentSphere.surface(-2, 0, 0, 4, 0, 0, t, 0, 0, 0, 0, hit);
        assertEquals(0.5, hit.fraction);
        assertNormal(-1, 0, 0);
        // a zero-length segment at the centre of a point sphere: no direction
        SegmentSphere.surface(3, 3, 3, 0, 0, 0, 0, 3, 3, 3, 0, hit);
        assertFalse(hit.startInside);
        assertNormal(0, 0, 0);
        // the same hit at scales 2^-600 and 2^600: the same normal, the point scaled exactly
        double[] in = {-3, 0.25, 0.5, 6, 0.1, -0.2, 0.2, 0.3, 0.1, 1.1};
        SurfaceHit unit = new SurfaceHit();
        sphereAt(in, 0, unit);
        for (int e : new int[] {-600, 600}) {
            sphereAt(in, e, hit);
            assertEquals(unit.fraction, hit.fraction, 1e-15);
            assertEquals(unit.normalX, hit.normalX, 1e-15);
            assertEquals(unit.normalY, hit.normalY, 1e-15);
            assertEquals(unit.normalZ, hit.normalZ, 1e-15);
            assertEquals(unit.x, Math.scalb(hit.x, -e), 1e-15);
        }
    }

    private static void sphereAt(double[] in, int e, SurfaceHit dest) {
        double[] v = new double[in.length];
        for (int k = 0; k < v.length; k++) {
            v[k] = Math.scalb(in[k], e);
        }
        double t = SegmentSphere.intersect(v[0], v[1], v[2], v[3], v[4], v[5], 1, v[6], v[7], v[8], v[9]);
        assertTrue(t > 0);
        SegmentSphere.surface(v[0], v[1], v[2], v[3], v[4], v[5], t, v[6], v[7], v[8], v[9], dest);
    }

    @Test
    void shouldPointCapsuleNormalsFromTheAxis() {
        SplittableRandom random = new SplittableRandom(0xCA9);
        int checked = 0;
        int ends = 0;
        for (int i = 0; i < 30_000; i++) {
            double scale = i % 2 == 0 ? 1 : 1e3;
            double base = i % 4 == 0 ? 1e5 : 0;
            double[] p = point(random, base, scale);
            double[] q = i % 10 == 0 ? p.clone() : point(random, base, scale);
            double r = random.nextDouble(0.05, 0.6) * scale;
            double[] o = point(random, base, 5 * scale);
            double s = random.nextDouble(-0.2, 1.2);
            double[] aim = point(random, 0, r);
            double[] d = new double[3];
            for (int k = 0; k < 3; k++) {
                d[k] = (p[k] + s * (q[k] - p[k]) + aim[k] - o[k]) * 1.3;
            }
            double t = SegmentCapsule.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, p[0], p[1], p[2],
                    q[0], q[1], q[2], r);
            if (!(t > 0)) {
                continue;
            }
            checked++;
            String what = Arrays.toString(o) + " " + Arrays.toString(d) + " " + Arrays.toString(p) + " "
                    + Arrays.toString(q) + " " + r;
            SegmentCapsule.surface(o[0], o[1], o[2], d[0], d[1], d[2], t, p[0], p[1], p[2], q[0], q[1], q[2], r, hit);
            assertFalse(hit.startInside, what);
            double[] m = offsetFromAxis(new double[] {hit.x, hit.y, hit.z}, p, q);
            if (m[3] <= 0 || m[3] >= 1) {
                ends++;
            }
            double length = norm(m);
            assertEquals(r, length, 1e-9 * (r + norm(d) + Math.abs(base) * 1e-3), "point on the capsule: " + what);
            assertUnit();
            // the point's rounding, relative to the radius, is the normal's (the reference is exact for the point)
            double nt = 1e-14 + 4e-16 * (Math.abs(base) + 10 * scale) / r;
            assertEquals(m[0] / length, hit.normalX, nt, what);
            assertEquals(m[1] / length, hit.normalY, nt, what);
            assertEquals(m[2] / length, hit.normalZ, nt, what);
            assertTrue(hit.normalX * d[0] + hit.normalY * d[1] + hit.normalZ * d[2] <= nt * norm(d), what);
        }
        assertTrue(checked > 15_000 && ends > 2_000, checked + " checked, " + ends + " on the end spheres");
        // a start inside, on the axis, and a capsule of radius 0 crossed through its axis
        SegmentCapsule.surface(0.5, 0.1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.5, hit);
        assertTrue(hit.startInside);
        assertNormal(0, 0, -1);
        double t = SegmentCapsule.intersect(0.5, -1, 0, 0, 2, 0, 1, 0, 0, 0, 1, 0, 0, 0);
        SegmentCapsule.surface(0.5, -1, 0, 0, 2, 0, t, 0, 0, 0, 1, 0, 0, 0, hit);
        assertEquals(0.5, hit.fraction);
        assertNormal(0, -1, 0);
    }

    @Test
    void shouldDecideCapsulesNearTheFarEndOfALongAxisAsNearItsStart() {
        // an axis a million long, its q end near the origin: a start just outside the q end sphere (by 1.1e-10) is
        // outside, and the normal there is as exact as at the p end (the offsets are taken from the nearer end)
        double[] o = {-0.9132076536364614, -0.24385603231935227, 0.61188397471825};
        double[] p = {75451.53789696273, 806519.4388969801, -586372.7539222991};
        double[] q = {-0.9048396031767736, 0.2559635767788635, 0.6223879836465427};
        assertEquals(Geom.NO_HIT, SegmentCapsule.intersect(o[0], o[1], o[2], 0, -1, 0, 1, p[0], p[1], p[2], q[0], q[1],
                q[2], 0.5), "moving away from the q end");
        SegmentCapsule.surface(o[0], o[1], o[2], 0, 1, 0, 0, p[0], p[1], p[2], q[0], q[1], q[2], 0.5, hit);
        assertFalse(hit.startInside, hit.toString());
        double[] m = offsetFromAxis(o, p, q);
        double length = norm(m);
        assertEquals(m[0] / length, hit.normalX, 1e-14);
        assertEquals(m[1] / length, hit.normalY, 1e-14);
        assertEquals(m[2] / length, hit.normalZ, 1e-14);
        // a hit on the side near q: the same normal whichever way the axis is given
        double[] o2 = {-0.7425582830452523, -0.7645831108421386, -0.4376037042826232};
        double[] d2 = {-0.025333810908985455, 0.015304099044891994, 0.03927184056086577};
        double[] p2 = {795487.0917614747, 598645.3893128054, 93924.41673439232};
        double[] q2 = {-0.7626003118566969, -0.7513195583365655, -0.40356810912987284};
        double t2 = 0.6460124589192333;
        SurfaceHit reversed = new SurfaceHit();
        SegmentCapsule.surface(o2[0], o2[1], o2[2], d2[0], d2[1], d2[2], t2, p2[0], p2[1], p2[2], q2[0], q2[1], q2[2],
                0.01, hit);
        SegmentCapsule.surface(o2[0], o2[1], o2[2], d2[0], d2[1], d2[2], t2, q2[0], q2[1], q2[2], p2[0], p2[1], p2[2],
                0.01, reversed);
        double[] m2 = offsetFromAxis(new double[] {hit.x, hit.y, hit.z}, p2, q2);
        double length2 = norm(m2);
        for (SurfaceHit h : new SurfaceHit[] {hit, reversed}) {
            assertEquals(m2[0] / length2, h.normalX, 1e-13, h.toString());
            assertEquals(m2[1] / length2, h.normalY, 1e-13, h.toString());
            assertEquals(m2[2] / length2, h.normalZ, 1e-13, h.toString());
        }
    }

    @Test
    void shouldFindStartsInsideThinCapsules() {
        // squares of 1e-200 underflow: the comparisons are scaled first
        SegmentCapsule.surface(0.5, 5e-201, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1e-200, hit);
        assertTrue(hit.startInside, hit.toString());
        assertNormal(0, -1, 0);
        assertEquals(0.0, SegmentCapsule.intersect(0.5, 5e-201, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1e-200));
        assertEquals(Geom.NO_HIT, SegmentCapsule.intersect(0.5, 5e-200, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1e-200),
                "outside, moving away");
    }

    @Test
    void shouldNormalizeVectorsNearTheEndOfTheDoubleRange() {
        // a centre-to-point vector whose components sum beyond Double.MAX_VALUE
        double t = SegmentSphere.intersect(-0.9e308, -1.7e308, 0, 0, 0.5e308, 0, 1, 0, 0, 0, 1.5e308);
        assertTrue(t > 0.99 && t <= 1, "t = " + t);
        SegmentSphere.surface(-0.9e308, -1.7e308, 0, 0, 0.5e308, 0, t, 0, 0, 0, 1.5e308, hit);
        assertEquals(-0.6, hit.normalX, 1e-9);
        assertEquals(-0.8, hit.normalY, 1e-9);
        // a start inside with a translation that large
        SegmentAabb.surface(0.5, 0.5, 0.5, 1e308, 1e308, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertTrue(hit.startInside);
        assertNormal(-Math.sqrt(0.5), -Math.sqrt(0.5), 0);
        // a plane whose normal's components sum beyond the double range, entered at 0.625 (given: the fraction
        // kernel's own products overflow there)
        double[] planes = {1e308, 1e308, 0, 0, -1, 0, 0, 10, 0, -1, 0, 10, 0, 0, 1, 10, 0, 0, -1, 10};
        SegmentConvex.surface(0.5, 0, 0, -1, 0.2, 0, 0.625, planes, 5, hit);
        assertNormal(Math.sqrt(0.5), Math.sqrt(0.5), 0);
        // no negative zeros, in the fraction or the normal
        SegmentSphere.surface(-2, 0, 0, 4, 0, 0, -0.0, 0, 0, 0, 0, hit);
        assertEquals(0.0, hit.fraction);
        assertEquals(0.0, hit.normalY);
        assertEquals(0.0, hit.normalZ);
    }

    /**
     * {@code x} minus its closest point on the segment [p, q], exactly (BigDecimal) then rounded, and the closest
     * point's parameter (unclamped) as the fourth entry.
     */
    private static double[] offsetFromAxis(double[] x, double[] p, double[] q) {
        BigDecimal ee = BigDecimal.ZERO;
        BigDecimal we = BigDecimal.ZERO;
        for (int k = 0; k < 3; k++) {
            BigDecimal e = b(q[k]).subtract(b(p[k]));
            ee = ee.add(e.multiply(e));
            we = we.add(b(x[k]).subtract(b(p[k])).multiply(e));
        }
        BigDecimal s = ee.signum() > 0 ? we.divide(ee, MC) : BigDecimal.ZERO;
        BigDecimal clamped = s.max(BigDecimal.ZERO).min(BigDecimal.ONE);
        double[] out = new double[4];
        for (int k = 0; k < 3; k++) {
            BigDecimal closest = b(p[k]).add(clamped.multiply(b(q[k]).subtract(b(p[k]))));
            out[k] = b(x[k]).subtract(closest).doubleValue();
        }
        out[3] = s.doubleValue();
        return out;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // triangles and convex polyhedra

    @Test
    void shouldFaceTriangleNormalsTowardTheStart() {
        SplittableRandom random = new SplittableRandom(0x7A1);
        int checked = 0;
        for (int i = 0; i < 30_000; i++) {
            double scale = i % 3 == 0 ? 1 : i % 3 == 1 ? 1e-4 : 1e5;
            double[] a = point(random, 0, scale);
            double[] b = point(random, 0, scale);
            double[] c = point(random, 0, scale);
            double[] o = point(random, 0, 4 * scale);
            double u = random.nextDouble();
            double v = random.nextDouble(0, 1 - u);
            double[] d = new double[3];
            for (int k = 0; k < 3; k++) {
                d[k] = (a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]) - o[k]) * 1.4;
            }
            double t = SegmentTriangle.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, a[0], a[1], a[2], b[0], b[1],
                    b[2], c[0], c[1], c[2]);
            if (!(t > 0)) {
                continue;
            }
            checked++;
            String what = Arrays.toString(o) + " " + Arrays.toString(d) + " " + Arrays.toString(a) + " "
                    + Arrays.toString(b) + " " + Arrays.toString(c);
            SegmentTriangle.surface(o[0], o[1], o[2], d[0], d[1], d[2], t, a[0], a[1], a[2], b[0], b[1], b[2], c[0],
                    c[1], c[2], hit);
            assertFalse(hit.startInside);
            assertUnit();
            double[] n = {hit.normalX, hit.normalY, hit.normalZ};
            double[] e1 = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            double[] e2 = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            assertEquals(0, dot(n, e1) / norm(e1), 1e-9, "perpendicular: " + what);
            assertEquals(0, dot(n, e2) / norm(e2), 1e-9, "perpendicular: " + what);
            assertTrue(dot(n, d) < 0, "faces the start: " + what);
            double[] ap = {hit.x - a[0], hit.y - a[1], hit.z - a[2]};
            assertEquals(0, dot(n, ap), 1e-9 * scale, "point in the plane: " + what);
        }
        assertTrue(checked > 20_000, checked + " checked");
        // both sides; a zero-length segment on it takes the winding; tiny and huge triangles
        SegmentTriangle.surface(0.2, 0.2, 1, 0, 0, -2, 0.5, 0, 0, 0, 1, 0, 0, 0, 1, 0, hit);
        assertNormal(0, 0, 1);
        assertPoint(0.2, 0.2, 0);
        SegmentTriangle.surface(0.2, 0.2, -1, 0, 0, 2, 0.5, 0, 0, 0, 1, 0, 0, 0, 1, 0, hit);
        assertNormal(0, 0, -1);
        SegmentTriangle.surface(0.2, 0.2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, hit);
        assertNormal(0, 0, -1);
        double tiny = 0x1p-1000;
        SegmentTriangle.surface(0, 0, tiny, 0, 0, -2 * tiny, 0.5, 0, 0, 0, tiny, 0, 0, 0, tiny, 0, hit);
        assertNormal(0, 0, 1);
        double huge = 0x1p1000;
        SegmentTriangle.surface(0, 0, huge, 0, 0, -2 * huge, 0.5, 0, 0, 0, huge, 0, 0, 0, huge, 0, hit);
        assertNormal(0, 0, 1);
        // zero area: the reversed translation
        SegmentTriangle.surface(0, 0, 1, 0, 3, -4, 0.2, 0, 0, 0, 1, 0, 0, 2, 0, 0, hit);
        assertNormal(0, -0.6, 0.8);
    }

    @Test
    void shouldGiveTheEnteredPlaneOfConvexPolyhedra() {
        SplittableRandom random = new SplittableRandom(0xC0E);
        SurfaceHit box = new SurfaceHit();
        int checked = 0;
        for (int i = 0; i < 20_000; i++) {
            double[] min = point(random, 0, 1);
            double[] max = {min[0] + random.nextDouble(0.1, 2), min[1] + random.nextDouble(0.1, 2),
                min[2] + random.nextDouble(0.1, 2)};
            // the box as six planes with normals of assorted lengths
            double[] planes = new double[24];
            for (int f = 0; f < 6; f++) {
                double length = Math.scalb(1.0, random.nextInt(-20, 20)) * random.nextDouble(0.5, 2);
                int axis = f >> 1;
                double sign = (f & 1) == 0 ? -1 : 1;
                planes[4 * f + axis] = sign * length;
                planes[4 * f + 3] = sign * length * ((f & 1) == 0 ? min[axis] : max[axis]);
            }
            double[] o = point(random, 0, 5);
            double[] d = {(random.nextDouble(min[0], max[0]) - o[0]) * 1.2,
                (random.nextDouble(min[1], max[1]) - o[1]) * 1.2, (random.nextDouble(min[2], max[2]) - o[2]) * 1.2};
            double t = SegmentAabb.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, min[0], min[1], min[2], max[0],
                    max[1], max[2]);
            int face = exactEnteredFace(o, d, min, max);
            if (!(t > 0) || face < 0) {
                continue;
            }
            checked++;
            double tc = SegmentConvex.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, planes, 6);
            SegmentConvex.surface(o[0], o[1], o[2], d[0], d[1], d[2], tc, planes, 6, hit);
            SegmentAabb.surface(o[0], o[1], o[2], d[0], d[1], d[2], t, min[0], min[1], min[2], max[0], max[1], max[2],
                    box);
            String what = hit + " " + box;
            assertEquals(box.normalX, hit.normalX, what);
            assertEquals(box.normalY, hit.normalY, what);
            assertEquals(box.normalZ, hit.normalZ, what);
            assertEquals(box.x, hit.x, 1e-12, what);
            assertEquals(box.y, hit.y, 1e-12, what);
            assertEquals(box.z, hit.z, 1e-12, what);
        }
        assertTrue(checked > 10_000, checked + " checked");
        double[] cube = {-1, 0, 0, 0, 1, 0, 0, 1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 0, -1, 0, 0, 0, 1, 1};
        // inside; on a face; on an edge, taking the face most against the translation; no planes
        SegmentConvex.surface(0.5, 0.5, 0.5, 0, 0, 2, 0, cube, 6, hit);
        assertTrue(hit.startInside);
        assertNormal(0, 0, -1);
        SegmentConvex.surface(0, 0.5, 0.5, 1, 0, 0, 0, cube, 6, hit);
        assertFalse(hit.startInside);
        assertNormal(-1, 0, 0);
        SegmentConvex.surface(0, 0, 0.5, 1, 2, 0, 0, cube, 6, hit);
        assertNormal(0, -1, 0);
        SegmentConvex.surface(5, 5, 5, 1, 0, 0, 0, cube, 0, hit);
        assertTrue(hit.startInside);
        assertNormal(-1, 0, 0);
    }

    @Test
    void shouldReportAMissForANegativeFractionAndClearEverything() {
        SegmentSphere.surface(-2, 0, 0, 4, 0, 0, 0.25, 0, 0, 0, 1, hit);
        assertTrue(hit.hit);
        assertFalse(SegmentSphere.surface(-2, 0, 0, 4, 0, 0, Geom.NO_HIT, 0, 0, 0, 1, hit));
        assertMiss();
        SegmentAabb.surface(0.5, 0.5, 0.5, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, hit);
        assertFalse(SegmentAabb.surface(0, 0, 0, 1, 0, 0, Double.NaN, 0, 0, 0, 1, 1, 1, hit));
        assertMiss();
        assertFalse(SegmentCapsule.surface(0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, 1, hit));
        assertMiss();
        assertFalse(SegmentTriangle.surface(0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, 0, 1, 0, hit));
        assertMiss();
        assertFalse(SegmentConvex.surface(0, 0, 0, 1, 0, 0, -1, new double[0], 0, hit));
        assertMiss();
        assertEquals("SurfaceHit[miss]", hit.toString());
    }

    private void assertMiss() {
        assertFalse(hit.hit || hit.startInside);
        assertEquals(Geom.NO_HIT, hit.fraction);
        assertEquals(0, Math.abs(hit.x) + Math.abs(hit.y) + Math.abs(hit.z) + Math.abs(hit.normalX)
                + Math.abs(hit.normalY) + Math.abs(hit.normalZ));
    }

    // ---------------------------------------------------------------------------------------------------------------

    private void assertNormal(double x, double y, double z) {
        assertEquals(x, hit.normalX, 1e-15, hit.toString());
        assertEquals(y, hit.normalY, 1e-15, hit.toString());
        assertEquals(z, hit.normalZ, 1e-15, hit.toString());
    }

    private void assertPoint(double x, double y, double z) {
        assertEquals(x, hit.x, 1e-15, hit.toString());
        assertEquals(y, hit.y, 1e-15, hit.toString());
        assertEquals(z, hit.z, 1e-15, hit.toString());
    }

    private void assertUnit() {
        double length = Math.sqrt(hit.normalX * hit.normalX + hit.normalY * hit.normalY + hit.normalZ * hit.normalZ);
        assertEquals(1, length, 1e-15, hit.toString());
    }

    private static double[] point(SplittableRandom random, double base, double spread) {
        return new double[] {base + random.nextDouble(-spread, spread), base + random.nextDouble(-spread, spread),
            base + random.nextDouble(-spread, spread)};
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    private static BigDecimal b(double v) {
        return new BigDecimal(v);
    }
}
