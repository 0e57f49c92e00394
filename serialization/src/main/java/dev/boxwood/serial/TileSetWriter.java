package dev.boxwood.serial;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.query.Arguments;

/**
 * Splits a world into tiles on a regular grid and writes each tile as a static world file with its own origin
 * (the centre of the tile's bounds), for {@link TiledWorld}.
 *
 * <p>An object belongs to the grid cell holding the centre of its box; a tile's bounds are those of its objects,
 * so tiles may overlap where objects straddle cell borders (queries test every tile whose bounds they touch).
 * Within a tile, handles are the tile file's storage order ({@link StaticWorldWriter}); the user values, the global
 * object index by default, identify objects across tiles.
 */
public final class TileSetWriter {

    private TileSetWriter() {
    }

    /**
     * Writes one file per non-empty grid cell, named {@code <baseName>_<ix>_<iy>_<iz>.bxw} after the cell's
     * integer coordinates ({@code floor(centre / cellSize)}), each crash-safe as by {@link StaticWorldWriter}.
     *
     * @param dir          the directory of the tiles (must exist)
     * @param baseName     the file name prefix
     * @param boxes        absolute boxes, stride 6, finite, min &lt;= max
     * @param categoryBits per object, or {@code null} for {@code -1L}
     * @param userValues   per object, or {@code null} for the object's global index in {@code boxes}
     * @param cellSize     the grid cell edge length, finite and {@code > 0}
     * @return the written tile files, ordered by cell z, then y, then x
     * @throws IOException              if writing fails
     * @throws IllegalArgumentException on invalid arguments
     */
    public static List<Path> writeGrid(Path dir, String baseName, double[] boxes, long[] categoryBits,
                                       long[] userValues, double cellSize) throws IOException {
        Arguments.requireNonNull("dir", dir);
        Arguments.requireNonNull("baseName", baseName);
        Arguments.requireNonNull("boxes", boxes);
        if (!(cellSize > 0) || !Double.isFinite(cellSize)) {
            throw new IllegalArgumentException("cellSize must be finite and > 0: " + cellSize);
        }
        if (boxes.length % 6 != 0) {
            throw new IllegalArgumentException("boxes length must be a multiple of 6, got " + boxes.length);
        }
        int n = boxes.length / 6;
        if (categoryBits != null && categoryBits.length != n) {
            throw new IllegalArgumentException("categoryBits must hold " + n + " values");
        }
        if (userValues != null && userValues.length != n) {
            throw new IllegalArgumentException("userValues must hold " + n + " values");
        }
        // sort object indices by cell (z, y, x) then index: one pass per tile afterwards
        long[] cells = new long[n];
        for (int i = 0; i < n; i++) {
            Arguments.requireBox(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                    boxes[6 * i + 4], boxes[6 * i + 5]);
            cells[i] = cellKey(boxes, i, cellSize);
        }
        int[] order = sortByCell(cells);
        // every tile checked before the first file is written: its boxes must be storable relative to the origin
        // its file will get (the centre of its bounds)
        double[] one = new double[6];
        for (int start = 0; start < n; ) {
            int end = tileEnd(cells, order, start);
            double[] bounds = BinnedSahBuilder.emptyBounds();
            for (int k = start; k < end; k++) {
                System.arraycopy(boxes, 6 * order[k], one, 0, 6);
                BinnedSahBuilder.growBounds(one, 1, bounds);
            }
            double[] origin = BinnedSahBuilder.originOf(bounds);
            for (int k = start; k < end; k++) {
                System.arraycopy(boxes, 6 * order[k], one, 0, 6);
                BinnedSahBuilder.checkBoxes(one, 1, order[k], origin[0], origin[1], origin[2]);
            }
            start = end;
        }
        List<Path> files = new ArrayList<>();
        for (int start = 0; start < n; ) {
            long cell = cells[order[start]];
            int end = tileEnd(cells, order, start);
            int m = end - start;
            double[] tileBoxes = new double[6 * m];
            long[] tileCategories = categoryBits == null ? null : new long[m];
            long[] tileValues = new long[m];
            for (int k = 0; k < m; k++) {
                int i = order[start + k];
                System.arraycopy(boxes, 6 * i, tileBoxes, 6 * k, 6);
                if (tileCategories != null) {
                    tileCategories[k] = categoryBits[i];
                }
                tileValues[k] = userValues == null ? i : userValues[i];
            }
            Path file = dir.resolve(baseName + "_" + cellX(cell) + "_" + cellY(cell) + "_" + cellZ(cell) + ".bxw");
            StaticWorldWriter.write(file, tileBoxes, tileCategories, tileValues, null);
            files.add(file);
            start = end;
        }
        return files;
    }

    /** The end of the run of objects (in {@code order}) that share the cell of the object at {@code start}. */
    private static int tileEnd(long[] cells, int[] order, int start) {
        long cell = cells[order[start]];
        int end = start;
        while (end < cells.length && cells[order[end]] == cell) {
            end++;
        }
        return end;
    }

    private static final int CELL_BITS = 21;
    private static final long CELL_MASK = (1L << CELL_BITS) - 1;
    private static final long CELL_BIAS = 1L << (CELL_BITS - 1);

    /** Cell coordinates packed z, y, x (21 bits each, biased), so the key order is z-major. */
    private static long cellKey(double[] boxes, int i, double cellSize) {
        long key = 0;
        for (int a = 2; a >= 0; a--) {
            double centre = boxes[6 * i + a] * 0.5 + boxes[6 * i + 3 + a] * 0.5;
            long c = (long) Math.floor(centre / cellSize) + CELL_BIAS;
            if (c < 0 || c > CELL_MASK) {
                throw new IllegalArgumentException("cellSize " + cellSize + " gives more than 2^21 cells per axis");
            }
            key = (key << CELL_BITS) | c;
        }
        return key;
    }

    private static long cellX(long key) {
        return (key & CELL_MASK) - CELL_BIAS;
    }

    private static long cellY(long key) {
        return ((key >>> CELL_BITS) & CELL_MASK) - CELL_BIAS;
    }

    private static long cellZ(long key) {
        return ((key >>> (2 * CELL_BITS)) & CELL_MASK) - CELL_BIAS;
    }

    /** Object indices ordered by cell key, ties by index (stable). */
    private static int[] sortByCell(long[] cells) {
        int n = cells.length;
        // (cell, index) pairs sort as one long when the cell keys are ranked first
        long[] distinct = cells.clone();
        Arrays.sort(distinct);
        int unique = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || distinct[i] != distinct[i - 1]) {
                distinct[unique++] = distinct[i];
            }
        }
        long[] pairs = new long[n];
        for (int i = 0; i < n; i++) {
            long rank = Arrays.binarySearch(distinct, 0, unique, cells[i]);
            pairs[i] = (rank << 32) | i;
        }
        Arrays.sort(pairs);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = (int) pairs[i];
        }
        return order;
    }
}
