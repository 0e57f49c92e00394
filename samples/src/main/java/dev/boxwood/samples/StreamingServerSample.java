package dev.boxwood.samples;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.Handles;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.samples.support.City;
import dev.boxwood.samples.support.Palette;
import dev.boxwood.samples.support.PerspectivePicture;
import dev.boxwood.samples.support.SampleArgs;
import dev.boxwood.samples.support.Scene;
import dev.boxwood.samples.support.StreetWalkers;
import dev.boxwood.samples.support.TopView;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.TileSetWriter;
import dev.boxwood.serial.TiledBatchQueries;
import dev.boxwood.serial.TiledWorld;
import dev.boxwood.serial.WorldPairs;
import org.eclipse.collections.impl.list.mutable.primitive.LongArrayList;

/**
 * A large-world server: a city split into square tiles, each one static world file on disk, with players riding
 * across it and people walking its streets.
 *
 * <ul>
 *   <li><b>Offline bake</b> (first run only, with a progress bar): the city is generated and cut into tile files
 *       by {@link TileSetWriter#writeGrid} (one grid cell per tile, each file with its own origin). Later runs find
 *       the files and start at once.</li>
 *   <li><b>Streaming</b>: {@link TiledWorld#open} reads only the tiles' headers; a tile is mapped when a query
 *       first reaches it, and the least recently used tiles are unmapped when the mapped bytes exceed the budget.
 *       The server just queries the whole world.</li>
 *   <li><b>Moving entities</b>: the people in a tile near a player live in a {@link DynamicAabbTree} for that
 *       tile (with its origin at the tile's centre, so the float storage keeps centimetre precision however large
 *       the world). When a tile wakes up, the people standing in it go into its tree as one batch
 *       ({@link DynamicAabbTree#addAll}). A person walking into another active tile is handed over: removed from
 *       one tree, added to the other. People in tiles no player is near are frozen. Each tick, each active tile's
 *       people meet the static objects of their tile and its neighbours in place
 *       ({@link dev.boxwood.serial.WorldPairs#tilePairs}: the broad phase of their collisions).</li>
 *   <li><b>Queries per tick</b>, for each player: the people in its area-of-interest box (the people trees of
 *       the tiles it overlaps), the static objects in that box and a look ray (closest hit) through the tiled
 *       world; the ray walks the tiles it crosses in order and stops at the first that cannot hold a nearer
 *       hit; and the static object nearest to its eyes within the interest radius, over the tiles by distance,
 *       with the tile it lies in. The look rays of a tick go in one batch on two threads
 *       ({@link TiledBatchQueries#closestRays}).</li>
 * </ul>
 *
 * <p>Run on its own: {@code java @serialization/chronicle.args -cp samples/target/boxwood-samples.jar
 * dev.boxwood.samples.StreamingServerSample [--quick] [folder]}
 * (on JDK 23+ also {@code @serialization/chronicle-jdk23.args}).
 */
public final class StreamingServerSample {

    /** Seed of the world (each tile's city seed derives from it) and of the movement. */
    static final long SEED = 11;
    /** Player riding height of the look ray. */
    static final double EYE = 1.7;
    /** Half the width of a person's body. */
    static final double HALF_WIDTH = 0.3;
    /** Height of a person's body. */
    static final double HEIGHT = 1.8;
    /** Height of a player's area-of-interest box for static objects (above every building). */
    static final double SKY = 500;
    /** Players ride this many walking steps per tick. */
    private static final int PLAYER_SPEED = 12;
    private static final double MIB = 1024.0 * 1024.0;

    /**
     * The sizes of a run.
     *
     * @param tiles tiles per side of the world
     * @param blocksPerTile city blocks per side of a tile
     * @param players number of players
     * @param peoplePerTile people living in each tile
     * @param ticks number of ticks
     * @param viewRadius the people of a tile move while a player is this close to it
     * @param budgetBytes the mapped bytes above which the tiled world unmaps tiles
     * @param interestRadius half the side of a player's area-of-interest box
     * @param lookDistance length of a player's look ray
     */
    public record Settings(int tiles, int blocksPerTile, int players, int peoplePerTile, int ticks,
                           double viewRadius, long budgetBytes, double interestRadius, double lookDistance) {

        /**
         * The full or quick settings.
         *
         * @param quick whether to run the small version
         * @return the settings
         */
        public static Settings of(boolean quick) {
            // budgets below what the players' surroundings need at once, so that tiles are unmapped and mapped
            // again as the players ride on
            return quick ? new Settings(4, 2, 4, 40, 15, 150, 48 << 10, 60, 120)
                    : new Settings(14, 3, 12, 80, 60, 200, 512 << 10, 60, 150);
        }

        /** @return the side of a tile in metres */
        public double tileSize() {
            return blocksPerTile * City.PITCH;
        }
    }

    /**
     * What a run did, as data: the totals, and the last tick in enough detail for a brute-force check.
     *
     * @param settings the sizes
     * @param baked whether this run generated the world files
     * @param worldObjects static objects in the whole world
     * @param tileFiles the tile files, tile {@code tx * tiles + tz} at that index
     * @param mostMappedTiles the most tiles mapped at the end of a tick
     * @param mostMappedBytes the most bytes mapped at the end of a tick
     * @param activations tiles whose people were woken up over the run
     * @param handovers people handed from one tile's tree to another's
     * @param queries box queries and rays over the run
     * @param playerX players' x at the last tick
     * @param playerZ players' z at the last tick
     * @param interest per player, people in its area-of-interest box at the last tick
     * @param staticInterest per player, static objects in its area-of-interest box (up to {@link #SKY}) at the
     *     last tick
     * @param lookObject per player, the global index (user value) of the object its look ray hit first at the
     *     last tick, or -1
     * @param lookFraction per player, the fraction of that hit, or NaN
     * @param nearestObject per player, the global index (user value) of the static object nearest to its eyes
     *     within the interest radius at the last tick (over every tile, {@code TiledWorld.nearest}), or -1
     * @param nearestTile per player, the tile holding that object, or -1
     * @param nearestDistance per player, that object's distance, or NaN
     * @param lookX per player, the look ray's translation x at the last tick
     * @param lookZ per player, the look ray's translation z at the last tick
     * @param peopleBoxes people's boxes at the last tick, stride 6
     * @param peopleTile per person, the tile whose tree holds it at the last tick, or -1 if frozen
     * @param bumps the people touching static objects at the last tick, as triples (person, tile of the static
     *     object, its handle within the tile), from {@code WorldPairs.tilePairs}
     * @param worldFolder the folder of the tile files
     * @param picture the map of the last tick
     */
    public record Result(Settings settings, boolean baked, long worldObjects, List<Path> tileFiles,
                         int mostMappedTiles, long mostMappedBytes, long activations, long handovers, long queries,
                         double[] playerX, double[] playerZ, int[] interest, int[] staticInterest, long[] lookObject,
                         double[] lookFraction, long[] nearestObject, int[] nearestTile, double[] nearestDistance,
                         double[] lookX, double[] lookZ, double[] peopleBoxes, int[] peopleTile, long[] bumps,
                         Path worldFolder, Path picture) {
    }

    private StreamingServerSample() {
    }

    /**
     * Runs the sample from the command line.
     *
     * @param args {@code [--quick] [folder]}
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        SampleArgs a = SampleArgs.parseOrExit("StreamingServerSample", args);
        Result r = run(a.out(), Settings.of(a.quick()));
        System.out.println("Picture: " + r.picture());
    }

    /**
     * The city of one tile. Tiles share the street grid: a tile's edges are street centre lines, so every object's
     * centre lies in its own tile's grid cell.
     *
     * @param settings the sizes
     * @param tile the tile index, {@code tx * tiles + tz}
     * @return the tile's city
     */
    static City tileCity(Settings settings, int tile) {
        int tx = tile / settings.tiles();
        int tz = tile % settings.tiles();
        return new City(tx * settings.tileSize(), tz * settings.tileSize(), settings.blocksPerTile(),
                settings.blocksPerTile());
    }

    /**
     * @param tile a tile index
     * @return the seed of its city
     */
    static long tileSeed(int tile) {
        return SEED * 1_000_003L + tile;
    }

    /**
     * Runs the sample, printing one line per tick and a summary.
     *
     * @param out the output folder
     * @param settings the sizes
     * @return the results
     * @throws IOException if writing or mapping the world fails
     */
    public static Result run(Path out, Settings settings) throws IOException {
        Path folder = out.resolve("streaming-world");
        int tileCount = settings.tiles() * settings.tiles();
        long[] objects = new long[1];
        List<Path> tileFiles = new ArrayList<>();
        boolean baked = bakeIfMissing(folder, settings, objects, tileFiles);
        System.out.printf(Locale.ROOT, "Streaming server: %d x %d tiles of %.0f m (%.1f km wide), %,d static objects,"
                        + " %d players, %d people per tile, budget %.2f MiB mapped%n", settings.tiles(),
                settings.tiles(), settings.tileSize(), settings.tiles() * settings.tileSize() / 1000, objects[0],
                settings.players(), settings.peoplePerTile(), settings.budgetBytes() / MIB);

        City city = new City(0, 0, settings.tiles() * settings.blocksPerTile(),
                settings.tiles() * settings.blocksPerTile());
        SplittableRandom random = new SplittableRandom(SEED);
        StreetWalkers players = new StreetWalkers(city, settings.players(), random.split());
        // Everybody who lives in the world, placed tile by tile; they only move while their tile is active.
        StreetWalkers people = new StreetWalkers(city, tileCount * settings.peoplePerTile(), random.split());
        for (int i = 0; i < people.size(); i++) {
            int tile = i / settings.peoplePerTile();
            City c = tileCity(settings, tile);
            people.place(i, c.originX(), c.originZ(), c.originX() + c.width(), c.originZ() + c.depth());
        }
        int[] peopleTile = new int[people.size()];
        int[] peopleHandle = new int[people.size()];
        Arrays.fill(peopleTile, -1);
        List<double[]> trails = new ArrayList<>();

        int players0 = settings.players();
        int[] interest = new int[players0];
        int[] staticInterest = new int[players0];
        long[] lookObject = new long[players0];
        double[] lookFraction = new double[players0];
        long[] nearestObject = new long[players0];
        int[] nearestTile = new int[players0];
        double[] nearestDistance = new double[players0];
        NearestNeighbours nearest = new NearestNeighbours();
        double[] lookX = new double[players0];
        double[] lookZ = new double[players0];
        TraversalStack stack = new TraversalStack();
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        WorldPairs worldPairs = new WorldPairs();
        PairBuffer pairs = new PairBuffer();
        LongArrayList bumps = new LongArrayList();
        // every player's look ray of a tick in one batch, on two threads
        double[] eyes = new double[3 * players0];
        double[] looks = new double[3 * players0];
        int[] lookTile = new int[players0];
        int[] lookHandle = new int[players0];
        int[] counter = new int[1];
        OverlapVisitor count = (handle, userValue) -> {
            counter[0]++;
            return true;
        };
        ActiveTiles active = new ActiveTiles(settings);
        long handovers = 0;
        long queries = 0;
        int mostMappedTiles = 0;
        long mostMappedBytes = 0;
        try (TiledWorld world = TiledWorld.open(tileFiles, settings.budgetBytes());
             TiledBatchQueries batch = new TiledBatchQueries(2)) {
            for (int tick = 1; tick <= settings.ticks(); tick++) {
                long start = System.nanoTime();
                for (int s = 0; s < PLAYER_SPEED; s++) {
                    players.step();
                }
                double[] trail = new double[2 * players0];
                for (int p = 0; p < players0; p++) {
                    trail[2 * p] = players.x[p];
                    trail[2 * p + 1] = players.z[p];
                }
                trails.add(trail);

                // Wake up the people of the tiles players came near; freeze those of the tiles they left.
                long activationsBefore = active.activations;
                long deactivationsBefore = active.deactivations;
                active.update(players, people, peopleTile, peopleHandle);

                // People in active tiles walk; crossing into another active tile hands them over.
                for (int i = 0; i < people.size(); i++) {
                    int from = peopleTile[i];
                    if (from < 0) {
                        continue;
                    }
                    double oldX = people.x[i];
                    double oldZ = people.z[i];
                    people.step(i);
                    int to = active.tileAt(people.x[i], people.z[i]);
                    double[] b = people.box(i, HALF_WIDTH, HEIGHT);
                    if (to == from) {
                        active.people[from].move(peopleHandle[i], b[0], b[1], b[2], b[3], b[4], b[5],
                                people.velocityX[i], 0, people.velocityZ[i]);
                    } else if (active.isActive(to)) {
                        active.people[from].remove(peopleHandle[i]);
                        peopleHandle[i] = active.people[to].add(b[0], b[1], b[2], b[3], b[4], b[5], i, -1L);
                        peopleTile[i] = to;
                        handovers++;
                    } else {
                        // The next tile is asleep: step back and turn around.
                        people.x[i] = oldX;
                        people.z[i] = oldZ;
                        people.velocityX[i] = -people.velocityX[i];
                        people.velocityZ[i] = -people.velocityZ[i];
                    }
                }

                // The broad phase of people against the static world, in place: each active tile's people
                // against the static objects of their tile and of its neighbours (a body near an edge reaches into
                // the next tile); a tile is mapped only if one of them can touch its objects.
                bumps.clear();
                for (int tile = 0; tile < tileCount; tile++) {
                    if (!active.isActive(tile)) {
                        continue;
                    }
                    DynamicAabbTree tree = active.people[tile];
                    for (int neighbour : active.neighbourhood(tile)) {
                        worldPairs.tilePairs(tree, -1L, world, neighbour, -1L, pairs, scratch);
                        for (int k = 0; k < pairs.size(); k++) {
                            bumps.add(tree.userValue(pairs.first(k)));
                            bumps.add(neighbour);
                            bumps.add(pairs.second(k));
                        }
                    }
                }

                // Queries per player: people (dynamic trees) and static objects in the area of interest, and a
                // look ray through the tiled world (all players' in one batch after the loop), which maps the tiles
                // it reaches.
                long hits = 0;
                long seen = 0;
                long seenStatic = 0;
                for (int p = 0; p < players0; p++) {
                    double px = players.x[p];
                    double pz = players.z[p];
                    double r = settings.interestRadius();
                    counter[0] = 0;
                    for (int tile : active.interestTiles(px, pz, r)) {
                        if (active.isActive(tile)) {
                            active.people[tile].queryAabb(px - r, 0, pz - r, px + r, HEIGHT, pz + r, -1L, count,
                                    stack);
                            queries++;
                        }
                    }
                    interest[p] = counter[0];
                    seen += counter[0];

                    counter[0] = 0;
                    world.queryAabb(px - r, 0, pz - r, px + r, SKY, pz + r, -1L, count, scratch);
                    queries++;
                    staticInterest[p] = counter[0];
                    seenStatic += counter[0];

                    // The player looks around: up to 60 degrees to either side of where it rides.
                    double angle = Math.atan2(players.velocityZ[p], players.velocityX[p])
                            + Math.toRadians((tick * 37 + p * 71) % 120 - 60);
                    lookX[p] = Math.cos(angle) * settings.lookDistance();
                    lookZ[p] = Math.sin(angle) * settings.lookDistance();
                    eyes[3 * p] = px;
                    eyes[3 * p + 1] = EYE;
                    eyes[3 * p + 2] = pz;
                    looks[3 * p] = lookX[p];
                    looks[3 * p + 1] = 0;
                    looks[3 * p + 2] = lookZ[p];

                    // The nearest static object to the player's eyes (cover, say), over every tile it may lie in.
                    world.nearest(px, EYE, pz, r, -1L, null, null, nearest, scratch);
                    queries++;
                    boolean near = nearest.count() > 0;
                    nearestObject[p] = near ? nearest.userValue(0) : -1;
                    nearestTile[p] = near ? nearest.part(0) : -1;
                    nearestDistance[p] = near ? nearest.distance(0) : Double.NaN;
                }
                batch.closestRays(world, eyes, looks, players0, 1.0, -1L, lookTile, lookHandle, lookObject,
                        lookFraction);
                queries += players0;
                for (int p = 0; p < players0; p++) {
                    boolean hit = lookHandle[p] != Handles.NONE;
                    lookObject[p] = hit ? lookObject[p] : -1;
                    lookFraction[p] = hit ? lookFraction[p] : Double.NaN;
                    hits += hit ? 1 : 0;
                }
                long nanos = System.nanoTime() - start;
                int mappedTiles = world.mappedTileCount();
                long mappedBytes = world.mappedBytes();
                mostMappedTiles = Math.max(mostMappedTiles, mappedTiles);
                mostMappedBytes = Math.max(mostMappedBytes, mappedBytes);
                System.out.printf(Locale.ROOT, "  tick %2d: %3d tiles mapped (%4.2f MiB), %3d active (+%d -%d),"
                                + " %5d people awake (%3d contacts with static objects), %4d people and"
                                + " %5d static objects seen, %2d/%d look rays hit, %6.1f ms%n", tick, mappedTiles,
                        mappedBytes / MIB, active.count(), active.activations - activationsBefore,
                        active.deactivations - deactivationsBefore, countAwake(peopleTile), bumps.size() / 3, seen,
                        seenStatic, hits, players0, nanos / 1e6);
            }
            double[] peopleBoxes = new double[6 * people.size()];
            for (int i = 0; i < people.size(); i++) {
                System.arraycopy(people.box(i, HALF_WIDTH, HEIGHT), 0, peopleBoxes, 6 * i, 6);
            }
            Path picture = out.resolve("streaming-server.png");
            draw(picture, settings, world, active, trails, players, people, peopleTile, lookX, lookZ, lookFraction);
            System.out.printf(Locale.ROOT, "  summary: %d ticks, at most %d tiles (%.2f MiB) mapped at the end of a"
                            + " tick (budget %.2f MiB), %d mappings and %d unmappings, %d tile activations,"
                            + " %d handovers between tile trees, %,d queries%n", settings.ticks(), mostMappedTiles,
                    mostMappedBytes / MIB, settings.budgetBytes() / MIB, world.mapCount(), world.unmapCount(),
                    active.activations, handovers, queries);
            return new Result(settings, baked, objects[0], List.copyOf(tileFiles), mostMappedTiles, mostMappedBytes,
                    active.activations, handovers, queries, players.x.clone(), players.z.clone(), interest,
                    staticInterest, lookObject, lookFraction, nearestObject, nearestTile, nearestDistance, lookX, lookZ,
                    peopleBoxes, peopleTile.clone(), bumps.toArray(), folder, picture);
        }
    }

    private static int countAwake(int[] peopleTile) {
        int n = 0;
        for (int t : peopleTile) {
            n += t >= 0 ? 1 : 0;
        }
        return n;
    }

    /**
     * Writes the tile files unless a previous run left a complete set for the same settings (recorded in a small
     * manifest written last, so an interrupted bake is redone). The world is cut into tiles one row of tiles at a
     * time, so the progress bar moves and only one row's boxes are in memory; user values are the objects' global
     * indices.
     *
     * @param tileFiles receives the tile files, tile {@code tx * tiles + tz} at that index
     * @return whether this run baked the world
     */
    private static boolean bakeIfMissing(Path folder, Settings settings, long[] objects, List<Path> tileFiles)
            throws IOException {
        Path manifest = folder.resolve("world.txt");
        String expected = "tiles=" + settings.tiles() + " blocksPerTile=" + settings.blocksPerTile() + " seed=" + SEED;
        if (Files.isRegularFile(manifest)) {
            List<String> lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
            if (lines.size() == 2 + settings.tiles() * settings.tiles() && lines.get(0).equals(expected)) {
                objects[0] = Long.parseLong(lines.get(1).replace("objects=", ""));
                for (String name : lines.subList(2, lines.size())) {
                    tileFiles.add(folder.resolve(name));
                }
                // every listed tile still there (a deleted one is baked again with the rest)
                if (tileFiles.stream().allMatch(Files::isRegularFile)) {
                    System.out.println("World: found " + folder + ", no need to bake it again");
                    return false;
                }
                tileFiles.clear();
                objects[0] = 0;
                System.out.println("World: " + folder + " misses tiles it lists, baking it again");
            }
        }
        Files.createDirectories(folder);
        Files.deleteIfExists(manifest);
        int n = settings.tiles();
        long start = System.nanoTime();
        for (int tx = 0; tx < n; tx++) {
            List<double[]> rowBoxes = new ArrayList<>();
            int rowObjects = 0;
            for (int tz = 0; tz < n; tz++) {
                Scene scene = tileCity(settings, tx * n + tz).generate(tileSeed(tx * n + tz));
                rowBoxes.add(scene.boundingBoxes());
                rowObjects += scene.size();
            }
            double[] boxes = new double[6 * rowObjects];
            long[] globalIndex = new long[rowObjects];
            int at = 0;
            for (double[] b : rowBoxes) {
                System.arraycopy(b, 0, boxes, at, b.length);
                at += b.length;
            }
            for (int i = 0; i < rowObjects; i++) {
                globalIndex[i] = objects[0] + i;
            }
            // One grid cell per tile: the files come back ordered by cell z, that is by tz within this row.
            List<Path> row = TileSetWriter.writeGrid(folder, "city", boxes, globalIndex, null, settings.tileSize());
            if (row.size() != n) {
                throw new IllegalStateException("row " + tx + " was cut into " + row.size() + " tiles, not " + n);
            }
            tileFiles.addAll(row);
            objects[0] += rowObjects;
            progress(tx + 1, n, n * (tx + 1), objects[0], System.nanoTime() - start);
        }
        System.out.println();
        // a world baked earlier with other settings left tiles this grid did not replace: they would be loaded
        // with it by anyone opening the folder's tiles
        Set<Path> baked = new HashSet<>();
        for (Path file : tileFiles) {
            baked.add(file.toAbsolutePath().normalize());
        }
        try (DirectoryStream<Path> old = Files.newDirectoryStream(folder, "city_*.bxw")) {
            for (Path file : old) {
                if (!baked.contains(file.toAbsolutePath().normalize())) {
                    Files.delete(file);
                }
            }
        }
        StringBuilder text = new StringBuilder(expected).append("\nobjects=").append(objects[0]).append('\n');
        for (Path file : tileFiles) {
            text.append(file.getFileName()).append('\n');
        }
        Files.writeString(manifest, text, StandardCharsets.UTF_8);
        return true;
    }

    /** A one-line text progress bar, redrawn in place. */
    private static void progress(int done, int total, int tiles, long objects, long nanos) {
        int width = 40;
        int filled = done * width / total;
        System.out.printf(Locale.ROOT, "\rBaking the world [%s%s] %3d%%  %d tiles, %,d objects, %.1f s",
                "#".repeat(filled), ".".repeat(width - filled), 100 * done / total, tiles, objects, nanos / 1e9);
        System.out.flush();
    }

    /**
     * Which tiles are active (a player is within the view radius), and each active tile's people tree. This is the
     * game's level of detail for simulation; mapping the static tiles is the tiled world's business.
     */
    static final class ActiveTiles {
        private final Settings settings;
        final DynamicAabbTree[] people;
        private final boolean[] needed;
        private int active;
        long activations;
        long deactivations;

        ActiveTiles(Settings settings) {
            this.settings = settings;
            int n = settings.tiles() * settings.tiles();
            people = new DynamicAabbTree[n];
            needed = new boolean[n];
        }

        int tileAt(double x, double z) {
            int tx = clamp((int) Math.floor(x / settings.tileSize()));
            int tz = clamp((int) Math.floor(z / settings.tileSize()));
            return tx * settings.tiles() + tz;
        }

        private int clamp(int t) {
            return Math.max(0, Math.min(settings.tiles() - 1, t));
        }

        /**
         * The tiles whose people can meet a player's area of interest, the square of half side {@code r} about
         * {@code (px, pz)}: a person belongs to the tile of its centre and its body reaches {@link #HALF_WIDTH}
         * beyond, into the next tile, so the square is grown by that much before its tiles are taken.
         */
        int[] interestTiles(double px, double pz, double r) {
            double reach = r + HALF_WIDTH;
            return overlapping(px - reach, pz - reach, px + reach, pz + reach);
        }

        /** The tiles a rectangle overlaps (closed: a rectangle ending on an edge touches both tiles). */
        int[] overlapping(double minX, double minZ, double maxX, double maxZ) {
            int x0 = clamp((int) Math.floor(minX / settings.tileSize()));
            int x1 = clamp((int) Math.floor(maxX / settings.tileSize()));
            int z0 = clamp((int) Math.floor(minZ / settings.tileSize()));
            int z1 = clamp((int) Math.floor(maxZ / settings.tileSize()));
            int[] result = new int[(x1 - x0 + 1) * (z1 - z0 + 1)];
            int n = 0;
            for (int tx = x0; tx <= x1; tx++) {
                for (int tz = z0; tz <= z1; tz++) {
                    result[n++] = tx * settings.tiles() + tz;
                }
            }
            return result;
        }

        boolean isActive(int tile) {
            return people[tile] != null;
        }

        /** The tile and the tiles around it (those of the grid). */
        int[] neighbourhood(int tile) {
            double size = settings.tileSize();
            double x0 = tile / settings.tiles() * size;
            double z0 = tile % settings.tiles() * size;
            return overlapping(x0 - size / 2, z0 - size / 2, x0 + 1.5 * size, z0 + 1.5 * size);
        }

        int count() {
            return active;
        }

        /** Activates every tile within the view radius of a player and deactivates the others. */
        void update(StreetWalkers players, StreetWalkers walkers, int[] peopleTile, int[] peopleHandle) {
            double r = settings.viewRadius();
            Arrays.fill(needed, false);
            for (int p = 0; p < players.size(); p++) {
                for (int tile : overlapping(players.x[p] - r, players.z[p] - r, players.x[p] + r, players.z[p] + r)) {
                    if (distanceToTile(tile, players.x[p], players.z[p]) <= r) {
                        needed[tile] = true;
                    }
                }
            }
            for (int tile = 0; tile < needed.length; tile++) {
                if (needed[tile] && !isActive(tile)) {
                    activate(tile, walkers, peopleTile, peopleHandle);
                } else if (!needed[tile] && isActive(tile)) {
                    deactivate(tile, peopleTile);
                }
            }
        }

        private double distanceToTile(int tile, double x, double z) {
            double size = settings.tileSize();
            double x0 = tile / settings.tiles() * size;
            double z0 = tile % settings.tiles() * size;
            double dx = Math.max(0, Math.max(x0 - x, x - (x0 + size)));
            double dz = Math.max(0, Math.max(z0 - z, z - (z0 + size)));
            return Math.hypot(dx, dz);
        }

        /** Wakes up the people standing in the tile, in a new tree with its origin at the tile's centre. */
        private void activate(int tile, StreetWalkers walkers, int[] peopleTile, int[] peopleHandle) {
            double size = settings.tileSize();
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(
                    (tile / settings.tiles() + 0.5) * size, 0, (tile % settings.tiles() + 0.5) * size));
            people[tile] = tree;
            // everyone in the tile goes in as one batch (one hierarchy built for them, not one insertion each)
            int[] waking = new int[walkers.size()];
            int count = 0;
            for (int i = 0; i < walkers.size(); i++) {
                if (peopleTile[i] < 0 && tileAt(walkers.x[i], walkers.z[i]) == tile) {
                    waking[count++] = i;
                }
            }
            double[] boxes = new double[6 * count];
            long[] ids = new long[count];
            for (int k = 0; k < count; k++) {
                System.arraycopy(walkers.box(waking[k], HALF_WIDTH, HEIGHT), 0, boxes, 6 * k, 6);
                ids[k] = waking[k];
            }
            int[] handles = tree.addAll(boxes, ids, null);
            for (int k = 0; k < count; k++) {
                peopleHandle[waking[k]] = handles[k];
                peopleTile[waking[k]] = tile;
            }
            active++;
            activations++;
        }

        /** Drops the tile's tree; its people freeze where they stand until it is active again. */
        private void deactivate(int tile, int[] peopleTile) {
            people[tile] = null;
            for (int i = 0; i < peopleTile.length; i++) {
                if (peopleTile[i] == tile) {
                    peopleTile[i] = -1;
                }
            }
            active--;
            deactivations++;
        }
    }

    /** The map of the last tick: mapped tiles with their buildings, players' trails, awake and frozen people. */
    private static void draw(Path file, Settings settings, TiledWorld world, ActiveTiles active,
                             List<double[]> trails, StreetWalkers players, StreetWalkers people, int[] peopleTile,
                             double[] lookX, double[] lookZ, double[] lookFraction) throws IOException {
        double size = settings.tileSize();
        double side = settings.tiles() * size;
        TopView view = new TopView(1000, 1000, 0, 0, side, side, 60, 0x25282c);
        double[] box = new double[6];
        for (int tile = 0; tile < settings.tiles() * settings.tiles(); tile++) {
            double x0 = tile / settings.tiles() * size;
            double z0 = tile % settings.tiles() * size;
            if (!active.isActive(tile)) {
                view.graphics().setColor(new Color(0x34383d));
                view.graphics().fill(view.rect(x0 + 1, z0 + 1, x0 + size - 1, z0 + size - 1));
                continue;
            }
            view.graphics().setColor(new Color(Palette.STREET));
            view.graphics().fill(view.rect(x0, z0, x0 + size, z0 + size));
            // Read the buildings back from the tile's file itself: what the server streams.
            try (MappedWorld w = MappedWorld.open(world.tileFile(tile))) {
                for (int h = 0; h < w.size(); h++) {
                    w.getTightBox(h, box);
                    // Lighter is taller.
                    view.graphics().setColor(new Color(PerspectivePicture.mix(0x8a857c, 0xeae3d3,
                            Math.min(1, box[4] / 60))));
                    view.graphics().fill(view.rect(box[0], box[2], box[3], box[5]));
                }
            }
        }
        for (int i = 0; i < people.size(); i++) {
            view.dot(people.x[i], people.z[i], 1.3, peopleTile[i] >= 0 ? 0xff7fe3ff : 0x80808080);
        }
        for (int p = 0; p < players.size(); p++) {
            for (int t = 1; t < trails.size(); t++) {
                double[] a = trails.get(t - 1);
                double[] b = trails.get(t);
                view.line(a[2 * p], a[2 * p + 1], b[2 * p], b[2 * p + 1], 0xffff5ad2, 2f);
            }
            // The look ray, to its hit if it has one.
            double t = Double.isNaN(lookFraction[p]) ? 1 : lookFraction[p];
            view.line(players.x[p], players.z[p], players.x[p] + t * lookX[p], players.z[p] + t * lookZ[p],
                    0xffffe14a, 1.5f);
            view.dot(players.x[p], players.z[p], 5, 0xff000000);
            view.dot(players.x[p], players.z[p], 4, 0xffff5ad2);
        }
        view.caption("Streaming server, last tick: " + active.count() + " of " + settings.tiles() * settings.tiles()
                        + " tiles active, " + world.mappedTileCount() + " mapped",
                "pink: players and their trails, yellow: their look rays",
                "cyan: people awake, grey: frozen",
                "buildings of the active tiles drawn from their tile files");
        view.save(file);
    }
}
