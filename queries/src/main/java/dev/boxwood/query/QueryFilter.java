package dev.boxwood.query;

/**
 * A predicate the hit collectors apply to each candidate object before any exact test, for filtering that the
 * category mask cannot express (team, owner, a per-object flag in the user's own tables).
 */
@FunctionalInterface
public interface QueryFilter {

    /** A filter that accepts every object. */
    QueryFilter ACCEPT_ALL = (handle, userValue) -> true;

    /**
     * Whether the object takes part in the query.
     *
     * @param handle the object's handle
     * @param userValue the value given when the object was added
     * @return {@code true} to consider the object, {@code false} to ignore it
     */
    boolean accept(int handle, long userValue);
}
