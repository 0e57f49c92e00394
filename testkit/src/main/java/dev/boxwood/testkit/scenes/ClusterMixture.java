package dev.boxwood.testkit.scenes;

import java.util.SplittableRandom;

/**
 * The x,y distribution of {@link SyntheticWorld}, in canonical metres: with probability
 * {@code background} a uniform point of the {@code width x depth} rectangle, otherwise a point of one of
 * the Gaussian clusters (equal weights), redrawn until it falls inside the rectangle.
 */
final class ClusterMixture {

    private final double width;
    private final double depth;
    private final double background;
    private final double[] centerX;
    private final double[] centerY;
    private final double[] sigma;

    /** Draws {@code clusters} centres uniformly and their sigmas log-uniformly in {@code [sigmaMin, sigmaMax)}. */
    ClusterMixture(SplittableRandom random, double width, double depth, int clusters, double sigmaMin,
            double sigmaMax, double background) {
        this.width = width;
        this.depth = depth;
        this.background = clusters == 0 ? 1 : background;
        centerX = new double[clusters];
        centerY = new double[clusters];
        sigma = new double[clusters];
        for (int c = 0; c < clusters; c++) {
            centerX[c] = random.nextDouble() * width;
            centerY[c] = random.nextDouble() * depth;
            sigma[c] = Sampling.logUniform(random, sigmaMin, sigmaMax);
        }
    }

    /** Writes a sampled canonical {@code (x, y)} into {@code dest[0], dest[1]}. */
    void sample(SplittableRandom random, double[] dest) {
        if (random.nextDouble() < background) {
            dest[0] = random.nextDouble() * width;
            dest[1] = random.nextDouble() * depth;
            return;
        }
        int c = random.nextInt(centerX.length);
        double x;
        double y;
        do {
            x = centerX[c] + sigma[c] * Sampling.gaussian(random);
            y = centerY[c] + sigma[c] * Sampling.gaussian(random);
        } while (x < 0 || x > width || y < 0 || y > depth);
        dest[0] = x;
        dest[1] = y;
    }
}
