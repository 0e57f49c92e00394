package dev.boxwood.bench.queries;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.testkit.scenes.BoxSet;

import java.util.SplittableRandom;

/**
 * Moves a fixed-size batch of a bulk-built tree's objects per call, with small displacements that do not drift:
 * the objects are split into batches by handle (handle {@code h} belongs to batch {@code h % batches}, so a batch
 * is spread over the whole world rather than one cluster), and each call moves the next batch, each object
 * toggling between its original box and that box shifted by its own prepared offset (each component uniform in
 * {@code [-MAX_STEP, MAX_STEP]}). The world therefore stays statistically the same however many calls run. With
 * the default margin cap of 0.1 m most of these moves leave the fat box and re-insert the leaf.
 */
final class BatchMoves {

    /** Largest offset per component, in metres: a small per-frame motion. */
    static final double MAX_STEP = 0.25;

    private final BoxSet boxes;
    private final double[] offsets;
    private final int batches;
    private int next;
    private boolean shifted;

    /**
     * @param boxes the tree's original boxes, by handle (handles of a bulk-built tree are the box indices)
     * @param batchSize objects moved per call, at least 1
     * @param seed the seed of the offsets
     */
    BatchMoves(BoxSet boxes, int batchSize, long seed) {
        this.boxes = boxes;
        this.batches = Math.max(1, boxes.size() / batchSize);
        int n = boxes.size();
        offsets = new double[3 * n];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = (2 * random.nextDouble() - 1) * MAX_STEP;
        }
    }

    /**
     * Moves the next batch.
     *
     * @param tree the tree built from the boxes
     * @return the number of objects moved
     */
    int moveNext(DynamicAabbTree tree) {
        BoxSet b = boxes;
        double[] o = offsets;
        double s = shifted ? 0.0 : 1.0;
        int moved = 0;
        for (int h = next, n = b.size(); h < n; h += batches) {
            double dx = s * o[3 * h];
            double dy = s * o[3 * h + 1];
            double dz = s * o[3 * h + 2];
            tree.move(h, b.minX[h] + dx, b.minY[h] + dy, b.minZ[h] + dz, b.maxX[h] + dx, b.maxY[h] + dy,
                    b.maxZ[h] + dz);
            moved++;
        }
        if (++next == batches) {
            next = 0;
            shifted = !shifted;
        }
        return moved;
    }
}
