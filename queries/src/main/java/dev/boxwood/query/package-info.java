/**
 * The query vocabulary shared by every index of the library: object {@link dev.boxwood.query.Handles handles},
 * the read and write interfaces {@link dev.boxwood.query.SpatialQueries} and
 * {@link dev.boxwood.query.SpatialIndex}, visitors and their return protocols, filters, reusable hit collectors,
 * and the caller-owned {@link dev.boxwood.query.TraversalStack}.
 *
 * <p>Conventions: boxes are closed (touching counts); a segment is {@code origin + t * translation} for
 * {@code t} in {@code [0, maxFraction]} and a fraction is that {@code t}; a segment starting inside or on a box
 * enters it at fraction 0. Nothing here depends on a particular tree.
 */
package dev.boxwood.query;
