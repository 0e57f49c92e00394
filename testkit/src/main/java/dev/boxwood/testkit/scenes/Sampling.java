package dev.boxwood.testkit.scenes;

import java.util.SplittableRandom;

/** Random variates built only on {@link SplittableRandom#nextDouble()}, so results do not depend on the JDK. */
final class Sampling {

    private Sampling() {
    }

    /** Standard normal variate, Marsaglia's polar method (Marsaglia and Bray 1964); the second variate is dropped. */
    static double gaussian(SplittableRandom random) {
        double u;
        double v;
        double s;
        do {
            u = 2 * random.nextDouble() - 1;
            v = 2 * random.nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        return u * Math.sqrt(-2 * Math.log(s) / s);
    }

    /** Log-uniform variate in {@code [lo, hi)}: uniform in {@code log}. */
    static double logUniform(SplittableRandom random, double lo, double hi) {
        return lo * Math.exp(random.nextDouble() * Math.log(hi / lo));
    }

    /** Uniform variate in {@code [lo, hi)}. */
    static double uniform(SplittableRandom random, double lo, double hi) {
        return lo + (hi - lo) * random.nextDouble();
    }

    static void requireCount(int count, String name) {
        if (count < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + count);
        }
    }
}
