package dev.boxwood.bench.ab;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;

/**
 * Compares two builds of the benchmark jar in one JVM, their rounds interleaved: A then B, then B then A, and so
 * on. Separate JMH runs of two jars on a noisy machine can differ by more than the change being measured (the
 * same contender moved 2x between forks on the 2-core machines the figures in {@code docs/benchmarks.md} come
 * from); rounds that alternate within one process meet the same machine state, so the median of the per-round
 * ratios is steadier. Each jar gets its own class loader (the jar first, then this tool's own classes for
 * {@link AbSide}), so each side runs its own code, compiled on its own.
 *
 * <pre>
 * java -Xmx10g -cp bench/target/benchmarks.jar dev.boxwood.bench.ab.InterleavedAb A.jar B.jar KIND N ROUNDS [A_CONTENDER [B_CONTENDER]]
 *   KIND         box | closest | any | sphere (20,000 queries per round; sphere: boxwood only, at the box
 *                queries' centres) | build (one full build per round)
 *                | move (5 ticks of the moving workload per round, every box moving once per tick)
 *   A_CONTENDER  a contender name, default boxwood (boxwood-insert: one-by-one insertion)
 *   B_CONTENDER  default A_CONTENDER; with the same jar twice and two contenders, a peer comparison
 * </pre>
 *
 * A peer comparison shares one heap between the two contenders: a peer that allocates while it works (some
 * allocate hundreds of bytes per update) runs its collections in its own rounds, but a concurrent collection can
 * reach into the other side's.
 *
 * Prints the median rate of each side and the median, lower and upper quartile of the per-round speed ratio
 * B / A. A benchmark harness for comparing versions, not a JMH benchmark: the figures it prints are ratios.
 */
public final class InterleavedAb {

    private static final int QUERIES_PER_ROUND = 20_000;
    private static final int TICKS_PER_ROUND = 5;
    private static final int WARM_UP_ROUNDS = 3;

    private InterleavedAb() {
    }

    /**
     * Runs the comparison.
     *
     * @param args A.jar B.jar KIND N ROUNDS [A_CONTENDER [B_CONTENDER]]
     * @throws Exception if a jar cannot be loaded or a side fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: InterleavedAb A.jar B.jar box|closest|any|sphere|build|move N ROUNDS"
                    + " [A_CONTENDER [B_CONTENDER]]");
            System.exit(2);
        }
        String kind = args[2];
        int n = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        String[] contenders = new String[2];
        contenders[0] = args.length > 5 ? args[5] : "boxwood";
        contenders[1] = args.length > 6 ? args[6] : contenders[0];
        boolean move = "move".equals(kind);
        int count = move ? TICKS_PER_ROUND : QUERIES_PER_ROUND;
        URL tool = InterleavedAb.class.getProtectionDomain().getCodeSource().getLocation();
        Object[] sides = new Object[2];
        Method[] round = new Method[2];
        for (int j = 0; j < 2; j++) {
            URL jar = new File(args[j]).toURI().toURL();
            ClassLoader loader = new URLClassLoader(new URL[] {jar, tool}, ClassLoader.getPlatformClassLoader());
            Class<?> side = loader.loadClass(AbSide.class.getName());
            sides[j] = side.getConstructor(String.class, int.class, String.class).newInstance(contenders[j], n, kind);
            round[j] = side.getMethod("round", String.class, int.class);
        }
        int warmUp = "build".equals(kind) ? 1 : WARM_UP_ROUNDS;
        for (int w = 0; w < warmUp; w++) {
            for (int j = 0; j < 2; j++) {
                round[j].invoke(sides[j], kind, count);
            }
        }
        double[][] nanos = new double[2][rounds];
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            for (int x = 0; x < 2; x++) {
                int j = r % 2 == 0 ? x : 1 - x;
                nanos[j][r] = (Long) round[j].invoke(sides[j], kind, count);
            }
            ratio[r] = nanos[0][r] / nanos[1][r];
        }
        String a;
        String b;
        if ("build".equals(kind)) {
            a = String.format("%.0f ms per build", median(nanos[0]) * 1e-6);
            b = String.format("%.0f ms per build", median(nanos[1]) * 1e-6);
        } else {
            double work = move ? (double) TICKS_PER_ROUND * n : QUERIES_PER_ROUND;
            String unit = move ? "updates/s" : "queries/s";
            a = String.format("%.0f %s", work / (median(nanos[0]) * 1e-9), unit);
            b = String.format("%.0f %s", work / (median(nanos[1]) * 1e-9), unit);
        }
        System.out.printf("%s n=%d, %d rounds: A (%s) %s, B (%s) %s; speed B / A median %.3f (quartiles %.3f to"
                        + " %.3f)%n", kind, n, rounds, contenders[0], a, contenders[1], b, median(ratio),
                quantile(ratio, 0.25), quantile(ratio, 0.75));
    }

    private static double median(double[] values) {
        return quantile(values, 0.5);
    }

    /** The nearest-rank quantile. */
    private static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }
}
