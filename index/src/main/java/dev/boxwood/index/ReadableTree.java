package dev.boxwood.index;

import dev.boxwood.query.SpatialQueries;

/**
 * What the query classes ({@link RegionQueries}, {@link SweepQueries}, {@link NearestQueries},
 * {@link PairQueries}, {@link BatchQueries}) read: a live {@link DynamicAabbTree} (while no thread mutates it) or a
 * published {@link ReadView} of one (while the writer goes on). Both answer every query identically for the same
 * contents; the view is a frozen copy in the tree's own layout, so the traversal code is shared and the tree's hot
 * loops pay nothing for views.
 */
public abstract sealed class ReadableTree implements SpatialQueries permits DynamicAabbTree, ReadView {

    ReadableTree() {
    }

    /** The arrays the queries traverse: the tree itself, or a view's frozen copy. */
    abstract DynamicAabbTree storage();
}
