package dev.boxwood.serial;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.boxwood.geom.FrustumAabb;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.DistanceFunction;
import dev.boxwood.query.HeapSorted;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.NearestVisitor;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.PartAware;
import dev.boxwood.query.QueryFilter;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.RegionTests;
import dev.boxwood.query.SweepTests;
import dev.boxwood.query.TraversalStack;

/**
 * A large world split into static world files (tiles), each with its own double origin so float precision holds
 * everywhere, mapped on demand and unmapped least-recently-used first when the mapped bytes exceed a budget.
 *
 * <p>Opening reads only each tile's 256-byte header (validated as by {@link MappedWorld#open}); a tile is mapped when a
 * query first reaches its bounds, and verified whole each time it is mapped only if opened so
 * ({@link #open(List, long, boolean)}, at the cost of a full read of the tile per mapping). Queries use the library's
 * visitors: the handle passed to a visitor is the object's handle <em>within its tile</em>. Before the objects of
 * each tile the visitor's
 * {@link dev.boxwood.query.PartAware#enterPart enterPart} gets the tile's index, so the library's collectors record the
 * tile of each result ({@code part()}, {@code part(i)}), {@code ClosestHit} breaks equal fractions by tile before
 * handle, and the sorts order by tile before handle; inside a visit {@link Scratch#tile()} tells it too. User values
 * may identify objects across tiles as well ({@link TileSetWriter} makes them the global index by default). A ray cast
 * walks the tiles its segment crosses in order of entry and carries the visitor's clipping from tile to tile, so a
 * closest-hit cast stops at the first tile that cannot hold anything nearer; fractions are those of the whole segment
 * and bit-equal to a single-index cast. Swept boxes and spheres ({@link #sweepBox}, {@link #sweepSphere}) walk the
 * tiles the same way, each tile answering as its {@link MappedWorld} does; nearest queries ({@link #nearest},
 * {@link #kNearest}) take the tiles by distance and merge their answers. Region queries ({@link #querySphere},
 * {@link #queryBox}, {@link #queryObb}, {@link #queryConvex}) visit tiles in index order and report, per tile, exactly
 * what {@link MappedWorld}'s method of the same name reports on that tile: the shape is moved into each tile's frame as
 * the tile would move it, and a tile whose header bounds the shape cannot touch is neither visited nor mapped.
 *
 * <p>Threads: any number of threads may query at once, each with its own {@link Scratch} (and a query run from
 * inside another's visitor with a scratch of its own: passing a scratch a running query holds throws
 * {@link IllegalStateException}). Mapping, the choice of the tiles to unmap and
 * the use counts that keep a tile mapped while a thread reads it are guarded by this object's lock (taken twice
 * per visited tile per query); a tile the budget drops is unmapped shortly after on the library's unmapping
 * thread (one daemon thread, {@code boxwood-unmapper}), so the query that drops
 * it does not wait for the unmapping (a millisecond or more), and {@link #close()} returns only once the tiles it
 * drops and those the budget dropped before are unmapped. The budget is soft: tiles in use are never unmapped, so it can be exceeded while many threads read many
 * tiles. {@link #close()} may come at any time (see there): it never unmaps a tile under a
 * running query.
 *
 * <p>Tiles must not be replaced on disk while the tiled world is open (unlike a single {@link MappedWorld}, which
 * keeps reading the file it mapped): the origin, bounds and object count of each tile are read once, by
 * {@link #open}, and decide which tiles a query visits and in which frame. Every time a tile is mapped, the first
 * time or again after the budget unmapped it, its header is compared with what {@code open} read (origin, root
 * bounds, object count and file length); if the tile changed, the query fails with an
 * {@link UncheckedIOException} naming the tile and its file and saying that it changed on disk since open, rather
 * than mix the old frame with the new contents. A replaced tile is only noticed when a query reaches its old
 * bounds and maps it: objects of the new file outside those bounds are not found until then. Open a new tiled
 * world to see replaced tiles.
 *
 * <p>In a JVM started without the options Chronicle Bytes needs to map files ({@code serialization/chronicle.args}),
 * the first query that maps a tile throws the {@link IllegalStateException} of {@link MappedWorld#open(Path)}, which
 * names the missing options.
 */
public final class TiledWorld implements AutoCloseable {

    /** The {@code k} of {@link #browseNearest}'s first search; it doubles for each further one. */
    public static final int BROWSE_FIRST_K = 16;

    /** The kind of {@link #walkTiles} for a ray cast, beside {@link SweepTests#BOX} and {@link SweepTests#SPHERE}. */
    private static final int RAY = -1;

    private final Tile[] tiles;
    /** Whether each mapping of a tile is verified before a query reads it ({@link #open(List, long, boolean)}). */
    private final boolean verifyTiles;
    /**
     * Guards the tiles' mappings, use counts and the counters: private, so that code holding the tiled world's own
     * monitor (an application locking on it) cannot block the threads of a batch, or the last query out of a tile.
     */
    private final Object lock = new Object();
    private final long budgetBytes;
    private long mappedBytes;
    private long mapCount;
    private long unmapCount;
    private long clock;
    private boolean closed;
    /**
     * Tiles' worlds unmapped under the lock (by the budget or the close) but not yet closed: the thread that retired
     * one closes it after letting go of the lock ({@link #closeRetired}), so the other threads' queries do not wait
     * for it. Grown under the lock, rarely.
     */
    private MappedWorld[] retired = new MappedWorld[4];
    private int retiredCount;
    /** Tiles handed to the unmapping thread and not yet unmapped ({@link #closeRetired}); guarded by the lock. */
    private int unmapsPending;

    /** One tile: header data, and its mapping while mapped. */
    private static final class Tile {
        final int index;
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

        Tile(int index, Path file, long length, MappedWorld.Header h) {
            this.index = index;
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
     * ray cast, sweep or nearest query, an oriented box or swept shape in a tile's frame, each tile's nearest
     * objects before they are merged, and the tile being visited. One per thread. One query at a time: a query run
     * from inside another's visitor, filter or distance function needs a scratch of its own, and passing a scratch
     * that a running query holds (this thread's or, by mistake, another's) throws {@link IllegalStateException}
     * (sharing it would mix the two queries' tile walks and the counts that keep their tiles mapped).
     */
    public static final class Scratch {
        private final TraversalStack stack = new TraversalStack();
        /** An oriented box moved into the frame of the tile being visited. */
        private final double[] obb = new double[ObbLayout.STRIDE];
        /** A swept shape's parameters in the frame of one tile ({@link SweepTests}). */
        private final double[] sweep = new double[6];
        /** One tile's nearest objects, merged into the caller's results. */
        private final NearestNeighbours tileNearest = new NearestNeighbours();
        private int[] order = new int[16];
        private double[] entries = new double[16];
        /** The nearest search's queue over {@link #order} and {@link #entries}. */
        private final TileQueue nearestTiles = new TileQueue(this);
        private int tile = -1;
        /**
         * Whether a query is using this scratch (from its start until it returns or throws); taken by a
         * compare-and-set, so a scratch shared by two threads by mistake fails one of them instead of mixing the
         * use counts that keep tiles mapped under their readers.
         */
        private final AtomicBoolean busy = new AtomicBoolean();

        /** @return the traversal stack (its visit counters add up over all tiles) */
        public TraversalStack stack() {
            return stack;
        }

        /** @return the index of the tile whose objects are being visited, or -1 outside a query */
        public int tile() {
            return tile;
        }

        /** Takes the scratch for one query; {@link #free} gives it back. */
        void claim() {
            if (!busy.compareAndSet(false, true)) {
                throw new IllegalStateException("this TiledWorld.Scratch is in use by a query that has not returned:"
                        + " a query run from inside another's visitor, filter or distance function, or on another"
                        + " thread, needs a Scratch of its own");
            }
        }

        void free() {
            tile = -1;
            busy.set(false);
        }

        void ensure(int tiles) {
            if (order.length < tiles) {
                order = new int[tiles];
                entries = new double[tiles];
            }
        }
    }

    /**
     * Tiles (in a scratch's {@code order}, their distances in its {@code entries}) as a heap whose top is the
     * nearest, ties by lower tile: the nearest search takes them nearest first and stops at the first beyond its
     * limit, so only the tiles it searches are ordered.
     */
    private static final class TileQueue extends HeapSorted {
        private final Scratch scratch;

        TileQueue(Scratch scratch) {
            this.scratch = scratch;
        }

        /** The heap's top sorts last: a tile sorts before another that is nearer (or as near, with a lower index). */
        @Override
        protected boolean less(int a, int b) {
            double[] entries = scratch.entries;
            int[] order = scratch.order;
            return entries[b] < entries[a] || entries[b] == entries[a] && order[b] < order[a];
        }

        @Override
        protected void swap(int a, int b) {
            int[] order = scratch.order;
            double[] entries = scratch.entries;
            int tile = order[a];
            order[a] = order[b];
            order[b] = tile;
            double entry = entries[a];
            entries[a] = entries[b];
            entries[b] = entry;
        }

        void build(int count) {
            heapify(count);
        }

        /** Removes the nearest tile; returns the queue's new size (the tile removed is then at that index). */
        int removeNearest(int count) {
            return removeTop(count);
        }
    }

    private TiledWorld(Tile[] tiles, long budgetBytes, boolean verifyTiles) {
        this.tiles = tiles;
        this.budgetBytes = budgetBytes;
        this.verifyTiles = verifyTiles;
    }

    /**
     * Opens a set of tiles, reading and validating only their headers. Tiles are not verified when mapped: a
     * damaged tile answers queries wrongly (never reading outside its mapping) until {@link #verify()} finds it;
     * {@link #open(List, long, boolean)} verifies each tile as it is mapped.
     *
     * @param tileFiles   the tile files (static world files); tile {@code i} is {@code tileFiles.get(i)}
     * @param budgetBytes the mapped bytes above which unused tiles are unmapped, {@code >= 0}
     * @return the tiled world
     * @throws CorruptWorldFileException if a tile's header is invalid
     * @throws IOException               if a tile cannot be read
     */
    public static TiledWorld open(List<Path> tileFiles, long budgetBytes) throws IOException {
        return open(tileFiles, budgetBytes, false);
    }

    /**
     * Opens a set of tiles, reading and validating only their headers, and with {@code verifyTiles} verifies each
     * tile ({@link MappedWorld#verify()}: every section checksum and the tree structure) each time it is mapped,
     * before any query reads it: when a query first reaches it, and again whenever a query reaches it after the
     * budget unmapped it (the file is read from disk again then, so it is checked again). A tile that fails is
     * unmapped at once and the query that reached it throws an {@link UncheckedIOException} whose cause is the
     * {@link CorruptWorldFileException} naming the file and the problem; the tile is not kept, so each later query
     * reaching it fails the same way, and the other tiles answer as usual.
     *
     * <p>The cost: each mapping reads the whole tile file (where an unverified mapping reads only the pages queries
     * touch) and takes {@link MappedWorld#verify()}'s heap, about 40 bytes per internal node of the tile; with a
     * budget that keeps unmapping and remapping tiles each remapping pays it again. The verification runs outside
     * the tiled world's lock, so queries of other tiles do not wait for it; two threads reaching the same unmapped
     * tile at once may both verify it, and one mapping is kept. Opening itself costs what
     * {@link #open(List, long)} costs.
     *
     * @param tileFiles   the tile files (static world files); tile {@code i} is {@code tileFiles.get(i)}
     * @param budgetBytes the mapped bytes above which unused tiles are unmapped, {@code >= 0}
     * @param verifyTiles whether to verify each tile every time it is mapped
     * @return the tiled world
     * @throws CorruptWorldFileException if a tile's header is invalid
     * @throws IOException               if a tile cannot be read
     */
    public static TiledWorld open(List<Path> tileFiles, long budgetBytes, boolean verifyTiles) throws IOException {
        Arguments.requireNonNull("tileFiles", tileFiles);
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("budgetBytes must be >= 0: " + budgetBytes);
        }
        Tile[] tiles = new Tile[tileFiles.size()];
        for (int i = 0; i < tiles.length; i++) {
            Path file = tileFiles.get(i);
            Arguments.requireNonNull("tileFiles[" + i + "]", file);
            MappedWorld.Header header = MappedWorld.Header.read(file);
            tiles[i] = new Tile(i, file, header.fileLength, header);
        }
        return new TiledWorld(tiles, budgetBytes, verifyTiles);
    }

    /** @return the number of tiles */
    public int tileCount() {
        return tiles.length;
    }

    /**
     * @param tile a tile index, in {@code [0, tileCount())}
     * @return the tile's file
     * @throws IllegalArgumentException if the tile index is out of range
     */
    public Path tileFile(int tile) {
        return tile(tile).file;
    }

    /**
     * The number of objects in a tile, as its header said when {@link #open} read it. The file is not read again:
     * a tile replaced on disk since (which it must not be, see the class comment) is reported by the next query
     * that maps it, not here.
     *
     * @param tile a tile index, in {@code [0, tileCount())}
     * @return the number of objects in the tile, read by {@link #open}
     * @throws IllegalArgumentException if the tile index is out of range
     */
    public int tileSize(int tile) {
        return tile(tile).objects;
    }

    /**
     * The user value of an object of a tile (what the writer stored; {@link TileSetWriter#writeGrid} defaults it to
     * the object's global index), for answers that name objects by tile and handle ({@code WorldPairs.tilePairs},
     * {@link Scratch#tile()} in a visitor). Maps the tile if it is not mapped, as a query reaching it would.
     *
     * @param tile   a tile index, in {@code [0, tileCount())}
     * @param handle an object of that tile, in {@code [0, tileSize(tile))}
     * @return its user value
     * @throws IllegalArgumentException if the tile or the handle is out of range
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if the tile cannot be mapped or changed on disk
     */
    public long userValue(int tile, int handle) {
        return objectValue(tile, handle, true);
    }

    /**
     * The category bits of an object of a tile; maps the tile if it is not mapped.
     *
     * @param tile   a tile index, in {@code [0, tileCount())}
     * @param handle an object of that tile, in {@code [0, tileSize(tile))}
     * @return its category bits
     * @throws IllegalArgumentException if the tile or the handle is out of range
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if the tile cannot be mapped or changed on disk
     */
    public long categoryBits(int tile, int handle) {
        return objectValue(tile, handle, false);
    }

    /** The user value or the category bits of an object, its tile held mapped for the read. */
    private long objectValue(int tile, int handle, boolean user) {
        Tile t = objectTile(tile, handle);
        MappedWorld world = acquire(t);
        try {
            return user ? world.userValue(handle) : world.categoryBits(handle);
        } finally {
            release(t);
        }
    }

    /**
     * The stored tight box of an object of a tile in world coordinates, as {@link MappedWorld#getTightBox} gives
     * it; maps the tile if it is not mapped.
     *
     * @param tile   a tile index, in {@code [0, tileCount())}
     * @param handle an object of that tile, in {@code [0, tileSize(tile))}
     * @param dest   receives {@code minX, minY, minZ, maxX, maxY, maxZ}
     * @throws IllegalArgumentException if the tile or the handle is out of range, or {@code dest} is null or short
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if the tile cannot be mapped or changed on disk
     */
    public void getTightBox(int tile, int handle, double[] dest) {
        Arguments.requireBoxDestination(dest);
        Tile t = objectTile(tile, handle);
        MappedWorld world = acquire(t);
        try {
            world.getTightBox(handle, dest);
        } finally {
            release(t);
        }
    }

    /**
     * Whether a tile is mapped now: a query reached it and the budget has not unmapped it since (or a thread is
     * reading it). A snapshot: other threads' queries may change it at once. {@code false} after {@link #close()}
     * once no query reads the tile.
     *
     * @param tile a tile index, in {@code [0, tileCount())}
     * @return whether the tile is mapped
     * @throws IllegalArgumentException if the tile index is out of range
     */
    public boolean isMapped(int tile) {
        synchronized (lock) {
            return tile(tile).world != null;
        }
    }

    /**
     * The bytes mapped now: the sum of the file lengths of the mapped tiles. At most the budget whenever no query
     * is running (the budget is soft only for tiles in use); 0 after {@link #close()} once no query reads a tile.
     *
     * @return the bytes of the tiles mapped now
     */
    public long mappedBytes() {
        synchronized (lock) {
            return mappedBytes;
        }
    }

    /**
     * How many times a tile was mapped since opening (cumulative, never reset). A tile unmapped by the budget and
     * reached again counts again: mappings beyond the first of each tile are the remapping the budget caused.
     *
     * @return the number of tile mappings so far
     */
    public long mapCount() {
        synchronized (lock) {
            return mapCount;
        }
    }

    /**
     * How many times a tile was unmapped since opening (cumulative, never reset), by the budget or by
     * {@link #close()}; {@code mapCount() - unmapCount()} is always {@link #mappedTileCount()}.
     *
     * @return the number of tile unmappings so far
     */
    public long unmapCount() {
        synchronized (lock) {
            return unmapCount;
        }
    }

    /** @return the number of tiles mapped now ({@code 0} after {@link #close()} once no query reads a tile) */
    public int mappedTileCount() {
        synchronized (lock) {
            int n = 0;
            for (Tile t : tiles) {
                if (t.world != null) {
                    n++;
                }
            }
            return n;
        }
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
        requireRegionArguments(RegionMode.CROSSING, visitor, scratch);
        region(RegionTests.BOX, minX, minY, minZ, maxX, maxY, maxZ, null, 0, null, RegionMode.CROSSING,
                categoryMask, null, visitor, scratch);
    }

    /**
     * Objects, in every tile, whose stored tight box overlaps ({@link RegionMode#CROSSING},
     * {@link RegionMode#CROSSING_CONSERVATIVE}: the same here) or lies inside ({@link RegionMode#WINDOW}) the closed
     * sphere, as {@link MappedWorld#querySphere(double, double, double, double, RegionMode, long, QueryFilter,
     * OverlapVisitor, TraversalStack)} selects them in each tile, until the visitor returns {@code false}. Tiles are
     * visited in index order.
     *
     * @param centerX      centre x
     * @param centerY      centre y
     * @param centerZ      centre z
     * @param radius       radius, finite and {@code >= 0}
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor (handle: index within the tile), or {@code null}
     * @param visitor      receives (index within the tile, user value); {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or one above
     *                                  {@link Arguments#MAX_RADIUS}, or null arguments
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void querySphere(double centerX, double centerY, double centerZ, double radius, RegionMode mode,
                            long categoryMask, QueryFilter filter, OverlapVisitor visitor, Scratch scratch) {
        MappedWorld.requireSphere(centerX, centerY, centerZ, radius);
        requireRegionArguments(mode, visitor, scratch);
        region(RegionTests.SPHERE, centerX, centerY, centerZ, radius, 0, 0, null, 0, null, mode, categoryMask,
                filter, visitor, scratch);
    }

    /**
     * Objects, in every tile, whose stored tight box overlaps (the crossing modes: the objects of
     * {@link #queryAabb}, plus the filter) or lies inside ({@link RegionMode#WINDOW}) the closed query box, as
     * {@link MappedWorld#queryBox} selects them in each tile, until the visitor returns {@code false}. Tiles are
     * visited in index order.
     *
     * @param minX         query min x
     * @param minY         query min y
     * @param minZ         query min z
     * @param maxX         query max x
     * @param maxY         query max y
     * @param maxZ         query max z
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor (handle: index within the tile), or {@code null}
     * @param visitor      receives (index within the tile, user value); {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite or inverted box or null arguments
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void queryBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         RegionMode mode, long categoryMask, QueryFilter filter, OverlapVisitor visitor,
                         Scratch scratch) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        requireRegionArguments(mode, visitor, scratch);
        region(RegionTests.BOX, minX, minY, minZ, maxX, maxY, maxZ, null, 0, null, mode, categoryMask, filter,
                visitor, scratch);
    }

    /**
     * Objects, in every tile, whose stored tight box overlaps or lies inside the closed oriented box given in
     * {@link ObbLayout}, as {@link MappedWorld#queryObb} selects them in each tile (15-axis separating axis test,
     * conservative by its epsilon; both crossing modes are the same), until the visitor returns {@code false}.
     * Tiles are visited in index order. The array is only read.
     *
     * @param obb          array holding the oriented box
     * @param offset       where it starts
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor (handle: index within the tile), or {@code null}
     * @param visitor      receives (index within the tile, user value); {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException if the layout holds a non-finite value, a negative half extent or axes that
     *                                  are not orthonormal within {@link Obb#ORTHONORMAL_TOLERANCE}, or for null
     *                                  arguments
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void queryObb(double[] obb, int offset, RegionMode mode, long categoryMask, QueryFilter filter,
                         OverlapVisitor visitor, Scratch scratch) {
        Obb.validate("obb", obb, offset);
        requireRegionArguments(mode, visitor, scratch);
        region(RegionTests.OBB, 0, 0, 0, 0, 0, 0, obb, offset, null, mode, categoryMask, filter, visitor, scratch);
    }

    /**
     * Objects, in every tile, whose stored tight box overlaps or lies inside a convex region (a frustum, a marquee
     * sub-frustum, any convex polyhedron), as {@link MappedWorld#queryConvex} selects them in each tile
     * ({@link RegionMode#CROSSING} exact and bounded regions only, {@link RegionMode#CROSSING_CONSERVATIVE} the
     * plane test alone, {@link RegionMode#WINDOW} inside every plane), until the visitor returns {@code false}.
     * Tiles are visited in index order. Each tile's origin needs the region's planes translated into it
     * ({@link ConvexRegion#translated}); the region keeps its last 16 translations, so a region reused across
     * frames allocates nothing once it has met each tile it reaches (more than 16 tiles of distinct origins per
     * query cost one copy each).
     *
     * @param region       the prepared region
     * @param mode         selection mode
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the visitor (handle: index within the tile), or {@code null}
     * @param visitor      receives (index within the tile, user value); {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException for null arguments, or {@link RegionMode#CROSSING} with an unbounded region
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void queryConvex(ConvexRegion region, RegionMode mode, long categoryMask, QueryFilter filter,
                            OverlapVisitor visitor, Scratch scratch) {
        MappedWorld.requireConvexArguments(region, mode);
        requireRegionArguments(mode, visitor, scratch);
        region(RegionTests.CONVEX, 0, 0, 0, 0, 0, 0, null, 0, region, mode, categoryMask, filter, visitor, scratch);
    }

    private void requireRegionArguments(RegionMode mode, OverlapVisitor visitor, Scratch scratch) {
        Arguments.requireNonNull("mode", mode);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("scratch", scratch);
        checkOpen();
    }

    /**
     * The one tile loop of the box and region queries; the shape is in world coordinates ({@link RegionTests}
     * kinds: p0..p5 a sphere or a box, {@code obb} at {@code obbOffset}, or {@code convex}). Each tile gets the
     * shape moved into its frame exactly as {@link MappedWorld}'s public methods move it, and is skipped unmapped
     * when the root decision the tile would make on its header bounds culls it.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private void region(int kind, double p0, double p1, double p2, double p3, double p4, double p5, double[] obb,
                        int obbOffset, ConvexRegion convex, RegionMode mode, long mask, QueryFilter filter,
                        OverlapVisitor visitor, Scratch scratch) {
        scratch.claim();
        try {
            regionTiles(kind, p0, p1, p2, p3, p4, p5, obb, obbOffset, convex, mode, mask, filter, visitor, scratch);
        } finally {
            scratch.free();
        }
    }

    /** {@link #region} once the scratch is claimed. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private void regionTiles(int kind, double p0, double p1, double p2, double p3, double p4, double p5,
                             double[] obb, int obbOffset, ConvexRegion convex, RegionMode mode, long mask,
                             QueryFilter filter, OverlapVisitor visitor, Scratch scratch) {
        double[] local = scratch.obb;
        for (int i = 0; i < tiles.length; i++) {
            Tile t = tiles[i];
            if (t.objects == 0) {
                continue;
            }
            double q0 = p0;
            double q1 = p1;
            double q2 = p2;
            double q3 = p3;
            double q4 = p4;
            double q5 = p5;
            ConvexRegion tileConvex = null;
            if (kind == RegionTests.SPHERE || kind == RegionTests.BOX) {
                if (kind == RegionTests.SPHERE) {
                    q3 = RegionTests.frameRadius(p0, p1, p2, t.originX, t.originY, t.originZ, p3, mode);
                }
                q0 -= t.originX;
                q1 -= t.originY;
                q2 -= t.originZ;
                if (kind == RegionTests.BOX) {
                    q3 -= t.originX;
                    q4 -= t.originY;
                    q5 -= t.originZ;
                }
            } else if (kind == RegionTests.OBB) {
                // moved and grown as in MappedWorld.queryObb, so each tile answers what it would alone
                RegionTests.frameObb(obb, obbOffset, t.originX, t.originY, t.originZ, mode, local);
            } else {
                tileConvex = convex.translated(t.originX, t.originY, t.originZ);
            }
            float[] b = t.bounds;
            if (RegionTests.classifySubtree(kind, q0, q1, q2, q3, q4, q5, local, 0, tileConvex, mode,
                    RegionTests.rootState(kind, tileConvex), true, b[0], b[1], b[2], b[3], b[4], b[5])
                    == FrustumAabb.CULLED) {
                continue;
            }
            MappedWorld world = enter(i, visitor, scratch);
            try {
                if (!world.region(kind, q0, q1, q2, q3, q4, q5, local, tileConvex, mode, mask, filter, visitor,
                        scratch.stack)) {
                    return;
                }
            } finally {
                leave(i, scratch);
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
        for (Tile t : tiles) {
            if (t.objects > 0) {
                Arguments.requireStartInFrame(originX, originY, originZ, maxFraction, t.originX, t.originY,
                        t.originZ);
            }
        }
        walkTiles(RAY, originX, originY, originZ, 0, 0, 0, translationX, translationY, translationZ, maxFraction,
                categoryMask, visitor, scratch);
    }

    /**
     * Sweeps a box over one frame through every tile it can touch, nearest tile first, as
     * {@link MappedWorld#sweepBox} sweeps it through one world (the same objects and times per tile, the shape
     * moved into each tile's frame in double), with the protocol of {@link RayCastVisitor}: {@code begin} once
     * with the box's centre, the displacement and {@code maxFraction = 1}, {@code enterPart(tile)} before each
     * tile's objects, clipping carried from tile to tile. Tiles the swept box cannot reach before the current
     * maximum time are not visited (nor mapped).
     *
     * @param minX         box min x at the start
     * @param minY         box min y
     * @param minZ         box min z
     * @param maxX         box max x
     * @param maxY         box max y
     * @param maxZ         box max z
     * @param dx           displacement over the frame, x
     * @param dy           displacement over the frame, y
     * @param dz           displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor      receives the objects and steers the sweep; {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException for a non-finite or inverted box, a non-finite displacement or null arguments
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void sweepBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
                         double dx, double dy, double dz, long categoryMask, RayCastVisitor visitor, Scratch scratch) {
        Arguments.requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("scratch", scratch);
        checkOpen();
        walkTiles(SweepTests.BOX, minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz, 1.0, categoryMask, visitor,
                scratch);
    }

    /**
     * Sweeps a sphere over one frame through every tile it can touch, nearest tile first, as
     * {@link MappedWorld#sweepSphere} sweeps it through one world; the protocol of {@link #sweepBox} ({@code begin}
     * gets the centre).
     *
     * @param centerX      centre x at the start
     * @param centerY      centre y at the start
     * @param centerZ      centre z at the start
     * @param radius       radius, finite and {@code >= 0}
     * @param dx           displacement over the frame, x
     * @param dy           displacement over the frame, y
     * @param dz           displacement over the frame, z
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param visitor      receives the objects and steers the sweep; {@link Scratch#tile()} names the tile
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a negative radius or one above
     *                                  {@link Arguments#MAX_RADIUS}, a non-finite displacement or
     *                                  null arguments
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void sweepSphere(double centerX, double centerY, double centerZ, double radius, double dx, double dy,
                            double dz, long categoryMask, RayCastVisitor visitor, Scratch scratch) {
        MappedWorld.requireSphere(centerX, centerY, centerZ, radius);
        Arguments.requireDisplacement(dx, dy, dz);
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("scratch", scratch);
        checkOpen();
        walkTiles(SweepTests.SPHERE, centerX, centerY, centerZ, radius, 0, 0, dx, dy, dz, 1.0, categoryMask,
                visitor, scratch);
    }

    /**
     * Ray casts and both sweeps: the tiles the segment or swept shape can reach, ordered by their entry (the root
     * test or bound each tile makes itself, so a tile skipped here would have reported nothing), walked nearest
     * first with the clip carried from tile to tile. The shape is in world coordinates: a ray's origin
     * ({@code a0..a2}, kind {@link #RAY}) or a swept shape's parameters ({@link SweepTests}); {@code (dx, dy, dz)}
     * is the translation or displacement.
     */
    private void walkTiles(int kind, double a0, double a1, double a2, double a3, double a4, double a5,
                           double dx, double dy, double dz, double maxFraction, long categoryMask,
                           RayCastVisitor visitor, Scratch scratch) {
        scratch.claim();
        try {
            if (kind == RAY) {
                visitor.begin(a0, a1, a2, dx, dy, dz, maxFraction);
            } else if (kind == SweepTests.BOX) {
                SweepTests.beginBoxSweep(visitor, a0, a1, a2, a3, a4, a5, dx, dy, dz);
            } else {
                visitor.begin(a0, a1, a2, dx, dy, dz, 1.0);
            }
            walk(kind, a0, a1, a2, a3, a4, a5, dx, dy, dz, maxFraction, categoryMask, visitor, scratch);
        } finally {
            scratch.free();
        }
    }

    /** {@link #walkTiles} once the scratch is claimed and the visitor begun. */
    private void walk(int kind, double a0, double a1, double a2, double a3, double a4, double a5,
                      double dx, double dy, double dz, double maxFraction, long categoryMask,
                      RayCastVisitor visitor, Scratch scratch) {
        scratch.ensure(tiles.length);
        int[] order = scratch.order;
        double[] entries = scratch.entries;
        double[] p = scratch.sweep;
        double ix = SegmentAabb.inverse(dx);
        double iy = SegmentAabb.inverse(dy);
        double iz = SegmentAabb.inverse(dz);
        int count = 0;
        for (int i = 0; i < tiles.length; i++) {
            Tile t = tiles[i];
            if (t.objects == 0) {
                continue;
            }
            float[] b = t.bounds;
            double entry;
            if (kind == RAY) {
                entry = SegmentAabb.intersectInverse(a0 - t.originX, a1 - t.originY, a2 - t.originZ, ix, iy, iz,
                        maxFraction, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                inTileFrame(kind, a0, a1, a2, a3, a4, a5, dx, dy, dz, t, p);
                entry = SweepTests.boundContact(kind, p[0], p[1], p[2], p[3], p[4], p[5], ix, iy, iz, maxFraction,
                        b[0], b[1], b[2], b[3], b[4], b[5]);
            }
            if (entry >= 0.0) {
                count = insertByEntry(order, entries, count, i, entry);
            }
        }
        if (kind == RAY) {
            // every frame a box fraction of this cast may come from, before the first clip is returned
            for (int k = 0; k < count; k++) {
                Tile t = tiles[order[k]];
                visitor.frame(t.originX, t.originY, t.originZ);
            }
        }
        double clip = maxFraction;
        for (int k = 0; k < count && entries[k] <= clip && clip != MappedWorld.STOPPED; k++) {
            int tile = order[k];
            MappedWorld world = enter(tile, visitor, scratch);
            try {
                if (kind == RAY) {
                    clip = world.castUnchecked(a0, a1, a2, dx, dy, dz, maxFraction, clip, categoryMask, visitor,
                            scratch.stack);
                } else {
                    inTileFrame(kind, a0, a1, a2, a3, a4, a5, dx, dy, dz, tiles[tile], p);
                    clip = world.sweepUnchecked(kind, p[0], p[1], p[2], p[3], p[4], p[5], dx, dy, dz, clip,
                            categoryMask, visitor, scratch.stack);
                }
            } finally {
                leave(tile, scratch);
            }
        }
    }

    /**
     * Maps a tile for a visit (if it is not mapped) and tells the scratch and the visitor which tile it is; if the
     * visitor throws, the tile is let go before the exception leaves (the caller's {@code finally} only covers
     * tiles it entered).
     */
    private MappedWorld enter(int tile, PartAware visitor, Scratch scratch) {
        MappedWorld world = enterTile(tile, scratch);
        try {
            visitor.enterPart(tile);
        } catch (RuntimeException | Error e) {
            leave(tile, scratch);
            throw e;
        }
        return world;
    }

    /** Ends a tile's visit: the scratch forgets the tile, and the tile may be unmapped again. */
    private void leave(int tile, Scratch scratch) {
        scratch.tile = -1;
        release(tiles[tile]);
    }

    /**
     * Inserts a tile into the visiting order by its entry (a fraction, a time or a distance), ties by tile index (the
     * tiles are offered in index order, and the insertion is stable), so the walk order is deterministic.
     *
     * @return the new number of tiles in the order
     */
    private static int insertByEntry(int[] order, double[] entries, int count, int tile, double entry) {
        int j = count;
        while (j > 0 && entries[j - 1] > entry) {
            entries[j] = entries[j - 1];
            order[j] = order[j - 1];
            j--;
        }
        entries[j] = entry;
        order[j] = tile;
        return count + 1;
    }

    /** The swept shape's parameters in a tile's frame, translated in double as the tile's own sweeps do. */
    private static void inTileFrame(int shape, double a0, double a1, double a2, double a3, double a4, double a5,
                                    double dx, double dy, double dz, Tile t, double[] p) {
        p[0] = a0 - t.originX;
        p[1] = a1 - t.originY;
        p[2] = a2 - t.originZ;
        if (shape == SweepTests.BOX) {
            p[3] = a3 - t.originX;
            p[4] = a4 - t.originY;
            p[5] = a5 - t.originZ;
        } else {
            p[3] = a3;
            p[4] = SweepTests.sphereCullRadius(p[0], p[1], p[2], a3, dx, dy, dz);
            p[5] = 0;
        }
    }

    /**
     * The object nearest to the point over every tile (a {@code k = 1} {@link #kNearest} query).
     *
     * @param x            point x
     * @param y            point y
     * @param z            point z
     * @param maxDistance  largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the limit (handle: within the tile), or {@code null}
     * @param exact        the exact distance of each candidate (handle: within the tile), or {@code null}
     * @param dest         receives at most one result, with its tile as {@link NearestNeighbours#part(int)}
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException as {@link #kNearest}
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void nearest(double x, double y, double z, double maxDistance, long categoryMask, QueryFilter filter,
                        DistanceFunction exact, NearestNeighbours dest, Scratch scratch) {
        kNearest(x, y, z, 1, maxDistance, categoryMask, filter, exact, dest, scratch);
    }

    /**
     * The {@code k} objects nearest to the point over every tile, nearest first: within a tile by squared distance and
     * lower handle ({@link MappedWorld#kNearest}), across tiles by the reported distance, ties by lower tile: each
     * tile's answer is {@link MappedWorld#kNearest}'s (the distances those of the tile's stored boxes or of {@code
     * exact}), merged ({@link NearestNeighbours#mergePart}) in order of the tiles' distances, and the tiles farther
     * than the {@code k}-th object found so far (or than {@code maxDistance}) are neither queried nor mapped. Each
     * result's tile is {@link NearestNeighbours#part(int)}; during the filter and exact calls {@link Scratch#tile()}
     * names the tile. Nothing is allocated once {@code dest} and the scratch have grown.
     *
     * @param x            point x
     * @param y            point y
     * @param z            point z
     * @param k            number of objects wanted, {@code >= 0}
     * @param maxDistance  largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the limit (handle: within the tile), or {@code null}
     * @param exact        the exact distance of each candidate (handle: within the tile), or {@code null}
     * @param dest         receives the results (cleared first)
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException for non-finite coordinates, a point more than {@link Arguments#NEAREST_REACH}
     *                                  from some tile's origin on some axis, a negative {@code k}, a negative or
     *                                  NaN maximum or null arguments
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void kNearest(double x, double y, double z, int k, double maxDistance, long categoryMask,
                         QueryFilter filter, DistanceFunction exact, NearestNeighbours dest, Scratch scratch) {
        Arguments.requireNonNull("scratch", scratch);
        nearest(x, y, z, k, maxDistance, categoryMask, filter, exact, null, dest, scratch);
    }

    /**
     * {@link #kNearest} ({@code visitor} null) or {@link #browseNearest} with the scratch claimed for the whole
     * query, the browsing visits included.
     */
    private void nearest(double x, double y, double z, int k, double maxDistance, long categoryMask,
                         QueryFilter filter, DistanceFunction exact, NearestVisitor visitor, NearestNeighbours dest,
                         Scratch scratch) {
        Arguments.requireNearest(x, y, z, k, maxDistance, dest);
        scratch.claim();
        try {
            // the results are the caller's: a query nested in a callback on them is caught as on a single world
            int mark = dest.beginQuery();
            if (visitor == null) {
                searchNearest(x, y, z, k, maxDistance, categoryMask, filter, exact, dest, mark, scratch);
            } else {
                browse(x, y, z, maxDistance, categoryMask, filter, exact, visitor, dest, mark, scratch);
            }
        } finally {
            scratch.free();
        }
    }

    /**
     * {@link #kNearest} once the arguments are checked and the scratch is claimed; {@code mark} is what
     * {@code dest.beginQuery()} returned.
     */
    private void searchNearest(double x, double y, double z, int k, double maxDistance, long categoryMask,
                               QueryFilter filter, DistanceFunction exact, NearestNeighbours dest, int mark,
                               Scratch scratch) {
        checkOpen();
        for (Tile t : tiles) {
            Arguments.requireWithinNearestReach(x - t.originX, y - t.originY, z - t.originZ);
        }
        dest.clear();
        if (k == 0) {
            return;
        }
        scratch.ensure(tiles.length);
        int[] order = scratch.order;
        double[] entries = scratch.entries;
        int count = 0;
        for (int i = 0; i < tiles.length; i++) {
            Tile t = tiles[i];
            if (t.objects == 0) {
                continue;
            }
            float[] b = t.bounds;
            // the distance to the tile's bounds, a lower bound of its objects' (reported as roots of such keys)
            double entry = Math.sqrt(RegionTests.squaredDistance(x - t.originX, y - t.originY, z - t.originZ,
                    b[0], b[1], b[2], b[3], b[4], b[5]));
            if (entry <= maxDistance) {
                order[count] = i;
                entries[count] = entry;
                count++;
            }
        }
        // Nearest tile first (ties by lower tile), stopping at the first beyond the limit: a heap, as a
        // k-nearest search takes its nodes (Hjaltason and Samet 1999), so that only the tiles searched are ordered;
        // sorting every tile first cost O(tiles^2) per query (an insertion sort: 51 ms at 16k tiles, 200 ms at 32k).
        TileQueue queue = scratch.nearestTiles;
        queue.build(count);
        NearestNeighbours part = scratch.tileNearest;
        while (count > 0) {
            boolean full = dest.count() == k;
            double limit = full ? dest.distance(k - 1) : maxDistance;
            if (entries[0] > limit) {
                return;
            }
            int tile = order[0];
            count = queue.removeNearest(count);
            Tile t = tiles[tile];
            MappedWorld world = acquire(t);
            scratch.tile = tile;
            try {
                world.kNearest(x, y, z, k, limit, categoryMask, filter, exact, part);
            } finally {
                scratch.tile = -1;
                release(t);
            }
            // the filter and distance function ran: the results must still be this query's
            dest.checkQuery(mark);
            dest.mergePart(part, tile, k);
        }
    }

    /**
     * Distance browsing over every tile: the objects nearest to the point handed to {@code visitor} one at a time, in
     * {@link #kNearest}'s order (nearest first, ties by lower tile, within a tile as {@link MappedWorld#kNearest}),
     * until it returns {@code false} or no object within {@code maxDistance} is left; during each visit
     * {@link Scratch#tile()} names the object's tile. Tiles are searched by the {@code k}-nearest query of
     * {@link #kNearest} with {@code k} doubling from {@value #BROWSE_FIRST_K} (the first {@code m} objects of a
     * larger {@code k} are those of a smaller one, so each search goes on where the last stopped). The searches
     * repeat the work of the ones before: stopping after the {@code m}-th object costs about twice the last search,
     * whose {@code k} is below {@code 2 m} (or {@value #BROWSE_FIRST_K}), so at most about four times a
     * {@code kNearest} query with {@code k = m}; {@code filter} and {@code exact} may be called more than once for
     * an object (they must answer the same each time).
     *
     * @param x            point x
     * @param y            point y
     * @param z            point z
     * @param maxDistance  largest distance reported, {@code >= 0} ({@link Double#POSITIVE_INFINITY}: no limit)
     * @param categoryMask categories of interest ({@code -1L}: all)
     * @param filter       predicate applied before the limit (handle: within the tile), or {@code null}
     * @param exact        the exact distance of each candidate (handle: within the tile), or {@code null}
     * @param visitor      receives (handle within the tile, user value, distance), nearest first; returns
     *                     {@code false} to stop
     * @param found        the searches' results: afterwards its first entries are the objects visited, in order,
     *                     each with its tile as {@link NearestNeighbours#part(int)} (cleared first)
     * @param scratch      the calling thread's scratch memory
     * @throws IllegalArgumentException as {@link #kNearest}, or for a null visitor
     * @throws IllegalStateException    if the tiled world is closed
     * @throws UncheckedIOException     wrapping the error if a tile cannot be mapped or is corrupt
     */
    public void browseNearest(double x, double y, double z, double maxDistance, long categoryMask, QueryFilter filter,
                              DistanceFunction exact, NearestVisitor visitor, NearestNeighbours found,
                              Scratch scratch) {
        Arguments.requireNonNull("visitor", visitor);
        Arguments.requireNonNull("scratch", scratch);
        nearest(x, y, z, 0, maxDistance, categoryMask, filter, exact, visitor, found, scratch);
    }

    /** {@link #browseNearest} once the scratch is claimed (the visits too: the searches resume after them). */
    private void browse(double x, double y, double z, double maxDistance, long categoryMask, QueryFilter filter,
                        DistanceFunction exact, NearestVisitor visitor, NearestNeighbours found, int mark,
                        Scratch scratch) {
        int visited = 0;
        for (int k = BROWSE_FIRST_K; ; k = k > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE : 2 * k) {
            searchNearest(x, y, z, k, maxDistance, categoryMask, filter, exact, found, mark, scratch);
            int n = found.count();
            for (; visited < n; visited++) {
                boolean more;
                scratch.tile = found.part(visited);
                try {
                    more = visitor.visit(found.handle(visited), found.userValue(visited), found.distance(visited));
                } finally {
                    scratch.tile = -1;
                }
                found.checkQuery(mark);
                if (!more) {
                    return;
                }
            }
            if (n < k || k == Integer.MAX_VALUE) {
                return; // every object within reach was visited
            }
        }
    }

    /**
     * Verifies every tile ({@link MappedWorld#verify()}), mapping each in turn within the budget.
     *
     * @throws CorruptWorldFileException naming the first corrupt tile and its problem
     * @throws IOException               if a tile cannot be mapped, or changed on disk since {@link #open} (the
     *                                   message names the tile)
     */
    public void verify() throws IOException {
        checkOpen();
        for (Tile t : tiles) {
            boolean mapped;
            synchronized (lock) {
                mapped = t.world != null;
            }
            MappedWorld world;
            try {
                world = acquire(t);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            try {
                // a tile this call mapped with verifyTiles was verified as it was mapped: not read twice
                if (mapped || !verifyTiles) {
                    world.verify();
                }
            } finally {
                release(t);
            }
        }
    }

    private MappedWorld acquire(Tile t) {
        MappedWorld world;
        boolean unmapped;
        // verifying reads the whole tile: it runs outside the lock, so that the queries of other threads do not wait
        // for it, and the verified mapping is installed unless another thread installed one meanwhile
        MappedWorld verified = null;
        try {
            while (true) {
                synchronized (lock) {
                    checkOpen();
                    if (t.world == null && (verified != null || !verifyTiles)) {
                        t.world = verified != null ? verified : openTile(t);
                        verified = null;
                        mappedBytes += t.length;
                        mapCount++;
                    }
                    if (t.world != null) {
                        t.users++;
                        t.lastUse = ++clock;
                        evictOverBudget();
                        world = t.world;
                        unmapped = retiredCount > 0;
                        break;
                    }
                }
                verified = openVerified(t);
            }
        } finally {
            if (verified != null) {
                // another thread installed its mapping of the tile first, or the tiled world was closed meanwhile
                verified.close();
            }
        }
        if (unmapped) {
            try {
                closeRetired();
            } catch (RuntimeException | Error e) {
                // the caller never gets the tile to release: give back its use here, or it stays mapped for good
                release(t);
                throw e;
            }
        }
        return world;
    }

    /** Maps a tile ({@link #openUnchanged}) for a query, which reports a tile it cannot use unchecked. */
    private static MappedWorld openTile(Tile t) {
        try {
            return openUnchanged(t);
        } catch (IOException e) {
            throw tileFailure(t, e);
        }
    }

    /** Maps a tile and verifies it whole; a tile that fails is unmapped before the query gets the failure. */
    private static MappedWorld openVerified(Tile t) {
        MappedWorld world = openTile(t);
        try {
            world.verify();
        } catch (CorruptWorldFileException e) {
            world.close();
            throw tileFailure(t, e);
        } catch (RuntimeException | Error e) {
            world.close();
            throw e;
        }
        return world;
    }

    /**
     * What a query throws for a tile it cannot use: the wrapper names the tile and says in brief what is wrong, the
     * cause (naming the file) gives the details; the wrapper's default message would repeat the cause's.
     */
    private static UncheckedIOException tileFailure(Tile t, IOException e) {
        String what = e instanceof CorruptWorldFileException ? "is corrupt"
                : e instanceof TileChangedException ? "changed on disk since the tiled world was opened"
                : "cannot be mapped";
        return new UncheckedIOException("tile " + t.index + " (" + t.file + ") " + what, e);
    }

    /** A tile whose header no longer says what {@link #open} read. */
    private static final class TileChangedException extends IOException {
        private static final long serialVersionUID = 1L;

        TileChangedException(String message) {
            super(message);
        }
    }

    /**
     * Maps a tile whose header still says what {@link #open} read: the queries cull and translate by those values,
     * and the budget counts that length, so a tile replaced since must fail rather than answer in the wrong frame.
     */
    private static MappedWorld openUnchanged(Tile t) throws IOException {
        MappedWorld world = MappedWorld.open(t.file);
        String change = null;
        if (world.size() != t.objects) {
            change = "it holds " + world.size() + " objects, not " + t.objects;
        } else if (world.originX() != t.originX || world.originY() != t.originY || world.originZ() != t.originZ) {
            change = "its origin is (" + world.originX() + ", " + world.originY() + ", " + world.originZ()
                    + "), not (" + t.originX + ", " + t.originY + ", " + t.originZ + ")";
        } else if (!Arrays.equals(world.storedRootBounds(), t.bounds)) {
            change = "its bounds are " + Arrays.toString(world.storedRootBounds()) + ", not "
                    + Arrays.toString(t.bounds);
        } else if (world.fileLength() != t.length) {
            change = "it is " + world.fileLength() + " bytes long, not " + t.length;
        }
        if (change != null) {
            world.close();
            throw new TileChangedException("tile " + t.index + " (" + t.file + ") changed on disk since the tiled world"
                    + " was opened: " + change + " (tiles must not be replaced while it is open)");
        }
        return world;
    }

    private void release(Tile t) {
        boolean unmapped;
        synchronized (lock) {
            t.users--;
            if (closed) {
                // the tile was in use when the world closed: the last query to leave it unmaps it
                if (t.users == 0 && t.world != null) {
                    unmap(t);
                }
            } else {
                evictOverBudget();
            }
            unmapped = retiredCount > 0;
        }
        if (unmapped) {
            closeRetired();
        }
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
            unmap(victim);
        }
    }

    /** Under the lock: takes the tile's world out of use, to be closed by {@link #closeRetired()}. */
    private void unmap(Tile t) {
        if (retiredCount == retired.length) {
            retired = Arrays.copyOf(retired, 2 * retiredCount);
        }
        retired[retiredCount++] = t.world;
        t.world = null;
        mappedBytes -= t.length;
        unmapCount++;
    }

    /**
     * Outside the lock: closes (unmaps) the worlds retired so far, this thread's and any other thread left. While the
     * tiled world is open the unmapping is done on the library's unmapping thread
     * ({@link MappedWorld#closeInBackground}): waiting for it took a query that evicted a tile about 2 ms (1.4 ms per
     * query that maps one tile and drops another, against 0.06 ms without the wait). Each such hand-over is counted
     * under the lock in the same step that reads {@link #closed}, so a {@link #close()} either waits for it or makes
     * this thread unmap at once.
     */
    private void closeRetired() {
        while (true) {
            MappedWorld world;
            boolean closing;
            synchronized (lock) {
                if (retiredCount == 0) {
                    return;
                }
                world = retired[--retiredCount];
                retired[retiredCount] = null;
                closing = closed;
                if (!closing) {
                    unmapsPending++;
                }
            }
            if (closing) {
                world.close();
            } else {
                try {
                    world.closeInBackground(unmapEnded);
                } catch (RuntimeException | Error e) {
                    // not handed over: nothing will count it out
                    unmapEnded.run();
                    throw e;
                }
            }
        }
    }

    /** Counts an unmapping of the unmapping thread out: run there when it has ended. */
    private final Runnable unmapEnded = () -> {
        synchronized (lock) {
            if (--unmapsPending == 0) {
                lock.notifyAll();
            }
        }
    };

    /** Waits, uninterruptibly, until the unmapping thread has unmapped every tile handed to it. */
    private void awaitUnmaps() {
        boolean interrupted = false;
        synchronized (lock) {
            while (unmapsPending > 0) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private Tile tile(int tile) {
        if (tile < 0 || tile >= tiles.length) {
            throw new IllegalArgumentException("tile must be in [0, " + tiles.length + "): " + tile);
        }
        return tiles[tile];
    }

    /** A tile and an object of it, both checked against the header (before the tile is mapped). */
    private Tile objectTile(int tile, int handle) {
        Tile t = tile(tile);
        if (handle < 0 || handle >= t.objects) {
            throw new IllegalArgumentException("handle " + handle + " is not an object of tile " + tile + " (0 .. "
                    + (t.objects - 1) + ")");
        }
        return t;
    }

    /** For {@link WorldPairs}: a tile's origin on an axis (0, 1, 2), from its header; the index checked. */
    double tileOrigin(int tile, int axis) {
        Tile t = tile(tile);
        return axis == 0 ? t.originX : axis == 1 ? t.originY : t.originZ;
    }

    /** For {@link WorldPairs}: a tile's stored root bounds, from its header (shared: read only). */
    float[] tileBounds(int tile) {
        return tile(tile).bounds;
    }

    /**
     * Maps the tile if it is not (under the budget) and holds it mapped for the caller, who holds {@code scratch}
     * and must call {@link #leaveTile}; {@link Scratch#tile()} names it meanwhile (the queries' visits, and
     * {@link WorldPairs}).
     */
    MappedWorld enterTile(int tile, Scratch scratch) {
        MappedWorld world = acquire(tile(tile));
        scratch.tile = tile;
        return world;
    }

    /** Ends {@link #enterTile}. */
    void leaveTile(int tile, Scratch scratch) {
        leave(tile, scratch);
    }

    /** @throws IllegalStateException if closed */
    void checkOpen() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the tiled world is closed");
            }
        }
    }

    /**
     * Closes the tiled world: later queries throw {@link IllegalStateException}, unused tiles are unmapped now (and
     * the tiles the budget dropped before, which the unmapping thread may not have reached yet, before this
     * returns), and a tile a running query is reading is unmapped when the last such query leaves it (a running query that goes
     * on to a tile it had not entered yet throws {@link IllegalStateException} there). Idempotent; any thread, a
     * query's own visitor included.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (Tile t : tiles) {
                if (t.world != null && t.users == 0) {
                    unmap(t);
                }
            }
        }
        closeRetired();
        awaitUnmaps();
    }
}
