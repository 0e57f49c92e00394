package dev.boxwood.query;

/**
 * Caller-owned scratch memory of a query: a growable {@code int} stack of node references, a parallel
 * {@code double} stack of entry fractions, and visit counters.
 *
 * <p>Indexes keep no per-query state of their own, so any number of threads may query one index at once (while
 * no thread mutates it), each with its own {@code TraversalStack}. A stack is not thread-safe: use one per thread
 * (a field of the thread's own worker object, or a {@link ThreadLocal}). The arrays grow when an index asks for
 * more room (only when the tree has grown taller) and are then reused, so queries allocate nothing after warm-up.
 *
 * <p>The counters accumulate over queries until {@link #resetCounters()}: {@link #nodeVisits()} counts the
 * internal nodes an index opened and {@link #leafVisits()} the objects whose tight box it tested, the measures
 * Box2D reports as {@code b2TreeStats}.
 */
public final class TraversalStack {

    private int[] references;
    private double[] fractions;
    private long nodeVisits;
    private long leafVisits;

    /** A stack with room for a tree of height about 60; it grows on demand. */
    public TraversalStack() {
        this(64);
    }

    /**
     * A stack with the given initial room.
     *
     * @param initialCapacity initial number of entries, {@code >= 1}
     */
    public TraversalStack(int initialCapacity) {
        if (initialCapacity < 1) {
            throw new IllegalArgumentException("initialCapacity must be >= 1: " + initialCapacity);
        }
        references = new int[initialCapacity];
        fractions = new double[initialCapacity];
    }

    /**
     * The reference stack, grown to at least {@code capacity} entries. For indexes: the returned array is only
     * valid until the next call that may grow it.
     *
     * @param capacity the number of entries needed
     * @return the reference array
     */
    public int[] references(int capacity) {
        if (references.length < capacity) {
            references = new int[Math.max(capacity, references.length * 2)];
        }
        return references;
    }

    /**
     * The fraction stack, grown to at least {@code capacity} entries (parallel to {@link #references(int)}).
     *
     * @param capacity the number of entries needed
     * @return the fraction array
     */
    public double[] fractions(int capacity) {
        if (fractions.length < capacity) {
            fractions = new double[Math.max(capacity, fractions.length * 2)];
        }
        return fractions;
    }

    /**
     * Adds to the visit counters; indexes call it once per query.
     *
     * @param nodes internal nodes opened
     * @param leaves objects whose tight box was tested
     */
    public void countVisits(long nodes, long leaves) {
        nodeVisits += nodes;
        leafVisits += leaves;
    }

    /** @return internal nodes opened since the last {@link #resetCounters()} */
    public long nodeVisits() {
        return nodeVisits;
    }

    /** @return tight-box tests since the last {@link #resetCounters()} */
    public long leafVisits() {
        return leafVisits;
    }

    /** Sets both visit counters to zero. */
    public void resetCounters() {
        nodeVisits = 0;
        leafVisits = 0;
    }
}
