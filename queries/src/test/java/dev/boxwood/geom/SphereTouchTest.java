package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Exact touches of round shapes whose squares round: offsets of more than 26 significant bits (a Pythagorean
 * quadruple, or spheres far from the origin) make a touching pair's squared distance round an ulp above the squared
 * radius. The sphere-sphere test, the start tests of the segment casts built on it and the sphere sweep's start
 * must count such a touch, as {@link SphereAabb#test} does (closed shapes, docs/conventions.md).
 */
class SphereTouchTest {

    /** 92724551^2 + 166058438^2 + 1774826^2 = 190200939^2 exactly; the plain sum of squares rounds above. */
    private static final double X = 92724551;
    private static final double Y = 166058438;
    private static final double Z = -1774826;
    private static final double R = 190200939;

    /** 340528680^2 + 681045622^2 = 761434778^2 exactly; the plain sum of squares rounds above. */
    private static final double P = 340528680;
    private static final double Q = 681045622;
    private static final double S = 761434778;

    private static BigDecimal e(double v) {
        return new BigDecimal(v);
    }

    @Test
    void theCasesAreExactTouchesThatThePlainSquaresMiss() {
        assertEquals(0, e(X).pow(2).add(e(Y).pow(2)).add(e(Z).pow(2)).compareTo(e(R).pow(2)));
        assertTrue(X * X + Y * Y + Z * Z > R * R);
        assertEquals(0, e(P).pow(2).add(e(Q).pow(2)).compareTo(e(S).pow(2)));
        assertTrue(P * P + Q * Q > S * S);
    }

    @Test
    void shouldCountSpheresTouchingAtAPointWhoseSquaresRound() {
        assertTrue(SphereSphere.test(0, 0, 0, R, X, Y, Z, 0));
        assertTrue(SphereSphere.test(X, Y, Z, 0, 0, 0, 0, R));
        // radius split between the two, and far from the origin
        assertTrue(SphereSphere.test(0, 0, 0, 90000000, X, Y, Z, R - 90000000));
        double b = 0x1p40;
        assertTrue(SphereSphere.test(b, -b, b, R, b + X, Y - b, b + Z, 0));
        assertTrue(new Sphere(0, 0, 0, R).overlaps(new Sphere(X, Y, Z, 0)));
        // a step apart is still apart
        assertFalse(SphereSphere.test(0, 0, 0, R, X, Y, Math.nextDown(Z), 0));
        assertFalse(SphereSphere.test(0, 0, 0, Math.nextDown(R), X, Y, Z, 0));
    }

    @Test
    void shouldEnterAtZeroFromAStartOnTheSphere() {
        // on the surface, moving straight out: the start touches, fraction 0
        assertEquals(0.0, SegmentSphere.intersect(X, Y, Z, X, Y, Z, 1.0, 0, 0, 0, R));
        assertEquals(0.0, SegmentSphere.intersect(X + 5, Y - 7, Z, X, Y, Z, 1.0, 5, -7, 0, R));
    }

    @Test
    void shouldEnterAtZeroFromAStartOnACapsule() {
        // on the cylinder of an axis along z, moving straight out
        assertEquals(0.0, SegmentCapsule.intersect(P, Q, 5, P, Q, 0, 1.0, 0, 0, 0, 0, 0, 10, S));
        assertEquals(0.0, SegmentCapsule.intersect(5, P, Q, 0, P, Q, 1.0, 0, 0, 0, 10, 0, 0, S));
        // on the end sphere beyond p
        assertEquals(0.0, SegmentCapsule.intersect(X, Y, Z, X, Y, Z, 1.0, 0, 0, 0, 0, 0, 1e9, R));
    }

    @Test
    void shouldStartASweepOfTouchingSpheresAtZero() {
        SweepResult result = new SweepResult();
        // touching at the start and moving apart: in contact at time 0 only
        assertTrue(SphereSphere.sweep(0, 0, 0, R, 0, 0, 0, X, Y, Z, 0, X, Y, Z, result));
        assertEquals(0.0, result.first);
        assertEquals(0.0, result.last);
        // touching and not moving relative to each other: the whole frame
        assertTrue(SphereSphere.sweep(0, 0, 0, R, 1, 2, 3, X, Y, Z, 0, 1, 2, 3, result));
        assertEquals(0.0, result.first);
        assertEquals(1.0, result.last);
    }

    /** Pythagorean quadruples (x, y, z, d), x^2 + y^2 + z^2 = d^2, from four parameters of {@code bits} bits. */
    private static long[] quadruple(SplittableRandom random, int bits) {
        long m = random.nextLong(1L << bits);
        long n = random.nextLong(1L << bits);
        long p = random.nextLong(1L << bits);
        long q = random.nextLong(1L << bits);
        return new long[] {m * m + n * n - p * p - q * q, 2 * (m * q + n * p), 2 * (n * q - m * p),
            m * m + n * n + p * p + q * q};
    }

    @Test
    void shouldNeverMissAnExactTouchAgainstTheExactReference() {
        SplittableRandom random = new SplittableRandom(0x70C4_0001L);
        SweepResult result = new SweepResult();
        int touches = 0;
        for (int i = 0; i < 20_000; i++) {
            long[] q = quadruple(random, 10 + random.nextInt(16));
            if (q[3] == 0) {
                continue;
            }
            double ax = random.nextBoolean() ? 0 : (random.nextLong(1L << 40) - (1L << 39)) * 0.5;
            double ay = random.nextBoolean() ? 0 : random.nextLong(1L << 30);
            double az = random.nextBoolean() ? 0 : -random.nextLong(1L << 30) * 0.25;
            double bx = ax + q[0];
            double by = ay + q[1];
            double bz = az + q[2];
            double ra = random.nextBoolean() ? q[3] : Math.floor(q[3] * random.nextDouble());
            double rb = q[3] - ra;
            BigDecimal sx = e(bx).subtract(e(ax));
            BigDecimal sy = e(by).subtract(e(ay));
            BigDecimal sz = e(bz).subtract(e(az));
            BigDecimal r = e(ra).add(e(rb));
            if (sx.pow(2).add(sy.pow(2)).add(sz.pow(2)).compareTo(r.pow(2)) > 0) {
                continue; // a difference or the radius sum rounded outward: not a touch
            }
            touches++;
            String where = "a (" + ax + ", " + ay + ", " + az + ") ra " + ra + ", b (" + bx + ", " + by + ", " + bz
                    + ") rb " + rb;
            assertTrue(SphereSphere.test(ax, ay, az, ra, bx, by, bz, rb), where);
            assertTrue(SphereSphere.test(bx, by, bz, rb, ax, ay, az, ra), where);
            assertTrue(SphereSphere.sweep(ax, ay, az, ra, 0, 0, 0, bx, by, bz, rb, q[0], q[1], q[2], result), where);
            assertEquals(0.0, result.first, where);
            if (rb == 0) {
                assertEquals(0.0, SegmentSphere.intersect(bx, by, bz, q[0], q[1], q[2], 1.0, ax, ay, az, ra), where);
            }
        }
        assertTrue(touches > 15_000, "touches " + touches);
    }
}
