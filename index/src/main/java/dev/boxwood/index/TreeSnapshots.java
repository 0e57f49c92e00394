package dev.boxwood.index;

import dev.boxwood.query.Arguments;

import java.util.Arrays;

/**
 * Consistent reads during updates: one writer thread mutates a {@link DynamicAabbTree} and calls
 * {@link #publish()} after each batch of updates; reader threads (AI, audio, networking) {@link #acquire()} the
 * latest published {@link ReadView} and query it while the writer continues. A reader never sees a half-updated
 * tree, and neither side waits for the other: acquisition is lock-free (a reader count per view, re-checked
 * against the latest pointer, as in hazard-pointer schemes), and publishing never blocks.
 *
 * <p>Publishing copies the used prefix of the tree's flat arrays (one {@link System#arraycopy} each) into a
 * recycled view: a view nobody holds and that is not the latest is reused; a new one is allocated only when every
 * view but the latest is held (so the second publish allocates a second view even with no reader). Cost: O(n),
 * about 120 bytes copied per object (per object about one internal node: its 64-byte
 * record of two entry boxes, references and folded masks, plus parent and height; and the object's own 24-byte
 * tight box, user value, categories, leaf entry and handle state). At memory bandwidth that is a fraction of a
 * millisecond per 10,000 objects; for millions of objects publish less often than every frame. Memory: one copy
 * of the tree per view alive, at least two (the latest and the one being written) once readers hold views; a
 * view's node arrays are never longer than the tree's, so a {@link DynamicAabbTree#compact()} that trims the tree
 * trims each view as it is next written.
 *
 * <p>Threads: {@link #publish()} must be called from the writer thread (the one mutating the tree), never
 * concurrently with a mutation; {@link #acquire()} and {@link ReadView#close()} from any thread.
 */
public final class TreeSnapshots {

    private final DynamicAabbTree tree;
    private final TreeConfig frozenConfig;
    /** Every view made so far; touched by the writer only. */
    private ReadView[] views = new ReadView[4];
    private int viewCount;
    private volatile ReadView latest;
    private volatile long published;

    /**
     * Snapshots of {@code tree}; nothing is published until the first {@link #publish()}.
     *
     * @param tree the tree the writer mutates
     * @throws IllegalArgumentException if {@code tree} is null
     */
    public TreeSnapshots(DynamicAabbTree tree) {
        Arguments.requireNonNull("tree", tree);
        this.tree = tree;
        this.frozenConfig = TreeConfig.defaults().withOrigin(tree.originX(), tree.originY(), tree.originZ())
                .withInitialCapacity(1);
    }

    /**
     * Copies the tree's current state into a view and makes it the latest: later {@link #acquire()} calls return
     * it; views already held keep their contents. Writer thread only. Takes in the tree's pending objects first
     * ({@link TreeConfig#withDeferredAdds deferred adds}; that may allocate). Otherwise allocates only when every
     * earlier view is held or the tree has outgrown the recycled view's arrays.
     *
     * @return the new version number (1 for the first publication, then consecutive)
     */
    public long publish() {
        tree.flushAdds();
        ReadView view = recycle();
        copy(tree, view.frozen);
        long version = published + 1;
        view.version = version;
        latest = view;
        published = version;
        return version;
    }

    /**
     * The latest published view, held until {@link ReadView#close()}: use try-with-resources. Lock-free; any
     * thread.
     *
     * @return the view
     * @throws IllegalStateException if nothing has been published yet
     */
    public ReadView acquire() {
        while (true) {
            ReadView view = latest;
            if (view == null) {
                throw new IllegalStateException("nothing published yet: call publish() first");
            }
            view.readers.incrementAndGet();
            // still the latest after the increment: the writer cannot recycle it any more
            if (latest == view) {
                return view;
            }
            view.readers.decrementAndGet();
        }
    }

    void release(ReadView view) {
        if (view.readers.decrementAndGet() < 0) {
            view.readers.incrementAndGet();
            throw new IllegalStateException("view " + view.version + " closed more often than acquired");
        }
    }

    /** @return the version of the latest publication, 0 before the first */
    public long publishedVersion() {
        return published;
    }

    /** @return the number of views made so far (bounded by the number held at once plus two) */
    public int viewCount() {
        return viewCount;
    }

    private ReadView recycle() {
        ReadView current = latest;
        for (int i = 0; i < viewCount; i++) {
            ReadView v = views[i];
            if (v != current && v.readers.get() == 0) {
                return v;
            }
        }
        if (viewCount == views.length) {
            views = Arrays.copyOf(views, 2 * viewCount);
        }
        ReadView v = new ReadView(this, new DynamicAabbTree(frozenConfig));
        views[viewCount++] = v;
        return v;
    }

    /** Makes {@code dst} an exact copy of {@code src}'s queried state (used prefixes only). */
    static void copy(DynamicAabbTree src, DynamicAabbTree dst) {
        int nodes = src.nodeHighWater;
        int slots = src.handles.highWater();
        dst.records = copyPrefix(src.records, dst.records, DynamicAabbTree.recordIndex(nodes));
        dst.parentEntries = copyPrefix(src.parentEntries, dst.parentEntries, nodes);
        dst.heights = copyPrefix(src.heights, dst.heights, nodes);
        dst.tight = copyPrefix(src.tight, dst.tight, slots * DynamicAabbTree.BOX);
        dst.userValues = copyPrefix(src.userValues, dst.userValues, slots);
        dst.objectCategories = copyPrefix(src.objectCategories, dst.objectCategories, slots);
        dst.leafEntries = copyPrefix(src.leafEntries, dst.leafEntries, slots);
        dst.leafFat = null; // only moves read it, and a view never moves anything
        dst.copyOrigin(src);
        dst.handles.copyFrom(src.handles);
        dst.nodeHighWater = nodes;
        dst.freeNode = src.freeNode;
        dst.freeNodeCount = src.freeNodeCount;
    }

    /**
     * Whether a recycled view's array of {@code capacity} can take {@code length} values of a tree array of
     * {@code treeCapacity}: long enough, and no longer than the tree's own, so a view never holds more than the
     * tree does (after {@link DynamicAabbTree#compact()} trimmed it, the next copy into each view trims it too).
     */
    private static boolean fits(int capacity, int length, int treeCapacity) {
        return capacity >= length && capacity <= treeCapacity;
    }

    private static float[] copyPrefix(float[] src, float[] dst, int length) {
        float[] d = fits(dst.length, length, src.length) ? dst : new float[src.length];
        System.arraycopy(src, 0, d, 0, length);
        return d;
    }

    private static int[] copyPrefix(int[] src, int[] dst, int length) {
        int[] d = fits(dst.length, length, src.length) ? dst : new int[src.length];
        System.arraycopy(src, 0, d, 0, length);
        return d;
    }

    private static long[] copyPrefix(long[] src, long[] dst, int length) {
        long[] d = fits(dst.length, length, src.length) ? dst : new long[src.length];
        System.arraycopy(src, 0, d, 0, length);
        return d;
    }
}
