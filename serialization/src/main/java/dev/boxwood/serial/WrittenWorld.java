package dev.boxwood.serial;

/**
 * What {@link StaticWorldWriter} wrote: the handle each input object received, and the shape of the stored tree.
 *
 * <p>The handles of a static world are the objects' positions in storage order ({@code 0 .. size() - 1}, the
 * depth-first order of the tree's leaves, so that each leaf is a contiguous run of objects). They generally differ
 * from the input indices: {@link #handleOf} and {@link #inputIndexOf} translate both ways in O(1). An application
 * that keeps no mapping can still find its own index from any query answer: the user value defaults to the input
 * index when none is given.
 */
public final class WrittenWorld {

    private final int[] inputOfHandle;
    private final int[] handleOfInput;
    private final int nodeCount;
    private final int height;
    private final double originX;
    private final double originY;
    private final double originZ;
    private final long fileLength;

    WrittenWorld(int[] inputOfHandle, int nodeCount, int height, double originX, double originY, double originZ,
                 long fileLength) {
        this.inputOfHandle = inputOfHandle;
        this.handleOfInput = new int[inputOfHandle.length];
        for (int h = 0; h < inputOfHandle.length; h++) {
            handleOfInput[inputOfHandle[h]] = h;
        }
        this.nodeCount = nodeCount;
        this.height = height;
        this.originX = originX;
        this.originY = originY;
        this.originZ = originZ;
        this.fileLength = fileLength;
    }

    /** @return the number of objects written */
    public int size() {
        return inputOfHandle.length;
    }

    /**
     * @param inputIndex the index of a box in the array the world was written from
     * @return the handle queries on the world report for it
     * @throws IndexOutOfBoundsException outside {@code [0, size())}
     */
    public int handleOf(int inputIndex) {
        return handleOfInput[inputIndex];
    }

    /**
     * @param handle a handle of the written world
     * @return the index of its box in the array the world was written from
     * @throws IndexOutOfBoundsException outside {@code [0, size())}
     */
    public int inputIndexOf(int handle) {
        return inputOfHandle[handle];
    }

    /** @return a copy of the mapping: element {@code i} is the handle of input object {@code i} */
    public int[] handles() {
        return handleOfInput.clone();
    }

    /** @return the number of internal nodes stored */
    public int nodeCount() {
        return nodeCount;
    }

    /** @return the number of leaves (runs of 1 to {@value WorldLayout#MAX_LEAF_SIZE} objects), 0 when empty */
    public int leafCount() {
        return size() == 0 ? 0 : nodeCount + 1;
    }

    /** @return objects per leaf on average, 0 when empty */
    public double averageLeafSize() {
        return size() == 0 ? 0.0 : (double) size() / leafCount();
    }

    /** @return internal nodes on the longest root-to-leaf path (0 when there is no internal node) */
    public int height() {
        return height;
    }

    /** @return x of the double origin the stored float boxes are relative to */
    public double originX() {
        return originX;
    }

    /** @return y of the origin */
    public double originY() {
        return originY;
    }

    /** @return z of the origin */
    public double originZ() {
        return originZ;
    }

    /** @return the length of the written file in bytes */
    public long fileLength() {
        return fileLength;
    }

    /** @return the file length divided by the object count (0 when empty) */
    public double bytesPerObject() {
        return size() == 0 ? 0.0 : (double) fileLength / size();
    }
}
