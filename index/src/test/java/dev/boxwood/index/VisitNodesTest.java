package dev.boxwood.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.query.Handles;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import dev.boxwood.testkit.scenes.WorldFrame;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hierarchy walk for debug drawing and quality measures. */
class VisitNodesTest {

    private record Box(int depth, int handle, double[] bounds) {
    }

    private static List<Box> walk(ReadableTree tree) {
        List<Box> boxes = new ArrayList<>();
        tree.visitNodes((depth, handle, x0, y0, z0, x1, y1, z1) ->
                boxes.add(new Box(depth, handle, new double[] {x0, y0, z0, x1, y1, z1})), new TraversalStack(1));
        return boxes;
    }

    private static boolean contains(double[] outer, double[] inner) {
        return outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] <= inner[2]
                && outer[3] >= inner[3] && outer[4] >= inner[4] && outer[5] >= inner[5];
    }

    @Test
    void shouldVisitEveryNodeAndFatBoxParentsFirst() {
        BoxSet boxes = SyntheticWorld.clustered(3000, 41, WorldFrame.offset(1e6)).boxes();
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withOrigin(1e6, 1e6, 0));
        for (int i = 0; i < boxes.size(); i++) {
            tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1);
        }
        for (int i = 0; i < 500; i++) {
            tree.remove(i * 5);
        }
        tree.validate();
        List<Box> visited = walk(tree);
        // n objects and n - 1 internal nodes
        assertEquals(2 * tree.size() - 1, visited.size());
        Map<Integer, double[]> fat = new HashMap<>();
        double internalCost = 0;
        int maxDepth = 0;
        // depth-first, parents first: the path of open ancestors is a stack indexed by depth
        List<double[]> path = new ArrayList<>();
        for (Box b : visited) {
            assertTrue(b.depth() <= path.size(), "a child comes right after its parent's subtree starts");
            while (path.size() > b.depth()) {
                path.remove(path.size() - 1);
            }
            if (!path.isEmpty()) {
                assertTrue(contains(path.get(path.size() - 1), b.bounds()), "parent contains child");
            }
            maxDepth = Math.max(maxDepth, b.depth());
            if (b.handle() == Handles.NONE) {
                path.add(b.bounds());
                if (b.depth() > 0) {
                    double[] x = b.bounds();
                    double dx = x[3] - x[0];
                    double dy = x[4] - x[1];
                    double dz = x[5] - x[2];
                    internalCost += dx * dy + dy * dz + dz * dx;
                }
            } else {
                fat.put(b.handle(), b.bounds());
            }
        }
        assertEquals(tree.size(), fat.size());
        double[] expected = new double[6];
        for (Map.Entry<Integer, double[]> e : fat.entrySet()) {
            tree.getFatBox(e.getKey(), expected);
            assertArrayEquals(expected, e.getValue(), 0.0);
        }
        assertEquals(tree.height(), maxDepth, "the deepest leaf lies height levels below the root");
        // the internal boxes below the root reproduce the area ratio
        double[] root = visited.get(0).bounds();
        double rx = root[3] - root[0];
        double ry = root[4] - root[1];
        double rz = root[5] - root[2];
        assertEquals(tree.areaRatio(), 1 + internalCost / (rx * ry + ry * rz + rz * rx), 1e-6 * tree.areaRatio());
        // a published view walks the same hierarchy, and keeps it while the tree changes
        TreeSnapshots snapshots = new TreeSnapshots(tree);
        snapshots.publish();
        try (ReadView view = snapshots.acquire()) {
            tree.remove(1);
            List<Box> seen = walk(view);
            assertEquals(visited.size(), seen.size());
            for (int i = 0; i < seen.size(); i++) {
                assertEquals(visited.get(i).handle(), seen.get(i).handle());
                assertEquals(visited.get(i).depth(), seen.get(i).depth());
                assertArrayEquals(visited.get(i).bounds(), seen.get(i).bounds(), 0.0);
            }
        }
        assertEquals(visited.size() - 2, walk(tree).size());
    }

    @Test
    void shouldVisitNothingInAnEmptyTreeAndOneLeafForOneObject() {
        DynamicAabbTree tree = new DynamicAabbTree();
        assertEquals(0, walk(tree).size());
        int h = tree.add(1, 2, 3, 4, 5, 6, 7, 1);
        List<Box> one = walk(tree);
        assertEquals(1, one.size());
        assertEquals(h, one.get(0).handle());
        assertEquals(0, one.get(0).depth());
        assertThrows(IllegalArgumentException.class, () -> tree.visitNodes(null, new TraversalStack()));
        assertThrows(IllegalArgumentException.class, () -> tree.visitNodes((d, x, a, b, c, e, f, g) -> { }, null));
    }
}
