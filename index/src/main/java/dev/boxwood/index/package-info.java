/**
 * The dynamic AABB tree and its queries.
 *
 * <ul>
 *   <li>{@link dev.boxwood.index.DynamicAabbTree}: a binary bounding volume hierarchy over objects with fattened
 *       boxes, for worlds that change every frame: add, move (O(1) while an object stays inside its fat box),
 *       remove; box queries and segment casts with category masks, zero allocation after warm-up, safe to query
 *       from many threads while no thread mutates. Configured by {@link dev.boxwood.index.TreeConfig} (float
 *       storage origin, margin, rotations).</li>
 *   <li>{@link dev.boxwood.index.DynamicAabbTree2D}: the same tree for rectangles in the plane.</li>
 * </ul>
 *
 * <p>Conventions, shared by the whole library: boxes are closed (touching counts, zero-size boxes are valid); a
 * segment is {@code origin + t * translation} for {@code t} in {@code [0, maxFraction]} and a fraction is that
 * {@code t}; a segment that starts inside or on a box enters it at fraction 0; bad arguments throw
 * {@link java.lang.IllegalArgumentException} naming the argument and leave the tree unchanged. The query protocol
 * (visitors, collectors, handles, {@link dev.boxwood.query.TraversalStack}) is in {@link dev.boxwood.query}. The
 * layout and algorithms are described in {@code docs/tree.md}.
 */
package dev.boxwood.index;
