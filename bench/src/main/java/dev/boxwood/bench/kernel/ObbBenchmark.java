package dev.boxwood.bench.kernel;

import dev.boxwood.geom.ObbAabb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.ObbObb;
import dev.boxwood.geom.SegmentObb;
import java.util.SplittableRandom;
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
 * Oriented-box kernels over 1024 randomly rotated boxes in {@link ObbLayout}, each paired with the next box, a nearby
 * AABB and a segment from {@link KernelData}: the 15-axis OBB/OBB test, OBB/AABB, the six-axis segment test and
 * the enclosing AABB. Time per test.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class ObbBenchmark {

    private final KernelData d = new KernelData(0x0BB0_B000L, 2.0, 1.0, 6.0);
    private final double[] obbs = new double[(KernelData.COUNT + 1) * ObbLayout.STRIDE];
    private final double[] bounds = new double[6];

    /** Random rotations from random unit quaternions; centres and extents from the AABB data. */
    public ObbBenchmark() {
        SplittableRandom random = new SplittableRandom(0x0BB0_B001L);
        for (int i = 0; i <= KernelData.COUNT; i++) {
            int at = i * ObbLayout.STRIDE;
            int j = i % KernelData.COUNT;
            double w = random.nextGaussian();
            double x = random.nextGaussian();
            double y = random.nextGaussian();
            double z = random.nextGaussian();
            double n = Math.sqrt(w * w + x * x + y * y + z * z);
            w /= n;
            x /= n;
            y /= n;
            z /= n;
            double[] m = {
                1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
            };
            // boxes 2k and 2k + 1 lie near box 2k of the data: consecutive pairs alternate near and far
            int k = j & ~1;
            obbs[at + ObbLayout.CENTRE] = d.centreX[k] + 0.5 * (d.px[j] - d.centreX[j]);
            obbs[at + ObbLayout.CENTRE + 1] = d.centreY[k] + 0.5 * (d.py[j] - d.centreY[j]);
            obbs[at + ObbLayout.CENTRE + 2] = d.centreZ[k] + 0.5 * (d.pz[j] - d.centreZ[j]);
            System.arraycopy(m, 0, obbs, at + ObbLayout.AXES, 9);
            obbs[at + ObbLayout.HALF_EXTENTS] = 2 * d.halfX[j];
            obbs[at + ObbLayout.HALF_EXTENTS + 1] = 2 * d.halfY[j];
            obbs[at + ObbLayout.HALF_EXTENTS + 2] = 2 * d.halfZ[j];
        }
    }

    /** @return overlaps counted, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int obbObb() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += ObbObb.test(obbs, i * ObbLayout.STRIDE, obbs, (i + 1) * ObbLayout.STRIDE) ? 1 : 0;
        }
        return hits;
    }

    /** @return overlaps counted */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int obbAabb() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            int j = i & ~1;
            hits += ObbAabb.test(obbs, i * ObbLayout.STRIDE,
                    d.minX[j], d.minY[j], d.minZ[j], d.maxX[j], d.maxY[j], d.maxZ[j]) ? 1 : 0;
        }
        return hits;
    }

    /**
     * One oriented box against every box, as a region query tests it against a tree's boxes (the same axes on
     * every call, so their signs predict).
     *
     * @return overlaps counted
     */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int obbAabbOneObb() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            hits += ObbAabb.test(obbs, 0, d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]) ? 1 : 0;
        }
        return hits;
    }

    /** @return hits counted */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int segmentObb() {
        int hits = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            int j = i & ~1;
            hits += SegmentObb.test(d.px[j], d.py[j], d.pz[j], d.dx[j], d.dy[j], d.dz[j], 1.0,
                    obbs, i * ObbLayout.STRIDE) ? 1 : 0;
        }
        return hits;
    }

    /** @return sum of the enclosing bounds */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double enclose() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            ObbAabb.enclose(obbs, i * ObbLayout.STRIDE, bounds, 0);
            sum += bounds[0] + bounds[5];
        }
        return sum;
    }
}
