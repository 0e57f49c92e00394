package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives a {@link DynamicAabbTree} and a {@link BruteForceIndex} with the same random operations and compares
 * every query answer. Boxes come from a pool (a scene); moves jitter or teleport objects.
 */
final class Differential {

    final DynamicAabbTree tree;
    final BruteForceIndex brute;
    private final BoxSet pool;
    private final SplittableRandom random;
    private final double jitter;
    private final int[] live;
    private int liveCount;
    private final int[] sourceOf;
    private final TraversalStack stack = new TraversalStack(4);
    private final AllOverlaps treeOverlaps = new AllOverlaps();
    private final AllOverlaps bruteOverlaps = new AllOverlaps();
    private final ClosestHit treeClosest = new ClosestHit();
    private final ClosestHit bruteClosest = new ClosestHit();
    private final AnyHit treeAny = new AnyHit();
    private final AnyHit bruteAny = new AnyHit();
    private final AllHits treeAll = new AllHits();
    private final AllHits bruteAll = new AllHits();
    long queries;
    long hitsSeen;
    /** Validate the tree after every this-many mutations (1: after each). */
    int validateEvery = 1;
    private long mutations;

    /**
     * @param pool boxes to add
     * @param config tree settings (the brute-force index gets the same origin)
     * @param seed operation seed
     */
    Differential(BoxSet pool, TreeConfig config, long seed) {
        this.tree = new DynamicAabbTree(config);
        this.brute = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
        this.pool = pool;
        this.random = new SplittableRandom(seed);
        double[] extents = pool.maxExtents();
        this.jitter = Math.max(1e-3, 0.5 * Math.max(extents[0], Math.max(extents[1], extents[2])));
        this.live = new int[pool.size() * 4 + 16];
        this.sourceOf = new int[live.length];
    }

    int size() {
        return liveCount;
    }

    /** Adds pool box {@code i} to both indexes; checks they return the same handle. */
    int add(int i) {
        long category = randomCategory();
        long user = random.nextLong();
        int handle = tree.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i],
                user, category);
        int other = brute.add(pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i],
                user, category);
        assertEquals(other, handle, "handles differ");
        sourceOf[liveCount] = i;
        live[liveCount++] = handle;
        return handle;
    }

    private long randomCategory() {
        int kind = random.nextInt(4);
        if (kind == 0) {
            return -1L;
        }
        if (kind == 1) {
            return random.nextLong();
        }
        return 1L << random.nextInt(64);
    }

    /** One random mutation, validated. */
    void mutate(int targetSize) {
        int op = random.nextInt(10);
        if (liveCount == 0 || (liveCount < targetSize && op < 4)) {
            add(random.nextInt(pool.size()));
        } else if (op < 7) {
            jitterMove(random.nextInt(liveCount));
        } else if (op < 8) {
            int k = random.nextInt(liveCount);
            int i = random.nextInt(pool.size());
            sourceOf[k] = i;
            move(live[k], pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i],
                    0, 0, 0);
        } else {
            int k = random.nextInt(liveCount);
            tree.remove(live[k]);
            brute.remove(live[k]);
            live[k] = live[--liveCount];
            sourceOf[k] = sourceOf[liveCount];
        }
        if (++mutations % validateEvery == 0) {
            tree.validate();
        }
        assertEquals(brute.size(), tree.size());
    }

    private void jitterMove(int k) {
        double[] box = new double[6];
        tree.getTightBox(live[k], box);
        int i = sourceOf[k];
        double dx = (random.nextDouble() - 0.5) * jitter;
        double dy = (random.nextDouble() - 0.5) * jitter;
        double dz = (random.nextDouble() - 0.5) * jitter;
        double[] d = random.nextBoolean() ? new double[] {dx, dy, dz} : new double[3];
        // Keep the pool box's own size (the stored box is rounded outward, so re-using it would let it grow).
        double cx = (box[0] + box[3]) * 0.5 + dx;
        double cy = (box[1] + box[4]) * 0.5 + dy;
        double cz = (box[2] + box[5]) * 0.5 + dz;
        double hx = (pool.maxX[i] - pool.minX[i]) * 0.5;
        double hy = (pool.maxY[i] - pool.minY[i]) * 0.5;
        double hz = (pool.maxZ[i] - pool.minZ[i]) * 0.5;
        move(live[k], cx - hx, cy - hy, cz - hz, cx + hx, cy + hy, cz + hz, d[0], d[1], d[2]);
    }

    private void move(int handle, double x0, double y0, double z0, double x1, double y1, double z1,
                      double dx, double dy, double dz) {
        tree.move(handle, x0, y0, z0, x1, y1, z1, dx, dy, dz);
        brute.move(handle, x0, y0, z0, x1, y1, z1, dx, dy, dz);
    }

    /** A random box query around a random live object (or anywhere in the pool's bounds). */
    void randomBoxQuery() {
        double[] b = randomRegion();
        compareBoxQuery(b[0], b[1], b[2], b[3], b[4], b[5], randomMask());
    }

    private double[] randomRegion() {
        double[] box = new double[6];
        if (liveCount > 0 && random.nextInt(4) != 0) {
            tree.getTightBox(live[random.nextInt(liveCount)], box);
        } else {
            int i = random.nextInt(pool.size());
            box = new double[] {pool.minX[i], pool.minY[i], pool.minZ[i], pool.maxX[i], pool.maxY[i], pool.maxZ[i]};
        }
        double grow = random.nextDouble() * jitter * (random.nextInt(8) == 0 ? 40 : 4);
        for (int a = 0; a < 3; a++) {
            box[a] -= grow * random.nextDouble();
            box[a + 3] += grow * random.nextDouble();
        }
        return box;
    }

    long randomMask() {
        return random.nextInt(3) == 0 ? random.nextLong() : -1L;
    }

    void compareBoxQuery(double x0, double y0, double z0, double x1, double y1, double z1, long mask) {
        treeOverlaps.reset();
        bruteOverlaps.reset();
        tree.queryAabb(x0, y0, z0, x1, y1, z1, mask, treeOverlaps, stack);
        brute.queryAabb(x0, y0, z0, x1, y1, z1, mask, bruteOverlaps, stack);
        treeOverlaps.sort();
        bruteOverlaps.sort();
        String where = "box query " + Arrays.toString(new double[] {x0, y0, z0, x1, y1, z1}) + " mask " + mask;
        assertEquals(bruteOverlaps.count(), treeOverlaps.count(), where);
        for (int i = 0; i < bruteOverlaps.count(); i++) {
            assertEquals(bruteOverlaps.handle(i), treeOverlaps.handle(i), where);
            assertEquals(bruteOverlaps.userValue(i), treeOverlaps.userValue(i), where);
        }
        queries++;
        hitsSeen += bruteOverlaps.count();
    }

    /** A random segment between two random points of interest, sometimes a long ray or a point. */
    void randomRay() {
        double[] a = randomRegion();
        double[] b = randomRegion();
        double ox = a[0] + (a[3] - a[0]) * random.nextDouble();
        double oy = a[1] + (a[4] - a[1]) * random.nextDouble();
        double oz = a[2] + (a[5] - a[2]) * random.nextDouble();
        double tx = b[0] + (b[3] - b[0]) * random.nextDouble() - ox;
        double ty = b[1] + (b[4] - b[1]) * random.nextDouble() - oy;
        double tz = b[2] + (b[5] - b[2]) * random.nextDouble() - oz;
        int kind = random.nextInt(8);
        if (kind == 0) {
            tx = 0;
        } else if (kind == 1) {
            ty = 0;
            tz = 0;
        } else if (kind == 2) {
            tx = 0;
            ty = 0;
            tz = 0;
        }
        double maxFraction = random.nextInt(4) == 0 ? random.nextDouble() * 3 : 1.0;
        compareRay(ox, oy, oz, tx, ty, tz, maxFraction, randomMask());
    }

    void compareRay(double ox, double oy, double oz, double tx, double ty, double tz, double maxFraction, long mask) {
        String where = "ray " + Arrays.toString(new double[] {ox, oy, oz, tx, ty, tz, maxFraction}) + " mask " + mask;
        tree.rayCast(ox, oy, oz, tx, ty, tz, maxFraction, mask, treeClosest, stack);
        brute.rayCast(ox, oy, oz, tx, ty, tz, maxFraction, mask, bruteClosest, stack);
        assertEquals(bruteClosest.hasHit(), treeClosest.hasHit(), where);
        assertEquals(bruteClosest.handle(), treeClosest.handle(), where);
        assertEquals(bruteClosest.fraction(), treeClosest.fraction(), where);
        assertEquals(bruteClosest.userValue(), treeClosest.userValue(), where);

        tree.rayCast(ox, oy, oz, tx, ty, tz, maxFraction, mask, treeAny, stack);
        brute.rayCast(ox, oy, oz, tx, ty, tz, maxFraction, mask, bruteAny, stack);
        assertEquals(bruteAny.hasHit(), treeAny.hasHit(), where);
        if (treeAny.hasHit()) {
            assertTrue(tree.contains(treeAny.handle()), where);
        }

        tree.rayCast(ox, oy, oz, tx, ty, tz, maxFraction, mask, treeAll, stack);
        brute.rayCast(ox, oy, oz, tx, ty, tz, maxFraction, mask, bruteAll, stack);
        treeAll.sort();
        bruteAll.sort();
        assertEquals(bruteAll.count(), treeAll.count(), where);
        for (int i = 0; i < bruteAll.count(); i++) {
            assertEquals(bruteAll.handle(i), treeAll.handle(i), where);
            assertEquals(bruteAll.fraction(i), treeAll.fraction(i), where);
        }
        if (bruteClosest.hasHit()) {
            assertEquals(bruteAll.handle(0), bruteClosest.handle(), where);
        }
        queries++;
        hitsSeen += bruteAll.count();
    }


    /**
     * Bursts of 1 to {@code maxBurst} mutations without a query between them (with deferred adds, pending objects
     * pile up, and are moved and removed while pending), each towards a random size up to {@code maxSize}, then
     * {@code queriesPerBurst} box queries and rays (the tree counts how its queries took the pending objects in).
     */
    void runBursts(int bursts, int maxSize, int maxBurst, int queriesPerBurst) {
        for (int b = 0; b < bursts; b++) {
            int targetSize = 1 + random.nextInt(maxSize);
            int length = 1 + (int) Math.pow(maxBurst, random.nextDouble());
            for (int m = 0; m < length; m++) {
                mutate(targetSize);
            }
            if (random.nextInt(5) == 0 && liveCount < maxSize) {
                // with deferred adds: more than the tree holds go in by a rebuild, fewer (but at least 64) as a batch
                int more = liveCount >= 256 && random.nextBoolean() ? 64 + random.nextInt(liveCount / 2)
                        : liveCount + 64 + random.nextInt(64);
                for (int m = 0; m < more; m++) {
                    add(random.nextInt(pool.size()));
                    tree.validate();
                }
            }
            for (int q = 0; q < queriesPerBurst; q++) {
                randomBoxQuery();
                randomRay();
            }
            assertEquals(0, tree.pendingAdds(), "a query leaves nothing pending");
            tree.validate();
        }
    }

    /** Runs {@code operations} mutations to about {@code targetSize} objects with queries between them. */
    void run(int operations, int targetSize, int queriesPerMutation) {
        for (int op = 0; op < operations; op++) {
            mutate(targetSize);
            for (int q = 0; q < queriesPerMutation; q++) {
                randomBoxQuery();
                randomRay();
            }
        }
    }
}
