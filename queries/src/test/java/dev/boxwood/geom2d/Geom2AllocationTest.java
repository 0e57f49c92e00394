package dev.boxwood.geom2d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The kernels allocate nothing: a warm loop over all of them leaves the thread's allocation counter unchanged. */
class Geom2AllocationTest {

    private final Vector2 point = new Vector2();
    private final Hit2 hit = new Hit2();
    private final SegmentHit2 through = new SegmentHit2();
    private final dev.boxwood.geom.SurfaceHit surface = new dev.boxwood.geom.SurfaceHit();
    private final double[] input = new double[4096];
    private double sink;

    private void loop(int rounds) {
        int n = input.length - 16;
        for (int r = 0; r < rounds; r++) {
            int i = r % n;
            double[] v = input;
            double a = v[i];
            double b = v[i + 1];
            double c = v[i + 2];
            double d = v[i + 3];
            double e = v[i + 4];
            double f = v[i + 5];
            double g = v[i + 6];
            double h = v[i + 7];
            double k = v[i + 8];
            double m = v[i + 9];
            double o = v[i + 10];
            double p = v[i + 11];
            double minX = Math.min(e, f);
            double maxX = Math.max(e, f);
            double minY = Math.min(g, h);
            double maxY = Math.max(g, h);
            double radius = Math.abs(c);
            int count = 0;
            count += Intersect2.testPointCircle(a, b, c, d, radius) ? 1 : 0;
            count += Intersect2.testPointRect(a, b, minX, minY, maxX, maxY) ? 1 : 0;
            count += Intersect2.testPointTriangle(a, b, c, d, e, f, g, h) ? 1 : 0;
            count += Intersect2.testCircleCircle(a, b, radius, c, d, Math.abs(e)) ? 1 : 0;
            count += Intersect2.testCircleRect(a, b, radius, minX, minY, maxX, maxY) ? 1 : 0;
            count += Intersect2.testCircleTriangle(a, b, radius, c, d, e, f, g, h) ? 1 : 0;
            count += Intersect2.testRectRect(minX, minY, maxX, maxY, a, b, a + radius, b + radius) ? 1 : 0;
            count += Intersect2.testTriangleTriangle(a, b, c, d, e, f, g, h, k, m, o, p) ? 1 : 0;
            double sum = count;
            sum += Intersect2.intersectSegmentSegment(a, b, c, d, 1, e, f, g, h, hit);
            sum += Intersect2.intersectSegmentCircle(a, b, c, d, 1, e, f, radius, through);
            sum += Intersect2.intersectSegmentRect(a, b, c, d, 1, minX, minY, maxX, maxY, through);
            Intersect2.surfaceSegmentRect(a, b, c, d, Math.abs(e), minX, minY, maxX, maxY, surface);
            Intersect2.surfaceSegmentCircle(a, b, c, d, Math.abs(f), e, f, Math.abs(g), surface);
            Intersect2.surfaceSegmentSegment(a, b, c, d, Math.abs(h), e, f, g, h, surface);
            sum += surface.normalX + surface.y;
            sum += Closest2.closestPointSegment(a, b, c, d, e, f, point);
            sum += Closest2.closestPointCircle(a, b, c, d, radius, point);
            sum += Closest2.closestPointRect(a, b, minX, minY, maxX, maxY, point);
            sum += Closest2.closestPointTriangle(a, b, c, d, e, f, g, h, point);
            sum += Response2.pushOutCircleRect(a, b, radius, minX, minY, maxX, maxY, point) ? 1 : 0;
            sum += Geom2.orient(a, b, c, d, e, f);
            sink += sum;
        }
    }

    @Test
    void shouldNotAllocateInAnyKernel() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assertTrue(bean instanceof com.sun.management.ThreadMXBean, "allocation counter unavailable");
        com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean) bean;
        SplittableRandom random = new SplittableRandom(41);
        for (int i = 0; i < input.length; i++) {
            // small integers make touching and degenerate cases common, so every branch runs
            input[i] = random.nextInt(8) == 0 ? 0 : random.nextInt(-4, 5) * 0.5;
        }
        long thread = Thread.currentThread().getId();
        for (int warm = 0; warm < 10; warm++) {
            loop(10_000);
        }
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = counter.getThreadAllocatedBytes(thread);
            loop(50_000);
            allocated = counter.getThreadAllocatedBytes(thread) - before;
        }
        assertEquals(0, allocated, "bytes allocated by 50000 rounds of every kernel");
        assertTrue(!Double.isNaN(sink), "a kernel returned NaN"); // also keeps the results alive
    }
}
