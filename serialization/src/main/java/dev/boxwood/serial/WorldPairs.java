package dev.boxwood.serial;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.boxwood.index.PairQueries;
import dev.boxwood.index.ReadView;
import dev.boxwood.index.ReadableTree;
import dev.boxwood.index.RegionQueries;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.Handles;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.TraversalStack;

/**
 * Overlapping pairs between a dynamic tree and a memory-mapped static world, read in place: the broad phase of
 * moving entities ({@link dev.boxwood.index.DynamicAabbTree} or a {@link ReadView} of one) against static geometry
 * ({@link MappedWorld}, or one tile of a {@link TiledWorld}), without copying the world into a tree.
 * {@link PairQueries} gives the pairs between trees.
 *
 * <p>Conventions, as {@link PairQueries#treePairs}: every pair {@code (first, second)}, {@code first} a handle of
 * the tree and {@code second} a handle of the world, whose stored tight boxes overlap (closed boxes: touching
 * boxes form a pair). An object takes part only if {@code (categoryBits & mask) != 0}, with the tree's mask for
 * the tree's objects and the world's mask for the world's. The destination is cleared first, each pair appears
 * once, and the pairs come sorted by {@code (first, second)} ({@link PairBuffer#sort()}). The answer does not
 * depend on the shape of either hierarchy.
 *
 * <p>Frames: the world's frame decides, as in every query of a mapped world. With {@code d = originTree -
 * originWorld} computed once per coordinate in double, each stored float {@code f} of a tree object
 * ({@link ReadableTree#getStoredTightBox}) becomes the double {@code f + d} (one rounding) and is compared with the
 * world's stored floats; with equal origins the floats are compared as they are. Stored boxes are rounded outward
 * and {@code f -> f + d} is monotone, so boxes touching in world coordinates form a pair whenever
 * {@code world - origin} and {@code d} are exact in double (for example everything on a grid of {@code 1/1024});
 * boxes apart by less than the float rounding may form one too. {@link PairQueries#treePairs treePairs(a, b)}
 * decides in the first tree's frame, so with different origins it may decide such a borderline pair differently
 * from this class deciding the same stored boxes in the world's frame.
 *
 * <p>Each tree object is looked up in the world by its box, one region walk of the world's hierarchy per object
 * (the region query of {@link MappedWorld#queryBox}, which culls with the world's root bounds first), as Box2D's
 * {@code b2UpdatePairs} queries the tree once per moved proxy. {@link #treePairs} first finds the tree objects
 * that can meet the world at all with one box query of the tree by the world's bounds, so the tree's objects far
 * from the world cost nothing beyond the tree's own culling.
 *
 * <p>Threads: the calls only read the tree and the world. Any number of threads may run them at once on the same
 * tree and world while nothing mutates the tree ({@link #treePairs} takes a live tree's pending deferred adds in
 * safely, as any query does; {@link #listedPairs} reads the listed objects' stored boxes, which pending objects have
 * too), each thread with its own {@code WorldPairs}, {@link TraversalStack} (for {@link #tilePairs}, its own
 * {@link TiledWorld.Scratch}) and {@link PairBuffer}; {@link #tilePairs} may map and unmap tiles under the tiled
 * world's budget, as any tiled query does. A close of the world during a call lets the call finish (it counts
 * itself in as a reader of the mapping once for all its walks); a call on a closed world throws.
 *
 * <p>Why an instance: the world's walk reports objects to a visitor, and one that adds to the caller's buffer
 * must know the buffer and the current tree object. A visitor made per call would allocate, so this class owns
 * one, together with the list of candidate tree objects and the marks that skip repeated handles; like a
 * {@link TraversalStack} it is caller-owned scratch, one per thread, and nothing is allocated once it, the stack
 * and the buffer have grown. A {@code WorldPairs} used by two calls at once (by mistake, from two threads) fails
 * one of them with {@link IllegalStateException} instead of mixing their pairs.
 */
public final class WorldPairs {

    /**
     * The relative widening of the tree's box query in {@link #treePairs}: far above the few double roundings that
     * separate that query's frame arithmetic from the decision's (each at most {@code 2^-53} of the magnitudes
     * involved), so the query only ever keeps more candidates than the decision pairs, never fewer.
     */
    private static final double CANDIDATE_SLACK = 0x1p-40;

    /** Taken by a compare-and-set for the length of a call (see the class comment). */
    private final AtomicBoolean busy = new AtomicBoolean();
    /** The stored tight box of the tree object being looked up. */
    private final float[] box = new float[6];
    /** The tree objects {@link #treePairs} looks up, grown and reused. */
    private int[] candidates = new int[64];
    private int candidateCount;
    /** Per slot of the tree, the {@link #epoch} of the last {@link #listedPairs} call that looked it up. */
    private int[] seen = new int[0];
    private int epoch;
    /** The call's destination and the tree object being looked up, read by {@link #addPair}. */
    private PairBuffer dest;
    private int first;
    private final OverlapVisitor addPair = (object, userValue) -> {
        dest.add(first, object);
        return true;
    };
    private final OverlapVisitor addCandidate = (handle, userValue) -> {
        if (candidateCount == candidates.length) {
            candidates = Arrays.copyOf(candidates, 2 * candidateCount);
        }
        candidates[candidateCount++] = handle;
        return true;
    };

    /** Scratch for the calls of one thread. */
    public WorldPairs() {
    }

    /**
     * All pairs {@code (object of tree, object of world)} whose stored tight boxes overlap, sorted by
     * {@code (first, second)} (conventions and frames in the class comment).
     *
     * @param tree      the tree or a {@link ReadView} (for example the moving entities)
     * @param treeMask  categories of the tree taking part ({@code -1L}: all)
     * @param world     the static world, open
     * @param worldMask categories of the world taking part ({@code -1L}: all)
     * @param dest      receives the pairs (cleared first)
     * @param stack     the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments (nothing written to {@code dest})
     * @throws IllegalStateException    if the world is closed (nothing written to {@code dest}), if this
     *                                  {@code WorldPairs} is in use by another call, or if another query ran on
     *                                  {@code stack} meanwhile ({@code dest} then holds part of the pairs)
     * @throws java.io.UncheckedIOException wrapping a {@link CorruptWorldFileException} if a walk meets a corrupt
     *                                  reference in the world file ({@code dest} then holds part of the pairs)
     */
    public void treePairs(ReadableTree tree, long treeMask, MappedWorld world, long worldMask, PairBuffer dest,
                          TraversalStack stack) {
        Arguments.requireNonNull("tree", tree);
        requireCommon(world, dest, stack);
        claim();
        try {
            int reader = world.enter();
            try {
                dest.clear();
                candidateCount = 0;
                if (world.size() > 0) {
                    collectCandidates(tree, treeMask, world.originX(), world.originY(), world.originZ(),
                            world.storedRootBounds(), stack);
                }
                lookUp(tree, -1L, candidates, candidateCount, false, world, worldMask, dest, stack);
                dest.sort();
            } finally {
                world.exit(reader);
            }
        } finally {
            free();
        }
    }

    /**
     * The pairs of the listed tree objects only (for example those the game moved this tick): every pair
     * {@code (handles[i], object of world)}, {@code i < count}, whose stored tight boxes overlap, the tree object's
     * categories passing {@code treeMask}, sorted by {@code (first, second)} (conventions and frames in the class
     * comment). A handle listed more than once is looked up once, so its pairs still appear once each.
     *
     * @param tree      the tree or a {@link ReadView}
     * @param handles   live handles of the tree, in any order, repeats allowed
     * @param count     how many of {@code handles} to take, from index 0
     * @param treeMask  categories of the tree taking part ({@code -1L}: all)
     * @param world     the static world, open
     * @param worldMask categories of the world taking part ({@code -1L}: all)
     * @param dest      receives the pairs (cleared first)
     * @param stack     the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments, {@code count} outside {@code [0, handles.length]}, or a
     *                                  listed handle that is not live in the tree (removed, or never issued by
     *                                  it), naming its index; all checked before anything is written to
     *                                  {@code dest}
     * @throws IllegalStateException    if the world is closed (nothing written to {@code dest}), if this
     *                                  {@code WorldPairs} is in use by another call, or if another query ran on
     *                                  {@code stack} meanwhile ({@code dest} then holds part of the pairs)
     * @throws java.io.UncheckedIOException wrapping a {@link CorruptWorldFileException} if a walk meets a corrupt
     *                                  reference in the world file ({@code dest} then holds part of the pairs)
     */
    public void listedPairs(ReadableTree tree, int[] handles, int count, long treeMask, MappedWorld world,
                            long worldMask, PairBuffer dest, TraversalStack stack) {
        Arguments.requireNonNull("tree", tree);
        Arguments.requireNonNull("handles", handles);
        requireCommon(world, dest, stack);
        if (count < 0 || count > handles.length) {
            throw new IllegalArgumentException("count " + count + " outside [0, handles.length = " + handles.length
                    + "]");
        }
        int slots = 0;
        for (int i = 0; i < count; i++) {
            int handle = handles[i];
            if (!tree.contains(handle)) {
                throw new IllegalArgumentException("handles[" + i + "] = " + handle + " is not a live handle of the"
                        + " tree: it was removed, or never issued by it");
            }
            slots = Math.max(slots, (handle & Handles.SLOT_MASK) + 1);
        }
        claim();
        try {
            int reader = world.enter();
            try {
                dest.clear();
                if (seen.length < slots) {
                    seen = new int[Math.max(slots, 2 * seen.length)];
                    epoch = 0;
                }
                if (++epoch == Integer.MAX_VALUE) {
                    Arrays.fill(seen, 0);
                    epoch = 1;
                }
                lookUp(tree, treeMask, handles, count, true, world, worldMask, dest, stack);
                dest.sort();
            } finally {
                world.exit(reader);
            }
        } finally {
            free();
        }
    }

    /**
     * The pairs {@code (object of tree, object of one tile)} of a tiled world whose stored tight boxes overlap: as
     * {@link #treePairs} against that tile's {@link MappedWorld}, {@code second} a handle within the tile (its user
     * value and box from {@link TiledWorld#userValue} and {@link TiledWorld#getTightBox}) and the tile's frame
     * deciding. For worlds streamed in tiles, where the entities near a tile (a tile's own tree, as
     * servers keep them, or one tree of all) meet the static objects of that tile and, near its edges, of its
     * neighbours: call it once per tile of interest. The tile is mapped only if some entity can meet its header
     * bounds (under the tiled world's budget, as its queries map tiles), and held mapped for the call; a close of
     * the tiled world meanwhile lets the call finish.
     *
     * @param tree      the tree or a {@link ReadView}
     * @param treeMask  categories of the tree taking part ({@code -1L}: all)
     * @param tiled     the tiled world, open
     * @param tile      the tile, in {@code [0, tiled.tileCount())}
     * @param worldMask categories of the tile's objects taking part ({@code -1L}: all)
     * @param dest      receives the pairs (cleared first)
     * @param scratch   the calling thread's scratch of the tiled world (its stack serves the walks)
     * @throws IllegalArgumentException for null arguments or a tile index out of range (nothing written to
     *                                  {@code dest})
     * @throws IllegalStateException    if the tiled world is closed (before the call: nothing written to
     *                                  {@code dest}; by another thread during it: {@code dest} may have been
     *                                  cleared), or if this {@code WorldPairs} or {@code scratch} is in use by
     *                                  another call
     * @throws java.io.UncheckedIOException if the tile cannot be mapped, has changed on disk or is corrupt
     *                                  ({@code dest} then holds part of the pairs, or none)
     */
    public void tilePairs(ReadableTree tree, long treeMask, TiledWorld tiled, int tile, long worldMask,
                          PairBuffer dest, TiledWorld.Scratch scratch) {
        Arguments.requireNonNull("tree", tree);
        Arguments.requireNonNull("tiled", tiled);
        Arguments.requireNonNull("dest", dest);
        Arguments.requireNonNull("scratch", scratch);
        double originX = tiled.tileOrigin(tile, 0);
        double originY = tiled.tileOrigin(tile, 1);
        double originZ = tiled.tileOrigin(tile, 2);
        tiled.checkOpen();
        claim();
        try {
            scratch.claim();
            try {
                dest.clear();
                candidateCount = 0;
                TraversalStack stack = scratch.stack();
                if (tiled.tileSize(tile) > 0) {
                    collectCandidates(tree, treeMask, originX, originY, originZ, tiled.tileBounds(tile), stack);
                }
                if (candidateCount > 0) {
                    MappedWorld world = tiled.enterTile(tile, scratch);
                    try {
                        lookUp(tree, -1L, candidates, candidateCount, false, world, worldMask, dest, stack);
                    } finally {
                        tiled.leaveTile(tile, scratch);
                    }
                }
                dest.sort();
            } finally {
                scratch.free();
            }
        } finally {
            free();
        }
    }

    private static void requireCommon(MappedWorld world, PairBuffer dest, TraversalStack stack) {
        Arguments.requireNonNull("world", world);
        Arguments.requireNonNull("dest", dest);
        Arguments.requireNonNull("stack", stack);
    }

    private void claim() {
        if (!busy.compareAndSet(false, true)) {
            throw new IllegalStateException("this WorldPairs is in use by a call that has not returned: each thread"
                    + " needs a WorldPairs of its own");
        }
    }

    private void free() {
        dest = null;
        busy.set(false);
    }

    /**
     * The tree objects of {@code treeMask} whose stored boxes can meet a world's root bounds {@code b} (stored,
     * relative to the world's origin), into {@link #candidates}: one box query of the tree by the world's bounds,
     * which culls the tree's subtrees as any
     * query does. That query decides in the tree's frame, not the world's, so its box is widened by
     * {@link #CANDIDATE_SLACK} of the magnitudes involved and never drops an object the world's frame would pair;
     * the lookup decides each candidate exactly.
     */
    private void collectCandidates(ReadableTree tree, long treeMask, double originX, double originY, double originZ,
                                   float[] b, TraversalStack stack) {
        double minX = candidateBound(originX, b[0], tree.originX(), -1);
        double minY = candidateBound(originY, b[1], tree.originY(), -1);
        double minZ = candidateBound(originZ, b[2], tree.originZ(), -1);
        double maxX = candidateBound(originX, b[3], tree.originX(), 1);
        double maxY = candidateBound(originY, b[4], tree.originY(), 1);
        double maxZ = candidateBound(originZ, b[5], tree.originZ(), 1);
        RegionQueries.queryBox(tree, minX, minY, minZ, maxX, maxY, maxZ, RegionMode.CROSSING, treeMask, null,
                addCandidate, stack);
    }

    /**
     * One side of the candidate query's box in world coordinates: the world's stored bound {@code bound} plus its
     * origin, pushed outward ({@code side} -1 or 1) by the slack of the class constant plus the smallest normal
     * double (for roundings near zero), and kept finite so that the query accepts it.
     */
    private static double candidateBound(double worldOrigin, float bound, double treeOrigin, int side) {
        double slack = (Math.abs(worldOrigin) + Math.abs(bound) + Math.abs(treeOrigin)) * CANDIDATE_SLACK
                + Double.MIN_NORMAL;
        double v = worldOrigin + bound + side * slack;
        return Math.max(-Double.MAX_VALUE, Math.min(Double.MAX_VALUE, v));
    }

    /**
     * Looks each of {@code handles[0 .. count)} up in the world: its stored box moved into the world's frame (the
     * rule of the class comment), then the world's region walk, which adds a pair per world object it accepts.
     * With {@code listed}, repeated handles are skipped by their slot's mark and {@code treeMask} is applied here
     * (the candidates of {@link #treePairs} passed it in the tree's query).
     */
    private void lookUp(ReadableTree tree, long treeMask, int[] handles, int count, boolean listed,
                        MappedWorld world, long worldMask, PairBuffer dest, TraversalStack stack) {
        if (count == 0 || world.size() == 0) {
            return;
        }
        // the tree's frame in the world's, rounded once per coordinate
        final double dx = tree.originX() - world.originX();
        final double dy = tree.originY() - world.originY();
        final double dz = tree.originZ() - world.originZ();
        final float[] b = box;
        this.dest = dest;
        for (int i = 0; i < count; i++) {
            int handle = handles[i];
            if (listed) {
                int slot = handle & Handles.SLOT_MASK;
                if (seen[slot] == epoch) {
                    continue;
                }
                seen[slot] = epoch;
                if ((tree.categoryBits(handle) & treeMask) == 0) {
                    continue;
                }
            }
            tree.getStoredTightBox(handle, b);
            first = handle;
            world.region(RegionTests.BOX, b[0] + dx, b[1] + dy, b[2] + dz, b[3] + dx, b[4] + dy, b[5] + dz, null,
                    null, RegionMode.CROSSING, worldMask, null, addPair, stack);
        }
    }
}
