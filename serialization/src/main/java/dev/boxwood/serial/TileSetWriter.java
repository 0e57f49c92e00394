package dev.boxwood.serial;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
     * The set as a whole is not replaced atomically: a write that fails partway (a full disk) leaves the tiles
     * written before the failure, each complete (replacing any tile of the same name), and the others as they were.
     * To replace a tile set that readers use, write the new one under another base name or directory and switch
     * the readers over.
     *
     * @param dir          the directory of the tiles (must exist)
     * @param baseName     the file name prefix
     * @param boxes        absolute boxes, stride 6, finite, min &lt;= max
     * @param userValues   per object, or {@code null} for the object's global index in {@code boxes}
     * @param categoryBits per object, or {@code null} for {@code -1L}
     * @param cellSize     the grid cell edge length, finite and {@code > 0}; the world may lie anywhere but span
     *                     at most 2^21 cells along each axis, and every box's centre must lie within 2^53 cells of
     *                     the origin (the message names the first box beyond, or the cell size where no box is
     *                     within)
     * @return the written tile files, ordered by cell z, then y, then x
     * @throws IOException              if writing fails; {@link NoSuchFileException} naming {@code dir} if it does
     *                                  not exist (checked first), {@link java.nio.file.AccessDeniedException} if it
     *                                  cannot be written (checked before the first tile is written)
     * @throws IllegalArgumentException on invalid arguments (then no file is written)
     * @throws IllegalStateException    if the JVM runs without the options Chronicle Bytes needs to map files (the
     *                                  message names the missing ones and {@code serialization/chronicle.args}),
     *                                  found as the first tile is mapped; no tile is written
     */
    public static List<Path> writeGrid(Path dir, String baseName, double[] boxes, long[] userValues,
                                       long[] categoryBits, double cellSize) throws IOException {
        Arguments.requireNonNull("dir", dir);
        Arguments.requireNonNull("baseName", baseName);
        Arguments.requireNonNull("boxes", boxes);
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir)) {
                throw new FileSystemException(dir.toString(), null, "not a directory (the tiles' directory)");
            }
            throw new NoSuchFileException(dir.toString(), null, "the tiles' directory does not exist");
        }
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
        long[] firstCell = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        long[] lastCell = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
        // the first box beyond 2^53 cells of the origin, on its axis: a box far from the rest is the input's fault,
        // but where no box is within reach the cell size is too fine for any grid of this world
        int farObject = -1;
        int farAxis = -1;
        for (int i = 0; i < n; i++) {
            Arguments.requireBox("boxes", i, boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                    boxes[6 * i + 4], boxes[6 * i + 5]);
            for (int a = 0; a < 3; a++) {
                double at = cellCoordinate(boxes, i, a, cellSize);
                if (!(Math.abs(at) < CELL_INDEX_LIMIT)) {
                    if (farObject < 0) {
                        farObject = i;
                        farAxis = a;
                    }
                    continue;
                }
                long c = (long) at;
                firstCell[a] = Math.min(firstCell[a], c);
                lastCell[a] = Math.max(lastCell[a], c);
            }
        }
        if (farObject >= 0) {
            if (firstCell[farAxis] == Long.MAX_VALUE) {
                throw new IllegalArgumentException("cellSize " + cellSize + " puts every box beyond 2^53 cells from"
                        + " the origin on axis " + "xyz".charAt(farAxis) + ": no grid of cells this small holds the"
                        + " world");
            }
            throw beyondReach(farObject, farAxis, cellCoordinate(boxes, farObject, farAxis, cellSize), cellSize);
        }
        for (int a = 0; a < 3; a++) {
            // the key packs cells relative to the world's first cell, so only the world's extent is bounded,
            // not its distance from the origin
            if (n > 0 && lastCell[a] - firstCell[a] > CELL_MASK) {
                throw new IllegalArgumentException("cellSize " + cellSize + " gives more than 2^21 cells on axis "
                        + "xyz".charAt(a) + " (cells " + firstCell[a] + " to " + lastCell[a] + ")");
            }
        }
        long[] cells = new long[n];
        for (int i = 0; i < n; i++) {
            cells[i] = cellKey(boxes, i, cellSize, firstCell);
        }
        int[] order = sortByCell(cells);
        // every tile checked before the first file is written: its target must be free to take a file, and its
        // boxes storable relative to the origin its file will get (BinnedSahBuilder.originOf)
        double[] one = new double[6];
        for (int start = 0; start < n; ) {
            StaticWorldWriter.targetDirectory(tileFile(dir, baseName, cells[order[start]], firstCell));
            int end = tileEnd(cells, order, start);
            if (end - start > BinnedSahBuilder.MAX_OBJECTS) {
                throw new IllegalArgumentException("tile " + tileFile(dir, baseName, cells[order[start]], firstCell)
                        .getFileName() + " would hold " + (end - start) + " objects, at most "
                        + BinnedSahBuilder.MAX_OBJECTS + " fit one world file: use a smaller cellSize");
            }
            double[] bounds = BinnedSahBuilder.emptyBounds();
            for (int k = start; k < end; k++) {
                System.arraycopy(boxes, 6 * order[k], one, 0, 6);
                BinnedSahBuilder.growBounds(one, 1, bounds);
            }
            double[] origin;
            try {
                origin = BinnedSahBuilder.originOf(bounds);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("tile " + tileFile(dir, baseName, cells[order[start]], firstCell)
                        .getFileName() + ": " + e.getMessage(), e);
            }
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
            Path file = tileFile(dir, baseName, cell, firstCell);
            StaticWorldWriter.write(file, tileBoxes, tileValues, tileCategories, null);
            files.add(file);
            start = end;
        }
        return files;
    }

    /** The file of the tile of a cell: named after its cell coordinates. */
    private static Path tileFile(Path dir, String baseName, long cell, long[] firstCell) {
        return dir.resolve(baseName + "_" + cellOf(cell, 0, firstCell) + "_" + cellOf(cell, 1, firstCell) + "_"
                + cellOf(cell, 2, firstCell) + ".bxw");
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
    /** Beyond this many cells from the origin a cell index is no longer a whole number of cells. */
    private static final double CELL_INDEX_LIMIT = 0x1p53;

    /** {@code floor(centre / cellSize)} on axis {@code a}, unbounded (infinite beyond the double range). */
    private static double cellCoordinate(double[] boxes, int i, int a, double cellSize) {
        double centre = boxes[6 * i + a] * 0.5 + boxes[6 * i + 3 + a] * 0.5;
        return Math.floor(centre / cellSize);
    }

    /** {@link #cellCoordinate} as a whole number of cells, refused beyond 2^53. */
    private static long cellIndex(double[] boxes, int i, int a, double cellSize) {
        double c = cellCoordinate(boxes, i, a, cellSize);
        if (!(Math.abs(c) < CELL_INDEX_LIMIT)) {
            throw beyondReach(i, a, c, cellSize);
        }
        return (long) c;
    }

    /** Object {@code i} lies {@code c} cells from the origin on axis {@code a}: too far for a whole cell index. */
    private static IllegalArgumentException beyondReach(int i, int a, double c, double cellSize) {
        return new IllegalArgumentException("object " + i + " lies "
                + (Double.isInfinite(c) ? "more than " + Double.MAX_VALUE : c) + " cells of size " + cellSize
                + " from the origin on axis " + "xyz".charAt(a) + ", beyond 2^53");
    }

    /** Cell indices relative to {@code firstCell}, packed z, y, x (21 bits each), so the key order is z-major. */
    private static long cellKey(double[] boxes, int i, double cellSize, long[] firstCell) {
        long key = 0;
        for (int a = 2; a >= 0; a--) {
            key = (key << CELL_BITS) | (cellIndex(boxes, i, a, cellSize) - firstCell[a]);
        }
        return key;
    }

    /** The cell index on axis {@code a} of a packed key. */
    private static long cellOf(long key, int a, long[] firstCell) {
        return ((key >>> (a * CELL_BITS)) & CELL_MASK) + firstCell[a];
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
