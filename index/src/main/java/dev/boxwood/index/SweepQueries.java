package dev.boxwood.index;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SweepAabb;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.SweepTests;
import dev.boxwood.query.TraversalStack;

import static dev.boxwood.index.DynamicAabbTree.f;

/**
 * Swept queries on a {@link DynamicAabbTree}: a box or a sphere moving by a displacement over one frame, reporting
 * each object it touches with the time of impact, following the protocol of {@link RayCastVisitor} (so
 * {@link dev.boxwood.query.ClosestHit}, {@link dev.boxwood.query.AnyHit} and {@link dev.boxwood.query.AllHits}
 * answer closest / any / all, and a visitor may stop, skip or clip). The tree and its views also answer them as
 * the {@link dev.boxwood.query.ShapeQueries} methods {@link ReadableTree#sweepBox} and
 * {@link ReadableTree#sweepSphere}, which come here, so code written against that interface runs on mapped worlds
 * too.
 *
 * <p>Conventions: time is normalized over the frame, {@code u} in {@code [0, 1]}: the shape is at its start at
 * {@code u = 0} and has moved by the whole displacement at {@code u = 1}; the fraction handed to the visitor is the
 * first time of contact with the object's stored tight box (closed: touching counts), 0 for an object touched at
 * the start. {@code visitor.begin} receives the shape's centre as the origin and the displacement as the
 * translation, with {@code maxFraction = 1} (a collector's exact test, if set, sees that centre path). Objects
 * take part only if {@code (categoryBits & categoryMask) != 0}; the collectors apply their filter and ignored
 * handles. Times are computed against the whole frame (never a clipped one), so they do not depend on the visit
 * order and the brute-force reference reports the same values.
 *
 * <p>Culling: a subtree is entered only if the centre's path meets its box grown by the shape (by the box's half
 * extents: the Minkowski sum, or by the radius), with the robust slab test; near subtrees are visited first and
 * entries beyond a clip are dropped when popped, as in {@link DynamicAabbTree#rayCast}. Nothing is allocated;
 * queries only read the tree (any number of concurrent queries, each with its own stack, while nothing mutates; the
 * first query after deferred adds takes them in, safely: {@link DynamicAabbTree}, Deferred adds).
 */
public final class SweepQueries {

    private SweepQueries() {
    }

    /**
     * Sweeps a box: each object whose tight box the moving box touches during the frame, with the first time of
     * contact ({@link SweepAabb#intersectMovingAabb}, the first time of {@link dev.boxwood.geom.AabbAabb#sweep}).
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param minX box min x at the start
     * @param minY box min y at the start
     * @param minZ box min z at the start
     * @param maxX box max x at the start
     * @param maxY box max y at the start
     * @param maxZ box max z at the start
     * @param dx displacement over the frame, x
     * @param dy displacement over the frame, y
     * @param dz displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects and steers the query
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite or inverted box, a non-finite displacement or null
     *     arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void sweepBox(ReadableTree tree, double minX, double minY, double minZ,
                                double maxX, double maxY, double maxZ, double dx, double dy, double dz,
                                long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireDisplacement(dx, dy, dz);
        requireCommon(tree, visitor, stack);
        DynamicAabbTree storage = tree.storage();
        SweepTests.beginBoxSweep(visitor, minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz);
        cast(storage, SweepTests.BOX, minX - storage.originX(), minY - storage.originY(), minZ - storage.originZ(),
                maxX - storage.originX(), maxY - storage.originY(), maxZ - storage.originZ(), dx, dy, dz,
                categoryMask, visitor, stack);
    }

    /**
     * Sweeps a sphere: each object whose tight box the moving sphere touches during the frame, with the exact
     * first time of contact ({@link SweepAabb#intersectMovingSphere}: the centre's path against the box rounded by
     * the radius). With {@link dev.boxwood.query.AllHits} this is also the capsule overlap query: the objects
     * within {@code radius} of the segment from the centre to the centre plus the displacement.
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param centerX centre x at the start
     * @param centerY centre y at the start
     * @param centerZ centre z at the start
     * @param radius radius, finite, {@code >= 0}
     * @param dx displacement over the frame, x
     * @param dy displacement over the frame, y
     * @param dz displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor receives the objects and steers the query
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or one above
     *                                  {@link Arguments#MAX_RADIUS}, or null arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void sweepSphere(ReadableTree tree, double centerX, double centerY, double centerZ, double radius,
                                   double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor,
                                   TraversalStack stack) {
        Arguments.requireFinite("centerX", centerX);
        Arguments.requireFinite("centerY", centerY);
        Arguments.requireFinite("centerZ", centerZ);
        Arguments.requireRadius("radius", radius);
        Arguments.requireDisplacement(dx, dy, dz);
        requireCommon(tree, visitor, stack);
        DynamicAabbTree storage = tree.storage();
        visitor.begin(centerX, centerY, centerZ, dx, dy, dz, 1.0);
        double px = centerX - storage.originX();
        double py = centerY - storage.originY();
        double pz = centerZ - storage.originZ();
        double cullRadius = SweepTests.sphereCullRadius(px, py, pz, radius, dx, dy, dz);
        cast(storage, SweepTests.SPHERE, px, py, pz, radius, cullRadius, 0, dx, dy, dz, categoryMask, visitor, stack);
    }

    private static void requireCommon(ReadableTree tree, RayCastVisitor visitor, TraversalStack stack) {
        Arguments.requireNonNull("tree", tree);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
    }

    private static void cast(DynamicAabbTree tree, int kind, double p0, double p1, double p2, double p3, double p4,
                             double p5, double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor,
                             TraversalStack stack) {
        final int mark = stack.beginQuery();
        final int modifications = tree.modCount;
        try {
            walk(tree, kind, p0, p1, p2, p3, p4, p5, dx, dy, dz, categoryMask, visitor, stack);
        } catch (RuntimeException e) {
            throw tree.failure(stack.failure(e, mark), modifications);
        }
        tree.checkUnchanged(modifications);
        stack.checkQuery(mark);
    }

    /** {@link #cast} inside the stack's mark ({@link TraversalStack#beginQuery}). */
    private static void walk(DynamicAabbTree tree, int kind, double p0, double p1, double p2, double p3, double p4,
                             double p5, double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor,
                             TraversalStack stack) {
        final double ix = SegmentAabb.inverse(dx);
        final double iy = SegmentAabb.inverse(dy);
        final double iz = SegmentAabb.inverse(dz);
        final int[] r = tree.records;
        final int foldedMask = DynamicAabbTree.fold(categoryMask);
        final float[] tb = tree.tight;
        final long[] uv = tree.userValues;
        final int capacity = tree.heights[DynamicAabbTree.HEADER] + 3;
        final int[] st = stack.references(capacity);
        final double[] sf = stack.fractions(capacity);
        double max = 1.0;
        double popBound = Geom.ROBUST_FAR_SCALE;
        int sp = 0;
        st[sp] = DynamicAabbTree.HEADER;
        sf[sp++] = 0.0;
        long nodes = -1;
        long leaves = 0;
        final int budget = tree.nodeHighWater;
        while (sp > 0) {
            sp--;
            if (sf[sp] > popBound) {
                continue;
            }
            int ref = st[sp];
            if (ref < 0) {
                int slot = DynamicAabbTree.slotOf(ref);
                int t = slot * DynamicAabbTree.BOX;
                leaves++;
                if (!tree.categoryMatches(slot, categoryMask)) {
                    continue;
                }
                double fraction = SweepTests.exactContact(kind, p0, p1, p2, p3, p4, p5, dx, dy, dz, ix, iy, iz,
                        tb[t], tb[t + 1], tb[t + 2], tb[t + 3], tb[t + 4], tb[t + 5]);
                if (fraction < 0 || fraction > max) {
                    continue;
                }
                max = RayCastVisitor.nextMaxFraction(visitor.visit(~ref, uv[slot], fraction), max);
                if (max == RayCastVisitor.STOP) {
                    break;
                }
                popBound = max * Geom.ROBUST_FAR_SCALE;
                continue;
            }
            if (++nodes > budget) {
                throw DynamicAabbTree.lostQuery();
            }
            int o = DynamicAabbTree.recordIndex(ref);
            double t0 = (r[o + DynamicAabbTree.MASK] & foldedMask) == 0 ? Geom.NO_HIT
                    : SweepTests.boundContact(kind, p0, p1, p2, p3, p4, p5, ix, iy, iz, max,
                    f(r[o]), f(r[o + 1]), f(r[o + 2]), f(r[o + 3]), f(r[o + 4]), f(r[o + 5]));
            double t1 = (r[o + DynamicAabbTree.MASK + 1] & foldedMask) == 0 ? Geom.NO_HIT
                    : SweepTests.boundContact(kind, p0, p1, p2, p3, p4, p5, ix, iy, iz, max,
                    f(r[o + 6]), f(r[o + 7]), f(r[o + 8]), f(r[o + 9]), f(r[o + 10]), f(r[o + 11]));
            sp = OrderedCast.pushNearLast(st, sf, sp, r[o + DynamicAabbTree.REF], t0,
                    r[o + DynamicAabbTree.REF + 1], t1);
        }
        stack.countVisits(nodes, leaves);
    }
}
