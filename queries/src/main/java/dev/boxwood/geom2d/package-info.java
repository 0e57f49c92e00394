/**
 * The 2D geometry kernel: allocation-free static tests on primitive doubles, for top-down and side-on game
 * worlds.
 *
 * <p>Conventions (also in {@code docs/conventions.md}, section "2D kernel"):
 * <ul>
 *   <li><b>Closed shapes.</b> Every shape includes its boundary; touching counts as overlap or hit.</li>
 *   <li><b>Rectangles</b> are axis-aligned and given to the kernels as {@code minX, minY, maxX, maxY}. The
 *       value types {@link dev.boxwood.geom2d.RectMinMax}, {@link dev.boxwood.geom2d.RectCenter} and
 *       {@link dev.boxwood.geom2d.RectCorner} hold the three usual representations and convert between them.
 *       The direction of the y axis does not matter: "corner" is always the corner with the smallest
 *       coordinates (the top-left one on a y-down screen).</li>
 *   <li><b>Circles</b> are {@code centerX, centerY, radius}; <b>triangles</b> are three vertices {@code a, b, c}
 *       in either winding.</li>
 *   <li><b>Segments that move</b> (the first shape of every {@code intersectSegment...} method) are
 *       {@code p(t) = origin + t * translation} for {@code t} in {@code [0, maxFraction]}; a <em>fraction</em>
 *       is that {@code t}, in units of the translation vector. A segment that starts inside a solid shape enters
 *       it at fraction 0. A miss returns {@link dev.boxwood.geom.Geom#NO_HIT} ({@code -1.0}). Segments that are
 *       shapes (an edge, the target of a closest-point query) are given by their two endpoints.</li>
 *   <li><b>Results with several values</b> go into a small mutable object that the caller allocates once and
 *       reuses ({@link dev.boxwood.geom2d.Vector2}, {@link dev.boxwood.geom2d.Hit2},
 *       {@link dev.boxwood.geom2d.SegmentHit2}); no kernel call allocates.</li>
 *   <li><b>Degenerate shapes behave as their limits</b>: a zero-length segment is a point, a circle of radius 0
 *       is a point, a rectangle of zero width or height is a segment or a point, a triangle whose vertices are
 *       collinear is a segment (or a point). No kernel returns NaN for finite input.</li>
 *   <li><b>Far from the origin.</b> Every product is taken of coordinate differences (for example
 *       {@code (b - a) x (c - a)}), never of raw coordinates, so results keep their relative accuracy at
 *       coordinates of 1e5 to 1e7.</li>
 *   <li><b>No validation in the kernels.</b> The static methods of {@link dev.boxwood.geom2d.Geom2},
 *       {@link dev.boxwood.geom2d.Closest2}, {@link dev.boxwood.geom2d.Intersect2} and
 *       {@link dev.boxwood.geom2d.Response2} are inner loops and trust their input (finite coordinates,
 *       {@code min <= max}, radius {@code >= 0}, {@code maxFraction >= 0}); the rectangle value types validate.</li>
 * </ul>
 */
package dev.boxwood.geom2d;
