package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.ReadView;
import dev.boxwood.index.ReadableTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.index.TreeSnapshots;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WorldPairs} against nested loops over the stored boxes with the same rule (the tree's floats moved into the
 * world's frame by the origin difference), and against the world's box query where that is exact.
 */
@ExtendWith(TracedReferences.class)
class WorldPairsTest {

    /** Coordinates lie on this grid, so boxes touch exactly in world coordinates. */
    private static final double GRID = 1.0 / 1024;
    private static final long[] MASKS = {-1L, 0x0000_0000_0000_00F0L, 0x8000_0000_0000_0001L, 0L};

    @TempDir
    Path dir;

    private final TraversalStack stack = new TraversalStack(1);
    private final PairBuffer pairs = new PairBuffer(1);
    private final WorldPairs worldPairs = new WorldPairs();

    /** Where the scene lies, and how the tree's origin relates to the world's. */
    enum Frames {
        SAME_ORIGIN(0, 0, 0, 0, false),
        SHIFTED_ORIGIN(0, 100.5, -33.25, 7.0, false),
        ODD_ORIGIN(0, 0.1, -1.0 / 3, 1e-3, false),
        FAR_SAME_ORIGIN(1e6, 0, 0, 0, false),
        FAR_SHIFTED_ORIGIN(1e6, -250.75, 12.125, 0.5, false),
        FAR_TREE_AT_ZERO(1e6, 0, 0, 0, true);

        final double centre;
        final double dx;
        final double dy;
        final double dz;
        final boolean treeAtZero;

        Frames(double centre, double dx, double dy, double dz, boolean treeAtZero) {
            this.centre = centre;
            this.dx = dx;
            this.dy = dy;
            this.dz = dz;
            this.treeAtZero = treeAtZero;
        }

        TreeConfig config(MappedWorld world) {
            if (treeAtZero) {
                return TreeConfig.defaults().withOrigin(0, 0, 0);
            }
            return TreeConfig.defaults().withOrigin(world.originX() + dx, world.originY() + dy, world.originZ() + dz);
        }

        boolean sameOrigin() {
            return dx == 0 && dy == 0 && dz == 0 && !treeAtZero;
        }
    }

    static Stream<Frames> frames() {
        return Stream.of(Frames.values());
    }

    /** A world of grid boxes written with {@link StaticWorldWriter}, with its inputs. */
    private static final class Scene {
        final double[] boxes;
        final long[] categories;
        final WrittenWorld written;

        Scene(double[] boxes, long[] categories, WrittenWorld written) {
            this.boxes = boxes;
            this.categories = categories;
            this.written = written;
        }
    }

    private Scene writeWorld(String name, double centre, int n, long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        double[] boxes = new double[6 * n];
        long[] categories = new long[n];
        for (int i = 0; i < n; i++) {
            randomGridBox(r, centre, 32, boxes, 6 * i);
            categories[i] = randomCategory(r);
        }
        WrittenWorld written = StaticWorldWriter.write(dir.resolve(name + ".bxw"), boxes, null, categories, null);
        return new Scene(boxes, categories, written);
    }

    /** A box on the grid within {@code [centre, centre + extent)}, a tenth of them of zero size. */
    private static void randomGridBox(SplittableRandom r, double centre, int extent, double[] dest, int at) {
        int cells = extent * 1024;
        boolean point = r.nextInt(10) == 0;
        for (int a = 0; a < 3; a++) {
            int lo = r.nextInt(cells);
            int size = point ? 0 : r.nextInt(4 * 1024);
            dest[at + a] = centre + lo * GRID;
            dest[at + 3 + a] = centre + (lo + size) * GRID;
        }
    }

    private static long randomCategory(SplittableRandom r) {
        return r.nextInt(20) == 0 ? 0L : 1L << r.nextInt(64) | (r.nextBoolean() ? 1L << r.nextInt(64) : 0);
    }

    /**
     * Entities: random grid boxes over the world, boxes touching a world box on one face, edge or corner (shifted
     * so that their min meets its max or the other way), and a few far outside.
     */
    private static double[] entityBoxes(SplittableRandom r, Scene scene, double centre, int n) {
        double[] e = new double[6 * n];
        int worldCount = scene.boxes.length / 6;
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(10);
            int at = 6 * i;
            if (kind < 5 || worldCount == 0) {
                randomGridBox(r, centre, 32, e, at);
            } else if (kind < 9) {
                int w = 6 * r.nextInt(worldCount);
                for (int a = 0; a < 3; a++) {
                    double size = r.nextInt(3 * 1024) * GRID;
                    int side = r.nextInt(3);
                    if (side == 0) {
                        // ends where the world box begins
                        e[at + 3 + a] = scene.boxes[w + a];
                        e[at + a] = e[at + 3 + a] - size;
                    } else if (side == 1) {
                        // begins where the world box ends
                        e[at + a] = scene.boxes[w + 3 + a];
                        e[at + 3 + a] = e[at + a] + size;
                    } else {
                        e[at + a] = scene.boxes[w + a];
                        e[at + 3 + a] = scene.boxes[w + 3 + a];
                    }
                }
            } else {
                randomGridBox(r, centre + 1e4, 32, e, at);
            }
        }
        return e;
    }

    /** The reference: every (tree handle, world handle) pair by the rule, in nested loops over the stored boxes. */
    private static List<long[]> brutePairs(BruteForceIndex tree, int[] treeHandles, long treeMask, MappedWorld world,
                                           long worldMask) throws IOException {
        float[] w = world.readObjectBoxes();
        long[] categories = world.readCategories();
        double dx = tree.originX() - world.originX();
        double dy = tree.originY() - world.originY();
        double dz = tree.originZ() - world.originZ();
        float[] t = new float[6];
        TreeSet<Integer> distinct = new TreeSet<>();
        for (int h : treeHandles) {
            distinct.add(h);
        }
        List<long[]> expected = new ArrayList<>();
        for (int h : distinct) {
            if ((tree.categoryBits(h) & treeMask) == 0) {
                continue;
            }
            tree.getStoredTightBox(h, t);
            for (int o = 0; o < categories.length; o++) {
                if ((categories[o] & worldMask) != 0 && AabbAabb.test(t[0] + dx, t[1] + dy, t[2] + dz, t[3] + dx,
                        t[4] + dy, t[5] + dz, w[6 * o], w[6 * o + 1], w[6 * o + 2], w[6 * o + 3], w[6 * o + 4],
                        w[6 * o + 5])) {
                    expected.add(new long[] {h, o});
                }
            }
        }
        return expected;
    }

    private static void assertPairs(List<long[]> expected, PairBuffer actual, String where) {
        // the reference comes in (first, second) order: distinct handles ascending, world handles ascending
        assertEquals(expected.size(), actual.size(), where + ": pair count");
        for (int i = 0; i < expected.size(); i++) {
            long[] p = expected.get(i);
            assertEquals(p[0], actual.first(i), where + ": pair " + i + " first");
            assertEquals(p[1], actual.second(i), where + ": pair " + i + " second");
        }
    }

    /** A tree and its brute-force mirror with the same origin (so the same stored floats and handles). */
    private static final class Entities {
        final DynamicAabbTree tree;
        final BruteForceIndex brute;
        final int[] handles;

        Entities(TreeConfig config, double[] boxes, SplittableRandom r) {
            tree = new DynamicAabbTree(config);
            brute = new BruteForceIndex(config.originX(), config.originY(), config.originZ());
            int n = boxes.length / 6;
            handles = new int[n];
            for (int i = 0; i < n; i++) {
                long category = randomCategory(r);
                int at = 6 * i;
                handles[i] = tree.add(boxes[at], boxes[at + 1], boxes[at + 2], boxes[at + 3], boxes[at + 4],
                        boxes[at + 5], i, category);
                int mirrored = brute.add(boxes[at], boxes[at + 1], boxes[at + 2], boxes[at + 3], boxes[at + 4],
                        boxes[at + 5], i, category);
                assertEquals(handles[i], mirrored, "the mirror hands out the tree's handles");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void shouldMatchNestedLoopsOverStoredBoxes(Frames frames) throws IOException {
        for (long seed = 1; seed <= 3; seed++) {
            Scene scene = writeWorld(frames + "-" + seed, frames.centre, 1500, seed);
            try (MappedWorld world = MappedWorld.open(dir.resolve(frames + "-" + seed + ".bxw"))) {
                SplittableRandom r = new SplittableRandom(100 + seed);
                Entities entities = new Entities(frames.config(world), entityBoxes(r, scene, frames.centre, 400), r);
                int reported = 0;
                for (long treeMask : MASKS) {
                    for (long worldMask : MASKS) {
                        String where = frames + " seed " + seed + " masks " + treeMask + ", " + worldMask;
                        worldPairs.treePairs(entities.tree, treeMask, world, worldMask, pairs, stack);
                        assertPairs(brutePairs(entities.brute, entities.handles, treeMask, world, worldMask), pairs,
                                where + ": tree pairs");
                        reported += pairs.size();
                        int[] listed = randomList(r, entities.handles);
                        worldPairs.listedPairs(entities.tree, listed, listed.length, treeMask, world, worldMask,
                                pairs, stack);
                        assertPairs(brutePairs(entities.brute, listed, treeMask, world, worldMask), pairs,
                                where + ": listed pairs");
                    }
                }
                assertTrue(reported > 500, frames + ": pairs reported " + reported);
                if (frames.sameOrigin()) {
                    assertSameAsBoxQueries(entities, world);
                }
            }
        }
    }

    /** Some of the handles, a few of them repeated, in random order. */
    private static int[] randomList(SplittableRandom r, int[] handles) {
        int n = r.nextInt(handles.length + 1);
        int[] list = new int[n + n / 4];
        for (int i = 0; i < list.length; i++) {
            list[i] = i < n ? handles[r.nextInt(handles.length)] : list[r.nextInt(n)];
        }
        return list;
    }

    /**
     * With equal origins, an entity's box in world coordinates ({@code getTightBox}) taken back to the world's frame
     * by its box query gives back the stored floats whenever {@code origin + f} was exact, and then the query must
     * find exactly the entity's pairs.
     */
    private void assertSameAsBoxQueries(Entities entities, MappedWorld world) {
        double[] box = new double[6];
        float[] stored = new float[6];
        int checked = 0;
        worldPairs.treePairs(entities.tree, -1L, world, -1L, pairs, stack);
        for (int h : entities.handles) {
            entities.tree.getTightBox(h, box);
            entities.tree.getStoredTightBox(h, stored);
            double[] origin = {world.originX(), world.originY(), world.originZ()};
            boolean exact = true;
            for (int c = 0; c < 6; c++) {
                exact &= box[c] - origin[c % 3] == stored[c];
            }
            if (!exact || entities.tree.categoryBits(h) == 0) {
                continue;
            }
            checked++;
            TreeSet<Integer> found = new TreeSet<>();
            world.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, (o, v) -> {
                found.add(o);
                return true;
            }, stack);
            TreeSet<Integer> paired = new TreeSet<>();
            for (int i = 0; i < pairs.size(); i++) {
                if (pairs.first(i) == h) {
                    paired.add(pairs.second(i));
                }
            }
            assertEquals(found, paired, "entity " + h + ": its pairs and the world's box query");
        }
        assertTrue(checked > entities.handles.length / 2, "entities checked by box queries: " + checked);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void shouldPairBoxesTouchingOnTheGrid(Frames frames) throws IOException {
        double c = frames.centre;
        // a 4 x 4 x 4 lattice of unit cubes with gaps of 1/1024 between them, and a point apart
        double step = 1 + GRID;
        double[] boxes = new double[6 * 65];
        for (int i = 0; i < 64; i++) {
            double x = c + (i & 3) * step;
            double y = c + (i >> 2 & 3) * step;
            double z = c + (i >> 4) * step;
            double[] b = {x, y, z, x + 1, y + 1, z + 1};
            System.arraycopy(b, 0, boxes, 6 * i, 6);
        }
        double[] point = {c - 3, c - 3, c - 3, c - 3, c - 3, c - 3};
        System.arraycopy(point, 0, boxes, 6 * 64, 6);
        Path file = dir.resolve("lattice.bxw");
        WrittenWorld written = StaticWorldWriter.write(file, boxes, null, null, null);
        try (MappedWorld world = MappedWorld.open(file)) {
            DynamicAabbTree tree = new DynamicAabbTree(frames.config(world));
            // filling the gap between cubes 0 and 1 exactly: touches both, and nothing else
            int gap = tree.add(c + 1, c, c, c + step, c + 1, c + 1, 0, 1);
            // touching cube 0 only at its corner (c, c, c) from below
            int corner = tree.add(c - 0.5, c - 0.5, c - 0.5, c, c, c, 0, 1);
            // a zero-size box on the shared face plane of cubes 0 and 4 in y, inside the gap: touches neither
            int between = tree.add(c + 0.5, c + 1 + GRID / 2, c + 0.5, c + 0.5, c + 1 + GRID / 2, c + 0.5, 0, 1);
            // a zero-size box on cube 0's top face
            int onFace = tree.add(c + 0.25, c + 0.25, c + 1, c + 0.25, c + 0.25, c + 1, 0, 1);
            // the world's point, hit exactly by a zero-size box at the same place
            int onPoint = tree.add(point[0], point[1], point[2], point[3], point[4], point[5], 0, 1);
            // one grid step short of cube 0 in x
            int short1 = tree.add(c - 2, c, c, c - GRID, c + 1, c + 1, 0, 1);
            // far outside the world
            int far = tree.add(c + 5e5, c + 5e5, c + 5e5, c + 5e5 + 1, c + 5e5 + 1, c + 5e5 + 1, 0, 1);
            worldPairs.treePairs(tree, -1L, world, -1L, pairs, stack);
            List<long[]> expected = new ArrayList<>();
            int cube0 = written.handleOf(0);
            int cube1 = written.handleOf(1);
            int pointHandle = written.handleOf(64);
            expected.add(new long[] {gap, Math.min(cube0, cube1)});
            expected.add(new long[] {gap, Math.max(cube0, cube1)});
            expected.add(new long[] {corner, cube0});
            expected.add(new long[] {onFace, cube0});
            expected.add(new long[] {onPoint, pointHandle});
            expected.sort((p, q) -> p[0] != q[0] ? Long.compare(p[0], q[0]) : Long.compare(p[1], q[1]));
            if (frames.treeAtZero) {
                // 1e6 from the tree's origin a float step is 1/16: the boxes grow outward and pair more, never less
                for (long[] p : expected) {
                    assertTrue(contains(pairs, p), frames + ": pair " + p[0] + ", " + p[1]);
                }
                assertTrue(!hasFirst(pairs, far), frames + ": the far box pairs with nothing");
            } else {
                assertPairs(expected, pairs, frames + " lattice");
                assertTrue(!hasFirst(pairs, between) && !hasFirst(pairs, short1));
            }
            int[] listed = {onPoint, gap, far, gap, onPoint};
            worldPairs.listedPairs(tree, listed, listed.length, -1L, world, -1L, pairs, stack);
            assertTrue(contains(pairs, new long[] {onPoint, pointHandle}) && contains(pairs, new long[] {gap, cube0}));
            // exactly the three touching pairs of the listed entities where the frames keep the grid exact; with the
            // tree at zero (1e6 away) borderline neighbours may pair too
            if (frames.treeAtZero) {
                assertTrue(pairs.size() >= 3, frames + ": " + pairs.size() + " pairs");
            } else {
                assertEquals(3, pairs.size());
            }
            assertTrue(!hasFirst(pairs, far) && !hasFirst(pairs, corner), frames + ": only listed entities");
        }
    }

    private static boolean contains(PairBuffer pairs, long[] pair) {
        for (int i = 0; i < pairs.size(); i++) {
            if (pairs.first(i) == pair[0] && pairs.second(i) == pair[1]) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasFirst(PairBuffer pairs, int handle) {
        for (int i = 0; i < pairs.size(); i++) {
            if (pairs.first(i) == handle) {
                return true;
            }
        }
        return false;
    }

    @Test
    void shouldReportNothingForAnEmptyTreeOrAnEmptyWorld() throws IOException {
        Scene scene = writeWorld("some", 0, 200, 7);
        Path empty = dir.resolve("empty.bxw");
        StaticWorldWriter.write(empty, new double[0], null, null, null);
        try (MappedWorld world = MappedWorld.open(dir.resolve("some.bxw"));
             MappedWorld nothing = MappedWorld.open(empty)) {
            DynamicAabbTree emptyTree = new DynamicAabbTree();
            pairs.add(1, 2);
            worldPairs.treePairs(emptyTree, -1L, world, -1L, pairs, stack);
            assertEquals(0, pairs.size());
            worldPairs.listedPairs(emptyTree, new int[0], 0, -1L, world, -1L, pairs, stack);
            assertEquals(0, pairs.size());
            SplittableRandom r = new SplittableRandom(8);
            Entities entities = new Entities(TreeConfig.defaults(), entityBoxes(r, scene, 0, 100), r);
            pairs.add(1, 2);
            worldPairs.treePairs(entities.tree, -1L, nothing, -1L, pairs, stack);
            assertEquals(0, pairs.size());
            pairs.add(1, 2);
            worldPairs.listedPairs(entities.tree, entities.handles, 50, -1L, nothing, -1L, pairs, stack);
            assertEquals(0, pairs.size());
            worldPairs.treePairs(entities.tree, -1L, world, -1L, pairs, stack);
            assertTrue(pairs.size() > 0);
        }
    }

    @Test
    void shouldAnswerForAReadViewAsForTheTreeAtItsVersion() throws IOException {
        Scene scene = writeWorld("viewed", 0, 1000, 11);
        try (MappedWorld world = MappedWorld.open(dir.resolve("viewed.bxw"))) {
            SplittableRandom r = new SplittableRandom(12);
            TreeConfig config = TreeConfig.defaults().withOrigin(world.originX() + 3.5, world.originY(), 0);
            Entities entities = new Entities(config, entityBoxes(r, scene, 0, 300), r);
            TreeSnapshots snapshots = new TreeSnapshots(entities.tree);
            snapshots.publish();
            List<long[]> before = brutePairs(entities.brute, entities.handles, -1L, world, 0xFFL);
            int[] listed = randomList(r, entities.handles);
            List<long[]> beforeListed = brutePairs(entities.brute, listed, -1L, world, 0xFFL);
            try (ReadView view = snapshots.acquire()) {
                assertEquals(entities.tree.originX(), view.originX());
                // the writer goes on: the view keeps its version's answers
                for (int h : entities.handles) {
                    entities.tree.move(h, 0, 0, 0, 64, 64, 64);
                }
                worldPairs.treePairs(view, -1L, world, 0xFFL, pairs, stack);
                assertPairs(before, pairs, "view tree pairs");
                worldPairs.listedPairs(view, listed, listed.length, -1L, world, 0xFFL, pairs, stack);
                assertPairs(beforeListed, pairs, "view listed pairs");
            }
        }
    }

    @Test
    void shouldTakeInObjectsPendingUnderDeferredAdds() throws IOException {
        Scene scene = writeWorld("deferred", 0, 500, 13);
        try (MappedWorld world = MappedWorld.open(dir.resolve("deferred.bxw"))) {
            SplittableRandom r = new SplittableRandom(14);
            TreeConfig config = TreeConfig.defaults().withOrigin(world.originX(), world.originY(), world.originZ())
                    .withDeferredAdds(true);
            Entities entities = new Entities(config, entityBoxes(r, scene, 0, 200), r);
            assertTrue(entities.tree.pendingAdds() > 0);
            worldPairs.listedPairs(entities.tree, entities.handles, 200, -1L, world, -1L, pairs, stack);
            assertPairs(brutePairs(entities.brute, entities.handles, -1L, world, -1L), pairs, "pending, listed");
            worldPairs.treePairs(entities.tree, -1L, world, -1L, pairs, stack);
            assertPairs(brutePairs(entities.brute, entities.handles, -1L, world, -1L), pairs, "pending, tree");
        }
    }

    @Test
    void shouldRejectBadInputAndLeaveTheDestinationAlone() throws IOException {
        Scene scene = writeWorld("bad", 0, 300, 15);
        Path file = dir.resolve("bad.bxw");
        MappedWorld world = MappedWorld.open(file);
        SplittableRandom r = new SplittableRandom(16);
        Entities entities = new Entities(TreeConfig.defaults(), entityBoxes(r, scene, 0, 50), r);
        DynamicAabbTree tree = entities.tree;
        int[] handles = entities.handles.clone();
        tree.remove(handles[7]);
        int[] live = {handles[0], handles[1]};
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.treePairs(null, -1L, world, -1L, pairs, stack));
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.treePairs(tree, -1L, null, -1L, pairs, stack));
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.treePairs(tree, -1L, world, -1L, pairs, null));
        assertThrows(IllegalArgumentException.class, () -> worldPairs.treePairs(tree, -1L, world, -1L, null, stack));
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.listedPairs(tree, null, 0, -1L, world, -1L, pairs, stack));
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.listedPairs(tree, live, -1, -1L, world, -1L, pairs, stack));
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.listedPairs(tree, live, 3, -1L, world, -1L, pairs, stack));
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.listedPairs(null, live, 2, -1L, world, -1L, pairs, stack));
        IllegalArgumentException stale = assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.listedPairs(tree, handles, 10, -1L, world, -1L, pairs, stack));
        assertTrue(stale.getMessage().contains("handles[7]"), stale.getMessage());
        assertUntouched(IllegalArgumentException.class,
                () -> worldPairs.listedPairs(tree, new int[] {-5}, 1, -1L, world, -1L, pairs, stack));
        // past the count, a stale handle is not read
        worldPairs.listedPairs(tree, handles, 7, -1L, world, -1L, pairs, stack);
        world.close();
        IllegalStateException closed = assertUntouched(IllegalStateException.class,
                () -> worldPairs.treePairs(tree, -1L, world, -1L, pairs, stack));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertUntouched(IllegalStateException.class,
                () -> worldPairs.listedPairs(tree, live, 2, -1L, world, -1L, pairs, stack));
        // the instance was given back after each failure
        try (MappedWorld reopened = MappedWorld.open(file)) {
            worldPairs.listedPairs(tree, handles, 7, -1L, reopened, -1L, pairs, stack);
        }
    }

    /** Runs a call that must throw {@code type} and checks that the destination still holds its one pair. */
    private <T extends Throwable> T assertUntouched(Class<T> type, Executable call) {
        pairs.clear();
        pairs.add(123, 456);
        T thrown = assertThrows(type, call);
        assertEquals(1, pairs.size(), "the destination was written: " + thrown.getMessage());
        assertEquals(123, pairs.first(0));
        assertEquals(456, pairs.second(0));
        return thrown;
    }

    // -----------------------------------------------------------------------------------------------------------
    // tiles

    /** The scene cut into tiles of 12 units (at least 8 for the scenes here), in a directory of their own. */
    private List<Path> writeTiles(String name, Scene scene) throws IOException {
        Path tileDir = dir.resolve(name);
        java.nio.file.Files.createDirectories(tileDir);
        return TileSetWriter.writeGrid(tileDir, "t", scene.boxes, null, scene.categories, 12.0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void shouldPairEachTileAsItsOwnWorld(Frames frames) throws IOException {
        Scene scene = writeWorld(frames + "-whole", frames.centre, 2000, 7);
        List<Path> tiles = writeTiles(frames + "-tiles", scene);
        assertTrue(tiles.size() >= 8, tiles.size() + " tiles");
        long largest = 0;
        for (Path t : tiles) {
            largest = Math.max(largest, java.nio.file.Files.size(t));
        }
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        // a budget of two tiles: the calls map and unmap as they go
        try (TiledWorld tiled = TiledWorld.open(tiles, 2 * largest);
             MappedWorld whole = MappedWorld.open(dir.resolve(frames + "-whole.bxw"))) {
            SplittableRandom r = new SplittableRandom(77);
            Entities entities = new Entities(frames.config(whole), entityBoxes(r, scene, frames.centre, 500), r);
            int reported = 0;
            for (int tile = 0; tile < tiles.size(); tile++) {
                try (MappedWorld alone = MappedWorld.open(tiles.get(tile))) {
                    for (long[] masks : new long[][] {{-1L, -1L}, {MASKS[1], MASKS[2]}}) {
                        String where = frames + " tile " + tile + " masks " + masks[0] + ", " + masks[1];
                        worldPairs.tilePairs(entities.tree, masks[0], tiled, tile, masks[1], pairs, scratch);
                        assertPairs(brutePairs(entities.brute, entities.handles, masks[0], alone, masks[1]), pairs,
                                where);
                        reported += pairs.size();
                    }
                }
            }
            assertTrue(reported > 300, frames + ": pairs reported " + reported);
            assertTrue(tiled.unmapCount() > 0, "the budget unmapped tiles between calls");
            assertEquals(-1, scratch.tile(), "the scratch is left outside any tile");
        }
    }

    @Test
    void shouldNotMapATileNoEntityCanMeet() throws IOException {
        Scene scene = writeWorld("unmet", 0, 500, 8);
        List<Path> tiles = writeTiles("unmet-tiles", scene);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        try (TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            DynamicAabbTree far = new DynamicAabbTree();
            far.add(1e4, 1e4, 1e4, 1e4 + 1, 1e4 + 1, 1e4 + 1, 0, -1L);
            DynamicAabbTree empty = new DynamicAabbTree();
            for (int tile = 0; tile < tiles.size(); tile++) {
                worldPairs.tilePairs(far, -1L, tiled, tile, -1L, pairs, scratch);
                assertEquals(0, pairs.size());
                worldPairs.tilePairs(empty, -1L, tiled, tile, -1L, pairs, scratch);
                assertEquals(0, pairs.size());
            }
            assertEquals(0, tiled.mapCount(), "no tile mapped");
        }
    }

    @Test
    void shouldRejectBadTileArgumentsAndLeaveTheDestinationAlone() throws IOException {
        Scene scene = writeWorld("bad-tiles", 0, 300, 9);
        List<Path> tiles = writeTiles("bad-tiles", scene);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        DynamicAabbTree tree = new DynamicAabbTree();
        tree.add(0, 0, 0, 40, 40, 40, 0, -1L);
        TiledWorld tiled = TiledWorld.open(tiles, Long.MAX_VALUE);
        worldPairs.tilePairs(tree, -1L, tiled, 0, -1L, pairs, scratch);
        int before = pairs.size();
        assertTrue(before > 0);
        Executable[] bad = {
            () -> worldPairs.tilePairs(tree, -1L, tiled, -1, -1L, pairs, scratch),
            () -> worldPairs.tilePairs(tree, -1L, tiled, tiles.size(), -1L, pairs, scratch),
            () -> worldPairs.tilePairs(null, -1L, tiled, 0, -1L, pairs, scratch),
            () -> worldPairs.tilePairs(tree, -1L, null, 0, -1L, pairs, scratch),
            () -> worldPairs.tilePairs(tree, -1L, tiled, 0, -1L, null, scratch),
            () -> worldPairs.tilePairs(tree, -1L, tiled, 0, -1L, pairs, null),
        };
        for (Executable call : bad) {
            assertThrows(IllegalArgumentException.class, call);
            assertEquals(before, pairs.size(), "dest untouched");
        }
        tiled.close();
        assertThrows(IllegalStateException.class, () -> worldPairs.tilePairs(tree, -1L, tiled, 0, -1L, pairs,
                scratch));
        assertEquals(before, pairs.size(), "dest untouched by a closed tiled world");
        // still usable afterwards
        try (TiledWorld again = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            worldPairs.tilePairs(tree, -1L, again, 0, -1L, pairs, scratch);
            assertEquals(before, pairs.size());
        }
    }
}
