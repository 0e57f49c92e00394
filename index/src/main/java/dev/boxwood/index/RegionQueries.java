package dev.boxwood.index;

import dev.boxwood.geom.FrustumAabb;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.TraversalStack;

import static dev.boxwood.index.DynamicAabbTree.f;

/**
 * Region queries on a {@link DynamicAabbTree} with shapes other than a box: sphere, oriented box, frustum or any
 * convex polyhedron, and box window selection, each in the {@link RegionMode modes} crossing (overlap) and window
 * (full containment).
 *
 * <p>Conventions, as for {@link DynamicAabbTree#queryAabb}: shapes are closed (touching counts); each object's
 * stored tight box is tested (never its fat box); an object takes part only if
 * {@code (categoryBits & categoryMask) != 0} and the {@link QueryFilter} (may be {@code null}: all) accepts it,
 * both applied before the visitor sees it; the visitor returns {@code false} to stop. Visit order is unspecified
 * (sort an {@link dev.boxwood.query.AllOverlaps} by handle for a deterministic order). Coordinates are world
 * coordinates; as in every query of the tree, the shape is moved into the tree's frame ({@code world - origin},
 * in double; a convex region by {@link ConvexRegion#translated}) and tested against the stored floats, so every
 * index that stores the same boxes relative to the same origin reports the same objects
 * ({@link dev.boxwood.query.RegionTests} holds the shared per-box decisions; {@code docs/conventions.md}, "Large
 * worlds").
 *
 * <p>Hierarchical culling: a subtree whose box is outside the shape is skipped; a subtree whose box is inside the
 * shape is taken whole, its objects reported without any further geometric test (Bullet's
 * {@code btDbvt::collideKDOP}; Lucene's {@code CELL_INSIDE_QUERY}); for convex regions each subtree carries the
 * mask of planes its ancestors still cross, so a plane is never tested again below a box inside it (Assarsson and
 * Möller 2000).
 *
 * <p>Allocation and threads: nothing is allocated; the traversal state lives in the caller's
 * {@link TraversalStack}. Queries only read the tree: any number of threads may query at once, each with its own
 * stack, while no thread mutates it (the one exception, pending deferred adds taken in by the first query, is safe
 * too: {@link DynamicAabbTree}, Deferred adds).
 */
public final class RegionQueries {

    private static final int SPHERE = RegionTests.SPHERE;
    private static final int BOX = RegionTests.BOX;
    private static final int OBB = RegionTests.OBB;
    private static final int CONVEX = RegionTests.CONVEX;

    private RegionQueries() {
    }

    /**
     * Objects whose tight box overlaps ({@link RegionMode#CROSSING}, {@link RegionMode#CROSSING_CONSERVATIVE}: the
     * same here) or lies inside ({@link RegionMode#WINDOW}) the closed sphere. Overlap is the canonical
     * {@link dev.boxwood.geom.SphereAabb#test}; containment puts the box's farthest corner within the radius.
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param centerX centre x
     * @param centerY centre y
     * @param centerZ centre z
     * @param radius radius, finite, {@code >= 0}
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or one above
     *                                  {@link Arguments#MAX_RADIUS}, or null arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void querySphere(ReadableTree tree, double centerX, double centerY, double centerZ, double radius,
                                   RegionMode mode, long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                                   TraversalStack stack) {
        Arguments.requireFinite("centerX", centerX);
        Arguments.requireFinite("centerY", centerY);
        Arguments.requireFinite("centerZ", centerZ);
        Arguments.requireRadius("radius", radius);
        requireCommon(tree, mode, visitor, stack);
        traverse(tree.storage(), SPHERE, centerX, centerY, centerZ, radius, 0, 0, null, 0, null, mode, categoryMask,
                filter, visitor, stack);
    }

    /**
     * Objects whose tight box overlaps or lies inside the closed query box: {@link RegionMode#WINDOW} is the
     * orthographic window selection; the crossing modes give the same objects as
     * {@link DynamicAabbTree#queryAabb} (plus the filter).
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param minX query min x
     * @param minY query min y
     * @param minZ query min z
     * @param maxX query max x
     * @param maxY query max y
     * @param maxZ query max z
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite or inverted box or null arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void queryBox(ReadableTree tree, double minX, double minY, double minZ,
                                double maxX, double maxY, double maxZ, RegionMode mode, long categoryMask,
                                QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        requireCommon(tree, mode, visitor, stack);
        traverse(tree.storage(), BOX, minX, minY, minZ, maxX, maxY, maxZ, null, 0, null, mode, categoryMask, filter,
                visitor, stack);
    }

    /**
     * Objects whose tight box overlaps or lies inside the closed oriented box, given in
     * {@link ObbLayout} (write a validated {@link dev.boxwood.geom.Obb} there once with
     * {@link dev.boxwood.geom.Obb#writeTo}, and reuse the array). Overlap: the enclosing axis-aligned box of the
     * oriented one as a pre-cull, then the 15-axis separating axis test of {@link dev.boxwood.geom.ObbAabb#test}
     * (conservative by its epsilon, about {@code 1e-10} of the extents). Both crossing modes are the same.
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param obb array holding the oriented box
     * @param offset where it starts
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException if the layout holds a non-finite value, a negative half extent or axes that
     *     are not orthonormal within {@link dev.boxwood.geom.Obb#ORTHONORMAL_TOLERANCE}, or for null arguments
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void queryObb(ReadableTree tree, double[] obb, int offset, RegionMode mode, long categoryMask,
                                QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        Obb.validate("obb", obb, offset);
        requireCommon(tree, mode, visitor, stack);
        traverse(tree.storage(), OBB, 0, 0, 0, 0, 0, 0, obb, offset, null, mode, categoryMask, filter, visitor,
                stack);
    }

    /**
     * Objects whose tight box overlaps or lies inside a convex region (a frustum, a marquee sub-frustum, any
     * convex polyhedron). {@link RegionMode#CROSSING} is exact (the separating axis test of
     * {@link ConvexRegion#testBox} after the plane test; no false positive beyond a corner or edge) and needs a
     * bounded region; {@link RegionMode#CROSSING_CONSERVATIVE} is the plane test alone (may report boxes near an
     * edge or corner that miss the region; never misses one that meets it); {@link RegionMode#WINDOW} takes boxes
     * inside every plane.
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param region the prepared region
     * @param mode selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter predicate applied before the visitor, or {@code null}
     * @param visitor receives the objects; returns false to stop
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments, or {@link RegionMode#CROSSING} with an unbounded region
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    public static void queryConvex(ReadableTree tree, ConvexRegion region, RegionMode mode, long categoryMask,
                                   QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        RegionTests.requireConvexQuery(region, mode);
        requireCommon(tree, mode, visitor, stack);
        traverse(tree.storage(), CONVEX, 0, 0, 0, 0, 0, 0, null, 0, region, mode, categoryMask, filter, visitor,
                stack);
    }

    static void requireCommon(ReadableTree tree, RegionMode mode, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireNonNull("tree", tree);
        Arguments.requireNonNull("mode", mode);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private static void traverse(DynamicAabbTree tree, int kind,
                                 double p0, double p1, double p2, double p3, double p4, double p5,
                                 double[] obb, int obbOffset, ConvexRegion region, RegionMode mode,
                                 long categoryMask, QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        final int mark = stack.beginQuery();
        final int modifications = tree.modCount;
        try {
            walk(tree, kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode, categoryMask, filter, visitor,
                    stack);
        } catch (RuntimeException e) {
            throw tree.failure(stack.failure(e, mark), modifications);
        }
        tree.checkUnchanged(modifications);
        stack.checkQuery(mark);
    }

    /** {@link #traverse} inside the stack's mark ({@link TraversalStack#beginQuery}). */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static void walk(DynamicAabbTree tree, int kind,
                             double p0, double p1, double p2, double p3, double p4, double p5,
                             double[] obb, int obbOffset, ConvexRegion region, RegionMode mode,
                             long categoryMask, QueryFilter filter, OverlapVisitor visitor, TraversalStack stack) {
        // the shape moved into the tree's frame: the frame rule of every query ("Large worlds" in the conventions)
        final double ox = tree.originX();
        final double oy = tree.originY();
        final double oz = tree.originZ();
        if (kind == SPHERE || kind == BOX) {
            if (kind == SPHERE) {
                p3 = RegionTests.frameRadius(p0, p1, p2, ox, oy, oz, p3, mode);
            }
            p0 -= ox;
            p1 -= oy;
            p2 -= oz;
            if (kind == BOX) {
                p3 -= ox;
                p4 -= oy;
                p5 -= oz;
            }
        } else if (kind == OBB) {
            // a copy in the stack's double scratch, which region queries do not use otherwise: in the tree's frame
            // (grown by the move's rounding for the crossing modes), its axes orthonormal as the kernel takes them
            double[] local = stack.fractions(ObbLayout.STRIDE);
            RegionTests.frameObb(obb, obbOffset, ox, oy, oz, mode, local);
            obb = local;
            obbOffset = 0;
        } else {
            region = region.translated(ox, oy, oz);
        }
        final int[] r = tree.records;
        final int foldedMask = DynamicAabbTree.fold(categoryMask);
        // (node, state) pairs in windowed order (TraversalStack.ring): up to WINDOW pushed records in flight
        final int[] st = stack.ring(tree.heights[DynamicAabbTree.HEADER], 2);
        final int wrap = st.length - 1;
        final int window = 2 * tree.queryWindow();
        // Large trees hold objects back and decide them in batches (TraversalStack.deferObject).
        final boolean defer = TraversalStack.defersObjects(tree.nodeHighWater);
        stack.clearDeferredObjects();
        int head = 0;
        int sp = 0;
        st[sp++] = DynamicAabbTree.HEADER;
        st[sp++] = RegionTests.rootState(kind, region);
        long nodes = -1;
        final int budget = tree.nodeHighWater;
        while (sp != head) {
            final int at = sp - head < window ? (head += 2) - 2 : (sp -= 2);
            final int node = st[at & wrap];
            final int state = st[(at + 1) & wrap];
            if (++nodes > budget) {
                throw DynamicAabbTree.lostQuery();
            }
            final int record = DynamicAabbTree.recordIndex(node);
            // The two sides by two calls, not a loop over them, as in the tree's box query (C2 does not unroll
            // the loop): sphere queries 1.16x on JDK 17 and 1.76x on JDK 25 in interleaved A/B runs.
            sp = entry(tree, record, 0, foldedMask, kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode,
                    state, categoryMask, filter, visitor, stack, defer, st, sp, wrap);
            if (sp == STOPPED) {
                break;
            }
            sp = entry(tree, record, 1, foldedMask, kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode,
                    state, categoryMask, filter, visitor, stack, defer, st, sp, wrap);
            if (sp == STOPPED) {
                break;
            }
        }
        if (sp != STOPPED) {
            deferred(tree, kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode, categoryMask, filter,
                    visitor, stack);
        }
        stack.countVisits(nodes, 0);
    }

    /** What {@link #entry} returns when the visitor stopped the query (ring tops are never negative). */
    private static final int STOPPED = -1;

    /**
     * One entry of a region traversal in a node reached in {@code state}: the folded mask, the classification of
     * its box (culled, or the planes still crossed); an internal node is pushed onto the ring with its state (its
     * record's first word read at once, see {@link TraversalStack#retain}), an object goes to {@link #object}.
     *
     * @return the ring's new top, or {@link #STOPPED}
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static int entry(DynamicAabbTree tree, int record, int side, int foldedMask, int kind,
                             double p0, double p1, double p2, double p3, double p4, double p5,
                             double[] obb, int obbOffset, ConvexRegion region, RegionMode mode, int state,
                             long categoryMask, QueryFilter filter, OverlapVisitor visitor, TraversalStack stack,
                             boolean defer, int[] ring, int top, int wrap) {
        final int[] r = tree.records;
        if ((r[record + DynamicAabbTree.MASK + side] & foldedMask) == 0) {
            return top;
        }
        int ref = r[record + DynamicAabbTree.REF + side];
        int childState = 0;
        if (state != 0) {
            int o = record + side * DynamicAabbTree.BOX;
            childState = RegionTests.classifySubtree(kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region,
                    mode, state, ref >= 0, f(r[o]), f(r[o + 1]), f(r[o + 2]), f(r[o + 3]), f(r[o + 4]),
                    f(r[o + 5]));
            if (childState == FrustumAabb.CULLED) {
                return top;
            }
        }
        if (ref >= 0) {
            ring[top & wrap] = ref;
            ring[(top + 1) & wrap] = childState;
            stack.retain(r[DynamicAabbTree.recordIndex(ref)]);
            return top + 2;
        }
        if (defer) {
            return defer(tree, ref, kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode, childState,
                    categoryMask, filter, visitor, stack) ? top : STOPPED;
        }
        return object(tree, ref, kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode, childState,
                categoryMask, filter, visitor, stack) ? top : STOPPED;
    }

    /**
     * Holds back an object reached in {@code state} ({@link TraversalStack#deferObject}), deciding the held-back
     * objects when the batch is full; a method of its own so that {@link #entry} stays small enough to inline.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static boolean defer(DynamicAabbTree tree, int ref, int kind,
                                 double p0, double p1, double p2, double p3, double p4, double p5,
                                 double[] obb, int obbOffset, ConvexRegion region, RegionMode mode, int state,
                                 long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                                 TraversalStack stack) {
        stack.retain(tree.touchObject(DynamicAabbTree.slotOf(ref), state != 0, categoryMask));
        return !stack.deferObject(ref, state)
                || deferred(tree, kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode, categoryMask, filter,
                        visitor, stack);
    }

    /**
     * Decides the objects held back by {@link #defer}, in the order they came.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static boolean deferred(DynamicAabbTree tree, int kind,
                                    double p0, double p1, double p2, double p3, double p4, double p5,
                                    double[] obb, int obbOffset, ConvexRegion region, RegionMode mode,
                                    long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                                    TraversalStack stack) {
        int n = stack.deferredObjects();
        for (int i = 0; i < n; i++) {
            if (!object(tree, stack.deferredReference(i), kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode,
                    stack.deferredState(i), categoryMask, filter, visitor, stack)) {
                return false;
            }
        }
        stack.clearDeferredObjects();
        return true;
    }

    /**
     * An object reached in {@code state} (0: inside the shape, taken without a test): the exact category test, the
     * shape's test of its tight box (counted as a leaf visit), the filter and the visitor. A method of its own so
     * that it and {@link #entry} each stay small enough for C2 to inline.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static boolean object(DynamicAabbTree tree, int ref, int kind,
                                  double p0, double p1, double p2, double p3, double p4, double p5,
                                  double[] obb, int obbOffset, ConvexRegion region, RegionMode mode, int state,
                                  long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                                  TraversalStack stack) {
        int slot = DynamicAabbTree.slotOf(ref);
        if (!tree.categoryMatches(slot, categoryMask)) {
            return true;
        }
        if (state != 0) {
            stack.countVisits(0, 1);
            final float[] tb = tree.tight;
            int t = slot * DynamicAabbTree.BOX;
            if (!RegionTests.acceptsObject(kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, region, mode, state,
                    tb[t], tb[t + 1], tb[t + 2], tb[t + 3], tb[t + 4], tb[t + 5])) {
                return true;
            }
        }
        int handle = ~ref;
        long userValue = tree.userValues[slot];
        if (filter != null && !filter.accept(handle, userValue)) {
            return true;
        }
        return visitor.visit(handle, userValue);
    }
}
