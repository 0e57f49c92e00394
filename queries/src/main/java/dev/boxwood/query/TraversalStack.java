package dev.boxwood.query;

/**
 * Caller-owned scratch memory of a query: a growable {@code int} stack of node references, a parallel
 * {@code double} stack of entry fractions, the ring of windowed traversals ({@link #ring}), the objects a traversal
 * holds back ({@link #deferObject}), and visit counters. One query at a time per stack: a visitor that runs
 * another query needs a second stack, as the outer query would resume from what the inner one left. Every walk
 * marks the stack when it begins and throws {@link IllegalStateException} when it ends if another began on it
 * meanwhile ({@link #checkQuery}); a mapped world also checks what it takes back, so it never reads outside its
 * file.
 *
 * <p>Indexes keep no per-query state of their own, so any number of threads may query one index at once (while
 * no thread mutates it), each with its own {@code TraversalStack}. A stack is not thread-safe: use one per thread
 * (a field of the thread's own worker object, or a {@link ThreadLocal}). The arrays grow when an index asks for
 * more room (only when the tree has grown taller) and are then reused, so queries allocate nothing after warm-up.
 *
 * <p>The counters accumulate over queries until {@link #resetCounters()}: {@link #nodeVisits()} counts the
 * internal nodes an index opened and {@link #leafVisits()} the objects whose tight box it tested, the measures
 * Box2D reports as {@code b2TreeStats}.
 *
 * <p>An application only constructs stacks, hands them to queries and reads the counters; the other public
 * members ({@link #references}, {@link #ring}, {@link #deferObject}, {@link #beginQuery} and the like) are the side
 * an index implementation uses, public so that the indexes of every module (and one's own) share them.
 */
public final class TraversalStack {

    /** Nodes a windowed traversal keeps in breadth-first order before it goes depth first ({@link #ring}). */
    public static final int WINDOW = 32;
    /** {@link #window}: trees of fewer nodes are walked depth first. */
    public static final int SMALL_TREE_NODES = 2048;
    /** Objects a windowed traversal holds back before deciding them ({@link #deferObject}). */
    public static final int DEFERRED_OBJECTS = 64;
    /** {@link #defersObjects}: trees of fewer nodes decide each object at once. */
    public static final int DEFER_MIN_NODES = 1 << 18;

    /**
     * The window a windowed traversal of a tree of {@code nodes} nodes should use: {@link #WINDOW}, or 0 (depth
     * first) below {@link #SMALL_TREE_NODES}, where the node records (at most 128 KB) stay in a core's own cache,
     * nothing waits on memory and the breadth-first phase only costs. Measured on the dynamic tree's box queries in
     * interleaved A/B runs: over 300 objects 0.89x with the window, over 5,000 alike, over 12,000 1.07x.
     *
     * @param nodes the tree's node count
     * @return the window, in nodes
     */
    public static int window(long nodes) {
        return nodes < SMALL_TREE_NODES ? 0 : WINDOW;
    }

    /**
     * Whether a windowed traversal of a tree of {@code nodes} nodes should hold objects back
     * ({@link #deferObject}): from {@link #DEFER_MIN_NODES} (16 MB of 64-byte node records, more than most
     * last-level caches), where an object's user value and box are a trip to memory. Measured on the dynamic tree's
     * box queries in interleaved A/B runs, both orders: 1.18x at 1M objects and 1.19x at 300k; at 100k, where the
     * tree stays in the last-level cache, the runs ranged from 0.78x to 1.08x, so smaller trees do not defer.
     *
     * @param nodes the tree's node count
     * @return true if its windowed traversals should defer objects
     */
    public static boolean defersObjects(long nodes) {
        return nodes >= DEFER_MIN_NODES;
    }

    private int[] references;
    /** The ring of windowed traversals; its length is always a power of two. */
    private int[] ring = new int[2 * WINDOW];
    private double[] fractions;
    private float[] floats = new float[0];
    private long nodeVisits;
    private long leafVisits;
    private int retained;
    /** (reference, state) pairs of the objects held back by {@link #deferObject}. */
    private final int[] deferred = new int[2 * DEFERRED_OBJECTS];
    private int deferredCount;
    /** Walks begun on this stack ({@link #beginQuery}). */
    private int walks;

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
     * The ring of a windowed traversal, an int array apart from {@link #references(int)}: its length is a power of
     * two of at least {@code entriesPerNode * (WINDOW + height + 2)}, so positions wrap with {@code & (length - 1)}.
     * For indexes, valid until the next call that may grow it.
     *
     * <p>The windowed order serves the queries whose answer does not depend on the order of visits (box, region
     * and pair queries): while fewer than {@link #WINDOW} nodes wait, the oldest is taken (breadth first), else the newest
     * (depth first). A node's record is requested when it is pushed, so breadth first keeps up to {@code WINDOW}
     * cache misses in flight where depth first waits for one at nearly every step (the software pipelining of
     * independent lookups of Chen, Ailamaki, Gibbons and Mowry, "Improving hash join performance through
     * prefetching", ICDE 2004). Taking the newest once the window is full makes the rest a depth-first walk of
     * the newest subtree, which bounds the waiting nodes by {@code WINDOW + height + 2} whatever the query.
     *
     * @param height the tree's height (internal nodes on its longest path)
     * @param entriesPerNode ints pushed per node
     * @return the ring array
     */
    public int[] ring(int height, int entriesPerNode) {
        int needed = entriesPerNode * (WINDOW + height + 2);
        if (ring.length < needed) {
            // its own array: the reference stack grows to sizes that are not powers of two
            ring = new int[Integer.highestOneBit(needed - 1) << 1];
        }
        return ring;
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
     * A float lane for indexes that carry per-entry data with their stack entries (for example the decoded box of
     * each pushed node of a compressed tree), grown to at least {@code capacity} values and then reused. Like the
     * other lanes, only valid until the next call that may grow it.
     *
     * @param capacity the number of floats needed
     * @return the float array
     */
    public float[] floats(int capacity) {
        if (floats.length < capacity) {
            floats = new float[Math.max(capacity, floats.length * 2)];
        }
        return floats;
    }

    /**
     * For indexes: marks the start of a walk that keeps its state on this stack (references, fractions, the ring,
     * held-back objects, a shape copied into the fractions). Cheap enough for every query: one increment.
     *
     * @return the mark to pass to {@link #checkQuery}
     */
    public int beginQuery() {
        return ++walks;
    }

    /**
     * For indexes: checks, at the end of a walk begun with {@link #beginQuery} (and wherever earlier the walk
     * likes, after a callback), that no other walk began on this stack meanwhile. One that did (a query run on
     * this stack from inside one of the walk's callbacks, always caught; or another thread's query on it, caught
     * when this thread sees its mark) has overwritten the state the walk resumed from, so its answers cannot be
     * trusted.
     *
     * @param mark what {@link #beginQuery} returned
     * @throws IllegalStateException if another walk began on this stack since the mark
     */
    public void checkQuery(int mark) {
        if (walks != mark) {
            throw sharedScratch("TraversalStack");
        }
    }

    /**
     * For indexes: what a walk begun with {@link #beginQuery} should throw for an exception {@code e} it failed
     * with: {@code e} itself, or, if another walk began on this stack meanwhile, the exception of
     * {@link #checkQuery} with {@code e} as its cause (what the walk took back from the stack was the other walk's:
     * its own failure, an index out of range or a reference a file cannot hold, follows from that).
     *
     * @param e the walk's exception
     * @param mark what {@link #beginQuery} returned
     * @return the exception to throw
     */
    public RuntimeException failure(RuntimeException e, int mark) {
        if (walks == mark) {
            return e;
        }
        IllegalStateException shared = sharedScratch("TraversalStack");
        shared.initCause(e);
        return shared;
    }

    /** The exception of a walk whose scratch (a {@code TraversalStack} or {@code NearestNeighbours}) another used. */
    static IllegalStateException sharedScratch(String scratch) {
        return new IllegalStateException("another query ran on this " + scratch + " while this one was running (a"
                + " query run from inside a visitor, filter, exact test or distance function, or from another thread,"
                + " needs scratch of its own): this query's answers so far are undefined");
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

    /**
     * Keeps a value computed from early loads alive, so the JIT cannot drop the loads. Traversals read the first
     * word of a child's node as soon as they push it: the cache misses of both children of a node then overlap
     * with each other and with the rest of the node's work, instead of each being paid when the child is popped.
     * The value itself means nothing.
     *
     * @param value a value that depends on the early loads
     */
    public void retain(int value) {
        retained += value;
    }

    /**
     * Holds back an object that a windowed traversal has reached, with the traversal's state for it, until
     * {@link #DEFERRED_OBJECTS} are waiting or the traversal ends; the traversal then decides them in the order
     * they came ({@link #deferredObjects()}, {@link #deferredReference}, {@link #deferredState}) and calls
     * {@link #clearDeferredObjects()}. The caller reads the object's data (its user value, and its box when it must
     * be tested) when it defers it, into {@link #retain}: those cache misses then overlap each other and the rest of
     * the walk, and the visitor's own lookups keyed by the user value no longer wait behind them, where deciding
     * each object at once paid them one after another (the software pipelining of {@link #ring}, applied to the
     * objects). Used from {@link #defersObjects} on.
     *
     * <p>One traversal at a time: a visitor must not run another query with the stack its own query is using
     * (the ring and the held-back objects would be overwritten); nested queries take a second stack.
     *
     * @param reference the object's reference in the index
     * @param state the traversal's state for the object (for example whether its box still needs a test)
     * @return true when {@link #DEFERRED_OBJECTS} objects wait: the caller must decide them now
     */
    public boolean deferObject(int reference, int state) {
        int n = deferredCount;
        deferred[2 * n] = reference;
        deferred[2 * n + 1] = state;
        deferredCount = ++n;
        return n == DEFERRED_OBJECTS;
    }

    /** @return the number of objects held back by {@link #deferObject} since the last clear */
    public int deferredObjects() {
        return deferredCount;
    }

    /**
     * @param i an index below {@link #deferredObjects()}, in the order the objects were deferred
     * @return the reference passed to {@link #deferObject}
     */
    public int deferredReference(int i) {
        return deferred[2 * i];
    }

    /**
     * @param i an index below {@link #deferredObjects()}, in the order the objects were deferred
     * @return the state passed to {@link #deferObject}
     */
    public int deferredState(int i) {
        return deferred[2 * i + 1];
    }

    /** Forgets the objects held back by {@link #deferObject}; traversals call it when they start and after deciding. */
    public void clearDeferredObjects() {
        deferredCount = 0;
    }

    /** Sets both visit counters to zero. */
    public void resetCounters() {
        nodeVisits = 0;
        leafVisits = 0;
    }

    /**
     * The stack discipline of ordered casts (ray casts and sweeps of every index): a popped node's children that
     * the cast enters ({@code t >= 0}; a miss is {@link dev.boxwood.geom.Geom#NO_HIT}) are pushed as (reference,
     * entry fraction) pairs, the farther first, so the nearer is popped next (front-to-back order, as Jolt and
     * Box2D cast); on equal fractions child 0 is popped first. The caller makes room for two entries. A small
     * static method, inlined by the JIT, so the hot loops pay no call.
     *
     * @param refs the reference stack ({@link #references(int)})
     * @param fractions the parallel fraction stack ({@link #fractions(int)})
     * @param size the current stack size
     * @param ref0 reference of child 0
     * @param t0 entry fraction of child 0, or negative for a miss
     * @param ref1 reference of child 1
     * @param t1 entry fraction of child 1, or negative for a miss
     * @return the new stack size
     */
    public static int pushNearLast(int[] refs, double[] fractions, int size, int ref0, double t0, int ref1,
                                   double t1) {
        int sp = size;
        if (t0 >= 0) {
            if (t1 >= 0) {
                if (t1 < t0) {
                    refs[sp] = ref0;
                    fractions[sp++] = t0;
                    refs[sp] = ref1;
                    fractions[sp++] = t1;
                } else {
                    refs[sp] = ref1;
                    fractions[sp++] = t1;
                    refs[sp] = ref0;
                    fractions[sp++] = t0;
                }
            } else {
                refs[sp] = ref0;
                fractions[sp++] = t0;
            }
        } else if (t1 >= 0) {
            refs[sp] = ref1;
            fractions[sp++] = t1;
        }
        return sp;
    }
}
