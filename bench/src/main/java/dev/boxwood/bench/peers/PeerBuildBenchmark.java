package dev.boxwood.bench.peers;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.testkit.scenes.BoxSet;
import java.util.concurrent.TimeUnit;
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

/**
 * Time to index the whole clustered world from its arrays, one build per shot (bulk load where the index has
 * one, else one insert per box). Includes the adapter's copy of the boxes. The previous shot's index is collected
 * before the shot, outside the timing: left to the shot, its collection charged an index of many small objects
 * (jbox2d's nodes) more than one of a few arrays, and one-by-one insertion came out up to 15% ahead of jbox2d
 * that would otherwise be level with it or behind. The heap is fixed at its maximum ({@code -Xms8g}): growing it
 * from the default start charged the indexes of many small objects for collections Boxwood's few arrays never
 * caused (JTS HPRtree's bulk build 680 ms against 450 ms with the fixed heap, jbox2d's insertions 3.7 s against
 * 3.0 s, Boxwood's unchanged), and with it each contender's shots spread over a few percent only.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "-Xms8g", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class PeerBuildBenchmark {

    /** Which index. */
    @Param({"brute", "jbox2d", "dyn4j", "jbullet-dbvt", "jts-strtree", "jts-hprtree", "tinspin-rtree",
            "tinspin-phtree", "rtree2", "conversant-rtree", "jolt", "boxwood", "boxwood-ordered", "boxwood-insert",
            "boxwood-deferred"})
    public String contender;

    /** Number of boxes. */
    @Param({"100000", "1000000"})
    public int n;

    private BoxSet boxes;

    /** Builds the world. */
    @Setup
    public void setUp() {
        boxes = PeerWorkload.of(n, 1).boxes();
    }

    /** Collects the previous shot's index (JMH's consumed return value is its only reference) before the next. */
    @Setup(Level.Iteration)
    public void collectPreviousShot() {
        System.gc();
    }

    /**
     * One full build.
     *
     * @return the built index (kept alive until JMH consumes it)
     */
    @Benchmark
    public Contender build() {
        Contender c = Contenders.create(contender);
        c.build(boxes);
        return c;
    }
}
