package dev.boxwood.geom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class GeomMidpointTest {

    @Test
    void shouldStayInsideTheRangeFromSubnormalsToTheDoubleRange() {
        double[][] cases = {
            {Double.MIN_VALUE, Double.MIN_VALUE, Double.MIN_VALUE},
            {3 * Double.MIN_VALUE, 3 * Double.MIN_VALUE, 3 * Double.MIN_VALUE},
            {Double.MIN_VALUE, 2 * Double.MIN_VALUE, 2 * Double.MIN_VALUE}, // 1.5 ulps, to even
            {1.4e308, 1.6e308, 1.5e308},
            {-Double.MAX_VALUE, Double.MAX_VALUE, 0},
            {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE},
            {-1, 1, 0},
            {2, 5, 3.5}};
        for (double[] c : cases) {
            assertEquals(c[2], Geom.midpoint(c[0], c[1]), c[0] + " .. " + c[1]);
        }
    }

    @Test
    void shouldBeTheExactMidpointRoundedOnceOrItsNeighbourAtAnyScale() {
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 100_000; i++) {
            double a = randomDouble(random);
            double b = randomDouble(random);
            double min = Math.min(a, b);
            double max = Math.max(a, b);
            double m = Geom.midpoint(min, max);
            assertTrue(min <= m && m <= max, min + " .. " + max + " gave " + m);
            BigDecimal exact = new BigDecimal(min).add(new BigDecimal(max)).multiply(new BigDecimal("0.5"));
            double nearest = exact.round(MathContext.DECIMAL128).doubleValue();
            assertTrue(Math.abs(m - nearest) <= Math.ulp(nearest), min + " .. " + max + ": " + m + " vs " + nearest);
        }
    }

    private static double randomDouble(SplittableRandom random) {
        // every binade, both signs, subnormals and the top of the range included
        double scaled = Math.scalb(1.0 + random.nextDouble(), random.nextInt(-1075, 1024));
        double magnitude = Math.min(Double.MAX_VALUE, scaled);
        return random.nextBoolean() ? magnitude : -magnitude;
    }
}
