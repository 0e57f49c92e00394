package dev.boxwood.index;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.LevelScenes;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;

import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A tree and a brute-force index fed the same random adds, moves and removes from a pool of boxes (a testkit
 * scene), with the tree validated after every mutation; the differential query tests build on it.
 */
final class QueryWorld {

    final String name;
    final DynamicAabbTree tree;
    final BruteForceIndex brute;
    final BoxSet pool;
    final SplittableRandom random;
    final double scale;
    int[] live;
    int liveCount;

    QueryWorld(String name, BoxSet pool, TreeConfig config, long seed) {
        this.name = name;
        this.tree = new DynamicAabbTree(config);
        this.brute = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
        this.pool = pool;
        this.random = new SplittableRandom(seed);
        double[] e = pool.maxExtents();
        this.scale = Math.max(1e-3, Math.max(e[0], Math.max(e[1], e[2])));
        this.live = new int[pool.size() + 16];
    }

    /**
     * The worlds of the differential tests: random scenes at several scales and offsets (one with deferred adds, so
     * that every query kind is also the first read after adds), and the real levels.
     */
    static Stream<QueryWorld> worlds(long seed) {
        return Stream.of(
                new QueryWorld("uniform unit scale", SyntheticWorld.uniform(1500, seed, WorldFrame.scaled(1e-4))
                        .boxes(), TreeConfig.defaults().withMargin(1e-4, 0.125), seed),
                new QueryWorld("clustered dense", SyntheticWorld.clustered(1500, seed + 1, WorldFrame.scaled(0.01))
                        .boxes(), TreeConfig.defaults(), seed),
                new QueryWorld("clustered dense, deferred adds", SyntheticWorld.clustered(1500, seed + 3,
                        WorldFrame.scaled(0.01)).boxes(), TreeConfig.defaults().withDeferredAdds(true), seed),
                new QueryWorld("clustered 1e6 from origin", SyntheticWorld.clustered(1500, seed + 2,
                        WorldFrame.offset(1e6)).boxes(),
                        TreeConfig.defaults().withOrigin(1e6 + 5000, 1e6 + 5000, 1e6 + 100), seed),
                new QueryWorld("level bounds01", LevelScenes.load(LevelScenes.Level.BOUNDS01),
                        TreeConfig.defaults(), seed),
                new QueryWorld("level bounds02", LevelScenes.load(LevelScenes.Level.BOUNDS02),
                        TreeConfig.defaults(), seed),
                new QueryWorld("level bounds03", LevelScenes.load(LevelScenes.Level.BOUNDS03),
                        TreeConfig.defaults(), seed));
    }

    @Override
    public String toString() {
        return name;
    }

    long randomCategory() {
        int kind = random.nextInt(4);
        return kind == 0 ? -1L : kind == 1 ? random.nextLong() : 1L << random.nextInt(64);
    }

    long randomMask() {
        return random.nextInt(3) == 0 ? random.nextLong() : -1L;
    }

    int add(int i) {
        long category = randomCategory();
        long user = random.nextLong();
        int h = tree.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i],
                user, category);
        assertEquals(h, brute.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i],
                pool.maxZ[i], user, category));
        if (liveCount == live.length) {
            live = java.util.Arrays.copyOf(live, 2 * liveCount);
        }
        live[liveCount++] = h;
        return h;
    }

    void addAll() {
        for (int i = 0; i < pool.size(); i++) {
            add(i);
        }
        tree.validate();
    }

    /** One random add, jitter move, teleport or remove, then validate. */
    void mutate(int targetSize) {
        int op = random.nextInt(10);
        if (liveCount == 0 || liveCount < targetSize && op < 4) {
            add(random.nextInt(pool.size()));
        } else if (op < 8) {
            int handle = live[random.nextInt(liveCount)];
            double[] b = new double[6];
            if (op < 7) {
                tree.getTightBox(handle, b);
                double dx = (random.nextDouble() - 0.5) * scale;
                double dy = (random.nextDouble() - 0.5) * scale;
                double dz = (random.nextDouble() - 0.5) * scale;
                b[0] += dx;
                b[3] += dx;
                b[1] += dy;
                b[4] += dy;
                b[2] += dz;
                b[5] += dz;
            } else {
                int i = random.nextInt(pool.size());
                b = new double[] {pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i]};
            }
            tree.move(handle, b[0], b[1], b[2], b[3], b[4], b[5]);
            brute.move(handle, b[0], b[1], b[2], b[3], b[4], b[5]);
        } else {
            int k = random.nextInt(liveCount);
            tree.remove(live[k]);
            brute.remove(live[k]);
            live[k] = live[--liveCount];
        }
        tree.validate();
        assertEquals(brute.size(), tree.size());
    }

    /** A random point near a live object (or anywhere in the pool's bounds), in {@code dest[0..2]}. */
    void randomPoint(double[] dest) {
        double[] b = new double[6];
        if (liveCount > 0 && random.nextInt(4) != 0) {
            tree.getTightBox(live[random.nextInt(liveCount)], b);
        } else {
            int i = random.nextInt(pool.size());
            b = new double[] {pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i]};
        }
        for (int a = 0; a < 3; a++) {
            dest[a] = b[a] + (b[a + 3] - b[a]) * random.nextDouble() + (random.nextDouble() - 0.5) * scale;
        }
    }

    /** {@code n} points of {@link #randomPoint}, stride 3. */
    double[] randomPoints(int n) {
        double[] points = new double[3 * n];
        double[] p = new double[3];
        for (int i = 0; i < n; i++) {
            randomPoint(p);
            System.arraycopy(p, 0, points, 3 * i, 3);
        }
        return points;
    }

    /** A random query size: mostly a few object sizes, sometimes many. */
    double randomReach() {
        return random.nextDouble() * scale * (random.nextInt(8) == 0 ? 40 : 4);
    }

    static void assertSameSorted(AllOverlaps expected, AllOverlaps actual, String where) {
        expected.sort();
        actual.sort();
        assertArrayEquals(handles(expected), handles(actual), where);
    }

    /** The user values of the objects found, sorted: comparable across indexes whose handles differ. */
    static long[] sortedUserValues(AllOverlaps o) {
        long[] v = new long[o.count()];
        for (int i = 0; i < v.length; i++) {
            v[i] = o.userValue(i);
        }
        java.util.Arrays.sort(v);
        return v;
    }

    static int[] handles(AllOverlaps o) {
        int[] h = new int[o.count()];
        for (int i = 0; i < h.length; i++) {
            h[i] = o.handle(i);
        }
        return h;
    }
}
