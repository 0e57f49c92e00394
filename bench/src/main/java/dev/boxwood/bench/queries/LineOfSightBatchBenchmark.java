package dev.boxwood.bench.queries;

import dev.boxwood.index.BatchQueries;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.testkit.scenes.SegmentSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Line-of-sight throughput: segments per second answered by {@link BatchQueries#lineOfSight} (any-hit casts) on
 * the clustered world of 100k and 1M objects, on one thread and on two (the caller plus one worker), the worker
 * the batch's own ({@code own}), a thread of an application's pool ({@code pool}) or of the common fork/join pool
 * ({@code common}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
public class LineOfSightBatchBenchmark {

    private static final int SEGMENTS = 4096;

    @Param({"1", "2"})
    public int threads;

    @Param({"100000", "1000000"})
    public int n;

    @Param({"own", "pool", "common"})
    public String runner;

    private DynamicAabbTree tree;
    private BatchQueries batch;
    private ExecutorService pool;
    private final double[] from = new double[3 * SEGMENTS];
    private final double[] to = new double[3 * SEGMENTS];
    private final boolean[] visible = new boolean[SEGMENTS];

    @Setup(Level.Trial)
    public void setUp() {
        SyntheticWorld world = SyntheticWorld.clustered(n, 11);
        tree = DynamicAabbTree.build(TreeConfig.defaults(), world.boxes().toInterleaved(), null, null);
        SegmentSet s = world.segments(SEGMENTS, 12);
        System.arraycopy(s.starts(), 0, from, 0, 3 * SEGMENTS);
        System.arraycopy(s.ends(), 0, to, 0, 3 * SEGMENTS);
        batch = switch (runner) {
            case "own" -> new BatchQueries(threads);
            case "pool" -> new BatchQueries(pool = Executors.newFixedThreadPool(Math.max(1, threads - 1)), threads);
            case "common" -> new BatchQueries(ForkJoinPool.commonPool(), threads);
            default -> throw new IllegalArgumentException("runner: own, pool or common, not " + runner);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        batch.close();
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** @return whether the first segment is clear (keeps the answers alive) */
    @Benchmark
    @OperationsPerInvocation(SEGMENTS)
    public boolean lineOfSight() {
        batch.lineOfSight(tree, from, to, null, null, SEGMENTS, -1L, visible);
        return visible[0];
    }
}
