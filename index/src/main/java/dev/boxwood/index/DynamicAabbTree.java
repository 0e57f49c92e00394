package dev.boxwood.index;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.Handles;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.query.TraversalStack;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.ConcurrentModificationException;

/**
 * A dynamic bounding volume hierarchy of axis-aligned boxes with fattened leaves, for game worlds whose objects
 * are added, moved and removed every frame.
 *
 * <h2>Objects</h2>
 * {@link #add} takes an object's tight box (doubles), an opaque {@code long} user value and 64 category bits, and
 * returns an {@code int} {@link Handles handle} (24-bit slot, 7-bit generation); a handle used after
 * {@link #remove} throws {@link IllegalArgumentException}, and no later add gives it out again before
 * {@code 128 * }{@link Handles#QUARANTINE} removals (see {@link #remove}). The tight box is stored as floats
 * relative to the tree's origin, rounded outward ({@link dev.boxwood.query.OutwardFloat}); every query answer is
 * exact for that stored box. The tree itself indexes a <em>fat</em> box per object: the tight box grown by a margin
 * (see {@link TreeConfig}) and extended ahead by the displacement of {@link #move(int, double, double, double,
 * double, double, double, double, double, double)} times the configured prediction (default 4). A move whose new
 * tight box stays inside the fat box costs O(1); one that escapes gets a new fat box, as does one whose fat box
 * reaches further from the tight box, on some side, than four times (margin + prediction * |displacement|) on that
 * axis, so an object that slowed down or stopped does not keep a stale, swollen box (Box2D v2.4's rule, applied to
 * both sides). A new fat box inside the box of the leaf's parent is written in place and the ancestors refitted;
 * otherwise the leaf is re-inserted.
 *
 * <h2>Structure</h2>
 * A binary tree in flat primitive arrays: each internal node is one 64-byte record holding the boxes of <em>both</em>
 * its children (12 floats), their references and their category masks, so one visit of a node tests two children
 * from one cache line (the node pairs of bepu v2 and Box2D 3.1). A child reference {@code >= 0} is an internal node, a
 * negative one {@code ~handle} is an object; an object's fat box lives in its parent's child entry. A header node
 * 0 holds the root in its first entry, so the root needs no special case. Insertion chooses the sibling that
 * minimises the surface area heuristic by branch and bound (Bittner, Hapala, Havran 2013/2015), then rotates
 * nodes on the way up (Kopta et al. 2012: Box2D's {@code b2RotateNodes} swaps and, after an add, the grandchild
 * swaps), and every 64 adds by default runs one {@link #optimize(int) optimize(1)} step. See {@code docs/tree.md}.
 *
 * <h2>Deferred adds</h2>
 * With {@link TreeConfig#withDeferredAdds deferred adds}, {@link #add} stores the object (its handle, boxes, user
 * value and categories are final at once) and leaves it <em>pending</em>; the pending objects go into the hierarchy
 * together when something next reads it: any query (of this class or of the query classes, {@link PairQueries}'s
 * moved pairs included), {@link #height}, {@link #areaRatio}, {@link #getFatBox}, a snapshot's {@code publish}, a
 * structural change ({@link #rebuild}, {@link #optimize}, {@link #compact}, {@link #addAll}, {@link #spliceSubtree}),
 * or {@link #flushAdds()} at a moment of the caller's choosing. Many go in by one binned-SAH rebuild of the whole
 * tree, as PhysX's pruners take in their new objects in bulk and Jolt's broad phase adds bodies in batches: a
 * million adds then cost about a sixth of a million insertions and give a bulk-built tree; fewer go in as
 * {@link #addAll} takes a batch, and a handful by the insertion {@code add} does without deferral. Either way an
 * object's fat box is the one an immediate {@code add} gives, made at the add from the double input and kept with
 * the pending object (arrays of 32 bytes per pending object they can hold, kept for the next adds, dropped after a
 * large load taken in by a rebuild). Pending objects can be moved (the fat
 * box is then that of an add of the new box: a displacement counts from the first move after the object went in),
 * recategorised and removed like any other. A query that takes them
 * in writes to the tree, under a lock, so concurrent queries on many threads stay safe: one does the work and the
 * others wait for it; that query may also allocate (the rebuild's or the batch's scratch, grown node arrays).
 * The rebuild runs on the common fork/join pool; should that pool hand the thread doing it, while it waits for its
 * parallel build, a task that queries this tree (queries running as fork/join tasks), that query throws
 * {@link IllegalStateException} rather than read a half-built hierarchy ({@link #flushAdds()} first avoids it).
 * {@link #validate()} checks the pending objects as they are, without taking them in.
 *
 * <h2>Queries and threads</h2>
 * Queries ({@link #queryAabb}, {@link #rayCast}) allocate nothing, keep their scratch state in the caller's
 * {@link TraversalStack}, and never write to the tree (except to take in pending deferred adds, once, under a
 * lock, which may allocate: above): any number of threads may query concurrently while no thread mutates.
 * Mutations are not thread-safe. Category masks prune whole subtrees: each child entry stores the
 * OR of the categories below it.
 *
 * <p>Callbacks (visitors, filters, exact tests, distance functions) must not change the tree, nor read it in a
 * way that takes deferred adds in: collect the handles and change the tree once the query has returned. A change
 * of structure under a running query leaves the tree valid but would leave the query's answers undefined (objects
 * missed, removed handles reported), so it is detected, fail-fast as in {@code java.util}'s collections: the tree
 * counts its structural changes, every query on the live tree (its own {@link #queryAabb} and {@link #rayCast},
 * {@link RegionQueries}, {@link SweepQueries}, {@link NearestQueries}, {@link PairQueries}, {@link BatchQueries},
 * {@link #visitNodes}) reads the count when its walk starts (after taking pending adds in) and compares it when
 * the walk ends, and on a difference throws {@link java.util.ConcurrentModificationException} saying the tree
 * changed during the query; so does a walk that fails on the changed tree (an index out of range, a removed
 * handle), with that failure as the cause. The count changes with {@link #add}, {@link #remove},
 * {@link #removeAll}, a {@link #move} that refits or re-inserts the object (one whose new tight box stays inside
 * its fat box only stores that box, O(1), and is not counted: the query may then decide that object by its old
 * box or its new one), {@link #setCategoryBits} (the masks a walk prunes by), {@link #clear}, {@link #rebuild},
 * {@link #optimize}, {@link #compact}, {@link #addAll}, {@link #spliceSubtree}, {@link #moveOrigin} and the taking
 * in of pending adds;
 * not with {@link #setUserValue}. It costs a query two reads of one field and allocates nothing. The same check
 * catches, when the querying thread happens to see it, a change made by another thread without synchronisation
 * (the count is a plain field: the rule above stands, and the check is no substitute for it). Read views are
 * immutable and never throw it. A query run from inside a callback needs its own {@link TraversalStack} (and
 * collector): every walk marks its stack when it begins and checks the mark when it ends, so a query nested on the
 * running query's stack makes the running query throw {@link IllegalStateException} instead of answering from what
 * the nested one left.
 *
 * <h2>Validation</h2>
 * Every public method validates its arguments (NaN, infinities, inverted boxes, stale handles) before changing
 * anything and throws {@link IllegalArgumentException} naming the argument; a rejected call leaves the tree
 * unchanged. {@link #validate()} checks every structural invariant.
 */
public final class DynamicAabbTree extends ReadableTree implements SpatialIndex {

    /** The header node; its entry 0 holds the root, its entry 1 is always empty. */
    static final int HEADER = 0;
    /** Reference of an empty entry (never a node, never {@code ~handle} of a valid handle). */
    static final int EMPTY = Integer.MIN_VALUE;
    /** Entry floats: minX, minY, minZ, maxX, maxY, maxZ. */
    static final int BOX = 6;
    /** Ints per node record (64 bytes): two entry boxes, two child references, two folded category masks. */
    static final int NODE = 16;
    /** Record offset of the child references. */
    static final int REF = 12;
    /** Record offset of the folded category masks. */
    static final int MASK = 14;
    /**
     * Ints before node 0's record. With HotSpot's 16-byte array header, records then start 64 bytes into the array
     * object, which G1 places at a region boundary once the array is large (a humongous object): each record is
     * then exactly one cache line. Smaller arrays are cache resident anyway.
     */
    static final int BASE = 12;
    /** Height mark of a node on the free list. */
    private static final int FREE = -1;
    /**
     * The farthest a fat box reaches from the origin: the tight boxes' own limit ({@link OutwardFloat#MAX_OFFSET}),
     * so that fat boxes are storable too and the builder, which checks that, takes them in a rebuild.
     */
    private static final double FAT_LIMIT = OutwardFloat.MAX_OFFSET;
    /** Re-insert a leaf whose fat box exceeds the tight box grown by this many margins and displacements. */
    private static final double SHRINK_FACTOR = 4.0;
    /**
     * Adds renumber the nodes depth first ({@link #compact}) when the nodes ever used reach this many, then again at
     * every 1.5x of the nodes in use: amortised O(1) per add. Below it the nodes are cache resident, where their
     * order in memory does not matter.
     */
    static final int RENUMBER_MIN_NODES = 4096;
    /** Levels above a moved object's old place where the search for its new sibling may start at the lowest. */
    private static final int MOVE_LOOKAHEAD = 3;

    /** The storage origin: fixed but for {@link #moveOrigin}. */
    private double originX;
    private double originY;
    private double originZ;
    private final double marginCap;
    private final double marginFraction;
    /** Displacements ahead that a re-inserted object's fat box reaches ({@link TreeConfig#prediction()}). */
    private final double prediction;
    private final boolean rotations;
    /** {@link TreeConfig#addsPerOptimization()}: every this many adds, one {@link #optimize} step (0: never). */
    private final int addsPerOptimization;
    private int addsSinceOptimization;
    /** {@link TreeConfig#addRenumbering()}. */
    private final boolean addRenumbering;
    /** 2D facade: boxes lie in the z = 0 plane, the cost is the perimeter and z gets no margin. */
    private final boolean planar;
    /** {@link TreeConfig#deferredAdds()}. */
    private final boolean deferredAdds;

    // ---- Node storage: the one place that holds the hierarchy. Entry e = 2 * node + side. ----
    /**
     * One record of {@link #NODE} ints per node, from {@link #BASE}: for each entry its box (6 float bits: the
     * child's box, an object's fat box or the union of an internal node's entries) at {@link #box}, its child
     * reference ({@code >= 0} internal node, {@code ~handle} object, {@link #EMPTY}) at {@link #refIndex}, and the
     * {@link #fold folded} OR of the category bits of every object below at {@link #mask}. One array, so a node
     * visit loads one record where parallel arrays would miss the cache once per array.
     */
    int[] records;
    /** Per node: the entry that references it ({@code -1} for the header); next free node for free nodes. */
    int[] parentEntries;
    /** Per node: 1 + the larger height of its children (objects have height 0); {@link #FREE} when free. */
    int[] heights;
    private int nodeCapacity;
    int nodeHighWater;
    int freeNode = -1;
    int freeNodeCount;
    /** {@link #add} renumbers the nodes depth first when {@link #nodeHighWater} reaches this. */
    int renumberMark = RENUMBER_MIN_NODES;
    /** Per node: changed since the last {@link #rebuild} (Box2D's enlarged flag); a partial rebuild redoes these. */
    boolean[] touched;

    // ---- Object storage, per slot (structure of arrays). ----
    final Handles handles;
    /** Per slot, 6 floats: the stored tight box relative to the origin. */
    float[] tight;
    long[] userValues;
    /** Per slot: the object's 64 category bits (entries hold only their {@link #fold fold}). */
    long[] objectCategories;
    /** Per slot: the entry that holds the object's fat box. */
    int[] leafEntries;
    /**
     * Per slot, 6 floats: a copy of the object's fat box, as its leaf entry (or, pending, its pending record) holds
     * it, so that the test of a move that stays inside it reads memory in slot order rather than a node record at
     * random: 24 bytes per object for about a quarter more moves per second (see {@code docs/tree.md}, Fat boxes
     * and moves). Written wherever an object's fat box is made; {@link #validate()} checks the two agree. Null in
     * a read view's copy, which never moves anything.
     */
    float[] leafFat;

    // ---- Insertion scratch (mutations are single-threaded): the sibling search's stack of (inherited cost, node). ----
    private double[] searchKeys = new double[64];
    private int[] searchNodes = new int[64];
    /** Keeps the sibling search's early record reads alive (see {@link TraversalStack#retain}); means nothing. */
    private int searchRetained;
    /** Fat box of the leaf being inserted. */
    private final float[] fatScratch = new float[BOX];
    // ---- Deferred adds ({@link TreeConfig#withDeferredAdds}): objects stored but not yet in the hierarchy. ----
    /**
     * The pending objects, the first {@link #pendingCount}: handle, fat box (6 floats, made by {@link #add}, or a
     * {@link #move} while pending, from the double input as an immediate add makes it) and folded category mask, so that taking them in reads these
     * arrays in order instead of each object's slot. A pending object's {@link #leafEntries} value is
     * {@code -1 - its position here} (entries are {@code >= 0}).
     */
    int[] pendingHandles = new int[0];
    float[] pendingFat = new float[0];
    int[] pendingMasks = new int[0];
    private int pendingCount;
    /**
     * Set by the first pending add, cleared once the pending objects are in. The one field a query reads to learn
     * whether to take them in first; volatile, so that a reader that finds it clear also sees the hierarchy the
     * reader that took them in wrote (queries may run on many threads at once).
     */
    private volatile boolean hasPending;
    /** Serialises taking in the pending objects between concurrent readers. */
    private final Object flushLock = new Object();
    /** Set under {@link #flushLock} while pending objects go in: a re-entry on the same thread is refused. */
    boolean takingIn;
    /** How the pending objects were taken in so far (tests check which way ran): by a rebuild, a batch, one by one. */
    int rebuildFlushes;
    int batchFlushes;
    int insertionFlushes;
    /** Parts of batches ({@link #addAll}, or pending objects taken in as one) inserted whole (tests). */
    int batchPartsInsertedWhole;

    /** Objects added or moved since the last {@link PairQueries#movedPairs} call. */
    final MovedSet moved = new MovedSet();
    /**
     * Structural changes so far, the fail-fast count of {@code java.util}'s collections: bumped by every change a
     * running walk could trip over (see the class comment, Queries and threads), read by each walk of this storage
     * when it starts and compared when it ends ({@link #checkUnchanged}). A plain field, so a change made on another
     * thread without synchronisation is caught only when this thread happens to see it.
     */
    int modCount;
    /**
     * Incremental optimisation state; made with the tree, so that the optimisation step of the first adds
     * allocates nothing (its scratch grows only for larger budgets).
     */
    private final TreeOptimizer optimizer = new TreeOptimizer(this);

    /** A tree with the {@link TreeConfig#defaults() default} settings (origin 0, margin min(0.1, 1/8 edge)). */
    public DynamicAabbTree() {
        this(TreeConfig.defaults());
    }

    /**
     * A tree with the given settings.
     *
     * @param config the settings
     */
    public DynamicAabbTree(TreeConfig config) {
        this(config, false);
    }

    DynamicAabbTree(TreeConfig config, boolean planar) {
        this(config, planar, config == null ? 0 : config.initialCapacity);
    }

    /**
     * A tree whose arrays hold {@code config}'s initial capacity, and whose move buffer holds
     * {@code movedCapacity} objects before it grows (a bulk build reserves the arrays for its objects, but not the
     * buffer, which only objects added or moved later fill).
     */
    DynamicAabbTree(TreeConfig config, boolean planar, int movedCapacity) {
        Arguments.requireNonNull("config", config);
        this.originX = config.originX;
        this.originY = config.originY;
        this.originZ = config.originZ;
        this.marginCap = config.marginCap;
        this.marginFraction = config.marginFraction;
        this.prediction = config.prediction;
        this.rotations = config.rotations;
        this.addsPerOptimization = config.addsPerOptimization;
        this.addRenumbering = config.addRenumbering;
        this.planar = planar;
        this.deferredAdds = config.deferredAdds;
        int objects = config.initialCapacity;
        handles = new Handles(objects);
        growObjects(handles.capacity());
        moved.reserve(movedCapacity);
        growNodes(objects + 1);
        nodeHighWater = 1;
        parentEntries[HEADER] = -1;
        heights[HEADER] = 1;
        clearEntry(0);
        clearEntry(1);
    }

    // =================================================================================================
    // Mutation
    // =================================================================================================

    /**
     * {@inheritDoc}
     *
     * <p>O(log n) for a balanced tree: a branch-and-bound search for the best sibling, then rotations on the way
     * up. Every {@link TreeConfig#addsPerOptimization()} adds (default 64) the add also runs one step of
     * {@link #optimize(int) optimize(1)}; {@link TreeConfig#withAddOptimization(int) withAddOptimization(0)} turns
     * that off. Once {@value #RENUMBER_MIN_NODES} internal nodes are in use, and again whenever their number has
     * grown by half since, the add first renumbers the nodes in depth-first memory order ({@link #compact}, without
     * the trimming): amortised O(1), but that one add takes O(n) (about 0.1 to 0.2 s around a million objects,
     * 0.37 s at 1.8 million on a 2-core machine; a world whose object count stays level does not renumber again);
     * {@link TreeConfig#withAddRenumbering(boolean) withAddRenumbering(false)} turns that off. With
     * {@link TreeConfig#withDeferredAdds deferred adds}, none of this happens here: the object waits, pending, for
     * the next query or {@link #flushAdds()} (see the class comment), and the add is O(1).
     *
     * @throws IllegalStateException if the tree already holds {@link Handles#MAX_SLOTS}{@code  - 1} objects (the
     *                               batch methods, which know their count up front, reject such a batch with an
     *                               {@link IllegalArgumentException} instead)
     */
    @Override
    public int add(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                   long userValue, long categoryBits) {
        Arguments.requireStorableBox(originX, originY, originZ, minX, minY, minZ, maxX, maxY, maxZ);
        if (deferredAdds) {
            reservePending();
        }
        int handle = handles.allocate();
        modCount++;
        int slot = handle & Handles.SLOT_MASK;
        if (handles.capacity() > userValues.length) {
            growObjects(handles.capacity());
        }
        storeTight(slot, minX, minY, minZ, maxX, maxY, maxZ);
        userValues[slot] = userValue;
        objectCategories[slot] = categoryBits;
        if (deferredAdds) {
            enqueuePending(handle, minX, minY, minZ, maxX, maxY, maxZ, categoryBits);
            moved.mark(slot);
            return handle;
        }
        // Before the search, which holds node numbers.
        renumberIfGrown();
        insertLeaf(slot, minX, minY, minZ, maxX, maxY, maxZ, 0, 0, 0, 1.0);
        moved.mark(slot);
        // Amortised repair of what a greedy order of insertions leaves behind (Bullet's broad phase likewise runs an
        // incremental optimisation every step): with the default of one re-insertion per 64 adds, a million
        // one-by-one insertions end at 1.09x a fresh build instead of 1.11x, for about 1% more time.
        countAdd();
        return handle;
    }

    @Override
    public void move(int handle, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        move(handle, minX, minY, minZ, maxX, maxY, maxZ, 0, 0, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The fat box of a re-inserted leaf is the tight box grown by the margin and extended by the displacement
     * times the configured prediction ({@link TreeConfig#withPrediction}), on the side it points to. If the new tight box stays inside the current fat box (and that box is not
     * oversized, see the class comment), only the tight box is updated: O(1), no allocation.
     */
    @Override
    public void move(int handle, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                     double displacementX, double displacementY, double displacementZ) {
        Arguments.requireStorableBox(originX, originY, originZ, minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireDisplacement(displacementX, displacementY, displacementZ);
        int slot = handles.slotOf(handle, "handle");
        storeTight(slot, minX, minY, minZ, maxX, maxY, maxZ);
        moved.mark(slot);
        int entry = leafEntries[slot];
        if (entry < 0) {
            // Pending: the fat box an add gives, for the new box (a displacement counts from the first move in)
            int position = BOX * (-1 - entry);
            storeFatBox(pendingFat, position, minX, minY, minZ, maxX, maxY, maxZ, 0, 0, 0);
            keepFatCopy(slot, pendingFat, position);
            return;
        }
        if (fatBoxStillFits(slot, minX, minY, minZ, maxX, maxY, maxZ,
                displacementX, displacementY, displacementZ)) {
            return;
        }
        // from here on node boxes change (a refit) or the leaf moves (a re-insertion)
        modCount++;
        float[] f = fatScratch;
        storeFatBox(f, 0, minX, minY, minZ, maxX, maxY, maxZ, prediction * displacementX, prediction * displacementY,
                prediction * displacementZ);
        keepFatCopy(slot, f, 0);
        int parent = entry >> 1;
        if (parent == HEADER || entryContains(parentEntries[parent], f)) {
            // Refit in place (the refit of Kopta et al. 2012): the new fat box lies inside the parent's box, so no
            // node grows and the tree's cost cannot rise, and a re-insertion (a detach, a search, a node
            // allocation, two refits) would buy nothing. Nothing grows, so there is nothing for rotations to repair
            // either (they changed no area ratio in our runs). Refitting in place also when the new box only stays
            // inside the grandparent's box, with rotations, was no faster than re-inserting.
            setEntry(entry, ~handle, records[maskIndex(entry)], f[0], f[1], f[2], f[3], f[4], f[5]);
            refitBoxesUpward(parent);
            return;
        }
        int near = detachEntry(entry);
        // Without grandchild swaps: a moving tree stays within 1.02x of a fresh build with the four child swaps,
        // and the grandchild swaps cost 12% of the move throughput in an interleaved A/B run.
        insertReference(~handle, fold(objectCategories[slot]), f[0], f[1], f[2], f[3], f[4], f[5],
                searchStart(near, f), false);
    }

    /**
     * {@inheritDoc}
     *
     * <p>O(height) at most: the leaf's sibling takes its parent's place and the ancestors are refitted up to the
     * first one that comes out unchanged (a pending deferred add is only dropped from the pending list). The handle
     * stays stale for a long time: its slot is {@link Handles quarantined}, so no later {@link #add} (nor batch) can
     * hand the same handle out again before {@code 128 * }{@link Handles#QUARANTINE} removals (131,072) have been
     * made, this one included; until then every method taking it throws and {@link #contains} answers
     * {@code false}, whatever was added since. (The quarantine gives way only once every usable slot has been used;
     * see {@link Handles}.)
     */
    @Override
    public void remove(int handle) {
        int slot = handles.slotOf(handle, "handle");
        modCount++;
        if (leafEntries[slot] < 0) {
            dequeuePending(slot);
        } else {
            removeLeaf(slot);
        }
        moved.unmark(slot);
        handles.free(handle);
    }

    /**
     * Removes many objects at once, all or none: every handle is checked (live, and not listed twice) before the
     * first object goes, so a stale handle in the middle of the list leaves the tree as it was instead of half
     * emptied. Each object is then removed as {@link #remove} removes it (O(m log n) for m objects), in the
     * order given.
     *
     * @param handles the handles of the objects to remove; may be empty
     * @throws IllegalArgumentException naming the element, and removing nothing: {@code handles} null, an element
     *         that is not a live handle of this tree, or one listed twice
     */
    public void removeAll(int[] handles) {
        Arguments.requireNonNull("handles", handles);
        for (int i = 0; i < handles.length; i++) {
            this.handles.slotOf(handles[i], "handles[" + i + "]");
        }
        int[] sorted = handles.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new IllegalArgumentException("handles lists handle " + sorted[i] + " more than once");
            }
        }
        for (int handle : handles) {
            remove(handle);
        }
    }

    /**
     * Removes every object at once, for example to load the next level into the same tree: every handle becomes
     * stale (a later use of one throws, as after {@link #remove}, and each slot is quarantined as by
     * {@code remove}: no handle comes back before {@code 128 * }{@link Handles#QUARANTINE} removals, those of the
     * clear included), pending {@link TreeConfig#withDeferredAdds deferred adds} are dropped, and the moved-object
     * list of {@link PairQueries#movedPairs} is emptied. O(slots and nodes ever used), no allocation: the arrays
     * keep their capacity ({@link #compact()} trims the node arrays). The first refill to the former size takes up
     * to {@code QUARANTINE - 1} fresh slots (the slots freed last still wait), which may grow the per-object arrays
     * once; later clears and refills of that size grow nothing (except, once, the moved-object list of a tree made
     * by {@link #build}, which reserves none: its first refill marks every object moved, as adds do). Settings and
     * origin stay.
     */
    public void clear() {
        modCount++;
        for (int slot = 0, end = handles.highWater(); slot < end; slot++) {
            if (handles.isLiveSlot(slot)) {
                handles.free(handles.handleOf(slot));
            }
        }
        moved.clear();
        pendingCount = 0;
        hasPending = false;
        dropFreeNodes();
        renumberMark = RENUMBER_MIN_NODES;
        addsSinceOptimization = 0;
        parentEntries[HEADER] = -1;
        heights[HEADER] = 1;
        clearEntry(0);
        clearEntry(1);
    }

    /** Forgets every internal node, the free ones included; only for a hierarchy that uses none (see rebuild). */
    void dropFreeNodes() {
        Arrays.fill(touched, 0, nodeHighWater, false);
        nodeHighWater = 1;
        freeNode = -1;
        freeNodeCount = 0;
    }

    /**
     * Replaces an object's user value. O(1).
     *
     * @param handle a live handle
     * @param userValue the new value
     * @throws IllegalArgumentException for a stale handle
     */
    public void setUserValue(int handle, long userValue) {
        userValues[handles.slotOf(handle, "handle")] = userValue;
    }

    /**
     * Replaces an object's category bits; the category masks of its ancestors are updated on the way up, stopping
     * as soon as one is unchanged. O(height) at most, no re-insertion.
     *
     * @param handle a live handle
     * @param categoryBits the new categories
     * @throws IllegalArgumentException for a stale handle
     */
    public void setCategoryBits(int handle, long categoryBits) {
        int slot = handles.slotOf(handle, "handle");
        // the folded masks a walk prunes by change
        modCount++;
        objectCategories[slot] = categoryBits;
        int entry = leafEntries[slot];
        if (entry < 0) {
            pendingMasks[-1 - entry] = fold(categoryBits);
            return;
        }
        final int[] r = records;
        r[maskIndex(entry)] = fold(categoryBits);
        for (int node = entry >> 1; node != HEADER; node = entry >> 1) {
            entry = parentEntries[node];
            int o = recordIndex(node) + MASK;
            int mask = r[o] | r[o + 1];
            if (r[maskIndex(entry)] == mask) {
                return;
            }
            r[maskIndex(entry)] = mask;
        }
    }

    /**
     * Builds a tree over many objects at once with the binned surface area heuristic (Wald 2007, through the shared
     * {@link dev.boxwood.index.build.BinnedSahBuilder}): much faster than {@link #add adding} them one by one, and
     * usually of better {@link #areaRatio() quality}. Each object gets the fat box {@link #add} would give it
     * (margin, no displacement). The handle of box {@code i} is {@code i}: handles are {@code 0 .. n-1} in input
     * order and work with {@link #move}, {@link #remove} and every other method like handles from {@link #add}.
     * Large inputs are built on the common fork/join pool, with the same result for every pool size; the arrays
     * passed in are only read, and only during the call. Unless the settings set an origin
     * ({@link TreeConfig#withOrigin}), the tree's origin is the centre of the boxes' bounds, chosen as the static
     * world writer chooses it ({@link dev.boxwood.index.build.BinnedSahBuilder#originOf}), so a world far from zero
     * keeps its resolution; {@link #originX()} and its siblings report it.
     *
     * @param config the settings (the initial capacity is raised to the object count)
     * @param boxes the tight boxes, stride 6: object {@code i} is {@code minX, minY, minZ, maxX, maxY, maxZ} at
     *              {@code 6 i}; finite, {@code min <= max} (closed boxes, zero extent allowed)
     * @param userValues one user value per object, or {@code null} for all 0
     * @param categories one set of category bits per object, or {@code null} for all categories ({@code -1L})
     * @return the new tree, valid ({@link #validate()}) and holding {@code boxes.length / 6} objects
     * @throws IllegalArgumentException naming the argument, and building nothing: {@code config} or {@code boxes}
     *         null, a length of {@code boxes} not a multiple of 6, a non-finite or inverted box or one reaching more
     *         than {@link OutwardFloat#MAX_OFFSET} from the origin, {@code userValues} or
     *         {@code categories} not one per box, more objects than {@link Handles#MAX_SLOTS}{@code  - 1}
     */
    public static DynamicAabbTree build(TreeConfig config, double[] boxes, long[] userValues, long[] categories) {
        return TreeBuild.build(config, boxes, userValues, categories, null);
    }

    /**
     * Builds a tree like {@link #build(TreeConfig, double[], long[], long[])}, but gives out the handles in the
     * built hierarchy's depth-first object order instead of input order, and writes them to {@code handles}:
     * {@code handles[i]} is the handle of box {@code i}. They are still {@code 0 .. n-1}, each once. The tree keeps
     * an object's tight box, user value and categories at its handle's slot, so here every subtree's objects lie
     * side by side in memory, and the objects one query reaches share cache lines instead of each costing a miss
     * (box queries on a 1M-object world 1.11x to 1.17x faster, see {@code docs/tree.md}, Memory order). The
     * hierarchy is the same as {@code build}'s; the extra cost is one more pass over the objects. The build for
     * static worlds: objects moved in their input order run slower in this order (their slots come at random), and
     * later adds, moves and removes keep every handle, so the order decays as objects move far.
     *
     * @param config the settings (the initial capacity is raised to the object count)
     * @param boxes the tight boxes, stride 6, as for {@code build}
     * @param userValues one user value per object, or {@code null} for all 0
     * @param categories one set of category bits per object, or {@code null} for all categories ({@code -1L})
     * @param handles receives the handle of each box, one element per box
     * @return the new tree, valid ({@link #validate()}) and holding {@code boxes.length / 6} objects
     * @throws IllegalArgumentException naming the argument, and building nothing: as for {@code build}, and
     *         {@code handles} null or not one per box
     */
    public static DynamicAabbTree build(TreeConfig config, double[] boxes, long[] userValues, long[] categories,
                                        int[] handles) {
        Arguments.requireNonNull("handles", handles);
        return TreeBuild.build(config, boxes, userValues, categories, handles);
    }

    /**
     * Adds many objects to this tree at once (a streaming server adding the entities of a tile, a game a wave of
     * spawns). A batch much denser than the tree (a part of {@code c} objects whose box has at most a tenth of the
     * surface area the tree's own nodes have for {@code c} objects on average), or any batch added to an empty
     * tree, goes in whole: its hierarchy is built by the binned surface area heuristic (Wald 2007), like
     * {@link #build}, and its root placed like a single object by the branch-and-bound sibling search with refits
     * and rotations on the way up (Bittner et al. 2013, Kopta et al. 2012; Jolt inserts a batch of bodies as one
     * prebuilt subtree). A batch that is not but holds at least an eighth as many objects as the tree is split at
     * object medians in search of parts that are, the rest going in one by one; a smaller one is added object by
     * object, exactly as by {@link #add}. Dense parts only: a part no denser than the objects already where it
     * goes would overlap their subtrees, and a world filled in batches would end with a worse tree than one filled
     * one by one. So a dense batch (a tile's entities) goes in several times faster than by {@code add}, and any
     * other batch about as fast; why and by how much: {@code docs/tree.md} and {@code docs/benchmarks.md}, Batch
     * adds.
     *
     * <p>A batch at least as large as the tree ({@value #BULK_FLUSH_MIN} objects or more), or a quarter as large
     * once the tree holds {@value #BULK_FLUSH_LARGE_TREE}, goes in by a binned-SAH rebuild of the whole tree with
     * it, as {@link #flushAdds} takes many pending objects in: faster than inserting that many, and a bulk build's
     * tree (nodes renumbered, free nodes dropped, as by {@link #rebuild rebuild(true)}).
     *
     * <p>Each object gets the handle, fat box (margin, no displacement), tight box, user value and categories that
     * {@code add} would give it, in order (a freed slot reused as {@code add} reuses it, once the quarantine of
     * {@link Handles} is full), and is marked moved for
     * {@link PairQueries#movedPairs}; every query answers as if the objects had been added one by one. Objects
     * inserted one by one get the optimisation steps of {@code add} (one per
     * {@link TreeConfig#addsPerOptimization()}; parts that go in whole are built by the SAH and need none), and
     * the nodes are renumbered at the end when they have grown enough, as adds do. Large batches are built on the
     * common fork/join pool, as by {@code build}; the arrays passed in are only read, and only during the call.
     *
     * @param boxes the tight boxes, stride 6: object {@code i} is {@code minX, minY, minZ, maxX, maxY, maxZ} at
     *              {@code 6 i}; finite, {@code min <= max} (closed boxes, zero extent allowed)
     * @param userValues one user value per object, or {@code null} for all 0
     * @param categories one set of category bits per object, or {@code null} for all categories ({@code -1L})
     * @return the handles of the new objects: element {@code i} is the handle of box {@code i}
     * @throws IllegalArgumentException naming the argument, and changing nothing: {@code boxes} null, a length of
     *         {@code boxes} not a multiple of 6, a non-finite or inverted box or one reaching more than
     *         {@link OutwardFloat#MAX_OFFSET} from the tree's origin, {@code userValues} or {@code categories} not
     *         one per box, or more objects in all than {@link Handles#MAX_SLOTS}{@code - 1}
     */
    public int[] addAll(double[] boxes, long[] userValues, long[] categories) {
        return TreeBuild.addAll(this, boxes, userValues, categories);
    }

    /**
     * The optimisation step one add runs every {@link TreeConfig#addsPerOptimization()} adds, for an object a batch
     * inserted by itself.
     */
    void countAdd() {
        if (addsPerOptimization > 0 && ++addsSinceOptimization >= addsPerOptimization) {
            addsSinceOptimization = 0;
            optimizeStep(1);
        }
    }

    /**
     * Takes every pending object into the hierarchy now ({@link TreeConfig#withDeferredAdds deferred adds}); does
     * nothing when none is pending. Queries and the methods that change the hierarchy as a whole do it themselves,
     * so call it only to choose when the cost is paid: at the end of a level load, say, rather than in the first
     * frame's first query. Many pending objects (at least {@value #BULK_FLUSH_MIN}, and at least as many as the
     * hierarchy already holds, or a quarter as many once it holds {@value #BULK_FLUSH_LARGE_TREE}) go in by a full
     * binned-SAH rebuild of the whole tree (O(n log n), allocating scratch as {@link #rebuild rebuild(true)} does);
     * from {@value #BULK_FLUSH_MIN} on they otherwise go in as {@link #addAll} adds a batch (parts much denser than
     * the tree whole, the rest one by one; scratch O(pending)); fewer are inserted one by one, as {@link #add}
     * inserts them without deferral (allocation-free within the reserved capacity). Handles, boxes, user values and
     * categories do not change.
     */
    public void flushAdds() {
        flushIfPending();
    }

    /**
     * The objects added while adds are {@link TreeConfig#withDeferredAdds deferred} and not yet taken into the
     * hierarchy: 0 after any query, {@link #flushAdds()}, or a call that reads or rebuilds the whole hierarchy
     * ({@link #height}, {@link #areaRatio}, {@link #getFatBox}, {@link #rebuild}, {@link #optimize},
     * {@link #compact}, {@link #addAll}, {@link #spliceSubtree}, {@link #moveOrigin}; {@code docs/tree.md}, Deferred
     * adds); a move or removal of another object leaves them pending. Always 0 without deferral.
     *
     * @return the number of pending objects
     */
    public int pendingAdds() {
        return pendingCount;
    }

    /** Fewer pending objects than this are always inserted one by one: cheap, and allocation-free. */
    static final int BULK_FLUSH_MIN = 64;
    /**
     * From this many objects in the hierarchy, pending objects a quarter as many go in by a rebuild; below it, only
     * as many. Insertion slows as the tree outgrows the caches and the rebuild does not. Rebuilding the whole tree
     * with the pending objects against inserting them, alternating in one JVM, medians of 7
     * ({@code bench/results/jdk17/deferred-flush-ab.txt}, three runs): with as many pending as in a tree of 10,000,
     * 1.03x to 1.42x faster, but 0.77x with half as many; at 100,000, 2.05x to 2.76x, and 1.25x with half as many;
     * at 1,000,000, 2.88x to 4.33x, 2.11x to 2.65x with half as many, 1.19x and 1.27x with a quarter.
     */
    static final int BULK_FLUSH_LARGE_TREE = 1 << 18;

    /** Whether {@code pending} objects go into a hierarchy of {@code inTree} objects by a full rebuild. */
    static boolean flushesByRebuild(int pending, int inTree) {
        return pending >= BULK_FLUSH_MIN
                && (pending >= inTree || inTree >= BULK_FLUSH_LARGE_TREE && 4L * pending >= inTree);
    }

    private void flushIfPending() {
        if (hasPending) {
            flushShared();
        }
    }

    /**
     * Readers may get here on several threads at once (a query is a read for the caller, who may run many): one
     * takes the objects in under the lock, the others wait for it and find nothing left to do.
     */
    private void flushShared() {
        synchronized (flushLock) {
            if (hasPending) {
                if (takingIn) {
                    // the lock is re-entrant: only the thread taking the objects in gets here, from a task its
                    // fork/join pool gave it while the parallel build waited, and the hierarchy is half built
                    throw new IllegalStateException("a query reached this tree on the thread taking its pending"
                            + " adds in (a fork/join task run while the parallel build waited); the tree is being"
                            + " rebuilt: call flushAdds() before running queries as fork/join tasks");
                }
                modCount++;
                takingIn = true;
                try {
                    insertPending();
                } finally {
                    takingIn = false;
                }
                hasPending = false;
            }
        }
    }

    /**
     * Like a rebuild, the rebuild and batch paths leave the tree unusable if they fail part-way (an
     * {@link OutOfMemoryError} growing the node arrays); the one-by-one path keeps the objects it did not reach
     * pending, consistently, so that they are not inserted twice.
     */
    private void insertPending() {
        int count = pendingCount;
        if (flushesByRebuild(count, handles.size() - count)) {
            // rebuildFull takes the pending objects' fat boxes and masks from the pending arrays
            TreeBuild.rebuildFull(this);
            rebuildFlushes++;
            pendingCount = 0;
            trimPendingArrays();
            return;
        }
        if (count >= BULK_FLUSH_MIN) {
            // addAll's rule: dense parts (a streamed tile's entities) go in whole, the rest one by one
            TreeBuild.insertPendingBatch(this, pendingHandles, pendingFat, pendingMasks, count);
            batchFlushes++;
            // kept: a world that streams batches in reuses them (a rebuild, after a load, drops them)
            pendingCount = 0;
            return;
        }
        final float[] f = pendingFat;
        int done = 0;
        insertionFlushes += count > 0 ? 1 : 0;
        try {
            while (done < count) {
                int o = BOX * done;
                renumberIfGrown();
                insertReference(~pendingHandles[done], pendingMasks[done], f[o], f[o + 1], f[o + 2], f[o + 3],
                        f[o + 4], f[o + 5], 0, true);
                // in before the optimisation step, which may fail too: then it is not inserted again
                done++;
                countAdd();
            }
        } finally {
            // after a failure part-way, the objects not reached stay pending, at the front of the arrays
            for (int i = done; i < count; i++) {
                movePending(i, i - done);
            }
            pendingCount = count - done;
        }
    }

    /**
     * After a load taken in by a rebuild, the pending arrays (32 bytes per object they can hold) are not kept, unless
     * small: they grow again cheaply.
     */
    private void trimPendingArrays() {
        if (pendingHandles.length > 4 * BULK_FLUSH_MIN) {
            pendingHandles = new int[0];
            pendingFat = new float[0];
            pendingMasks = new int[0];
        }
    }

    /**
     * Room for one more pending object, made before {@link #add} takes a handle: a failed growth (out of memory)
     * leaves the arrays in step and no handle allocated.
     */
    private void reservePending() {
        int position = pendingCount;
        if (position == pendingHandles.length) {
            int grown = Math.max(16, position + (position >> 1));
            int[] newHandles = Arrays.copyOf(pendingHandles, grown);
            float[] newFat = Arrays.copyOf(pendingFat, grown * BOX);
            int[] newMasks = Arrays.copyOf(pendingMasks, grown);
            pendingHandles = newHandles;
            pendingFat = newFat;
            pendingMasks = newMasks;
        }
    }

    /** Appends a pending object; {@link #reservePending} made the room. */
    private void enqueuePending(int handle, double minX, double minY, double minZ, double maxX, double maxY,
                                double maxZ, long categoryBits) {
        int position = pendingCount;
        pendingHandles[position] = handle;
        storeFatBox(pendingFat, BOX * position, minX, minY, minZ, maxX, maxY, maxZ, 0, 0, 0);
        keepFatCopy(handle & Handles.SLOT_MASK, pendingFat, BOX * position);
        pendingMasks[position] = fold(categoryBits);
        leafEntries[handle & Handles.SLOT_MASK] = -1 - position;
        pendingCount = position + 1;
        if (!hasPending) {
            hasPending = true;
        }
    }

    /** Removes a pending object from the list: the last one takes its place. */
    private void dequeuePending(int slot) {
        movePending(--pendingCount, -1 - leafEntries[slot]);
    }

    /** Moves pending object {@code from}'s record to position {@code to} (its slot records the new place). */
    private void movePending(int from, int to) {
        int handle = pendingHandles[from];
        pendingHandles[to] = handle;
        System.arraycopy(pendingFat, BOX * from, pendingFat, BOX * to, BOX);
        pendingMasks[to] = pendingMasks[from];
        leafEntries[handle & Handles.SLOT_MASK] = -1 - to;
    }

    /** The renumbering adds do when the nodes have grown enough (before each add, and after a batch). */
    void renumberIfGrown() {
        if (addRenumbering && nodeHighWater >= renumberMark) {
            renumberDepthFirst();
            markDepthFirst();
        }
    }

    /**
     * Adds a prebuilt hierarchy (for example a static world tile read back with {@code MappedWorld.readTree()} and
     * {@code readObjectBoxes()}) without rebuilding it, the way {@link #addAll} adds the hierarchy it builds: where
     * the hierarchy, or a part of it, is much denser than this tree (its surface area at most a tenth of what the
     * tree's own nodes have for as many objects, the rule of {@link #addAll}; for example a detailed tile spliced
     * into a sparse tree of moving entities, or into an empty tree) its internal nodes are copied as they are (O(n))
     * and its root is inserted like a single object, by the branch-and-bound sibling search, with a new parent node
     * joining it to the tree and refits and rotations on the way up (Bittner et al. 2013, Kopta et al. 2012); a
     * looser part is split into its halves, down to single objects inserted one by one, so that a hierarchy spread
     * over the tree's own space does not overlap all of it. Only the subtree's references are used: its boxes are
     * recomputed from {@code objectBoxes}.
     *
     * <p>Frames: {@code objectBoxes} are floats relative to the subtree's origin. When it differs from this tree's
     * origin, each box is taken in world coordinates ({@code subtree origin + float}, in double) and stored
     * relative to this tree's origin rounded outward, exactly as {@link #add} would store that world box; with the
     * same origin the floats are copied unchanged. The objects are static: their fat box is their tight box (no
     * margin). They can be moved and removed like any other object (a move out of the box re-inserts the object
     * with the usual margin), and are marked moved for {@link PairQueries#movedPairs}.
     *
     * @param subtree the hierarchy, over objects {@code 0 .. m-1}
     * @param objectBoxes the objects' tight boxes, stride 6, relative to {@code subtree}'s origin; finite,
     *                    {@code min <= max}
     * @param userValues one user value per object, or {@code null} for all 0
     * @param categories one set of category bits per object, or {@code null} for all categories ({@code -1L})
     * @return the handles of the new objects: element {@code i} is object {@code i} of the subtree
     * @throws IllegalArgumentException naming the argument, and changing nothing: {@code subtree} null,
     *         {@code objectBoxes} not 6 finite, non-inverted floats per object or a box reaching more than
     *         {@link OutwardFloat#MAX_STORED} (the storage limit as a float) from the tree's origin, {@code userValues} or {@code categories} not
     *         one per object, or more objects in all than {@link Handles#MAX_SLOTS}{@code - 1}
     */
    public int[] spliceSubtree(FlatBvh subtree, float[] objectBoxes, long[] userValues,
                               long[] categories) {
        return TreeBuild.splice(this, subtree, objectBoxes, userValues, categories);
    }

    /**
     * Rebuilds the hierarchy with the binned surface area heuristic (Wald 2007) from the current fat boxes. Only
     * internal nodes change: handles, fat and tight boxes, user values and categories stay as they are.
     *
     * <p>{@code full}: every internal node is rebuilt and renumbered depth first (the best quality and memory
     * order; O(n log n)). Otherwise only the nodes changed since the last rebuild (by adds, re-inserting moves,
     * removes, rotations, {@link #optimize}) are rebuilt, and every unchanged subtree below them is kept whole as
     * one unit (Box2D v3's partial rebuild): cheap when few objects moved, a no-op when none did. Either way the
     * call allocates scratch proportional to what it rebuilds; running out of memory for it leaves the tree as it
     * was, but a failure once nodes are being rewritten (at most a fork/join task's few kilobytes) leaves it
     * unusable.
     *
     * @param full whether to rebuild every internal node, or only the changed ones
     */
    public void rebuild(boolean full) {
        flushAdds();
        modCount++;
        TreeBuild.rebuild(this, full);
    }

    /**
     * Improves the hierarchy within a work budget (Bittner, Hapala, Havran 2013, "Fast Insertion-Based
     * Optimization of Bounding Volume Hierarchies"): takes out at most {@code budget} inefficient internal nodes
     * and re-inserts their two subtrees with the branch-and-bound insertion. Each call examines the next
     * {@code 8 * budget} nodes of a sweep that spreads every call's sample over the whole tree (a stride coprime to
     * the node count, each node then replaced by an ancestor a few levels up) and picks the worst of them, so
     * calling it every frame sweeps the whole tree. Handles and boxes are unchanged. Allocation-free once the
     * largest budget has been seen.
     *
     * @param budget the largest number of re-insertions in this call, {@code >= 0}
     * @return the number of re-insertions done
     * @throws IllegalArgumentException if {@code budget} is negative
     */
    public int optimize(int budget) {
        if (budget < 0) {
            throw new IllegalArgumentException("budget must be >= 0: " + budget);
        }
        flushAdds();
        modCount++;
        return optimizeStep(budget);
    }

    /**
     * Lays the internal nodes out again in depth-first order, in node arrays just large enough for them. The
     * hierarchy itself (which node holds which boxes), the handles, boxes, user values and categories do not
     * change, so every query answers exactly as before; two things do: the memory of the nodes freed by removals is
     * returned, and the memory order that adds, moves and removals scatter is restored. In depth-first order a
     * node's first child is its next record and every subtree is one contiguous range, so a descent reads
     * neighbouring cache lines. Inserting a million objects one by one with the adds' own renumbering (below) ran
     * 1.3x to 1.5x faster than without it ({@code docs/benchmarks.md}, Builds). Adds already renumber
     * (without trimming the arrays) once {@value #RENUMBER_MIN_NODES} nodes are in use, and again whenever the
     * nodes in use have grown by half since.
     *
     * <p>O(n) time; allocates the new node arrays (the old ones become garbage). The object arrays keep their
     * length, since a handle names its slot. Call it after unloading a large part of the world, or now and then in
     * a long-running world of moving objects, not every frame.
     */
    public void compact() {
        flushAdds();
        modCount++;
        renumberDepthFirst();
        markDepthFirst();
        growNodes(nodeHighWater);
    }

    /**
     * Moves the origin the boxes are stored relative to ({@link TreeConfig#withOrigin}), keeping every object,
     * handle, user value, category and the hierarchy itself. Float resolution is finest near the origin
     * ({@code docs/tree.md}, Float storage and the origin), so a tree whose objects are far from its origin (a
     * tree created empty at 0 and filled 1e7 away, a convoy that has crossed a large world) moves the origin to
     * them. World coordinates do not change: queries take and report world coordinates as before.
     *
     * <p>Each stored box is re-stored in the new frame rounded outward from what its old stored box stood for
     * ({@link OutwardFloat#rebaseDown}), so the tree still holds every given box (no false miss) and queries stay
     * exact for the stored boxes; a bound moves outward by at most one float step of the new frame plus about
     * {@code 1e-16} of its distance from the old origin, and not at all where the move is exact: a shift by whole
     * multiples of the bound's float step (whole metres for coordinates within 2^24 m of the origins) that keeps it
     * as far from the origin, within a power of two, or takes it farther, re-stores it bit for bit. The double input
     * is not kept, so the other steps add up: an object that never moves widens by up to a float step of each new
     * frame at every move that is not exact for it, as on every move to an origin off the float grid (a lamp 500 km
     * behind a convoy that moves the origin to itself every 5.0003 km gains up to 3 cm per side per call; moved by
     * whole kilometres, a lamp with bounds in whole metres keeps its box exactly), and at every move that brings it
     * nearer the origin across a power of two, and a box stored coarsely far from the old origin stays that coarse
     * ({@code docs/tree.md}, Moving the origin). An object gets the new frame's resolution back when it
     * next moves or is added again: after moving the origin, re-store the objects that do not move (a
     * {@link #move} to the box the application holds), or keep them in an index whose origin stays (a second tree,
     * a static world). Fat boxes are re-stored the same way and the internal boxes refitted, so the hierarchy's
     * shape and quality stay as they were. O(objects + nodes); pending objects ({@link TreeConfig#withDeferredAdds
     * deferred adds}) are taken in first. A structural change: a query running meanwhile throws
     * {@link java.util.ConcurrentModificationException}. Read views already published keep their own origin; the
     * next {@link TreeSnapshots#publish()} copies the new one.
     *
     * @param x new origin x
     * @param y new origin y
     * @param z new origin z (0 in a {@link DynamicAabbTree2D 2D} tree, whose boxes lie in the plane z = 0)
     * @throws IllegalArgumentException if a coordinate is NaN, infinite or beyond
     *     {@link OutwardFloat#MAX_ORIGIN}, if {@code z} is not 0 in a 2D tree, or if an object's box would lie
     *     beyond the storage range ({@link OutwardFloat#MAX_OFFSET}) of the new origin (naming the first such
     *     handle); the tree is then unchanged
     */
    public void moveOrigin(double x, double y, double z) {
        Arguments.requireOrigin("x", x);
        Arguments.requireOrigin("y", y);
        Arguments.requireOrigin("z", z);
        if (planar && z != 0) {
            throw new IllegalArgumentException("a 2D tree keeps its origin in the plane of its boxes: z must be 0, not "
                    + z);
        }
        final double[] from = {originX, originY, originZ};
        final double[] to = {x, y, z};
        // every object (pending ones too: their tight boxes are stored) checked before anything changes
        final int slots = handles.highWater();
        for (int slot = 0; slot < slots; slot++) {
            if (!handles.isLiveSlot(slot)) {
                continue;
            }
            for (int a = 0; a < 3; a++) {
                float lo = OutwardFloat.rebaseDown(tight[slot * BOX + a], from[a], to[a]);
                float hi = OutwardFloat.rebaseUp(tight[slot * BOX + 3 + a], from[a], to[a]);
                if (!(lo >= -OutwardFloat.MAX_STORED && hi <= OutwardFloat.MAX_STORED)) {
                    throw new IllegalArgumentException("moving the origin to (" + x + ", " + y + ", " + z
                            + ") would put the box of handle " + handles.handleOf(slot) + " beyond the storage range on "
                            + "axis " + "xyz".charAt(a) + " (more than " + OutwardFloat.MAX_OFFSET
                            + " from the origin); the tree is unchanged");
                }
            }
        }
        // pending objects need leaf entries to be re-stored in (their slots are allocated already)
        flushAdds();
        modCount++;
        final float fatLow = OutwardFloat.down(-FAT_LIMIT);
        final float fatHigh = OutwardFloat.up(FAT_LIMIT);
        final int[] r = records;
        for (int slot = 0; slot < slots; slot++) {
            if (!handles.isLiveSlot(slot)) {
                continue;
            }
            final int t = slot * BOX;
            final int o = boxIndex(leafEntries[slot]);
            for (int a = 0; a < 3; a++) {
                float lo = OutwardFloat.rebaseDown(tight[t + a], from[a], to[a]);
                float hi = OutwardFloat.rebaseUp(tight[t + 3 + a], from[a], to[a]);
                // the fat box is clamped as where it is made, and re-stored on its own rounding: kept around the
                // tight box explicitly
                float fatLo = Math.min(lo, Math.max(fatLow, OutwardFloat.rebaseDown(leafFat[t + a], from[a], to[a])));
                float fatHi = Math.max(hi,
                        Math.min(fatHigh, OutwardFloat.rebaseUp(leafFat[t + 3 + a], from[a], to[a])));
                tight[t + a] = lo;
                tight[t + 3 + a] = hi;
                leafFat[t + a] = fatLo;
                leafFat[t + 3 + a] = fatHi;
                r[o + a] = bits(fatLo);
                r[o + 3 + a] = bits(fatHi);
            }
        }
        refitEveryBox();
        originX = x;
        originY = y;
        originZ = z;
    }

    /** Takes {@code source}'s origin: a read view's copy follows its tree's {@link #moveOrigin}. */
    void copyOrigin(DynamicAabbTree source) {
        originX = source.originX;
        originY = source.originY;
        originZ = source.originZ;
    }

    /** Rewrites every internal node's box as the union of its entries, each node after its children. */
    private void refitEveryBox() {
        int root = child(0);
        if (root < 0) {
            return; // empty, or a single object whose leaf entry is the root's
        }
        // depth first, each node after its parent, so the reverse order puts each node after its children
        int[] order = new int[nodeHighWater];
        int count = 0;
        int[] pending = new int[heights[root] + 2];
        int top = 0;
        pending[top++] = root;
        while (top > 0) {
            int n = pending[--top];
            order[count++] = n;
            for (int e = 2 * n + 1; e >= 2 * n; e--) {
                int c = child(e);
                if (c >= 0) {
                    pending[top++] = c;
                }
            }
        }
        for (int i = count - 1; i >= 0; i--) {
            refitBox(parentEntries[order[i]], order[i]);
        }
    }

    private int optimizeStep(int budget) {
        return optimizer.optimize(budget);
    }

    /**
     * The tight box is inside the fat box, and the fat box inside the tight box grown on every side by
     * {@link #SHRINK_FACTOR} times (margin + prediction * |displacement|) on that axis: an object that slows down
     * or stops sheds a fat box grown for its old speed.
     */
    private boolean fatBoxStillFits(int slot, double minX, double minY, double minZ,
                                    double maxX, double maxY, double maxZ, double dx, double dy, double dz) {
        float[] fat = leafFat;
        float[] t = tight;
        int s = slot * BOX;
        float b0 = fat[s];
        float b1 = fat[s + 1];
        float b2 = fat[s + 2];
        float b3 = fat[s + 3];
        float b4 = fat[s + 4];
        float b5 = fat[s + 5];
        if (t[s] < b0 || t[s + 1] < b1 || t[s + 2] < b2 || t[s + 3] > b3 || t[s + 4] > b4 || t[s + 5] > b5) {
            return false;
        }
        double m = margin(minX, minY, minZ, maxX, maxY, maxZ);
        // on both sides: a fast object leaves its fat box's trailing side behind by a displacement a move, and a
        // margin of margins alone there would re-insert it long before it reaches the leading side
        double ax = SHRINK_FACTOR * (m + prediction * Math.abs(dx));
        double ay = SHRINK_FACTOR * (m + prediction * Math.abs(dy));
        double az = planar ? 0 : SHRINK_FACTOR * (m + prediction * Math.abs(dz));
        return b0 >= OutwardFloat.down(minX - originX - ax)
                && b1 >= OutwardFloat.down(minY - originY - ay)
                && b2 >= OutwardFloat.down(minZ - originZ - az)
                && b3 <= OutwardFloat.up(maxX - originX + ax)
                && b4 <= OutwardFloat.up(maxY - originY + ay)
                && b5 <= OutwardFloat.up(maxZ - originZ + az);
    }

    /** Box2D's margin rule: min(cap, fraction of the longest edge). */
    private double margin(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double edge = Math.max(maxX - minX, Math.max(maxY - minY, maxZ - minZ));
        return Math.min(marginCap, marginFraction * edge);
    }

    /** Sets object {@code slot}'s copy of its fat box ({@link #leafFat}) to {@code fat[at .. at + 5]}. */
    void keepFatCopy(int slot, float[] fat, int at) {
        System.arraycopy(fat, at, leafFat, slot * BOX, BOX);
    }

    /** {@link #keepFatCopy} for slots {@code [from, to)}, whose fat boxes are at the same places in {@code fat}. */
    void keepFatCopies(float[] fat, int from, int to) {
        System.arraycopy(fat, from * BOX, leafFat, from * BOX, (to - from) * BOX);
    }

    void storeTight(int slot, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        OutwardFloat.storeBox(tight, slot * BOX, originX, originY, originZ, minX, minY, minZ, maxX, maxY, maxZ);
    }

    /**
     * Inserts object {@code slot} with the fat box of the given tight box, margin and displacement (scaled by
     * {@code displacementScale}). Bittner et al. 2013, "Fast Insertion-Based Optimization of Bounding Volume
     * Hierarchies": the best sibling by branch and bound, then a new parent above it.
     */
    private void insertLeaf(int slot, double minX, double minY, double minZ,
                            double maxX, double maxY, double maxZ,
                            double dx, double dy, double dz, double displacementScale) {
        float[] f = fatScratch;
        storeFatBox(f, 0, minX, minY, minZ, maxX, maxY, maxZ,
                dx * displacementScale, dy * displacementScale, dz * displacementScale);
        keepFatCopy(slot, f, 0);
        insertReference(~handles.handleOf(slot), fold(objectCategories[slot]), f[0], f[1], f[2], f[3], f[4], f[5],
                0, true);
    }

    /**
     * Writes the fat box of a tight box (world coordinates) into {@code dest[offset .. offset + 5]}: grown by the
     * margin, extended by the displacement on the side it points to, relative to the origin, rounded outward.
     */
    void storeFatBox(float[] dest, int offset, double minX, double minY, double minZ,
                     double maxX, double maxY, double maxZ, double sx, double sy, double sz) {
        double m = margin(minX, minY, minZ, maxX, maxY, maxZ);
        double mz = planar ? 0 : m;
        double szPlanar = planar ? 0 : sz;
        double x0 = minX - originX;
        double y0 = minY - originY;
        double z0 = minZ - originZ;
        double x1 = maxX - originX;
        double y1 = maxY - originY;
        double z1 = maxZ - originZ;
        // Clamped: a huge margin or displacement must not round to an infinite bound (the tight box, within
        // MAX_OFFSET of the origin, stays inside).
        dest[offset] = fatBelow(Math.max(-FAT_LIMIT, x0 - m + Math.min(sx, 0)), x0, minX, originX);
        dest[offset + 1] = fatBelow(Math.max(-FAT_LIMIT, y0 - m + Math.min(sy, 0)), y0, minY, originY);
        dest[offset + 2] = fatBelow(Math.max(-FAT_LIMIT, z0 - mz + Math.min(szPlanar, 0)), z0, minZ, originZ);
        dest[offset + 3] = fatAbove(Math.min(FAT_LIMIT, x1 + m + Math.max(sx, 0)), x1, maxX, originX);
        dest[offset + 4] = fatAbove(Math.min(FAT_LIMIT, y1 + m + Math.max(sy, 0)), y1, maxY, originY);
        dest[offset + 5] = fatAbove(Math.min(FAT_LIMIT, z1 + mz + Math.max(szPlanar, 0)), z1, maxZ, originZ);
    }

    /**
     * A fat min bound: {@code fat} rounded down, where it lies below the tight bound's double offset {@code tight}
     * (then below the exact offset too, which is within half a double step of {@code tight}); where no margin or
     * displacement moved it, the tight bound's own exact rounding ({@link OutwardFloat#below}), so the fat box
     * always holds the stored tight box.
     */
    private static float fatBelow(double fat, double tight, double x, double origin) {
        return fat == tight ? OutwardFloat.below(x, origin) : OutwardFloat.down(fat);
    }

    /** {@link #fatBelow} for a max bound. */
    private static float fatAbove(double fat, double tight, double x, double origin) {
        return fat == tight ? OutwardFloat.above(x, origin) : OutwardFloat.up(fat);
    }

    /**
     * Inserts {@code ref} (an object {@code ~handle}, or an internal node detached by {@link #detachEntry}) with the
     * given box and folded mask: the best sibling by branch and bound, then a new parent above it (Bittner et al.
     * 2013).
     */
    void insertReference(int ref, int mask, float f0, float f1, float f2, float f3, float f4, float f5) {
        insertReference(ref, mask, f0, f1, f2, f3, f4, f5, 0, true);
    }

    /**
     * The entry a re-insertion after a move searches from: the lowest ancestor of {@code near} (the entry the
     * object's old sibling moved into) that contains the new fat box, and at least {@link #MOVE_LOOKAHEAD} levels
     * above it (the root entry 0 at the latest). Bullet's {@code btDbvt::update} re-inserts a moved leaf from an
     * ancestor a fixed lookahead up rather than from the root; requiring containment means no ancestor above the
     * start grows, so the branch and bound inside it weighs every cost that differs between its candidates. A small
     * move then searches a few levels near the object instead of walking down from the root.
     */
    private int searchStart(int near, float[] fat) {
        int e = near;
        for (int level = 0; e != 0; level++) {
            if (level >= MOVE_LOOKAHEAD && entryContains(e, fat)) {
                return e;
            }
            e = parentEntries[e >> 1];
        }
        return 0;
    }

    /**
     * As {@link #insertReference(int, int, float, float, float, float, float, float)}, searching below {@code start},
     * with or without the grandchild swaps of {@link #rotate} on the way up.
     */
    private void insertReference(int ref, int mask, float f0, float f1, float f2, float f3, float f4, float f5,
                                 int start, boolean grandchildSwaps) {
        if (child(0) == EMPTY) {
            setEntry(0, ref, mask, f0, f1, f2, f3, f4, f5);
            linkParent(ref, 0);
            updateHeaderHeight();
            return;
        }
        int sibling = findBestSibling(start, f0, f1, f2, f3, f4, f5);
        int node = allocateNode();
        int first = 2 * node;
        copyEntry(sibling, first);
        setEntry(first + 1, ref, mask, f0, f1, f2, f3, f4, f5);
        linkParent(ref, first + 1);
        records[refIndex(sibling)] = node;
        parentEntries[node] = sibling;
        refitUpward(node, rotations, grandchildSwaps);
        updateHeaderHeight();
    }

    /**
     * Branch and bound over candidate siblings ordered by their inherited cost (Bittner et al. 2013, section 3.2):
     * choosing entry X costs SA(X u L) plus the growth SA(A u L) - SA(A) of every ancestor A; a subtree is
     * pruned when its inherited cost plus SA(L) cannot beat the best cost found. The search is depth first with the
     * child of lower inherited cost on top, which finds a good sibling at once (the first dive is Box2D v3's greedy
     * descent) and then prunes the rest; it is still exact, and a stack costs nothing to maintain where a priority
     * queue (18% slower in our runs) sifts at every step. The stack holds internal nodes, not entries: a popped
     * node scores both its entries from its own child boxes (one cache line of the node-pair layout) and pushes
     * only the children whose bound can still win, so each pop costs one node visit and a losing child is never
     * loaded. Depth first, at most one pending node per level: the tree height bounds the stack.
     *
     * @param start the entry whose subtree is searched: 0 (the root) for a new object
     * @return the entry of the best sibling
     */
    private int findBestSibling(int start, float f0, float f1, float f2, float f3, float f4, float f5) {
        final int[] r = records;
        final double leafCost = cost(f0, f1, f2, f3, f4, f5);
        // The start entry first: the only candidate not scored as an entry of a popped node.
        final int rb = boxIndex(start);
        double rootUnion = cost(Math.min(f0, f(r[rb])), Math.min(f1, f(r[rb + 1])), Math.min(f2, f(r[rb + 2])),
                Math.max(f3, f(r[rb + 3])), Math.max(f4, f(r[rb + 4])), Math.max(f5, f(r[rb + 5])));
        int best = start;
        double bestCost = rootUnion;
        int root = r[refIndex(start)];
        if (root < 0) {
            return best;
        }
        double rootInherited = rootUnion - entryCost(start);
        if (rootInherited + leafCost >= bestCost) {
            return best;
        }
        double[] keys = searchKeys;
        int[] nodes = searchNodes;
        int needed = heights[HEADER] + 2;
        if (keys.length < needed) {
            keys = searchKeys = new double[2 * needed];
            nodes = searchNodes = new int[2 * needed];
        }
        keys[0] = rootInherited;
        nodes[0] = root;
        int size = 1;
        int early = 0;
        while (size > 0) {
            size--;
            double inherited = keys[size];
            if (inherited + leafCost >= bestCost) {
                continue;
            }
            int node = nodes[size];
            int e0 = 2 * node;
            int o = recordIndex(node);
            early += heights[node] + parentEntries[node];
            float a0 = f(r[o]);
            float a1 = f(r[o + 1]);
            float a2 = f(r[o + 2]);
            float a3 = f(r[o + 3]);
            float a4 = f(r[o + 4]);
            float a5 = f(r[o + 5]);
            float b0 = f(r[o + 6]);
            float b1 = f(r[o + 7]);
            float b2 = f(r[o + 8]);
            float b3 = f(r[o + 9]);
            float b4 = f(r[o + 10]);
            float b5 = f(r[o + 11]);
            double union0 = cost(Math.min(f0, a0), Math.min(f1, a1), Math.min(f2, a2),
                    Math.max(f3, a3), Math.max(f4, a4), Math.max(f5, a5));
            double union1 = cost(Math.min(f0, b0), Math.min(f1, b1), Math.min(f2, b2),
                    Math.max(f3, b3), Math.max(f4, b4), Math.max(f5, b5));
            double total0 = inherited + union0;
            double total1 = inherited + union1;
            if (total0 < bestCost) {
                bestCost = total0;
                best = e0;
            }
            if (total1 < bestCost) {
                bestCost = total1;
                best = e0 + 1;
            }
            int c0 = r[o + REF];
            int c1 = r[o + REF + 1];
            double below0 = c0 >= 0 ? total0 - cost(a0, a1, a2, a3, a4, a5) : Double.POSITIVE_INFINITY;
            double below1 = c1 >= 0 ? total1 - cost(b0, b1, b2, b3, b4, b5) : Double.POSITIVE_INFINITY;
            // Depth first, the more promising child on top: a good sibling is found at once and prunes the rest.
            if (below0 > below1) {
                double t = below0;
                below0 = below1;
                below1 = t;
                int c = c0;
                c0 = c1;
                c1 = c;
            }
            if (below1 + leafCost < bestCost) {
                keys[size] = below1;
                nodes[size++] = c1;
                // read now, so its cache miss overlaps the dive into c0 instead of stalling the backtrack
                early += r[recordIndex(c1)];
            }
            if (below0 + leafCost < bestCost) {
                keys[size] = below0;
                nodes[size++] = c0;
                early += r[recordIndex(c0)];
            }
        }
        searchRetained += early;
        return best;
    }

    /** @return whether entry {@code entry}'s box contains the box {@code b[0 .. 5]} (closed boxes) */
    private boolean entryContains(int entry, float[] b) {
        final int[] r = records;
        int o = boxIndex(entry);
        return f(r[o]) <= b[0] && f(r[o + 1]) <= b[1] && f(r[o + 2]) <= b[2]
                && f(r[o + 3]) >= b[3] && f(r[o + 4]) >= b[4] && f(r[o + 5]) >= b[5];
    }

    /** Unlinks object {@code slot}: its sibling takes the parent's place and the parent node is freed. */
    private void removeLeaf(int slot) {
        detachEntry(leafEntries[slot]);
    }

    /**
     * Unlinks the reference in {@code entry} (an object or a subtree, which stays intact): its sibling takes the
     * parent's place and the parent node is freed.
     *
     * @return the entry now holding the former sibling (0 when the tree became empty)
     */
    int detachEntry(int entry) {
        int parent = entry >> 1;
        if (parent == HEADER) {
            clearEntry(0);
            updateHeaderHeight();
            return 0;
        }
        int grandEntry = parentEntries[parent];
        copyEntry(entry ^ 1, grandEntry);
        freeNode(parent);
        int node = grandEntry >> 1;
        if (node != HEADER) {
            refitUpward(node, false, false);
        }
        updateHeaderHeight();
        return grandEntry;
    }

    /**
     * Walks from {@code node} towards the root, optionally rotating each node (Kopta et al. 2012), then writing its
     * box (union of its entries), category mask and height into the entry that references it. The walk stops once
     * nothing changes any more: an unchanged entry leaves every box, mask and height above it as it was, and a
     * rotation only looks two levels down, so after two quiet levels (one without rotations) no ancestor has
     * anything new to see. In a large tree most insertions stop a few levels above the leaf instead of refitting
     * (and missing the cache on) the whole path. The ancestors above are then only marked touched, up to the first
     * one already marked (Box2D's enlarged flag).
     */
    private void refitUpward(int node, boolean rotate, boolean grandchildSwaps) {
        int quietLimit = rotate ? 2 : 1;
        // The first level never counts as quiet: its node is new, or lost a child, so the level above must see it
        // even when its box and height happen to come out as before.
        int quiet = -1;
        int n = node;
        while (n != HEADER) {
            boolean swapped = rotate && rotate(n, grandchildSwaps);
            int entry = parentEntries[n];
            if (refitEntry(entry) || swapped) {
                quiet = 0;
            } else if (++quiet == quietLimit) {
                markTouchedFrom(entry >> 1);
                return;
            }
            n = entry >> 1;
        }
    }

    /** Marks {@code node} and its ancestors touched, up to the first one already touched (all above it are too). */
    private void markTouchedFrom(int node) {
        for (int n = node; n != HEADER && !touched[n]; n = parentEntries[n] >> 1) {
            touched[n] = true;
        }
    }

    /**
     * Recomputes the box, mask and node height of the internal node referenced by {@code entry}.
     *
     * @return whether any of them changed
     */
    private boolean refitEntry(int entry) {
        final int[] r = records;
        int n = r[refIndex(entry)];
        touched[n] = true;
        boolean changed = refitBox(entry, n);
        int oa = recordIndex(n);
        int mask = r[oa + MASK] | r[oa + MASK + 1];
        int height = 1 + Math.max(heightOf(r[oa + REF]), heightOf(r[oa + REF + 1]));
        int m = maskIndex(entry);
        changed |= mask != r[m] || height != heights[n];
        r[m] = mask;
        heights[n] = height;
        return changed;
    }

    /**
     * After a leaf's box changed in place inside its parent's box (no structural change, so no mask or height
     * can change, and no node is marked for {@link #rebuild}): rewrites each ancestor's box as the union of its
     * entries, from {@code node} up to the first one that comes out unchanged.
     */
    private void refitBoxesUpward(int node) {
        for (int n = node; n != HEADER; ) {
            int entry = parentEntries[n];
            if (!refitBox(entry, n)) {
                return;
            }
            n = entry >> 1;
        }
    }

    /**
     * Writes the union of node {@code n}'s two entry boxes into {@code entry} (the entry referencing it).
     *
     * @return whether the box changed
     */
    private boolean refitBox(int entry, int n) {
        final int[] r = records;
        int o = boxIndex(entry);
        int oa = recordIndex(n);
        int ob = oa + BOX;
        // Compared as bits: the boxes are never NaN, and a changed bit pattern is a changed box.
        int x0 = bits(Math.min(f(r[oa]), f(r[ob])));
        int y0 = bits(Math.min(f(r[oa + 1]), f(r[ob + 1])));
        int z0 = bits(Math.min(f(r[oa + 2]), f(r[ob + 2])));
        int x1 = bits(Math.max(f(r[oa + 3]), f(r[ob + 3])));
        int y1 = bits(Math.max(f(r[oa + 4]), f(r[ob + 4])));
        int z1 = bits(Math.max(f(r[oa + 5]), f(r[ob + 5])));
        boolean changed = x0 != r[o] || y0 != r[o + 1] || z0 != r[o + 2] || x1 != r[o + 3] || y1 != r[o + 4]
                || z1 != r[o + 5];
        r[o] = x0;
        r[o + 1] = y0;
        r[o + 2] = z0;
        r[o + 3] = x1;
        r[o + 4] = y1;
        r[o + 5] = z1;
        return changed;
    }

    /**
     * Tree rotation at node A with entries B and C (Kopta, Ize, Spjut, Brunvand, Davis, Kensler 2012, "Fast,
     * Effective BVH Updates for Animated Scenes"; the four swaps of Box2D's {@code b2RotateNodes}): swapping B with
     * a child of C (or C with a child of B) changes only the box of the node that receives it; swapping a child of
     * B with a child of C changes both. Do the swap that shrinks the surface area the most, if any does. When no
     * swap changes the area but one of the first four lowers the node (identical or nested boxes), do that one:
     * otherwise n identical boxes would form a chain of height n.
     *
     * @return whether a swap was made
     */
    private boolean rotate(int a, boolean grandchildSwaps) {
        int first = 2 * a;
        double bestGain = 0;
        // Heights only break exact ties, so they are read only then: each one is a load from another node.
        int bestHeight = -1;
        int swapFrom = -1;
        int swapTo = -1;
        // Swap child 'from' with grandchild 'to' under the other child: that node's box becomes from u (to ^ 1).
        for (int from = first; from <= first + 1; from++) {
            int receiver = child(from ^ 1);
            if (receiver < 0) {
                continue;
            }
            double receiverCost = entryCost(from ^ 1);
            for (int to = 2 * receiver; to <= 2 * receiver + 1; to++) {
                double gain = receiverCost - unionCost(from, to ^ 1);
                // The largest area gain; on an exact tie (identical or nested boxes, where the surface area cannot
                // tell arrangements apart and insertion would build a chain) the lower tree, as an AVL rotation.
                if (gain > bestGain) {
                    bestGain = gain;
                    bestHeight = -1;
                    swapFrom = from;
                    swapTo = to;
                } else if (gain == bestGain) {
                    if (bestHeight < 0) {
                        bestHeight = arrangementHeight(first, swapFrom, swapTo);
                    }
                    int height = arrangementHeight(first, from, to);
                    if (height < bestHeight) {
                        bestHeight = height;
                        swapFrom = from;
                        swapTo = to;
                    }
                }
            }
        }
        // Swap a grandchild under one child with a grandchild under the other (Kopta et al.'s grandchild rotations,
        // which Box2D leaves out): both children's boxes change, so the gain counts both. The grandchildren's
        // boxes are in the two children's records, which the swaps above have already read. After one million
        // one-by-one insertions the area ratio came out 1.109x a fresh build with them, 1.145x without.
        int b = child(first);
        int c = child(first + 1);
        if (grandchildSwaps && b >= 0 && c >= 0) {
            double pairCost = entryCost(first) + entryCost(first + 1);
            for (int i = 2 * b; i <= 2 * b + 1; i++) {
                for (int j = 2 * c; j <= 2 * c + 1; j++) {
                    double gain = pairCost - unionCost(i ^ 1, j) - unionCost(j ^ 1, i);
                    if (gain > bestGain) {
                        bestGain = gain;
                        swapFrom = i;
                        swapTo = j;
                    }
                }
            }
        }
        if (swapFrom < 0) {
            return false;
        }
        swapEntries(swapFrom, swapTo);
        if (swapFrom >> 1 == a) {
            refitEntry(swapFrom ^ 1);
        } else {
            refitEntry(first);
            refitEntry(first + 1);
        }
        return true;
    }

    /**
     * Height of node {@code 2 * first}'s subtree after swapping entry {@code from} with grandchild entry {@code to}
     * ({@code from < 0}: as it is now).
     */
    private int arrangementHeight(int first, int from, int to) {
        if (from < 0) {
            return 1 + Math.max(heightOf(child(first)), heightOf(child(first + 1)));
        }
        return 1 + Math.max(heightOf(child(to)), 1 + Math.max(heightOf(child(from)), heightOf(child(to ^ 1))));
    }

    private void swapEntries(int e1, int e2) {
        final int[] r = records;
        swapRange(r, boxIndex(e1), boxIndex(e2), BOX);
        int m1 = maskIndex(e1);
        int m2 = maskIndex(e2);
        int m = r[m1];
        r[m1] = r[m2];
        r[m2] = m;
        int c1 = refIndex(e1);
        int c2 = refIndex(e2);
        int r1 = r[c1];
        int r2 = r[c2];
        r[c1] = r2;
        r[c2] = r1;
        linkParent(r2, e1);
        linkParent(r1, e2);
    }

    /** Copies entry {@code from} (box, mask, reference) into {@code to} and points the child back at {@code to}. */
    private void copyEntry(int from, int to) {
        final int[] r = records;
        System.arraycopy(r, boxIndex(from), r, boxIndex(to), BOX);
        r[maskIndex(to)] = r[maskIndex(from)];
        int ref = r[refIndex(from)];
        r[refIndex(to)] = ref;
        linkParent(ref, to);
    }

    void linkParent(int ref, int entry) {
        if (ref >= 0) {
            parentEntries[ref] = entry;
        } else {
            leafEntries[slotOf(ref)] = entry;
        }
    }

    void setEntry(int entry, int ref, int mask, float f0, float f1, float f2, float f3, float f4, float f5) {
        final int[] r = records;
        int o = boxIndex(entry);
        r[o] = bits(f0);
        r[o + 1] = bits(f1);
        r[o + 2] = bits(f2);
        r[o + 3] = bits(f3);
        r[o + 4] = bits(f4);
        r[o + 5] = bits(f5);
        r[refIndex(entry)] = ref;
        r[maskIndex(entry)] = mask;
    }

    /** An empty entry: no reference, mask 0 (never descended), an inverted box. */
    private void clearEntry(int entry) {
        float inf = Float.POSITIVE_INFINITY;
        setEntry(entry, EMPTY, 0, inf, inf, inf, -inf, -inf, -inf);
    }

    // ---- Record addressing: entry e = 2 * node + side. ----

    /** @return the index in {@link #records} of node {@code node}'s record (entry boxes at +0 and +{@link #BOX}) */
    static int recordIndex(int node) {
        return BASE + node * NODE;
    }

    /** @return the index in {@link #records} of entry {@code entry}'s box: 6 float bits, min x, y, z, max x, y, z */
    static int boxIndex(int entry) {
        return BASE + (entry >> 1) * NODE + (entry & 1) * BOX;
    }

    /** @return the index in {@link #records} of entry {@code entry}'s child reference */
    static int refIndex(int entry) {
        return BASE + (entry >> 1) * NODE + REF + (entry & 1);
    }

    /** @return the index in {@link #records} of entry {@code entry}'s folded category mask */
    static int maskIndex(int entry) {
        return BASE + (entry >> 1) * NODE + MASK + (entry & 1);
    }

    /**
     * The slot of an object reference. An object is referenced by {@code ~handle}, generation included, so a
     * query reports the handle straight from the node record without reading the handle table.
     *
     * @param ref a negative (object) reference
     * @return its slot
     */
    static int slotOf(int ref) {
        return ~ref & Handles.SLOT_MASK;
    }

    /** @return the child reference held by {@code entry} */
    int child(int entry) {
        return records[refIndex(entry)];
    }

    /** @return the float whose bits a record holds */
    static float f(int bits) {
        return Float.intBitsToFloat(bits);
    }

    /** @return the bits a record holds for a float (boxes are never NaN) */
    static int bits(float value) {
        return Float.floatToRawIntBits(value);
    }

    /**
     * 64 category bits folded to the 32 an entry holds, {@code bits | bits >>> 32}: if an object shares a bit with a
     * query mask, the folds share one too, so a folded mask prunes a subtree only when nothing below can match
     * (never a false miss); the exact 64-bit test is made per object ({@link #categoryMatches}). A fold is 0 only for
     * 0, so for the mask {@code -1L} the folded test is already exact.
     */
    static int fold(long categories) {
        return (int) (categories | categories >>> 32);
    }

    /** The exact category test of object {@code slot} once its entry's folded test passed. */
    boolean categoryMatches(int slot, long categoryMask) {
        return categoryMask == -1L || (objectCategories[slot] & categoryMask) != 0;
    }

    /** Height of a reference: an internal node's stored height; 0 for an object or {@link #EMPTY}. */
    int heightOf(int ref) {
        return ref >= 0 ? heights[ref] : 0;
    }

    /** The header's height bounds the traversal stacks of the queries. */
    void updateHeaderHeight() {
        heights[HEADER] = 1 + heightOf(child(0));
    }

    /** Surface-area cost: half the surface area in 3D, the half perimeter in the 2D facade (Box2D). */
    private double cost(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double x = maxX - minX;
        double y = maxY - minY;
        if (planar) {
            return x + y;
        }
        double z = maxZ - minZ;
        return x * y + y * z + z * x;
    }

    double entryCost(int entry) {
        int o = boxIndex(entry);
        final int[] r = records;
        return cost(f(r[o]), f(r[o + 1]), f(r[o + 2]), f(r[o + 3]), f(r[o + 4]), f(r[o + 5]));
    }

    private double unionCost(int e1, int e2) {
        int o1 = boxIndex(e1);
        int o2 = boxIndex(e2);
        final int[] r = records;
        return cost(Math.min(f(r[o1]), f(r[o2])), Math.min(f(r[o1 + 1]), f(r[o2 + 1])),
                Math.min(f(r[o1 + 2]), f(r[o2 + 2])), Math.max(f(r[o1 + 3]), f(r[o2 + 3])),
                Math.max(f(r[o1 + 4]), f(r[o2 + 4])), Math.max(f(r[o1 + 5]), f(r[o2 + 5])));
    }

    int allocateNode() {
        int node;
        if (freeNode >= 0) {
            node = freeNode;
            freeNode = parentEntries[node];
            freeNodeCount--;
        } else {
            if (nodeHighWater == nodeCapacity) {
                growNodes(nodeCapacity + (nodeCapacity >> 1) + 1);
            }
            node = nodeHighWater++;
        }
        heights[node] = 1;
        return node;
    }

    /**
     * Fills {@code into} with new nodes, as that many calls of {@link #allocateNode} would (the free list first,
     * then the end of the node arrays, grown at most once), for a build that writes all of them, heights included.
     */
    void allocateNodes(int[] into) {
        int k = 0;
        while (k < into.length && freeNode >= 0) {
            into[k++] = allocateNode();
        }
        int first = allocateNodeRange(into.length - k);
        for (int node = first; k < into.length; k++) {
            into[k] = node++;
        }
    }

    /**
     * Takes {@code count} new nodes from the end of the node arrays (grown at most once), numbered consecutively,
     * for a build that writes all of them, heights included; the free list is left as it is.
     *
     * @return the first of them
     */
    int allocateNodeRange(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, got " + count);
        }
        if (nodeHighWater + count > nodeCapacity) {
            growNodes(Math.max(nodeHighWater + count, nodeCapacity + (nodeCapacity >> 1) + 1));
        }
        int first = nodeHighWater;
        nodeHighWater += count;
        return first;
    }

    void freeNode(int node) {
        parentEntries[node] = freeNode;
        heights[node] = FREE;
        freeNode = node;
        freeNodeCount++;
    }

    /** Notes that the nodes are numbered depth first: the next renumbering waits for 1.5x as many. */
    void markDepthFirst() {
        renumberMark = Math.max(RENUMBER_MIN_NODES, nodeHighWater + (nodeHighWater >> 1));
    }

    /** Grows the node arrays to hold at least {@code nodes} nodes (header included); no-op when they do. */
    void ensureNodeCapacity(int nodes) {
        if (nodes > nodeCapacity) {
            growNodes(nodes);
        }
    }

    /** @return the length of the node arrays, in nodes */
    int nodeCapacity() {
        return nodeCapacity;
    }

    /** Resizes the node arrays to {@code capacity} nodes, at least {@link #nodeHighWater}. */
    private void growNodes(int capacity) {
        nodeCapacity = capacity;
        int length = recordIndex(capacity);
        records = records == null ? new int[length] : Arrays.copyOf(records, length);
        parentEntries = parentEntries == null ? new int[capacity] : Arrays.copyOf(parentEntries, capacity);
        heights = heights == null ? new int[capacity] : Arrays.copyOf(heights, capacity);
        touched = touched == null ? new boolean[capacity] : Arrays.copyOf(touched, capacity);
    }

    /**
     * Renumbers the internal nodes in place in depth-first order (entry 0's subtree first, so a node's first child
     * is its next record and every subtree is one contiguous range: the order of a bulk build, {@link TreeBuild}),
     * with the nodes in use first and no free nodes between them. O(n), allocation-free: the parent entries, which
     * are rewritten at the end anyway, hold each node's new number meanwhile.
     */
    void renumberDepthFirst() {
        final int[] r = records;
        final int highWater = nodeHighWater;
        final int[] number = parentEntries;
        int[] pending = searchNodes;
        if (pending.length < heights[HEADER] + 2) {
            pending = searchNodes = new int[2 * (heights[HEADER] + 2)];
            searchKeys = new double[pending.length];
        }
        number[HEADER] = HEADER;
        int next = 1;
        int size = 0;
        if (r[refIndex(0)] >= 0) {
            pending[size++] = r[refIndex(0)];
        }
        while (size > 0) {
            int node = pending[--size];
            number[node] = next++;
            int o = recordIndex(node);
            int c0 = r[o + REF];
            int c1 = r[o + REF + 1];
            if (c1 >= 0) {
                pending[size++] = c1;
            }
            if (c0 >= 0) {
                pending[size++] = c0;
            }
        }
        final int used = next;
        for (int node = 1; node < highWater; node++) {
            if (heights[node] == FREE) {
                number[node] = next++;
            }
        }
        // Apply the permutation cycle by cycle: each swap puts one node in its final place.
        for (int i = 1; i < highWater; i++) {
            for (int p = number[i]; p != i; p = number[i]) {
                swapNodes(i, p);
                number[i] = number[p];
                number[p] = p;
            }
        }
        for (int node = used; node < highWater; node++) {
            touched[node] = false;
        }
        nodeHighWater = used;
        freeNode = -1;
        freeNodeCount = 0;
        relinkDepthFirst(used);
    }

    private void swapNodes(int a, int b) {
        swapRange(records, recordIndex(a), recordIndex(b), NODE);
        int h = heights[a];
        heights[a] = heights[b];
        heights[b] = h;
        boolean t = touched[a];
        touched[a] = touched[b];
        touched[b] = t;
    }

    /** Swaps {@code a[i .. i + n - 1]} with {@code a[j .. j + n - 1]} (disjoint ranges). */
    private static void swapRange(int[] a, int i, int j, int n) {
        for (int k = 0; k < n; k++) {
            int t = a[i + k];
            a[i + k] = a[j + k];
            a[j + k] = t;
        }
    }

    /**
     * After {@link #renumberDepthFirst}'s permutation, whose records still name children by their old numbers:
     * writes the new child numbers (replaying the same preorder) and every parent entry and leaf entry.
     */
    private void relinkDepthFirst(int nodes) {
        final int[] r = records;
        // Where each node's subtree ends, from a backward pass (children have higher numbers than their parent),
        // kept in the parent entries until the forward pass overwrites each one after its last read.
        final int[] subtreeEnd = parentEntries;
        for (int node = nodes - 1; node >= 1; node--) {
            int o = recordIndex(node);
            int end = node + 1;
            if (r[o + REF] >= 0) {
                end = subtreeEnd[end];
            }
            if (r[o + REF + 1] >= 0) {
                end = subtreeEnd[end];
            }
            subtreeEnd[node] = end;
        }
        parentEntries[HEADER] = -1;
        for (int node = 0; node < nodes; node++) {
            int o = recordIndex(node);
            int child = node + 1;
            for (int side = 0; side < 2; side++) {
                int ref = r[o + REF + side];
                int entry = 2 * node + side;
                if (ref >= 0) {
                    int end = subtreeEnd[child];
                    r[o + REF + side] = child;
                    parentEntries[child] = entry;
                    child = end;
                } else if (ref != EMPTY) {
                    leafEntries[slotOf(ref)] = entry;
                }
            }
        }
    }

    void growObjects(int capacity) {
        tight = tight == null ? new float[capacity * BOX] : Arrays.copyOf(tight, capacity * BOX);
        userValues = userValues == null ? new long[capacity] : Arrays.copyOf(userValues, capacity);
        objectCategories = objectCategories == null ? new long[capacity] : Arrays.copyOf(objectCategories, capacity);
        leafEntries = leafEntries == null ? new int[capacity] : Arrays.copyOf(leafEntries, capacity);
        leafFat = leafFat == null ? new float[capacity * BOX] : Arrays.copyOf(leafFat, capacity * BOX);
    }

    // =================================================================================================
    // Queries
    // =================================================================================================

    /**
     * {@inheritDoc}
     *
     * <p>Subtrees whose category mask or box misses the query are skipped; node and fat boxes are tested against
     * the query box rounded outward to floats (a superset of the exact overlaps, so never a false miss), and each
     * object is then decided exactly against its stored tight box, in double ({@link AabbAabb#test}, closed).
     *
     * @throws java.util.ConcurrentModificationException if the tree changed during the query (its visitor changed
     *     it, or another thread did without synchronisation: see the class comment, Queries and threads)
     */
    @Override
    public void queryAabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                          long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        flushIfPending();
        final int mark = stack.beginQuery();
        final int modifications = modCount;
        try {
            boxWalk(minX, minY, minZ, maxX, maxY, maxZ, categoryMask, visitor, stack);
        } catch (RuntimeException e) {
            throw failure(stack.failure(e, mark), modifications);
        }
        checkUnchanged(modifications);
        stack.checkQuery(mark);
    }

    /** {@link #queryAabb} inside the stack's mark ({@link TraversalStack#beginQuery}). */
    private void boxWalk(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        final double x0 = minX - originX;
        final double y0 = minY - originY;
        final double z0 = minZ - originZ;
        final double x1 = maxX - originX;
        final double y1 = maxY - originY;
        final double z1 = maxZ - originZ;
        final int[] r = records;
        // Entries are tested against the query box rounded outward to floats (never a false miss); objects are
        // then decided exactly in double.
        final float fx0 = OutwardFloat.down(x0);
        final float fy0 = OutwardFloat.down(y0);
        final float fz0 = OutwardFloat.down(z0);
        final float fx1 = OutwardFloat.up(x1);
        final float fy1 = OutwardFloat.up(y1);
        final float fz1 = OutwardFloat.up(z1);
        final int foldedMask = fold(categoryMask);
        // Windowed order (TraversalStack.ring): up to WINDOW pushed records in flight at once.
        final int window = queryWindow();
        // Large trees hold objects back and decide them in batches (TraversalStack.deferObject).
        final boolean defer = TraversalStack.defersObjects(nodeHighWater);
        stack.clearDeferredObjects();
        final int[] st = stack.ring(heights[HEADER], 1);
        final int wrap = st.length - 1;
        int head = 0;
        int sp = 0;
        st[sp++] = HEADER;
        long nodes = -1;
        final int budget = nodeHighWater;
        while (sp != head) {
            int node = sp - head < window ? st[head++ & wrap] : st[--sp & wrap];
            if (++nodes > budget) {
                throw lostQuery();
            }
            int record = recordIndex(node);
            // The two sides by two calls, not a loop over them: C2 does not unroll a two-trip loop with a body this
            // large, and in interleaved A/B runs two calls ran 1.24x (JDK 17) and 1.93x (JDK 25) the loop's speed
            // (a loop around the same call: 0.79x and 0.90x of two calls). The entry step is two methods so that
            // each stays under C2's inlining limit for hot methods (FreqInlineSize, 325 bytecodes).
            sp = boxQueryEntry(r, record, 0, foldedMask, fx0, fy0, fz0, fx1, fy1, fz1, x0, y0, z0, x1, y1, z1,
                    categoryMask, visitor, stack, defer, st, sp, wrap);
            if (sp == QUERY_STOPPED) {
                break;
            }
            sp = boxQueryEntry(r, record, 1, foldedMask, fx0, fy0, fz0, fx1, fy1, fz1, x0, y0, z0, x1, y1, z1,
                    categoryMask, visitor, stack, defer, st, sp, wrap);
            if (sp == QUERY_STOPPED) {
                break;
            }
        }
        if (sp != QUERY_STOPPED) {
            boxQueryDeferred(x0, y0, z0, x1, y1, z1, categoryMask, visitor, stack);
        }
        stack.countVisits(nodes, 0);
    }

    /**
     * What a query throws when it opens more nodes than the tree has, which a walk of the tree never does: what it
     * took back from its stack was written by another query (one nested in a visitor on the same stack), or the
     * tree was changed under it (then {@link #failure} makes it a {@link ConcurrentModificationException}). Without
     * the count such a query could walk the same nodes forever.
     */
    static IllegalStateException lostQuery() {
        return new IllegalStateException("the query opened more nodes than the tree has: its scratch (the"
                + " TraversalStack, or the NearestNeighbours of a nearest query) is in use by another query at the"
                + " same time (a query run from inside a visitor, filter, exact test or distance function needs"
                + " scratch of its own)");
    }

    /**
     * The end of a walk of this storage that read {@link #modCount} at its start (after taking pending adds in):
     * fail fast, as {@code java.util}'s iterators do, if the tree changed meanwhile. Its callbacks changed it, or
     * another thread did without synchronisation; either way the walk may have missed objects or reported removed
     * ones. One field read; read views never change, so on them it always passes.
     *
     * @param modifications {@link #modCount} when the walk started
     * @throws ConcurrentModificationException if the tree changed since
     */
    void checkUnchanged(int modifications) {
        if (modCount != modifications) {
            throw changedDuringQuery(null);
        }
    }

    /**
     * {@link #checkUnchanged} for a walk that no node budget bounds (pair walks: a legal one can take a number of
     * steps quadratic in the tree's size), called every {@link #WALK_CHECK_INTERVAL} steps. Another thread's change
     * can leave a cycle in the hierarchy such a walk sees, which it would then follow forever. The read is opaque:
     * a plain one C2 may hoist out of the walk's loop, an opaque one it must perform at every call ({@link
     * VarHandle#getOpaque}), so it sees the other thread's plain write as soon as the hardware makes it visible
     * (the writers' plain writes give no formal progress guarantee; on the JVMs and processors tested they are
     * seen within the walk's next check).
     *
     * @param modifications {@link #modCount} when the walk started
     * @throws ConcurrentModificationException if the tree changed since, as far as this thread sees by now
     */
    void checkUnchangedMidWalk(int modifications) {
        if ((int) MOD_COUNT.getOpaque(this) != modifications) {
            throw changedDuringQuery(null);
        }
    }

    /** Steps between two {@link #checkUnchangedMidWalk} calls of a walk, a power of two (mask {@code - 1}). */
    static final int WALK_CHECK_INTERVAL = 1024;

    private static final VarHandle MOD_COUNT;

    static {
        try {
            MOD_COUNT = MethodHandles.lookup().findVarHandle(DynamicAabbTree.class, "modCount", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * What a walk that read {@link #modCount} at its start and failed with {@code e} should throw: {@code e}, or, if
     * the tree changed meanwhile, a {@link ConcurrentModificationException} with {@code e} as its cause (a walk
     * reading a changed hierarchy can fail in any way: an index out of range, a removed handle, {@link #lostQuery}).
     */
    RuntimeException failure(RuntimeException e, int modifications) {
        return modCount == modifications ? e : changedDuringQuery(e);
    }

    private static ConcurrentModificationException changedDuringQuery(Throwable cause) {
        return new ConcurrentModificationException("the tree changed during a query: a callback of the query"
                + " (visitor, filter, exact test, distance function) added, removed, moved or recategorised an"
                + " object or rebuilt, optimised, compacted, cleared or moved the origin of the tree, or another"
                + " thread did so without"
                + " synchronisation; the query's answers are undefined. Collect the handles and change the tree once"
                + " the query has returned, and never mutate it while another thread queries it (DynamicAabbTree,"
                + " Queries and threads)", cause);
    }

    /** The window of this tree's windowed traversals ({@link TraversalStack#window}). */
    int queryWindow() {
        return TraversalStack.window(nodeHighWater);
    }

    /** What {@link #boxQueryEntry} returns when the visitor stopped the query (ring tops are never negative). */
    private static final int QUERY_STOPPED = -1;

    /**
     * One entry of a box query: the folded mask and the float test of its box; an internal node is pushed onto the
     * ring (its record's first word read at once, see {@link TraversalStack#retain}), an object goes to
     * {@link #boxQueryObject}.
     *
     * @return the ring's new top, or {@link #QUERY_STOPPED}
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private int boxQueryEntry(int[] r, int record, int side, int foldedMask,
                              float fx0, float fy0, float fz0, float fx1, float fy1, float fz1,
                              double x0, double y0, double z0, double x1, double y1, double z1,
                              long categoryMask, OverlapVisitor visitor, TraversalStack stack, boolean defer,
                              int[] ring, int top, int wrap) {
        if ((r[record + MASK + side] & foldedMask) == 0) {
            return top;
        }
        int o = record + side * BOX;
        float b0 = f(r[o]);
        float b1 = f(r[o + 1]);
        float b2 = f(r[o + 2]);
        float b3 = f(r[o + 3]);
        float b4 = f(r[o + 4]);
        float b5 = f(r[o + 5]);
        if (!(b0 <= fx1 && fx0 <= b3 && b1 <= fy1 && fy0 <= b4 && b2 <= fz1 && fz0 <= b5)) {
            return top;
        }
        int ref = r[record + REF + side];
        if (ref >= 0) {
            ring[top & wrap] = ref;
            stack.retain(r[recordIndex(ref)]);
            return top + 1;
        }
        // A fat box inside the query holds the tight box too: the object's own box need not be loaded.
        boolean inside = b0 >= x0 && b1 >= y0 && b2 >= z0 && b3 <= x1 && b4 <= y1 && b5 <= z1;
        if (defer) {
            return boxQueryDefer(ref, inside, x0, y0, z0, x1, y1, z1, categoryMask, visitor, stack) ? top
                    : QUERY_STOPPED;
        }
        return boxQueryObject(ref, inside, x0, y0, z0, x1, y1, z1, categoryMask, visitor, stack) ? top
                : QUERY_STOPPED;
    }

    /**
     * Holds back an object a box query reached ({@link TraversalStack#deferObject}), deciding the held-back
     * objects when the batch is full. A method of its own, as {@link #boxQueryObject}, so that the entry step
     * stays small enough for C2 to inline.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private boolean boxQueryDefer(int ref, boolean inside, double x0, double y0, double z0,
                                  double x1, double y1, double z1, long categoryMask, OverlapVisitor visitor,
                                  TraversalStack stack) {
        stack.retain(touchObject(slotOf(ref), !inside, categoryMask));
        return !stack.deferObject(ref, inside ? 0 : 1)
                || boxQueryDeferred(x0, y0, z0, x1, y1, z1, categoryMask, visitor, stack);
    }

    /**
     * Decides the objects a box query held back ({@link TraversalStack#deferObject}; state 0: the fat box lies
     * inside the query), in the order they came.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private boolean boxQueryDeferred(double x0, double y0, double z0, double x1, double y1, double z1,
                                     long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        int n = stack.deferredObjects();
        for (int i = 0; i < n; i++) {
            if (!boxQueryObject(stack.deferredReference(i), stack.deferredState(i) == 0, x0, y0, z0, x1, y1, z1,
                    categoryMask, visitor, stack)) {
                return false;
            }
        }
        stack.clearDeferredObjects();
        return true;
    }

    /**
     * Reads what deciding object {@code slot} will need, for {@link TraversalStack#retain} when a traversal defers
     * it ({@link TraversalStack#deferObject}): its user value, the first and last words of its tight box if the box
     * is to be tested (a box may straddle two cache lines), its categories if the mask is not {@code -1L}.
     */
    int touchObject(int slot, boolean box, long categoryMask) {
        int v = (int) userValues[slot];
        if (box) {
            int t = slot * BOX;
            v += Float.floatToRawIntBits(tight[t]) + Float.floatToRawIntBits(tight[t + BOX - 1]);
        }
        if (categoryMask != -1L) {
            v += (int) objectCategories[slot];
        }
        return v;
    }

    /**
     * The object part of {@link #boxQueryEntry}, a method of its own so that both stay small enough for C2 to
     * inline into the traversal: the exact category test, the tight-box test unless the fat box lies inside the
     * query, and the visitor. Counts the object as a leaf visit.
     *
     * @return false if the visitor stopped the query
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private boolean boxQueryObject(int ref, boolean fatInside, double x0, double y0, double z0,
                                   double x1, double y1, double z1, long categoryMask, OverlapVisitor visitor,
                                   TraversalStack stack) {
        stack.countVisits(0, 1);
        int slot = slotOf(ref);
        if (!categoryMatches(slot, categoryMask)) {
            return true;
        }
        if (!fatInside) {
            int t = slot * BOX;
            float[] tb = tight;
            if (!AabbAabb.test(tb[t], tb[t + 1], tb[t + 2], tb[t + 3], tb[t + 4], tb[t + 5], x0, y0, z0, x1, y1, z1)) {
                return true;
            }
        }
        return visitor.visit(~ref, userValues[slot]);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Nodes are tested with the kernel's robust slab test ({@link SegmentAabb#intersectInverse}, Williams et al.
     * 2005 with Ize 2013's far-bound enlargement: no false misses). The nearer child (by entry fraction) is
     * visited first, and every stack entry keeps its entry fraction, so entries beyond a clip are dropped when
     * popped (Jolt's early-out fraction). Comparisons are closed, so an object entered exactly at the clipped
     * fraction is still reported (the tie-break of {@link dev.boxwood.query.ClosestHit} relies on it).
     *
     * @throws java.util.ConcurrentModificationException if the tree changed during the query (its visitor changed
     *     it, or another thread did without synchronisation: see the class comment, Queries and threads)
     */
    @Override
    public void rayCast(double originX, double originY, double originZ,
                        double translationX, double translationY, double translationZ, double maxFraction,
                        long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        Arguments.requireSegment(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("stack", stack);
        Arguments.requireStartInFrame(originX, originY, originZ, maxFraction, this.originX, this.originY,
                this.originZ);
        flushIfPending();
        visitor.begin(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        visitor.frame(this.originX, this.originY, this.originZ);
        final int mark = stack.beginQuery();
        final int modifications = modCount;
        try {
            castWalk(originX, originY, originZ, translationX, translationY, translationZ, maxFraction, categoryMask,
                    visitor, stack);
        } catch (RuntimeException e) {
            throw failure(stack.failure(e, mark), modifications);
        }
        checkUnchanged(modifications);
        stack.checkQuery(mark);
    }

    /** {@link #rayCast} inside the stack's mark ({@link TraversalStack#beginQuery}). */
    private void castWalk(double originX, double originY, double originZ,
                          double translationX, double translationY, double translationZ, double maxFraction,
                          long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        final double ox = originX - this.originX;
        final double oy = originY - this.originY;
        final double oz = originZ - this.originZ;
        final double ix = SegmentAabb.inverse(translationX);
        final double iy = SegmentAabb.inverse(translationY);
        final double iz = SegmentAabb.inverse(translationZ);
        final int[] r = records;
        final int foldedMask = fold(categoryMask);
        final float[] tb = tight;
        final long[] uv = userValues;
        // Each popped node pushes at most 2 and leaves are pushed too: height + 3 entries suffice.
        final int capacity = heights[HEADER] + 3;
        final int[] st = stack.references(capacity);
        final double[] sf = stack.fractions(capacity);
        double max = maxFraction;
        // Entries are dropped only beyond the robust bound of the clip, so an object whose computed fraction
        // equals the clip is never lost to a node fraction that rounded a few ulps high.
        double popBound = maxFraction * Geom.ROBUST_FAR_SCALE;
        int sp = 0;
        st[sp] = HEADER;
        sf[sp++] = 0.0;
        int early = 0;
        long nodes = -1;
        final int budget = nodeHighWater;
        long leaves = 0;
        while (sp > 0) {
            sp--;
            if (sf[sp] > popBound) {
                continue;
            }
            int ref = st[sp];
            if (ref < 0) {
                int slot = slotOf(ref);
                int t = slot * BOX;
                leaves++;
                if (!categoryMatches(slot, categoryMask)) {
                    continue;
                }
                // Against the original maxFraction, so the fraction does not depend on earlier clips and every
                // index reports the same fraction for the same object (the closed test against max follows).
                double fraction = SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, maxFraction,
                        tb[t], tb[t + 1], tb[t + 2], tb[t + 3], tb[t + 4], tb[t + 5]);
                if (fraction < 0 || fraction > max) {
                    continue;
                }
                max = RayCastVisitor.nextMaxFraction(visitor.visit(~ref, uv[slot], fraction), max);
                if (max == RayCastVisitor.STOP) {
                    break;
                }
                popBound = max * Geom.ROBUST_FAR_SCALE;
                continue;
            }
            if (++nodes > budget) {
                throw lostQuery();
            }
            int o = recordIndex(ref);
            double t0 = (r[o + MASK] & foldedMask) == 0 ? Geom.NO_HIT
                    : SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, max,
                    f(r[o]), f(r[o + 1]), f(r[o + 2]), f(r[o + 3]), f(r[o + 4]), f(r[o + 5]));
            double t1 = (r[o + MASK + 1] & foldedMask) == 0 ? Geom.NO_HIT
                    : SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, max,
                    f(r[o + 6]), f(r[o + 7]), f(r[o + 8]), f(r[o + 9]), f(r[o + 10]), f(r[o + 11]));
            int ref0 = r[o + REF];
            int ref1 = r[o + REF + 1];
            sp = OrderedCast.pushNearLast(st, sf, sp, ref0, t0, ref1, t1);
            early += OrderedCast.loadEarly(r, tb, ref0, t0) + OrderedCast.loadEarly(r, tb, ref1, t1);
        }
        stack.countVisits(nodes, leaves);
        stack.retain(early);
    }

    // =================================================================================================
    // Accessors
    // =================================================================================================

    @Override
    DynamicAabbTree storage() {
        flushIfPending();
        return this;
    }

    @Override
    DynamicAabbTree frame() {
        return this;
    }

    @Override
    public int size() {
        return handles.size();
    }

    /**
     * {@inheritDoc}
     *
     * <p>A removed object's handle answers {@code false} for at least the next
     * {@code 128 * }{@link Handles#QUARANTINE} removals (131,072, its own included) however many objects are added
     * meanwhile: a holder of a handle (an AI's target, say) can ask whether its object still exists instead of
     * finding another object under the old handle (see {@link #remove}). O(1); pending deferred adds are contained
     * at once.
     */
    @Override
    public boolean contains(int handle) {
        return handles.isLive(handle);
    }

    @Override
    public long userValue(int handle) {
        return userValues[handles.slotOf(handle, "handle")];
    }

    @Override
    public long categoryBits(int handle) {
        return objectCategories[handles.slotOf(handle, "handle")];
    }

    @Override
    public void getTightBox(int handle, double[] dest) {
        int s = handles.slotOf(handle, "handle") * BOX;
        Arguments.requireBoxDestination(dest);
        OutwardFloat.loadBox(tight, s, originX, originY, originZ, dest);
    }

    /**
     * Copies the object's fat box (the box the tree indexes), in world coordinates, into {@code dest}.
     *
     * @param handle a live handle
     * @param dest an array of length {@code >= 6}: minX, minY, minZ, maxX, maxY, maxZ
     * @throws IllegalArgumentException for a stale handle, a null {@code dest} or one shorter than 6 (nothing
     *                                  written)
     */
    public void getFatBox(int handle, double[] dest) {
        int slot = handles.slotOf(handle, "handle");
        Arguments.requireBoxDestination(dest);
        flushIfPending();
        int o = boxIndex(leafEntries[slot]);
        final int[] r = records;
        dest[0] = originX + f(r[o]);
        dest[1] = originY + f(r[o + 1]);
        dest[2] = originZ + f(r[o + 2]);
        dest[3] = originX + f(r[o + 3]);
        dest[4] = originY + f(r[o + 4]);
        dest[5] = originZ + f(r[o + 5]);
    }

    /**
     * The height of the tree: 0 when empty or holding one object, else the number of internal nodes on the
     * longest root-to-object path.
     *
     * @return the height
     */
    public int height() {
        flushIfPending();
        return heightOf(child(0));
    }

    /**
     * The surface area heuristic quality measure of Box2D's {@code GetAreaRatio}: the summed surface area of all
     * internal nodes divided by the root's. For random lines through the root this is the expected number of
     * internal nodes they cross, so lower is better. 0 for a tree without internal nodes or with a flat root.
     * O(n). In the 2D facade, perimeters replace areas.
     *
     * @return the ratio: 0 as above, else {@code >= 1}
     */
    public double areaRatio() {
        flushIfPending();
        int root = child(0);
        if (root < 0) {
            return 0;
        }
        double rootCost = entryCost(0);
        if (rootCost <= 0) {
            return 0;
        }
        double sum = 0;
        for (int n = 1; n < nodeHighWater; n++) {
            if (heights[n] != FREE) {
                sum += entryCost(parentEntries[n]);
            }
        }
        return sum / rootCost;
    }

    /**
     * Bytes held by the tree's arrays (capacity, not just the used part), with 16 bytes per array header: the
     * nodes, the objects, the handles, the set of moved objects and the scratch of insertion and optimisation;
     * divide by {@link #size()} for bytes per object. Excludes the object headers of the tree and its helpers.
     *
     * @return the estimate
     */
    public long memoryBytes() {
        synchronized (flushLock) {
            return heldBytes();
        }
    }

    private long heldBytes() {
        return arrayBytes(records.length, 4)
                + arrayBytes(parentEntries.length, 4) + arrayBytes(heights.length, 4) + arrayBytes(touched.length, 1)
                + arrayBytes(tight.length, 4) + arrayBytes(userValues.length, 8)
                + arrayBytes(objectCategories.length, 8) + arrayBytes(leafEntries.length, 4)
                + (leafFat == null ? 0 : arrayBytes(leafFat.length, 4)) + handles.memoryBytes() + moved.memoryBytes()
                + arrayBytes(searchKeys.length, 8) + arrayBytes(searchNodes.length, 4)
                + optimizer.memoryBytes() + arrayBytes(pendingHandles.length, 4) + arrayBytes(pendingFat.length, 4)
                + arrayBytes(pendingMasks.length, 4);
    }

    static long arrayBytes(int length, int elementBytes) {
        return 16L + (long) length * elementBytes;
    }

    @Override
    public double originX() {
        return originX;
    }

    @Override
    public double originY() {
        return originY;
    }

    @Override
    public double originZ() {
        return originZ;
    }

    // =================================================================================================
    // Validation
    // =================================================================================================

    /**
     * Checks every structural invariant and throws on the first violation: parent and child links agree in both
     * directions; each internal node's height is 1 + its children's larger height; each entry's box contains the
     * boxes of its node's entries and its mask is their OR; each object's fat box contains its stored tight box
     * and equals the object's copy of it (which moves read); every live handle is reached exactly once from the
     * root; node and handle free lists and counts agree. O(n); meant for tests and debugging.
     *
     * @throws IllegalStateException with a message naming the node, entry or slot at fault
     */
    public void validate() {
        // not during a query's taking in of pending objects (deferred adds), which may run on another thread
        synchronized (flushLock) {
            validateHeld();
        }
    }

    private void validateHeld() {
        handles.validate();
        if (parentEntries[HEADER] != -1) {
            fail("header parent is " + parentEntries[HEADER] + ", expected -1");
        }
        if (child(1) != EMPTY || records[maskIndex(1)] != 0) {
            fail("header entry 1 must be empty");
        }
        int inTree = handles.size() - validatePending();
        int root = child(0);
        if (root == EMPTY) {
            if (inTree != 0) {
                fail("tree is empty but " + inTree + " objects are live and not pending");
            }
            if (records[maskIndex(0)] != 0) {
                fail("empty root entry has mask " + records[maskIndex(0)]);
            }
        } else {
            int leaves = validateSubtree(0);
            if (leaves != inTree) {
                fail("root reaches " + leaves + " objects but " + inTree + " are live and not pending");
            }
        }
        int expectedHeaderHeight = 1 + (root == EMPTY ? 0 : heightOf(root));
        if (heights[HEADER] != expectedHeaderHeight) {
            fail("header height " + heights[HEADER] + ", expected " + expectedHeaderHeight);
        }
        int free = 0;
        for (int n = freeNode; n >= 0; n = parentEntries[n]) {
            if (n >= nodeHighWater || heights[n] != FREE) {
                fail("free node list reaches node " + n + " which is not free");
            }
            if (++free > nodeHighWater) {
                fail("free node list has a cycle");
            }
        }
        if (free != freeNodeCount) {
            fail("free node list holds " + free + " nodes, count says " + freeNodeCount);
        }
        int internal = inTree > 1 ? inTree - 1 : 0;
        if (1 + internal + free != nodeHighWater) {
            fail("1 header + " + internal + " internal + " + free + " free nodes != " + nodeHighWater + " allocated");
        }
    }

    /** Checks the list of pending objects (deferred adds); returns their number. */
    private int validatePending() {
        if (pendingCount < 0 || pendingCount > pendingHandles.length || pendingFat.length != BOX * pendingHandles.length
                || pendingMasks.length != pendingHandles.length) {
            fail("pending count " + pendingCount + " or pending arrays (" + pendingHandles.length + " handles, "
                    + pendingFat.length + " floats, " + pendingMasks.length + " masks) out of step");
        }
        if (pendingCount > 0 && !hasPending) {
            fail(pendingCount + " objects are pending but the pending flag is clear");
        }
        for (int i = 0; i < pendingCount; i++) {
            int handle = pendingHandles[i];
            if (!handles.isLive(handle)) {
                fail("pending object " + i + " is handle " + handle + ", which is not live");
            }
            int slot = handle & Handles.SLOT_MASK;
            if (leafEntries[slot] != -1 - i) {
                fail("pending slot " + slot + " records " + leafEntries[slot] + ", expected " + (-1 - i));
            }
            if (pendingMasks[i] != fold(objectCategories[slot])) {
                fail("pending object " + i + " has mask " + Integer.toHexString(pendingMasks[i]) + ", slot " + slot
                        + " has categories " + Long.toHexString(objectCategories[slot]));
            }
            int t = slot * BOX;
            int f = i * BOX;
            for (int a = 0; a < 3; a++) {
                if (!(pendingFat[f + a] <= tight[t + a] && tight[t + a] <= tight[t + 3 + a]
                        && tight[t + 3 + a] <= pendingFat[f + 3 + a])) {
                    fail("pending slot " + slot + ": tight box "
                            + Arrays.toString(Arrays.copyOfRange(tight, t, t + BOX)) + " is not inside fat box "
                            + Arrays.toString(Arrays.copyOfRange(pendingFat, f, f + BOX)));
                }
            }
            checkFatCopy(slot, pendingFat, f);
        }
        return pendingCount;
    }

    /** The slot's copy of its fat box ({@link #leafFat}) is bit for bit {@code fat[at .. at + 5]}. */
    private void checkFatCopy(int slot, float[] fat, int at) {
        if (leafFat == null) {
            return; // a read view's copy keeps none
        }
        for (int a = 0; a < BOX; a++) {
            if (Float.floatToRawIntBits(leafFat[slot * BOX + a]) != Float.floatToRawIntBits(fat[at + a])) {
                fail("slot " + slot + ": the copy of its fat box "
                        + Arrays.toString(Arrays.copyOfRange(leafFat, slot * BOX, slot * BOX + BOX))
                        + " differs from " + Arrays.toString(Arrays.copyOfRange(fat, at, at + BOX)));
            }
        }
    }

    /** Checks the subtree under {@code entry} (iteratively); returns the number of objects in it. */
    private int validateSubtree(int rootEntry) {
        int[] pending = new int[64];
        int sp = 0;
        pending[sp++] = rootEntry;
        int leaves = 0;
        int visitedNodes = 0;
        while (sp > 0) {
            int entry = pending[--sp];
            int ref = child(entry);
            float[] box = entryBox(entry);
            if (ref == EMPTY) {
                fail("entry " + entry + " of node " + (entry >> 1) + " is empty");
            }
            if (ref < 0) {
                int slot = slotOf(ref);
                if (slot >= handles.highWater() || !handles.isLiveSlot(slot)) {
                    fail("entry " + entry + " references slot " + slot + " which is not live");
                }
                if (handles.handleOf(slot) != ~ref) {
                    fail("entry " + entry + " references handle " + ~ref + " but slot " + slot + " holds handle "
                            + handles.handleOf(slot));
                }
                if (leafEntries[slot] != entry) {
                    fail("slot " + slot + " records entry " + leafEntries[slot] + " but sits in entry " + entry);
                }
                if (records[maskIndex(entry)] != fold(objectCategories[slot])) {
                    fail("entry " + entry + " has mask " + Integer.toHexString(records[maskIndex(entry)])
                            + ", slot " + slot + " has categories " + Long.toHexString(objectCategories[slot]));
                }
                int t = slot * BOX;
                for (int i = 0; i < 3; i++) {
                    if (!(box[i] <= tight[t + i] && tight[t + i] <= tight[t + 3 + i] && tight[t + 3 + i] <= box[3 + i])) {
                        fail("slot " + slot + ": tight box " + Arrays.toString(Arrays.copyOfRange(tight, t, t + BOX))
                                + " is not inside fat box " + Arrays.toString(box));
                    }
                }
                checkFatCopy(slot, box, 0);
                leaves++;
                continue;
            }
            if (ref == HEADER || ref >= nodeHighWater) {
                fail("entry " + entry + " references node " + ref + " out of range");
            }
            if (heights[ref] == FREE) {
                fail("entry " + entry + " references free node " + ref);
            }
            if (parentEntries[ref] != entry) {
                fail("node " + ref + " records parent entry " + parentEntries[ref] + " but sits in entry " + entry);
            }
            if (++visitedNodes > nodeHighWater) {
                fail("the tree has a cycle");
            }
            int a = 2 * ref;
            int childA = child(a);
            int childB = child(a + 1);
            int expectedHeight = 1 + Math.max(heightOf(childA), heightOf(childB));
            if (childA >= 0 && heights[childA] == FREE || childB >= 0 && heights[childB] == FREE) {
                fail("node " + ref + " has a free child");
            }
            if (heights[ref] != expectedHeight) {
                fail("node " + ref + " has height " + heights[ref] + ", expected " + expectedHeight);
            }
            int childMasks = records[maskIndex(a)] | records[maskIndex(a + 1)];
            if (childMasks != records[maskIndex(entry)]) {
                fail("entry " + entry + " has mask " + Integer.toHexString(records[maskIndex(entry)])
                        + ", children OR to " + Integer.toHexString(childMasks));
            }
            for (int side = 0; side < 2; side++) {
                float[] inner = entryBox(a + side);
                for (int i = 0; i < 3; i++) {
                    if (!(box[i] <= inner[i] && inner[3 + i] <= box[3 + i])) {
                        fail("entry " + (a + side) + " box is not inside its parent entry " + entry);
                    }
                }
            }
            if (sp + 2 > pending.length) {
                pending = Arrays.copyOf(pending, pending.length * 2);
            }
            pending[sp++] = a;
            pending[sp++] = a + 1;
        }
        return leaves;
    }

    /** A copy of entry {@code entry}'s box (for validation and tests). */
    float[] entryBox(int entry) {
        int o = boxIndex(entry);
        float[] box = new float[BOX];
        for (int i = 0; i < BOX; i++) {
            box[i] = f(records[o + i]);
        }
        return box;
    }

    private static void fail(String message) {
        throw new IllegalStateException("DynamicAabbTree invalid: " + message);
    }
}
