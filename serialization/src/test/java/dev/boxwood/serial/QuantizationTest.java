package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.BruteForceIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The quantization rule: decoded child boxes contain everything below them, checked on the file's bytes by an
 * independent top-down walk, on random worlds far from the origin, of zero-size boxes and of touching boxes.
 */
class QuantizationTest {

    @TempDir
    Path dir;

    @Test
    void shouldCodeEveryValueBetweenNeighbouringDecodedValues() {
        SplittableRandom r = new SplittableRandom(7);
        for (int t = 0; t < 20_000; t++) {
            float centre = (float) (r.nextBoolean() ? r.nextDouble(-1e7, 1e7) : r.nextDouble(-10, 10));
            if (t % 10 == 1) {
                // subnormal steps: extents near the float minimum, around zero
                centre = (float) r.nextDouble(-1e-38, 1e-38);
            }
            float width = t % 10 == 0 ? 0f
                    : (float) Math.pow(10, t % 10 == 1 ? r.nextDouble(-45, -30) : r.nextDouble(-6, 6));
            float min = centre;
            float max = centre + width;
            float scale = WorldLayout.scale(min, max);
            assertEquals(min, WorldLayout.decode(min, scale, 0));
            assertTrue(WorldLayout.decode(min, scale, WorldLayout.MAX_QUANTIZED) >= max,
                    "the largest code reaches max");
            float value = (float) (min + r.nextDouble() * (max - min));
            value = Math.max(min, Math.min(max, value));
            int low = WorldLayout.quantizeMin(min, scale, value);
            assertTrue(WorldLayout.decode(min, scale, low) <= value);
            assertTrue(low == WorldLayout.MAX_QUANTIZED || WorldLayout.decode(min, scale, low + 1) > value);
            int high = WorldLayout.quantizeMax(min, scale, value);
            assertTrue(WorldLayout.decode(min, scale, high) >= value);
            assertTrue(high == 0 || WorldLayout.decode(min, scale, high - 1) < value);
        }
    }

    static Stream<TestWorld> worlds() {
        SplittableRandom r = new SplittableRandom(31);
        return Stream.of(
                world("far", 3_000, r, 1e6, 200, 0.01, 5),
                world("very-far-small", 2_000, r, -3e7, 5, 1e-3, 0.05),
                world("points", 2_500, r, 40, 100, 0, 0),
                world("flat", 2_500, r, -1e4, 300, -1, 4),
                touching("touching", 16),
                flatPairs("denormal-thick", 64, 1e-300),
                flatPairs("subnormal-thick", 64, 1e-40),
                world("mixed", 4_000, r, 12_345.678, 1_000, 0, 30));
    }

    /** Random boxes around {@code centre}; size 0 gives points, a negative {@code minSize} flat boxes. */
    private static TestWorld world(String name, int n, SplittableRandom r, double centre, double spread,
                                   double minSize, double maxSize) {
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                double lo = centre + r.nextDouble(-spread, spread);
                double size = maxSize == 0 || minSize < 0 && a == 1 ? 0 : r.nextDouble(Math.max(0, minSize),
                        maxSize);
                boxes[6 * i + a] = lo;
                boxes[6 * i + 3 + a] = lo + size;
            }
        }
        return new TestWorld(name, boxes, n, false);
    }

    /**
     * Flat boxes in a row, every other one lifted to {@code z = thickness}: the nodes' z extents round to a few
     * denormals, whose quantization step must still reach the node's max.
     */
    private static TestWorld flatPairs(String name, int n, double thickness) {
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            double z = i % 2 == 0 ? 0 : thickness;
            double[] box = {i, 0, z, i + 0.5, 1, z};
            System.arraycopy(box, 0, boxes, 6 * i, 6);
        }
        return new TestWorld(name, boxes, n, false);
    }

    /** A grid of unit cubes sharing faces, edges and corners. */
    private static TestWorld touching(String name, int side) {
        double[] boxes = new double[6 * side * side * side];
        int i = 0;
        for (int x = 0; x < side; x++) {
            for (int y = 0; y < side; y++) {
                for (int z = 0; z < side; z++) {
                    boxes[i++] = x;
                    boxes[i++] = y;
                    boxes[i++] = z;
                    boxes[i++] = x + 1;
                    boxes[i++] = y + 1;
                    boxes[i++] = z + 1;
                }
            }
        }
        return new TestWorld(name, boxes, side, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldDecodeBoxesContainingEverythingBelowThem(TestWorld input) throws IOException {
        Path file = dir.resolve(input.name + ".bxw");
        TestWorld world = input.writeStored(file);
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int n = (int) b.getLong(WorldLayout.OBJECT_COUNT_OFFSET);
        int nodes = (int) b.getLong(WorldLayout.NODE_COUNT_OFFSET);
        long nodesAt = b.getLong(WorldLayout.sectionEntryOffset(WorldLayout.SECTION_NODES));
        long boxesAt = b.getLong(WorldLayout.sectionEntryOffset(WorldLayout.SECTION_BOXES));
        assertEquals(world.size(), n);
        assertTrue(nodes > 0);
        // top-down: each node's decoded box, from the root bounds; each child's decoded box must contain the
        // stored box of every object below the child
        float[][] decoded = new float[nodes][];
        decoded[0] = new float[6];
        for (int a = 0; a < 6; a++) {
            decoded[0][a] = b.getFloat(WorldLayout.ROOT_BOUNDS_OFFSET + 4 * a);
        }
        int checked = 0;
        for (int k = 0; k < nodes; k++) {
            int base = (int) (nodesAt + (long) WorldLayout.NODE_SIZE * k);
            float[] parent = decoded[k];
            for (int c = 0; c < 2; c++) {
                float[] child = new float[6];
                for (int a = 0; a < 6; a++) {
                    int axis = a % 3;
                    float scale = WorldLayout.scale(parent[axis], parent[3 + axis]);
                    int q = Short.toUnsignedInt(b.getShort(base + 2 * (6 * c + a)));
                    child[a] = WorldLayout.decode(parent[axis], scale, q);
                }
                int ref = b.getInt(base + WorldLayout.NODE_REF_A + 4 * c);
                if (ref >= 0) {
                    decoded[ref] = child;
                }
                int[] range = objectsBelow(b, nodesAt, ref);
                for (int o = range[0]; o < range[1]; o++) {
                    for (int a = 0; a < 3; a++) {
                        float min = b.getFloat((int) (boxesAt + 24L * o + 4 * a));
                        float max = b.getFloat((int) (boxesAt + 24L * o + 12 + 4 * a));
                        assertTrue(child[a] <= min && child[3 + a] >= max, "object " + o + " in child " + c
                                + " of node " + k + " axis " + a);
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked >= 3 * n);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            mapped.verify();
            // and the answers stay exact: whole-world and small box queries against the brute-force scan
            BruteForceIndex oracle = world.oracle(mapped.originX(), mapped.originY(), mapped.originZ());
            double[] queries = world.boxQueries(50, 5);
            AllOverlaps expected = new AllOverlaps();
            AllOverlaps actual = new AllOverlaps();
            TraversalStack stack = new TraversalStack();
            for (int q = 0; q < queries.length; q += 6) {
                expected.reset();
                actual.reset();
                oracle.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3], queries[q + 4],
                        queries[q + 5], -1L, expected, stack);
                mapped.queryAabb(queries[q], queries[q + 1], queries[q + 2], queries[q + 3], queries[q + 4],
                        queries[q + 5], -1L, actual, stack);
                expected.sort();
                actual.sort();
                assertEquals(expected.count(), actual.count(), "query " + q / 6);
                for (int i = 0; i < expected.count(); i++) {
                    assertEquals(expected.handle(i), actual.handle(i));
                }
            }
        }
    }

    /** The object range {@code [first, end)} below a reference: leaf runs are contiguous, subtrees too. */
    private static int[] objectsBelow(ByteBuffer b, long nodesAt, int ref) {
        if (ref < 0) {
            return new int[] {WorldLayout.leafFirst(ref), WorldLayout.leafFirst(ref) + WorldLayout.leafCount(ref)};
        }
        int base = (int) (nodesAt + (long) WorldLayout.NODE_SIZE * ref);
        int[] a = objectsBelow(b, nodesAt, b.getInt(base + WorldLayout.NODE_REF_A));
        int[] c = objectsBelow(b, nodesAt, b.getInt(base + WorldLayout.NODE_REF_B));
        assertEquals(a[1], c[0], "the runs below node " + ref + " are contiguous");
        return new int[] {a[0], c[1]};
    }
}
