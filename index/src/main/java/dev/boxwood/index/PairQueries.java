package dev.boxwood.index;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;

import static dev.boxwood.index.DynamicAabbTree.f;

/**
 * Overlapping pairs: every pair of objects whose stored tight boxes overlap, within one tree (self pairs), between
 * two trees (moving entities against a static world), or involving the objects that moved since the last call
 * (the broad phase).
 *
 * <p>Conventions: boxes are closed (touching boxes form a pair). An object takes part only if
 * {@code (categoryBits & categoryMask) != 0}.
 * The destination is cleared first, each pair appears once, and the pairs come sorted by {@code (first, second)}:
 * for pairs within one tree {@code first < second} (handles of that tree); for two trees {@code first} is a handle
 * of the first tree and {@code second} one of the second. The answer is deterministic: it does not depend on the
 * tree's shape.
 *
 * <p>Frames (the one frame rule of the queries: shapes move into the tree's frame, stored floats are never taken
 * back to world coordinates). Within one tree ({@link #selfPairs}, {@link #movedPairs}) both objects share the
 * frame, so their stored tight floats are compared as they are. Between two trees, {@link #treePairs treePairs(a,
 * b)} decides in {@code a}'s frame: with {@code d = originB - originA} computed once per coordinate in double, each
 * stored float {@code f} of {@code b} becomes the double {@code f + d} (one rounding) and is compared with
 * {@code a}'s stored float. Node culling applies the very same arithmetic to the fat boxes; a fat box contains its
 * tight boxes in stored floats and {@code f -> f + d} is monotone, so culling never drops a pair the leaf test
 * keeps. With the same origin ({@code d = 0}) the stored floats are compared as they are. Stored boxes are rounded
 * outward and rounding {@code f + d} is monotone, so boxes touching in world coordinates form a pair whenever
 * {@code world - origin} and {@code d} are exact in double (for example everything on a grid of {@code 1/1024});
 * boxes apart by less than the float rounding may form one too, and swapping the trees (deciding in {@code b}'s
 * frame) may decide such a borderline pair differently.
 *
 * <p>Self and tree-against-tree pairs descend both hierarchies at once (Ericson, "Real-Time Collision
 * Detection" 6.3.3; Bullet's {@code btDbvt::collideTT}): each pair of subtrees is visited at most once, the larger
 * box is split first, and pairs of entries whose fat boxes or category masks miss are dropped whole. Scratch lives
 * in the caller's {@link TraversalStack}; nothing is allocated once the stack and the {@link PairBuffer} have grown.
 * {@link #selfPairs} and {@link #treePairs} only read the trees (any number of concurrent calls while nothing
 * mutates; pending deferred adds are taken in safely, as by any query); {@link #movedPairs} clears the tree's moved
 * set, so it is a mutation.
 */
public final class PairQueries {

    /** Second half of a self task: pairs within one node's subtree. */
    private static final int SELF = -1;

    private PairQueries() {
    }

    /**
     * All pairs of objects of one tree whose tight boxes overlap, {@code first < second}, sorted.
     *
     * @param tree the tree, or a {@link ReadView} of one
     * @param categoryMask categories taking part ({@code -1L}: all)
     * @param dest receives the pairs (cleared first)
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments
     * @throws IllegalStateException if another query ran on {@code stack} meanwhile (from another thread), whose
     *     state this walk's answers would be mixed with
     * @throws java.util.ConcurrentModificationException when it sees that the tree (not a view) changed during the
     *     call: only another thread can change it here (no callback runs), without synchronisation, which the check
     *     catches only when this thread happens to see the change, a diagnosis rather than a guarantee
     *     ({@link DynamicAabbTree}, Queries and threads)
     */
    public static void selfPairs(ReadableTree tree, long categoryMask, PairBuffer dest, TraversalStack stack) {
        Arguments.requireNonNull("tree", tree);
        requireCommon(dest, stack);
        dest.clear();
        DynamicAabbTree t = tree.storage();
        descend(t, categoryMask, t, categoryMask, true, 0, 0, 0, dest, stack);
        dest.sort();
    }

    /**
     * All pairs {@code (object of a, object of b)} whose tight boxes overlap, sorted. The trees may have different
     * origins: {@code b}'s stored floats are moved into {@code a}'s frame ({@code f + (originB - originA)} in double,
     * see the class comment). Passing the same tree twice gives every overlapping ordered pair, an object with
     * itself included.
     *
     * @param a the first tree or a {@link ReadView} (for example the moving entities)
     * @param maskA categories of {@code a} taking part
     * @param b the second tree or a {@link ReadView} (for example the static world)
     * @param maskB categories of {@code b} taking part
     * @param dest receives the pairs (cleared first)
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments
     * @throws IllegalStateException if another query ran on {@code stack} meanwhile (from another thread), whose
     *     state this walk's answers would be mixed with
     * @throws java.util.ConcurrentModificationException when it sees that either tree (not a view) changed during
     *     the call: only another thread can change them here (no callback runs), without synchronisation, which the
     *     check catches only when this thread happens to see the change, a diagnosis rather than a guarantee
     *     ({@link DynamicAabbTree}, Queries and threads)
     */
    public static void treePairs(ReadableTree a, long maskA, ReadableTree b, long maskB, PairBuffer dest,
                                 TraversalStack stack) {
        Arguments.requireNonNull("a", a);
        Arguments.requireNonNull("b", b);
        requireCommon(dest, stack);
        dest.clear();
        DynamicAabbTree sa = a.storage();
        DynamicAabbTree sb = b.storage();
        // b's frame offset in a's frame, rounded once: the pair rule of the class comment
        descend(sa, maskA, sb, maskB, false, sb.originX() - sa.originX(), sb.originY() - sa.originY(),
                sb.originZ() - sa.originZ(), dest, stack);
        dest.sort();
    }

    /**
     * The broad phase: all overlapping pairs within the tree that involve at least one object added or moved
     * (every {@link DynamicAabbTree#move}, whether or not it re-inserted the leaf) since the previous call, each
     * pair once even if both objects moved, {@code first < second}, sorted; then forgets the moved objects.
     * Removed objects are forgotten at once; objects of a {@link DynamicAabbTree#build bulk-built} tree start
     * unmarked (use {@link #selfPairs} for the first frame). {@link DynamicAabbTree#setCategoryBits} does not mark an
     * object, so one that enters the mask by a change of categories alone is reported once it moves. Each moved
     * object is looked up in the tree by its tight box against the fat boxes (Box2D's {@code b2UpdatePairs}).
     * Moved objects outside the mask are forgotten too. {@link DynamicAabbTree#moveOrigin} marks no object either,
     * though it may widen stored boxes by a float step of the new frame: a pair that widening makes overlap is
     * reported by {@link #selfPairs}, and by this call only once one of the two moves.
     *
     * @param tree the tree (its moved set is cleared: not concurrent with queries; objects pending under
     *             {@link TreeConfig#withDeferredAdds deferred adds} are taken in first)
     * @param categoryMask categories taking part ({@code -1L}: all)
     * @param dest receives the pairs (cleared first)
     * @param stack the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments
     * @throws IllegalStateException if another query ran on {@code stack} meanwhile (from another thread), whose
     *     state this walk's answers would be mixed with
     * @throws java.util.ConcurrentModificationException when it sees that the tree changed during the call: only
     *     another thread can change it here (no callback runs), without synchronisation, which the check catches only
     *     when this thread happens to see the change, a diagnosis rather than a guarantee ({@link DynamicAabbTree},
     *     Queries and threads); the moved set is then kept
     */
    public static void movedPairs(DynamicAabbTree tree, long categoryMask, PairBuffer dest, TraversalStack stack) {
        Arguments.requireNonNull("tree", tree);
        requireCommon(dest, stack);
        dest.clear();
        // deferred adds: objects still pending are moved objects too, and must be in the hierarchy to be found
        tree.flushAdds();
        final MovedSet moved = tree.moved;
        final int[] r = tree.records;
        final int foldedMask = DynamicAabbTree.fold(categoryMask);
        final float[] tb = tree.tight;
        // marked as any walk of the stack: no callback runs here, but a walk this runs inside must know
        final int mark = stack.beginQuery();
        // and no callback can change the tree, but another thread can
        final int modifications = tree.modCount;
        int early = 0;
        long nodes = 0;
        long leaves = 0;
        try {
            // windowed order (TraversalStack.ring): up to WINDOW pushed records in flight
            final int[] st = stack.ring(tree.heights[DynamicAabbTree.HEADER], 1);
            final int wrap = st.length - 1;
            final int window = tree.queryWindow();
            for (int i = 0, n = moved.count(); i < n; i++) {
                final int slot = moved.slot(i);
                if ((tree.objectCategories[slot] & categoryMask) == 0) {
                    continue;
                }
                final int handle = tree.handles.handleOf(slot);
                final int t = slot * DynamicAabbTree.BOX;
                int sp = 0;
                int head = 0;
                st[sp++] = DynamicAabbTree.HEADER;
                while (sp != head) {
                    int node = sp - head < window ? st[head++ & wrap] : st[--sp & wrap];
                    if ((++nodes & (DynamicAabbTree.WALK_CHECK_INTERVAL - 1)) == 0) {
                        tree.checkUnchangedMidWalk(modifications);
                    }
                    for (int e = 2 * node, end = e + 2; e < end; e++) {
                        if ((r[DynamicAabbTree.maskIndex(e)] & foldedMask) == 0) {
                            continue;
                        }
                        if (!overlapEntry(r, DynamicAabbTree.boxIndex(e), tb, t)) {
                            continue;
                        }
                        int ref = r[DynamicAabbTree.refIndex(e)];
                        if (ref >= 0) {
                            st[sp++ & wrap] = ref;
                            early += r[DynamicAabbTree.recordIndex(ref)];
                            continue;
                        }
                        int other = DynamicAabbTree.slotOf(ref);
                        if (other == slot || !tree.categoryMatches(other, categoryMask)) {
                            continue;
                        }
                        int otherHandle = ~ref;
                        // both moved: the one with the lower handle reports the pair
                        if (otherHandle < handle && moved.contains(other)) {
                            continue;
                        }
                        leaves++;
                        if (overlap(tb, other * DynamicAabbTree.BOX, tb, t, 0, 0, 0)) {
                            dest.add(Math.min(handle, otherHandle), Math.max(handle, otherHandle));
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            // a change from another thread can break the walk in any way: named as such, as the other walks do;
            // the moved set is kept
            throw tree.failure(stack.failure(e, mark), modifications);
        }
        // another thread's walk on this stack would have mixed its ring into this one, another thread's change of
        // the tree its nodes: refused before the moved set is cleared, so that the pairs can be asked again
        tree.checkUnchanged(modifications);
        stack.checkQuery(mark);
        moved.clear();
        stack.countVisits(nodes, leaves);
        stack.retain(early);
        dest.sort();
    }

    /**
     * The number of objects added or moved since the last {@link #movedPairs} call (and not removed since).
     *
     * @param tree the tree
     * @return the size of its moved set
     */
    public static int movedCount(DynamicAabbTree tree) {
        Arguments.requireNonNull("tree", tree);
        return tree.moved.count();
    }

    private static void requireCommon(PairBuffer dest, TraversalStack stack) {
        Arguments.requireNonNull("dest", dest);
        Arguments.requireNonNull("stack", stack);
    }

    /**
     * Simultaneous descent over pairs of entries {@code (entry of a, entry of b)}; with {@code self}, a task
     * {@code (node, SELF)} stands for the pairs within one subtree: those of each child subtree plus those between
     * the two children, so each unordered pair of objects is met once, at its lowest common ancestor. Boxes of
     * {@code b} are moved into {@code a}'s frame by {@code (dx, dy, dz)} (zero with {@code self}).
     */
    private static void descend(DynamicAabbTree a, long maskA, DynamicAabbTree b, long maskB, boolean self,
                                double dx, double dy, double dz, PairBuffer dest, TraversalStack stack) {
        final int[] ba = a.records;
        final int[] bb = b.records;
        final int foldA = DynamicAabbTree.fold(maskA);
        final int foldB = DynamicAabbTree.fold(maskB);
        final float[] ta = a.tight;
        final float[] tbb = b.tight;
        final int ha = a.heights[DynamicAabbTree.HEADER];
        final int hb = b.heights[DynamicAabbTree.HEADER];
        // Windowed order (TraversalStack.ring). A path of the task tree has at most ha self steps and ha + hb
        // split steps; a self step pushes 3 tasks, a split 2, so depth first leaves at most 1 + 2 ha + (ha + hb)
        // tasks pending, and the window adds up to WINDOW + 2; 2 ints each.
        final int mark = stack.beginQuery();
        // no callback runs here, but another thread may change either tree
        final int modificationsA = a.modCount;
        final int modificationsB = b.modCount;
        long nodes = 0;
        long leaves = 0;
        int early = 0;
        try {
            final int[] st = stack.ring(3 * ha + hb + 3, 2);
            final int wrap = st.length - 1;
            final int window = 2 * Math.max(a.queryWindow(), b.queryWindow());
            int head = 0;
            int sp = 0;
            if (self) {
                if (a.child(0) >= 0 && (ba[DynamicAabbTree.maskIndex(0)] & foldA) != 0) {
                    st[sp++] = a.child(0);
                    st[sp++] = SELF;
                }
            } else if ((ba[DynamicAabbTree.maskIndex(0)] & foldA) != 0
                    && (bb[DynamicAabbTree.maskIndex(0)] & foldB) != 0
                    && overlapEntries(ba, DynamicAabbTree.boxIndex(0), bb, DynamicAabbTree.boxIndex(0), dx, dy, dz)) {
                st[sp++] = 0;
                st[sp++] = 0;
            }
            long steps = 0;
            while (sp != head) {
                final int at = sp - head < window ? (head += 2) - 2 : (sp -= 2);
                final int ea = st[at & wrap];
                final int eb = st[(at + 1) & wrap];
                // no node budget bounds this walk (its steps can be quadratic in the trees' sizes), but a change
                // from another thread can leave a cycle in what it reads, which it would follow forever
                if ((++steps & (DynamicAabbTree.WALK_CHECK_INTERVAL - 1)) == 0) {
                    a.checkUnchangedMidWalk(modificationsA);
                    b.checkUnchangedMidWalk(modificationsB);
                }
                if (eb == SELF) {
                    nodes++;
                    int e0 = 2 * ea;
                    int e1 = e0 + 1;
                    int record = DynamicAabbTree.recordIndex(ea);
                    boolean in0 = (ba[record + DynamicAabbTree.MASK] & foldA) != 0;
                    boolean in1 = (ba[record + DynamicAabbTree.MASK + 1] & foldA) != 0;
                    if (in0 && in1 && overlapEntries(ba, record, ba, record + DynamicAabbTree.BOX, 0, 0, 0)) {
                        st[sp++ & wrap] = e0;
                        st[sp++ & wrap] = e1;
                    }
                    int c0 = ba[record + DynamicAabbTree.REF];
                    int c1 = ba[record + DynamicAabbTree.REF + 1];
                    if (in0 && c0 >= 0) {
                        st[sp++ & wrap] = c0;
                        st[sp++ & wrap] = SELF;
                        early += ba[DynamicAabbTree.recordIndex(c0)];
                    }
                    if (in1 && c1 >= 0) {
                        st[sp++ & wrap] = c1;
                        st[sp++ & wrap] = SELF;
                        early += ba[DynamicAabbTree.recordIndex(c1)];
                    }
                    continue;
                }
                final int ra = a.child(ea);
                final int rb = b.child(eb);
                if (ra < 0 && rb < 0) {
                    leaves++;
                    int sa = DynamicAabbTree.slotOf(ra);
                    int sb = DynamicAabbTree.slotOf(rb);
                    if (a.categoryMatches(sa, maskA) && b.categoryMatches(sb, maskB)
                            && overlap(ta, sa * DynamicAabbTree.BOX, tbb, sb * DynamicAabbTree.BOX, dx, dy, dz)) {
                        int handleA = ~ra;
                        int handleB = ~rb;
                        if (self && handleB < handleA) {
                            dest.add(handleB, handleA);
                        } else {
                            dest.add(handleA, handleB);
                        }
                    }
                    continue;
                }
                nodes++;
                final int oa = DynamicAabbTree.boxIndex(ea);
                final int ob = DynamicAabbTree.boxIndex(eb);
                // split the internal side; when both are internal, the one with the larger box (Ericson 6.3.3)
                boolean splitA = rb < 0 || ra >= 0 && halfArea(ba, oa) >= halfArea(bb, ob);
                if (splitA) {
                    int c = 2 * ra;
                    for (int e = c; e < c + 2; e++) {
                        if ((ba[DynamicAabbTree.maskIndex(e)] & foldA) != 0
                                && overlapEntries(ba, DynamicAabbTree.boxIndex(e), bb, ob, dx, dy, dz)) {
                            st[sp++ & wrap] = e;
                            st[sp++ & wrap] = eb;
                            early += loadEarly(ba, e);
                        }
                    }
                } else {
                    int c = 2 * rb;
                    for (int e = c; e < c + 2; e++) {
                        if ((bb[DynamicAabbTree.maskIndex(e)] & foldB) != 0
                                && overlapEntries(ba, oa, bb, DynamicAabbTree.boxIndex(e), dx, dy, dz)) {
                            st[sp++ & wrap] = ea;
                            st[sp++ & wrap] = e;
                            early += loadEarly(bb, e);
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            // a change from another thread can break the walk in any way: named as such, as the other walks do
            RuntimeException f = a.failure(stack.failure(e, mark), modificationsA);
            throw f != e ? f : b.failure(e, modificationsB);
        }
        a.checkUnchanged(modificationsA);
        b.checkUnchanged(modificationsB);
        stack.checkQuery(mark);
        stack.countVisits(nodes, leaves);
        stack.retain(early);
    }

    /** The first word of the node record entry {@code e} references, read when its task is pushed; 0 for objects. */
    private static int loadEarly(int[] records, int e) {
        int child = records[DynamicAabbTree.refIndex(e)];
        return child >= 0 ? records[DynamicAabbTree.recordIndex(child)] : 0;
    }

    /**
     * Closed overlap of the stored box {@code p[o..o+5]} and the stored box {@code q[r..r+5]} moved into
     * {@code p}'s frame by {@code (dx, dy, dz)} in double, one rounding per coordinate (the pair rule of the class
     * comment). With a zero offset (one tree) the stored floats are compared as they are: widening and adding
     * zero are exact. Used alike for fat and tight boxes, which keeps culling conservative.
     */
    private static boolean overlap(float[] p, int o, float[] q, int r, double dx, double dy, double dz) {
        return AabbAabb.test(p[o], p[o + 1], p[o + 2], p[o + 3], p[o + 4], p[o + 5],
                q[r] + dx, q[r + 1] + dy, q[r + 2] + dz, q[r + 3] + dx, q[r + 4] + dy, q[r + 5] + dz);
    }

    /** As {@link #overlap} for two entry boxes of node records (float bits). */
    private static boolean overlapEntries(int[] p, int o, int[] q, int r, double dx, double dy, double dz) {
        return AabbAabb.test(f(p[o]), f(p[o + 1]), f(p[o + 2]), f(p[o + 3]), f(p[o + 4]), f(p[o + 5]),
                f(q[r]) + dx, f(q[r + 1]) + dy, f(q[r + 2]) + dz, f(q[r + 3]) + dx, f(q[r + 4]) + dy,
                f(q[r + 5]) + dz);
    }

    /** As {@link #overlap} for an entry box of a node record and a stored tight box of the same tree. */
    private static boolean overlapEntry(int[] p, int o, float[] q, int r) {
        return AabbAabb.test(f(p[o]), f(p[o + 1]), f(p[o + 2]), f(p[o + 3]), f(p[o + 4]), f(p[o + 5]),
                q[r], q[r + 1], q[r + 2], q[r + 3], q[r + 4], q[r + 5]);
    }

    /** Half the surface area of the entry box at {@code o} of a node record: the split heuristic. */
    private static double halfArea(int[] records, int o) {
        double x = f(records[o + 3]) - f(records[o]);
        double y = f(records[o + 4]) - f(records[o + 1]);
        double z = f(records[o + 5]) - f(records[o + 2]);
        return x * y + y * z + z * x;
    }
}
