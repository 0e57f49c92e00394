package dev.boxwood.testkit;

import dev.boxwood.query.PairBuffer;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Exact helpers for tests of the pair queries: the double nearest to an exact value (to follow the pair queries'
 * frame rule, {@code f + (originB - originA)} rounded once, without trusting the arithmetic under test), and a
 * comparison of an answer with the expected sorted pairs that names what is extra, missing or repeated.
 */
public final class ExactPairs {

    private ExactPairs() {
    }

    /**
     * @param x an exact value within the double range
     * @return the double nearest to {@code x}, ties to even, found by comparing {@code x} exactly with the
     *     neighbours of {@link BigDecimal#doubleValue()}'s answer
     */
    public static double nearestDouble(BigDecimal x) {
        double c = x.doubleValue();
        double best = c;
        BigDecimal bestErr = null;
        for (double cand : new double[] {Math.nextDown(Math.nextDown(c)), Math.nextDown(c), c, Math.nextUp(c),
            Math.nextUp(Math.nextUp(c))}) {
            BigDecimal err = new BigDecimal(cand).subtract(x).abs();
            int cmp = bestErr == null ? -1 : err.compareTo(bestErr);
            if (cmp < 0 || cmp == 0 && (Double.doubleToRawLongBits(cand) & 1) == 0) {
                best = cand;
                bestErr = err;
            }
        }
        return best;
    }

    /**
     * @param expected the expected pairs {@code {first, second}}, in the expected order
     * @param actual the answer
     * @return null if the answer lists exactly the expected pairs in that order, else what differs
     */
    public static String difference(List<long[]> expected, PairBuffer actual) {
        boolean same = expected.size() == actual.size();
        for (int i = 0; same && i < expected.size(); i++) {
            same = expected.get(i)[0] == actual.first(i) && expected.get(i)[1] == actual.second(i);
        }
        if (same) {
            return null;
        }
        Set<Long> e = new HashSet<>();
        for (long[] p : expected) {
            e.add(p[0] << 32 | p[1]);
        }
        Set<Long> a = new HashSet<>();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < actual.size(); i++) {
            long k = (long) actual.first(i) << 32 | actual.second(i);
            if (!a.add(k)) {
                sb.append(" duplicate (").append(actual.first(i)).append(", ").append(actual.second(i)).append(')');
            }
            if (!e.contains(k)) {
                sb.append(" extra (").append(actual.first(i)).append(", ").append(actual.second(i)).append(')');
            }
        }
        for (long[] p : expected) {
            if (!a.contains(p[0] << 32 | p[1]) && sb.length() < 2000) {
                sb.append(" missing (").append(p[0]).append(", ").append(p[1]).append(')');
            }
        }
        return actual.size() + " pairs returned, " + expected.size() + " expected;"
                + (sb.length() == 0 ? " same set, another order" : sb.toString());
    }

    /** Where boxes lie: a base point and a grid step, near zero, off integer grids, far out, tiny and huge. */
    public enum Place {
        /** Near zero, step 1/4. */
        NEAR_ZERO(0, 0.25),
        /** A unit grid offset from zero. */
        UNIT_GRID_OFFSET(17.0, 1.0),
        /** A step of 0.1, which no double holds exactly. */
        ODD_STEP(-3.3, 0.1),
        /** A million out. */
        MILLION(1e6 + 0.3, 0.5),
        /** About 1.2e8 out. */
        FAR_1E8(123_456_789.123, 2.0),
        /** About -1e9 out. */
        FAR_1E9(-987_654_321.75, 4.0),
        /** A tiny world. */
        TINY(1e-3, 1e-7),
        /** A huge world, 3e17 out. */
        HUGE(3e17 + 12345, 1.3e15);

        /** Where the grid starts. */
        public final double base;
        /** The grid step. */
        public final double step;

        Place(double base, double step) {
            this.base = base;
            this.step = step;
        }
    }

    /**
     * @param r the random source
     * @param p the place
     * @param cells the grid cells per axis
     * @return a random box on the place's grid in a cube of {@code cells} cells, a fifth of them of zero extent on
     *     an axis
     */
    public static double[] gridBox(SplittableRandom r, Place p, int cells) {
        double[] b = new double[6];
        for (int a = 0; a < 3; a++) {
            int lo = r.nextInt(cells);
            int size = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(4);
            b[a] = p.base + lo * p.step;
            b[a + 3] = p.base + (lo + size) * p.step;
        }
        return b;
    }

    /** Checks answers against expected pairs and counts what it checked. */
    public static final class Tally {
        private long calls;
        private long pairs;

        /**
         * @param expected the expected pairs, in the expected order
         * @param actual the answer
         * @param where what was asked, for the message
         * @throws AssertionError naming what differs, if anything does
         */
        public void check(List<long[]> expected, PairBuffer actual, String where) {
            calls++;
            pairs += expected.size();
            String difference = difference(expected, actual);
            if (difference != null) {
                throw new AssertionError(where + ": " + difference);
            }
        }

        /** @return the number of answers checked */
        public long calls() {
            return calls;
        }

        /** @return the number of expected pairs checked */
        public long pairs() {
            return pairs;
        }
    }
}
