package dev.boxwood.bench.tree;

import java.util.concurrent.TimeUnit;

import dev.boxwood.bench.world.CountingVisitor;
import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.MovingWorkload;
import dev.boxwood.testkit.scenes.SegmentSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the fat boxes of moving objects cost the queries: the clustered world of {@value #N} boxes is bulk-built,
 * settled for {@value #SETTLING_TICKS} ticks of the walk, then moved for {@value #TICKS} ticks with the given
 * prediction ({@link TreeConfig#withPrediction}); box queries and closest-hit casts then run on the moved tree.
 * A larger prediction re-inserts objects less often but gives them larger fat boxes.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@State(Scope.Thread)
public class MovedTreeQueryBenchmark {

    /** Number of moving boxes. */
    public static final int N = 100_000;
    /** Ticks of the walk before the tree is built. */
    public static final int SETTLING_TICKS = 500;
    /** Ticks of moves the tree takes before it is queried. */
    public static final int TICKS = 300;

    /** Fat-box prediction, in displacements ahead. */
    @Param({"1", "4"})
    public double prediction;

    private DynamicAabbTree tree;
    private BoxSet queries;
    private SegmentSet segments;
    private final TraversalStack stack = new TraversalStack();
    private final ClosestHit closest = new ClosestHit();
    private final CountingVisitor counter = new CountingVisitor();
    private int next;

    /** Builds, settles and moves the tree. */
    @Setup
    public void setUp() {
        PeerWorkload workload = PeerWorkload.of(N);
        queries = workload.boxQueries();
        segments = workload.segments();
        MovingWorkload moving = workload.world().moving(PeerWorkload.MOVE_SEED);
        for (int t = 0; t < SETTLING_TICKS; t++) {
            moving.tick();
        }
        BoxSet b = moving.boxes();
        tree = DynamicAabbTree.build(TreeConfig.defaults().withPrediction(prediction), b.toInterleaved(), null,
                null);
        for (int t = 0; t < TICKS; t++) {
            moving.tick();
            for (int i = 0; i < N; i++) {
                tree.move(i, b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i],
                        moving.displacementX[i], moving.displacementY[i], moving.displacementZ[i]);
            }
        }
        System.out.printf("%nprediction %.0f: area ratio %.4f after %d ticks%n", prediction, tree.areaRatio(),
                TICKS);
    }

    /** @return the hit count of one box query */
    @Benchmark
    public int boxQuery() {
        int k = next++ & (PeerWorkload.QUERIES - 1);
        BoxSet q = queries;
        counter.count = 0;
        tree.queryAabb(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k], -1L, counter, stack);
        return counter.count;
    }

    /** @return the handle hit by one closest-hit cast, or -1 */
    @Benchmark
    public int castClosest() {
        int k = next++ & (PeerWorkload.QUERIES - 1);
        SegmentSet g = segments;
        tree.rayCast(g.originX[k], g.originY[k], g.originZ[k], g.translationX[k], g.translationY[k],
                g.translationZ[k], 1.0, -1L, closest, stack);
        return closest.hasHit() ? closest.handle() : -1;
    }
}
