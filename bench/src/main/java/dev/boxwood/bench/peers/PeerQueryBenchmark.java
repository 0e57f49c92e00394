package dev.boxwood.bench.peers;

import dev.boxwood.bench.world.PeerWorkload;
import java.util.concurrent.TimeUnit;
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
// The Chronicle Bytes flags of the parent POM's chronicle.jvm.args, for the mapped world of boxwood-static.
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "--enable-native-access=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
        "-Dchronicle.analytics.disable=true", "-Dchronicle.announcer.disable=true", "-Ddisable.perf.info=true"})
@State(Scope.Thread)
public class PeerQueryBenchmark extends CycledQueryBenchmark {

    /** Which index. */
    @Param({"brute", "jbox2d", "dyn4j", "jbullet-dbvt", "jts-strtree", "jts-hprtree", "tinspin-rtree",
            "tinspin-phtree", "rtree2", "conversant-rtree", "jolt", "boxwood", "boxwood-ordered", "boxwood-static"})
    public String contender;

    /** Number of boxes. */
    @Param({"100000", "1000000"})
    public int n;

    /** Builds the world, the queries and the index. */
    @Setup
    public void setUp() {
        PeerWorkload workload = PeerWorkload.of(n);
        Contender index = Contenders.create(contender);
        index.build(workload.boxes());
        use(index, workload.boxes(), workload.boxQueries(), workload.segments());
    }
}
