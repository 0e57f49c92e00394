package dev.boxwood.bench.kernel;

import dev.boxwood.geom.FrustumAabb;
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
 * Six-plane frustum against 1024 boxes (inside, crossing and outside mixed), with every plane active. Time per box.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class FrustumAabbBenchmark {

    private final KernelData d = new KernelData(0xF0F0_B000L, 3.0, 1.0, 1.0);
    /** A view frustum looking along +x from (-2, 5, 5), 90 degrees wide, near 1, far 12. */
    private final double[] planes = {
        -1, 0, 0, 1, 1, 0, 0, 10,
        -1, 1, 0, 7, -1, -1, 0, -3,
        -1, 0, 1, 7, -1, 0, -1, -3,
    };

    /** @return sum of the returned masks, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public int cull() {
        int sum = 0;
        int all = FrustumAabb.allPlanes(6);
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += FrustumAabb.cull(planes, all, d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]);
        }
        return sum;
    }
}
