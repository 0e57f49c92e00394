package dev.boxwood.testkit;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SweepAabb;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.Handles;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.query.SweepTests;
import dev.boxwood.query.TraversalStack;

import java.util.Arrays;

/**
 * The reference index: answers every query by scanning all objects. It is the oracle of the differential tests,
 * so it is written to be obviously right rather than fast.
 *
 * <p>It follows exactly the storage and handle rules every index shares: handles come from the same
 * {@link Handles} allocator (so the same sequence of adds and removes yields the same handles), tight boxes are
 * stored as floats relative to the same kind of origin, rounded outward ({@link OutwardFloat}), and segment
 * fractions come from the same kernel call ({@link SegmentAabb#intersectInverse} against the cast's initial
 * {@code maxFraction}). An index with the same origin therefore has to report the very same handles and bit-equal
 * fractions. Objects are scanned in slot order. Move displacements are validated and otherwise ignored (there are
 * no fat boxes). The {@link TraversalStack} is accepted and unused apart from counting one leaf visit per live
 * object tested. Every query refuses the arguments the indexes refuse (a non-finite coordinate, an inverted box,
 * a negative or too large radius, a negative {@code k} or {@code maxDistance}, an unbounded region in
 * {@code CROSSING} mode, null arguments) with {@link IllegalArgumentException} before its visitor is begun, so a
 * differential test of bad input compares refusals rather than an answer with an exception.
 */
public final class BruteForceIndex implements SpatialIndex {

    private static final int BOX = 6;

    private final double originX;
    private final double originY;
    private final double originZ;
    private final Handles handles = new Handles(16);
    private float[] tight = new float[16 * BOX];
    private long[] userValues = new long[16];
    private long[] categoryBits = new long[16];

    /** An index with origin (0, 0, 0). */
    public BruteForceIndex() {
        this(0, 0, 0);
    }

    /**
     * An index storing boxes relative to the given origin (use the same origin as the index under test).
     *
     * @param originX origin x
     * @param originY origin y
     * @param originZ origin z
     * @throws IllegalArgumentException for an origin coordinate not finite or beyond
     *     {@link OutwardFloat#MAX_ORIGIN}, as every index
     */
    public BruteForceIndex(double originX, double originY, double originZ) {
        Arguments.requireOrigin("originX", originX);
        Arguments.requireOrigin("originY", originY);
        Arguments.requireOrigin("originZ", originZ);
        this.originX = originX;
        this.originY = originY;
        this.originZ = originZ;
    }

    @Override
    public int add(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                   long userValue, long categories) {
        Arguments.requireStorableBox(originX, originY, originZ, minX, minY, minZ, maxX, maxY, maxZ);
        int handle = handles.allocate();
        int slot = handle & Handles.SLOT_MASK;
        if (handles.capacity() > userValues.length) {
            int capacity = handles.capacity();
            tight = Arrays.copyOf(tight, capacity * BOX);
            userValues = Arrays.copyOf(userValues, capacity);
            categoryBits = Arrays.copyOf(categoryBits, capacity);
        }
        store(slot, minX, minY, minZ, maxX, maxY, maxZ);
        userValues[slot] = userValue;
        categoryBits[slot] = categories;
        return handle;
    }

    @Override
    public void move(int handle, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        move(handle, minX, minY, minZ, maxX, maxY, maxZ, 0, 0, 0);
    }

    @Override
    public void move(int handle, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                     double displacementX, double displacementY, double displacementZ) {
        Arguments.requireStorableBox(originX, originY, originZ, minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireDisplacement(displacementX, displacementY, displacementZ);
        store(handles.slotOf(handle, "handle"), minX, minY, minZ, maxX, maxY, maxZ);
    }

    @Override
    public void remove(int handle) {
        handles.free(handle);
    }

    private void store(int slot, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        OutwardFloat.storeBox(tight, slot * BOX, originX, originY, originZ, minX, minY, minZ, maxX, maxY, maxZ);
    }

    /** A query box moved into this index's frame ({@code world - origin}, in double): the one frame rule. */
    private double[] toFrame(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        return new double[] {minX - originX, minY - originY, minZ - originZ,
                maxX - originX, maxY - originY, maxZ - originZ};
    }

    @Override
    public int size() {
        return handles.size();
    }

    @Override
    public boolean contains(int handle) {
        return handles.isLive(handle);
    }

    @Override
    public long userValue(int handle) {
        return userValues[handles.slotOf(handle, "handle")];
    }

    @Override
    public long categoryBits(int handle) {
        return categoryBits[handles.slotOf(handle, "handle")];
    }

    @Override
    public void getTightBox(int handle, double[] dest) {
        int s = handles.slotOf(handle, "handle") * BOX;
        Arguments.requireBoxDestination(dest);
        OutwardFloat.loadBox(tight, s, originX, originY, originZ, dest);
    }

    /**
     * The stored tight box of a live object as it is stored: floats relative to this index's origin, rounded
     * outward, never taken back to world coordinates (what frame-exact references such as pair lists compare).
     *
     * @param handle a live handle
     * @param dest receives minX, minY, minZ, maxX, maxY, maxZ in {@code dest[0 .. 5]}
     * @throws IllegalArgumentException for a stale handle or a null {@code dest}
     */
    public void getStoredTightBox(int handle, float[] dest) {
        int s = handles.slotOf(handle, "handle") * BOX;
        Arguments.requireNonNull("dest", dest);
        System.arraycopy(tight, s, dest, 0, BOX);
    }

    /** @return the origin x of the float storage */
    public double originX() {
        return originX;
    }

    /** @return the origin y of the float storage */
    public double originY() {
        return originY;
    }

    /** @return the origin z of the float storage */
    public double originZ() {
        return originZ;
    }

    @Override
    public void queryAabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                          long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        double[] q = toFrame(minX, minY, minZ, maxX, maxY, maxZ);
        long tested = 0;
        for (int slot = 0; slot < handles.highWater(); slot++) {
            if (!handles.isLiveSlot(slot) || (categoryBits[slot] & categoryMask) == 0) {
                continue;
            }
            tested++;
            int s = slot * BOX;
            boolean overlap = AabbAabb.test(tight[s], tight[s + 1], tight[s + 2], tight[s + 3], tight[s + 4],
                    tight[s + 5], q[0], q[1], q[2], q[3], q[4], q[5]);
            if (overlap && !visitor.visit(handles.handleOf(slot), userValues[slot])) {
                break;
            }
        }
        stack.countVisits(0, tested);
    }

    @Override
    public void rayCast(double originX, double originY, double originZ,
                        double translationX, double translationY, double translationZ, double maxFraction,
                        long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        Arguments.requireSegment(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        Arguments.requireStartInFrame(originX, originY, originZ, maxFraction, this.originX, this.originY,
                this.originZ);
        visitor.begin(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        visitor.frame(this.originX, this.originY, this.originZ);
        double ox = originX - this.originX;
        double oy = originY - this.originY;
        double oz = originZ - this.originZ;
        double ix = SegmentAabb.inverse(translationX);
        double iy = SegmentAabb.inverse(translationY);
        double iz = SegmentAabb.inverse(translationZ);
        long tested = scanCast(maxFraction, categoryMask, visitor, s -> SegmentAabb.intersectInverse(ox, oy, oz,
                ix, iy, iz, maxFraction, tight[s], tight[s + 1], tight[s + 2], tight[s + 3], tight[s + 4],
                tight[s + 5]));
        stack.countVisits(0, tested);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Region queries with shapes: every live object in slot order, decided by the shared RegionTests on the
    // stored tight box, with the shape moved into the index's frame (world - origin), as the tree does.
    // ---------------------------------------------------------------------------------------------------------

    /** The sphere checks of every index's sphere query and sweep: a finite centre, a radius they accept. */
    private static void requireSphere(double cx, double cy, double cz, double radius) {
        Arguments.requireFinite("centerX", cx);
        Arguments.requireFinite("centerY", cy);
        Arguments.requireFinite("centerZ", cz);
        Arguments.requireRadius("radius", radius);
    }

    private static void requireRegion(RegionMode mode, OverlapVisitor visitor) {
        Arguments.requireNonNull("mode", mode);
        Arguments.requireNonNull("visitor", visitor);
    }

    /** Visits, in slot order, the objects passing the mask and filter whose stored tight box {@code accepts}. */
    private void scanRegion(long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                            java.util.function.Predicate<double[]> accepts) {
        double[] w = new double[6];
        for (int slot = 0; slot < handles.highWater(); slot++) {
            if (!takesPart(slot, categoryMask, filter)) {
                continue;
            }
            for (int i = 0; i < BOX; i++) {
                w[i] = tight[slot * BOX + i];
            }
            if (accepts.test(w) && !visitor.visit(handles.handleOf(slot), userValues[slot])) {
                return;
            }
        }
    }

    /** Whether a live slot passes the mask and the filter. */
    private boolean takesPart(int slot, long categoryMask, QueryFilter filter) {
        return handles.isLiveSlot(slot) && (categoryBits[slot] & categoryMask) != 0
                && (filter == null || filter.accept(handles.handleOf(slot), userValues[slot]));
    }

    /**
     * Reference of the sphere region query: objects whose tight box {@link RegionTests#classifySphere} accepts in
     * {@code mode}.
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param radius radius
     * @param mode selection mode
     * @param categoryMask categories of interest
     * @param filter predicate or null
     * @param visitor receives the objects
     */
    public void querySphere(double cx, double cy, double cz, double radius, RegionMode mode, long categoryMask,
                            QueryFilter filter, OverlapVisitor visitor) {
        requireSphere(cx, cy, cz, radius);
        requireRegion(mode, visitor);
        double x = cx - originX;
        double y = cy - originY;
        double z = cz - originZ;
        double r = RegionTests.frameRadius(cx, cy, cz, originX, originY, originZ, radius, mode);
        scanRegion(categoryMask, filter, visitor, w -> RegionTests.accepts(mode,
                RegionTests.classifySphere(x, y, z, r, w[0], w[1], w[2], w[3], w[4], w[5])));
    }

    /**
     * Reference of the box region query ({@link RegionTests#classifyBox}).
     *
     * @param minX query min x
     * @param minY query min y
     * @param minZ query min z
     * @param maxX query max x
     * @param maxY query max y
     * @param maxZ query max z
     * @param mode selection mode
     * @param categoryMask categories of interest
     * @param filter predicate or null
     * @param visitor receives the objects
     */
    public void queryBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         RegionMode mode, long categoryMask, QueryFilter filter, OverlapVisitor visitor) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        requireRegion(mode, visitor);
        double[] q = toFrame(minX, minY, minZ, maxX, maxY, maxZ);
        scanRegion(categoryMask, filter, visitor, w -> RegionTests.accepts(mode,
                RegionTests.classifyBox(q[0], q[1], q[2], q[3], q[4], q[5], w[0], w[1], w[2], w[3], w[4], w[5])));
    }

    /**
     * Reference of the oriented-box region query ({@link RegionTests#classifyObb}).
     *
     * @param obb the oriented box in {@code ObbLayout}
     * @param offset where it starts
     * @param mode selection mode
     * @param categoryMask categories of interest
     * @param filter predicate or null
     * @param visitor receives the objects
     */
    public void queryObb(double[] obb, int offset, RegionMode mode, long categoryMask, QueryFilter filter,
                         OverlapVisitor visitor) {
        Obb.validate("obb", obb, offset);
        requireRegion(mode, visitor);
        double[] local = new double[ObbLayout.STRIDE];
        RegionTests.frameObb(obb, offset, originX, originY, originZ, mode, local);
        scanRegion(categoryMask, filter, visitor, w -> RegionTests.accepts(mode,
                RegionTests.classifyObb(local, 0, w[0], w[1], w[2], w[3], w[4], w[5])));
    }

    /**
     * Reference of the convex region query ({@link RegionTests#acceptsConvex} with every plane active).
     *
     * @param region the region
     * @param mode selection mode
     * @param categoryMask categories of interest
     * @param filter predicate or null
     * @param visitor receives the objects
     */
    public void queryConvex(ConvexRegion region, RegionMode mode, long categoryMask, QueryFilter filter,
                            OverlapVisitor visitor) {
        RegionTests.requireConvexQuery(region, mode);
        requireRegion(mode, visitor);
        ConvexRegion local = region.translated(originX, originY, originZ);
        scanRegion(categoryMask, filter, visitor, w -> RegionTests.acceptsConvex(local, mode, local.allPlanes(),
                w[0], w[1], w[2], w[3], w[4], w[5]));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Swept queries: every live object in slot order, with the visitor protocol of rayCast.
    // ---------------------------------------------------------------------------------------------------------

    /**
     * Reference of the box sweep: each object's time of impact by {@link SweepAabb#intersectMovingAabb} in
     * tree-local coordinates over the whole frame, then the {@link RayCastVisitor} protocol (begin with the box
     * centre and the displacement, maxFraction 1).
     *
     * @param minX box min x at the start
     * @param minY box min y at the start
     * @param minZ box min z at the start
     * @param maxX box max x at the start
     * @param maxY box max y at the start
     * @param maxZ box max z at the start
     * @param dx displacement x
     * @param dy displacement y
     * @param dz displacement z
     * @param categoryMask categories of interest
     * @param visitor receives the objects and steers the query
     */
    public void sweepBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        SweepTests.beginBoxSweep(visitor, minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz);
        double[] q = toFrame(minX, minY, minZ, maxX, maxY, maxZ);
        double ix = SegmentAabb.inverse(dx);
        double iy = SegmentAabb.inverse(dy);
        double iz = SegmentAabb.inverse(dz);
        scanCast(1.0, categoryMask, visitor, t -> SweepAabb.intersectMovingAabb(ix, iy, iz, 1.0,
                q[0], q[1], q[2], q[3], q[4], q[5],
                tight[t], tight[t + 1], tight[t + 2], tight[t + 3], tight[t + 4], tight[t + 5]));
    }

    /**
     * Reference of the sphere sweep: each object's time of impact by {@link SweepAabb#intersectMovingSphere} in
     * tree-local coordinates over the whole frame, then the {@link RayCastVisitor} protocol.
     *
     * @param cx centre x at the start
     * @param cy centre y at the start
     * @param cz centre z at the start
     * @param radius radius
     * @param dx displacement x
     * @param dy displacement y
     * @param dz displacement z
     * @param categoryMask categories of interest
     * @param visitor receives the objects and steers the query
     */
    public void sweepSphere(double cx, double cy, double cz, double radius, double dx, double dy, double dz,
                            long categoryMask, RayCastVisitor visitor) {
        requireSphere(cx, cy, cz, radius);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        visitor.begin(cx, cy, cz, dx, dy, dz, 1.0);
        double x = cx - originX;
        double y = cy - originY;
        double z = cz - originZ;
        scanCast(1.0, categoryMask, visitor, t -> SweepAabb.intersectMovingSphere(x, y, z, radius, dx, dy, dz, 1.0,
                tight[t], tight[t + 1], tight[t + 2], tight[t + 3], tight[t + 4], tight[t + 5]));
    }

    /**
     * The {@link RayCastVisitor} protocol over all objects in slot order, starting from {@code maxFraction};
     * {@code contact} maps a tight-box offset to a fraction or a miss (always against the cast's initial bound,
     * never a clipped one). Returns the number of objects tested.
     */
    private long scanCast(double maxFraction, long categoryMask, RayCastVisitor visitor,
                          java.util.function.IntToDoubleFunction contact) {
        double max = maxFraction;
        long tested = 0;
        for (int slot = 0; slot < handles.highWater(); slot++) {
            if (!handles.isLiveSlot(slot) || (categoryBits[slot] & categoryMask) == 0) {
                continue;
            }
            tested++;
            double fraction = contact.applyAsDouble(slot * BOX);
            if (fraction < 0 || fraction > max) {
                continue;
            }
            double steer = visitor.visit(handles.handleOf(slot), userValues[slot], fraction);
            if (steer == 0.0) {
                break;
            }
            if (steer > 0.0 && steer < max) {
                max = steer;
            }
        }
        return tested;
    }

    /**
     * Reference of the k-nearest query: every object passing mask and filter gets its squared distance (to the
     * tight box in local coordinates by {@link RegionTests#squaredDistance}, or the square of {@code exact}'s
     * distance, dropped when negative); those within {@code maxDistance} are sorted by (squared distance, handle)
     * and the first {@code k} are written to {@code handles} and {@code distances}.
     *
     * @param x point x
     * @param y point y
     * @param z point z
     * @param k number wanted
     * @param maxDistance largest distance reported
     * @param categoryMask categories of interest
     * @param filter predicate or null
     * @param exact exact distance or null
     * @param handlesOut receives the handles, nearest first (length {@code >= k} or the object count)
     * @param distancesOut receives the distances
     * @return the number of results
     */
    public int kNearest(double x, double y, double z, int k, double maxDistance, long categoryMask,
                        QueryFilter filter, DistanceFunction exact, int[] handlesOut, double[] distancesOut) {
        Arguments.requireNearest(x, y, z, k, maxDistance, handlesOut);
        Arguments.requireNonNull("distancesOut", distancesOut);
        Arguments.requireWithinNearestReach(x - originX, y - originY, z - originZ);
        int n = 0;
        double[] keys = new double[handles.highWater()];
        int[] found = new int[handles.highWater()];
        for (int slot = 0; slot < handles.highWater(); slot++) {
            if (!takesPart(slot, categoryMask, filter)) {
                continue;
            }
            int s = slot * BOX;
            double key = RegionTests.squaredDistance(x - originX, y - originY, z - originZ,
                    tight[s], tight[s + 1], tight[s + 2], tight[s + 3], tight[s + 4], tight[s + 5]);
            if (exact != null) {
                double d = exact.distance(handles.handleOf(slot), userValues[slot], x, y, z);
                if (!(d >= 0 && d * d < Double.POSITIVE_INFINITY)) {
                    continue;
                }
                key = d * d;
            }
            // closed, on the distance reported (its square root), not on a rounded square of the limit
            if (Math.sqrt(key) <= maxDistance) {
                keys[n] = key;
                found[n++] = handles.handleOf(slot);
            }
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> keys[a] != keys[b] ? Double.compare(keys[a], keys[b])
                : Integer.compare(found[a], found[b]));
        int count = Math.min(k, n);
        for (int i = 0; i < count; i++) {
            handlesOut[i] = found[order[i]];
            distancesOut[i] = Math.sqrt(keys[order[i]]);
        }
        return count;
    }
}
