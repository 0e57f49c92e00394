package dev.boxwood.bench.kernel;

import dev.boxwood.geom.SegmentAabb;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Segment against AABB over 1024 prepared segment/box pairs (about a third hit; some direction components zero):
 * the slab test with division ({@code intersect}), with precomputed inverses ({@code intersectInverse}, the tree's
 * inner loop: one segment, many boxes), without any division ({@code testDivisionFree}) and the six-axis
 * separating-axis form ({@code testSeparatingAxes}). Time per test.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SegmentAabbBenchmark {

    private final KernelData d = new KernelData(0x5E6A_B000L, 3.0, 1.0, 6.0);
    private final double[] invX = new double[KernelData.COUNT];
    private final double[] invY = new double[KernelData.COUNT];
    private final double[] invZ = new double[KernelData.COUNT];

    /** Precomputes the inverses, as a tree does once per query. */
    public SegmentAabbBenchmark() {
        for (int i = 0; i < KernelData.COUNT; i++) {
            invX[i] = SegmentAabb.inverse(d.dx[i]);
            invY[i] = SegmentAabb.inverse(d.dy[i]);
            invZ[i] = SegmentAabb.inverse(d.dz[i]);
        }
    }

    /** @return sum of fractions, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double intersect() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += SegmentAabb.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]);
        }
        return sum;
    }

    /** @return sum of fractions */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double intersectInverse() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += SegmentAabb.intersectInverse(d.px[i], d.py[i], d.pz[i], invX[i], invY[i], invZ[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]);
        }
        return sum;
    }

    /** @return hits counted */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int testDivisionFree() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SegmentAabb.testDivisionFree(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }

    /** @return hits counted */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int testSeparatingAxes() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SegmentAabb.testSeparatingAxes(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }
}
