package dev.boxwood.bench.queries;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.ReadView;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.index.TreeSnapshots;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The writer's cost of {@link TreeSnapshots#publish()} on the clustered world: the copy of the tree into a recycled
 * view, per publish (divide by {@code n} for the cost per object). Before each publish (outside the timing)
 * {@value #MOVED} objects spread over the world move slightly and a reader acquires the latest view, which it holds
 * during the publish and releases after it; so the publish recycles the view released the time before and never
 * allocates (checked at the end of the trial).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
public class ReadViewPublishBenchmark {

    private static final int MOVED = 1000;

    /** Number of objects in the world. */
    @Param({"100000", "1000000"})
    public int n;

    private DynamicAabbTree tree;
    private TreeSnapshots snapshots;
    private BatchMoves moves;
    private ReadView held;

    @Setup(Level.Trial)
    public void setUp() {
        BoxSet boxes = SyntheticWorld.clustered(n, 23).boxes();
        tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        moves = new BatchMoves(boxes, MOVED, 24);
        snapshots = new TreeSnapshots(tree);
        snapshots.publish();
    }

    /** A frame of updates, and a reader holding the latest view across the coming publish. */
    @Setup(Level.Invocation)
    public void beforePublish() {
        moves.moveNext(tree);
        held = snapshots.acquire();
    }

    /** @return the new version */
    @Benchmark
    public long publish() {
        return snapshots.publish();
    }

    /** The reader releases its view: the next publish may recycle it. */
    @TearDown(Level.Invocation)
    public void afterPublish() {
        held.close();
    }

    /** One reader holds a view at a time: beyond the latest and the one written, no view may have been made. */
    @TearDown(Level.Trial)
    public void checkRecycled() {
        if (snapshots.viewCount() > 3) {
            throw new IllegalStateException("publish allocated views: " + snapshots.viewCount());
        }
    }
}
