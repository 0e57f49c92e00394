package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The same invalid box gets the same words from every entry point of the trees: single adds, moves and queries,
 * bulk adds and builds (with the box's index), the builder, the splice and the 2D facade.
 */
class InvalidBoxWordingTest {

    private static void assertMessage(String expected, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(expected, e.getMessage());
    }

    /** Two valid boxes and, third, the bad bounds on axis y (the bulk paths name it as box 2). */
    private static double[] thirdBoxWithY(double minY, double maxY) {
        return new double[] {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, minY, 4, 5, maxY, 5};
    }

    @Test
    void shouldWordAnInvertedBoxAlikeOnEveryEntryPoint() {
        assertAlike("is inverted on axis y: minY = 2.0 > maxY = 1.0", 2, 1);
    }

    @Test
    void shouldWordANaNBoundAlikeOnEveryEntryPoint() {
        assertAlike("has a NaN bound on axis y: minY = NaN, maxY = 1.0", Double.NaN, 1);
    }

    @Test
    void shouldWordAnInfiniteBoundAlikeOnEveryEntryPoint() {
        assertAlike("has an infinite bound on axis y: minY = 0.0, maxY = Infinity", 0, Double.POSITIVE_INFINITY);
    }

    private static void assertAlike(String problem, double minY, double maxY) {
        DynamicAabbTree tree = new DynamicAabbTree();
        int handle = tree.add(0, 0, 0, 1, 1, 1, 0, -1L);
        String single = "box " + problem;
        assertMessage(single, () -> tree.add(0, minY, 0, 1, maxY, 1, 0, -1L));
        assertMessage(single, () -> tree.move(handle, 0, minY, 0, 1, maxY, 1));
        assertMessage(single, () -> RegionQueries.queryBox(tree, 0, minY, 0, 1, maxY, 1, RegionMode.CROSSING, -1L,
                null, new AllOverlaps(), new TraversalStack()));

        double[] boxes = thirdBoxWithY(minY, maxY);
        String bulk = "boxes: box 2 " + problem;
        assertMessage(bulk, () -> tree.addAll(boxes, null, null));
        assertMessage(bulk, () -> DynamicAabbTree.build(TreeConfig.defaults(), boxes, null, null));
        assertMessage(bulk, () -> BinnedSahBuilder.defaults().build(boxes));

        float[] floats = new float[boxes.length];
        for (int i = 0; i < boxes.length; i++) {
            floats[i] = (float) boxes[i];
        }
        assertMessage(bulk, () -> BinnedSahBuilder.defaults().buildInPlace(floats.clone(), 0, 0, 0));
        // the hierarchy of valid boxes, spliced with the bad ones as its object boxes
        FlatBvh valid = BinnedSahBuilder.defaults().build(thirdBoxWithY(4, 5));
        assertMessage("objectBoxes: box 2 " + problem, () -> tree.spliceSubtree(valid, floats, null, null));
        assertEquals(1, tree.size(), "nothing added");

        DynamicAabbTree2D plane = new DynamicAabbTree2D();
        assertMessage(single, () -> plane.add(0, minY, 1, maxY, 0, -1L));
        assertMessage("rectangles: rectangle 1 " + problem,
                () -> plane.addAll(new double[] {0, 0, 1, 1, 0, minY, 1, maxY}, null, null));
    }

    @Test
    void shouldNameTheAxisByLetterForABoxBeyondTheStorageRange() {
        DynamicAabbTree tree = new DynamicAabbTree();
        assertMessage("box reaches more than 1.0E18 from the origin 0.0 on axis z (the float storage range): "
                + "minZ = 0.0, maxZ = 2.0E18", () -> tree.add(0, 0, 0, 1, 1, 2e18, 0, -1L));
        double[] far = {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 2e18};
        assertMessage("boxes: box 1 reaches more than 1.0E18 from the origin 0.0 on axis z (the float storage "
                + "range): minZ = 0.0, maxZ = 2.0E18", () -> tree.addAll(far, null, null));
        float[] far32 = {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 2e18f};
        // the float as this JVM prints it (not a constant the compiler would print: JDK 19 changed Float.toString)
        String maxZ = Float.toString(far32[11]);
        assertMessage("boxes: box 1 reaches more than 1.0E18 from its origin on axis z (the float storage range): "
                + "minZ = 0.0, maxZ = " + maxZ, () -> BinnedSahBuilder.defaults().buildInPlace(far32, 0, 0, 0));
        DynamicAabbTree2D plane = new DynamicAabbTree2D();
        assertMessage("rectangles: rectangle 0 reaches more than 1.0E18 from the origin 0.0 on axis x (the float "
                + "storage range): minX = 0.0, maxX = 2.0E18",
                () -> plane.addAll(new double[] {0, 0, 2e18, 1}, null, null));
        assertEquals(0, tree.size());
    }
}
