package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.Handles;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactGeometry;
import dev.boxwood.testkit.ExactOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TiledBatchQueries} against the single {@link TiledWorld} queries, bit for bit, on 1..3 threads, batch sizes
 * 0, 1, odd and not divisible by the chunking, with a mapping budget small enough that tiles are unmapped during
 * the batch; rejected batches write nothing; the single closest answers against the exact reference on a sample.
 * Larger runs: {@code -Dboxwood.tiledeq.queries=N} (default 100; exact sample every
 * 97th ray, -Dboxwood.tiledeq.exactEvery=N).
 */
class TiledBatchEquivalenceTest {

    private static final int QUERIES = Integer.getInteger("boxwood.tiledeq.queries", 100);
    private static final int[] COUNTS = {0, 1, 2, 5, 63, 65, QUERIES | 1};

    @TempDir
    Path dir;

    @Test
    void batchesShouldEqualSingleQueriesBitForBit() throws IOException {
        double ox = 2e6 + 0.5;
        double oy = -1e6;
        double oz = 0.25;
        SplittableRandom r = new SplittableRandom(3);
        int n = 3000;
        double[] boxes = new double[6 * n];
        long[] cats = new long[n];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                double o = a == 0 ? ox : a == 1 ? oy : oz;
                int lo = r.nextInt(a == 2 ? 20 : 200) - (a == 2 ? 10 : 100);
                int w = r.nextInt(6) == 0 ? 0 : r.nextInt(4);
                boxes[6 * i + a] = o + lo;
                boxes[6 * i + 3 + a] = o + lo + w;
            }
            cats[i] = 1L << r.nextInt(3);
        }
        List<Path> files = TileSetWriter.writeGrid(dir, "t", boxes, null, cats, 50);
        assertTrue(files.size() >= 9, files.size() + " tiles");
        DynamicAabbTree entities = new DynamicAabbTree(TreeConfig.defaults().withOrigin(ox, oy, oz));
        for (int i = 0; i < 200; i++) {
            double x = ox + r.nextInt(200) - 100;
            double y = oy + r.nextInt(200) - 100;
            double z = oz + r.nextInt(20) - 10;
            entities.add(x, y, z, x + 1, y + 1, z + 2, i, 1L << r.nextInt(2));
        }
        ExactOracle oracle = new ExactOracle();
        for (Path f : files) {
            try (MappedWorld w = MappedWorld.open(f)) {
                int part = oracle.addPart(w.originX(), w.originY(), w.originZ());
                float[] stored = w.readObjectBoxes();
                for (int h = 0; h < w.size(); h++) {
                    oracle.add(part, h, Arrays.copyOfRange(stored, 6 * h, 6 * h + 6), w.categoryBits(h),
                            w.userValue(h));
                }
            }
        }
        long compared = 0;
        // a budget of about two tiles: tiles are mapped and unmapped under the running batch
        try (TiledWorld world = TiledWorld.open(files, 2 * java.nio.file.Files.size(files.get(0)))) {
            // threads = 4: three of an application's executor (the common pool) instead of threads of its own
            for (int threads = 1; threads <= 4; threads++) {
                try (TiledBatchQueries batch = threads == 4
                        ? new TiledBatchQueries(java.util.concurrent.ForkJoinPool.commonPool(), 4)
                        : new TiledBatchQueries(threads)) {
                    for (int count : COUNTS) {
                        compared += compare(batch, world, entities, oracle, 100L * threads + count, count, ox, oy,
                                oz);
                    }
                }
            }
        }
        System.out.println("tiled batch equivalence: " + compared + " answers compared");
    }

    private static long compare(TiledBatchQueries batch, TiledWorld world, DynamicAabbTree entities,
                                ExactOracle oracle, long seed, int count, double ox, double oy, double oz) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] from = new double[3 * count];
        double[] to = new double[3 * count];
        int[] ig1 = new int[count];
        int[] ig2 = new int[count];
        for (int i = 0; i < count; i++) {
            int kind = r.nextInt(4);
            for (int a = 0; a < 3; a++) {
                double o = a == 0 ? ox : a == 1 ? oy : oz;
                int span = a == 2 ? 24 : 240;
                from[3 * i + a] = o + r.nextInt(span) - span / 2 + (r.nextInt(4) == 0 ? 0.5 : 0);
                to[3 * i + a] = kind == 0 && a != 0 ? from[3 * i + a] : o + r.nextInt(span) - span / 2;
                if (kind == 1) {
                    to[3 * i + a] = from[3 * i + a];
                }
            }
            ig1[i] = r.nextInt(3) == 0 ? Handles.NONE : r.nextInt(200);
            ig2[i] = r.nextBoolean() ? Handles.NONE : r.nextInt(200);
        }
        long mask = r.nextBoolean() ? -1L : 1 + r.nextInt(6);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        TraversalStack stack = new TraversalStack();
        AnyHit any = new AnyHit();
        ClosestHit closest = new ClosestHit();
        for (int variant = 0; variant < 3; variant++) {
            boolean[] visible = new boolean[count + 1];
            visible[count] = true;
            int[] a = variant == 1 ? ig1 : null;
            int[] b = variant == 1 ? ig2 : null;
            if (variant == 0) {
                batch.lineOfSight(world, from, to, count, mask, visible);
            } else {
                batch.lineOfSight(world, entities, from, to, a, b, count, mask, 1L, visible);
            }
            assertTrue(visible[count]);
            for (int i = 0; i < count; i++) {
                double tx = to[3 * i] - from[3 * i];
                double ty = to[3 * i + 1] - from[3 * i + 1];
                double tz = to[3 * i + 2] - from[3 * i + 2];
                boolean clear = true;
                if (variant > 0) {
                    any.setIgnored(a == null ? Handles.NONE : a[i], b == null ? Handles.NONE : b[i]);
                    entities.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], tx, ty, tz, 1.0, 1L, any, stack);
                    clear = !any.hasHit();
                }
                if (clear) {
                    any.setIgnored(Handles.NONE, Handles.NONE);
                    world.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], tx, ty, tz, 1.0, mask, any,
                            scratch);
                    clear = !any.hasHit();
                }
                assertEquals(clear, visible[i], "line of sight " + i + " variant " + variant);
            }
        }
        double[] trans = new double[3 * count];
        for (int i = 0; i < 3 * count; i++) {
            trans[i] = to[i] - from[i];
        }
        double maxFraction = r.nextBoolean() ? 1.0 : 0.5 + r.nextInt(3);
        int[] tiles = new int[count + 1];
        int[] handles = new int[count + 1];
        long[] users = r.nextBoolean() ? new long[count + 1] : null;
        double[] fractions = new double[count + 1];
        tiles[count] = 99;
        handles[count] = 99;
        fractions[count] = 99;
        batch.closestRays(world, from, trans, count, maxFraction, mask, tiles, handles, users, fractions);
        assertEquals(99, tiles[count]);
        assertEquals(99, handles[count]);
        assertEquals(99.0, fractions[count]);
        for (int i = 0; i < count; i++) {
            world.rayCast(from[3 * i], from[3 * i + 1], from[3 * i + 2], trans[3 * i], trans[3 * i + 1],
                    trans[3 * i + 2], maxFraction, mask, closest, scratch);
            assertEquals(closest.part(), tiles[i], "tile " + i);
            assertEquals(closest.handle(), handles[i], "handle " + i);
            if (users != null) {
                assertEquals(closest.userValue(), users[i], "user value " + i);
            }
            assertEquals(Double.doubleToRawLongBits(closest.fraction()), Double.doubleToRawLongBits(fractions[i]),
                    "fraction " + i);
            if (i % Integer.getInteger("boxwood.tiledeq.exactEvery", 97) == 0) {
                exact(oracle, from, trans, i, maxFraction, mask, tiles[i], handles[i], fractions[i]);
            }
        }
        RegionMode[] modes = RegionMode.values();
        double[] spheres = new double[4 * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(from, 3 * i, spheres, 4 * i, 3);
            spheres[4 * i + 3] = r.nextInt(5) == 0 ? 0 : r.nextInt(8) * 0.5;
        }
        for (int maxPer : new int[] {0, 1, 4, 300}) {
            if (maxPer == 300 && count > 100) {
                continue;
            }
            RegionMode mode = modes[r.nextInt(modes.length)];
            int[] st = new int[count * maxPer + 1];
            int[] sh = new int[count * maxPer + 1];
            long[] su = r.nextBoolean() ? new long[count * maxPer + 1] : null;
            int[] counts = new int[count + 1];
            Arrays.fill(st, -3);
            Arrays.fill(sh, -3);
            counts[count] = -3;
            batch.spheres(world, spheres, count, mode, mask, maxPer, st, sh, su, counts);
            assertEquals(-3, counts[count]);
            AllOverlaps all = new AllOverlaps();
            for (int i = 0; i < count; i++) {
                all.reset();
                world.querySphere(spheres[4 * i], spheres[4 * i + 1], spheres[4 * i + 2], spheres[4 * i + 3], mode,
                        mask, null, all, scratch);
                List<long[]> found = new ArrayList<>();
                for (int k = 0; k < all.count(); k++) {
                    found.add(new long[] {all.part(k), all.handle(k), all.userValue(k)});
                }
                found.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
                assertEquals(found.size(), counts[i], "count " + i + " mode " + mode);
                int kept = Math.min(found.size(), maxPer);
                for (int k = 0; k < kept; k++) {
                    assertEquals(found.get(k)[0], st[i * maxPer + k], "tile " + i);
                    assertEquals(found.get(k)[1], sh[i * maxPer + k], "handle " + i);
                    if (su != null) {
                        assertEquals(found.get(k)[2], su[i * maxPer + k], "user " + i);
                    }
                }
                for (int k = kept; k < maxPer; k++) {
                    assertEquals(-3, sh[i * maxPer + k]);
                    assertEquals(-3, st[i * maxPer + k]);
                }
            }
        }
        return 6L * count;
    }

    private static void exact(ExactOracle oracle, double[] from, double[] trans, int i, double maxFraction,
                              long mask, int tile, int handle, double fraction) {
        double[] d = {trans[3 * i], trans[3 * i + 1], trans[3 * i + 2]};
        ExactGeometry.Rational best = null;
        boolean chosenHit = false;
        ExactGeometry.Rational chosen = null;
        for (ExactOracle.Entry e : oracle.entries()) {
            if ((e.categories & mask) == 0) {
                continue;
            }
            ExactGeometry.SegmentResult x = oracle.segment(e, from[3 * i], from[3 * i + 1], from[3 * i + 2], d,
                    maxFraction);
            if (x.hit && (best == null || x.entry.compareTo(best) < 0)) {
                best = x.entry;
            }
            if (e.part == tile && e.handle == handle) {
                chosenHit = x.hit || x.relativeMiss() <= ExactOracle.SLAB_BAND;
                chosen = x.entry;
            }
        }
        if (best == null) {
            assertEquals(Handles.NONE, handle, "exact miss, ray " + i);
        } else {
            ExactGeometry.Rational b = best;
            assertTrue(chosenHit, "reported object not hit, ray " + i);
            ExactGeometry.Rational c = chosen;
            assertTrue(ExactGeometry.fractionAgrees(fraction, best, 4, 0) || c.compareTo(best) <= 0,
                    () -> fraction + " vs exact " + b);
        }
    }

    @Test
    void rejectedBatchesShouldWriteNothing() throws IOException {
        double[] boxes = {0, 0, 0, 1, 1, 1, 5, 5, 5, 6, 6, 6};
        List<Path> files = TileSetWriter.writeGrid(dir, "r", boxes, null, null, 4);
        try (TiledWorld world = TiledWorld.open(files, 1L << 20);
             TiledBatchQueries batch = new TiledBatchQueries(2)) {
            int count = 5;
            double[] from = new double[3 * count];
            double[] to = new double[3 * count];
            Arrays.fill(to, 7);
            boolean[] visible = new boolean[count];
            Arrays.fill(visible, true);
            double[] bad = from.clone();
            bad[3 * 4 + 2] = Double.NaN;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> batch.lineOfSight(world, bad, to, count, -1L, visible));
            assertTrue(e.getMessage().contains("4"), e.getMessage());
            for (boolean v : visible) {
                assertTrue(v);
            }
            int[] tiles = new int[count];
            int[] handles = new int[count];
            double[] fr = new double[count];
            Arrays.fill(tiles, 8);
            Arrays.fill(handles, 8);
            Arrays.fill(fr, 8);
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(world, bad, to, count, 1.0, -1L, tiles, handles, null, fr));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(world, from, to, count, 1.0, -1L, tiles, tiles, null, fr));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.closestRays(world, from, to, count, 1.0, -1L, tiles, handles, new long[2], fr));
            for (int k = 0; k < count; k++) {
                assertEquals(8, tiles[k]);
                assertEquals(8, handles[k]);
                assertEquals(8.0, fr[k]);
            }
            double[] sp = new double[4 * count];
            sp[4 * 3 + 3] = -1;
            int[] counts = new int[count];
            Arrays.fill(counts, 8);
            assertThrows(IllegalArgumentException.class, () -> batch.spheres(world, sp, count, RegionMode.CROSSING,
                    -1L, 2, new int[10], new int[10], null, counts));
            for (int c : counts) {
                assertEquals(8, c);
            }
            batch.closestRays(world, from, to, count, 1.0, -1L, tiles, handles, null, fr);
            assertArrayEquals(new int[] {0, 0, 0, 0, 0}, tiles);
        }
    }
}
