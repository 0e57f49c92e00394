package dev.boxwood.bench.ab;

import dev.boxwood.bench.world.PeerWorkload;

import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code DynamicAabbTree.moveOrigin} of two builds in one JVM, rounds alternating (A B, B A, ...): each side holds
 * the peer world's N boxes, bulk-built with the origin at (5000, 5000, 100), and moves its origin {@code STEP} metres
 * east and back on alternate rounds. Each side's library comes from its own class loader (the jars of
 * {@code queries} and {@code index} of that build, or a benchmark jar), so each runs its own code.
 *
 * <pre>
 * java -Xms6g -Xmx6g -cp bench/target/benchmarks.jar dev.boxwood.bench.ab.MoveOriginAb A.jar[:A2.jar] B.jar[:B2.jar] N ROUNDS STEP
 * </pre>
 *
 * A whole-metre {@code STEP} (such as 1000) re-stores most bounds exactly; one off the float grid (1000.3) re-stores
 * every bound by the outward rounding. Prints the median time per call of each side and the median and quartiles of
 * the per-round speed ratio B / A.
 */
public final class MoveOriginAb {

    private static final int WARM_UP_ROUNDS = 3;

    private MoveOriginAb() {
    }

    /**
     * Runs the comparison.
     *
     * @param args A_CLASSPATH B_CLASSPATH N ROUNDS STEP
     * @throws Exception if a build cannot be loaded or a call fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: MoveOriginAb A_CLASSPATH B_CLASSPATH N ROUNDS STEP");
            System.exit(2);
        }
        int n = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        double step = Double.parseDouble(args[4]);
        double[] boxes = PeerWorkload.of(n, 1).boxes().toInterleaved();
        Object[] trees = new Object[2];
        Method[] move = new Method[2];
        for (int side = 0; side < 2; side++) {
            ClassLoader loader = new URLClassLoader(urls(args[side]), null);
            Class<?> config = loader.loadClass("dev.boxwood.index.TreeConfig");
            Class<?> tree = loader.loadClass("dev.boxwood.index.DynamicAabbTree");
            Object settings = config.getMethod("withOrigin", double.class, double.class, double.class)
                    .invoke(config.getMethod("defaults").invoke(null), 5000.0, 5000.0, 100.0);
            trees[side] = tree.getMethod("build", config, double[].class, long[].class, long[].class)
                    .invoke(null, settings, boxes, null, null);
            move[side] = tree.getMethod("moveOrigin", double.class, double.class, double.class);
        }
        double[][] millis = new double[2][rounds];
        for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
            double x = 5000 + ((round & 1) == 0 ? step : 0);
            for (int k = 0; k < 2; k++) {
                int side = (round & 1) == 0 ? k : 1 - k;
                long t0 = System.nanoTime();
                move[side].invoke(trees[side], x, 5000.0, 100.0);
                long t1 = System.nanoTime();
                if (round >= 0) {
                    millis[side][round] = (t1 - t0) / 1e6;
                }
            }
        }
        double[] ratio = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            ratio[i] = millis[0][i] / millis[1][i];
        }
        System.out.println(String.format(Locale.ROOT, "moveOrigin n=%d, step %s, %d rounds: ", n, args[4], rounds)
                + RoundTimes.summary("A", millis[0], "B", millis[1], ratio) + " (B / A)");
    }

    private static URL[] urls(String classPath) {
        return Arrays.stream(classPath.split(":")).map(p -> {
            try {
                return Paths.get(p).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException(p, e);
            }
        }).toArray(URL[]::new);
    }
}
