package dev.boxwood.samples;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.samples.support.City;
import dev.boxwood.samples.support.Palette;
import dev.boxwood.samples.support.PerspectivePicture;
import dev.boxwood.samples.support.SampleArgs;
import dev.boxwood.samples.support.Scene;
import dev.boxwood.samples.support.StreetWalkers;
import dev.boxwood.samples.support.TopView;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;

/**
 * A large-world server: a city of many square tiles, each one static world file on disk, with players riding
 * across it and people walking its streets.
 *
 * <ul>
 *   <li><b>Offline bake</b> (first run only, with a progress bar): every tile's city is generated and written with
 *       {@link StaticWorldWriter}. Later runs find the files and start at once.</li>
 *   <li><b>Streaming</b>: a tile is mapped ({@link MappedWorld#open}, cheap for any size) while a player is
 *       within the view radius of it, and unmapped when nobody is and the number of mapped tiles is over the
 *       budget, least recently needed first.</li>
 *   <li><b>Moving entities</b>: each mapped tile has a {@link DynamicAabbTree} (with its origin at the tile's
 *       centre, so the float storage keeps centimetre precision however large the world) for the people in it. A
 *       person walking into another mapped tile is handed over: removed from one tree, added to the other. People
 *       in unmapped tiles are frozen.</li>
 *   <li><b>Queries per tick</b>: for each player, an area-of-interest box query over the people trees of the tiles
 *       it overlaps, and a look ray (closest hit) over the static tiles the ray crosses.</li>
 * </ul>
 *
 * <p>Run on its own: {@code java <Chronicle flags> -cp samples/target/boxwood-samples.jar
 * dev.boxwood.samples.StreamingServerSample [--quick] [folder]} (flags: see {@code demo.sh}).
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
    /** Players ride this many walking steps per tick. */
    private static final int PLAYER_SPEED = 12;

    /**
     * The sizes of a run.
     *
     * @param tiles tiles per side of the world
     * @param blocksPerTile city blocks per side of a tile
     * @param players number of players
     * @param peoplePerTile people living in each tile
     * @param ticks number of ticks
     * @param viewRadius a tile is needed while a player is this close to it
     * @param budget the most tiles mapped at once, unless more are needed
     * @param interestRadius half the side of a player's area-of-interest box
     * @param lookDistance length of a player's look ray (less than the view radius, so it only crosses mapped
     *     tiles)
     */
    public record Settings(int tiles, int blocksPerTile, int players, int peoplePerTile, int ticks,
                           double viewRadius, int budget, double interestRadius, double lookDistance) {

        /**
         * The full or quick settings.
         *
         * @param quick whether to run the small version
         * @return the settings
         */
        public static Settings of(boolean quick) {
            return quick ? new Settings(4, 2, 4, 40, 15, 150, 12, 60, 120)
                    : new Settings(14, 3, 12, 80, 60, 200, 90, 60, 150);
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
     * @param maps tiles mapped over the run
     * @param unmaps tiles unmapped over the run
     * @param mostMapped the most tiles mapped at once
     * @param handovers people handed from one tile's tree to another's
     * @param queries box queries and rays over the run
     * @param playerX players' x at the last tick
     * @param playerZ players' z at the last tick
     * @param interest per player, people in its area-of-interest box at the last tick
     * @param lookTile per player, the tile whose object its look ray hit first at the last tick, or -1
     * @param lookObject per player, that object's index in its tile, or -1
     * @param lookFraction per player, the fraction of that hit, or NaN
     * @param lookX per player, the look ray's translation x at the last tick
     * @param lookZ per player, the look ray's translation z at the last tick
     * @param peopleBoxes people's boxes at the last tick, stride 6
     * @param peopleTile per person, the tile whose tree holds it at the last tick, or -1 if frozen
     * @param worldFolder the folder of the tile files
     * @param picture the map of the last tick
     */
    public record Result(Settings settings, boolean baked, long worldObjects, long maps, long unmaps, int mostMapped,
                         long handovers, long queries, double[] playerX, double[] playerZ, int[] interest,
                         int[] lookTile, int[] lookObject, double[] lookFraction, double[] lookX, double[] lookZ,
                         double[] peopleBoxes, int[] peopleTile, Path worldFolder, Path picture) {
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
        SampleArgs a = SampleArgs.parse(args);
        Result r = run(a.out(), Settings.of(a.quick()));
        System.out.println("Picture: " + r.picture());
    }

    /**
     * The city of one tile. Tiles share the street grid: a tile's edges are street centre lines, so a tile's
     * objects never cross its edges and no tile needs its neighbours' geometry.
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
     * @param folder the world folder
     * @param tile a tile index
     * @return the tile's world file
     */
    static Path tileFile(Path folder, int tile) {
        return folder.resolve("tile-" + tile + ".world");
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
        boolean baked = bakeIfMissing(folder, settings, objects);
        System.out.printf(Locale.ROOT, "Streaming server: %d x %d tiles of %.0f m (%.1f km wide), %d static objects,"
                        + " %d players, %d people per tile, budget %d mapped tiles%n", settings.tiles(), settings.tiles(),
                settings.tileSize(), settings.tiles() * settings.tileSize() / 1000, objects[0], settings.players(),
                settings.peoplePerTile(), settings.budget());

        City world = new City(0, 0, settings.tiles() * settings.blocksPerTile(),
                settings.tiles() * settings.blocksPerTile());
        Tiles tiles = new Tiles(folder, settings);
        SplittableRandom random = new SplittableRandom(SEED);
        StreetWalkers players = new StreetWalkers(world, settings.players(), random.split());
        // Everybody who lives in the world, placed tile by tile; they only move while their tile is mapped.
        StreetWalkers people = new StreetWalkers(world, tileCount * settings.peoplePerTile(), random.split());
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
        int[] lookTile = new int[players0];
        int[] lookObject = new int[players0];
        double[] lookFraction = new double[players0];
        double[] lookX = new double[players0];
        double[] lookZ = new double[players0];
        TraversalStack stack = new TraversalStack();
        ClosestHit look = new ClosestHit();
        int[] counter = new int[1];
        OverlapVisitor count = (handle, userValue) -> {
            counter[0]++;
            return true;
        };
        long handovers = 0;
        long queries = 0;
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

            // Streaming: map what the players need, unmap what they left, within the budget.
            long mapsBefore = tiles.maps;
            long unmapsBefore = tiles.unmaps;
            tiles.update(players, tick, people, peopleTile, peopleHandle);

            // People in mapped tiles walk; crossing into another mapped tile hands them over.
            for (int i = 0; i < people.size(); i++) {
                int from = peopleTile[i];
                if (from < 0) {
                    continue;
                }
                double oldX = people.x[i];
                double oldZ = people.z[i];
                people.step(i);
                int to = tiles.tileAt(people.x[i], people.z[i]);
                double[] b = people.box(i, HALF_WIDTH, HEIGHT);
                if (to == from) {
                    tiles.people[from].move(peopleHandle[i], b[0], b[1], b[2], b[3], b[4], b[5],
                            people.velocityX[i], 0, people.velocityZ[i]);
                } else if (tiles.isMapped(to)) {
                    tiles.people[from].remove(peopleHandle[i]);
                    peopleHandle[i] = tiles.people[to].add(b[0], b[1], b[2], b[3], b[4], b[5], i, -1L);
                    peopleTile[i] = to;
                    handovers++;
                } else {
                    // The next tile is not loaded: step back and turn around.
                    people.x[i] = oldX;
                    people.z[i] = oldZ;
                    people.velocityX[i] = -people.velocityX[i];
                    people.velocityZ[i] = -people.velocityZ[i];
                }
            }

            // Queries: area of interest (dynamic trees) and a look ray (static tiles), per player.
            long hits = 0;
            long seen = 0;
            for (int p = 0; p < players0; p++) {
                double px = players.x[p];
                double pz = players.z[p];
                double r = settings.interestRadius();
                counter[0] = 0;
                for (int tile : tiles.overlapping(px - r, pz - r, px + r, pz + r)) {
                    if (tiles.isMapped(tile)) {
                        tiles.people[tile].queryAabb(px - r, 0, pz - r, px + r, HEIGHT, pz + r, -1L, count, stack);
                        queries++;
                    }
                }
                interest[p] = counter[0];
                seen += counter[0];

                // The player looks around: up to 60 degrees to either side of where it rides.
                double angle = Math.atan2(players.velocityZ[p], players.velocityX[p])
                        + Math.toRadians((tick * 37 + p * 71) % 120 - 60);
                lookX[p] = Math.cos(angle) * settings.lookDistance();
                lookZ[p] = Math.sin(angle) * settings.lookDistance();
                lookTile[p] = -1;
                lookObject[p] = -1;
                lookFraction[p] = Double.NaN;
                double x1 = px + lookX[p];
                double z1 = pz + lookZ[p];
                for (int tile : tiles.overlapping(Math.min(px, x1), Math.min(pz, z1), Math.max(px, x1),
                        Math.max(pz, z1))) {
                    // The closest hit over the tiles: each tile's cast is clipped to the best fraction so far.
                    double max = lookTile[p] < 0 ? 1.0 : lookFraction[p];
                    tiles.world(tile).rayCast(px, EYE, pz, lookX[p], 0, lookZ[p], max, -1L, look, stack);
                    queries++;
                    if (look.hasHit() && (lookTile[p] < 0 || look.fraction() < lookFraction[p])) {
                        lookTile[p] = tile;
                        lookObject[p] = look.handle();
                        lookFraction[p] = look.fraction();
                    }
                }
                hits += lookTile[p] >= 0 ? 1 : 0;
            }
            long nanos = System.nanoTime() - start;
            System.out.printf(Locale.ROOT, "  tick %2d: %3d tiles mapped (+%d -%d), %5d people awake, %4d seen,"
                            + " %2d/%d look rays hit, %6.1f ms%n", tick, tiles.mappedCount(), tiles.maps - mapsBefore,
                    tiles.unmaps - unmapsBefore, countAwake(peopleTile), seen, hits, players0, nanos / 1e6);
        }
        double[] peopleBoxes = new double[6 * people.size()];
        for (int i = 0; i < people.size(); i++) {
            System.arraycopy(people.box(i, HALF_WIDTH, HEIGHT), 0, peopleBoxes, 6 * i, 6);
        }
        Path picture = out.resolve("streaming-server.png");
        draw(picture, settings, tiles, trails, players, people, peopleTile, lookX, lookZ, lookFraction);
        System.out.printf(Locale.ROOT, "  summary: %d ticks, %d tiles mapped and %d unmapped, at most %d mapped at once"
                        + " (budget %d), %d handovers between tile trees, %d queries%n", settings.ticks(), tiles.maps,
                tiles.unmaps, tiles.mostMapped, settings.budget(), handovers, queries);
        Result result = new Result(settings, baked, objects[0], tiles.maps, tiles.unmaps, tiles.mostMapped, handovers,
                queries, players.x.clone(), players.z.clone(), interest, lookTile, lookObject, lookFraction, lookX,
                lookZ, peopleBoxes, peopleTile.clone(), folder, picture);
        tiles.closeAll();
        return result;
    }

    private static int countAwake(int[] peopleTile) {
        int n = 0;
        for (int t : peopleTile) {
            n += t >= 0 ? 1 : 0;
        }
        return n;
    }

    /**
     * Writes every tile's world file unless a previous run left a complete set for the same settings (recorded in
     * a small manifest written last, so an interrupted bake is redone).
     *
     * @return whether this run baked the world
     */
    private static boolean bakeIfMissing(Path folder, Settings settings, long[] objects) throws IOException {
        Path manifest = folder.resolve("world.txt");
        String expected = "tiles=" + settings.tiles() + " blocksPerTile=" + settings.blocksPerTile() + " seed=" + SEED;
        if (Files.isRegularFile(manifest)) {
            List<String> lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
            if (lines.size() == 2 && lines.get(0).equals(expected)) {
                objects[0] = Long.parseLong(lines.get(1).replace("objects=", ""));
                System.out.println("World: found " + folder + ", no need to bake it again");
                return false;
            }
        }
        Files.createDirectories(folder);
        Files.deleteIfExists(manifest);
        int tileCount = settings.tiles() * settings.tiles();
        long start = System.nanoTime();
        for (int tile = 0; tile < tileCount; tile++) {
            Scene scene = tileCity(settings, tile).generate(tileSeed(tile));
            StaticWorldWriter.write(tileFile(folder, tile), scene.boundingBoxes(), null, null, null);
            objects[0] += scene.size();
            progress(tile + 1, tileCount, objects[0], System.nanoTime() - start);
        }
        System.out.println();
        Files.writeString(manifest, expected + "\nobjects=" + objects[0] + "\n", StandardCharsets.UTF_8);
        return true;
    }

    /** A one-line text progress bar, redrawn in place. */
    private static void progress(int done, int total, long objects, long nanos) {
        int width = 40;
        int filled = done * width / total;
        System.out.printf(Locale.ROOT, "\rBaking the world [%s%s] %3d%%  %d/%d tiles, %,d objects, %.1f s",
                "#".repeat(filled), ".".repeat(width - filled), 100 * done / total, done, total, objects, nanos / 1e9);
        System.out.flush();
    }

    /**
     * The tile grid: which tiles are mapped, when each was last needed, and each mapped tile's people tree.
     */
    private static final class Tiles {
        private final Path folder;
        private final Settings settings;
        private final MappedWorld[] worlds;
        final DynamicAabbTree[] people;
        private final int[] lastNeeded;
        private int mapped;
        long maps;
        long unmaps;
        int mostMapped;

        Tiles(Path folder, Settings settings) {
            this.folder = folder;
            this.settings = settings;
            int n = settings.tiles() * settings.tiles();
            worlds = new MappedWorld[n];
            people = new DynamicAabbTree[n];
            lastNeeded = new int[n];
        }

        int tileAt(double x, double z) {
            int tx = clamp((int) Math.floor(x / settings.tileSize()));
            int tz = clamp((int) Math.floor(z / settings.tileSize()));
            return tx * settings.tiles() + tz;
        }

        private int clamp(int t) {
            return Math.max(0, Math.min(settings.tiles() - 1, t));
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

        boolean isMapped(int tile) {
            return worlds[tile] != null;
        }

        int mappedCount() {
            return mapped;
        }

        MappedWorld world(int tile) {
            if (worlds[tile] == null) {
                throw new IllegalStateException("tile " + tile + " is not mapped");
            }
            return worlds[tile];
        }

        /** Maps every tile within the view radius of a player; then unmaps the stalest others down to the budget. */
        void update(StreetWalkers players, int tick, StreetWalkers walkers, int[] peopleTile, int[] peopleHandle)
                throws IOException {
            double r = settings.viewRadius();
            for (int p = 0; p < players.size(); p++) {
                for (int tile : overlapping(players.x[p] - r, players.z[p] - r, players.x[p] + r, players.z[p] + r)) {
                    if (distanceToTile(tile, players.x[p], players.z[p]) <= r) {
                        lastNeeded[tile] = tick;
                        if (!isMapped(tile)) {
                            map(tile, walkers, peopleTile, peopleHandle);
                        }
                    }
                }
            }
            while (mapped > settings.budget()) {
                int stalest = -1;
                for (int t = 0; t < worlds.length; t++) {
                    if (isMapped(t) && lastNeeded[t] < tick && (stalest < 0 || lastNeeded[t] < lastNeeded[stalest])) {
                        stalest = t;
                    }
                }
                if (stalest < 0) {
                    break; // every mapped tile is needed right now: over budget until the players spread less
                }
                unmap(stalest, peopleTile);
            }
            mostMapped = Math.max(mostMapped, mapped);
        }

        private double distanceToTile(int tile, double x, double z) {
            double size = settings.tileSize();
            double x0 = tile / settings.tiles() * size;
            double z0 = tile % settings.tiles() * size;
            double dx = Math.max(0, Math.max(x0 - x, x - (x0 + size)));
            double dz = Math.max(0, Math.max(z0 - z, z - (z0 + size)));
            return Math.hypot(dx, dz);
        }

        /** Maps the tile's file and wakes up the people standing in it. */
        private void map(int tile, StreetWalkers walkers, int[] peopleTile, int[] peopleHandle) throws IOException {
            worlds[tile] = MappedWorld.open(tileFile(folder, tile));
            double size = settings.tileSize();
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(
                    (tile / settings.tiles() + 0.5) * size, 0, (tile % settings.tiles() + 0.5) * size));
            people[tile] = tree;
            for (int i = 0; i < walkers.size(); i++) {
                if (peopleTile[i] < 0 && tileAt(walkers.x[i], walkers.z[i]) == tile) {
                    double[] b = walkers.box(i, HALF_WIDTH, HEIGHT);
                    peopleHandle[i] = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], i, -1L);
                    peopleTile[i] = tile;
                }
            }
            mapped++;
            maps++;
        }

        /** Unmaps the tile; its people freeze where they stand until it is mapped again. */
        private void unmap(int tile, int[] peopleTile) {
            worlds[tile].close();
            worlds[tile] = null;
            people[tile] = null;
            for (int i = 0; i < peopleTile.length; i++) {
                if (peopleTile[i] == tile) {
                    peopleTile[i] = -1;
                }
            }
            mapped--;
            unmaps++;
        }

        void closeAll() {
            for (int t = 0; t < worlds.length; t++) {
                if (worlds[t] != null) {
                    worlds[t].close();
                    worlds[t] = null;
                }
            }
        }
    }

    /** The map of the last tick: mapped tiles with their buildings, players' trails, awake and frozen people. */
    private static void draw(Path file, Settings settings, Tiles tiles, List<double[]> trails, StreetWalkers players,
                             StreetWalkers people, int[] peopleTile, double[] lookX, double[] lookZ,
                             double[] lookFraction) throws IOException {
        double size = settings.tileSize();
        double side = settings.tiles() * size;
        TopView view = new TopView(1000, 1000, 0, 0, side, side, 60, 0x25282c);
        double[] box = new double[6];
        for (int tile = 0; tile < settings.tiles() * settings.tiles(); tile++) {
            double x0 = tile / settings.tiles() * size;
            double z0 = tile % settings.tiles() * size;
            if (!tiles.isMapped(tile)) {
                view.graphics().setColor(new Color(0x34383d));
                view.graphics().fill(view.rect(x0 + 1, z0 + 1, x0 + size - 1, z0 + size - 1));
                continue;
            }
            view.graphics().setColor(new Color(Palette.STREET));
            view.graphics().fill(view.rect(x0, z0, x0 + size, z0 + size));
            // Read the buildings back from the mapped file itself: what the server has in memory right now.
            MappedWorld w = tiles.world(tile);
            for (int h = 0; h < w.size(); h++) {
                w.getTightBox(h, box);
                // Lighter is taller.
                view.graphics().setColor(new Color(PerspectivePicture.mix(0x8a857c, 0xeae3d3, Math.min(1, box[4] / 60))));
                view.graphics().fill(view.rect(box[0], box[2], box[3], box[5]));
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
        view.caption("Streaming server, last tick: " + tiles.mappedCount() + " of " + settings.tiles() * settings.tiles()
                        + " tiles mapped",
                "pink: players and their trails, yellow: their look rays; cyan: people awake, grey: frozen",
                "buildings are drawn from the mapped tile files");
        view.save(file);
    }
}
