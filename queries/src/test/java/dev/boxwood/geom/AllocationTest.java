package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The kernels allocate nothing: after warm-up (so the calls are compiled), a loop over every kernel must not
 * change the thread's allocated-bytes counter. No slack is allowed; the measurement itself allocates nothing once
 * the MXBean is obtained.
 */
class AllocationTest {

    private static final int N = 1024;

    private final double[] values = new double[N * 16];
    private final double[] obbs = new double[2 * ObbLayout.STRIDE];
    private final double[] planes = {1, 0, 0, 1, -1, 0, 0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 0, 1, 1, 0, 0, -1, 1};
    private final double[] bounds = new double[6];
    private final SweepResult result = new SweepResult();
    private final SurfaceHit surface = new SurfaceHit();

    @Test
    void shouldNotAllocateInAnyKernel() {
        SplittableRandom random = new SplittableRandom(0xA110_0001L);
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextDouble(-2, 2);
        }
        new Obb(0, 0, 0, 1, 0, 0, 0, 0.6, 0.8, 0, -0.8, 0.6, 1, 2, 0.5).writeTo(obbs, 0);
        new Obb(1, 1, 0, 0.6, 0.8, 0, -0.8, 0.6, 0, 0, 0, 1, 0.5, 1, 1).writeTo(obbs, ObbLayout.STRIDE);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        double sum = 0;
        for (int round = 0; round < 20; round++) {
            sum += run();
        }
        // up to ten windows: a one-off runtime allocation does not repeat, an allocation per call does
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = threads.getThreadAllocatedBytes(thread);
            for (int round = 0; round < 5; round++) {
                sum += run();
            }
            allocated = threads.getThreadAllocatedBytes(thread) - before;
        }
        assertTrue(sum != 0, "results are consumed");
        assertEquals(0, allocated, "bytes allocated by the kernels");
    }

    private double run() {
        double sum = 0;
        double[] v = values;
        for (int i = 0; i < N; i++) {
            int k = i * 16;
            double minX = Math.min(v[k], v[k + 3]);
            double maxX = Math.max(v[k], v[k + 3]);
            double minY = Math.min(v[k + 1], v[k + 4]);
            double maxY = Math.max(v[k + 1], v[k + 4]);
            double minZ = Math.min(v[k + 2], v[k + 5]);
            double maxZ = Math.max(v[k + 2], v[k + 5]);
            double ox = v[k + 6];
            double oy = v[k + 7];
            double oz = v[k + 8];
            double dx = v[k + 9];
            double dy = v[k + 10];
            double dz = v[k + 11];
            double r = Math.abs(v[k + 12]);
            sum += SegmentAabb.intersect(ox, oy, oz, dx, dy, dz, 1, minX, minY, minZ, maxX, maxY, maxZ);
            sum += SegmentAabb.intersectInverse(ox, oy, oz, SegmentAabb.inverse(dx), SegmentAabb.inverse(dy),
                    SegmentAabb.inverse(dz), 1, minX, minY, minZ, maxX, maxY, maxZ);
            SegmentAabb.intersectInverse(ox, oy, oz, 1 / dx, 1 / dy, 1 / dz, 1, minX, minY, minZ, maxX, maxY, maxZ,
                    result);
            sum += result.last;
            sum += SegmentAabb.testDivisionFree(ox, oy, oz, dx, dy, dz, 1, minX, minY, minZ, maxX, maxY, maxZ) ? 1 : 0;
            sum += SegmentAabb.testSeparatingAxes(ox, oy, oz, dx, dy, dz, 1, minX, minY, minZ, maxX, maxY, maxZ)
                    ? 1 : 0;
            sum += SphereAabb.test(ox, oy, oz, r, minX, minY, minZ, maxX, maxY, maxZ) ? 1 : 0;
            sum += SphereAabb.testArvo(ox, oy, oz, r, minX, minY, minZ, maxX, maxY, maxZ) ? 1 : 0;
            sum += SphereAabb.testQuickRejectInterleaved(ox, oy, oz, r, minX, minY, minZ, maxX, maxY, maxZ) ? 1 : 0;
            sum += SphereAabb.testQuickRejectFirst(ox, oy, oz, r, minX, minY, minZ, maxX, maxY, maxZ) ? 1 : 0;
            sum += SphereAabb.testBranchFree(ox, oy, oz, r, minX, minY, minZ, maxX, maxY, maxZ) ? 1 : 0;
            sum += SphereAabb.testCentreExtent(ox, oy, oz, r, minX, minY, minZ, maxX - minX, maxY - minY,
                    maxZ - minZ) ? 1 : 0;
            sum += AabbAabb.test(minX, minY, minZ, maxX, maxY, maxZ, ox, oy, oz, ox + r, oy + r, oz + r) ? 1 : 0;
            sum += AabbAabb.testCentreExtent(minX, minY, minZ, r, r, r, ox, oy, oz, r, r, r) ? 1 : 0;
            AabbAabb.sweep(minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz, ox, oy, oz, ox + r, oy + r, oz + r,
                    0, 0, 0, result);
            sum += result.first;
            SphereSphere.sweep(ox, oy, oz, r, dx, dy, dz, minX, minY, minZ, r, 0, 0, 0, result);
            sum += result.first + (SphereSphere.test(ox, oy, oz, r, minX, minY, minZ, r) ? 1 : 0);
            sum += SegmentSphere.intersect(ox, oy, oz, dx, dy, dz, 1, minX, minY, minZ, r);
            sum += SegmentCapsule.intersect(ox, oy, oz, dx, dy, dz, 1, minX, minY, minZ, maxX, maxY, maxZ, r);
            sum += SegmentTriangle.intersect(ox, oy, oz, dx, dy, dz, 1, minX, minY, minZ, maxX, minY, minZ, minX, maxY,
                    maxZ);
            SpherePlane.sweep(ox, oy, oz, r, dx, dy, dz, 0, 0, 1, minZ, result);
            sum += result.first + (SpherePlane.test(ox, oy, oz, r, 0, 0, 1, minZ) ? 1 : 0);
            sum += AabbPlane.classify(minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz, r);
            sum += AabbPlane.test(minX, minY, minZ, maxX, maxY, maxZ, dx, dy, dz, r) ? 1 : 0;
            sum += FrustumAabb.cull(planes, FrustumAabb.allPlanes(6), minX, minY, minZ, maxX, maxY, maxZ);
            sum += FrustumAabb.classify(planes, 6, minX, minY, minZ, maxX, maxY, maxZ);
            sum += SegmentConvex.intersect(ox, oy, oz, dx, dy, dz, 1, planes, 6);
            sum += ObbObb.test(obbs, 0, obbs, ObbLayout.STRIDE) ? 1 : 0;
            sum += ObbAabb.test(obbs, 0, minX, minY, minZ, maxX, maxY, maxZ) ? 1 : 0;
            ObbAabb.enclose(obbs, ObbLayout.STRIDE, bounds, 0);
            sum += bounds[0];
            sum += SegmentObb.test(ox, oy, oz, dx, dy, dz, 1, obbs, 0) ? 1 : 0;
            double t = Math.abs(r);
            SegmentAabb.surface(ox, oy, oz, dx, dy, dz, t, minX, minY, minZ, maxX, maxY, maxZ, surface);
            sum += surface.normalX + surface.x;
            SegmentSphere.surface(ox, oy, oz, dx, dy, dz, t, minX, minY, minZ, r, surface);
            sum += surface.normalY;
            SegmentCapsule.surface(ox, oy, oz, dx, dy, dz, t, minX, minY, minZ, maxX, maxY, maxZ, r, surface);
            sum += surface.normalZ;
            SegmentTriangle.surface(ox, oy, oz, dx, dy, dz, t, minX, minY, minZ, maxX, minY, minZ, minX, maxY, maxZ,
                    surface);
            sum += surface.normalX;
            SegmentConvex.surface(ox, oy, oz, dx, dy, dz, t * (i & 1), planes, 6, surface);
            sum += surface.normalY + (surface.startInside ? 1 : 0);
            // starts (fraction 0: inside, or on the surface) and misses
            double start = (i & 3) == 0 ? Geom.NO_HIT : 0;
            SegmentAabb.surface(ox, oy, oz, dx, dy, dz, start, minX, minY, minZ, maxX, maxY, maxZ, surface);
            SegmentSphere.surface(ox, oy, oz, dx, dy, dz, start, minX, minY, minZ, r, surface);
            SegmentCapsule.surface(ox, oy, oz, dx, dy, dz, start, minX, minY, minZ, maxX, maxY, maxZ, r, surface);
            sum += surface.normalX + (surface.startInside ? 1 : 0);
        }
        return sum;
    }
}
