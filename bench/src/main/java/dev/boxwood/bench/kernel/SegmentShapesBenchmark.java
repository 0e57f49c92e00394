package dev.boxwood.bench.kernel;

import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SegmentCapsule;
import dev.boxwood.geom.SegmentSphere;
import dev.boxwood.geom.SegmentTriangle;
import dev.boxwood.geom.SurfaceHit;
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
 * The exact-test kernels over 1024 prepared segments, each against a shape made from a box of the kernel data: the
 * sphere through the box's centre with its radius, the capsule along the box's diagonal, and the triangle across
 * three of its corners. The triangle is also cast by the plain Möller–Trumbore test (Möller and Trumbore, "Fast,
 * Minimum Storage Ray/Triangle Intersection", JGT 2(1), 1997; written here only to compare, not watertight), so the
 * cost of the watertight test is a ratio in one run. The {@code ...Surface} benchmarks time the fraction test
 * followed by the hit point and normal ({@link SurfaceHit}) for the segments that hit: what a pick pays for the one
 * hit it keeps. Time per test.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SegmentShapesBenchmark {

    private final KernelData d = new KernelData(0x5E6A_B001L, 3.0, 1.0, 6.0);
    private final SurfaceHit hit = new SurfaceHit();

    /** @return sum of fractions, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double sphere() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += SegmentSphere.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.centreX[i], d.centreY[i], d.centreZ[i], d.radius[i]);
        }
        return sum;
    }

    /** @return sum of fractions */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double capsule() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += SegmentCapsule.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i], 0.5 * d.radius[i]);
        }
        return sum;
    }

    /** @return sum of fractions */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double triangleWatertight() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += SegmentTriangle.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.minY[i], d.maxZ[i], d.minX[i], d.maxY[i],
                    d.maxZ[i]);
        }
        return sum;
    }

    /** @return sum of fractions */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double triangleMollerTrumbore() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += mollerTrumbore(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.minY[i], d.maxZ[i], d.minX[i], d.maxY[i],
                    d.maxZ[i]);
        }
        return sum;
    }

    /** Triangles per segment in the mesh benchmarks: a segment tested against a run of the data's triangles. */
    private static final int MESH = 16;

    private final SegmentTriangle.Cast cast = new SegmentTriangle.Cast();

    /** @return sum of fractions: each of 64 segments against 16 triangles, one call each */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double meshWatertight() {
        double sum = 0;
        for (int s = 0; s < KernelData.COUNT; s += MESH) {
            for (int i = s; i < s + MESH; i++) {
                sum += SegmentTriangle.intersect(d.px[s], d.py[s], d.pz[s], d.dx[s], d.dy[s], d.dz[s], 1.0,
                        d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.minY[i], d.maxZ[i], d.minX[i], d.maxY[i],
                        d.maxZ[i]);
            }
        }
        return sum;
    }

    /** @return sum of fractions: the same, each segment prepared once ({@link SegmentTriangle.Cast}) */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double meshWatertightPrepared() {
        double sum = 0;
        for (int s = 0; s < KernelData.COUNT; s += MESH) {
            SegmentTriangle.Cast c = cast.set(d.px[s], d.py[s], d.pz[s], d.dx[s], d.dy[s], d.dz[s], 1.0);
            for (int i = s; i < s + MESH; i++) {
                sum += c.intersect(d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.minY[i], d.maxZ[i], d.minX[i],
                        d.maxY[i], d.maxZ[i]);
            }
        }
        return sum;
    }

    /** @return sum of fractions: the same with Möller–Trumbore */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double meshMollerTrumbore() {
        double sum = 0;
        for (int s = 0; s < KernelData.COUNT; s += MESH) {
            for (int i = s; i < s + MESH; i++) {
                sum += mollerTrumbore(d.px[s], d.py[s], d.pz[s], d.dx[s], d.dy[s], d.dz[s], 1.0,
                        d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.minY[i], d.maxZ[i], d.minX[i], d.maxY[i],
                        d.maxZ[i]);
            }
        }
        return sum;
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private static double mollerTrumbore(double ox, double oy, double oz, double dx, double dy, double dz,
                                         double maxFraction, double ax, double ay, double az, double bx, double by,
                                         double bz, double cx, double cy, double cz) {
        double e1x = bx - ax;
        double e1y = by - ay;
        double e1z = bz - az;
        double e2x = cx - ax;
        double e2y = cy - ay;
        double e2z = cz - az;
        double px = dy * e2z - dz * e2y;
        double py = dz * e2x - dx * e2z;
        double pz = dx * e2y - dy * e2x;
        double det = e1x * px + e1y * py + e1z * pz;
        if (det == 0.0) {
            return -1.0;
        }
        double inv = 1.0 / det;
        double tx = ox - ax;
        double ty = oy - ay;
        double tz = oz - az;
        double u = (tx * px + ty * py + tz * pz) * inv;
        if (u < 0.0 || u > 1.0) {
            return -1.0;
        }
        double qx = ty * e1z - tz * e1y;
        double qy = tz * e1x - tx * e1z;
        double qz = tx * e1y - ty * e1x;
        double v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < 0.0 || u + v > 1.0) {
            return -1.0;
        }
        double t = (e2x * qx + e2y * qy + e2z * qz) * inv;
        return t >= 0.0 && t <= maxFraction ? t : -1.0;
    }

    /** @return sum of normal components, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double boxSurface() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            double t = SegmentAabb.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]);
            if (SegmentAabb.surface(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], t,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i], hit)) {
                sum += hit.normalX + hit.normalY + hit.x;
            }
        }
        return sum;
    }

    /** @return sum of normal components, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double sphereSurface() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            double t = SegmentSphere.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.centreX[i], d.centreY[i], d.centreZ[i], d.radius[i]);
            if (SegmentSphere.surface(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], t,
                    d.centreX[i], d.centreY[i], d.centreZ[i], d.radius[i], hit)) {
                sum += hit.normalX + hit.normalY + hit.x;
            }
        }
        return sum;
    }

    /** @return sum of normal components, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double triangleSurface() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            double t = SegmentTriangle.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.minY[i], d.maxZ[i], d.minX[i], d.maxY[i],
                    d.maxZ[i]);
            if (SegmentTriangle.surface(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], t,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.minY[i], d.maxZ[i], d.minX[i], d.maxY[i],
                    d.maxZ[i], hit)) {
                sum += hit.normalX + hit.normalY + hit.x;
            }
        }
        return sum;
    }

    /** @return sum of fractions, consumed by JMH */
    @Benchmark
    @OperationsPerInvocation(KernelData.COUNT)
    public double box() {
        double sum = 0;
        for (int i = 0; i < KernelData.COUNT; i++) {
            sum += SegmentAabb.intersect(d.px[i], d.py[i], d.pz[i], d.dx[i], d.dy[i], d.dz[i], 1.0,
                    d.minX[i], d.minY[i], d.minZ[i], d.maxX[i], d.maxY[i], d.maxZ[i]);
        }
        return sum;
    }
}
