package dev.boxwood.bench.kernel;

import java.util.SplittableRandom;

/** Seeded random inputs shared by the kernel benchmarks: boxes, points, directions, radii, flat arrays. */
final class KernelData {

    /** Inputs per benchmark invocation; small enough to stay in L1/L2. */
    static final int COUNT = 1024;

    final double[] minX = new double[COUNT];
    final double[] minY = new double[COUNT];
    final double[] minZ = new double[COUNT];
    final double[] maxX = new double[COUNT];
    final double[] maxY = new double[COUNT];
    final double[] maxZ = new double[COUNT];
    final double[] centreX = new double[COUNT];
    final double[] centreY = new double[COUNT];
    final double[] centreZ = new double[COUNT];
    final double[] halfX = new double[COUNT];
    final double[] halfY = new double[COUNT];
    final double[] halfZ = new double[COUNT];
    final double[] px = new double[COUNT];
    final double[] py = new double[COUNT];
    final double[] pz = new double[COUNT];
    final double[] dx = new double[COUNT];
    final double[] dy = new double[COUNT];
    final double[] dz = new double[COUNT];
    final double[] radius = new double[COUNT];

    /**
     * Boxes in a 10-unit cube (sizes up to 2), points within {@code spread} of each box centre per axis, radii up
     * to {@code maxRadius}, directions up to {@code maxDirection} per axis (some components zero), half of them aimed
     * near the box centre: a mix of hits and misses.
     */
    KernelData(long seed, double spread, double maxRadius, double maxDirection) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < COUNT; i++) {
            // box coordinates on a 2^-10 grid so min/max and centre/extent describe the same box exactly
            minX[i] = grid(random.nextDouble(0, 10));
            minY[i] = grid(random.nextDouble(0, 10));
            minZ[i] = grid(random.nextDouble(0, 10));
            maxX[i] = minX[i] + grid(random.nextDouble(0, 2));
            maxY[i] = minY[i] + grid(random.nextDouble(0, 2));
            maxZ[i] = minZ[i] + grid(random.nextDouble(0, 2));
            centreX[i] = 0.5 * (minX[i] + maxX[i]);
            centreY[i] = 0.5 * (minY[i] + maxY[i]);
            centreZ[i] = 0.5 * (minZ[i] + maxZ[i]);
            halfX[i] = 0.5 * (maxX[i] - minX[i]);
            halfY[i] = 0.5 * (maxY[i] - minY[i]);
            halfZ[i] = 0.5 * (maxZ[i] - minZ[i]);
            px[i] = centreX[i] + random.nextDouble(-spread, spread);
            py[i] = centreY[i] + random.nextDouble(-spread, spread);
            pz[i] = centreZ[i] + random.nextDouble(-spread, spread);
            if (random.nextBoolean()) {
                double scale = random.nextDouble(0.8, 2.0);
                dx[i] = (centreX[i] + random.nextDouble(-0.5, 0.5) - px[i]) * scale;
                dy[i] = (centreY[i] + random.nextDouble(-0.5, 0.5) - py[i]) * scale;
                dz[i] = (centreZ[i] + random.nextDouble(-0.5, 0.5) - pz[i]) * scale;
            } else {
                dx[i] = random.nextDouble(-maxDirection, maxDirection);
                dy[i] = random.nextDouble(-maxDirection, maxDirection);
                dz[i] = random.nextDouble(-maxDirection, maxDirection);
            }
            dx[i] = random.nextInt(10) == 0 ? 0 : dx[i];
            radius[i] = random.nextDouble(0, maxRadius);
        }
    }

    private static double grid(double v) {
        return Math.rint(v * 1024) / 1024;
    }
}
