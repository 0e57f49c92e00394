package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The exact-test kernels for user geometry ({@link SegmentSphere}, {@link SegmentTriangle}, {@link SegmentCapsule})
 * against references written here without kernel code: BigDecimal roots and plane crossings, and for the capsule a
 * search on its convex distance function. Cases the rounding may decide either way (within a relative 1e-9 of a
 * tangency, an edge, or an end of the segment) are skipped by margin, and counted so that the tests cannot pass by
 * skipping everything.
 */
class SegmentShapesTest {

    private static final MathContext MC = new MathContext(40);

    private static BigDecimal b(double v) {
        return new BigDecimal(v);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // sphere

    @Test
    void shouldEnterSpheresWhereTheExactRootLies() {
        SplittableRandom random = new SplittableRandom(0x5E6);
        int checked = 0;
        int hits = 0;
        for (int i = 0; i < 50_000; i++) {
            double scale = i % 3 == 0 ? 1 : i % 3 == 1 ? 1e-3 : 1e4;
            double base = i % 5 == 0 ? 1e6 : 0; // far from the origin: differences first
            double[] o = point(random, base, 4 * scale);
            double[] d = point(random, 0, 8 * scale);
            double[] c = point(random, base, 2 * scale);
            double r = random.nextDouble(0, 2 * scale);
            double maxFraction = random.nextDouble(0.2, 1.5);
            if (i % 2 == 0) {
                aim(random, o, c, d, scale); // toward the centre, give or take the radius
            }
            double t = SegmentSphere.intersect(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction, c[0], c[1], c[2], r);
            double[] ref = sphereReference(o, d, maxFraction, c, r);
            if (ref == null) {
                continue; // within rounding of a decision
            }
            checked++;
            String what = Arrays.toString(o) + " " + Arrays.toString(d) + " " + maxFraction + " " + Arrays.toString(c)
                    + " " + r;
            if (ref[0] < 0) {
                assertEquals(Geom.NO_HIT, t, what);
            } else {
                hits++;
                assertEquals(ref[0], t, 1e-9 * Math.max(1, ref[0]), what);
            }
        }
        assertTrue(checked > 45_000 && hits > 5_000 && hits < checked - 5_000, checked + " checked, " + hits + " hits");
    }

    /** {entry} or {-1} for a miss, or null when the case lies within rounding of a decision. */
    private static double[] sphereReference(double[] o, double[] d, double maxFraction, double[] c, double r) {
        BigDecimal[] m = new BigDecimal[3];
        BigDecimal a = BigDecimal.ZERO;
        BigDecimal h = BigDecimal.ZERO;
        BigDecimal mm = BigDecimal.ZERO;
        for (int k = 0; k < 3; k++) {
            m[k] = b(o[k]).subtract(b(c[k]));
            a = a.add(b(d[k]).multiply(b(d[k])));
            h = h.add(m[k].multiply(b(d[k])));
            mm = mm.add(m[k].multiply(m[k]));
        }
        BigDecimal rr = b(r).multiply(b(r));
        BigDecimal cc = mm.subtract(rr);
        if (near(mm, rr)) {
            return null;
        }
        if (cc.signum() <= 0) {
            return new double[] {0};
        }
        BigDecimal disc = h.multiply(h).subtract(a.multiply(cc));
        if (near(h.multiply(h), a.multiply(cc)) || a.signum() == 0) {
            return a.signum() == 0 ? new double[] {-1} : null;
        }
        if (disc.signum() < 0 || h.signum() >= 0) {
            return new double[] {-1};
        }
        double t = h.negate().subtract(disc.sqrt(MC)).divide(a, MC).doubleValue();
        if (Math.abs(t - maxFraction) < 1e-9 * Math.max(1, maxFraction)) {
            return null;
        }
        return new double[] {t <= maxFraction ? t : -1};
    }

    @Test
    void shouldHandleTheSphereEdgeCases() {
        // start inside, on the surface, a point sphere on the path, zero-length segments, moving away, tangent
        assertEquals(0.0, SegmentSphere.intersect(0.5, 0, 0, 10, 0, 0, 1, 0, 0, 0, 1));
        assertEquals(0.0, SegmentSphere.intersect(1, 0, 0, 10, 0, 0, 1, 0, 0, 0, 1));
        assertEquals(0.5, SegmentSphere.intersect(-5, 0, 0, 10, 0, 0, 1, 0, 0, 0, 0));
        assertEquals(0.0, SegmentSphere.intersect(0.5, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1));
        assertEquals(Geom.NO_HIT, SegmentSphere.intersect(3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1));
        assertEquals(Geom.NO_HIT, SegmentSphere.intersect(-5, 0, 0, -10, 0, 0, 1, 0, 0, 0, 1));
        assertEquals(0.5, SegmentSphere.intersect(-5, 1, 0, 10, 0, 0, 1, 0, 0, 0, 1));
        assertEquals(Geom.NO_HIT, SegmentSphere.intersect(-5, 0, 0, 10, 0, 0, 0.39, 0, 0, 0, 1));
        assertEquals(0.4, SegmentSphere.intersect(-5, 0, 0, 10, 0, 0, 0.4, 0, 0, 0, 1));
        // the same cast at 2^e, and with the translation alone scaled: fractions scale exactly
        for (int e : new int[] {-700, 600}) {
            double k = Math.scalb(1.0, e);
            assertEquals(0.4, SegmentSphere.intersect(-5 * k, 0, 0, 10 * k, 0, 0, 1, 0, 0, 0, k));
            assertEquals(Math.scalb(0.4, -e), SegmentSphere.intersect(-5, 0, 0, 10 * k, 0, 0, 1 / k, 0, 0, 0, 1));
        }
    }

    @Test
    void shouldKeepASmallSphereFarAwayAMissAtEveryScale() {
        // a sphere of radius 2^-50 passed at 1024 radii: the tangency discriminant multiplies four lengths, one of
        // them far shorter than the others, and must not underflow into a hit at any scale (a shortcut that skipped
        // the scaling for sums of magnitudes down to 2^-250 made it a hit there)
        double r = 0x1p-50;
        SweepResult sweep = new SweepResult();
        for (int e : new int[] {0, -230, -250, -260, -400, 100, 240, 600}) {
            double k = Math.scalb(1.0, e);
            String at = "at 2^" + e;
            assertEquals(Geom.NO_HIT, SegmentSphere.intersect(-k, 0x1p-40 * k, 0, 2 * k, 0, 0, 1, 0, 0, 0, r * k), at);
            assertEquals(Geom.NO_HIT, SegmentCapsule.intersect(-k, 0x1p-40 * k, 0, 2 * k, 0, 0, 1, 0, 0, 0, 0, 0, 0,
                    r * k), at);
            if (e < 500) {
                // (its start test, SphereAabb.test, squares distances unscaled: beyond about 1e154 they overflow, a
                // documented limit of the sphere-box tests)
                assertEquals(Geom.NO_HIT, SweepAabb.intersectMovingSphere(-k, 0x1p-40 * k, 0, r * k, 2 * k, 0, 0, 1, 0,
                        0, 0, 0, 0, 0), at);
            }
            assertTrue(!SphereSphere.sweep(-k, 0x1p-40 * k, 0, r * k, 2 * k, 0, 0, 0, 0, 0, 0, 0, 0, 0, sweep), at);
            // and a hit just inside the tangent stays one
            assertEquals(0.5, SegmentSphere.intersect(-k, 0x1p-51 * k, 0, 2 * k, 0, 0, 1, 0, 0, 0, r * k), 1e-12, at);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // triangle

    @Test
    void shouldCrossTrianglesWhereTheExactPlaneCrossingLies() {
        SplittableRandom random = new SplittableRandom(0x791);
        int checked = 0;
        int hits = 0;
        for (int i = 0; i < 50_000; i++) {
            double scale = i % 3 == 0 ? 1 : i % 3 == 1 ? 1e-4 : 1e5;
            double base = i % 4 == 0 ? -3e6 : 0;
            double[] o = point(random, base, 4 * scale);
            double[] d = point(random, 0, 8 * scale);
            double[] a = point(random, base, 3 * scale);
            double[] bv = point(random, base, 3 * scale);
            double[] c = point(random, base, 3 * scale);
            double maxFraction = random.nextDouble(0.2, 1.5);
            if (i % 2 == 0) {
                // toward a point of the triangle's plane near the triangle
                double u = random.nextDouble(-0.2, 1);
                double v = random.nextDouble(-0.2, 1 - u);
                double[] target = new double[3];
                for (int k = 0; k < 3; k++) {
                    target[k] = a[k] + u * (bv[k] - a[k]) + v * (c[k] - a[k]);
                }
                aim(random, o, target, d, 0);
            }
            double t = SegmentTriangle.intersect(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction, a[0], a[1], a[2],
                    bv[0], bv[1], bv[2], c[0], c[1], c[2]);
            double[] ref = triangleReference(o, d, maxFraction, a, bv, c);
            if (ref == null) {
                continue;
            }
            checked++;
            String what = Arrays.toString(o) + " " + Arrays.toString(d) + " " + maxFraction + " " + Arrays.toString(a)
                    + Arrays.toString(bv) + Arrays.toString(c);
            if (ref[0] < 0) {
                assertEquals(Geom.NO_HIT, t, what);
            } else {
                hits++;
                assertEquals(ref[0], t, 1e-9 * Math.max(1, ref[0]), what);
            }
        }
        assertTrue(checked > 40_000 && hits > 3_000, checked + " checked, " + hits + " hits");
    }

    /** {fraction} or {-1} for a miss, or null within rounding of a decision (an edge, the plane, an end). */
    private static double[] triangleReference(double[] o, double[] d, double maxFraction, double[] a, double[] bv,
                                              double[] c) {
        BigDecimal[] pa = new BigDecimal[3];
        BigDecimal[] ab = new BigDecimal[3];
        BigDecimal[] ac = new BigDecimal[3];
        BigDecimal[] dd = new BigDecimal[3];
        for (int k = 0; k < 3; k++) {
            pa[k] = b(a[k]).subtract(b(o[k]));
            ab[k] = b(bv[k]).subtract(b(a[k]));
            ac[k] = b(c[k]).subtract(b(a[k]));
            dd[k] = b(d[k]);
        }
        BigDecimal[] n = cross(ab, ac);
        BigDecimal nd = dot(n, dd);
        BigDecimal scale = norm(n).multiply(norm(dd), MC);
        if (scale.signum() == 0 || nd.abs().compareTo(scale.multiply(new BigDecimal("1e-6"))) < 0) {
            return null; // nearly parallel: the crossing point is ill-conditioned
        }
        BigDecimal t = dot(n, pa).divide(nd, MC);
        double td = t.doubleValue();
        if (Math.abs(td) < 1e-9 || Math.abs(td - maxFraction) < 1e-9 * Math.max(1, maxFraction)) {
            return null;
        }
        if (td < 0 || td > maxFraction) {
            return new double[] {-1};
        }
        // the crossing point relative to a, and its side of each edge (as seen along the normal)
        BigDecimal[] p = new BigDecimal[3];
        for (int k = 0; k < 3; k++) {
            p[k] = dd[k].multiply(t).subtract(pa[k]);
        }
        BigDecimal[][] edges = {ab, sub(ac, ab), neg(ac)};
        BigDecimal[][] from = {zero(), ab, ac};
        BigDecimal nn = norm(n);
        boolean inside = true;
        for (int e = 0; e < 3; e++) {
            BigDecimal side = dot(n, cross(edges[e], sub(p, from[e])));
            BigDecimal margin = nn.multiply(norm(edges[e]), MC).multiply(norm(sub(p, from[e])).add(norm(ab)), MC);
            if (side.abs().compareTo(margin.multiply(new BigDecimal("1e-9"))) < 0) {
                return null;
            }
            inside &= side.signum() > 0;
        }
        return new double[] {inside ? td : -1};
    }

    @Test
    void shouldNeverLetASegmentThroughAMeshFallBetweenItsTriangles() {
        // a height field over a grid, two triangles per cell; every segment from above the field to below it, over
        // its inside, crosses the surface, so at least one triangle must report it; the segments aim at vertices,
        // edges and diagonals (plus noise at the ulp level), where the neighbours' edge functions decide
        SplittableRandom random = new SplittableRandom(0xD1A6);
        int n = 12;
        double cell = 0.7;
        double[][] height = new double[n + 1][n + 1];
        for (double[] row : height) {
            for (int j = 0; j <= n; j++) {
                row[j] = random.nextDouble(-1, 1);
            }
        }
        int cast = 0;
        for (int s = 0; s < 20_000; s++) {
            // an aim point on the grid's lines or vertices, away from the field's border
            int i = random.nextInt(1, n);
            int j = random.nextInt(1, n);
            double f = switch (s % 4) {
                case 0 -> 0;
                case 1 -> 0.5;
                default -> random.nextDouble();
            };
            double x = (s % 2 == 0 ? i + f : i) * cell;
            double y = (s % 4 == 3 ? j + f : s % 2 == 0 ? j : j + f) * cell;
            if (s % 5 == 0) {
                x = (i + f) * cell; // the cells' diagonals
                y = (j + f) * cell;
            }
            x += random.nextInt(-2, 3) * Math.ulp(x);
            y += random.nextInt(-2, 3) * Math.ulp(y);
            double dx = random.nextDouble(-1, 1);
            double dy = random.nextDouble(-1, 1);
            double ox = x - 3 * dx;
            double oy = y - 3 * dy;
            double oz = 3.0;
            boolean hit = false;
            for (int ci = 0; ci < n && !hit; ci++) {
                for (int cj = 0; cj < n && !hit; cj++) {
                    double x0 = ci * cell;
                    double y0 = cj * cell;
                    double x1 = (ci + 1) * cell;
                    double y1 = (cj + 1) * cell;
                    hit = SegmentTriangle.intersect(ox, oy, oz, 6 * dx, 6 * dy, -6, 1, x0, y0, height[ci][cj], x1, y0,
                            height[ci + 1][cj], x1, y1, height[ci + 1][cj + 1]) >= 0
                            || SegmentTriangle.intersect(ox, oy, oz, 6 * dx, 6 * dy, -6, 1, x0, y0, height[ci][cj], x1,
                            y1, height[ci + 1][cj + 1], x0, y1, height[ci][cj + 1]) >= 0;
                }
            }
            double endX = ox + 6 * dx;
            double endY = oy + 6 * dy;
            boolean inside = Math.min(ox, endX) > 0 && Math.max(ox, endX) < n * cell && Math.min(oy, endY) > 0
                    && Math.max(oy, endY) < n * cell;
            if (inside) {
                cast++;
                assertTrue(hit, "segment " + s + " from (" + ox + ", " + oy + ", " + oz + ") by (" + 6 * dx + ", "
                        + 6 * dy + ", -6) fell through the mesh");
            }
        }
        assertTrue(cast > 2_000, cast + " segments over the field");
    }

    @Test
    void shouldHandleTheTriangleEdgeCases() {
        // triangle in the plane z = 0
        double[] t = {0, 0, 0, 4, 0, 0, 0, 4, 0};
        assertEquals(0.5, tri(1, 1, 2, 0, 0, -4, 1, t), "from above");
        assertEquals(0.5, tri(1, 1, -2, 0, 0, 4, 1, t), "from below: two-sided");
        assertEquals(0.0, tri(1, 1, 0, 0, 0, -4, 1, t), "starting on the triangle");
        assertEquals(1.0, tri(1, 1, 2, 0, 0, -2, 1, t), "ending on it");
        assertEquals(0.5, tri(4, 0, 2, 0, 0, -4, 1, t), "through a vertex");
        assertEquals(0.5, tri(2, 2, 2, 0, 0, -4, 1, t), "through the hypotenuse");
        assertEquals(Geom.NO_HIT, tri(2.0001, 2, 2, 0, 0, -4, 1, t), "just outside it");
        assertEquals(Geom.NO_HIT, tri(-1, 1, 0, 10, 0, 0, 1, t), "lying in the plane");
        assertEquals(Geom.NO_HIT, tri(1, 1, 2, 0, 0, -4, 0.49, t), "stopping short");
        assertEquals(0.0, tri(1, 1, 0, 0, 0, 0, 1, t), "a point on it");
        assertEquals(Geom.NO_HIT, tri(1, 1, 1e-9, 0, 0, 0, 1, t), "a point off it");
        assertEquals(Geom.NO_HIT, tri(1, 1, 2, 0, 0, -4, 1, new double[] {0, 0, 0, 1, 1, 0, 2, 2, 0}), "no area");
        // far from the origin and at extreme scales: the same fractions
        double[] far = t.clone();
        for (int k = 0; k < 9; k += 3) {
            far[k] += 1e9;
        }
        assertEquals(0.5, tri(1e9 + 1, 1, 2, 0, 0, -4, 1, far));
        for (int e : new int[] {-800, 700}) {
            double k = Math.scalb(1.0, e);
            double[] s = t.clone();
            for (int v = 0; v < 9; v++) {
                s[v] *= k;
            }
            assertEquals(0.5, tri(k, k, 2 * k, 0, 0, -4 * k, 1, s), "at 2^" + e);
            assertEquals(Math.scalb(0.5, -e), tri(1, 1, 2, 0, 0, -4 * k, 1 / k, t), "translation at 2^" + e);
        }
    }

    @Test
    void shouldNotHitATriangleWithASegmentLyingInItsPlane() {
        // every point and the translation on the plane x + 2y + 2z = 0 exactly: the sheared vertices' rounding made
        // a hit of it (as did one such segment in seven against oblique triangles)
        assertEquals(Geom.NO_HIT, SegmentTriangle.intersect(14, -4, -3, -18, 3, 6, 1, 12, -3, -3, -2, 3, -2, 0, 3, -3));
        SegmentTriangle.Cast cast = new SegmentTriangle.Cast();
        SplittableRandom random = new SplittableRandom(13);
        int parallelHits = 0;
        for (int i = 0; i < 100_000; i++) {
            // the plane x + p y + q z = 0, integer points on it (exact), coordinates up to 2^27
            long limit = 1L << random.nextInt(2, 26);
            long p = random.nextLong(1, 7);
            long q = random.nextLong(1, 7);
            double[][] v = new double[5][];
            for (int k = 0; k < 5; k++) {
                long y = random.nextLong(-limit, limit);
                long z = random.nextLong(-limit, limit);
                v[k] = new double[] {-p * y - q * z, y, z};
            }
            double[] o = v[3];
            double[] d = {v[4][0] - o[0], v[4][1] - o[1], v[4][2] - o[2]};
            if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
                continue; // a point on the plane, which may lie on the triangle
            }
            String what = Arrays.deepToString(v);
            assertEquals(Geom.NO_HIT, SegmentTriangle.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, v[0][0],
                    v[0][1], v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1], v[2][2]), what);
            assertEquals(Geom.NO_HIT, cast.set(o[0], o[1], o[2], d[0], d[1], d[2], 1).intersect(v[0][0], v[0][1],
                    v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1], v[2][2]), what);
            // parallel to the plane one unit off it along x: a miss too
            parallelHits += SegmentTriangle.intersect(o[0] + 1, o[1], o[2], d[0], d[1], d[2], 1, v[0][0], v[0][1],
                    v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1], v[2][2]) >= 0 ? 1 : 0;
        }
        assertEquals(0, parallelHits);
    }

    @Test
    void shouldPutAPointOnAnEdgeSharedByTwoTrianglesOnBoth() {
        // points exactly on the line through 0 with direction (1, 3, 5), between two vertices on it: the edge both
        // triangles share. Each projects the point along its own normal's longest axis and rounds its differences
        // from the vertices there, and both once put it outside
        SplittableRandom random = new SplittableRandom(5);
        int cases = 0;
        for (int i = 0; i < 100_000 && cases < 20_000; i++) {
            double x0 = Math.abs(dyadic(random, random.nextInt(-6, 2)));
            double x1 = dyadic(random, random.nextInt(-8, 3));
            double x2 = dyadic(random, random.nextInt(-8, 3));
            double lo = Math.min(x1, x2);
            double hi = Math.max(x1, x2);
            if (!(lo < x0 && x0 < hi) || !onLine135(x0) || !onLine135(lo) || !onLine135(hi)) {
                continue;
            }
            cases++;
            double[] o = {x0, 3 * x0, 5 * x0};
            double[] a = {x0 + random.nextDouble(-3, 3), 3 * x0 + random.nextDouble(-3, 3),
                5 * x0 + random.nextDouble(-3, 3)};
            double[] b = {x0 + random.nextDouble(-3, 3), 3 * x0 + random.nextDouble(-3, 3),
                5 * x0 + random.nextDouble(-3, 3)};
            String what = Arrays.toString(o) + " " + lo + " " + hi + " " + Arrays.toString(a) + " " + Arrays.toString(b);
            assertEquals(0.0, SegmentTriangle.intersect(o[0], o[1], o[2], 0, 0, 0, 1, lo, 3 * lo, 5 * lo, hi, 3 * hi,
                    5 * hi, a[0], a[1], a[2]), what);
            assertEquals(0.0, SegmentTriangle.intersect(o[0], o[1], o[2], 1, 1, 1, 0, hi, 3 * hi, 5 * hi, lo, 3 * lo,
                    5 * lo, b[0], b[1], b[2]), what + " (maxFraction 0)");
        }
        assertTrue(cases > 10_000, "cases: " + cases);
    }

    /** A random 50-bit multiple of {@code 2^(exponent - 49)}, either sign: 3 and 5 times it are exact. */
    private static double dyadic(SplittableRandom random, int exponent) {
        return Math.scalb((double) random.nextLong(1L << 49, 1L << 50), exponent - 49) * (random.nextBoolean() ? 1 : -1);
    }

    /** Whether (x, 3x, 5x) is exactly on the line with direction (1, 3, 5). */
    private static boolean onLine135(double x) {
        return new BigDecimal(3 * x).compareTo(new BigDecimal(x).multiply(BigDecimal.valueOf(3))) == 0
                && new BigDecimal(5 * x).compareTo(new BigDecimal(x).multiply(BigDecimal.valueOf(5))) == 0;
    }

    @Test
    void shouldFindPointsOnTrianglesAtEveryScale() {
        // a zero-length segment is the point test: dyadic points strictly inside integer triangles lie exactly on
        // them, tilted or not, and must be found (an exact-zero test of the rounded crossing missed most of them)
        SplittableRandom random = new SplittableRandom(0x9017);
        for (int i = 0; i < 20_000; i++) {
            double[] v = new double[9];
            for (int k = 0; k < 9; k++) {
                v[k] = random.nextInt(-8, 9);
            }
            double u = random.nextInt(1, 8) / 16.0;
            double w = random.nextInt(1, 8) / 16.0;
            double[] p = new double[3];
            for (int k = 0; k < 3; k++) {
                p[k] = v[k] + u * (v[3 + k] - v[k]) + w * (v[6 + k] - v[k]);
            }
            double ux = v[3] - v[0];
            double uy = v[4] - v[1];
            double uz = v[5] - v[2];
            double wx = v[6] - v[0];
            double wy = v[7] - v[1];
            double wz = v[8] - v[2];
            double nx = uy * wz - uz * wy;
            double ny = uz * wx - ux * wz;
            double nz = ux * wy - uy * wx;
            if (nx == 0 && ny == 0 && nz == 0) {
                continue; // no area: never hit
            }
            String what = Arrays.toString(v) + " at " + Arrays.toString(p);
            for (int e : new int[] {0, -600, 600}) {
                double k = Math.scalb(1.0, e);
                double[] scaled = v.clone();
                for (int j = 0; j < 9; j++) {
                    scaled[j] *= k;
                }
                assertEquals(0.0, tri(p[0] * k, p[1] * k, p[2] * k, 0, 0, 0, 1, scaled), what + " at 2^" + e);
                assertEquals(0.0, tri(p[0] * k, p[1] * k, p[2] * k, 1, 2, 3, 0, scaled), what + ", maxFraction 0");
            }
            // and a point well off the plane is not on it
            double norm = Math.sqrt(nx * nx + ny * ny + nz * nz);
            assertEquals(Geom.NO_HIT, tri(p[0] + nx / norm * 1e-6, p[1] + ny / norm * 1e-6, p[2] + nz / norm * 1e-6,
                    0, 0, 0, 1, v), what + " lifted off the plane");
        }
        assertEquals(0.0, tri(-0.25, 0.5, 0.75, 0, 0, 0, 1, new double[] {2, -2, 2, -1, 0, 1, -1, 2, 0}));
        // a point far off the plane of a huge triangle (its normal once overflowed on one axis, which made every
        // point lie on the plane)
        double big = Math.scalb(1.0, 600);
        assertEquals(Geom.NO_HIT, tri(-1e300, big / 4, big / 4, 0, 0, 0, 1, new double[] {0, 0, 0, 0, big, 0, 1, 0,
            big}));
        assertEquals(Geom.NO_HIT, tri(-1e300, big / 4, big / 4, 1, 0, 0, 0, new double[] {0, 0, 0, 0, big, 0, 1, 0,
            big}));
    }

    @Test
    void shouldAnswerAPreparedCastAsTheSingleCallDoes() {
        // one segment against many triangles, prepared once: the same fractions, bit for bit, in every frame (each
        // axis longest, either sign), for zero-length segments and at extreme scales
        SplittableRandom random = new SplittableRandom(0xCA57);
        SegmentTriangle.Cast cast = new SegmentTriangle.Cast();
        int hits = 0;
        for (int i = 0; i < 2_000; i++) {
            double k = Math.scalb(1.0, random.nextInt(-600, 600));
            double[] o = point(random, 0, 4 * k);
            double[] d = i % 50 == 0 ? new double[3] : point(random, 0, 8 * k);
            double maxFraction = i % 37 == 0 ? 0 : random.nextDouble(0.2, 1.5);
            cast.set(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction);
            for (int j = 0; j < 20; j++) {
                double[] v = new double[9];
                for (int a = 0; a < 9; a++) {
                    v[a] = random.nextDouble(-3, 3) * k;
                }
                if (j == 0) {
                    System.arraycopy(o, 0, v, 0, 3); // a triangle with the origin as a vertex
                }
                double single = tri(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction, v);
                hits += single >= 0 ? 1 : 0;
                assertEquals(single, cast.intersect(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]),
                        "segment " + i + ", triangle " + j);
            }
        }
        assertTrue(hits > 2_000, hits + " hits");
    }

    private static double tri(double ox, double oy, double oz, double dx, double dy, double dz, double maxFraction,
                              double[] v) {
        return SegmentTriangle.intersect(ox, oy, oz, dx, dy, dz, maxFraction, v[0], v[1], v[2], v[3], v[4], v[5],
                v[6], v[7], v[8]);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // capsule

    @Test
    void shouldEnterCapsulesWhereTheirDistanceFirstReachesTheRadius() {
        SplittableRandom random = new SplittableRandom(0xCA9);
        int checked = 0;
        int hits = 0;
        int cylinderHits = 0;
        for (int i = 0; i < 30_000; i++) {
            double scale = i % 2 == 0 ? 1 : 1e3;
            double base = i % 4 == 0 ? 5e5 : 0;
            double[] o = point(random, base, 4 * scale);
            double[] d = point(random, 0, 8 * scale);
            double[] p = point(random, base, 2 * scale);
            double[] q = i % 10 == 0 ? p.clone() : point(random, base, 2 * scale);
            double r = random.nextDouble(0, scale);
            double maxFraction = random.nextDouble(0.2, 1.5);
            if (i % 2 == 0) {
                double s = random.nextDouble(-0.2, 1.2);
                double[] target = {p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1]), p[2] + s * (q[2] - p[2])};
                aim(random, o, target, d, scale);
            }
            double t = SegmentCapsule.intersect(o[0], o[1], o[2], d[0], d[1], d[2], maxFraction, p[0], p[1], p[2],
                    q[0], q[1], q[2], r);
            double[] ref = capsuleReference(o, d, maxFraction, p, q, r);
            if (ref == null) {
                continue;
            }
            checked++;
            String what = Arrays.toString(o) + " " + Arrays.toString(d) + " " + maxFraction + " " + Arrays.toString(p)
                    + Arrays.toString(q) + " " + r;
            if (ref[0] < 0) {
                assertEquals(Geom.NO_HIT, t, what);
            } else {
                hits++;
                cylinderHits += ref[1] > 0 ? 1 : 0;
                assertEquals(ref[0], t, 1e-7 * Math.max(1, ref[0]), what);
            }
        }
        assertTrue(checked > 25_000 && hits > 3_000 && cylinderHits > 1_000,
                checked + " checked, " + hits + " hits, " + cylinderHits + " on the cylinder");
    }

    /**
     * {entry, 1 if the entry point projects inside the axis} or {-1}, or null near a decision: the distance from the
     * moving point to the axis segment is convex in t, so its minimum is found by ternary search and the first
     * crossing of the radius by bisection before it.
     */
    private static double[] capsuleReference(double[] o, double[] d, double maxFraction, double[] p, double[] q,
                                             double r) {
        double f0 = capsuleGap(o, d, 0, p, q, r);
        double tol = 1e-9 * (r + norm(o, p) + Math.abs(maxFraction) * (Math.abs(d[0]) + Math.abs(d[1])
                + Math.abs(d[2])));
        if (Math.abs(f0) < tol) {
            return null;
        }
        if (f0 < 0) {
            return new double[] {0, 0};
        }
        double lo = 0;
        double hi = maxFraction;
        for (int k = 0; k < 200; k++) {
            double m1 = lo + (hi - lo) / 3;
            double m2 = hi - (hi - lo) / 3;
            if (capsuleGap(o, d, m1, p, q, r) <= capsuleGap(o, d, m2, p, q, r)) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        double tMin = 0.5 * (lo + hi);
        double fMin = capsuleGap(o, d, tMin, p, q, r);
        if (Math.abs(fMin) < tol) {
            return null;
        }
        if (fMin > 0) {
            return new double[] {-1, 0};
        }
        double a = 0;
        double bb = tMin;
        for (int k = 0; k < 200; k++) {
            double mid = 0.5 * (a + bb);
            if (capsuleGap(o, d, mid, p, q, r) > 0) {
                a = mid;
            } else {
                bb = mid;
            }
        }
        double t = 0.5 * (a + bb);
        double s = axisParameter(o, d, t, p, q);
        return new double[] {t, s > 1e-6 && s < 1 - 1e-6 ? 1 : 0};
    }

    private static double capsuleGap(double[] o, double[] d, double t, double[] p, double[] q, double r) {
        double s = Math.min(Math.max(axisParameter(o, d, t, p, q), 0), 1);
        double sum = 0;
        for (int k = 0; k < 3; k++) {
            double x = o[k] + t * d[k] - (p[k] + s * (q[k] - p[k]));
            sum += x * x;
        }
        return Math.sqrt(sum) - r;
    }

    private static double axisParameter(double[] o, double[] d, double t, double[] p, double[] q) {
        double num = 0;
        double den = 0;
        for (int k = 0; k < 3; k++) {
            double e = q[k] - p[k];
            num += (o[k] + t * d[k] - p[k]) * e;
            den += e * e;
        }
        return den == 0 ? 0 : num / den;
    }

    @Test
    void shouldHandleTheCapsuleEdgeCases() {
        // axis from (0, 0, 0) to (10, 0, 0), radius 1
        assertEquals(0.0, cap(5, 0.5, 0, 0, 10, 0, 1, 1), "starting inside");
        assertEquals(0.0, cap(5, 1, 0, 0, 10, 0, 1, 1), "starting on the surface");
        assertEquals(0.2, cap(5, -5, 0, 0, 20, 0, 1, 1), 1e-15, "through the side");
        assertEquals(0.2, cap(-5, 0, 0, 20, 0, 0, 1, 1), 1e-15, "along the axis, into the end sphere");
        assertEquals(0.2, cap(15, 0, 0, -20, 0, 0, 1, 1), 1e-15, "into the other end");
        assertEquals(0.5, cap(5, 1, -5, 0, 0, 10, 1, 1), 1e-15, "grazing the side");
        assertEquals(Geom.NO_HIT, cap(5, 1.0001, -5, 0, 0, 10, 1, 1), "passing by");
        assertEquals(Geom.NO_HIT, cap(5, -5, 0, 0, -20, 0, 1, 1), "moving away");
        assertEquals(Geom.NO_HIT, cap(5, -5, 0, 0, 20, 0, 0.19, 1), "stopping short");
        assertEquals(Geom.NO_HIT, cap(5, 3, 0, 0, 0, 0, 1, 1), "a point outside");
        // a zero-length axis is a sphere, a zero radius the axis segment
        assertEquals(SegmentSphere.intersect(-5, 0.3, 0.2, 10, 0, 0, 1, 2, 0, 0, 1),
                SegmentCapsule.intersect(-5, 0.3, 0.2, 10, 0, 0, 1, 2, 0, 0, 2, 0, 0, 1));
        assertEquals(0.5, SegmentCapsule.intersect(5, -5, 0, 0, 20, 0, 1, 0, 0, 0, 10, 0, 0, 0) * 2, 1e-15);
        // far from the origin and at extreme scales
        assertEquals(0.2, SegmentCapsule.intersect(1e9 + 5, -5, 0, 0, 20, 0, 1, 1e9, 0, 0, 1e9 + 10, 0, 0, 1), 1e-9);
        for (int e : new int[] {-700, 600}) {
            double k = Math.scalb(1.0, e);
            assertEquals(cap(5, -5, 0, 0, 20, 0, 1, 1), SegmentCapsule.intersect(5 * k, -5 * k, 0, 0, 20 * k, 0, 1,
                    0, 0, 0, 10 * k, 0, 0, k), "at 2^" + e);
            assertEquals(Math.scalb(cap(5, -5, 0, 0, 20, 0, 1, 1), -e), SegmentCapsule.intersect(5, -5, 0, 0, 20 * k,
                    0, 1 / k, 0, 0, 0, 10, 0, 0, 1), "translation at 2^" + e);
        }
    }

    @Test
    void shouldStartInsideEitherEndSphereAlike() {
        // starts inside the end spheres, beyond the axis's ends, crossing the axis: 0 whichever end is p (the
        // clamped closest point of the q end once rounded away from what the sphere's entry saw, a miss)
        SplittableRandom random = new SplittableRandom(0xCA95);
        for (int i = 0; i < 50_000; i++) {
            double[] p = point(random, 0, 2);
            double[] q = point(random, 0, 2);
            double r = random.nextDouble(0.1, 1);
            double[] dir = point(random, 0, 1);
            double len = Math.sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            double f = random.nextDouble(0, 0.999);
            double[] end = i % 2 == 0 ? q : p;
            double[] o = {end[0] + dir[0] / len * r * f, end[1] + dir[1] / len * r * f, end[2] + dir[2] / len * r * f};
            double[] d = point(random, 0, 2);
            String what = Arrays.toString(o) + " " + Arrays.toString(p) + " " + Arrays.toString(q) + " " + r;
            assertEquals(0.0, SegmentCapsule.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, p[0], p[1], p[2], q[0],
                    q[1], q[2], r), what);
            assertEquals(0.0, SegmentCapsule.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, q[0], q[1], q[2], p[0],
                    p[1], p[2], r), what + " (ends swapped)");
        }
        assertEquals(0.0, SegmentCapsule.intersect(0.7093321294530878, 0.6456020253704678, 0, 0, -1.2912040507409357,
                0, 1, -1.872239269785467, 0, 0, -0.040108023120291714, 0, 0, 0.9891726428948895));
    }

    @Test
    void shouldEnterACapsuleFromAStartJustOutsideItsSideInEitherHalf() {
        // 3 ulps outside the side at axis parameter 0.633, heading across the axis: the side's entry once measured
        // the start from p, where the start test measured it from the nearer end q; it read as inside there (a miss)
        assertTrue(SegmentCapsule.intersect(0x1.22f3333333331p4, 0x1.9e99999999997p4, 0, 2.4, -1.8, 0, 1.0,
                0, 0, 0, 30, 40, 0, 1.0) >= 0);
        // starts within a few ulps of the side anywhere along axes up to 6e6 long, straight at the axis: they enter
        // at once (a start counted inside enters at 0)
        SplittableRandom random = new SplittableRandom(0xCA96);
        for (int i = 0; i < 50_000; i++) {
            double length = i % 2 == 0 ? random.nextDouble(0.5, 50) : random.nextDouble(1e3, 6e6);
            double[] p = point(random, 0, 10);
            double[] axis = point(random, 0, 1);
            double norm = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            double[] q = {p[0] + axis[0] / norm * length, p[1] + axis[1] / norm * length,
                p[2] + axis[2] / norm * length};
            // a unit vector across the axis
            double[] across = {axis[1], -axis[0], 0};
            double acrossNorm = Math.hypot(across[0], across[1]);
            double r = random.nextDouble(0.1, 2);
            double s = random.nextDouble(0.02, 0.98);
            double out = r * (1 + random.nextDouble(-8, 8) * 0x1p-52);
            double[] o = new double[3];
            double[] d = new double[3];
            for (int a = 0; a < 3; a++) {
                double unit = across[a] / acrossNorm;
                o[a] = p[a] + s * (q[a] - p[a]) + unit * out;
                d[a] = -3 * r * unit;
            }
            String what = Arrays.toString(o) + " " + Arrays.toString(p) + " " + Arrays.toString(q) + " " + r;
            double t = SegmentCapsule.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, p[0], p[1], p[2], q[0], q[1],
                    q[2], r);
            assertTrue(t >= 0 && t < 1e-6, what + ": " + t);
            t = SegmentCapsule.intersect(o[0], o[1], o[2], d[0], d[1], d[2], 1, q[0], q[1], q[2], p[0], p[1], p[2], r);
            assertTrue(t >= 0 && t < 1e-6, what + " (ends swapped): " + t);
        }
    }

    private static double cap(double ox, double oy, double oz, double dx, double dy, double dz, double maxFraction,
                              double r) {
        return SegmentCapsule.intersect(ox, oy, oz, dx, dy, dz, maxFraction, 0, 0, 0, 10, 0, 0, r);
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** Points {@code d} from {@code o} past {@code target} (0.5 to 2 times the way), off by up to {@code miss}. */
    private static void aim(SplittableRandom random, double[] o, double[] target, double[] d, double miss) {
        double k = random.nextDouble(0.5, 2);
        for (int a = 0; a < 3; a++) {
            d[a] = k * (target[a] - o[a]) + random.nextDouble(-miss, miss + Double.MIN_VALUE);
        }
    }

    private static double[] point(SplittableRandom random, double base, double reach) {
        return new double[] {base + random.nextDouble(-reach, reach), base + random.nextDouble(-reach, reach),
            base + random.nextDouble(-reach, reach)};
    }

    private static double norm(double[] a, double[] b) {
        double x = a[0] - b[0];
        double y = a[1] - b[1];
        double z = a[2] - b[2];
        return Math.sqrt(x * x + y * y + z * z);
    }

    /** Whether two non-negative quantities are within a relative 1e-9 of each other. */
    private static boolean near(BigDecimal x, BigDecimal y) {
        BigDecimal scale = x.abs().add(y.abs());
        return x.subtract(y).abs().compareTo(scale.multiply(new BigDecimal("1e-9"))) <= 0 && scale.signum() != 0;
    }

    private static BigDecimal[] cross(BigDecimal[] u, BigDecimal[] v) {
        return new BigDecimal[] {u[1].multiply(v[2]).subtract(u[2].multiply(v[1])),
            u[2].multiply(v[0]).subtract(u[0].multiply(v[2])), u[0].multiply(v[1]).subtract(u[1].multiply(v[0]))};
    }

    private static BigDecimal dot(BigDecimal[] u, BigDecimal[] v) {
        return u[0].multiply(v[0]).add(u[1].multiply(v[1])).add(u[2].multiply(v[2]));
    }

    private static BigDecimal norm(BigDecimal[] u) {
        return dot(u, u).sqrt(MC);
    }

    private static BigDecimal[] sub(BigDecimal[] u, BigDecimal[] v) {
        return new BigDecimal[] {u[0].subtract(v[0]), u[1].subtract(v[1]), u[2].subtract(v[2])};
    }

    private static BigDecimal[] neg(BigDecimal[] u) {
        return new BigDecimal[] {u[0].negate(), u[1].negate(), u[2].negate()};
    }

    private static BigDecimal[] zero() {
        return new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
    }
}
