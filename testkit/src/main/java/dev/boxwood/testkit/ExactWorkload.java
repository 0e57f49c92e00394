package dev.boxwood.testkit;

import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SegmentCollector;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.SingleHitCollector;
import dev.boxwood.query.TraversalStack;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Seeded region queries and casts that stress the boundary cases (shapes touching stored boxes on faces, edges and
 * corners, zero-size shapes, segments in face planes and starting on faces, maximum fractions at a contact,
 * frustums), each checked against an {@link ExactOracle} by {@link ExactChecks}. Queries are built in the frame of
 * part 0 on a grid of step {@code grid} and moved to the world by its origin; pick an origin for which
 * {@code origin + k * grid} is exact (any double whose ulp divides the grid step) so that touches are exact in
 * both.
 */
public final class ExactWorkload {

    /** What the workload queries: the region queries and casts of one index. */
    public interface Target {
        /** Box overlap query. */
        void queryAabb(double[] q, long mask, AllOverlaps out);

        /** Sphere query. */
        void querySphere(double x, double y, double z, double r, RegionMode mode, long mask, QueryFilter filter,
                         AllOverlaps out);

        /** Box region query. */
        void queryBox(double[] q, RegionMode mode, long mask, QueryFilter filter, AllOverlaps out);

        /** Convex region query. */
        void queryConvex(ConvexRegion region, RegionMode mode, long mask, QueryFilter filter, AllOverlaps out);

        /** Segment cast. */
        void rayCast(double[] o, double[] d, double maxF, long mask, RayCastVisitor visitor);

        /** Oriented-box query on a layout at an offset (the targets of {@link #obbRound}). */
        default void queryObb(double[] obb, int offset, RegionMode mode, long mask, QueryFilter filter,
                              AllOverlaps out) {
            throw new UnsupportedOperationException("no oriented-box query");
        }
    }

    /**
     * A target over any {@link ShapeQueries} (a tree, a read view, a mapped world).
     *
     * @param index the index
     * @param stack scratch
     * @return the target
     */
    public static Target of(ShapeQueries index, TraversalStack stack) {
        return new Target() {
            @Override
            public void queryAabb(double[] q, long mask, AllOverlaps out) {
                index.queryAabb(q[0], q[1], q[2], q[3], q[4], q[5], mask, out, stack);
            }

            @Override
            public void querySphere(double x, double y, double z, double r, RegionMode mode, long mask,
                                    QueryFilter filter, AllOverlaps out) {
                index.querySphere(x, y, z, r, mode, mask, filter, out, stack);
            }

            @Override
            public void queryBox(double[] q, RegionMode mode, long mask, QueryFilter filter, AllOverlaps out) {
                index.queryBox(q[0], q[1], q[2], q[3], q[4], q[5], mode, mask, filter, out, stack);
            }

            @Override
            public void queryConvex(ConvexRegion region, RegionMode mode, long mask, QueryFilter filter,
                                    AllOverlaps out) {
                index.queryConvex(region, mode, mask, filter, out, stack);
            }

            @Override
            public void rayCast(double[] o, double[] d, double maxF, long mask, RayCastVisitor visitor) {
                index.rayCast(o[0], o[1], o[2], d[0], d[1], d[2], maxF, mask, visitor, stack);
            }

            @Override
            public void queryObb(double[] obb, int offset, RegionMode mode, long mask, QueryFilter filter,
                                 AllOverlaps out) {
                index.queryObb(obb, offset, mode, mask, filter, out, stack);
            }
        };
    }

    private static final RegionMode[] MODES = RegionMode.values();
    private static final int[][] PYTHAGOREAN = {{3, 4, 0, 5}, {0, 3, 4, 5}, {2, 3, 6, 7}, {1, 4, 8, 9},
        {4, 4, 7, 9}, {2, 6, 9, 11}, {0, 0, 1, 1}, {1, 0, 0, 1}};

    private final double[] origin;
    private final double grid;
    private final SplittableRandom random;
    private final ExactChecks checks;
    private final AllOverlaps found = new AllOverlaps();
    private final ClosestHit closest = new ClosestHit();
    private final AnyHit any = new AnyHit();
    private final AllHits all = new AllHits();

    /**
     * @param origin the world origin of the queries' grid (part 0's origin)
     * @param grid the grid step in the frame
     * @param random the random source
     * @param checks where results are counted
     */
    public ExactWorkload(double[] origin, double grid, SplittableRandom random, ExactChecks checks) {
        this.origin = origin.clone();
        this.grid = grid;
        this.random = random;
        this.checks = checks;
    }

    private double world(int axis, double frame) {
        return origin[axis] + frame;
    }

    /** A frame coordinate near a stored box of the oracle, on the grid. */
    private double[] anchor(ExactOracle oracle) {
        List<ExactOracle.Entry> es = oracle.entries();
        double[] p = new double[3];
        if (es.isEmpty() || random.nextInt(8) == 0) {
            for (int k = 0; k < 3; k++) {
                p[k] = grid * random.nextInt(-64, 64);
            }
            return p;
        }
        ExactOracle.Entry e = es.get(random.nextInt(es.size()));
        double[] po = oracle.origin(e.part);
        for (int k = 0; k < 3; k++) {
            // a corner, a face or an edge point of the box, in part 0's frame
            int pick = random.nextInt(3);
            double f = pick == 0 ? e.box[k] : pick == 1 ? e.box[k + 3] : 0.5 * (e.box[k] + e.box[k + 3]);
            p[k] = (po[k] + f) - origin[k];
        }
        return p;
    }

    private long mask() {
        int r = random.nextInt(4);
        return r == 0 ? 1L << random.nextInt(4) : r == 1 ? 0x5L : -1L;
    }

    private QueryFilter filter(int[] modulus) {
        if (random.nextInt(3) != 0) {
            modulus[0] = 0;
            return null;
        }
        int m = 2 + random.nextInt(5);
        modulus[0] = m;
        return (handle, userValue) -> handle % m != 1;
    }

    private static Predicate<ExactOracle.Entry> eligible(long mask, int modulus, int ignoredA, int ignoredB) {
        return e -> (e.categories & mask) != 0 && (modulus == 0 || e.handle % modulus != 1)
                && e.handle != ignoredA && e.handle != ignoredB;
    }

    /**
     * Runs one query of each region kind and one cast of each collector, checked exactly.
     *
     * @param target the index
     * @param oracle its objects
     * @param label names the index in messages
     */
    public void round(Target target, ExactOracle oracle, String label) {
        int[] mod = new int[1];
        // box overlap and box region queries
        {
            double[] a = anchor(oracle);
            double[] q = new double[6];
            for (int k = 0; k < 3; k++) {
                double ext = random.nextInt(4) == 0 ? 0 : grid * random.nextInt(0, 24);
                double lo = a[k] - (random.nextBoolean() ? 0 : ext);
                q[k] = world(k, lo);
                q[k + 3] = world(k, lo + ext);
            }
            long mask = mask();
            found.reset();
            target.queryAabb(q, mask, found);
            checks.overlaps(label + " queryAabb " + java.util.Arrays.toString(q), oracle, found,
                    eligible(mask, 0, -1, -1), e -> oracle.box(e, q, false));
            RegionMode mode = MODES[random.nextInt(MODES.length)];
            QueryFilter filter = filter(mod);
            found.reset();
            target.queryBox(q, mode, mask, filter, found);
            checks.overlaps(label + " queryBox " + mode + " " + java.util.Arrays.toString(q), oracle, found,
                    eligible(mask, mod[0], -1, -1), e -> oracle.box(e, q, mode == RegionMode.WINDOW));
        }
        // sphere: touching a face, an edge or a corner by Pythagorean offsets, zero radius, random
        {
            double[] a = anchor(oracle);
            double r;
            int[] t = PYTHAGOREAN[random.nextInt(PYTHAGOREAN.length)];
            int s = 1 + random.nextInt(4);
            double[] c = new double[3];
            switch (random.nextInt(4)) {
                case 0 -> {
                    for (int k = 0; k < 3; k++) {
                        c[k] = a[k] + (random.nextBoolean() ? 1 : -1) * t[k] * s * grid;
                    }
                    r = t[3] * s * grid;
                }
                case 1 -> {
                    c = a;
                    r = 0;
                }
                case 2 -> {
                    c = a;
                    r = grid * random.nextInt(1, 40);
                }
                default -> {
                    for (int k = 0; k < 3; k++) {
                        c[k] = a[k] + random.nextDouble(-3, 3);
                    }
                    r = random.nextDouble(0, 20 * grid);
                }
            }
            double cx = world(0, c[0]);
            double cy = world(1, c[1]);
            double cz = world(2, c[2]);
            RegionMode mode = MODES[random.nextInt(MODES.length)];
            long mask = mask();
            QueryFilter filter = filter(mod);
            found.reset();
            target.querySphere(cx, cy, cz, r, mode, mask, filter, found);
            final double rr = r;
            checks.overlaps(label + " querySphere " + mode + " (" + cx + ", " + cy + ", " + cz + ") r " + r, oracle,
                    found, eligible(mask, mod[0], -1, -1),
                    e -> oracle.sphere(e, cx, cy, cz, rr, mode == RegionMode.WINDOW, ExactOracle.SPHERE_BAND));
        }
        // frustum of a camera near the world, or a marquee inside it
        {
            double[] a = anchor(oracle);
            double[] p = new double[3];
            for (int k = 0; k < 3; k++) {
                p[k] = world(k, a[k] + grid * random.nextInt(-60, 60));
            }
            double tx = world(0, a[0]);
            double ty = world(1, a[1]);
            double tz = world(2, a[2]);
            if (p[0] != tx || p[1] != ty || p[2] != tz) {
                boolean upZ = Math.abs(p[0] - tx) + Math.abs(p[1] - ty) > 1e-9 * Math.abs(p[2] - tz);
                PerspectiveCamera cam = PerspectiveCamera.lookAt(p[0], p[1], p[2], tx, ty, tz,
                        upZ ? 0 : 1, 0, upZ ? 1 : 0, random.nextDouble(0.2, 2.0), random.nextDouble(0.5, 2),
                        grid * random.nextDouble(0.1, 4), grid * random.nextDouble(8, 200));
                ConvexRegion region;
                if (random.nextBoolean()) {
                    region = cam.frustum();
                } else {
                    double u0 = random.nextDouble();
                    double v0 = random.nextDouble();
                    double u1 = random.nextInt(6) == 0 ? u0 : random.nextDouble(u0, 1);
                    double v1 = random.nextInt(6) == 0 ? v0 : random.nextDouble(v0, 1);
                    region = cam.frustum(u0, v0, u1, v1);
                }
                RegionMode mode = MODES[random.nextInt(MODES.length)];
                long mask = mask();
                QueryFilter filter = filter(mod);
                found.reset();
                target.queryConvex(region, mode, mask, filter, found);
                double reach = Math.abs(p[0] - origin[0]) + Math.abs(p[1] - origin[1]) + Math.abs(p[2] - origin[2])
                        + cam.far() * 4;
                double tol = 1e-9 * 4 * reach + 1e-12;
                checks.overlaps(label + " queryConvex " + mode, oracle, found, eligible(mask, mod[0], -1, -1),
                        e -> oracle.convex(e, region, mode, tol));
            }
        }
        // casts
        for (int kind = 0; kind < 3; kind++) {
            double[] a = anchor(oracle);
            double[] d = new double[3];
            int style = random.nextInt(5);
            for (int k = 0; k < 3; k++) {
                d[k] = switch (style) {
                    case 0 -> k == random.nextInt(3) ? grid * random.nextInt(-40, 41) : 0.0;
                    case 1 -> grid * random.nextInt(-3, 4);
                    case 2 -> grid * random.nextInt(-40, 41) * (random.nextBoolean() ? 1 : 0);
                    case 3 -> random.nextDouble(-30, 30) * grid;
                    default -> random.nextInt(3) == 0 ? -0.0 : grid * random.nextInt(-8, 9);
                };
            }
            double[] start = a.clone();
            if (random.nextInt(3) == 0) {
                // start back along the direction, so the end touches the anchor: maxFraction at the contact
                for (int k = 0; k < 3; k++) {
                    start[k] = a[k] - d[k];
                }
            }
            double[] o = {world(0, start[0]), world(1, start[1]), world(2, start[2])};
            double maxF = switch (random.nextInt(4)) {
                case 0 -> 1.0;
                case 1 -> 0.0;
                case 2 -> random.nextInt(1, 5) * 0.5;
                default -> random.nextDouble(0, 2);
            };
            long mask = mask();
            SegmentCollector c = kind == 0 ? closest : kind == 1 ? any : all;
            int ignoredA = random.nextInt(3) == 0 ? random.nextInt(0, 64) : -1;
            int ignoredB = random.nextInt(5) == 0 ? random.nextInt(0, 64) : -1;
            c.setIgnored(ignoredA, ignoredB);
            c.setFilter(filter(mod));
            c.setExactTest(null);
            target.rayCast(o, d, maxF, mask, c);
            String what = label + " cast " + (kind == 0 ? "closest" : kind == 1 ? "any" : "all") + " o "
                    + java.util.Arrays.toString(o) + " d " + java.util.Arrays.toString(d) + " maxF " + maxF
                    + " mask " + mask + " ignored " + ignoredA + "," + ignoredB + " filter mod " + mod[0];
            Predicate<ExactOracle.Entry> el = eligible(mask, mod[0], ignoredA, ignoredB);
            if (kind == 2) {
                checks.allHits(what, oracle, all, o, d, maxF, el);
            } else {
                checks.singleHit(what, oracle, (SingleHitCollector) c, kind == 0, o, d, maxF, el);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ oriented boxes

    /** Pythagorean triples (p, q, r): rotations by cos p / r, sin q / r (not exact in binary, near-exact contacts). */
    private static final int[][] TRIPLES = {{3, 4, 5}, {5, 12, 13}, {8, 15, 17}, {7, 24, 25}, {20, 21, 29}};
    /** Small rotation angles: nearly axis-aligned boxes, edge axes of length sin θ. */
    private static final double[] TINY_ANGLES = {1e-2, 1e-3, 1e-5, 1e-7, 1e-9, 1e-11, 1e-13, 1e-15, 0x1p-20,
        0x1p-40, 0x1p-60};
    /** Exponents of the gaps (relative to the scale) of the constructed contacts, both signs. */
    private static final int[] GAP_EXPONENTS = {6, 12, 20, 26, 30, 31, 32, 33, 34, 35, 36, 40, 46, 52};

    /** Counts of the oriented-box query styles run (placement), for reports. */
    public final long[] obbStyles = new long[6];
    /** The largest separation, relative to the kernel's scale, of an object reported though the exact test misses. */
    public double obbWorstFalseOverlap;
    /** The edge-axis angle of {@link #obbWorstFalseOverlap}'s object (NaN if on another axis). */
    public String obbWorstFalseOverlapWhat = "";

    /** A signed permutation of the identity as rows of {@code m}. */
    private void signedPermutation(double[][] m) {
        int p = random.nextInt(6);
        int[][] perms = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (int i = 0; i < 3; i++) {
            m[i] = new double[3];
            m[i][perms[p][i]] = random.nextBoolean() ? 1.0 : -1.0;
        }
        // keep it a rotation or a reflection alike: the kernels take any orthonormal frame
    }

    private static double[][] multiply(double[][] a, double[][] b) {
        double[][] c = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
            }
        }
        return c;
    }

    /** Rotation by angle (cos c, sin s) about coordinate axis k, rows the rotated axes. */
    private static double[][] about(int k, double c, double s) {
        double[][] m = new double[3][3];
        int u = (k + 1) % 3;
        int v = (k + 2) % 3;
        m[k][k] = 1;
        m[u][u] = c;
        m[u][v] = s;
        m[v][u] = -s;
        m[v][v] = c;
        return m;
    }

    /** The rotation of a quaternion (need not be unit), rows the rotated axes. */
    private static double[][] quaternion(double w, double x, double y, double z) {
        double n = w * w + x * x + y * y + z * z;
        return new double[][] {
            {(w * w + x * x - y * y - z * z) / n, 2 * (x * y + w * z) / n, 2 * (x * z - w * y) / n},
            {2 * (x * y - w * z) / n, (w * w - x * x + y * y - z * z) / n, 2 * (y * z + w * x) / n},
            {2 * (x * z + w * y) / n, 2 * (y * z - w * x) / n, (w * w - x * x - y * y + z * z) / n}};
    }

    /** Axes of an oriented box: exact, Pythagorean, integer quaternion, tiny rotation or random; a name. */
    private double[][] axes(StringBuilder what) {
        double[][] p = new double[3][];
        signedPermutation(p);
        int style = random.nextInt(6);
        double[][] m;
        switch (style) {
            case 0 -> {
                what.append("axes signed permutation");
                m = p;
            }
            case 1 -> {
                int[] t = TRIPLES[random.nextInt(TRIPLES.length)];
                int k = random.nextInt(3);
                what.append("axes pythagorean ").append(t[0]).append('/').append(t[2]).append(" about ").append(k);
                m = multiply(about(k, (double) t[0] / t[2], (double) t[1] / t[2]), p);
            }
            case 2 -> {
                int w;
                int x;
                int y;
                int z;
                do {
                    w = random.nextInt(-3, 4);
                    x = random.nextInt(-3, 4);
                    y = random.nextInt(-3, 4);
                    z = random.nextInt(-3, 4);
                } while (w == 0 && x == 0 && y == 0 && z == 0);
                what.append("axes quaternion ").append(w).append(',').append(x).append(',').append(y).append(',')
                        .append(z);
                m = quaternion(w, x, y, z);
            }
            case 3, 4 -> {
                double theta = TINY_ANGLES[random.nextInt(TINY_ANGLES.length)];
                what.append("axes tiny rotation ").append(theta);
                if (random.nextBoolean()) {
                    int k = random.nextInt(3);
                    what.append(" about ").append(k);
                    m = multiply(about(k, Math.cos(theta), Math.sin(theta)), p);
                } else {
                    double ax = random.nextDouble(-1, 1);
                    double ay = random.nextDouble(-1, 1);
                    double az = random.nextDouble(-1, 1);
                    double len = Math.sqrt(ax * ax + ay * ay + az * az);
                    double s = Math.sin(theta / 2) / len;
                    what.append(" about a random axis");
                    m = multiply(quaternion(Math.cos(theta / 2), ax * s, ay * s, az * s), p);
                }
            }
            default -> {
                what.append("axes random");
                m = quaternion(random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1),
                        random.nextDouble(-1, 1));
            }
        }
        if (random.nextInt(6) == 0) {
            // off orthonormal within the accepted tolerance: the index re-orthonormalizes
            double noise = Math.pow(10, -random.nextDouble(6.3, 10));
            what.append(" noise ").append(noise);
            for (int i = 0; i < 3; i++) {
                for (int k = 0; k < 3; k++) {
                    m[i][k] += random.nextDouble(-noise, noise);
                }
            }
        }
        return m;
    }

    private double halfExtent() {
        if (random.nextInt(16) == 0) {
            // far larger than the world: a face far from the centre placed against a stored box
            return Math.scalb(grid, random.nextInt(16, 40)) * (random.nextBoolean() ? 1 : 1 + random.nextDouble());
        }
        return switch (random.nextInt(5)) {
            case 0 -> 0.0;
            case 1, 2 -> grid * random.nextInt(1, 24) / 2;
            case 3 -> random.nextDouble(0, 12) * grid;
            default -> grid * random.nextInt(1, 400);
        };
    }

    /** A stored box of the oracle in part 0's frame (rounded as {@link #anchor} does). */
    private double[] boxInFrame(ExactOracle.Entry e, ExactOracle oracle) {
        double[] po = oracle.origin(e.part);
        double[] b = new double[6];
        for (int k = 0; k < 6; k++) {
            b[k] = (po[k % 3] + e.box[k]) - origin[k % 3];
        }
        return b;
    }

    private static double dot(double[] u, double[] v) {
        return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    }

    private double gap(double scale) {
        int pick = random.nextInt(GAP_EXPONENTS.length + 2);
        if (pick >= GAP_EXPONENTS.length) {
            return 0.0;
        }
        return (random.nextBoolean() ? 1 : -1) * Math.scalb(scale, -GAP_EXPONENTS[pick]);
    }

    /**
     * One oriented box, built in part 0's frame near the oracle's objects, asked of the target in every mode with
     * a random mask and filter, and checked against the exact verdicts ({@link ExactOracle.ObbQuery}). Placements:
     * centred on an anchor (a corner, face or edge point of a stored box); a feature of the box (face, edge or
     * corner, on one of the 15 axes) against a stored box's at a gap from {@code ±2^-6} to {@code ±2^-52} of the
     * scale or 0; a box around a stored box with a face at such a gap from its farthest corner (window mode's
     * boundary); the stored box itself as an axis-aligned box (exact face contacts), grown or shrunk by grid steps;
     * random.
     *
     * @param target the index
     * @param oracle its objects
     * @param label names the index in messages
     */
    public void obbRound(Target target, ExactOracle oracle, String label) {
        StringBuilder what = new StringBuilder();
        double[][] a = axes(what);
        double[] h = {halfExtent(), halfExtent(), halfExtent()};
        if (random.nextInt(8) == 0) {
            h[0] = 0;
            h[1] = 0;
            h[2] = 0;
        }
        double[] c;
        List<ExactOracle.Entry> es = oracle.entries();
        int placement = es.isEmpty() ? 0 : random.nextInt(6);
        obbStyles[placement]++;
        if (placement == 0 || placement == 5) {
            c = anchor(oracle);
            what.append(placement == 0 ? ", at an anchor" : ", near an anchor");
            if (placement == 5) {
                for (int k = 0; k < 3; k++) {
                    c[k] += random.nextDouble(-4, 4) * grid;
                }
            }
        } else {
            double[] b = boxInFrame(es.get(random.nextInt(es.size())), oracle);
            double[] bc = {0.5 * b[0] + 0.5 * b[3], 0.5 * b[1] + 0.5 * b[4], 0.5 * b[2] + 0.5 * b[5]};
            double[] bh = {0.5 * b[3] - 0.5 * b[0], 0.5 * b[4] - 0.5 * b[1], 0.5 * b[5] - 0.5 * b[2]};
            double scale = h[0] + h[1] + h[2] + bh[0] + bh[1] + bh[2];
            if (scale == 0) {
                scale = grid;
            }
            if (placement == 1 || placement == 2) {
                // a feature of each box on an axis (box face, oriented face, edge pair), at a gap
                int n = random.nextInt(15);
                double[] axis;
                if (n < 3) {
                    axis = new double[3];
                    axis[n] = 1;
                } else if (n < 6) {
                    axis = a[n - 3].clone();
                } else {
                    double[] ai = a[(n - 6) / 3];
                    int k = (n - 6) % 3;
                    double[] e = new double[3];
                    e[k] = 1;
                    axis = new double[] {ai[1] * e[2] - ai[2] * e[1], ai[2] * e[0] - ai[0] * e[2],
                        ai[0] * e[1] - ai[1] * e[0]};
                }
                double len = Math.sqrt(dot(axis, axis));
                if (len < 1e-300) {
                    axis = new double[] {0, 0, 1};
                    len = 1;
                }
                double sign = random.nextBoolean() ? 1 : -1;
                double[] d = {sign * axis[0] / len, sign * axis[1] / len, sign * axis[2] / len};
                double delta = gap(scale);
                what.append(", feature contact on ").append(ExactGeometry.OBB_AXES[n]).append(" gap ").append(delta);
                double[] m = new double[3];
                for (int k = 0; k < 3; k++) {
                    if (Math.abs(d[k]) < 1e-12) {
                        m[k] = placement == 1 ? bc[k] : random.nextDouble(b[k], Math.nextUp(b[k + 3]));
                    } else {
                        m[k] = d[k] > 0 ? b[k + 3] : b[k];
                    }
                }
                c = new double[3];
                for (int k = 0; k < 3; k++) {
                    c[k] = m[k] + d[k] * delta;
                }
                for (int i = 0; i < 3; i++) {
                    double p = dot(a[i], d);
                    double sgm = Math.abs(p) < 1e-12 ? (placement == 1 ? 0 : random.nextDouble(-1, 1))
                            : p > 0 ? -1 : 1;
                    for (int k = 0; k < 3; k++) {
                        c[k] -= sgm * h[i] * a[i][k];
                    }
                }
            } else if (placement == 3) {
                // around the stored box, one face at a gap from its farthest corner on that axis
                int i = random.nextInt(3);
                double sign = random.nextBoolean() ? 1 : -1;
                double[] rb = new double[3];
                for (int j = 0; j < 3; j++) {
                    rb[j] = Math.abs(a[j][0]) * bh[0] + Math.abs(a[j][1]) * bh[1] + Math.abs(a[j][2]) * bh[2];
                    double grow = switch (random.nextInt(4)) {
                        case 0 -> 0;
                        case 1 -> Math.scalb(rb[j], -30);
                        case 2 -> grid;
                        default -> random.nextDouble(0, 4) * grid;
                    };
                    h[j] = rb[j] + grow;
                }
                h[i] = rb[i] + (random.nextBoolean() ? 0 : grid * random.nextInt(0, 8));
                double delta = gap(scale);
                what.append(", around a box, face ").append(i).append(" gap ").append(delta);
                c = new double[3];
                for (int k = 0; k < 3; k++) {
                    c[k] = bc[k] + sign * a[i][k] * (rb[i] + delta - h[i]);
                }
            } else {
                // the stored box itself, axis-aligned, grown or shrunk by grid steps on some axes
                double[][] p = new double[3][];
                signedPermutation(p);
                a = p;
                what.setLength(0);
                what.append("axes signed permutation, the stored box");
                c = bc.clone();
                for (int i = 0; i < 3; i++) {
                    int k = a[i][0] != 0 ? 0 : a[i][1] != 0 ? 1 : 2;
                    int steps = random.nextInt(3) == 0 ? random.nextInt(-2, 3) : 0;
                    h[i] = Math.max(0, bh[k] + steps * grid);
                }
            }
        }
        double[] layout = new double[ObbLayout.STRIDE];
        for (int k = 0; k < 3; k++) {
            layout[k] = world(k, c[k]);
            layout[ObbLayout.HALF_EXTENTS + k] = h[k];
            for (int i = 0; i < 3; i++) {
                layout[ObbLayout.AXES + 3 * i + k] = a[i][k];
            }
        }
        try {
            Obb.validate("obb", layout, 0);
        } catch (IllegalArgumentException rejected) {
            return; // a rotation the noise pushed past the tolerance
        }
        if (random.nextInt(4) == 0) {
            // the value form's box: axes re-orthonormalized once by the constructor, again by the query
            Obb.read(layout, 0).writeTo(layout, 0);
            what.append(", as an Obb");
        }
        int offset = random.nextInt(3) == 0 ? random.nextInt(1, 7) : 0;
        double[] passed = new double[offset + ObbLayout.STRIDE + random.nextInt(3)];
        java.util.Arrays.fill(passed, Double.NaN);
        System.arraycopy(layout, 0, passed, offset, ObbLayout.STRIDE);
        ExactOracle.ObbQuery q = oracle.obb(passed, offset);
        String desc = what + " layout " + java.util.Arrays.toString(layout);
        int[] mod = new int[1];
        for (RegionMode mode : MODES) {
            long mask = random.nextInt(3) == 0 ? mask() : -1L;
            QueryFilter filter = random.nextInt(3) == 0 ? filter(mod) : null;
            if (filter == null) {
                mod[0] = 0;
            }
            found.reset();
            target.queryObb(passed, offset, mode, mask, filter, found);
            String w = label + " queryObb " + mode + " " + desc;
            checks.overlaps(w, oracle, found, eligible(mask, mod[0], -1, -1), e -> q.classify(e, mode));
            java.util.Set<Long> got = ExactChecks.keys(found);
            for (ExactOracle.Entry e : es) {
                if (got.contains(e.key()) && q.classify(e, RegionMode.CROSSING) == ExactOracle.MAY) {
                    ExactGeometry.ObbVerdict v = q.verdict(e);
                    if (v.size > 0) {
                        double rel = v.separation.doubleValue() / v.size;
                        if (rel > obbWorstFalseOverlap) {
                            obbWorstFalseOverlap = rel;
                            obbWorstFalseOverlapWhat = w + ", object " + java.util.Arrays.toString(e.box)
                                    + " on axis " + ExactGeometry.OBB_AXES[v.axis];
                        }
                    }
                }
            }
        }
    }

    /**
     * A random box around the frame's centre, in the frame: mostly on the grid (faces that touch one another and
     * the queries exactly, zero extents on some or all axes), some off it, some large, and some {@code far} grid
     * cells out.
     *
     * @param r the random source
     * @param grid the grid step
     * @param far how many grid cells out the far boxes lie, per step of their placement
     * @return {@code {minX, minY, minZ, maxX, maxY, maxZ}}
     */
    public static double[] frameBox(SplittableRandom r, double grid, int far) {
        double[] b = new double[6];
        int kind = r.nextInt(10);
        for (int k = 0; k < 3; k++) {
            double lo;
            double ext;
            if (kind < 6) {
                lo = grid * r.nextInt(-64, 64);
                ext = kind == 0 ? 0 : kind == 1 && k == r.nextInt(3) ? 0 : grid * r.nextInt(0, 8);
            } else if (kind < 8) {
                lo = r.nextDouble(-64, 64) * grid;
                ext = r.nextDouble(0, 6) * grid;
            } else if (kind == 8) {
                lo = grid * r.nextInt(-64, 64) * far;
                ext = grid * r.nextInt(0, 4) * far;
            } else {
                lo = grid * r.nextInt(-16, 16);
                ext = grid * r.nextInt(20, 80);
            }
            b[k] = lo;
            b[k + 3] = lo + ext;
        }
        return b;
    }

    /**
     * A box of a lattice of cells {@code 4 * grid} wide that touch one another (faces, edges and corners meeting
     * exactly), some of them flat or points.
     *
     * @param r the random source
     * @param grid the grid step
     * @return {@code {minX, minY, minZ, maxX, maxY, maxZ}}
     */
    public static double[] latticeBox(SplittableRandom r, double grid) {
        double[] b = new double[6];
        int kind = r.nextInt(4);
        for (int k = 0; k < 3; k++) {
            double lo = 4 * grid * r.nextInt(-6, 6);
            b[k] = lo;
            b[k + 3] = kind == 0 || kind == 1 && k == 2 ? lo : lo + 4 * grid;
        }
        return b;
    }
}
