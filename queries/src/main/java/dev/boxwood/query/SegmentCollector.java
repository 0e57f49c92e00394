package dev.boxwood.query;

import dev.boxwood.geom.Geom;

/**
 * Common base of the reusable segment-cast collectors {@link ClosestHit}, {@link AnyHit} and {@link AllHits}:
 * per candidate object it applies, in this order, the ignored handles, the {@link QueryFilter} and the optional
 * exact {@link SegmentIntersector}, then hands the accepted hit to the subclass.
 *
 * <p>Configuration (filter, exact test, ignored handles) persists across casts; results are cleared by
 * {@link #begin} at the start of every cast (and by {@link #reset()}), unlike {@link AllOverlaps}, whose results
 * accumulate over queries until it is reset. A collector is not thread-safe: use one per
 * thread, and one per running cast (a cast run from inside another's filter or exact test with the outer
 * collector restarts it, and the outer cast then reports the inner one's hits). Collectors allocate nothing per
 * cast.
 *
 * <p>In an index of several parts ({@link #enterPart}: the tiles of a tiled world) handles are numbered per part:
 * the results carry the part, ties between equal fractions are broken by the lower part first, then the lower
 * handle, and the ignored handles apply in every part (the filter and the exact test may read
 * {@link #currentPart()} to tell the parts apart).
 */
public abstract class SegmentCollector implements RayCastVisitor {

    private QueryFilter filter;
    private SegmentIntersector exactTest;
    private int ignoredFirst = Handles.NONE;
    private int ignoredSecond = Handles.NONE;
    private double originX;
    private double originY;
    private double originZ;
    private double translationX;
    private double translationY;
    private double translationZ;
    /** The maximum fraction of the current cast as given to {@link #begin}. */
    protected double maxFraction;
    /** The part whose objects are being visited ({@link #enterPart}); 0 from {@link #begin} on. */
    int currentPart;
    /**
     * The most a box entry fraction of this cast can exceed the segment's exact fraction at the box by the rounding
     * of its start into an index's frame ({@link #frame}); 0 from {@link #begin} on.
     */
    private double frameSlack;

    /** Package-private: the three collectors of this package are the only subclasses. */
    SegmentCollector() {
    }

    /**
     * Sets the predicate candidates must pass ({@code null}: accept all).
     *
     * @param filter the filter or {@code null}
     */
    public final void setFilter(QueryFilter filter) {
        this.filter = filter;
    }

    /**
     * Sets the exact test of user geometry run on each candidate whose box the segment enters ({@code null}: the
     * box itself is the shape, and the box entry fraction is the hit fraction). It stays set for every later cast
     * the collector takes part in, swept queries included, and a sweep hands it only the path of the swept shape's
     * centre ({@link ShapeQueries#sweepBox}): a test written for rays then decides a box or sphere sweep as the
     * centre's ray and misses what only the shape's extent touches. Give sweeps a collector of their own (or set
     * the test to {@code null} first), unless its test allows for the swept shape.
     *
     * @param exactTest the exact test or {@code null}
     */
    public final void setExactTest(SegmentIntersector exactTest) {
        this.exactTest = exactTest;
    }

    /**
     * Sets up to two handles to ignore, typically the caster itself and its target; {@link Handles#NONE} for
     * none.
     *
     * @param first a handle to ignore or {@link Handles#NONE}
     * @param second a handle to ignore or {@link Handles#NONE}
     */
    public final void setIgnored(int first, int second) {
        this.ignoredFirst = first;
        this.ignoredSecond = second;
    }

    /** Clears the results of the last cast; the configuration is kept. */
    public abstract void reset();

    @Override
    public final void begin(double originX, double originY, double originZ,
                            double translationX, double translationY, double translationZ, double maxFraction) {
        this.originX = originX;
        this.originY = originY;
        this.originZ = originZ;
        this.translationX = translationX;
        this.translationY = translationY;
        this.translationZ = translationZ;
        this.maxFraction = maxFraction;
        currentPart = 0;
        frameSlack = 0.0;
        reset();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Keeps the largest error over the frames of the cast: per axis the exact error of moving the start into
     * the frame (Knuth's TwoSum, {@link Geom#sumError}) over the translation's component, which bounds how much
     * later the shifted segment crosses that axis's slab planes.
     */
    @Override
    public final void frame(double frameOriginX, double frameOriginY, double frameOriginZ) {
        if (exactTest == null) {
            // only clips from exact hits are widened: the casts without one pay nothing
            return;
        }
        frameSlack = Math.max(frameSlack, Math.max(axisSlack(originX, frameOriginX, translationX),
                Math.max(axisSlack(originY, frameOriginY, translationY),
                        axisSlack(originZ, frameOriginZ, translationZ))));
    }

    /**
     * The rounding error of {@code start - origin} over {@code |d|}, rounded up: how far the move can shift the
     * crossing of this axis's slab planes along the segment. 0 when the move is exact (or overflows: such a cast
     * reaches nothing within fraction 1, {@link Arguments#requireStartInFrame}), for {@code d == 0}, and for an
     * axis crossed so flatly that the shift exceeds {@link #GRAZING_SLACK} of the segment: only a box whose face
     * on that axis the segment grazes, within the start's rounding along its whole crossing, is entered through it
     * at such an error (the grazing casts the conventions already exempt), and counting it would keep the clip
     * from tightening for every object of the cast.
     */
    private static double axisSlack(double start, double origin, double d) {
        double error = Math.abs(Geom.sumError(start, -origin, start - origin));
        if (!(error > 0.0 && error < Double.POSITIVE_INFINITY) || d == 0.0) {
            return 0.0;
        }
        double slack = Math.nextUp(error / Math.abs(d));
        return slack <= GRAZING_SLACK ? slack : 0.0;
    }

    /** The largest shift of an axis's crossing (a fraction of the segment) the clip is widened for. */
    private static final double GRAZING_SLACK = 0x1p-20;

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if {@code part} is negative
     */
    @Override
    public final void enterPart(int part) {
        currentPart = Arguments.requirePart(part);
    }

    /**
     * @return the part whose objects are being visited: 0 in an index of one part, the tile in a tiled world (for
     *         filters and exact tests that need it)
     */
    public final int currentPart() {
        return currentPart;
    }

    @Override
    public final double visit(int handle, long userValue, double fraction) {
        if (handle == ignoredFirst || handle == ignoredSecond) {
            return -1.0;
        }
        if (filter != null && !filter.accept(handle, userValue)) {
            return -1.0;
        }
        double bound = bound();
        double t = fraction;
        if (exactTest != null) {
            // The cast's own maxFraction, not the current bound: a kernel that clamps its answer to the bound
            // would otherwise report different fractions depending on the visit order.
            t = exactTest.intersect(handle, userValue, originX, originY, originZ,
                    translationX, translationY, translationZ, maxFraction);
            // Negative (NO_HIT), NaN or beyond the bound: not a hit of interest.
            if (!(t >= 0.0 && t <= bound)) {
                return -1.0;
            }
            // -0.0 passes the test above; adding +0.0 reports it as the documented fraction 0 (IEEE 754: -0 + 0 = +0).
            t += 0.0;
        }
        double steer = accept(handle, userValue, t, fraction);
        // A clip from an exact hit must not cut off an object whose exact hit ties with it or comes first while its
        // box fraction comes later: by the slab test's own rounding (a few ulps; at the same origin as the exact
        // test) or by the start's rounding into the index's frame (frameSlack). Without it the answer depended on
        // which of two such objects the index visited first (the tree nearer box first, a scan in storage order).
        if (exactTest != null && steer > 0.0) {
            steer = Geom.addUp(steer + CLIP_ULPS * Math.ulp(steer), frameSlack);
        }
        return steer;
    }

    /** Ulps of a clip's own size a clip from an exact hit is widened by (the slab test rounds twice per bound). */
    private static final int CLIP_ULPS = 4;

    /**
     * The largest fraction still of interest; exact hits beyond it are dropped.
     *
     * @return the bound
     */
    abstract double bound();

    /**
     * Records an accepted hit and returns the steering value of {@link RayCastVisitor#visit}.
     *
     * @param handle the object
     * @param userValue its user value
     * @param fraction the hit fraction, in {@code [0, bound()]}
     * @param boxFraction the entry fraction into the object's stored box the index reported (the hit fraction
     *     itself without an exact test)
     * @return the steering value
     */
    abstract double accept(int handle, long userValue, double fraction, double boxFraction);
}
