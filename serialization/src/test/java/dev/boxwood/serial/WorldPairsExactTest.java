package dev.boxwood.serial;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.ReadView;
import dev.boxwood.index.ReadableTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.index.TreeSnapshots;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.ExactPairs;
import dev.boxwood.testkit.ExactPairs.Place;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WorldPairs} against an exact reference written from the documented rule alone (class comment of
 * {@code WorldPairs}, docs/queries.md, Pairs): the tree's stored floats ({@link ReadableTree#getStoredTightBox}) each
 * taken to the double nearest to {@code f + d}, {@code d} the double nearest to {@code originTree - originWorld},
 * both roundings done here in {@link BigDecimal}, compared with the world's stored floats
 * ({@link MappedWorld#readObjectBoxes()}, relative to {@link MappedWorld#originX()}), closed boxes, the category
 * test on both sides, each pair once, sorted. Tiles: each tile file opened on its own as the reference world, its
 * handles and frame.
 *
 * <p>Default run: a few seconds; {@code -Dboxwood.worldPairsExact.rounds=N} for more random worlds per place
 * (default 2).
 */
class WorldPairsExactTest {

    private static final int ROUNDS = Integer.getInteger("boxwood.worldPairsExact.rounds", 2);
    private static final long[] CATEGORIES = {
        -1L, 0L, 1L, 2L, 1L << 31, 1L << 32, 1L << 33, 1L << 63, 3L, (1L << 32) | 1L, 0xFFFF_FFFF_0000_0000L};
    private static final long[] MASKS = {
        -1L, 0L, 1L, 2L, 1L << 32, 1L << 33, 1L << 63, 0x0000_0000_FFFF_FFFFL, 0xFFFF_FFFF_0000_0000L, ~1L};

    @TempDir
    Path dir;

    private final TraversalStack stack = new TraversalStack(1);
    private final PairBuffer pairs = new PairBuffer(1);
    private final WorldPairs worldPairs = new WorldPairs();
    private final ExactPairs.Tally tally = new ExactPairs.Tally();

    // ---- exact reference ----

    /** The reference world: stored floats, categories and origin of a mapped world. */
    static final class WorldSnap {
        final float[] boxes;
        final long[] categories;
        final double[] origin;

        WorldSnap(MappedWorld w) throws IOException {
            boxes = w.readObjectBoxes();
            categories = w.readCategories();
            origin = new double[] {w.originX(), w.originY(), w.originZ()};
        }
    }

    /** Pairs (listed tree handles, distinct, ascending) x (world objects) by the rule. */
    static List<long[]> reference(ReadableTree tree, int[] handles, int count, long treeMask, WorldSnap w,
                                  long worldMask) {
        double[] to = {tree.originX(), tree.originY(), tree.originZ()};
        double[] d = new double[3];
        for (int a = 0; a < 3; a++) {
            d[a] = ExactPairs.nearestDouble(new BigDecimal(to[a]).subtract(new BigDecimal(w.origin[a])));
        }
        TreeSet<Integer> distinct = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            distinct.add(handles[i]);
        }
        List<long[]> out = new ArrayList<>();
        float[] f = new float[6];
        double[] m = new double[6];
        for (int h : distinct) {
            if ((tree.categoryBits(h) & treeMask) == 0) {
                continue;
            }
            tree.getStoredTightBox(h, f);
            for (int k = 0; k < 6; k++) {
                double dk = d[k % 3];
                m[k] = dk == 0 ? f[k] : ExactPairs.nearestDouble(new BigDecimal(f[k]).add(new BigDecimal(dk)));
            }
            for (int o = 0; o < w.categories.length; o++) {
                if ((w.categories[o] & worldMask) == 0) {
                    continue;
                }
                boolean hit = true;
                for (int k = 0; k < 3 && hit; k++) {
                    hit = m[k] <= w.boxes[6 * o + 3 + k] && w.boxes[6 * o + k] <= m[3 + k];
                }
                if (hit) {
                    out.add(new long[] {h, o});
                }
            }
        }
        return out;
    }

    // ---- scenes ----

    /** The places of {@link ExactPairs.Place} these worlds are written at. */
    private static final Place[] PLACES = {Place.NEAR_ZERO, Place.ODD_STEP, Place.MILLION, Place.FAR_1E8,
        Place.FAR_1E9, Place.HUGE};

    /** A box on the place's grid, a quarter of its axes shifted off it by a random fraction of a step. */
    private static double[] box(SplittableRandom r, Place p, int cells) {
        double[] b = new double[6];
        for (int a = 0; a < 3; a++) {
            int lo = r.nextInt(cells);
            int size = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(4);
            b[a] = p.base + lo * p.step;
            b[a + 3] = p.base + (lo + size) * p.step;
            if (r.nextInt(4) == 0) {
                double s = r.nextDouble() * p.step;
                b[a] += s;
                b[a + 3] += s + r.nextDouble() * p.step;
            }
        }
        return b;
    }

    private static double[] worldBoxes(SplittableRandom r, Place p, int n, int cells) {
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            if (i > 0 && r.nextInt(8) == 0) {
                System.arraycopy(boxes, 6 * r.nextInt(i), boxes, 6 * i, 6); // a duplicate
            } else {
                System.arraycopy(box(r, p, cells), 0, boxes, 6 * i, 6);
            }
        }
        return boxes;
    }

    private static long[] categories(SplittableRandom r, int n, boolean manyDistinct) {
        long[] c = new long[n];
        for (int i = 0; i < n; i++) {
            c[i] = manyDistinct && r.nextBoolean() ? r.nextLong() : CATEGORIES[r.nextInt(CATEGORIES.length)];
        }
        return c;
    }

    /** A tree of entities: random boxes, boxes touching or copying world boxes, on a face or a corner. */
    private static DynamicAabbTree entities(SplittableRandom r, Place p, int cells, double[] world, int n,
                                            double[] origin, boolean deferred) {
        TreeConfig config = TreeConfig.defaults().withOrigin(origin[0], origin[1], origin[2])
                .withDeferredAdds(deferred);
        if (r.nextBoolean()) {
            config = config.withMargin(0, 0);
        }
        DynamicAabbTree tree = new DynamicAabbTree(config);
        int wn = world.length / 6;
        for (int i = 0; i < n; i++) {
            double[] b;
            int kind = r.nextInt(4);
            if (kind == 0 || wn == 0) {
                b = box(r, p, cells);
            } else {
                int w = 6 * r.nextInt(wn);
                b = Arrays.copyOfRange(world, w, w + 6);
                if (kind >= 2) {
                    int axis = r.nextInt(3);
                    double size = r.nextInt(3) * p.step;
                    if (kind == 2) {
                        b[axis] = world[w + 3 + axis];
                        b[axis + 3] = b[axis] + size;
                    } else {
                        b[axis + 3] = world[w + axis];
                        b[axis] = b[axis + 3] - size;
                    }
                }
            }
            tree.add(b[0], b[1], b[2], b[3], b[4], b[5], i, CATEGORIES[r.nextInt(CATEGORIES.length)]);
        }
        return tree;
    }

    private static double[] treeOrigin(SplittableRandom r, Place p, double[] worldOrigin) {
        switch (r.nextInt(4)) {
            case 0:
                return worldOrigin.clone();
            case 1:
                return new double[] {0, 0, 0};
            case 2:
                return new double[] {p.base + r.nextDouble() * 30 * p.step, p.base - Math.PI, p.base + 1e-3};
            default:
                return new double[] {worldOrigin[0] + p.step * 0.5, worldOrigin[1] - 1e-9 * Math.abs(p.base),
                    worldOrigin[2] + 1.0 / 3};
        }
    }

    private long mask(SplittableRandom r) {
        return r.nextInt(4) == 0 ? r.nextLong() : MASKS[r.nextInt(MASKS.length)];
    }

    // ---- tests ----

    @Test
    void treeAndListedPairsMatchTheExactReference() throws IOException {
        int file = 0;
        for (Place place : PLACES) {
            for (int round = 0; round < ROUNDS; round++) {
                SplittableRandom r = new SplittableRandom(place.ordinal() * 100L + round);
                int cells = 8 + r.nextInt(40);
                int n = round == 0 ? 1 + r.nextInt(3) : 100 + r.nextInt(1500);
                double[] wb = worldBoxes(r, place, n, cells);
                long[] wc = categories(r, n, r.nextBoolean());
                Path path = dir.resolve("w" + file++ + ".bxw");
                StaticWorldWriter.write(path, wb, null, wc, null);
                try (MappedWorld world = MappedWorld.open(path)) {
                    WorldSnap ws = new WorldSnap(world);
                    double[] wo = ws.origin;
                    boolean deferred = r.nextInt(3) == 0;
                    DynamicAabbTree tree = entities(r, place, cells, wb, 50 + r.nextInt(400),
                            treeOrigin(r, place, wo), deferred);
                    String scene = place + " round " + round + " n " + n + " world origin " + Arrays.toString(wo)
                            + " tree origin " + tree.originX() + ", " + tree.originY() + ", " + tree.originZ();
                    checkAll(tree, world, ws, r, scene);
                    // mutations, and a read view held across them
                    TreeSnapshots snapshots = new TreeSnapshots(tree);
                    snapshots.publish();
                    try (ReadView view = snapshots.acquire()) {
                        int[] live = tree.liveHandles();
                        for (int k = 0; k < live.length / 2; k++) {
                            int h = live[r.nextInt(live.length)];
                            if (!tree.contains(h)) {
                                continue;
                            }
                            switch (r.nextInt(3)) {
                                case 0:
                                    tree.remove(h);
                                    break;
                                case 1:
                                    double[] b = box(r, place, cells);
                                    tree.move(h, b[0], b[1], b[2], b[3], b[4], b[5]);
                                    break;
                                default:
                                    tree.setCategoryBits(h, CATEGORIES[r.nextInt(CATEGORIES.length)]);
                            }
                        }
                        double[] b = box(r, place, cells);
                        tree.add(b[0], b[1], b[2], b[3], b[4], b[5], 0, -1L);
                        snapshots.publish();
                        checkAll(view, world, ws, r, scene + " (held view)");
                        checkAll(tree, world, ws, r, scene + " (mutated)");
                    }
                }
            }
        }
        assertTrue(tally.pairs() > 1000, "pairs checked " + tally.pairs());
        System.out.println("WorldPairsExactTest: " + tally.calls() + " calls, " + tally.pairs() + " pairs");
    }

    private void checkAll(ReadableTree tree, MappedWorld world, WorldSnap ws, SplittableRandom r, String scene) {
        int[] live = tree.liveHandles();
        for (int m = 0; m < 4; m++) {
            long treeMask = m == 0 ? -1L : mask(r);
            long worldMask = m == 0 ? -1L : mask(r);
            String where = scene + " masks " + treeMask + ", " + worldMask;
            worldPairs.treePairs(tree, treeMask, world, worldMask, pairs, stack);
            tally.check(reference(tree, live, live.length, treeMask, ws, worldMask), pairs, where + ": treePairs");
            int count = live.length == 0 ? 0 : r.nextInt(live.length + 1);
            int[] listed = new int[count + 3];
            for (int i = 0; i < listed.length; i++) {
                listed[i] = live.length == 0 ? 0 : live[r.nextInt(live.length)];
            }
            if (count > 1) {
                listed[count - 1] = listed[0]; // a repeat
            }
            worldPairs.listedPairs(tree, listed, count, treeMask, world, worldMask, pairs, stack);
            tally.check(reference(tree, listed, count, treeMask, ws, worldMask), pairs, where + ": listedPairs");
        }
    }

    @Test
    void tilePairsMatchTheExactReferencePerTile() throws IOException {
        int set = 0;
        for (Place place : PLACES) {
            for (int round = 0; round < ROUNDS; round++) {
                SplittableRandom r = new SplittableRandom(7000 + place.ordinal() * 100L + round);
                int cells = 20 + r.nextInt(40);
                int n = 300 + r.nextInt(800);
                double[] wb = worldBoxes(r, place, n, cells);
                long[] wc = categories(r, n, false);
                Path tilesDir = Files.createDirectory(dir.resolve("tiles" + set++));
                // cells of the tiles a few boxes wide, not aligned with the box grid
                double cellSize = place.step * (12 + r.nextInt(12)) + (r.nextBoolean() ? 0 : place.step * 0.37);
                List<Path> files = TileSetWriter.writeGrid(tilesDir, "t", wb, null, wc, cellSize);
                double[] wo = {place.base, place.base, place.base};
                DynamicAabbTree tree = entities(r, place, cells, wb, 100 + r.nextInt(150), treeOrigin(r, place, wo),
                        r.nextBoolean());
                try (TiledWorld tiled = TiledWorld.open(files, 1L << 30)) {
                    TiledWorld.Scratch scratch = new TiledWorld.Scratch();
                    int[] live = tree.liveHandles();
                    for (int t = 0; t < tiled.tileCount(); t++) {
                        WorldSnap ws;
                        try (MappedWorld alone = MappedWorld.open(tiled.tileFile(t))) {
                            ws = new WorldSnap(alone);
                        }
                        for (int m = 0; m < 2; m++) {
                            long treeMask = m == 0 ? -1L : mask(r);
                            long worldMask = m == 0 ? -1L : mask(r);
                            worldPairs.tilePairs(tree, treeMask, tiled, t, worldMask, pairs, scratch);
                            tally.check(reference(tree, live, live.length, treeMask, ws, worldMask), pairs,
                                    place + " round " + round + " tile " + t + " of " + tiled.tileCount()
                                            + " masks " + treeMask + ", " + worldMask);
                        }
                    }
                }
            }
        }
        assertTrue(tally.pairs() > 1000, "pairs checked " + tally.pairs());
    }

    /**
     * A world's hierarchy spliced into a dynamic tree of another origin ({@code spliceSubtree}): the spliced
     * objects are marked moved, their stored boxes follow the tree's frame; self and moved pairs exact, and the
     * tree against the world it came from.
     */
    @Test
    void splicedWorldPairsExactlyInTheTree() throws IOException {
        for (Place place : PLACES) {
            SplittableRandom r = new SplittableRandom(500 + place.ordinal());
            int cells = 25;
            double[] wb = worldBoxes(r, place, 600, cells);
            Path path = dir.resolve("splice" + place + ".bxw");
            StaticWorldWriter.write(path, wb, null, categories(r, 600, false), null);
            try (MappedWorld world = MappedWorld.open(path)) {
                WorldSnap ws = new WorldSnap(world);
                double[] to = treeOrigin(r, place, ws.origin);
                DynamicAabbTree tree = entities(r, place, cells, wb, 100, to, false);
                dev.boxwood.query.PairBuffer scratch = new dev.boxwood.query.PairBuffer();
                dev.boxwood.index.PairQueries.movedPairs(tree, -1L, scratch, stack); // forget the entities' adds
                int[] spliced = tree.spliceSubtree(world.readTree(), world.readObjectBoxes(), null,
                        world.readCategories());
                String where = place + " splice, world origin " + Arrays.toString(ws.origin) + " tree origin "
                        + Arrays.toString(to);
                Set<Integer> marked = new HashSet<>();
                for (int h : spliced) {
                    marked.add(h);
                }
                for (long mask : new long[] {-1L, 1L << 32, 3L}) {
                    dev.boxwood.index.PairQueries.selfPairs(tree, mask, pairs, stack);
                    tally.check(selfReference(tree, mask, null), pairs, where + " selfPairs mask " + mask);
                }
                List<long[]> expected = selfReference(tree, -1L, marked);
                dev.boxwood.index.PairQueries.movedPairs(tree, -1L, pairs, stack);
                tally.check(expected, pairs, where + " movedPairs");
                checkAll(tree, world, ws, r, where);
            }
        }
    }

    /** Self pairs of a tree from its stored floats; with {@code moved}, those involving a marked object. */
    static List<long[]> selfReference(ReadableTree tree, long mask, Set<Integer> moved) {
        int[] h = tree.liveHandles();
        Arrays.sort(h);
        float[][] b = new float[h.length][6];
        for (int i = 0; i < h.length; i++) {
            tree.getStoredTightBox(h[i], b[i]);
        }
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < h.length; i++) {
            if ((tree.categoryBits(h[i]) & mask) == 0) {
                continue;
            }
            for (int j = i + 1; j < h.length; j++) {
                if ((tree.categoryBits(h[j]) & mask) == 0
                        || moved != null && !moved.contains(h[i]) && !moved.contains(h[j])) {
                    continue;
                }
                boolean hit = true;
                for (int k = 0; k < 3 && hit; k++) {
                    hit = b[i][k] <= b[j][3 + k] && b[j][k] <= b[i][3 + k];
                }
                if (hit) {
                    out.add(new long[] {h[i], h[j]});
                }
            }
        }
        return out;
    }

    /** A world written from a tree keeps the tree's (off-grid) origin: entities of other origins against it. */
    @Test
    void worldWrittenFromATreeWithAnOffGridOrigin() throws IOException {
        for (Place place : PLACES) {
            SplittableRandom r = new SplittableRandom(900 + place.ordinal());
            int cells = 30;
            double[] wb = worldBoxes(r, place, 800, cells);
            double[] so = {place.base + 0.3 * place.step + 1e-7, place.base - 1.1, place.base + Math.E};
            DynamicAabbTree source = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(so[0], so[1], so[2]), wb,
                    null, categories(r, 800, true));
            Path path = dir.resolve("fromTree" + place + ".bxw");
            StaticWorldWriter.write(path, source, source.liveHandles(), null, null);
            try (MappedWorld world = MappedWorld.open(path)) {
                WorldSnap ws = new WorldSnap(world);
                for (int k = 0; k < 3; k++) {
                    double[] to = k == 0 ? ws.origin : treeOrigin(r, place, ws.origin);
                    DynamicAabbTree tree = entities(r, place, cells, wb, 300, to, k == 2);
                    checkAll(tree, world, ws, r, place + " from tree, world origin " + Arrays.toString(ws.origin)
                            + " tree origin " + Arrays.toString(to));
                }
            }
        }
    }
}
