package dev.boxwood.bench.peers;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.LevelScenes;
import java.util.concurrent.TimeUnit;
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
 * The peer contenders on the three real levels shipped with the test kit ({@link LevelScenes.Level}, at their
 * authors' scale): box queries, closest-hit and any-hit casts from {@link LevelScenes}' random generators
 * inside each level's bounds ({@link #QUERIES} of each, cycled), and the time to build each level's index.
 *
 * <p>The levels are small (268 to 4221 boxes), so a build is timed as an average over many warm builds rather
 * than as a single cold shot, which would mostly time the interpreter.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class LevelQueryBenchmark extends CycledQueryBenchmark {

    /** Queries of each kind per level; a power of two. */
    public static final int QUERIES = 1024;
    /** Seed of the box queries. */
    public static final long BOX_QUERY_SEED = 0x1E7E_0001L;
    /** Seed of the segments. */
    public static final long SEGMENT_SEED = 0x1E7E_0002L;

    /** Which level. */
    @Param({"BOUNDS01", "BOUNDS02", "BOUNDS03"})
    public String level;

    /** Which index (any of {@link Contenders#NAMES}). */
    @Param({"boxwood", "jolt", "jts-hprtree", "jbox2d", "jbullet-dbvt", "tinspin-rtree", "brute"})
    public String contender;

    private BoxSet boxes;

    /** Loads the level, makes the queries and builds the index. */
    @Setup
    public void setUp() {
        boxes = LevelScenes.load(LevelScenes.Level.valueOf(level));
        Contender index = Contenders.create(contender);
        index.build(boxes);
        use(index, boxes, LevelScenes.randomBoxQueries(boxes, QUERIES, BOX_QUERY_SEED),
                LevelScenes.randomSegments(boxes, QUERIES, SEGMENT_SEED));
    }

    /**
     * One full build of the level (bulk load where the index has one, as in {@link PeerBuildBenchmark}),
     * including the adapter's copy of the boxes.
     *
     * @return the built index
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Contender build() {
        Contender c = Contenders.create(contender);
        c.build(boxes);
        return c;
    }
}
