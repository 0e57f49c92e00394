package dev.boxwood.geom2d;

import static dev.boxwood.geom2d.Exact2.big;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom2d.CaseGenerator.Scale;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Randomized differential tests of the 2D kernel against {@link Exact2}, with fixed seeds, at unit scale, far from
 * the origin and on exact grids. A case counts only if the reference finds it farther than {@link #NEAR_ULPS} ulps
 * of the case's largest coordinate from the decision boundary (on grids, kernels whose arithmetic is exact there
 * are checked on every case, touching and degenerate ones included); the kernel must then agree with the reference
 * on every count, and its fractions and points must be close to the exact ones.
 */
class Intersect2DifferentialTest {

    private static final int CASES = 2000;
    private static final double NEAR_ULPS = 16;
    private static final double UNIT_ROUNDOFF = 0x1p-53;
    /** Precision of reference values that are compared with a tolerance, not decided on. */
    private static final MathContext VALUE = MathContext.DECIMAL128;

    /** One randomized case: returns whether the reference says hit, or null if it skips the case. */
    private interface Case {
        Boolean run(CaseGenerator g, double near);
    }

    private static void check(String name, Scale scale, long seed, boolean exactOnGrid, Case body) {
        CaseGenerator g = new CaseGenerator(seed * 31 + scale.ordinal(), scale);
        int hits = 0;
        int misses = 0;
        int skipped = 0;
        for (int i = 0; i < CASES; i++) {
            g.next();
            double near = g.isGrid() && exactOnGrid ? -1 : NEAR_ULPS * UNIT_ROUNDOFF * g.magnitude();
            Boolean hit = body.run(g, near);
            if (hit == null) {
                skipped++;
            } else if (hit) {
                hits++;
            } else {
                misses++;
            }
        }
        String stats = name + " at " + scale + ": " + hits + " hits, " + misses + " misses, " + skipped + " skipped";
        assertTrue(skipped <= CASES / 20, "too many cases near the boundary: " + stats);
        assertTrue(hits >= CASES / 40 && misses >= CASES / 40, "unbalanced cases: " + stats);
    }

    private static String describe(double... values) {
        return Arrays.toString(values);
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactPointInCircle(Scale scale) {
        check("point in circle", scale, 1, true, (g, near) -> {
            double px = g.x();
            double py = g.y();
            double cx = g.x();
            double cy = g.y();
            double r = g.size() * 1.5;
            BigDecimal dx = big(px).subtract(big(cx));
            BigDecimal dy = big(py).subtract(big(cy));
            BigDecimal d2 = Exact2.dot(dx, dy, dx, dy);
            boolean expected = d2.compareTo(big(r).multiply(big(r))) <= 0;
            if (Math.abs(Math.sqrt(d2.doubleValue()) - r) <= near) {
                return null;
            }
            assertEquals(expected, Intersect2.testPointCircle(px, py, cx, cy, r), describe(px, py, cx, cy, r));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactPointInRect(Scale scale) {
        check("point in rect", scale, 2, true, (g, near) -> {
            double px = g.x();
            double py = g.y();
            double[] r = g.rect();
            boolean expected = Exact2.squaredDistanceToRect(px, py, r[0], r[1], r[2], r[3]).signum() == 0;
            // comparisons only: exact everywhere, no case is skipped
            assertEquals(expected, Intersect2.testPointRect(px, py, r[0], r[1], r[2], r[3]), describe(px, py));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactPointInTriangle(Scale scale) {
        check("point in triangle", scale, 3, true, (g, near) -> {
            double[] t = g.triangle();
            double px = g.x();
            double py = g.y();
            BigDecimal[] tri = Exact2.poly(t);
            boolean expected = Exact2.pointInConvex(px, py, tri);
            if (near >= 0 && Math.abs(Exact2.signedDistance(px, py, tri)) <= near) {
                return null;
            }
            assertEquals(expected, Intersect2.testPointTriangle(px, py, t[0], t[1], t[2], t[3], t[4], t[5]),
                    describe(px, py) + describe(t));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactCircleCircle(Scale scale) {
        check("circle-circle", scale, 4, true, (g, near) -> {
            double[] a = g.circle();
            double[] b = g.circle();
            BigDecimal dx = big(b[0]).subtract(big(a[0]));
            BigDecimal dy = big(b[1]).subtract(big(a[1]));
            BigDecimal d2 = Exact2.dot(dx, dy, dx, dy);
            BigDecimal r = big(a[2]).add(big(b[2]));
            boolean expected = d2.compareTo(r.multiply(r)) <= 0;
            if (Math.abs(Math.sqrt(d2.doubleValue()) - r.doubleValue()) <= near) {
                return null;
            }
            assertEquals(expected, Intersect2.testCircleCircle(a[0], a[1], a[2], b[0], b[1], b[2]),
                    describe(a) + describe(b));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactCircleRect(Scale scale) {
        check("circle-rect", scale, 5, true, (g, near) -> {
            double cx = g.x();
            double cy = g.y();
            double cr = g.size();
            double[] r = g.rect();
            boolean expected = Exact2.squaredDistanceToRect(cx, cy, r[0], r[1], r[2], r[3])
                    .compareTo(big(cr).multiply(big(cr))) <= 0;
            if (near >= 0 && Math.abs(Exact2.signedDistanceToRect(cx, cy, r[0], r[1], r[2], r[3]) - cr) <= near) {
                return null;
            }
            assertEquals(expected, Intersect2.testCircleRect(cx, cy, cr, r[0], r[1], r[2], r[3]),
                    describe(cx, cy, cr) + describe(r));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactCircleTriangle(Scale scale) {
        check("circle-triangle", scale, 6, false, (g, near) -> {
            double cx = g.x();
            double cy = g.y();
            double cr = g.size();
            double[] t = g.triangle();
            BigDecimal[] tri = Exact2.poly(t);
            boolean expected = Exact2.withinRadius(cx, cy, tri, cr);
            if (Math.abs(Exact2.signedDistance(cx, cy, tri) - cr) <= near) {
                return null;
            }
            assertEquals(expected, Intersect2.testCircleTriangle(cx, cy, cr, t[0], t[1], t[2], t[3], t[4], t[5]),
                    describe(cx, cy, cr) + describe(t));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactRectRect(Scale scale) {
        check("rect-rect", scale, 7, true, (g, near) -> {
            double[] a = g.rect();
            double[] b = g.rect();
            boolean expected = Exact2.convexOverlap(Exact2.rect(a[0], a[1], a[2], a[3]),
                    Exact2.rect(b[0], b[1], b[2], b[3]));
            // comparisons only: exact everywhere, no case is skipped
            assertEquals(expected, Intersect2.testRectRect(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]),
                    describe(a) + describe(b));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactTriangleTriangle(Scale scale) {
        check("triangle-triangle", scale, 8, true, (g, near) -> {
            double[] a = g.triangle();
            double[] b = g.triangle();
            BigDecimal[] pa = Exact2.poly(a);
            BigDecimal[] pb = Exact2.poly(b);
            boolean expected = Exact2.convexOverlap(pa, pb);
            if (near >= 0 && Math.abs(Exact2.signedDistance(expected, pa, pb)) <= near) {
                return null;
            }
            assertEquals(expected, Intersect2.testTriangleTriangle(a[0], a[1], a[2], a[3], a[4], a[5],
                    b[0], b[1], b[2], b[3], b[4], b[5]), describe(a) + describe(b));
            return expected;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactSegmentSegment(Scale scale) {
        Hit2 hit = new Hit2();
        check("segment-segment", scale, 9, true, (g, near) -> {
            double ox = g.x();
            double oy = g.y();
            double dx = g.delta();
            double dy = g.delta();
            double m = g.maxFraction();
            double ax = g.x();
            double ay = g.y();
            double bx = g.coin() ? ax : g.x();
            double by = bx == ax && g.coin() ? ay : g.y();
            BigDecimal[] cast = Exact2.cast(ox, oy, dx, dy, m);
            BigDecimal[] target = Exact2.poly(ax, ay, bx, by);
            boolean expected = Exact2.convexOverlap(cast, target);
            if (near >= 0 && Math.abs(Exact2.signedDistance(expected, cast, target)) <= near) {
                return null;
            }
            String what = describe(ox, oy, dx, dy, m, ax, ay, bx, by);
            double t = Intersect2.intersectSegmentSegment(ox, oy, dx, dy, m, ax, ay, bx, by, hit);
            assertEquals(expected, hit.hit, what);
            if (!expected) {
                assertEquals(Geom.NO_HIT, t, what);
                return false;
            }
            assertEquals(t, hit.fraction, what);
            // exact first fraction: the crossing, or the first point of a collinear overlap
            BigDecimal bdx = big(dx);
            BigDecimal bdy = big(dy);
            BigDecimal ex = big(bx).subtract(big(ax));
            BigDecimal ey = big(by).subtract(big(ay));
            BigDecimal wx = big(ax).subtract(big(ox));
            BigDecimal wy = big(ay).subtract(big(oy));
            BigDecimal denominator = Exact2.cross(bdx, bdy, ex, ey);
            BigDecimal len2 = Exact2.dot(bdx, bdy, bdx, bdy);
            double sine = 1;
            BigDecimal exact;
            if (len2.signum() == 0 || m == 0) {
                exact = BigDecimal.ZERO;
            } else if (denominator.signum() != 0) {
                exact = Exact2.cross(wx, wy, ex, ey).divide(denominator, VALUE);
                sine = Math.abs(denominator.doubleValue())
                        / Math.sqrt(len2.doubleValue() * Exact2.dot(ex, ey, ex, ey).doubleValue());
            } else {
                BigDecimal ta = Exact2.dot(wx, wy, bdx, bdy).divide(len2, VALUE);
                BigDecimal tb = Exact2.dot(big(bx).subtract(big(ox)), big(by).subtract(big(oy)), bdx, bdy)
                        .divide(len2, VALUE);
                exact = ta.min(tb).max(BigDecimal.ZERO);
            }
            double length = Math.sqrt(len2.doubleValue());
            double pointTolerance = NEAR_ULPS * UNIT_ROUNDOFF * g.magnitude() / sine;
            assertEquals(exact.doubleValue(), t, length == 0 ? 0 : pointTolerance / length, what);
            assertEquals(big(ox).add(exact.multiply(bdx)).doubleValue(), hit.x, pointTolerance, what);
            assertEquals(big(oy).add(exact.multiply(bdy)).doubleValue(), hit.y, pointTolerance, what);
            return true;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactSegmentCircle(Scale scale) {
        SegmentHit2 hit = new SegmentHit2();
        check("segment-circle", scale, 10, false, (g, near) -> {
            double ox = g.x();
            double oy = g.y();
            double dx = g.delta();
            double dy = g.delta();
            double m = g.maxFraction();
            double cx = g.x();
            double cy = g.y();
            double r = g.size();
            BigDecimal[] cast = Exact2.cast(ox, oy, dx, dy, m);
            BigDecimal[] gap2 = Exact2.squaredDistanceToConvex(big(cx), big(cy), cast);
            boolean expected = Exact2.withinRadius(cx, cy, cast, r);
            if (Math.abs(Math.sqrt(gap2[0].doubleValue() / gap2[1].doubleValue()) - r) <= near) {
                return null;
            }
            String what = describe(ox, oy, dx, dy, m, cx, cy, r);
            double t = Intersect2.intersectSegmentCircle(ox, oy, dx, dy, m, cx, cy, r, hit);
            assertEquals(expected, hit.hit, what);
            if (!expected) {
                assertEquals(Geom.NO_HIT, t, what);
                return false;
            }
            assertEquals(t, hit.entryFraction, what);
            BigDecimal mx = big(ox).subtract(big(cx));
            BigDecimal my = big(oy).subtract(big(cy));
            BigDecimal a = Exact2.dot(big(dx), big(dy), big(dx), big(dy));
            BigDecimal b = Exact2.dot(mx, my, big(dx), big(dy));
            BigDecimal c = Exact2.dot(mx, my, mx, my).subtract(big(r).multiply(big(r)));
            if (a.signum() == 0 || m == 0) {
                assertEquals(0.0, t, what);
                assertEquals(m, hit.exitFraction, what);
                return true;
            }
            BigDecimal disc = b.multiply(b).subtract(a.multiply(c));
            BigDecimal root = disc.signum() <= 0 ? BigDecimal.ZERO : disc.sqrt(VALUE);
            BigDecimal entry = c.signum() <= 0 ? BigDecimal.ZERO : b.negate().subtract(root).divide(a, VALUE);
            BigDecimal exit = b.negate().add(root).divide(a, VALUE).min(big(m));
            // Rounding moves a root by about u S / |d|, and a grazing one by up to sqrt(u) S / |d| (the half chord
            // h = root / |d| comes from a square root of a difference of squares).
            double length = Math.sqrt(a.doubleValue());
            double h = root.doubleValue() / length;
            double unit = NEAR_ULPS * UNIT_ROUNDOFF * g.magnitude();
            double spread = Math.max(unit, Math.min(unit * g.magnitude() / Math.max(h, Double.MIN_NORMAL),
                    Math.sqrt(unit * g.magnitude())));
            double tolerance = (unit + spread) / length;
            assertEquals(entry.doubleValue(), t, tolerance, what);
            assertEquals(exit.doubleValue(), hit.exitFraction, tolerance, what);
            assertTrue(hit.exitFraction >= hit.entryFraction && hit.exitFraction <= m, what);
            assertEquals(ox + entry.doubleValue() * dx, hit.entryX, unit + spread, what);
            assertEquals(oy + entry.doubleValue() * dy, hit.entryY, unit + spread, what);
            assertEquals(ox + exit.doubleValue() * dx, hit.exitX, unit + spread, what);
            assertEquals(oy + exit.doubleValue() * dy, hit.exitY, unit + spread, what);
            return true;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldAgreeWithExactSegmentRect(Scale scale) {
        SegmentHit2 hit = new SegmentHit2();
        check("segment-rect", scale, 11, true, (g, near) -> {
            double ox = g.x();
            double oy = g.y();
            double dx = g.delta();
            double dy = g.delta();
            double m = g.maxFraction();
            double[] r = g.rect();
            BigDecimal[] cast = Exact2.cast(ox, oy, dx, dy, m);
            BigDecimal[] rect = Exact2.rect(r[0], r[1], r[2], r[3]);
            boolean expected = Exact2.convexOverlap(cast, rect);
            if (near >= 0 && Math.abs(Exact2.signedDistance(expected, cast, rect)) <= near) {
                return null;
            }
            String what = describe(ox, oy, dx, dy, m) + describe(r);
            double t = Intersect2.intersectSegmentRect(ox, oy, dx, dy, m, r[0], r[1], r[2], r[3], hit);
            assertEquals(expected, hit.hit, what);
            if (!expected) {
                assertEquals(Geom.NO_HIT, t, what);
                return false;
            }
            // exact slabs
            BigDecimal entry = BigDecimal.ZERO;
            BigDecimal exit = big(m);
            for (int axis = 0; axis < 2; axis++) {
                double d = axis == 0 ? dx : dy;
                if (d == 0) {
                    continue;
                }
                double o = axis == 0 ? ox : oy;
                BigDecimal t0 = big(r[axis]).subtract(big(o)).divide(big(d), VALUE);
                BigDecimal t1 = big(r[axis + 2]).subtract(big(o)).divide(big(d), VALUE);
                entry = entry.max(t0.min(t1));
                exit = exit.min(t0.max(t1));
            }
            double unit = NEAR_ULPS * UNIT_ROUNDOFF * g.magnitude();
            double tolerance = NEAR_ULPS * UNIT_ROUNDOFF * (Math.abs(exit.doubleValue()) + m) + 1e-300;
            assertEquals(entry.doubleValue(), t, tolerance, what);
            assertEquals(t, hit.entryFraction, what);
            assertEquals(exit.doubleValue(), hit.exitFraction, tolerance, what);
            assertTrue(hit.exitFraction >= hit.entryFraction && hit.exitFraction <= m, what);
            assertEquals(ox + entry.doubleValue() * dx, hit.entryX, unit, what);
            assertEquals(oy + entry.doubleValue() * dy, hit.entryY, unit, what);
            assertEquals(ox + exit.doubleValue() * dx, hit.exitX, unit, what);
            assertEquals(oy + exit.doubleValue() * dy, hit.exitY, unit, what);
            if (t == 0 && entry.signum() == 0) {
                assertEquals(ox, hit.entryX, what);
                assertEquals(oy, hit.entryY, what);
            }
            return true;
        });
    }

    @ParameterizedTest
    @EnumSource(Scale.class)
    void shouldMatchExactClosestPoints(Scale scale) {
        Vector2 q = new Vector2();
        check("closest points", scale, 12, false, (g, near) -> {
            double px = g.x();
            double py = g.y();
            double tolerance = NEAR_ULPS * UNIT_ROUNDOFF * g.magnitude();
            double[] t = g.triangle();
            // segment a-b of the triangle
            BigDecimal[] s = Exact2.closestOnConvex(big(px), big(py), Exact2.poly(t[0], t[1], t[2], t[3]));
            double d2 = Closest2.closestPointSegment(px, py, t[0], t[1], t[2], t[3], q);
            assertClose(s, q, d2, px, py, tolerance, describe(px, py) + describe(t));
            // triangle
            BigDecimal[] tri = Exact2.poly(t);
            BigDecimal[] e = Exact2.closestOnConvex(big(px), big(py), tri);
            d2 = Closest2.closestPointTriangle(px, py, t[0], t[1], t[2], t[3], t[4], t[5], q);
            assertClose(e, q, d2, px, py, tolerance, describe(px, py) + describe(t));
            // rectangle: clamping is exact
            double[] r = g.rect();
            e = Exact2.closestOnConvex(big(px), big(py), Exact2.rect(r[0], r[1], r[2], r[3]));
            d2 = Closest2.closestPointRect(px, py, r[0], r[1], r[2], r[3], q);
            assertClose(e, q, d2, px, py, tolerance, describe(px, py) + describe(r));
            // circle
            double cx = g.x();
            double cy = g.y();
            double cr = g.size();
            BigDecimal mx = big(px).subtract(big(cx));
            BigDecimal my = big(py).subtract(big(cy));
            BigDecimal dist = Exact2.sqrt(Exact2.dot(mx, my, mx, my));
            boolean inside = dist.compareTo(big(cr)) <= 0;
            e = inside ? new BigDecimal[] {big(px), big(py)} : new BigDecimal[] {
                big(cx).add(mx.multiply(big(cr)).divide(dist, VALUE)),
                big(cy).add(my.multiply(big(cr)).divide(dist, VALUE))};
            d2 = Closest2.closestPointCircle(px, py, cx, cy, cr, q);
            assertClose(e, q, d2, px, py, tolerance, describe(px, py, cx, cy, cr));
            return inside;
        });
    }

    private static void assertClose(BigDecimal[] expected, Vector2 actual, double actualD2, double px, double py,
                                    double tolerance, String what) {
        assertEquals(expected[0].doubleValue(), actual.x, tolerance, what);
        assertEquals(expected[1].doubleValue(), actual.y, tolerance, what);
        double d = Math.sqrt(Exact2.distanceSquared(expected, big(px), big(py)).doubleValue());
        assertEquals(d, Math.sqrt(actualD2), 2 * tolerance, what);
        if (Double.isNaN(actual.x) || Double.isNaN(actual.y) || Double.isNaN(actualD2)) {
            fail("NaN for " + what);
        }
    }
}
