package dev.boxwood.bench.queries;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.SweepQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * Swept closest hit on the clustered world: a 2 m cube ({@link SweepQueries#sweepBox}) and a sphere of 2 m
 * diameter ({@link SweepQueries#sweepSphere}) moving {@value #DISPLACEMENT} m over the frame, into a reused
 * {@link ClosestHit}. Starts are drawn like the box centres and directions like {@link SyntheticWorld#segments}
 * (uniform azimuth, elevation within 8 degrees), so a shape may start touching an object (time 0). Time per sweep.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
public class SweepQueryBenchmark {

    private static final int SWEEPS = 1024;
    /** Half the edge of the swept cube and the sphere's radius, in metres. */
    private static final double HALF_SIZE = 1.0;
    /** Length of the displacement over the frame, in metres. */
    private static final double DISPLACEMENT = 50.0;

    /** Number of objects in the world. */
    @Param({"100000", "1000000"})
    public int n;

    private DynamicAabbTree tree;
    private final double[] starts = new double[3 * SWEEPS];
    private final double[] displacements = new double[3 * SWEEPS];
    private final ClosestHit closest = new ClosestHit();
    private final TraversalStack stack = new TraversalStack();

    @Setup(Level.Trial)
    public void setUp() {
        SyntheticWorld world = SyntheticWorld.clustered(n, 17);
        tree = DynamicAabbTree.build(TreeConfig.defaults(), world.boxes().toInterleaved(), null, null);
        SegmentSet s = world.segments(SWEEPS, 18);
        for (int q = 0; q < SWEEPS; q++) {
            double scale = DISPLACEMENT / Math.sqrt(s.translationX[q] * s.translationX[q]
                    + s.translationY[q] * s.translationY[q] + s.translationZ[q] * s.translationZ[q]);
            starts[3 * q] = s.originX[q];
            starts[3 * q + 1] = s.originY[q];
            starts[3 * q + 2] = s.originZ[q];
            displacements[3 * q] = s.translationX[q] * scale;
            displacements[3 * q + 1] = s.translationY[q] * scale;
            displacements[3 * q + 2] = s.translationZ[q] * scale;
        }
    }

    /** Closest hit of a 2 m cube swept over each prepared displacement. */
    @Benchmark
    @OperationsPerInvocation(SWEEPS)
    public void sweepBox(Blackhole sink) {
        double h = HALF_SIZE;
        for (int q = 0; q < SWEEPS; q++) {
            double x = starts[3 * q];
            double y = starts[3 * q + 1];
            double z = starts[3 * q + 2];
            SweepQueries.sweepBox(tree, x - h, y - h, z - h, x + h, y + h, z + h, displacements[3 * q],
                    displacements[3 * q + 1], displacements[3 * q + 2], -1L, closest, stack);
            sink.consume(closest.handle());
        }
    }

    /** Closest hit of a sphere of 2 m diameter swept over each prepared displacement. */
    @Benchmark
    @OperationsPerInvocation(SWEEPS)
    public void sweepSphere(Blackhole sink) {
        for (int q = 0; q < SWEEPS; q++) {
            SweepQueries.sweepSphere(tree, starts[3 * q], starts[3 * q + 1], starts[3 * q + 2], HALF_SIZE,
                    displacements[3 * q], displacements[3 * q + 1], displacements[3 * q + 2], -1L, closest, stack);
            sink.consume(closest.handle());
        }
    }
}
