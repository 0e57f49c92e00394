package dev.boxwood.bench.peers;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
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
 * Queries on the clustered world, one per operation, cycling through {@link PeerWorkload#QUERIES} prebuilt
 * ones: box queries (cubes sized for 10 to 100 hits, counting overlaps in 3D), and closest-hit and any-hit
 * casts of 500 m segments (elevation within 8 degrees). The index is built once per trial (JMH forks a JVM
 * per benchmark method and parameter set).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class PeerQueryBenchmark {

    /** Which index. */
    @Param({"brute", "jbox2d", "dyn4j", "jbullet-dbvt", "jts-strtree", "jts-hprtree", "tinspin-rtree",
            "tinspin-phtree", "rtree2", "conversant-rtree", "jolt", "boxwood"})
    public String contender;

    /** Number of boxes. */
    @Param({"100000", "1000000"})
    public int n;

    private Contender index;
    private BoxSet queries;
    private SegmentSet segments;
    private int next;

    /** Builds the world, the queries and the index. */
    @Setup
    public void setUp() {
        PeerWorkload workload = PeerWorkload.of(n);
        queries = workload.boxQueries();
        segments = workload.segments();
        index = Contenders.create(contender);
        index.build(workload.boxes());
    }

    /**
     * One box query.
     *
     * @return the hit count
     */
    @Benchmark
    public int boxQuery() {
        int k = next++ & (PeerWorkload.QUERIES - 1);
        BoxSet q = queries;
        return index.countOverlaps(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k]);
    }

    /**
     * One closest-hit cast.
     *
     * @return the entry fraction, or -1
     */
    @Benchmark
    public double castClosest() {
        int k = next++ & (PeerWorkload.QUERIES - 1);
        SegmentSet s = segments;
        return index.castClosest(s.originX[k], s.originY[k], s.originZ[k],
                s.translationX[k], s.translationY[k], s.translationZ[k]);
    }

    /**
     * One any-hit cast.
     *
     * @return the index of a hit box, or -1
     */
    @Benchmark
    public int castAny() {
        int k = next++ & (PeerWorkload.QUERIES - 1);
        SegmentSet s = segments;
        return index.castAny(s.originX[k], s.originY[k], s.originZ[k],
                s.translationX[k], s.translationY[k], s.translationZ[k]);
    }
}
