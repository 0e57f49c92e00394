package dev.boxwood.bench.peers;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.MovingWorkload;
import java.util.concurrent.TimeUnit;
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

/**
 * The moving workload on the clustered world of {@value #N} boxes: one invocation is one tick, in which
 * every box takes a small random-walk step (at most 0.5 m) and the index is told about each; the score is
 * box updates per second. The walk runs {@value #SETTLING_TICKS} ticks before the index is built, so every
 * contender is timed on the same steady-state speeds. The brute-force row is the harness's own cost (random walk
 * plus array writes).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "-Xms8g", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class PeerMoveBenchmark {

    /** Number of moving boxes. */
    public static final int N = 100_000;

    /** Ticks of the walk run before the index is built, so that every contender meets the same speeds. */
    public static final int SETTLING_TICKS = 500;

    /** Which index (dynamic ones only). */
    @Param({"brute", "jbox2d", "dyn4j", "jbullet-dbvt", "tinspin-rtree", "tinspin-phtree", "rtree2",
            "conversant-rtree", "jolt", "boxwood"})
    public String contender;

    /** Box queries and segments checked after the timed ticks. */
    static final int CHECKED_QUERIES = 200;

    private Contender index;
    private MovingWorkload moving;
    private PeerWorkload workload;

    /** Builds the world, the walk and the index. */
    @Setup
    public void setUp() {
        workload = PeerWorkload.of(N, 1);
        index = Contenders.create(contender);
        if (!index.dynamic()) {
            throw new IllegalStateException(contender + " is static");
        }
        moving = workload.world().moving(PeerWorkload.MOVE_SEED);
        // Velocities start at zero and take a few hundred ticks to spread over their range; a faster index would
        // otherwise measure more of the easy early ticks than a slower one. Every contender starts from the same
        // steady state instead.
        for (int t = 0; t < SETTLING_TICKS; t++) {
            moving.tick();
        }
        index.build(moving.boxes());
    }

    /**
     * After the timed ticks, the index must still answer as a brute-force scan of the boxes where they now are (the
     * agreement test checks three ticks on a smaller world; this checks the state the figures were measured on).
     *
     * @throws IllegalStateException at the first disagreement, which fails the run
     */
    @TearDown(Level.Trial)
    public void checkAnswers() {
        if (contender.equals("brute")) {
            return;
        }
        Contender reference = Contenders.create("brute");
        reference.build(moving.boxes());
        AnswerCheck.compare(index, reference, moving.boxes(), workload.boxQueries(), workload.segments(),
                CHECKED_QUERIES, contender + " after the timed ticks");
    }

    /** One tick: every box moves once. */
    @Benchmark
    @OperationsPerInvocation(N)
    public void tick() {
        moving.tick();
        BoxSet b = moving.boxes();
        Contender c = index;
        for (int i = 0; i < N; i++) {
            c.move(i, b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i],
                    moving.displacementX[i], moving.displacementY[i], moving.displacementZ[i]);
        }
    }
}
