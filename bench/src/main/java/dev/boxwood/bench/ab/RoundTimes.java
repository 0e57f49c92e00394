package dev.boxwood.bench.ab;

import java.util.Arrays;
import java.util.Locale;

/** The summary line of an alternating comparison: each side's median time and the per-round ratio's quartiles. */
final class RoundTimes {

    private RoundTimes() {
    }

    /**
     * Sorts the arrays and formats {@code "A 12.34 ms, B 5.67 ms; speed 2.176 (quartiles 2.0 to 2.3)"}.
     *
     * @param aName the first side's name
     * @param aMs   the first side's time per round, ms
     * @param bName the second side's name
     * @param bMs   the second side's time per round, ms
     * @param ratio the speed ratio per round
     * @return the summary
     */
    static String summary(String aName, double[] aMs, String bName, double[] bMs, double[] ratio) {
        Arrays.sort(aMs);
        Arrays.sort(bMs);
        Arrays.sort(ratio);
        int n = ratio.length;
        return String.format(Locale.ROOT, "%s %.2f ms, %s %.2f ms; speed %.3f (quartiles %.3f to %.3f)", aName,
                aMs[aMs.length / 2], bName, bMs[bMs.length / 2], ratio[n / 2], ratio[n / 4], ratio[3 * n / 4]);
    }
}
