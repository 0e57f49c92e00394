package dev.boxwood.index;

import dev.boxwood.geom.Aabb;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.Sphere;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SpatialIndex;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The value forms of the index API ({@link Aabb}, {@link Sphere}, {@link Obb} in place of bounds) answer exactly as
 * the bounds forms, on the tree and on the brute-force reference, and reject a null value without a change.
 */
class ValueOverloadsTest {

    private final SplittableRandom random = new SplittableRandom(97);
    private final TraversalStack stack = new TraversalStack();
    private final AllOverlaps byValue = new AllOverlaps();
    private final AllOverlaps byBounds = new AllOverlaps();

    @Test
    void shouldAddMoveAndQueryThroughValuesAsThroughBounds() {
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(1e6, -2e6, 0));
        BruteForceIndex brute = new BruteForceIndex(1e6, -2e6, 0);
        int n = 600;
        int[] treeHandles = new int[n];
        int[] bruteHandles = new int[n];
        for (int i = 0; i < n; i++) {
            Aabb box = randomBox(1e6, -2e6, 200);
            treeHandles[i] = tree.add(box, i, 1L << (i % 3));
            bruteHandles[i] = brute.add(box, i, 1L << (i % 3));
            tree.validate();
        }
        for (int i = 0; i < n; i += 3) {
            Aabb box = randomBox(1e6, -2e6, 200);
            tree.move(treeHandles[i], box);
            brute.move(bruteHandles[i], box);
            tree.validate();
            assertEquals(brute.tightBox(bruteHandles[i]), tree.tightBox(treeHandles[i]), "stored box of " + i);
        }
        int reported = 0;
        for (int q = 0; q < 200; q++) {
            Aabb query = grown(randomBox(1e6, -2e6, 200), 15);
            long mask = q % 4 == 0 ? 2L : -1L;
            byValue.reset();
            byBounds.reset();
            tree.queryAabb(query, mask, byValue, stack);
            brute.queryAabb(query.minX(), query.minY(), query.minZ(), query.maxX(), query.maxY(), query.maxZ(), mask,
                    byBounds, stack);
            assertArrayEquals(QueryWorld.sortedUserValues(byBounds), QueryWorld.sortedUserValues(byValue), "box query " + query);
            reported += byValue.count();

            RegionMode mode = RegionMode.values()[q % RegionMode.values().length];
            Sphere sphere = new Sphere(query.minX(), query.minY(), query.minZ(), 20 * random.nextDouble());
            byValue.reset();
            byBounds.reset();
            tree.querySphere(sphere, mode, mask, null, byValue, stack);
            tree.querySphere(sphere.x(), sphere.y(), sphere.z(), sphere.radius(), mode, mask, null, byBounds, stack);
            assertArrayEquals(QueryWorld.sortedUserValues(byBounds), QueryWorld.sortedUserValues(byValue), "sphere " + sphere + " " + mode);
            reported += byValue.count();

            byValue.reset();
            byBounds.reset();
            tree.queryBox(query, mode, mask, null, byValue, stack);
            tree.queryBox(query.minX(), query.minY(), query.minZ(), query.maxX(), query.maxY(), query.maxZ(), mode,
                    mask, null, byBounds, stack);
            assertArrayEquals(QueryWorld.sortedUserValues(byBounds), QueryWorld.sortedUserValues(byValue), "box " + query + " " + mode);

            double angle = random.nextDouble(Math.PI);
            double c = Math.cos(angle);
            double s = Math.sin(angle);
            Obb obb = new Obb(sphere.x(), sphere.y(), sphere.z(), c, s, 0, -s, c, 0, 0, 0, 1, 12, 3, 20);
            double[] layout = new double[ObbLayout.STRIDE];
            obb.writeTo(layout, 0);
            byValue.reset();
            byBounds.reset();
            tree.queryObb(obb, mode, mask, null, byValue, stack);
            tree.queryObb(layout, 0, mode, mask, null, byBounds, stack);
            assertArrayEquals(QueryWorld.sortedUserValues(byBounds), QueryWorld.sortedUserValues(byValue), "obb " + mode);
            reported += byValue.count();
        }
        assertTrue(reported > 400, "the queries should report objects, " + reported);
    }

    @Test
    void shouldRejectNullValuesAndLeaveTheIndexUnchanged() {
        DynamicAabbTree tree = new DynamicAabbTree();
        BruteForceIndex brute = new BruteForceIndex();
        for (SpatialIndex index : new SpatialIndex[] {tree, brute}) {
            int h = index.add(new Aabb(0, 0, 0, 1, 1, 1), 7, -1L);
            assertMessage("box", assertThrows(IllegalArgumentException.class, () -> index.add(null, 8, -1L)));
            assertMessage("box", assertThrows(IllegalArgumentException.class, () -> index.move(h, null)));
            assertMessage("box", assertThrows(IllegalArgumentException.class,
                    () -> index.queryAabb(null, -1L, byValue, stack)));
            assertEquals(1, index.size());
            assertEquals(new Aabb(0, 0, 0, 1, 1, 1), index.tightBox(h));
            index.remove(h);
            assertThrows(IllegalArgumentException.class, () -> index.tightBox(h), "stale handle");
            assertThrows(IllegalArgumentException.class, () -> index.move(h, new Aabb(0, 0, 0, 1, 1, 1)),
                    "stale handle");
            assertEquals(0, index.size());
        }
        tree.validate();
        assertMessage("sphere", assertThrows(IllegalArgumentException.class,
                () -> tree.querySphere((Sphere) null, RegionMode.CROSSING, -1L, null, byValue, stack)));
        assertMessage("box", assertThrows(IllegalArgumentException.class,
                () -> tree.queryBox((Aabb) null, RegionMode.WINDOW, -1L, null, byValue, stack)));
        assertMessage("obb", assertThrows(IllegalArgumentException.class,
                () -> tree.queryObb((Obb) null, RegionMode.CROSSING, -1L, null, byValue, stack)));
        // a sphere value too large for the queries fails as the bounds form does, naming the radius
        assertMessage("radius", assertThrows(IllegalArgumentException.class,
                () -> tree.querySphere(new Sphere(0, 0, 0, 1e200), RegionMode.CROSSING, -1L, null, byValue, stack)));
    }

    private static void assertMessage(String name, IllegalArgumentException e) {
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    private Aabb randomBox(double cx, double cy, double reach) {
        double x = cx + random.nextDouble(-reach, reach);
        double y = cy + random.nextDouble(-reach, reach);
        double z = random.nextDouble(-20, 20);
        return new Aabb(x, y, z, x + random.nextDouble(0, 6), y + random.nextDouble(0, 6), z + random.nextDouble(3));
    }

    private static Aabb grown(Aabb box, double by) {
        return new Aabb(box.minX() - by, box.minY() - by, box.minZ() - by, box.maxX() + by, box.maxY() + by,
                box.maxZ() + by);
    }
}
