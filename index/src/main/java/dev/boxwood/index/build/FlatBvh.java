package dev.boxwood.index.build;

import dev.boxwood.query.Arguments;
import dev.boxwood.query.OutwardFloat;

/**
 * A binary BVH in flat primitive arrays, node-pair layout, depth-first (pre-order) node order.
 *
 * <p>Layout (bepu v2 / Box2D "node pair" style: a parent holds both child boxes, so one node is one box test
 * pair and leaves need no node of their own):
 * <pre>
 *   internal node k (0 &lt;= k &lt; nodeCount()):
 *     childBounds[12k +  0 ..  5] = box of child A: minX, minY, minZ, maxX, maxY, maxZ
 *     childBounds[12k +  6 .. 11] = box of child B
 *     childRefs[2k + 0], childRefs[2k + 1] = references to child A and child B
 *   reference r:  r &gt;= 0  -&gt; internal node r
 *                 r &lt;  0  -&gt; leaf holding object ~r (bitwise not)
 * </pre>
 * Boxes are floats relative to the double origin ({@link #originX()} ...), rounded outward when they came from
 * doubles; internal boxes are exact unions of the object boxes below them. With one object per leaf, a tree of
 * {@code n >= 1} objects has exactly {@code n - 1} internal nodes. Node 0 is the root when {@code n >= 2}; the
 * left (A) child of node {@code k} is node {@code k + 1} when it is internal, and the right (B) child of a node
 * whose A side holds {@code m} objects is node {@code k + m}: every child index is greater than its parent's.
 *
 * <p>The arrays are exposed without copying for zero-cost adoption (the dynamic tree's bulk build, the file
 * writer); callers must not modify them.
 */
public final class FlatBvh {

    /** The root reference of an empty tree. */
    public static final int NULL_REF = Integer.MIN_VALUE;

    private final int objectCount;
    private final double originX;
    private final double originY;
    private final double originZ;
    private final float[] childBounds;
    private final int[] childRefs;
    private final float[] rootBounds;
    private final int rootRef;

    FlatBvh(int objectCount, double originX, double originY, double originZ, float[] childBounds, int[] childRefs,
            float[] rootBounds, int rootRef) {
        this.objectCount = objectCount;
        this.originX = originX;
        this.originY = originY;
        this.originZ = originZ;
        this.childBounds = childBounds;
        this.childRefs = childRefs;
        this.rootBounds = rootBounds;
        this.rootRef = rootRef;
    }

    /**
     * Wraps existing arrays (for example a tree read back from a static world file) after checking that they
     * form a valid tree of the documented layout: array lengths, root reference, every reference in range with
     * children after their parents, every object and every non-root node referenced exactly once. Boxes are not
     * checked. The arrays are not copied.
     *
     * @param objectCount the number of objects, {@code 0 .. BinnedSahBuilder.MAX_OBJECTS}
     * @param originX     origin x (finite, at most {@link OutwardFloat#MAX_ORIGIN} in magnitude)
     * @param originY     origin y (as x)
     * @param originZ     origin z (as x)
     * @param childBounds 12 floats per internal node
     * @param childRefs   2 references per internal node
     * @param rootBounds  6 floats
     * @return the tree
     * @throws IllegalArgumentException naming what is inconsistent
     */
    public static FlatBvh of(int objectCount, double originX, double originY, double originZ, float[] childBounds,
                             int[] childRefs, float[] rootBounds) {
        if (objectCount < 0 || objectCount > BinnedSahBuilder.MAX_OBJECTS) {
            throw new IllegalArgumentException("objectCount out of range: " + objectCount);
        }
        Arguments.requireOrigin("originX", originX);
        Arguments.requireOrigin("originY", originY);
        Arguments.requireOrigin("originZ", originZ);
        int nodes = objectCount <= 1 ? 0 : objectCount - 1;
        if (childBounds == null || childBounds.length != 12L * nodes) {
            throw new IllegalArgumentException("childBounds must hold 12 * " + nodes + " floats");
        }
        if (childRefs == null || childRefs.length != 2L * nodes) {
            throw new IllegalArgumentException("childRefs must hold 2 * " + nodes + " references");
        }
        if (rootBounds == null || rootBounds.length != 6) {
            throw new IllegalArgumentException("rootBounds must hold 6 floats");
        }
        boolean[] seen = new boolean[nodes + objectCount];
        for (int k = 0; k < nodes; k++) {
            for (int c = 0; c < 2; c++) {
                int ref = childRefs[2 * k + c];
                int slot;
                if (ref < 0) {
                    if (~ref >= objectCount) {
                        throw new IllegalArgumentException("childRefs: node " + k + " references object " + ~ref);
                    }
                    slot = nodes + ~ref;
                } else {
                    if (ref <= k || ref >= nodes) {
                        throw new IllegalArgumentException("childRefs: node " + k + " references node " + ref);
                    }
                    slot = ref;
                }
                if (seen[slot]) {
                    throw new IllegalArgumentException("childRefs: " + (ref < 0 ? "object " + ~ref : "node " + ref)
                            + " is referenced twice");
                }
                seen[slot] = true;
            }
        }
        int root = objectCount == 0 ? NULL_REF : objectCount == 1 ? ~0 : 0;
        return new FlatBvh(objectCount, originX, originY, originZ, childBounds, childRefs, rootBounds, root);
    }

    /** @return the number of objects (leaves) */
    public int objectCount() {
        return objectCount;
    }

    /** @return the number of internal nodes: {@code max(0, objectCount() - 1)} */
    public int nodeCount() {
        return objectCount <= 1 ? 0 : objectCount - 1;
    }

    /** @return x of the double origin all float boxes are relative to */
    public double originX() {
        return originX;
    }

    /** @return y of the double origin */
    public double originY() {
        return originY;
    }

    /** @return z of the double origin */
    public double originZ() {
        return originZ;
    }

    /**
     * The root reference: {@link #NULL_REF} when empty, {@code ~0} (a leaf) for one object, else 0.
     *
     * @return the reference to the root
     */
    public int rootRef() {
        return rootRef;
    }

    /**
     * The bounds of the whole tree, relative to the origin (all zero when empty). Shared array, do not modify.
     *
     * @return {@code minX, minY, minZ, maxX, maxY, maxZ}
     */
    public float[] rootBounds() {
        return rootBounds;
    }

    /**
     * The child boxes of all internal nodes, 12 floats per node (see the class comment). Shared, do not modify.
     *
     * @return the child box array of length {@code 12 * nodeCount()}
     */
    public float[] childBounds() {
        return childBounds;
    }

    /**
     * The child references of all internal nodes, 2 ints per node. Shared, do not modify.
     *
     * @return the child reference array of length {@code 2 * nodeCount()}
     */
    public int[] childRefs() {
        return childRefs;
    }

    /**
     * The number of internal nodes on the longest root-to-leaf path (0 for fewer than two objects): a depth-first
     * traversal never holds more than {@code height() + 1} pending references.
     *
     * @return the tree height, computed in one pass over the nodes
     */
    public int height() {
        int nodes = nodeCount();
        if (nodes == 0) {
            return 0;
        }
        // children follow their parents, so a backward pass sees every child before its parent
        int[] heights = new int[nodes];
        for (int k = nodes - 1; k >= 0; k--) {
            int a = childRefs[2 * k];
            int b = childRefs[2 * k + 1];
            heights[k] = 1 + Math.max(a < 0 ? 0 : heights[a], b < 0 ? 0 : heights[b]);
        }
        return heights[0];
    }

    /**
     * The quality metric of Box2D's {@code GetAreaRatio}: the summed surface area of the internal nodes other
     * than the root, divided by the root's surface area. Lower is better; 0 for fewer than three objects or a
     * root of zero area.
     *
     * @return the area ratio
     */
    public double areaRatio() {
        double rootArea = surfaceArea(rootBounds, 0);
        if (!(rootArea > 0.0)) {
            return 0.0;
        }
        double total = 0.0;
        int nodes = nodeCount();
        for (int k = 0; k < nodes; k++) {
            if (childRefs[2 * k] >= 0) {
                total += surfaceArea(childBounds, 12 * k);
            }
            if (childRefs[2 * k + 1] >= 0) {
                total += surfaceArea(childBounds, 12 * k + 6);
            }
        }
        return total / rootArea;
    }

    /**
     * Surface area of a box stored as 6 floats (min then max) at {@code offset}.
     *
     * @param box    the array
     * @param offset index of {@code minX}
     * @return {@code 2 (dx dy + dy dz + dz dx)} in double precision
     */
    public static double surfaceArea(float[] box, int offset) {
        double dx = (double) box[offset + 3] - box[offset];
        double dy = (double) box[offset + 4] - box[offset + 1];
        double dz = (double) box[offset + 5] - box[offset + 2];
        return 2.0 * (dx * dy + dy * dz + dz * dx);
    }
}
