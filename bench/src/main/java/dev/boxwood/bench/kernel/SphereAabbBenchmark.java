package dev.boxwood.bench.kernel;

import dev.boxwood.geom.SphereAabb;
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
 * The five sphere/AABB variants of Zuo's circle-AABB summary over the same 1024 prepared sphere/box pairs (about 60%
 * overlap). {@code SphereAabb.test} must compute the fastest; {@code canonical} measures it, with its second look at
 * a miss within rounding. Time per test.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SphereAabbBenchmark {

    private final KernelData d = new KernelData(0x5A5A_B000L, 1.5, 2.0, 1.0);

    /** @return overlaps counted, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int arvo() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SphereAabb.testArvo(d.px[i], d.py[i], d.pz[i], d.radius[i],
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }

    /** @return overlaps counted */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int quickRejectInterleaved() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SphereAabb.testQuickRejectInterleaved(d.px[i], d.py[i], d.pz[i], d.radius[i],
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }

    /** @return overlaps counted */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int quickRejectFirst() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SphereAabb.testQuickRejectFirst(d.px[i], d.py[i], d.pz[i], d.radius[i],
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }

    /** @return overlaps counted */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int branchFree() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SphereAabb.testBranchFree(d.px[i], d.py[i], d.pz[i], d.radius[i],
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }

    /** @return overlaps counted (boxes in centre/extent form, the variant's native input) */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int centreExtent() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SphereAabb.testCentreExtent(d.px[i], d.py[i], d.pz[i], d.radius[i],
                    d.centreX[i], d.centreY[i], d.centreZ[i], d.halfX[i], d.halfY[i], d.halfZ[i]) ? 1 : 0;
        }
        return hits;
    }

    /** @return overlaps counted through the canonical entry point */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int canonical() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += SphereAabb.test(d.px[i], d.py[i], d.pz[i], d.radius[i],
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }
}
