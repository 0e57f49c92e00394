package dev.boxwood.geom2d;

import java.util.SplittableRandom;

/**
 * Seeded random shapes for the differential tests, at one of four scales:
 * <ul>
 *   <li>{@code UNIT}: coordinates in about [-1, 1];</li>
 *   <li>{@code FAR}: the same local layout (features about 10 units across) placed at 1e5..1e6 from the origin, on
 *       either side;</li>
 *   <li>{@code GRID} and {@code GRID_FAR}: small integer coordinates, alone or offset by a large integer. Every
 *       difference and product of two differences is exact on them, so touching, collinear and degenerate cases
 *       are frequent and many kernels decide them exactly.</li>
 * </ul>
 */
final class CaseGenerator {

    enum Scale { UNIT, FAR, GRID, GRID_FAR }

    private final SplittableRandom random;
    private final Scale scale;
    private double baseX;
    private double baseY;
    private double span;

    CaseGenerator(long seed, Scale scale) {
        this.random = new SplittableRandom(seed);
        this.scale = scale;
    }

    boolean isGrid() {
        return scale == Scale.GRID || scale == Scale.GRID_FAR;
    }

    /** Starts a new case: picks its base point. */
    void next() {
        switch (scale) {
            case UNIT -> {
                baseX = 0;
                baseY = 0;
                span = 1;
            }
            case FAR -> {
                baseX = farCoordinate();
                baseY = farCoordinate();
                span = 10;
            }
            case GRID -> {
                baseX = 0;
                baseY = 0;
                span = 6;
            }
            case GRID_FAR -> {
                baseX = Math.rint(farCoordinate());
                baseY = Math.rint(farCoordinate());
                span = 6;
            }
        }
    }

    private double farCoordinate() {
        double v = 1e5 + random.nextDouble() * 9e5;
        return random.nextBoolean() ? v : -v;
    }

    double x() {
        return baseX + local();
    }

    double y() {
        return baseY + local();
    }

    private double local() {
        return isGrid() ? random.nextInt(-(int) span, (int) span + 1) : (random.nextDouble() * 2 - 1) * span;
    }

    boolean coin() {
        return random.nextBoolean();
    }

    /** A length (radius, half extent), zero now and then. */
    double size() {
        if (random.nextInt(20) == 0) {
            return 0;
        }
        return isGrid() ? random.nextInt(0, 5) : random.nextDouble() * span;
    }

    /** A translation component. */
    double delta() {
        if (random.nextInt(20) == 0) {
            return 0;
        }
        return isGrid() ? random.nextInt(-8, 9) : (random.nextDouble() * 2 - 1) * 2 * span;
    }

    /**
     * A maxFraction: 1 on grids (so end points stay on the grid), else a multiple of 1/8 in [0, 2], short in
     * binary so that the exact end point {@code origin + maxFraction * translation} stays cheap for the reference.
     */
    double maxFraction() {
        return isGrid() ? 1 : random.nextInt(0, 17) / 8.0;
    }

    /**
     * Three vertices {ax, ay, bx, by, cx, cy}: mostly random, sometimes degenerate (a repeated vertex or, off the
     * grid, three collinear points of the form a + k (b - a)).
     */
    double[] triangle() {
        double ax = x();
        double ay = y();
        double bx = x();
        double by = y();
        int kind = random.nextInt(20);
        if (kind == 0) {
            return new double[] {ax, ay, bx, by, ax, ay};
        }
        if (kind == 1) {
            return new double[] {ax, ay, ax, ay, ax, ay};
        }
        if (kind == 2 && !isGrid()) {
            double k = random.nextDouble() * 3 - 1;
            return new double[] {ax, ay, bx, by, ax + k * (bx - ax), ay + k * (by - ay)};
        }
        return new double[] {ax, ay, bx, by, x(), y()};
    }

    /** A circle {centerX, centerY, radius}. */
    double[] circle() {
        return new double[] {x(), y(), size()};
    }

    /** A rectangle {minX, minY, maxX, maxY}. */
    double[] rect() {
        double x0 = x();
        double y0 = y();
        return new double[] {x0, y0, x0 + size() * 2, y0 + size() * 2};
    }

    /** The largest coordinate magnitude of the case, the unit of its rounding errors. */
    double magnitude() {
        return Math.max(Math.abs(baseX), Math.abs(baseY)) + 4 * span;
    }
}
