package dev.boxwood.testkit.scenes;

import java.util.Arrays;

/**
 * Sizes cube queries so that each overlaps a chosen number {@code k} of boxes: the cube of half-size
 * {@code h} centred at {@code c} overlaps box {@code i} exactly when the Chebyshev (max-norm) distance
 * from {@code c} to the box is at most {@code h}, so the k-th smallest such distance is the half-size.
 * The distances are gathered through a uniform grid over the box centres in x,y, widening the search
 * radius until it holds k boxes.
 */
final class HitSizedCubes {

    private final BoxSet boxes;
    private final int cells;
    private final double gridX0;
    private final double gridY0;
    private final double cellSize;
    private final double halfMaxX;
    private final double halfMaxY;
    private final int[] cellStart;
    private final int[] order;
    private double[] distances = new double[64];

    HitSizedCubes(BoxSet boxes) {
        this.boxes = boxes;
        int n = boxes.size();
        double x0 = Double.POSITIVE_INFINITY;
        double y0 = Double.POSITIVE_INFINITY;
        double x1 = Double.NEGATIVE_INFINITY;
        double y1 = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            x0 = Math.min(x0, centreX(i));
            y0 = Math.min(y0, centreY(i));
            x1 = Math.max(x1, centreX(i));
            y1 = Math.max(y1, centreY(i));
        }
        double[] ext = boxes.maxExtents();
        halfMaxX = ext[0] / 2;
        halfMaxY = ext[1] / 2;
        // about 8 boxes per cell on average; clustered cells hold many more, which only costs time here
        cells = (int) Math.max(1, Math.min(1024, Math.sqrt(n / 8.0)));
        gridX0 = x0;
        gridY0 = y0;
        double span = Math.max(x1 - x0, y1 - y0);
        cellSize = span > 0 ? span / cells : 1;
        cellStart = new int[cells * cells + 1];
        order = new int[n];
        for (int i = 0; i < n; i++) {
            cellStart[cellOf(i) + 1]++;
        }
        for (int c = 0; c < cells * cells; c++) {
            cellStart[c + 1] += cellStart[c];
        }
        int[] fill = Arrays.copyOf(cellStart, cells * cells);
        for (int i = 0; i < n; i++) {
            order[fill[cellOf(i)]++] = i;
        }
    }

    private double centreX(int i) {
        return 0.5 * (boxes.minX[i] + boxes.maxX[i]);
    }

    private double centreY(int i) {
        return 0.5 * (boxes.minY[i] + boxes.maxY[i]);
    }

    private int cellOf(int i) {
        return cellIndex(centreY(i), gridY0) * cells + cellIndex(centreX(i), gridX0);
    }

    /** Grid column or row of coordinate {@code v} on an axis whose grid starts at {@code start}; clamped. */
    private int cellIndex(double v, double start) {
        int c = (int) Math.floor((v - start) / cellSize);
        return Math.max(0, Math.min(cells - 1, c));
    }

    /**
     * Half-size of the smallest cube centred at {@code (cx, cy, cz)} that overlaps at least {@code k}
     * boxes, padded by a few ulps so that rounding in {@code c +- h} cannot drop the k-th box.
     * Requires {@code 1 <= k <= boxes.size()}.
     */
    double halfSizeFor(double cx, double cy, double cz, int k) {
        double radius = cellSize / 2;
        while (true) {
            int found = gather(cx, cy, cz, radius);
            if (found >= k) {
                Arrays.sort(distances, 0, found);
                double h = distances[k - 1];
                double magnitude = Math.max(Math.max(Math.abs(cx), Math.abs(cy)), Math.max(Math.abs(cz), h));
                return h + 4 * Math.ulp(magnitude);
            }
            radius *= 2;
        }
    }

    /** Collects into {@code distances} the Chebyshev distances of all boxes within {@code radius}; returns how many. */
    private int gather(double cx, double cy, double cz, double radius) {
        int colLo = cellIndex(cx - radius - halfMaxX, gridX0);
        int colHi = cellIndex(cx + radius + halfMaxX, gridX0);
        int rowLo = cellIndex(cy - radius - halfMaxY, gridY0);
        int rowHi = cellIndex(cy + radius + halfMaxY, gridY0);
        int found = 0;
        for (int row = rowLo; row <= rowHi; row++) {
            for (int c = row * cells + colLo, end = row * cells + colHi; c <= end; c++) {
                for (int j = cellStart[c]; j < cellStart[c + 1]; j++) {
                    int i = order[j];
                    double d = Math.max(axisDistance(cx, boxes.minX[i], boxes.maxX[i]),
                            Math.max(axisDistance(cy, boxes.minY[i], boxes.maxY[i]),
                                    axisDistance(cz, boxes.minZ[i], boxes.maxZ[i])));
                    if (d <= radius) {
                        if (found == distances.length) {
                            distances = Arrays.copyOf(distances, found * 2);
                        }
                        distances[found++] = d;
                    }
                }
            }
        }
        return found;
    }

    private static double axisDistance(double c, double lo, double hi) {
        return Math.max(0, Math.max(lo - c, c - hi));
    }
}
