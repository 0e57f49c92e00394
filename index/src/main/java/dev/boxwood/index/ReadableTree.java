package dev.boxwood.index;

import dev.boxwood.query.Arguments;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.Handles;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.NearestVisitor;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.TraversalStack;

/**
 * What the query classes ({@link RegionQueries}, {@link SweepQueries}, {@link NearestQueries},
 * {@link PairQueries}, {@link BatchQueries}) read: a live {@link DynamicAabbTree} (while no thread mutates it) or a
 * published {@link ReadView} of one (while the writer goes on). Both answer every query identically for the same
 * contents; the view is a frozen copy in the tree's own layout, so the traversal code is shared and the tree's hot
 * loops pay nothing for views. The queries of {@link ShapeQueries} are those of {@link RegionQueries},
 * {@link SweepQueries} and {@link NearestQueries}, which the instance methods call.
 */
public abstract sealed class ReadableTree implements ShapeQueries permits DynamicAabbTree, ReadView {

    ReadableTree() {
    }

    /** The arrays the queries traverse: the tree itself, or a view's frozen copy. */
    abstract DynamicAabbTree storage();

    /**
     * The same tree as {@link #storage()} without taking a tree's pending adds in: for reading its origin and
     * configuration while arguments are still being checked (a rejected query changes nothing).
     */
    abstract DynamicAabbTree frame();

    /**
     * The x coordinate of the double origin the tree stores its boxes relative to ({@link TreeConfig#withOrigin}).
     *
     * @return the origin x of the float storage
     */
    public abstract double originX();

    /**
     * The y coordinate of the storage origin ({@link #originX()}).
     *
     * @return the origin y of the float storage
     */
    public abstract double originY();

    /**
     * The z coordinate of the storage origin ({@link #originX()}).
     *
     * @return the origin z of the float storage
     */
    public abstract double originZ();

    /**
     * The handle of every object in the tree, in ascending order of the slots they occupy (freed slots are reused,
     * so this is not the order of the adds): to save a level, enumerate a world for a tool, or write it as a static
     * world file. Objects pending under deferred adds are included. A new array on each call, O(slots ever used).
     *
     * @return the live handles, {@link #size()} of them
     */
    public final int[] liveHandles() {
        Handles h = frame().handles;
        int[] result = new int[h.size()];
        int n = 0;
        for (int slot = 0, end = h.highWater(); slot < end; slot++) {
            if (h.isLiveSlot(slot)) {
                result[n++] = h.handleOf(slot);
            }
        }
        return result;
    }

    /**
     * Copies the object's tight box as the tree stores it: six floats relative to the tree's origin
     * ({@link #originX()}), rounded outward from the box given to {@code add} or {@code move}, as
     * {@code minX, minY, minZ, maxX, maxY, maxZ}. {@link #getTightBox} is this box plus the origin; the floats
     * themselves let a query of another index decide in its own frame by the frame rule of {@link PairQueries}
     * ({@code f + (originTree - originOther)} in double) instead of through world coordinates, which round once
     * more. Reads the handle table and the boxes only (an object pending under deferred adds has its box already).
     *
     * @param handle a live handle
     * @param dest an array of length {@code >= 6}
     * @throws IllegalArgumentException for a stale handle, a null {@code dest} or one shorter than 6 (nothing
     *                                  written)
     */
    public final void getStoredTightBox(int handle, float[] dest) {
        DynamicAabbTree t = frame();
        int s = t.handles.slotOf(handle, "handle") * DynamicAabbTree.BOX;
        Arguments.requireNonNull("dest", dest);
        if (dest.length < DynamicAabbTree.BOX) {
            throw new IllegalArgumentException("dest must hold 6 floats (minX, minY, minZ, maxX, maxY, maxZ), has "
                    + dest.length);
        }
        System.arraycopy(t.tight, s, dest, 0, DynamicAabbTree.BOX);
    }

    /** {@inheritDoc} As {@link RegionQueries#querySphere}. */
    @Override
    public final void querySphere(double centerX, double centerY, double centerZ, double radius, RegionMode mode,
                                  long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                                  TraversalStack stack) {
        RegionQueries.querySphere(this, centerX, centerY, centerZ, radius, mode, categoryMask, filter, visitor, stack);
    }

    /** {@inheritDoc} As {@link RegionQueries#queryBox}. */
    @Override
    public final void queryBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                               RegionMode mode, long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                               TraversalStack stack) {
        RegionQueries.queryBox(this, minX, minY, minZ, maxX, maxY, maxZ, mode, categoryMask, filter, visitor, stack);
    }

    /** {@inheritDoc} As {@link RegionQueries#queryObb}. */
    @Override
    public final void queryObb(double[] obb, int offset, RegionMode mode, long categoryMask, QueryFilter filter,
                               OverlapVisitor visitor, TraversalStack stack) {
        RegionQueries.queryObb(this, obb, offset, mode, categoryMask, filter, visitor, stack);
    }

    /** {@inheritDoc} As {@link RegionQueries#queryConvex}. */
    @Override
    public final void queryConvex(ConvexRegion region, RegionMode mode, long categoryMask, QueryFilter filter,
                                  OverlapVisitor visitor, TraversalStack stack) {
        RegionQueries.queryConvex(this, region, mode, categoryMask, filter, visitor, stack);
    }

    /**
     * {@inheritDoc} As {@link SweepQueries#sweepBox}.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    @Override
    public final void sweepBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                               double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor,
                               TraversalStack stack) {
        SweepQueries.sweepBox(this, minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz, categoryMask, visitor, stack);
    }

    /**
     * {@inheritDoc} As {@link SweepQueries#sweepSphere}.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    @Override
    public final void sweepSphere(double centerX, double centerY, double centerZ, double radius, double dx,
                                  double dy, double dz, long categoryMask, RayCastVisitor visitor,
                                  TraversalStack stack) {
        SweepQueries.sweepSphere(this, centerX, centerY, centerZ, radius, dx, dy, dz, categoryMask, visitor, stack);
    }

    /**
     * {@inheritDoc} As {@link NearestQueries#nearest}.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    @Override
    public final void nearest(double x, double y, double z, double maxDistance, long categoryMask,
                              QueryFilter filter, DistanceFunction exact, NearestNeighbours dest) {
        NearestQueries.nearest(this, x, y, z, maxDistance, categoryMask, filter, exact, dest);
    }

    /**
     * {@inheritDoc} As {@link NearestQueries#kNearest}.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    @Override
    public final void kNearest(double x, double y, double z, int k, double maxDistance, long categoryMask,
                               QueryFilter filter, DistanceFunction exact, NearestNeighbours dest) {
        NearestQueries.kNearest(this, x, y, z, k, maxDistance, categoryMask, filter, exact, dest);
    }

    /**
     * {@inheritDoc} As {@link NearestQueries#browseNearest}.
     *
     * @throws IllegalArgumentException {@inheritDoc}
     * @throws java.util.ConcurrentModificationException if the tree (not a view) changed during the query: a
     *     callback changed it, or another thread did without synchronisation ({@link DynamicAabbTree}, Queries and
     *     threads)
     */
    @Override
    public final void browseNearest(double x, double y, double z, double maxDistance, long categoryMask,
                                    QueryFilter filter, DistanceFunction exact, NearestVisitor visitor,
                                    NearestNeighbours scratch) {
        NearestQueries.browseNearest(this, x, y, z, maxDistance, categoryMask, filter, exact, visitor, scratch);
    }

    /**
     * Visits every box of the hierarchy depth first, each parent before its children and the first child before
     * the second: the internal nodes' boxes and the objects' fat boxes, the boxes the queries test (an object's
     * tight box is {@link DynamicAabbTree#getTightBox}). For debug drawing and quality measures; it allocates
     * nothing once the stack has grown to the tree's height. An empty tree visits nothing.
     *
     * @param visitor receives each box
     * @param stack the caller's scratch
     * @throws IllegalArgumentException if an argument is null
     * @throws java.util.ConcurrentModificationException if the visitor changed the tree (not a view), checked after
     *     every visit ({@link DynamicAabbTree}, Queries and threads)
     */
    public final void visitNodes(TreeNodeVisitor visitor, TraversalStack stack) {
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        DynamicAabbTree t = storage();
        if (t.child(0) == DynamicAabbTree.EMPTY) {
            return;
        }
        final int[] r = t.records;
        final double ox = t.originX();
        final double oy = t.originY();
        final double oz = t.originZ();
        final int mark = stack.beginQuery();
        final int modifications = t.modCount;
        // Pairs (entry, depth); each pop pushes at most two entries, so 2 * (height + 2) ints suffice.
        final int[] st = stack.references(2 * (t.heights[DynamicAabbTree.HEADER] + 2));
        int sp = 0;
        st[sp++] = 0;
        st[sp++] = 0;
        while (sp > 0) {
            int depth = st[--sp];
            int entry = st[--sp];
            int ref = r[DynamicAabbTree.refIndex(entry)];
            int o = DynamicAabbTree.boxIndex(entry);
            visitor.visit(depth, ref >= 0 ? Handles.NONE : ~ref,
                    ox + DynamicAabbTree.f(r[o]), oy + DynamicAabbTree.f(r[o + 1]), oz + DynamicAabbTree.f(r[o + 2]),
                    ox + DynamicAabbTree.f(r[o + 3]), oy + DynamicAabbTree.f(r[o + 4]),
                    oz + DynamicAabbTree.f(r[o + 5]));
            // before the stack or the records are read again: a walk run on the stack from inside the visitor
            // rewrote it, a change of the tree may have freed the node the walk descends into
            t.checkUnchanged(modifications);
            stack.checkQuery(mark);
            if (ref >= 0) {
                st[sp++] = 2 * ref + 1;
                st[sp++] = depth + 1;
                st[sp++] = 2 * ref;
                st[sp++] = depth + 1;
            }
        }
    }
}
