package dev.boxwood.query;

/**
 * What a region query (sphere, oriented box, frustum, convex polyhedron) reports about each object's stored tight
 * box. Every mode tests the stored tight box (never the tree's fattened box), applies the category mask and the
 * filter first, and is closed: touching counts.
 */
public enum RegionMode {

    /**
     * Exact crossing selection: every object whose tight box overlaps the region, and only those. For spheres
     * the canonical sphere-box test, for oriented boxes the 15-axis separating axis test (with its tiny
     * conservative epsilon), for convex regions the plane test followed by the exact separating axis test of
     * {@link ConvexRegion#testBox} (within its tolerance), so a box beyond an edge or corner of a frustum is not
     * reported. Convex regions must be {@link ConvexRegion#isBounded() bounded}.
     */
    CROSSING,

    /**
     * Conservative crossing: for convex regions the plane test only (a box is reported unless it lies outside a
     * single plane), so it may report boxes near an edge or corner of the region that do not meet it, but never
     * misses one that does; works for unbounded regions and costs nothing beyond the plane test. For spheres and
     * oriented boxes it is the same as {@link #CROSSING}.
     */
    CROSSING_CONSERVATIVE,

    /**
     * Window selection: every object whose tight box lies entirely inside the closed region (all eight corners
     * inside), and only those. Exact up to the rounding of the corner distances. The stored tight box is the given
     * box rounded outward to floats relative to the index's origin (at most one float step per side), so a given
     * box flush with the region's boundary is selected only where that rounding is exact, as for coordinates on a
     * grid near the origin (a static world's writer puts its origin on a power-of-two grid); widen the region by
     * a tolerance to keep flush boxes anywhere.
     */
    WINDOW
}
