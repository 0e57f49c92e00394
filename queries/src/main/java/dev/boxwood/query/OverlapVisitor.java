package dev.boxwood.query;

/**
 * Receives the objects found by a region query (for example {@link SpatialQueries#queryAabb}).
 *
 * <p>Called once per object whose stored tight box overlaps the query region (closed: touching counts) and whose
 * category bits pass the query mask. The order of the calls is unspecified. Implementations are usually reused
 * fields; a lambda capturing locals allocates once per evaluation of the lambda expression, not per object.
 */
@FunctionalInterface
public interface OverlapVisitor extends PartAware {

    /**
     * Visits one object.
     *
     * @param handle the object's handle
     * @param userValue the value given when the object was added
     * @return {@code true} to continue the query, {@code false} to stop it at once
     */
    boolean visit(int handle, long userValue);
}
