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

import dev.boxwood.index.BatchQueries;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.ReadView;
import dev.boxwood.index.TreeSnapshots;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.SpatialQueries;
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
 * {@link DynamicAabbTree}. The game thread moves the agents and then publishes a frozen copy of the tree
 * ({@link TreeSnapshots#publish()}); the AI thread thinks about that tick on the copy ({@link ReadView}) while the
 * game thread already moves everybody for the next tick, and the game thread waits for that thinking to finish only
 * before it publishes the next copy (here the AI takes longer than the moves, so the game thread does wait).
 *
 * <p>The AI of one tick, on the read view:
 * <ol>
 *   <li>per agent, its nearest enemies within range ({@link ReadView#kNearest}: distance from the eyes to
 *       the enemy's body box, enemies picked by category mask), and the line from its eyes to each target's chest
 *       cast against the city ({@link SpatialQueries#rayCast} on the mapped world, any hit). This runs on a few
 *       threads, each with its own {@link TraversalStack}, {@link AnyHit} and {@link NearestNeighbours};</li>
 *   <li>the lines the city did not block, in one {@link BatchQueries#lineOfSight} call against the agents' bodies,
 *       ignoring the looker and its target: the batch spreads them over the same pool's threads (it owns none)
 *       and writes the answers into the caller's arrays.</li>
 * </ol>
 * Trees, lamp posts and benches are see-through: their category is simply left out of the city query's mask.
 *
 * <p>Run on its own: {@code java @serialization/chronicle.args -cp samples/target/boxwood-samples.jar
 * dev.boxwood.samples.LineOfSightSample [--quick] [folder]}
 * (on JDK 23+ also {@code @serialization/chronicle-jdk23.args}).
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
     * @param segmentsPerSecond query throughput from the second tick on (the first includes the JIT's warm-up of
     *     the query code), over the one tick of a one-tick run
     * @param agentBoxes the agents' stored boxes in the read view of the last tick, stride 6, in agent order
     *     (handles were allocated in that order)
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
        SampleArgs a = SampleArgs.parseOrExit("LineOfSightSample", args);
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
        StaticWorldWriter.write(worldFile, scene.boundingBoxes(), null, categories, null);

        System.out.printf(Locale.ROOT, "Line of sight: %d agents in a %d-object city, %d nearest enemies within %.0f m,"
                        + " %d threads%n", settings.agents(), scene.size(), settings.nearest(), settings.range(),
                settings.threads());
        ExecutorService aiThread = Executors.newSingleThreadExecutor();
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads());
        try (MappedWorld world = MappedWorld.open(worldFile);
             BatchQueries batch = new BatchQueries(pool, settings.threads())) {
            StreetWalkers agents = new StreetWalkers(city, settings.agents(), new SplittableRandom(SEED));
            DynamicAabbTree tree = new DynamicAabbTree();
            int[] handles = new int[settings.agents()];
            for (int i = 0; i < handles.length; i++) {
                double[] b = agents.box(i, HALF_WIDTH, HEIGHT);
                handles[i] = tree.add(b[0], b[1], b[2], b[3], b[4], b[5], i, TEAM_0 << Result.team(i));
            }
            TreeSnapshots snapshots = new TreeSnapshots(tree);
            Ai ai = new Ai(world, snapshots, batch, pool, handles, settings);
            long moveNanos = 0;
            Future<Void> thinking = null;
            for (int tick = 1; tick <= settings.ticks(); tick++) {
                // The game thread moves every agent, while the AI thread still thinks about the previous tick on
                // its read view. The predicted displacement lets the tree fatten the leaf ahead of the motion, so
                // most moves cost nothing.
                long start = System.nanoTime();
                agents.step();
                for (int i = 0; i < handles.length; i++) {
                    double[] b = agents.box(i, HALF_WIDTH, HEIGHT);
                    tree.move(handles[i], b[0], b[1], b[2], b[3], b[4], b[5],
                            agents.velocityX[i], 0, agents.velocityZ[i]);
                }
                moveNanos += System.nanoTime() - start;
                if (thinking != null) {
                    get(thinking);
                }
                snapshots.publish();
                ai.tick = tick;
                thinking = aiThread.submit(ai);
            }
            get(thinking);
            double perSecond = ai.warmNanos > 0 ? ai.warmSegments / (ai.warmNanos / 1e9)
                    : ai.segments / (ai.queryNanos / 1e9);
            System.out.printf(Locale.ROOT, "  total: %d lines of sight, %d visible (%.0f %%), %,.0f lines/s%s;"
                            + " the game thread moved %d agents per tick in %.1f ms on average, during the AI%n",
                    ai.segments, ai.visible, 100.0 * ai.visible / Math.max(1, ai.segments), perSecond,
                    ai.warmNanos > 0 ? " from tick 2 on (tick 1 includes the JIT's warm-up)" : "",
                    settings.agents(), moveNanos / 1e6 / settings.ticks());
            Path picture = out.resolve("line-of-sight.png");
            draw(picture, city, scene, settings, ai.agentBoxes, ai.targets, ai.visibleBits);
            return new Result(settings, scene.size(), ai.segments, ai.visible, perSecond, ai.agentBoxes,
                    ai.targets, ai.visibleBits, worldFile, picture);
        } finally {
            pool.shutdown();
            aiThread.shutdown();
        }
    }

    private static <T> T get(Future<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a query thread failed", e.getCause());
        }
    }

    /**
     * The AI thread's work for one tick, on the latest read view. Its arrays are the results of the last tick
     * thought about; they are reused from tick to tick, so the queries allocate nothing once warmed up.
     */
    private static final class Ai implements Callable<Void> {
        private final SpatialQueries world;
        private final TreeSnapshots snapshots;
        private final BatchQueries batch;
        private final ExecutorService pool;
        private final int[] handles;
        private final Settings settings;
        private final List<Sight> workers = new ArrayList<>();
        // per slot (agent * nearest + slot): the target, the line of sight, whether the city leaves it clear
        final int[] targets;
        final double[] eyes;
        final double[] chests;
        final boolean[] cityClear;
        // the lines the city left clear, compacted for the batch against the bodies
        private final double[] from;
        private final double[] to;
        private final int[] lookers;
        private final int[] looked;
        private final int[] slotOf;
        private final boolean[] bodiesClear;
        final BitSet visibleBits;
        final double[] agentBoxes;
        int tick;
        long segments;
        long visible;
        long queryNanos;
        /** Lines and time from the second tick on: the first includes compiling the query code. */
        long warmSegments;
        long warmNanos;

        Ai(SpatialQueries world, TreeSnapshots snapshots, BatchQueries batch, ExecutorService pool, int[] handles,
           Settings settings) {
            this.world = world;
            this.snapshots = snapshots;
            this.batch = batch;
            this.pool = pool;
            this.handles = handles;
            this.settings = settings;
            int slots = settings.agents() * settings.nearest();
            targets = new int[slots];
            eyes = new double[3 * slots];
            chests = new double[3 * slots];
            cityClear = new boolean[slots];
            from = new double[3 * slots];
            to = new double[3 * slots];
            lookers = new int[slots];
            looked = new int[slots];
            slotOf = new int[slots];
            bodiesClear = new boolean[slots];
            visibleBits = new BitSet(slots);
            agentBoxes = new double[6 * settings.agents()];
            int chunk = (settings.agents() + settings.threads() - 1) / settings.threads();
            for (int t = 0; t < settings.threads(); t++) {
                workers.add(new Sight(this, t * chunk, Math.min(settings.agents(), (t + 1) * chunk)));
            }
        }

        @Override
        public Void call() throws InterruptedException {
            try (ReadView view = snapshots.acquire()) {
                long start = System.nanoTime();
                for (Sight w : workers) {
                    w.view = view;
                }
                // Phase 1, a few threads: nearest enemies, and their lines of sight against the city.
                for (Future<Void> f : pool.invokeAll(workers)) {
                    get(f);
                }
                // Phase 2, one batch: the lines the city left clear, against everybody's body but the two agents'.
                int k = settings.nearest();
                int count = 0;
                long lines = 0;
                for (int s = 0; s < targets.length; s++) {
                    if (targets[s] < 0) {
                        continue;
                    }
                    lines++;
                    if (cityClear[s]) {
                        System.arraycopy(eyes, 3 * s, from, 3 * count, 3);
                        System.arraycopy(chests, 3 * s, to, 3 * count, 3);
                        lookers[count] = handles[s / k];
                        looked[count] = handles[targets[s]];
                        slotOf[count++] = s;
                    }
                }
                batch.lineOfSight(view, from, to, lookers, looked, count, -1L, bodiesClear);
                visibleBits.clear();
                for (int i = 0; i < count; i++) {
                    if (bodiesClear[i]) {
                        visibleBits.set(slotOf[i]);
                    }
                }
                long nanos = System.nanoTime() - start;
                int seen = visibleBits.cardinality();
                queryNanos += nanos;
                segments += lines;
                visible += seen;
                if (tick > 1) {
                    warmSegments += lines;
                    warmNanos += nanos;
                }
                System.out.printf(Locale.ROOT, "  tick %2d: %6d lines of sight, %6d visible, %6d blocked (%5d by the"
                                + " city), %6.1f ms, %,10.0f lines/s%n", tick, lines, seen, lines - seen,
                        lines - count, nanos / 1e6, lines / (nanos / 1e9));
                double[] box = new double[6];
                for (int i = 0; i < handles.length; i++) {
                    view.getTightBox(handles[i], box);
                    System.arraycopy(box, 0, agentBoxes, 6 * i, 6);
                }
            }
            return null;
        }
    }

    /**
     * One thread's share of the agents in phase 1. Everything it needs per query is a field, so the queries
     * allocate nothing: its own traversal stack, hit collector and nearest-neighbour list.
     */
    private static final class Sight implements Callable<Void> {
        private final Ai ai;
        private final int from;
        private final int to;
        private final TraversalStack stack = new TraversalStack();
        private final AnyHit cityBlocker = new AnyHit();
        private final NearestNeighbours enemies = new NearestNeighbours();
        private final double[] box = new double[6];
        ReadView view;

        Sight(Ai ai, int from, int to) {
            this.ai = ai;
            this.from = from;
            this.to = to;
        }

        @Override
        public Void call() {
            int k = ai.settings.nearest();
            for (int agent = from; agent < to; agent++) {
                view.getTightBox(ai.handles[agent], box);
                double x = (box[0] + box[3]) / 2;
                double z = (box[2] + box[5]) / 2;
                long enemyTeam = TEAM_0 << (1 - Result.team(agent));
                view.kNearest(x, EYE, z, k, ai.settings.range(), enemyTeam, null, null, enemies);
                for (int slot = 0; slot < k; slot++) {
                    int s = agent * k + slot;
                    if (slot >= enemies.count()) {
                        ai.targets[s] = -1;
                        continue;
                    }
                    ai.targets[s] = (int) enemies.userValue(slot);
                    view.getTightBox(enemies.handle(slot), box);
                    double tx = (box[0] + box[3]) / 2;
                    double tz = (box[2] + box[5]) / 2;
                    ai.eyes[3 * s] = x;
                    ai.eyes[3 * s + 1] = EYE;
                    ai.eyes[3 * s + 2] = z;
                    ai.chests[3 * s] = tx;
                    ai.chests[3 * s + 1] = CHEST;
                    ai.chests[3 * s + 2] = tz;
                    // Eyes to chest through the city: buildings and props block, furniture does not.
                    ai.world.rayCast(x, EYE, z, tx - x, CHEST - EYE, tz - z, 1.0, OPAQUE, cityBlocker, stack);
                    ai.cityClear[s] = !cityBlocker.hasHit();
                }
            }
            return null;
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
