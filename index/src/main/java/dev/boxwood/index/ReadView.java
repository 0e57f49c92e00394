package dev.boxwood.index;

import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.TraversalStack;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable, consistent copy of a {@link DynamicAabbTree} as it was at one {@link TreeSnapshots#publish()}:
 * readers on other threads query it while the writer goes on mutating the tree. Obtained from
 * {@link TreeSnapshots#acquire()} and given back with {@link #close()} (try-with-resources), exactly once per
 * acquisition; after that the view may be recycled for a later version, so it must not be used any more.
 *
 * <p>A view answers every query the tree answers, with the same results the tree gave at that version: its own
 * {@link #queryAabb} and {@link #rayCast}, and all of {@link RegionQueries}, {@link SweepQueries},
 * {@link NearestQueries}, {@link PairQueries#selfPairs}, {@link PairQueries#treePairs} and {@link BatchQueries},
 * which take a {@link ReadableTree}. Handles are those of the tree. Any number of threads may query one view at
 * once, each with its own scratch.
 */
public final class ReadView extends ReadableTree implements AutoCloseable {

    /** The frozen copy, in the tree's own layout; never mutated while readers hold the view. */
    final DynamicAabbTree frozen;
    final AtomicInteger readers = new AtomicInteger();
    private final TreeSnapshots owner;
    /** Written by the writer before the view is published (volatile write), read after acquisition. */
    long version;

    ReadView(TreeSnapshots owner, DynamicAabbTree frozen) {
        this.owner = owner;
        this.frozen = frozen;
    }

    @Override
    DynamicAabbTree storage() {
        return frozen;
    }

    @Override
    DynamicAabbTree frame() {
        return frozen;
    }

    /** @return the version number {@link TreeSnapshots#publish()} returned for this view's contents */
    public long version() {
        return version;
    }

    /**
     * Gives the view back to its {@link TreeSnapshots}. Call exactly once per {@link TreeSnapshots#acquire()}.
     * Readers of the same version share one view and one hold count (acquisition allocates nothing), so a second
     * close by one reader while another still holds the view cannot be told from the other reader's close: it
     * gives that reader's hold away, and the view may be recycled under it. Try-with-resources rules that out.
     *
     * @throws IllegalStateException if the view is not held by anyone
     */
    @Override
    public void close() {
        owner.release(this);
    }

    /**
     * Checks the copy's structural invariants ({@link DynamicAabbTree#validate()}); for tests.
     *
     * @throws IllegalStateException on the first violation
     */
    public void validate() {
        frozen.validate();
    }

    @Override
    public double originX() {
        return frozen.originX();
    }

    @Override
    public double originY() {
        return frozen.originY();
    }

    @Override
    public double originZ() {
        return frozen.originZ();
    }

    @Override
    public int size() {
        return frozen.size();
    }

    @Override
    public boolean contains(int handle) {
        return frozen.contains(handle);
    }

    @Override
    public long userValue(int handle) {
        return frozen.userValue(handle);
    }

    @Override
    public long categoryBits(int handle) {
        return frozen.categoryBits(handle);
    }

    @Override
    public void getTightBox(int handle, double[] dest) {
        frozen.getTightBox(handle, dest);
    }

    /** {@inheritDoc} As {@link DynamicAabbTree#queryAabb} on the tree at this view's version. */
    @Override
    public void queryAabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                          long categoryMask, OverlapVisitor visitor, TraversalStack stack) {
        frozen.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, categoryMask, visitor, stack);
    }

    /** {@inheritDoc} As {@link DynamicAabbTree#rayCast} on the tree at this view's version. */
    @Override
    public void rayCast(double originX, double originY, double originZ,
                        double translationX, double translationY, double translationZ, double maxFraction,
                        long categoryMask, RayCastVisitor visitor, TraversalStack stack) {
        frozen.rayCast(originX, originY, originZ, translationX, translationY, translationZ, maxFraction,
                categoryMask, visitor, stack);
    }
}
