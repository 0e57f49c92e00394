package dev.boxwood.testkit;

import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.RegionMode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

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
     * Relative band on squared distances within which a sphere decision may go either way: the kernel accepts a
     * plain sum that rounds to at most r^2, documented as up to about 2e-15 of r^2.
     */
    public static final double SPHERE_BAND = 2e-15;
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
