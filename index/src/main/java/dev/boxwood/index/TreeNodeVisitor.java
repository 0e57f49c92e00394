package dev.boxwood.index;

/**
 * Receives the boxes of a tree's hierarchy from {@link ReadableTree#visitNodes}: for debug drawing (an editor's
 * view of the tree) and for measuring a tree's quality.
 */
@FunctionalInterface
public interface TreeNodeVisitor {

    /**
     * One box of the hierarchy, in world coordinates (the tree's origin added back in double to the stored
     * floats). Parents come before their children.
     *
     * @param depth 0 for the root, 1 for its children, and so on
     * @param handle the object's handle when the box is an object's fat box (a leaf), or
     *     {@link dev.boxwood.query.Handles#NONE} for an internal node's box (the union of its children's)
     * @param minX min x
     * @param minY min y
     * @param minZ min z
     * @param maxX max x
     * @param maxY max y
     * @param maxZ max z
     */
    void visit(int depth, int handle, double minX, double minY, double minZ, double maxX, double maxY, double maxZ);
}
