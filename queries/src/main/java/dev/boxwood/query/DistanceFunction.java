package dev.boxwood.query;

/**
 * The exact distance from a point to the user's own geometry of one object, called by nearest-neighbour queries
 * after the index has reached the object by its box distance.
 *
 * <p>The returned distance must be at least the distance from the point to the object's stored tight box (the
 * shape lies inside its box), because the query prunes with box distances; a negative value (or NaN) drops the
 * object from the query (a filter). So does a distance whose square overflows (above about 1.34e154, or
 * infinite), which no shape inside a box the index holds can be from a point it accepts: the queries order and
 * report distances through their squares.
 */
@FunctionalInterface
public interface DistanceFunction {

    /**
     * The distance from the query point to the object's exact shape.
     *
     * @param handle the object's handle
     * @param userValue the value given when the object was added
     * @param x query point x (world coordinates)
     * @param y query point y
     * @param z query point z
     * @return the distance, {@code >=} the distance to the object's tight box; negative (or too large to square)
     *         to drop the object
     */
    double distance(int handle, long userValue, double x, double y, double z);
}
