package dev.boxwood.serial;

import java.util.Arrays;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.build.FlatBvh;

/**
 * Splices a static world into a live {@link DynamicAabbTree} without a rebuild: the world's prebuilt hierarchy is
 * read from the mapping ({@link MappedWorld#readTree()}, O(n) sequential reads) and attached by
 * {@link DynamicAabbTree#spliceSubtree}: the parts of it much denser than the tree (all of it, for a detailed tile
 * in a sparse tree of moving entities or in an empty tree) are copied and their roots inserted under new parent
 * nodes found by the tree's insertion search, costing a copy rather than an O(n log n) build or n insertions;
 * looser parts are split down to objects inserted one by one (see {@code spliceSubtree}).
 *
 * <p>The world's objects become ordinary objects of the tree (movable, removable), with the world's user values
 * and category bits unless overridden. When the world's origin differs from the tree's, each box is stored
 * relative to the tree's origin exactly as {@link DynamicAabbTree#add} would store the world box
 * {@link MappedWorld#getTightBox} reports (rounded outward); with the same origin the floats are copied unchanged,
 * so both answer queries identically.
 *
 * <p>The stored tree is checked as {@link MappedWorld#readTree()} checks it and every object box as
 * {@link MappedWorld#readObjectBoxes()} does, both before the tree is touched: a damaged tree or box section is
 * reported as a {@link CorruptWorldFileException} and adds nothing. Checksums are not read
 * ({@link MappedWorld#verify()} reads them).
 */
public final class WorldSplicer {

    private WorldSplicer() {
    }

    /**
     * Adds every object of {@code world} to {@code tree} ({@link DynamicAabbTree#spliceSubtree}), with the world's
     * category bits and user values.
     *
     * @param world an open world
     * @param tree  the tree to add to
     * @return the tree handle of each world object: element {@code i} is the handle of world handle {@code i}
     * @throws IllegalArgumentException  for null arguments, if the tree cannot hold that many more objects, or if a
     *                                   box of the world reaches more than
     *                                   {@link dev.boxwood.query.OutwardFloat#MAX_OFFSET} from the tree's origin
     *                                   (the two origins are too far apart); the tree is then unchanged
     * @throws IllegalStateException     if the world is closed
     * @throws CorruptWorldFileException if the stored tree, a stored object box (not finite, inverted, or beyond
     *                                   the float storage range of the world's own origin) or a palette index is
     *                                   invalid; nothing is added
     */
    public static int[] splice(MappedWorld world, DynamicAabbTree tree) throws CorruptWorldFileException {
        requireArguments(world, tree);
        return splice(world, tree, world.readCategories());
    }

    /**
     * Adds every object of {@code world} to {@code tree} ({@link DynamicAabbTree#spliceSubtree}), every object with
     * the same category bits (for example a "static geometry" category), ignoring the stored ones.
     *
     * @param world        an open world
     * @param tree         the tree to add to
     * @param categoryBits the category bits of every spliced object
     * @return the tree handle of each world object: element {@code i} is the handle of world handle {@code i}
     * @throws IllegalArgumentException  for null arguments, if the tree cannot hold that many more objects, or if a
     *                                   box of the world reaches more than
     *                                   {@link dev.boxwood.query.OutwardFloat#MAX_OFFSET} from the tree's origin
     *                                   (the two origins are too far apart); the tree is then unchanged
     * @throws IllegalStateException     if the world is closed
     * @throws CorruptWorldFileException if the stored tree or a stored object box is invalid (a box not finite,
     *                                   inverted, or beyond the float storage range of the world's own origin);
     *                                   nothing is added
     */
    public static int[] splice(MappedWorld world, DynamicAabbTree tree, long categoryBits)
            throws CorruptWorldFileException {
        requireArguments(world, tree);
        long[] categories = new long[world.size()];
        Arrays.fill(categories, categoryBits);
        return splice(world, tree, categories);
    }

    private static int[] splice(MappedWorld world, DynamicAabbTree tree, long[] categories)
            throws CorruptWorldFileException {
        FlatBvh bvh = world.readTree();
        // checked by the reader, so that spliceSubtree's own box checks can only fail on the distance between the
        // two origins, an argument problem, and never report a damaged file as one
        float[] boxes = world.readObjectBoxes();
        return tree.spliceSubtree(bvh, boxes, world.readUserValues(), categories);
    }

    private static void requireArguments(MappedWorld world, DynamicAabbTree tree) {
        if (world == null) {
            throw new IllegalArgumentException("world must not be null");
        }
        if (tree == null) {
            throw new IllegalArgumentException("tree must not be null");
        }
    }
}
