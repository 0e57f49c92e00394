package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every writer takes the per-object arrays in the tree's order, user values then categories: the same two
 * {@code long[]} passed as to {@link DynamicAabbTree#build} give each object the same user value and categories in
 * the world as in the tree (both are {@code long[]}, so a writer taking them the other way round would compile and
 * swap them silently).
 */
class PerObjectArrayOrderTest {

    @TempDir
    Path dir;

    private static final int OBJECTS = 300;

    private final double[] boxes = new double[6 * OBJECTS];
    private final long[] userValues = new long[OBJECTS];
    private final long[] categories = new long[OBJECTS];

    PerObjectArrayOrderTest() {
        SplittableRandom r = new SplittableRandom(41);
        for (int i = 0; i < OBJECTS; i++) {
            double x = r.nextDouble(0, 500);
            double y = r.nextDouble(0, 500);
            double z = r.nextDouble(0, 50);
            double e = r.nextDouble(0.5, 4);
            System.arraycopy(new double[] {x, y, z, x + e, y + e, z + e}, 0, boxes, 6 * i, 6);
            // distinct, and never a valid category pattern of another object: a swap cannot match by chance
            userValues[i] = 1_000_000L + i;
            categories[i] = 1L << (i % 64) | 1L << 63;
        }
    }

    @Test
    void shouldGiveEachObjectTheUserValueAndCategoriesTheTreeGivesIt() throws IOException {
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes, userValues, categories);
        int[] treeHandles = tree.liveHandles();
        assertEquals(OBJECTS, treeHandles.length);
        Map<Long, Long> treeCategories = new HashMap<>();
        for (int h : treeHandles) {
            treeCategories.put(tree.userValue(h), tree.categoryBits(h));
        }
        for (int i = 0; i < OBJECTS; i++) {
            assertEquals(categories[i], treeCategories.get(userValues[i]), "tree, object " + i);
        }

        Path plain = dir.resolve("plain.bxw");
        check(plain, StaticWorldWriter.write(plain, boxes, userValues, categories, null), "double[] boxes");

        Path streamed = dir.resolve("streamed.bxw");
        check(streamed, StaticWorldWriter.write(streamed, BoxSource.of(boxes), userValues, categories, null, null),
                "BoxSource");

        FlatBvh flat = BinnedSahBuilder.defaults().build(boxes);
        float[] stored = BinnedSahBuilder.toFloatBoxes(boxes, flat.originX(), flat.originY(), flat.originZ());
        Path prebuilt = dir.resolve("prebuilt.bxw");
        check(prebuilt, StaticWorldWriter.write(prebuilt, flat, stored, userValues, categories, null), "FlatBvh");

        Path tiles = Files.createDirectory(dir.resolve("tiles"));
        List<Path> files = TileSetWriter.writeGrid(tiles, "t", boxes, userValues, categories, 100.0);
        int seen = 0;
        for (Path file : files) {
            try (MappedWorld world = MappedWorld.open(file)) {
                for (int h = 0; h < world.size(); h++) {
                    int i = (int) (world.userValue(h) - 1_000_000L);
                    assertEquals(categories[i], world.categoryBits(h), "tile " + file.getFileName() + ", object " + i);
                    seen++;
                }
            }
        }
        assertEquals(OBJECTS, seen);
    }

    private void check(Path file, WrittenWorld written, String overload) throws IOException {
        try (MappedWorld world = MappedWorld.open(file)) {
            for (int i = 0; i < OBJECTS; i++) {
                int h = written.handleOf(i);
                assertEquals(userValues[i], world.userValue(h), overload + ", object " + i);
                assertEquals(categories[i], world.categoryBits(h), overload + ", object " + i);
            }
        }
    }
}
