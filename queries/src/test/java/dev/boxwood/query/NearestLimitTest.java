package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link NearestNeighbours#squaredLimit}: the largest squared distance whose square root is at most the closed
 * {@code maxDistance}, at every magnitude, where the square is subnormal too (there it carries few bits, and
 * rounding put it above {@code maxDistance}'s own square: objects beyond the limit were reported).
 */
class NearestLimitTest {

    private static void assertLargestWithin(double maxDistance) {
        double limit = NearestNeighbours.squaredLimit(maxDistance);
        assertTrue(Math.sqrt(limit) <= maxDistance, () -> maxDistance + ": sqrt(" + limit + ") is beyond it");
        if (limit < Double.POSITIVE_INFINITY) {
            double above = Math.nextUp(limit);
            assertTrue(Math.sqrt(above) > maxDistance, () -> maxDistance + ": " + above + " is within it too");
        }
    }

    @Test
    void shouldReportNoDistanceBeyondTheLimitAtAnyMagnitude() {
        // the case found: the square rounds to 1.5e-323, whose root is 3.85e-162
        assertLargestWithin(3.6e-162);
        assertLargestWithin(3.594630840012838E-162);
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 200_000; i++) {
            // exponents from 2^-560 (squares below the smallest subnormal) to 2^520
            double d = Math.scalb(1 + random.nextDouble(), random.nextInt(-560, 520));
            assertLargestWithin(d);
        }
        for (double d : new double[] {0, Double.MIN_VALUE, 1e-170, 1.4e-154, 1.5e-154, 1, 3, Math.sqrt(3), 1e150,
            Double.POSITIVE_INFINITY}) {
            assertLargestWithin(d);
        }
        assertEquals(0.0, NearestNeighbours.squaredLimit(1e-170), "no square above 0 has a root this small");
    }
}
