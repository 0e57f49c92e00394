package dev.boxwood.testkit;

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
}
