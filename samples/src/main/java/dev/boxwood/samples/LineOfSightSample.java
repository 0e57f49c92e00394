package dev.boxwood.samples;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.samples.support.City;
import dev.boxwood.samples.support.Palette;
import dev.boxwood.samples.support.SampleArgs;
import dev.boxwood.samples.support.Scene;
import dev.boxwood.samples.support.StreetWalkers;
import dev.boxwood.samples.support.TopView;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;

/**
 * Game AI line of sight: thousands of agents of two teams walk the streets of a city, and every tick each agent
 * asks "can I see my nearest enemies?".
 *
 * <p>The city never changes, so it is written once as a static world file and memory-mapped
 * ({@link StaticWorldWriter}, {@link MappedWorld}); the agents move every tick, so they live in a
 * {@link DynamicAabbTree}. A tick has two phases, which is what makes the queries safe to run on many threads:
 * first one thread moves every agent (mutations), then all threads query (reads only, each with its own
 * {@link TraversalStack} and collectors). A line of sight from an agent's eyes to a target's chest is blocked by
 * a building, a prop, or another agent's body; the segment cast against the agents ignores the looker and the
 * target themselves ({@link AnyHit#setIgnored}). Trees, lamp posts and benches are see-through: their category is
 * simply left out of the query mask.
 *
 * <p>Run on its own: {@code java <Chronicle flags> -cp samples/target/boxwood-samples.jar
 * dev.boxwood.samples.LineOfSightSample [--quick] [folder]} (flags: see {@code demo.sh}).
 */
public final class LineOfSightSample {

    /** Category of the agents of team 0 in the dynamic tree (team 1 is the next bit). */
    static final long TEAM_0 = 1L;
    /** What blocks a line of sight in the static world: buildings and props, not furniture (see-through). */
    static final long OPAQUE = (1L << Scene.BUILDING) | (1L << Scene.PROP);
    /** Eye height above the ground. */
    static final double EYE = 1.6;
    /** Height of the point aimed at on a target. */
    static final double CHEST = 1.2;
    /** Half the width of an agent's body. */
    static final double HALF_WIDTH = 0.3;
    /** Height of an agent's body. */
    static final double HEIGHT = 1.8;
    /** Seed of the city and of the agents. */
    static final long SEED = 7;

    /**
     * The sizes of a run.
     *
     * @param blocks city blocks per side
     * @param agents number of agents
     * @param ticks number of ticks
     * @param nearest how many nearest enemies each agent checks
     * @param range the largest distance at which an enemy is considered
     * @param threads query threads
     */
    public record Settings(int blocks, int agents, int ticks, int nearest, double range, int threads) {

        /**
         * The full or quick settings.
         *
         * @param quick whether to run the small version
         * @return the settings
         */
        public static Settings of(boolean quick) {
            int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
            return quick ? new Settings(5, 800, 4, 4, 60, threads) : new Settings(10, 6000, 20, 4, 80, threads);
        }
    }

    /**
     * What a run did, as data: the checks recompute the last tick by brute force from it.
     *
     * @param settings the sizes
     * @param cityObjects objects in the static world
     * @param segments lines of sight cast over all ticks
     * @param visible of those, the visible ones
     * @param segmentsPerSecond query throughput over all ticks
     * @param agentBoxes the agents' boxes at the last tick, stride 6, in agent order (handles were allocated in
     *     that order)
     * @param targets per agent {@code nearest} slots at the last tick: the targets' agent indices, nearest first,
     *     -1 for an empty slot
     * @param visibleAtLastTick bit {@code agent * nearest + slot}: that line of sight was clear
     * @param worldFile the static world file
     * @param picture the top view of the last tick
     */
    public record Result(Settings settings, int cityObjects, long segments, long visible, double segmentsPerSecond,
                         double[] agentBoxes, int[] targets, BitSet visibleAtLastTick, Path worldFile,
                         Path picture) {

        /** @return the team of an agent: even agents are team 0, odd ones team 1 */
        static int team(int agent) {
            return agent & 1;
        }
    }

    private LineOfSightSample() {
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
     * Runs the sample, printing one line per tick.
     *
     * @param out the output folder
     * @param settings the sizes
     * @return the results
     * @throws IOException if writing the world or the picture fails
     * @throws InterruptedException if interrupted while the threads query
     */
    public static Result run(Path out, Settings settings) throws IOException, InterruptedException {
        City city = new City(0, 0, settings.blocks(), settings.blocks());
        Scene scene = city.generate(SEED);

        // The static world: written once (a game would ship this file), then mapped. Category = 1 << kind, so
        // queries can pick layers by mask.
        Path worldFile = out.resolve("line-of-sight-city.world");
        long[] categories = new long[scene.size()];
        for (int i = 0; i < categories.length; i++) {
            categories[i] = 1L << scene.kind(i);
        }
        StaticWorldWriter.write(worldFile, scene.boundingBoxes(), categories, null, null);

        System.out.printf(Locale.ROOT, "Line of sight: %d agents in a %d-object city, %d nearest enemies within %.0f m,"
                        + " %d threads%n", settings.agents(), scene.size(), settings.nearest(), settings.range(),
                settings.threads());
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads());
        try (MappedWorld world = MappedWorld.open(worldFile)) {
            StreetWalkers agents = new StreetWalkers(city, settings.agents(), new SplittableRandom(SEED));
            DynamicAabbTree tree = new DynamicAabbTree();
            int[] handles = new int[settings.agents()];
            for (int i = 0; i < handles.length; i++) {
                double[] b = agents.box(i, HALF_WIDTH, HEIGHT);
                handles[i] = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], i, TEAM_0 << Result.team(i));
            }
            int k = settings.nearest();
            int[] targets = new int[settings.agents() * k];
            BitSet visibleBits = new BitSet(targets.length);
            List<Sight> workers = new ArrayList<>();
            int chunk = (settings.agents() + settings.threads() - 1) / settings.threads();
            for (int t = 0; t < settings.threads(); t++) {
                workers.add(new Sight(world, tree, handles, settings, t * chunk,
                        Math.min(settings.agents(), (t + 1) * chunk), targets));
            }
            long segments = 0;
            long visible = 0;
            long queryNanos = 0;
            for (int tick = 1; tick <= settings.ticks(); tick++) {
                // Phase 1, one thread: move every agent. The predicted displacement lets the tree fatten the
                // leaf ahead of the motion, so most moves cost nothing.
                agents.step();
                for (int i = 0; i < handles.length; i++) {
                    double[] b = agents.box(i, HALF_WIDTH, HEIGHT);
                    tree.move(handles[i], b[0], b[1], b[2], b[3], b[4], b[5],
                            agents.velocityX[i], 0, agents.velocityZ[i]);
                }
                // Phase 2, all threads: read-only queries.
                long start = System.nanoTime();
                List<Future<long[]>> futures = pool.invokeAll(workers);
                long tickSegments = 0;
                long tickVisible = 0;
                visibleBits.clear();
                for (int w = 0; w < futures.size(); w++) {
                    long[] counts = get(futures.get(w));
                    tickSegments += counts[0];
                    tickVisible += counts[1];
                    visibleBits.or(workers.get(w).visible);
                }
                long nanos = System.nanoTime() - start;
                queryNanos += nanos;
                segments += tickSegments;
                visible += tickVisible;
                System.out.printf(Locale.ROOT, "  tick %2d: %6d lines of sight, %6d visible, %6d blocked,"
                                + " %6.1f ms, %,10.0f lines/s%n", tick, tickSegments, tickVisible,
                        tickSegments - tickVisible, nanos / 1e6, tickSegments / (nanos / 1e9));
            }
            double perSecond = segments / (queryNanos / 1e9);
            System.out.printf(Locale.ROOT, "  total: %d lines of sight, %d visible (%.0f %%), %,.0f lines/s%n",
                    segments, visible, 100.0 * visible / Math.max(1, segments), perSecond);
            double[] agentBoxes = new double[6 * settings.agents()];
            for (int i = 0; i < settings.agents(); i++) {
                System.arraycopy(agents.box(i, HALF_WIDTH, HEIGHT), 0, agentBoxes, 6 * i, 6);
            }
            Path picture = out.resolve("line-of-sight.png");
            draw(picture, city, scene, settings, agentBoxes, targets, visibleBits);
            return new Result(settings, scene.size(), segments, visible, perSecond, agentBoxes, targets,
                    visibleBits, worldFile, picture);
        } finally {
            pool.shutdown();
        }
    }

    private static long[] get(Future<long[]> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a query thread failed", e.getCause());
        }
    }

    /**
     * One query thread's share of the agents. Everything it needs per query is a field, so the queries allocate
     * nothing: its own traversal stack, its own collectors, its own scratch for the neighbour search.
     */
    private static final class Sight implements Callable<long[]> {
        private final MappedWorld world;
        private final DynamicAabbTree tree;
        private final int[] handles;
        private final Settings settings;
        private final int from;
        private final int to;
        private final int[] targets;
        private final BitSet visible = new BitSet();
        private final TraversalStack stack = new TraversalStack();
        private final AnyHit staticBlocker = new AnyHit();
        private final AnyHit bodyBlocker = new AnyHit();
        private final AllOverlaps nearby = new AllOverlaps();
        private final double[] box = new double[6];
        private final double[] nearestDistance;

        Sight(MappedWorld world, DynamicAabbTree tree, int[] handles, Settings settings, int from, int to,
              int[] targets) {
            this.world = world;
            this.tree = tree;
            this.handles = handles;
            this.settings = settings;
            this.from = from;
            this.to = to;
            this.targets = targets;
            this.nearestDistance = new double[settings.nearest()];
        }

        @Override
        public long[] call() {
            long segments = 0;
            long clear = 0;
            int k = settings.nearest();
            visible.clear();
            for (int agent = from; agent < to; agent++) {
                tree.getTightBox(handles[agent], box);
                double x = (box[0] + box[3]) / 2;
                double z = (box[2] + box[5]) / 2;
                findNearestEnemies(agent, x, z, k);
                for (int slot = 0; slot < k; slot++) {
                    int target = targets[agent * k + slot];
                    if (target < 0) {
                        break;
                    }
                    segments++;
                    if (canSee(agent, x, z, target)) {
                        clear++;
                        visible.set(agent * k + slot);
                    }
                }
            }
            return new long[]{segments, clear};
        }

        /**
         * The k nearest agents of the other team within range, nearest first (ties: lower index), into this
         * agent's slots of {@code targets}: a box query around the agent, then a small insertion sort.
         */
        private void findNearestEnemies(int agent, double x, double z, int k) {
            double range = settings.range();
            long enemies = TEAM_0 << (1 - Result.team(agent));
            nearby.reset();
            tree.queryAabb(x - range, 0, z - range, x + range, HEIGHT, z + range, enemies, nearby, stack);
            int found = 0;
            for (int n = 0; n < nearby.count(); n++) {
                int other = (int) nearby.userValue(n);
                tree.getTightBox(nearby.handle(n), box);
                double dx = (box[0] + box[3]) / 2 - x;
                double dz = (box[2] + box[5]) / 2 - z;
                double d = dx * dx + dz * dz;
                if (d > range * range) {
                    continue;
                }
                int at = Math.min(found, k);
                while (at > 0 && (d < nearestDistance[at - 1]
                        || d == nearestDistance[at - 1] && other < targets[agent * k + at - 1])) {
                    if (at < k) {
                        nearestDistance[at] = nearestDistance[at - 1];
                        targets[agent * k + at] = targets[agent * k + at - 1];
                    }
                    at--;
                }
                if (at < k) {
                    nearestDistance[at] = d;
                    targets[agent * k + at] = other;
                    found = Math.min(k, found + 1);
                }
            }
            for (int slot = found; slot < k; slot++) {
                targets[agent * k + slot] = -1;
            }
        }

        /** Eyes to chest: blocked by an opaque part of the city, or by anybody's body but the two agents'. */
        private boolean canSee(int agent, double x, double z, int target) {
            tree.getTightBox(handles[target], box);
            double dx = (box[0] + box[3]) / 2 - x;
            double dz = (box[2] + box[5]) / 2 - z;
            double dy = CHEST - EYE;
            world.rayCast(x, EYE, z, dx, dy, dz, 1.0, OPAQUE, staticBlocker, stack);
            if (staticBlocker.hasHit()) {
                return false;
            }
            bodyBlocker.setIgnored(handles[agent], handles[target]);
            tree.rayCast(x, EYE, z, dx, dy, dz, 1.0, -1L, bodyBlocker, stack);
            return !bodyBlocker.hasHit();
        }
    }

    /** The top view of the last tick, zoomed on the middle of the city so single lines can be told apart. */
    private static void draw(Path file, City city, Scene scene, Settings settings, double[] agentBoxes,
                             int[] targets, BitSet visible) throws IOException {
        double cx = city.originX() + city.width() / 2;
        double cz = city.originZ() + city.depth() / 2;
        double half = Math.min(city.width(), 2.2 * City.PITCH) / 2 + City.STREET;
        TopView view = new TopView(1000, 1000, cx - half, cz - half, cx + half, cz + half, 60, Palette.STREET);
        view.cityGround(city);
        view.scene(scene, Palette.of(scene), true);
        int k = settings.nearest();
        int shown = 0;
        for (int agent = 0; agent < settings.agents(); agent++) {
            double ax = (agentBoxes[6 * agent] + agentBoxes[6 * agent + 3]) / 2;
            double az = (agentBoxes[6 * agent + 2] + agentBoxes[6 * agent + 5]) / 2;
            if (Math.abs(ax - cx) > half || Math.abs(az - cz) > half) {
                continue;
            }
            for (int slot = 0; slot < k; slot++) {
                int target = targets[agent * k + slot];
                if (target < 0) {
                    break;
                }
                boolean clear = visible.get(agent * k + slot);
                double tx = (agentBoxes[6 * target] + agentBoxes[6 * target + 3]) / 2;
                double tz = (agentBoxes[6 * target + 2] + agentBoxes[6 * target + 5]) / 2;
                view.line(ax, az, tx, tz, (clear ? 0xb0000000 : 0xc0000000) | (clear ? Palette.VISIBLE : Palette.BLOCKED),
                        clear ? 1.6f : 1.2f);
                shown++;
            }
        }
        for (int agent = 0; agent < settings.agents(); agent++) {
            double ax = (agentBoxes[6 * agent] + agentBoxes[6 * agent + 3]) / 2;
            double az = (agentBoxes[6 * agent + 2] + agentBoxes[6 * agent + 5]) / 2;
            view.dot(ax, az, 3.2, 0xff000000);
            view.dot(ax, az, 2.4, Result.team(agent) == 0 ? 0xff4aa8ff : 0xffffd23a);
        }
        view.caption("Line of sight, last tick (middle of the city)",
                "blue / yellow: the two teams; each agent looks at its " + k + " nearest enemies",
                "green: visible, red: blocked by a building, a prop or a body (" + shown + " lines shown)");
        view.save(file);
    }
}
