package dev.boxwood.bench.queries;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.PairQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Overlapping pairs on the clustered world. {@code movedPairs}: one broad-phase frame, in which 1% of the objects
 * (spread over the world) move by at most {@value BatchMoves#MAX_STEP} m per axis and
 * {@link PairQueries#movedPairs} collects their pairs into a reused {@link PairBuffer}; the time includes the moves
 * ({@code moveOnly} measures them alone, to subtract). {@code selfPairs}: every overlapping pair of the world
 * ({@link PairQueries#selfPairs}), at 100k objects only, as at 1M one call takes long.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
public class PairQueryBenchmark {

    /** The clustered world's tree and the reused scratch of the pair queries. */
    abstract static class World {

        BoxSet boxes;
        DynamicAabbTree tree;
        final PairBuffer pairs = new PairBuffer();
        final TraversalStack stack = new TraversalStack();

        void build(int n) {
            boxes = SyntheticWorld.clustered(n, 19).boxes();
            tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        }
    }

    /** A tree whose objects move, 1% per frame. */
    @State(Scope.Benchmark)
    public static class MovingWorld extends World {

        /** Number of objects in the world. */
        @Param({"100000", "1000000"})
        public int n;

        BatchMoves moves;

        @Setup(Level.Trial)
        public void setUp() {
            build(n);
            moves = new BatchMoves(boxes, n / 100, 20);
        }
    }

    /** A static tree, at 100k objects only. */
    @State(Scope.Benchmark)
    public static class StaticWorld extends World {

        /** Number of objects in the world. */
        @Param({"100000"})
        public int n;

        @Setup(Level.Trial)
        public void setUp() {
            build(n);
        }
    }

    /** @return the number of pairs involving the moved objects */
    @Benchmark
    public int movedPairs(MovingWorld w) {
        w.moves.moveNext(w.tree);
        PairQueries.movedPairs(w.tree, -1L, w.pairs, w.stack);
        return w.pairs.size();
    }

    /** @return the number of objects moved (the moves of {@link #movedPairs} without the pair query) */
    @Benchmark
    public int moveOnly(MovingWorld w) {
        return w.moves.moveNext(w.tree);
    }

    /** @return the number of overlapping pairs of the world */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int selfPairs(StaticWorld w) {
        PairQueries.selfPairs(w.tree, -1L, w.pairs, w.stack);
        return w.pairs.size();
    }
}
