package dev.boxwood.serial;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.TraversalStack;

/**
 * A large world split into static world files (tiles), each with its own double origin so float precision holds
 * everywhere, mapped on demand and unmapped least-recently-used first when the mapped bytes exceed a budget.
 *
 * <p>Opening reads only each tile's 256-byte header (validated as by {@link MappedWorld#open}); a tile is mapped
 * when a query first reaches its bounds. Queries use the library's visitors: the handle passed to a visitor is
 * the object's index <em>within its tile</em> ({@link Scratch#tile()} tells which tile is being visited, and the
 * user value should identify objects globally; {@link TileSetWriter} makes it the global index by default). A
 * ray cast walks the tiles its segment crosses in order of entry and carries the visitor's clipping from tile to
 * tile, so a closest-hit cast stops at the first tile that cannot hold anything nearer; fractions are those of
 * the whole segment and bit-equal to a single-index cast.
 *
 * <p>Threads: any number of threads may query at once, each with its own {@link Scratch}. Mapping, unmapping and
 * the use counts that keep a tile mapped while a thread reads it are guarded by this object's lock (taken twice
 * per visited tile per query). The budget is soft: tiles in use are never unmapped, so it can be exceeded while
 * many threads read many tiles. {@link #close()} must come after every query has returned.
 */
public final class TiledWorld implements AutoCloseable {

    private final Tile[] tiles;
    private final long budgetBytes;
    private long mappedBytes;
    private long clock;
    private boolean closed;

    /** One tile: header data, and its mapping while mapped. */
    private static final class Tile {
        final Path file;
        final long length;
        final int objects;
        final double originX;
        final double originY;
        final double originZ;
        final float[] bounds;
        MappedWorld world;
        int users;
        long lastUse;

        Tile(Path file, long length, MappedWorld.Header h) {
            this.file = file;
            this.length = length;
            this.objects = h.objectCount;
            this.originX = h.origin[0];
            this.originY = h.origin[1];
            this.originZ = h.origin[2];
            this.bounds = h.rootBounds;
        }
    }

    /**
     * Caller-owned scratch memory of tile queries: the traversal stack handed to each tile, the tile order of a
     * ray cast, and the tile being visited. One per thread; not thread-safe.
     */
    public static final class Scratch {
        private final TraversalStack stack = new TraversalStack();
        private int[] order = new int[16];
        private double[] entries = new double[16];
        private int tile = -1;

        /** @return the traversal stack (its visit counters add up over all tiles) */
        public TraversalStack stack() {
            return stack;
        }

        /** @return the index of the tile whose objects are being visited, or -1 outside a query */
        public int tile() {
            return tile;
        }

        void ensure(int tiles) {
            if (order.length < tiles) {
                order = new int[tiles];
                entries = new double[tiles];
            }
        }
    }

    private TiledWorld(Tile[] tiles, long budgetBytes) {
        this.tiles = tiles;
        this.budgetBytes = budgetBytes;
    }

    /**
     * Opens a set of tiles, reading and validating only their headers.
     *
     * @param tileFiles   the tile files (static world files); tile {@code i} is {@code tileFiles.get(i)}
     * @param budgetBytes the mapped bytes above which unused tiles are unmapped, {@code >= 0}
     * @return the tiled world
     * @throws CorruptWorldFileException if a tile's header is invalid
     * @throws IOException               if a tile cannot be read
     */
    public static TiledWorld open(List<Path> tileFiles, long budgetBytes) throws IOException {
        Arguments.requireNonNull("tileFiles", tileFiles);
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("budgetBytes must be >= 0: " + budgetBytes);
        }
        Tile[] tiles = new Tile[tileFiles.size()];
        for (int i = 0; i < tiles.length; i++) {
            Path file = tileFiles.get(i);
            Arguments.requireNonNull("tileFiles[" + i + "]", file);
            long length = Files.size(file);
            tiles[i] = new Tile(file, length, MappedWorld.Header.read(file, length));
        }
        return new TiledWorld(tiles, budgetBytes);
    }

    /** @return the number of tiles */
    public int tileCount() {
        return tiles.length;
    }

    /**
     * @param tile a tile index
     * @return the tile's file
     */
    public Path tileFile(int tile) {
        return tiles[tile].file;
    }

    /**
     * @param tile a tile index
     * @return the number of objects in the tile
     */
    public int tileSize(int tile) {
        return tiles[tile].objects;
    }

    /** @return the bytes of the tiles mapped now */
    public synchronized long mappedBytes() {
        return mappedBytes;
    }

    /** @return the number of tiles mapped now */
    public synchronized int mappedTileCount() {
        int n = 0;
        for (Tile t : tiles) {
            if (t.world != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * Visits every object, in every tile, whose stored tight box overlaps the closed query box and whose category
     * bits share a bit with {@code categoryMask}, until the visitor returns {@code false} (see
     * {@link dev.boxwood.query.SpatialQueries#queryAabb}). Tiles are visited in index order.
     *
     * @param minX         query min x
     * @param minY         query min y
     * @param minZ         query min z
     * @param maxX         query max x
     * @param maxY         query max y
     * @param maxZ         query max z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor      receives (index within the tile, user value); {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws UncheckedIOException wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void queryAabb(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                          long categoryMask, OverlapVisitor visitor, Scratch scratch) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("scratch", scratch);
        checkOpen();
        for (int i = 0; i < tiles.length; i++) {
            Tile t = tiles[i];
            float[] b = t.bounds;
            if (t.objects == 0 || !AabbAabb.test(b[0], b[1], b[2], b[3], b[4], b[5], minX - t.originX,
                    minY - t.originY, minZ - t.originZ, maxX - t.originX, maxY - t.originY, maxZ - t.originZ)) {
                continue;
            }
            MappedWorld world = acquire(t);
            scratch.tile = i;
            try {
                if (!world.queryAabbUnchecked(minX, minY, minZ, maxX, maxY, maxZ, categoryMask, visitor,
                        scratch.stack)) {
                    return;
                }
            } finally {
                scratch.tile = -1;
                release(t);
            }
        }
    }

    /**
     * Casts the segment {@code origin + t * translation}, {@code t} in {@code [0, maxFraction]}, through every
     * tile it crosses, nearest tile entry first, with the protocol of {@link RayCastVisitor} ({@code begin} once,
     * then {@code visit} per object entered; clipping carries over from tile to tile). Tiles whose bounds the
     * segment enters beyond the current maximum fraction are not visited (nor mapped).
     *
     * @param originX      origin x
     * @param originY      origin y
     * @param originZ      origin z
     * @param translationX translation x
     * @param translationY translation y
     * @param translationZ translation z
     * @param maxFraction  the largest fraction, finite and {@code >= 0}
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor      receives the objects and steers the cast; {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws UncheckedIOException wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void rayCast(double originX, double originY, double originZ,
                        double translationX, double translationY, double translationZ, double maxFraction,
                        long categoryMask, RayCastVisitor visitor, Scratch scratch) {
        Arguments.requireSegment(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("scratch", scratch);
        checkOpen();
        visitor.begin(originX, originY, originZ, translationX, translationY, translationZ, maxFraction);
        scratch.ensure(tiles.length);
        int[] order = scratch.order;
        double[] entries = scratch.entries;
        double ix = SegmentAabb.inverse(translationX);
        double iy = SegmentAabb.inverse(translationY);
        double iz = SegmentAabb.inverse(translationZ);
        int count = 0;
        for (int i = 0; i < tiles.length; i++) {
            Tile t = tiles[i];
            float[] b = t.bounds;
            if (t.objects == 0) {
                continue;
            }
            // the same root test the tile makes, so a tile skipped here would have reported nothing
            double entry = SegmentAabb.intersectInverse(originX - t.originX, originY - t.originY,
                    originZ - t.originZ, ix, iy, iz, maxFraction, b[0], b[1], b[2], b[3], b[4], b[5]);
            if (entry < 0.0) {
                continue;
            }
            // insertion by entry fraction, ties by tile index (stable): the walk order is deterministic
            int j = count++;
            while (j > 0 && entries[j - 1] > entry) {
                entries[j] = entries[j - 1];
                order[j] = order[j - 1];
                j--;
            }
            entries[j] = entry;
            order[j] = i;
        }
        double clip = maxFraction;
        for (int k = 0; k < count; k++) {
            if (entries[k] > clip) {
                return;
            }
            Tile t = tiles[order[k]];
            MappedWorld world = acquire(t);
            scratch.tile = order[k];
            try {
                clip = world.castUnchecked(originX, originY, originZ, translationX, translationY, translationZ,
                        maxFraction, clip, categoryMask, visitor, scratch.stack);
            } finally {
                scratch.tile = -1;
                release(t);
            }
            if (clip == MappedWorld.STOPPED) {
                return;
            }
        }
    }

    /**
     * Verifies every tile ({@link MappedWorld#verify()}), mapping each in turn within the budget.
     *
     * @throws CorruptWorldFileException naming the first corrupt tile and its problem
     * @throws IOException               if a tile cannot be mapped
     */
    public void verify() throws IOException {
        checkOpen();
        for (Tile t : tiles) {
            MappedWorld world;
            try {
                world = acquire(t);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            try {
                world.verify();
            } finally {
                release(t);
            }
        }
    }

    private synchronized MappedWorld acquire(Tile t) {
        checkOpen();
        if (t.world == null) {
            try {
                t.world = MappedWorld.open(t.file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            mappedBytes += t.length;
        }
        t.users++;
        t.lastUse = ++clock;
        evictOverBudget();
        return t.world;
    }

    private synchronized void release(Tile t) {
        t.users--;
        evictOverBudget();
    }

    /** Unmaps unused tiles, least recently used first, until the mapped bytes fit the budget. */
    private void evictOverBudget() {
        while (mappedBytes > budgetBytes) {
            Tile victim = null;
            for (Tile t : tiles) {
                if (t.world != null && t.users == 0 && (victim == null || t.lastUse < victim.lastUse)) {
                    victim = t;
                }
            }
            if (victim == null) {
                return;
            }
            victim.world.close();
            victim.world = null;
            mappedBytes -= victim.length;
        }
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the tiled world is closed");
        }
    }

    /** Unmaps every tile. Idempotent. Every query must have returned before. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Tile t : tiles) {
            if (t.world != null) {
                t.world.close();
                t.world = null;
            }
        }
        mappedBytes = 0;
    }
}
