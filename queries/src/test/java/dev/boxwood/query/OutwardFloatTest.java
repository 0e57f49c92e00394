package dev.boxwood.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The outward rounding against its definition: the nearest float, stepped once with Math.nextDown/nextUp when it overshot. */
class OutwardFloatTest {

    private static final double[] SPECIAL = {
        0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, 1e-46, -1e-46, 1e-45, -1e-45, Float.MIN_VALUE,
        -Float.MIN_VALUE, Float.MIN_NORMAL, -Float.MIN_NORMAL, Math.nextDown((double) Float.MIN_NORMAL),
        Float.MAX_VALUE, -Float.MAX_VALUE, 3.5e38, -3.5e38, Double.MAX_VALUE, -Double.MAX_VALUE,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -1.0, 0.1, -0.1, Math.nextUp(1.0),
        Math.nextDown(1.0), Math.nextDown(-1.0), 16_777_217.0, -16_777_217.0, 1e6 + 0.3, -1e6 - 0.3
    };

    private static float referenceDown(double v) {
        float f = (float) v;
        return f > v ? Math.nextDown(f) : f;
    }

    private static float referenceUp(double v) {
        float f = (float) v;
        return f < v ? Math.nextUp(f) : f;
    }

    private static void check(double v) {
        assertEquals(Float.floatToRawIntBits(referenceDown(v)), Float.floatToRawIntBits(OutwardFloat.down(v)),
                () -> "down(" + v + ")");
        assertEquals(Float.floatToRawIntBits(referenceUp(v)), Float.floatToRawIntBits(OutwardFloat.up(v)),
                () -> "up(" + v + ")");
    }

    @Test
    void specialValuesMatchTheDefinition() {
        for (double v : SPECIAL) {
            check(v);
        }
        assertTrue(Float.isNaN(OutwardFloat.down(Double.NaN)));
        assertTrue(Float.isNaN(OutwardFloat.up(Double.NaN)));
        assertEquals(-Float.MIN_VALUE, OutwardFloat.down(-1e-300));
        assertEquals(Float.MIN_VALUE, OutwardFloat.up(1e-300));
        assertEquals(Float.MAX_VALUE, OutwardFloat.down(1e300));
        assertEquals(-Float.MAX_VALUE, OutwardFloat.up(-1e300));
    }

    @Test
    void randomValuesMatchTheDefinitionAndBracketTheInput() {
        SplittableRandom random = new SplittableRandom(20261125);
        for (int i = 0; i < 2_000_000; i++) {
            double v = switch (i & 3) {
                case 0 -> (random.nextDouble() - 0.5) * 2e4;
                case 1 -> Double.longBitsToDouble(random.nextLong());
                case 2 -> (float) ((random.nextDouble() - 0.5) * 1e3);
                default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-50, 50));
            };
            if (Double.isNaN(v)) {
                continue;
            }
            check(v);
            if (i % 1000 == 0 && Double.isFinite(v) && Math.abs(v) < Float.MAX_VALUE) {
                // exact comparison: the stored bounds bracket the input and are adjacent floats or equal
                BigDecimal exact = new BigDecimal(v);
                float lo = OutwardFloat.down(v);
                float hi = OutwardFloat.up(v);
                assertTrue(new BigDecimal(lo).compareTo(exact) <= 0, () -> "down above " + v);
                assertTrue(new BigDecimal(hi).compareTo(exact) >= 0, () -> "up below " + v);
                assertTrue(lo == hi || Math.nextUp(lo) == hi, () -> "not adjacent around " + v);
            }
        }
    }

    @Test
    void rebasedBoundsWhoseExactShiftIsWithinTheLimitAreKeptAtIt() {
        float m = OutwardFloat.MAX_STORED;
        // one unit nearer: the exact shift is inside the range, its half-step reach rounds one float beyond it
        assertEquals(m, OutwardFloat.rebaseUp(m, 0, 1));
        assertEquals(-m, OutwardFloat.rebaseDown(-m, 0, -1));
        assertEquals(m, OutwardFloat.rebaseUp(m, 0x1p60, 0x1p60 + 256), "from a far origin too");
        // farther, or beyond the range by the exact shift itself: left beyond, for the caller to refuse
        assertTrue(OutwardFloat.rebaseUp(m, 0, -1) > m);
        assertTrue(OutwardFloat.rebaseDown(-m, 0, 1) < -m);
        assertTrue(OutwardFloat.rebaseUp(Math.nextDown(m), 0, -1e12) > m);
    }

    @Test
    void storableMeansWithinTheLimitOfTheOrigin() {
        assertTrue(OutwardFloat.storable(1e18, 0));
        assertTrue(OutwardFloat.storable(-1e18, 0));
        // up to 1e18 rounded up to a float, so that stored boxes can be given back
        assertTrue(OutwardFloat.storable(Math.nextUp(1e18), 0));
        assertTrue(OutwardFloat.storable(OutwardFloat.MAX_STORED, 0));
        assertTrue(OutwardFloat.storable(-OutwardFloat.MAX_STORED, 0));
        assertTrue(!OutwardFloat.storable(Math.nextUp((double) OutwardFloat.MAX_STORED), 0));
        assertTrue(!OutwardFloat.storable(Math.nextDown(-(double) OutwardFloat.MAX_STORED), 0));
        assertTrue(!OutwardFloat.storable(-1.5e18, 0));
        assertTrue(OutwardFloat.storable(1e30 + 5e17, 1e30), "relative to the origin");
        assertTrue(!OutwardFloat.storable(0, 1e30));
        assertTrue(!OutwardFloat.storable(Double.NaN, 0));
        assertTrue(!OutwardFloat.storable(Double.POSITIVE_INFINITY, 0));
        // the limit keeps stored bounds finite: the largest storable coordinate, rounded outward
        assertTrue(Float.isFinite(OutwardFloat.up(OutwardFloat.MAX_OFFSET)));
        assertTrue(Float.isFinite(OutwardFloat.down(-OutwardFloat.MAX_OFFSET)));
    }
    /** The smallest double not below the exact value {@code v}. */
    private static double ceil(BigDecimal v) {
        double d = v.doubleValue();
        return new BigDecimal(d).compareTo(v) < 0 ? Math.nextUp(d) : d;
    }

    /** The largest double not above the exact value {@code v}. */
    private static double floor(BigDecimal v) {
        double d = v.doubleValue();
        return new BigDecimal(d).compareTo(v) > 0 ? Math.nextDown(d) : d;
    }

    /** The largest float not above the exact value {@code v}, found in exact arithmetic. */
    private static float floatFloor(BigDecimal v) {
        float f = (float) v.doubleValue();
        while (new BigDecimal(f).compareTo(v) > 0) {
            f = Math.nextDown(f);
        }
        while (new BigDecimal(Math.nextUp(f)).compareTo(v) <= 0) {
            f = Math.nextUp(f);
        }
        return f;
    }

    @Test
    void storedBoundsAreTheExactOffsetsRoundedOutward() {
        SplittableRandom r = new SplittableRandom(53);
        int corrected = 0;
        for (int i = 0; i < 300_000; i++) {
            double origin = randomOrigin(r);
            // coordinates on float grids near the origin, and arbitrary ones, so that x - origin often rounds onto a
            // float from above or below
            double x;
            switch (r.nextInt(3)) {
                case 0 -> x = origin + (float) ((r.nextDouble() - 0.5) * 1e4);
                case 1 -> x = Math.rint(origin) + r.nextInt(-5000, 5000);
                default -> x = (r.nextDouble() - 0.5) * 2e7;
            }
            if (!OutwardFloat.storable(x, origin)) {
                continue;
            }
            BigDecimal exact = new BigDecimal(x).subtract(new BigDecimal(origin));
            float low = floatFloor(exact);
            float high = -floatFloor(exact.negate());
            float below = OutwardFloat.below(x, origin);
            float above = OutwardFloat.above(x, origin);
            assertEquals(low, below, () -> "below(" + x + ", " + origin + ")");
            assertEquals(high + 0.0f, above + 0.0f, () -> "above(" + x + ", " + origin + ")");
            if (below != OutwardFloat.down(x - origin) || above != OutwardFloat.up(x - origin)) {
                corrected++;
            }
        }
        assertTrue(corrected > 1000, "cases where the rounded difference alone would store the box short: "
                + corrected);
    }

    private static double randomOrigin(SplittableRandom r) {
        double[] scales = {0, 1, 1e3, 1e7, 3e9, 1e12, 1e15};
        double scale = scales[r.nextInt(scales.length)];
        return (r.nextDouble() - 0.5) * 2 * scale;
    }

    @Test
    void rebasedBoundsHoldEveryPointTheOldFrameStoredAndStayTight() {
        SplittableRandom r = new SplittableRandom(2026);
        int boundaryPoints = 0;
        for (int i = 0; i < 400_000; i++) {
            double from = randomOrigin(r);
            double to = r.nextInt(3) == 0 ? from + (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-3, 8))
                    : randomOrigin(r);
            // a world coordinate near either origin, at some scale
            double base = r.nextBoolean() ? from : to;
            double x = base + (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-4, 7));
            float low = OutwardFloat.down(x - from);
            float high = OutwardFloat.up(x - from);
            float newLow = OutwardFloat.rebaseDown(low, from, to);
            float newHigh = OutwardFloat.rebaseUp(high, from, to);
            assertTrue(newLow <= x - to && x - to <= newHigh, () -> "the given point " + x);
            if (holdsTheOldExtremes(low, high, from, to, newLow, newHigh)) {
                boundaryPoints++;
            }
            BigDecimal bFrom = new BigDecimal(from);
            // tight: below the exact shift by at most one float step of the result and a few double steps
            BigDecimal shift = bFrom.subtract(new BigDecimal(to));
            BigDecimal exactLow = new BigDecimal((double) low).add(shift);
            BigDecimal exactHigh = new BigDecimal((double) high).add(shift);
            if (Float.isFinite(newLow) && Float.isFinite(newHigh)) {
                BigDecimal slackLow = new BigDecimal(Math.ulp(newLow) + 4 * Math.ulp((double) low));
                BigDecimal slackHigh = new BigDecimal(Math.ulp(newHigh) + 4 * Math.ulp((double) high));
                assertTrue(exactLow.subtract(new BigDecimal((double) newLow)).compareTo(slackLow) <= 0,
                        () -> "loose low bound " + newLow + " for " + exactLow);
                assertTrue(new BigDecimal((double) newHigh).subtract(exactHigh).compareTo(slackHigh) <= 0,
                        () -> "loose high bound " + newHigh + " for " + exactHigh);
            }
        }
        assertTrue(boundaryPoints > 100_000, "boundary points checked: " + boundaryPoints);
        // an unchanged origin keeps the bound
        assertEquals(Float.floatToRawIntBits(0.1f), Float.floatToRawIntBits(OutwardFloat.rebaseDown(0.1f, 5, 5)));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(OutwardFloat.rebaseUp(-0.0f, 5, 5)));
    }

    /**
     * Asserts that the rebased bounds hold the extreme points the old frame stored inside {@code [low, high]}: the
     * doubles {@code x} whose {@code x - from}, rounded as a query rounds it, falls inside, which reach half a
     * double step beyond each bound.
     *
     * @return whether the low extreme was one the old frame stored (a boundary point checked)
     */
    private static boolean holdsTheOldExtremes(float low, float high, double from, double to, float newLow,
                                               float newHigh) {
        BigDecimal bFrom = new BigDecimal(from);
        BigDecimal halfBelow = new BigDecimal((double) low).subtract(new BigDecimal(
                ((double) low - Math.nextDown((double) low)) / 2));
        BigDecimal halfAbove = new BigDecimal((double) high).add(new BigDecimal(
                (Math.nextUp((double) high) - (double) high) / 2));
        double lowest = ceil(bFrom.add(halfBelow));
        double highest = floor(bFrom.add(halfAbove));
        boolean checked = false;
        if (lowest - from >= low) {
            checked = true;
            assertTrue(newLow <= lowest - to, () -> "from " + from + " to " + to + ": stored " + low
                    + " rebased to " + newLow + " above the point " + lowest);
        }
        if (highest - from <= high) {
            assertTrue(highest - to <= newHigh, () -> "from " + from + " to " + to
                    + ": stored " + high + " rebased to " + newHigh + " below the point " + highest);
        }
        return checked;
    }

    @Test
    void aShiftOnTheFloatGridRestoresBoundsExactlyUnlessTheyMoveNearerZeroAcrossAPowerOfTwo() {
        SplittableRandom r = new SplittableRandom(2027);
        int exact = 0;
        int cases = 200_000;
        for (int i = 0; i < cases; i++) {
            // whole-metre origins, as an application moving its origin by whole metres (or kilometres) has, by
            // steps smaller than the objects' distance (a convoy passing far objects), and sometimes not
            double from = r.nextInt(-1_000_000_000, 1_000_000_000);
            double reach = Math.pow(2, r.nextInt(4, 24));
            double x = from + (r.nextDouble() - 0.5) * 2 * reach;
            double to = from + Math.rint((r.nextDouble() - 0.5) * reach / (r.nextInt(4) == 0 ? 1 : 16));
            float low = OutwardFloat.down(x - from);
            float high = OutwardFloat.up(x - from);
            float newLow = OutwardFloat.rebaseDown(low, from, to);
            float newHigh = OutwardFloat.rebaseUp(high, from, to);
            assertTrue(newLow <= x - to && x - to <= newHigh, () -> "the given point " + x);
            holdsTheOldExtremes(low, high, from, to, newLow, newHigh);
            double shiftedLow = (double) low + (from - to);
            double shiftedHigh = (double) high + (from - to);
            // the shift is a whole number, exact in double, and so is a float plus it (below 2^53)
            boolean lowExact = (float) shiftedLow == shiftedLow
                    && shiftedLow - Math.nextDown(shiftedLow) >= (double) low - Math.nextDown((double) low);
            boolean highExact = (float) shiftedHigh == shiftedHigh
                    && Math.nextUp(shiftedHigh) - shiftedHigh >= Math.nextUp((double) high) - high;
            if (lowExact) {
                assertEquals(shiftedLow, newLow, () -> "low " + low + " from " + from + " to " + to);
            }
            if (highExact) {
                assertEquals(shiftedHigh, newHigh, () -> "high " + high + " from " + from + " to " + to);
            }
            if (lowExact && highExact) {
                exact++;
            }
        }
        // most of these bounds stay in their binade or grow: re-stored with no widening at all
        assertTrue(exact > cases / 2, "re-stored exactly: " + exact + " of " + cases);
        // a round trip on the grid gives the very bound back
        float bound = OutwardFloat.down(12_345.678);
        assertEquals(bound, OutwardFloat.rebaseDown(OutwardFloat.rebaseDown(bound, 0, 1000), 1000, 0));
    }
}
