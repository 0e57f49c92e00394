package dev.boxwood.index;

import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.TraversalStack;

/**
 * What the query classes ({@link RegionQueries}, {@link SweepQueries}, {@link NearestQueries},
 * {@link PairQueries}, {@link BatchQueries}) read: a live {@link DynamicAabbTree} (while no thread mutates it) or a
 * published {@link ReadView} of one (while the writer goes on). Both answer every query identically for the same
 * contents; the view is a frozen copy in the tree's own layout, so the traversal code is shared and the tree's hot
 * loops pay nothing for views. The region queries of {@link ShapeQueries} are those of {@link RegionQueries}.
 */
public abstract sealed class ReadableTree implements ShapeQueries permits DynamicAabbTree, ReadView {

    ReadableTree() {
    }

    /** The arrays the queries traverse: the tree itself, or a view's frozen copy. */
    abstract DynamicAabbTree storage();

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
}
