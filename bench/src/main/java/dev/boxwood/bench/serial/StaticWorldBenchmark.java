package dev.boxwood.bench.serial;

import dev.boxwood.bench.world.CountingVisitor;
import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;
import dev.boxwood.serial.TileSetWriter;
import dev.boxwood.serial.TiledBatchQueries;
import dev.boxwood.serial.TiledWorld;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Static worlds (module serialization) on the clustered world of {@link PeerWorkload}:
 * <ul>
 *   <li>{@link #write}: {@link StaticWorldWriter#write} of {@code writeN} boxes (bulk build, streaming with
 *       checksums, force, atomic rename), one world per shot; objects per second = {@code writeN / time}.
 *       Default 1M; the campaign selects 10M with {@code -p writeN=10000000}.</li>
 *   <li>{@link #openClose}: {@link MappedWorld#open} and {@link MappedWorld#close} of a world of {@code openN}
 *       objects written once per trial: the header is read and checked, nothing else, so the time should be the
 *       same for every size. Default 100k and 1M; add 10M with {@code -p openN=100000,1000000,10000000}. The
 *       setup prints the file size and bytes per object.</li>
 *   <li>{@link #boxQuery}, {@link #castClosest}: one query per operation, cycling through
 *       {@link PeerWorkload#QUERIES} prebuilt ones (cubes sized for 10 to 100 hits; closest-hit casts of 500 m
 *       segments) on the mapped file ({@code index=mapped}) or on the in-memory {@link DynamicAabbTree} bulk-built
 *       over the same boxes with the same origin ({@code index=tree}). Target: mapped at least 0.9 times the
 *       tree's throughput.</li>
 *   <li>{@link #tiledLineOfSight}: the same world cut into 16 tiles ({@link TileSetWriter#writeGrid}) and
 *       streamed by a {@link TiledWorld}, line of sight for the prebuilt segments as one
 *       {@link TiledBatchQueries} batch on one thread and on two; segments per second.</li>
 *   <li>{@link #tileChurn}: the same 16 tiles with a mapping budget of one tile, a box query in the middle of
 *       each tile in turn, so that every query maps its tile and the budget drops the previous one; microseconds
 *       per query, the cost of streaming a tile in and out as seen by the query that does it.</li>
 *   <li>{@link #tiledNearest}: the world of {@code nearestN} boxes cut into {@code tileSize} m squares (10,000
 *       tiles of 100 m over the 10 km world), the 8 objects nearest to each prebuilt segment start in turn, no
 *       distance limit; queries per second, how a nearest search scales with the number of tiles.</li>
 * </ul>
 * Forks carry the Chronicle Bytes flags ({@link MappedWorldForks}).
 */
// The query benchmarks' settings; write and openClose set their own.
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
public class StaticWorldBenchmark extends MappedWorldForks {

    /** A scratch directory, deleted with everything in it at the end of the trial. */
    private static Path createDirectory() {
        try {
            return Files.createTempDirectory("boxwood-static-world-bench");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteDirectory(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static double[] worldBoxes(int n) {
        return PeerWorkload.of(n, 1).boxes().toInterleaved();
    }

    /** Input of the write benchmark. */
    @State(Scope.Benchmark)
    public static class WriteState {
        /** Number of boxes written. */
        @Param({"1000000"})
        public int writeN;

        double[] boxes;
        Path dir;
        Path file;

        /** Generates the world. */
        @Setup(Level.Trial)
        public void setUp() {
            boxes = worldBoxes(writeN);
            dir = createDirectory();
            file = dir.resolve("world.bxw");
        }

        /**
         * Removes the files.
         *
         * @throws IOException if deleting fails
         */
        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            deleteDirectory(dir);
        }
    }

    /** A world file written once per trial. */
    @State(Scope.Benchmark)
    public static class OpenState {
        /** Number of objects in the world. */
        @Param({"100000", "1000000"})
        public int openN;

        Path dir;
        Path file;

        /**
         * Writes the world and prints its size on disk.
         *
         * @throws IOException if writing fails
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException {
            dir = createDirectory();
            file = dir.resolve("world.bxw");
            StaticWorldWriter.write(file, worldBoxes(openN), null, null, null);
            long bytes = Files.size(file);
            System.out.printf("%nstatic world: %d objects, %d bytes on disk, %.2f bytes per object%n", openN, bytes,
                    (double) bytes / openN);
        }

        /**
         * Removes the files.
         *
         * @throws IOException if deleting fails
         */
        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            deleteDirectory(dir);
        }
    }

    /** The mapped world or the in-memory tree over the same boxes, and the queries. */
    @State(Scope.Thread)
    public static class QueryState {
        /** Number of objects. */
        @Param({"1000000"})
        public int queryN;

        /** {@code mapped}: the memory-mapped world file; {@code tree}: the in-memory dynamic tree. */
        @Param({"mapped", "tree"})
        public String index;

        Path dir;
        MappedWorld world;
        SpatialQueries queries;
        BoxSet boxQueries;
        SegmentSet segments;
        final TraversalStack stack = new TraversalStack();
        final ClosestHit closest = new ClosestHit();
        final AnyHit any = new AnyHit();
        final CountingVisitor counter = new CountingVisitor();
        int next;

        /**
         * Writes and maps the world, or builds the tree with the world's origin.
         *
         * @throws IOException if writing or mapping fails
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException {
            PeerWorkload workload = PeerWorkload.of(queryN);
            boxQueries = workload.boxQueries();
            segments = workload.segments();
            double[] boxes = workload.boxes().toInterleaved();
            dir = createDirectory();
            Path file = dir.resolve("world.bxw");
            StaticWorldWriter.write(file, boxes, null, null, null);
            world = MappedWorld.open(file);
            if ("mapped".equals(index)) {
                queries = world;
            } else if ("tree".equals(index)) {
                TreeConfig config = TreeConfig.defaults().withOrigin(world.originX(), world.originY(),
                        world.originZ());
                queries = DynamicAabbTree.build(config, boxes, null, null);
            } else {
                throw new IllegalArgumentException("index must be mapped or tree: " + index);
            }
        }

        /**
         * Unmaps and removes the world.
         *
         * @throws IOException if deleting fails
         */
        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            world.close();
            deleteDirectory(dir);
        }
    }

    /** Cuts the workload's world into 2,500 m square tiles (16 over the 10 km world) written into {@code dir}. */
    private static List<Path> writeTiles(Path dir, PeerWorkload workload) throws IOException {
        return TileSetWriter.writeGrid(dir, "tile", workload.boxes().toInterleaved(), null, null, 2500);
    }

    /** The world cut into tiles and streamed by a {@link TiledWorld}, and a line-of-sight batch runner. */
    @State(Scope.Benchmark)
    public static class TiledState {
        /** Number of objects. */
        @Param({"1000000"})
        public int tiledN;

        /** Threads of the batch, the caller included. */
        @Param({"1", "2"})
        public int threads;

        Path dir;
        TiledWorld world;
        TiledBatchQueries batch;
        double[] from;
        double[] to;
        boolean[] visible;

        /**
         * Writes the tiles (2,500 m squares: 16 over the 10 km world) and maps them all (budget unlimited).
         *
         * @throws IOException if writing or mapping fails
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException {
            PeerWorkload workload = PeerWorkload.of(tiledN);
            dir = createDirectory();
            List<Path> tiles = writeTiles(dir, workload);
            world = TiledWorld.open(tiles, Long.MAX_VALUE);
            batch = new TiledBatchQueries(threads);
            SegmentSet g = workload.segments();
            visible = new boolean[g.size()];
            from = g.starts();
            to = g.ends();
        }

        /**
         * Stops the batch's threads, unmaps and removes the tiles.
         *
         * @throws IOException if deleting fails
         */
        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            batch.close();
            world.close();
            deleteDirectory(dir);
        }
    }

    /**
     * Builds and writes the world.
     *
     * @param s the input
     * @return the written file
     * @throws IOException if writing fails
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public Path write(WriteState s) throws IOException {
        StaticWorldWriter.write(s.file, s.boxes, null, null, null);
        return s.file;
    }

    /**
     * Opens (header checks, mapping) and closes the world.
     *
     * @param s the world file
     * @return the object count read from the header
     * @throws IOException if opening fails
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 3, time = 1)
    public int openClose(OpenState s) throws IOException {
        try (MappedWorld world = MappedWorld.open(s.file)) {
            return world.size();
        }
    }

    /**
     * One box query.
     *
     * @param s the index and queries
     * @return the hit count
     */
    @Benchmark
    public int boxQuery(QueryState s) {
        int k = s.next++ & (PeerWorkload.QUERIES - 1);
        BoxSet q = s.boxQueries;
        CountingVisitor counter = s.counter;
        counter.count = 0;
        s.queries.queryAabb(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k], -1L, counter, s.stack);
        return counter.count;
    }

    /**
     * One closest-hit cast.
     *
     * @param s the index and segments
     * @return the entry fraction, or -1
     */
    @Benchmark
    public double castClosest(QueryState s) {
        ClosestHit hit = s.closest;
        cast(s, hit);
        return hit.hasHit() ? hit.fraction() : -1.0;
    }

    /** Casts the next of the prebuilt segments into {@code visitor}. */
    private static void cast(QueryState s, RayCastVisitor visitor) {
        int k = s.next++ & (PeerWorkload.QUERIES - 1);
        SegmentSet g = s.segments;
        s.queries.rayCast(g.originX[k], g.originY[k], g.originZ[k], g.translationX[k], g.translationY[k],
                g.translationZ[k], 1.0, -1L, visitor, s.stack);
    }

    /**
     * Line of sight for the {@link PeerWorkload#QUERIES} prebuilt segments through the tiled world, as one
     * {@link TiledBatchQueries#lineOfSight} batch on {@code threads} threads; operations are segments.
     *
     * @param s the tiles and segments
     * @return whether the first segment is clear (keeps the answers alive)
     */
    @Benchmark
    @OperationsPerInvocation(PeerWorkload.QUERIES)
    public boolean tiledLineOfSight(TiledState s) {
        s.batch.lineOfSight(s.world, s.from, s.to, PeerWorkload.QUERIES, -1L, s.visible);
        return s.visible[0];
    }

    /** Tiles written into a scratch directory for one trial and the tiled world over them, queried on one thread. */
    public abstract static class TilesOnDisk {
        Path dir;
        TiledWorld world;
        int next;
        final TiledWorld.Scratch scratch = new TiledWorld.Scratch();

        /**
         * Unmaps and removes the tiles.
         *
         * @throws IOException if deleting fails
         */
        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            world.close();
            deleteDirectory(dir);
        }
    }

    /** The tiles of {@link TiledState}, mapped one at a time: the budget holds the largest tile only. */
    @State(Scope.Benchmark)
    public static class ChurnState extends TilesOnDisk {
        /** Number of objects. */
        @Param({"1000000"})
        public int churnN;

        double[] centres;
        final CountingVisitor visitor = new CountingVisitor();

        /**
         * Writes the tiles and opens them with a budget of one tile.
         *
         * @throws IOException if writing fails
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException {
            List<Path> tiles = writeTiles(dir = createDirectory(), PeerWorkload.of(churnN));
            long largest = 0;
            for (Path tile : tiles) {
                largest = Math.max(largest, Files.size(tile));
            }
            world = TiledWorld.open(tiles, largest);
            centres = new double[2 * tiles.size()];
            double[] box = new double[6];
            for (int t = 0; t < tiles.size(); t++) {
                // a point of the tile: its first object's box, read from the header-checked tile
                world.getTightBox(t, 0, box);
                centres[2 * t] = box[0];
                centres[2 * t + 1] = box[1];
            }
        }

    }

    /**
     * A 10 m box query at a point of the next tile: maps that tile, and the budget drops the tile mapped before.
     *
     * @param s the tiles
     * @return the objects found (keeps the answers alive)
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int tileChurn(ChurnState s) {
        int t = s.next++ % (s.centres.length / 2);
        double x = s.centres[2 * t];
        double y = s.centres[2 * t + 1];
        s.visitor.count = 0;
        s.world.queryAabb(x - 5, y - 5, -1000, x + 5, y + 5, 1000, -1L, s.visitor, s.scratch);
        return s.visitor.count;
    }

    /** A world cut into many small tiles (budget unlimited), and the points of its nearest queries. */
    @State(Scope.Benchmark)
    public static class ManyTilesState extends TilesOnDisk {
        /** Number of objects. */
        @Param({"100000"})
        public int nearestN;

        /** Edge of the square tiles, metres. */
        @Param({"100"})
        public double tileSize;

        double[] points;
        final NearestNeighbours nearest = new NearestNeighbours();

        /**
         * Writes the tiles and opens them (each is mapped when a query first reaches it, and stays mapped).
         *
         * @throws IOException if writing fails
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException {
            PeerWorkload workload = PeerWorkload.of(nearestN);
            dir = createDirectory();
            List<Path> tiles = TileSetWriter.writeGrid(dir, "tile", workload.boxes().toInterleaved(), null, null,
                    tileSize);
            world = TiledWorld.open(tiles, Long.MAX_VALUE);
            SegmentSet g = workload.segments();
            points = g.starts();
            System.out.println("\n" + tiles.size() + " tiles");
        }

    }

    /**
     * The 8 objects nearest to the next prebuilt point, over every tile.
     *
     * @param s the tiles and points
     * @return the distance of the 8th (keeps the answers alive)
     */
    @Benchmark
    public double tiledNearest(ManyTilesState s) {
        int k = s.next++ & (PeerWorkload.QUERIES - 1);
        double[] p = s.points;
        s.world.kNearest(p[3 * k], p[3 * k + 1], p[3 * k + 2], 8, Double.POSITIVE_INFINITY, -1L, null, null,
                s.nearest, s.scratch);
        return s.nearest.distance(s.nearest.count() - 1);
    }

    /**
     * One any-hit cast (line of sight: stops at the first object entered).
     *
     * @param s the index and segments
     * @return whether something was hit
     */
    @Benchmark
    public boolean castAny(QueryState s) {
        AnyHit hit = s.any;
        cast(s, hit);
        return hit.hasHit();
    }
}
