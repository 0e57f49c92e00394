package dev.boxwood.bench.queries;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.RegionQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.RegionMode;
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
 * Marquee selection in an editor: the objects crossing the sub-frustum of a screen rectangle (the middle fifth of a
 * perspective view looking down on the clustered world), through the tree's convex region query against a naive
 * exact test of every object. Both use the same exact convex-versus-box test, so they select the same objects.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FrustumSelectionBenchmark {

    @Param({"100000", "1000000"})
    public int objects;

    private BoxSet boxes;
    private DynamicAabbTree tree;
    private ConvexRegion marquee;
    private PerspectiveCamera camera;
    private final TraversalStack stack = new TraversalStack();
    private final AllOverlaps selected = new AllOverlaps();

    @Setup(Level.Trial)
    public void setUp() {
        boxes = SyntheticWorld.clustered(objects, 7).boxes();
        tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        double[] b = boxes.bounds();
        double cx = 0.5 * (b[0] + b[3]);
        double cy = 0.5 * (b[1] + b[4]);
        camera = PerspectiveCamera.lookAt(cx, cy - 4000, 3000, cx, cy, 0, 0, 0, 1, 1.0, 16.0 / 9,
                1, 20000);
        marquee = camera.frustum(0.4, 0.4, 0.6, 0.6);
    }

    /** @return the number of objects selected through the tree */
    @Benchmark
    public int tree() {
        selected.reset();
        RegionQueries.queryConvex(tree, marquee, RegionMode.CROSSING, -1L, null, selected, stack);
        return selected.count();
    }

    /**
     * @return the vertex count of the marquee's region prepared from the camera: what an editor pays per update of
     *     a drag, and a tiled world per tile origin its region has not seen yet (independent of {@code objects})
     */
    @Benchmark
    public int prepareMarquee() {
        return camera.frustum(0.4, 0.4, 0.6, 0.6).vertexCount();
    }

    /** @return the number of objects selected by testing each one */
    @Benchmark
    public int naive() {
        int count = 0;
        BoxSet s = boxes;
        ConvexRegion region = marquee;
        for (int i = 0, n = s.size(); i < n; i++) {
            if (region.testBox(s.minX[i], s.minY[i], s.minZ[i], s.maxX[i], s.maxY[i], s.maxZ[i])) {
                count++;
            }
        }
        return count;
    }
}
