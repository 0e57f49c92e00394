package dev.boxwood.testkit;

import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An exact reference for the region queries and segment casts of any index, built on {@link ExactGeometry}: the
 * objects of one or more parts (a tree or view: one part; a tiled world: one per tile), each part with its origin
 * and the stored float tight boxes. For each object and query it says whether the index must report it
 * ({@link #MUST}), must not ({@link #MUST_NOT}), or may, within a tolerance the documentation admits ({@link #MAY}).
 * Objects are keyed {@code part << 32 | handle}.
 */
public final class ExactOracle {

    /** The index must report the object. */
    public static final int MUST = 2;
    /** The index may report the object (within a documented tolerance). */
    public static final int MAY = 1;
    /** The index must not report the object. */
    public static final int MUST_NOT = 0;

    /**
     * Relative band on squared distances within which a sphere decision may go either way: {@code SphereAabb.test},
     * on the box for crossing and on its farthest corner for window mode, takes sums within their rounding of r^2
     * again in compensated arithmetic, good to about 1e-29 of r^2.
     */
    public static final double SPHERE_BAND = 1e-28;
    /** Relative miss of the robust slab test (Geom.ROBUST_FAR_SCALE is 1 + 2 gamma(5), about 1.1e-15). */
    public static final double SLAB_BAND = 1e-14;

    /** One object. */
    public static final class Entry {
        /** Part. */
        public final int part;
        /** Handle within the part. */
        public final int handle;
        /** Stored box, frame of its part. */
        public final double[] box;
        /** Categories. */
        public final long categories;
        /** User value. */
        public final long userValue;

        Entry(int part, int handle, double[] box, long categories, long userValue) {
            this.part = part;
            this.handle = handle;
            this.box = box;
            this.categories = categories;
            this.userValue = userValue;
        }

        /** @return part << 32 | handle */
        public long key() {
            return (long) part << 32 | (handle & 0xFFFFFFFFL);
        }
    }

    private final List<double[]> origins = new ArrayList<>();
    private final List<Entry> entries = new ArrayList<>();

    /**
     * Adds a part.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @return the part's index
     */
    public int addPart(double ox, double oy, double oz) {
        origins.add(new double[] {ox, oy, oz});
        return origins.size() - 1;
    }

    /**
     * Adds an object of a part with its stored float box.
     *
     * @param part the part
     * @param handle its handle in the part
     * @param stored six floats, frame of the part
     * @param categories category bits
     * @param userValue user value
     */
    public void add(int part, int handle, float[] stored, long categories, long userValue) {
        double[] b = new double[6];
        for (int k = 0; k < 6; k++) {
            b[k] = stored[k];
        }
        entries.add(new Entry(part, handle, b, categories, userValue));
    }

    /** @return the objects */
    public List<Entry> entries() {
        return entries;
    }

    /** @return the origin of a part */
    public double[] origin(int part) {
        return origins.get(part);
    }

    private double[] frame(int part, double x, double y, double z) {
        double[] o = origins.get(part);
        return new double[] {x - o[0], y - o[1], z - o[2]};
    }

    /**
     * Box query (crossing or window), exact.
     *
     * @param e the object
     * @param q the world box
     * @param window whether the mode is WINDOW
     * @return MUST or MUST_NOT
     */
    public int box(Entry e, double[] q, boolean window) {
        double[] lo = frame(e.part, q[0], q[1], q[2]);
        double[] hi = frame(e.part, q[3], q[4], q[5]);
        double[] f = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
        boolean in = window ? ExactGeometry.boxContains(f, e.box) : ExactGeometry.boxOverlaps(f, e.box);
        return in ? MUST : MUST_NOT;
    }

    /**
     * Sphere query, exact up to {@link #SPHERE_BAND} (relative, on squared distances).
     *
     * @param e the object
     * @param cx centre x (world)
     * @param cy centre y
     * @param cz centre z
     * @param r radius
     * @param window whether the mode is WINDOW
     * @param band the relative band admitted
     * @return MUST, MAY or MUST_NOT
     */
    public int sphere(Entry e, double cx, double cy, double cz, double r, boolean window, double band) {
        double[] c = frame(e.part, cx, cy, cz);
        BigDecimal d2 = window ? ExactGeometry.squaredFarthest(c, e.box) : ExactGeometry.squaredDistance(c, e.box);
        double excess = ExactGeometry.relativeExcess(d2, r);
        if (excess <= 0) {
            return window && excess > -band ? MAY : MUST;
        }
        return excess <= band ? MAY : MUST_NOT;
    }

    /**
     * Convex region query: the box against the region's (normalized) planes, each moved exactly into the part's
     * frame. MUST when every corner is inside every plane by more than {@code tolerance} (or, for the crossing
     * modes, the box's centre is); MUST_NOT when the box is beyond one plane by more than {@code tolerance} (any
     * mode) or, in WINDOW mode, a corner is beyond a plane by more than it. Edge and corner cases between are MAY.
     *
     * @param e the object
     * @param region the region
     * @param mode the mode
     * @param tolerance absolute tolerance on plane distances (unit normals)
     * @return MUST, MAY or MUST_NOT
     */
    public int convex(Entry e, ConvexRegion region, RegionMode mode, double tolerance) {
        double[] planes = region.planes();
        double[] o = origins.get(e.part);
        BigDecimal tol = ExactGeometry.x(tolerance);
        boolean allInside = true;
        boolean centreInside = true;
        double[] centre = {0.5 * (e.box[0] + e.box[3]), 0.5 * (e.box[1] + e.box[4]), 0.5 * (e.box[2] + e.box[5])};
        double[] centreBox = {centre[0], centre[1], centre[2], centre[0], centre[1], centre[2]};
        for (int i = 0; i < region.planeCount(); i++) {
            int at = 4 * i;
            BigDecimal d = ExactGeometry.movedPlaneDistance(planes, at, o[0], o[1], o[2]);
            BigDecimal near = ExactGeometry.planeCorner(planes[at], planes[at + 1], planes[at + 2], d, e.box, true);
            BigDecimal far = ExactGeometry.planeCorner(planes[at], planes[at + 1], planes[at + 2], d, e.box, false);
            BigDecimal mid = ExactGeometry.planeCorner(planes[at], planes[at + 1], planes[at + 2], d, centreBox,
                    true);
            if (near.compareTo(tol) > 0) {
                return MUST_NOT;
            }
            if (mode == RegionMode.WINDOW && far.compareTo(tol) > 0) {
                return MUST_NOT;
            }
            if (far.compareTo(tol.negate()) >= 0) {
                allInside = false;
            }
            if (mid.compareTo(tol.negate()) >= 0) {
                centreInside = false;
            }
        }
        if (allInside || mode != RegionMode.WINDOW && centreInside) {
            return MUST;
        }
        return MAY;
    }

    /**
     * The slack of the oriented-box crossing test ({@code ObbObb.EPSILON}): the kernel lifts every absolute axis
     * component by it and adds it times its scale ({@link ExactGeometry.ObbVerdict#size}) to every margin, so a box
     * apart by up to {@code OBB_EPSILON * (size + sum of the half extents)} on an axis (not normalized: on an edge
     * axis of length {@code sin θ} that is {@code 1 / sin θ} times more in distance) may be reported.
     */
    public static final double OBB_EPSILON = 1e-10;
    /** Relative band (of the kernel's scale) of the rounding of the oriented-box margins and corner distances. */
    public static final double OBB_ROUNDING = 1e-14;

    /**
     * An oriented-box query prepared for every part: the box as each part's index moves it (centre moved into the
     * part's frame in double, axes re-orthonormalized by {@link Obb#copyForQuery}, checked here to be
     * orthonormal and close to the given ones; for the crossing modes the index also grows it by the move's
     * rounding, {@link RegionTests#frameObb}), and the exact verdicts for the solid as given in world coordinates,
     * computed once per object.
     */
    public final class ObbQuery {
        private final double[] given;
        private final List<double[]> frames = new ArrayList<>();
        /** Per part, the given centre minus the part's origin, exactly: the solid as given in world coordinates. */
        private final List<BigDecimal[]> exactCentres = new ArrayList<>();
        /**
         * Per part, the most the frame's rounded centre is off the exact one along any unit axis (the sum of the
         * move's exact errors): the index may grow the box by it for the crossing modes, and its window decision
         * may differ from the exact one within it.
         */
        private final List<Double> shifts = new ArrayList<>();
        private final Map<Long, ExactGeometry.ObbVerdict> verdicts = new HashMap<>();

        ObbQuery(double[] layout, int offset) {
            given = java.util.Arrays.copyOfRange(layout, offset, offset + ObbLayout.STRIDE);
            for (double[] o : origins) {
                double[] f = new double[ObbLayout.STRIDE];
                Obb.copyForQuery(given, 0, o[0], o[1], o[2], f);
                checkCopy(given, o, f);
                frames.add(f);
                exactCentres.add(new BigDecimal[] {ExactGeometry.x(given[0]).subtract(ExactGeometry.x(o[0])),
                    ExactGeometry.x(given[1]).subtract(ExactGeometry.x(o[1])),
                    ExactGeometry.x(given[2]).subtract(ExactGeometry.x(o[2]))});
                shifts.add(RegionTests.frameRadius(given[0], given[1], given[2], o[0], o[1], o[2], 0,
                        RegionMode.CROSSING));
            }
        }

        /** @return the box as the part's index tests it */
        public double[] inFrame(int part) {
            return frames.get(part);
        }

        /** @return the exact verdict for an object */
        public ExactGeometry.ObbVerdict verdict(Entry e) {
            return verdicts.computeIfAbsent(e.key(),
                    k -> ExactGeometry.obb(exactCentres.get(e.part), frames.get(e.part), e.box));
        }

        /**
         * CROSSING (and CROSSING_CONSERVATIVE): MUST if the solid meets the box, MUST_NOT if an axis separates them
         * by more than the documented slack ({@link #OBB_EPSILON}) and rounding, else MAY. WINDOW: MUST if the box
         * is inside by the documented rule (projections on the axes within the half extents) by more than the
         * rounding of the corner distances, MUST_NOT if outside by more or if the crossing verdict is MUST_NOT,
         * else MAY; where nothing rounds ({@link ExactGeometry.ObbVerdict#exactCorners}) flush boxes are MUST.
         *
         * @param e the object
         * @param mode the mode
         * @return MUST, MAY or MUST_NOT
         */
        public int classify(Entry e, RegionMode mode) {
            if (farApart(e)) {
                return MUST_NOT;
            }
            int deep = deepInside(e);
            if (deep == 2 || deep == 1 && mode != RegionMode.WINDOW) {
                return MUST;
            }
            ExactGeometry.ObbVerdict v = verdict(e);
            double shift = shifts.get(e.part);
            int crossing;
            if (v.overlaps) {
                crossing = MUST;
            } else {
                // the index tests the rounded centre (off by at most the shift along any unit axis) with every half
                // extent grown by the shift (up to sqrt 3 times it along a world axis): (1 + sqrt 3) < 3 shifts
                double tol = OBB_EPSILON * (v.size + v.halfSum) + OBB_ROUNDING * v.size + 3 * shift;
                crossing = v.separation.compareTo(ExactGeometry.x(tol)) > 0 ? MUST_NOT : MAY;
            }
            if (mode != RegionMode.WINDOW || crossing == MUST_NOT) {
                return crossing;
            }
            BigDecimal band = (v.exactCorners ? BigDecimal.ZERO : ExactGeometry.x(OBB_ROUNDING * v.size))
                    .add(ExactGeometry.x(shift));
            if (v.insideExcess.compareTo(band.negate()) < 0) {
                return MUST;
            }
            return v.insideExcess.compareTo(band) > 0 ? MUST_NOT : MAY;
        }

        /**
         * A quick acceptance in double, for large worlds: 2 if the box's projection on every axis lies within the
         * half extent by 1e-9 of the scale (estimated; inside, far beyond the rounding of these few operations and
         * of the axes' deviation from orthonormal), 1 if its centre does (they overlap), else 0.
         */
        private int deepInside(Entry e) {
            double[] f = frames.get(e.part);
            double size = f[12] + f[13] + f[14];
            for (int k = 0; k < 3; k++) {
                size += Math.abs(e.box[k] - f[k]) + Math.abs(e.box[k + 3] - f[k]);
            }
            double m = 1e-9 * size + 3 * shifts.get(e.part);
            boolean inside = true;
            for (int i = 0; i < 3; i++) {
                double hi = 0;
                double lo = 0;
                double mid = 0;
                for (int k = 0; k < 3; k++) {
                    double a = f[3 + 3 * i + k];
                    double u = a * (e.box[k] - f[k]);
                    double w = a * (e.box[k + 3] - f[k]);
                    hi += Math.max(u, w);
                    lo += Math.min(u, w);
                    mid += 0.5 * (u + w);
                }
                if (Math.abs(mid) > f[12 + i] - m) {
                    return 0;
                }
                inside &= hi <= f[12 + i] - m && -lo <= f[12 + i] - m;
            }
            return inside ? 2 : 1;
        }

        /**
         * A quick exclusion in double, for large worlds: the box beyond the enclosing box of the oriented one on a
         * coordinate axis by 1e-9 of the kernel's scale (estimated), ten times its slack, and far more than the
         * rounding of these few operations.
         */
        private boolean farApart(Entry e) {
            double[] f = frames.get(e.part);
            double size = f[12] + f[13] + f[14];
            double[] gaps = new double[3];
            double[] scales = new double[3];
            for (int k = 0; k < 3; k++) {
                double ext = f[12] * Math.abs(f[3 + k]) + f[13] * Math.abs(f[6 + k]) + f[14] * Math.abs(f[9 + k]);
                double lo = e.box[k] - f[k];
                double hi = e.box[k + 3] - f[k];
                size += Math.max(Math.abs(lo), Math.abs(hi)) + 0.5 * (hi - lo);
                gaps[k] = Math.max(lo - ext, -hi - ext);
                scales[k] = ext + Math.abs(lo) + Math.abs(hi);
            }
            for (int k = 0; k < 3; k++) {
                if (gaps[k] - 1e-14 * scales[k] > 1e-9 * size + 3 * shifts.get(e.part)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * What the queries take the given layout to: the centre minus the origin (exact double subtraction), axes
     * orthonormal to rounding and within a few times the given deviation of the given axes.
     */
    private static void checkCopy(double[] given, double[] origin, double[] f) {
        for (int k = 0; k < 3; k++) {
            if (Double.compare(f[k], given[k] - origin[k]) != 0) {
                throw new AssertionError("copyForQuery centre " + k + ": " + f[k] + " for " + given[k] + " - "
                        + origin[k]);
            }
            if (Double.compare(f[12 + k], given[12 + k]) != 0) {
                throw new AssertionError("copyForQuery changed half extent " + k);
            }
        }
        double deviation = 0;
        double used = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = i; j < 3; j++) {
                BigDecimal g = BigDecimal.ZERO;
                BigDecimal u = BigDecimal.ZERO;
                for (int k = 0; k < 3; k++) {
                    g = g.add(ExactGeometry.x(given[3 + 3 * i + k]).multiply(ExactGeometry.x(given[3 + 3 * j + k])));
                    u = u.add(ExactGeometry.x(f[3 + 3 * i + k]).multiply(ExactGeometry.x(f[3 + 3 * j + k])));
                }
                BigDecimal d = i == j ? BigDecimal.ONE : BigDecimal.ZERO;
                deviation = Math.max(deviation, g.subtract(d).abs().doubleValue());
                used = Math.max(used, u.subtract(d).abs().doubleValue());
            }
        }
        if (used > 1e-15) {
            throw new AssertionError("copyForQuery axes off orthonormal by " + used);
        }
        for (int i = 0; i < 9; i++) {
            if (Math.abs(f[3 + i] - given[3 + i]) > 4 * deviation + 1e-15) {
                throw new AssertionError("copyForQuery moved axis component " + i + " from " + given[3 + i] + " to "
                        + f[3 + i] + " (given axes off orthonormal by " + deviation + ")");
            }
        }
    }

    /**
     * Prepares an oriented-box query for every part.
     *
     * @param layout the box in {@link ObbLayout} (world coordinates), as passed to the index
     * @param offset where it starts
     * @return the prepared query
     */
    public ObbQuery obb(double[] layout, int offset) {
        return new ObbQuery(layout, offset);
    }

    /**
     * Segment against an object, exactly, in the part's frame.
     *
     * @param e the object
     * @param ox origin x (world)
     * @param oy origin y
     * @param oz origin z
     * @param d translation
     * @param maxFraction maximum fraction
     * @return the exact result
     */
    public ExactGeometry.SegmentResult segment(Entry e, double ox, double oy, double oz, double[] d,
                                               double maxFraction) {
        return ExactGeometry.segment(frame(e.part, ox, oy, oz), d, maxFraction, e.box);
    }
}
