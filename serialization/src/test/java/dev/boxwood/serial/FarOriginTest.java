package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Origins at the limit of {@link OutwardFloat#MAX_ORIGIN}: worlds whose boxes need an origin beyond it are refused
 * by the writers (and such a header by the reader, {@code CorruptionTest}), and a world at the limit answers the
 * queries that move their shape into its frame (oblique planes, nearest over tiles) without overflowing.
 */
class FarOriginTest {

    @TempDir
    Path dir;

    @Test
    void shouldRefuseBoxesNoOriginCanHold() {
        double[] boxes = {1e308, 0, 0, 1e308, 1, 1};
        Path file = dir.resolve("far.bxw");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, boxes, null, null, null));
        assertTrue(e.getMessage().contains("origin"), e.getMessage());
        assertFalse(Files.exists(file));
        e = assertThrows(IllegalArgumentException.class,
                () -> TileSetWriter.writeGrid(dir, "far", boxes, null, null, 1e300));
        assertTrue(e.getMessage().contains("origin"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TreeConfig.defaults().withOrigin(0, -2e300, 0));
        assertTrue(e.getMessage().contains("1.0E300"), e.getMessage());
        TreeConfig limit = TreeConfig.defaults().withOrigin(OutwardFloat.MAX_ORIGIN, -OutwardFloat.MAX_ORIGIN, 0);
        assertEquals(-OutwardFloat.MAX_ORIGIN, limit.originY());
    }

    @Test
    void shouldQueryAWorldAtTheLimit() throws IOException {
        // doubles are 1.5e284 apart out here, far more than a stored offset may reach: the objects share one point
        double x = 1e300;
        double y = -1e300;
        double z = 1e300;
        double[] boxes = {x, y, z, x, y, z, x, y, z, x, y, z, x, y, z, x, y, z};
        Path file = dir.resolve("limit.bxw");
        StaticWorldWriter.write(file, boxes, null, null, null);
        // an octahedron around the point: every plane oblique, its distance d - n . origin moved into the frame
        double h = 1e290;
        double[] planes = new double[32];
        int p = 0;
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                for (int sz = -1; sz <= 1; sz += 2) {
                    double s = 1 / Math.sqrt(3);
                    planes[p++] = sx * s;
                    planes[p++] = sy * s;
                    planes[p++] = sz * s;
                    planes[p++] = s * (sx * x + sy * y + sz * z) + h;
                }
            }
        }
        ConvexRegion octahedron = new ConvexRegion(planes, 8);
        TraversalStack stack = new TraversalStack();
        AllOverlaps found = new AllOverlaps();
        NearestNeighbours nearest = new NearestNeighbours();
        try (MappedWorld world = MappedWorld.open(file)) {
            world.verify();
            assertEquals(x, world.originX());
            world.queryConvex(octahedron, RegionMode.CROSSING, -1L, null, found, stack);
            assertEquals(3, found.count());
            world.kNearest(x, y, z, 2, 1e290, -1L, null, null, nearest);
            assertEquals(2, nearest.count());
            assertEquals(0, nearest.handle(0));
            assertEquals(0.0, nearest.distance(0));
            // a plane at the end of the double range (-x <= MAX_VALUE: all of space), whose distance moved into
            // the frame (MAX_VALUE + 1e300) overflows: clamped, it still takes everything
            ConvexRegion everything = new ConvexRegion(new double[] {-1, 0, 0, Double.MAX_VALUE}, 1);
            found.reset();
            world.queryConvex(everything, RegionMode.CROSSING_CONSERVATIVE, -1L, null, found, stack);
            assertEquals(3, found.count());
            DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(x, y, z));
            tree.add(x, y, z, x, y, z, 0, -1L);
            found.reset();
            tree.queryConvex(everything, RegionMode.CROSSING_CONSERVATIVE, -1L, null, found, stack);
            assertEquals(1, found.count());
            ConvexRegion nothing = new ConvexRegion(new double[] {1, 0, 0, -Double.MAX_VALUE}, 1);
            found.reset();
            world.queryConvex(nothing, RegionMode.CROSSING_CONSERVATIVE, -1L, null, found, stack);
            assertEquals(0, found.count());
        }
        List<Path> tiles = TileSetWriter.writeGrid(dir, "limit", boxes, null, null, 1e290);
        TiledWorld.Scratch scratch = new TiledWorld.Scratch();
        try (TiledWorld tiled = TiledWorld.open(tiles, 1L << 20)) {
            found.reset();
            tiled.queryConvex(octahedron, RegionMode.WINDOW, -1L, null, found, scratch);
            assertEquals(3, found.count());
            tiled.kNearest(x, y, z, 2, 1e290, -1L, null, null, nearest, scratch);
            assertEquals(2, nearest.count());
            assertEquals(0.0, nearest.distance(1));
        }
    }
}
