package dev.boxwood.bench.serial;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.PairQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;
import dev.boxwood.serial.WorldPairs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Moving entities against a static world: {@code entityN} boxes in a dynamic tree, each placed near a random
 * static object, against the {@code worldN} boxes of {@link PeerWorkload}'s world.
 * <ul>
 *   <li>{@link #mappedWorld}: {@link WorldPairs#treePairs} against the world memory-mapped from its file (one
 *       lookup of the world per entity).</li>
 *   <li>{@link #treeWorld}: {@link PairQueries#treePairs} against the same boxes bulk-built into an in-memory
 *       tree with the world's origin (both hierarchies descended at once): what copying the world into a tree
 *       buys, at about 145 bytes per static object against the file's 41.</li>
 *   <li>{@link #mappedWorldListed}: {@link WorldPairs#listedPairs} for 1% of the entities (those a game moved in
 *       a tick).</li>
 * </ul>
 * The setup checks that both full answers agree (the same origin, so the same decisions) and prints the pair
 * count. Time per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class WorldPairsBenchmark extends MappedWorldForks {

    /** The world file, its tree twin, the entities and the reused scratch. */
    @State(Scope.Thread)
    public static class PairState {
        /** Number of static objects. */
        @Param({"1000000"})
        public int worldN;

        /** Number of entities. */
        @Param({"10000", "100000"})
        public int entityN;

        Path dir;
        MappedWorld world;
        DynamicAabbTree worldTree;
        DynamicAabbTree entities;
        int[] moved;
        final WorldPairs worldPairs = new WorldPairs();
        final PairBuffer pairs = new PairBuffer();
        final TraversalStack stack = new TraversalStack();

        /**
         * Writes and maps the world, builds its tree twin and the entities' tree, and checks that both answers
         * agree.
         *
         * @throws IOException if writing or mapping fails
         */
        @Setup(Level.Trial)
        public void setUp() throws IOException {
            double[] boxes = PeerWorkload.of(worldN, 1).boxes().toInterleaved();
            dir = Files.createTempDirectory("boxwood-world-pairs-bench");
            Path file = dir.resolve("world.bxw");
            StaticWorldWriter.write(file, boxes, null, null, null);
            world = MappedWorld.open(file);
            TreeConfig frame = TreeConfig.defaults().withOrigin(world.originX(), world.originY(), world.originZ());
            worldTree = DynamicAabbTree.build(frame, boxes, null, null);
            // entities among the static geometry, as a game's are: each a box of 0.5 to 2 m centred within 3 m of a
            // random static object's centre
            SplittableRandom random = new SplittableRandom(PeerWorkload.MOVE_SEED);
            entities = new DynamicAabbTree(frame);
            for (int i = 0; i < entityN; i++) {
                int k = 6 * random.nextInt(worldN);
                double[] c = new double[3];
                for (int a = 0; a < 3; a++) {
                    c[a] = 0.5 * (boxes[k + a] + boxes[k + 3 + a]) + random.nextDouble(-3, 3);
                }
                double h = random.nextDouble(0.25, 1);
                entities.add(c[0] - h, c[1] - h, c[2] - h, c[0] + h, c[1] + h, c[2] + h, i, -1L);
            }
            // every handle of a fresh tree is its slot: 1% of them, spread at random
            moved = new int[Math.max(1, entityN / 100)];
            for (int i = 0; i < moved.length; i++) {
                moved[i] = random.nextInt(entityN);
            }
            worldPairs.treePairs(entities, -1L, world, -1L, pairs, stack);
            int mapped = pairs.size();
            PairQueries.treePairs(entities, -1L, worldTree, -1L, pairs, stack);
            if (pairs.size() != mapped) {
                throw new IllegalStateException("pair counts differ: mapped " + mapped + ", tree " + pairs.size());
            }
            System.out.printf("%n%d entities against %d static objects: %d pairs%n", entityN, worldN, mapped);
        }

        /**
         * Unmaps the world and removes the files.
         *
         * @throws IOException if deleting fails
         */
        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            world.close();
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(p);
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * @param s the state
     * @return the number of pairs
     */
    @Benchmark
    public int mappedWorld(PairState s) {
        s.worldPairs.treePairs(s.entities, -1L, s.world, -1L, s.pairs, s.stack);
        return s.pairs.size();
    }

    /**
     * @param s the state
     * @return the number of pairs
     */
    @Benchmark
    public int treeWorld(PairState s) {
        PairQueries.treePairs(s.entities, -1L, s.worldTree, -1L, s.pairs, s.stack);
        return s.pairs.size();
    }

    /**
     * @param s the state
     * @return the number of pairs
     */
    @Benchmark
    public int mappedWorldListed(PairState s) {
        s.worldPairs.listedPairs(s.entities, s.moved, s.moved.length, -1L, s.world, -1L, s.pairs, s.stack);
        return s.pairs.size();
    }
}
