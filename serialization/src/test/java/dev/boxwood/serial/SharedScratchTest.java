package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.RayCastVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query run from inside another's visitor on the same {@link TraversalStack} (a misuse: the stack's Javadoc asks
 * for a second one) overwrites what the outer query left on it. The mapped world checks what it takes back from the
 * stack as it checks what it reads from the file, so the misuse never reads outside the mapping (it did: the JVM
 * crashed, or the outer query opened nodes a megabyte past a small file's end), and the outer query throws
 * {@link IllegalStateException}: from those checks, or from the stack's own at the end of the walk
 * ({@link TraversalStack#checkQuery}).
 */
class SharedScratchTest {

    @TempDir
    Path dir;

    /** The world's bounds: min x, y, z, max x, y, z. */
    private static double[] bounds(MappedWorld world) {
        double[] b = new double[6];
        world.getBounds(b);
        return b;
    }

    private MappedWorld write(String name, TestWorld world) throws IOException {
        Path file = dir.resolve(name);
        StaticWorldWriter.write(file, world.boxes, world.userValues, world.categories, null);
        return MappedWorld.open(file);
    }

    @Test
    void shouldRefuseNodesAQueryNestedOnTheSameStackLeftBehind() throws IOException {
        TestWorld smallWorld = TestWorld.clustered(40, 3);
        TestWorld bigWorld = TestWorld.clustered(20_000, 4);
        try (MappedWorld small = write("small.bxw", smallWorld);
             MappedWorld big = write("big.bxw", bigWorld)) {
            assertTrue(small.nodeCount() < 20 && big.nodeCount() > 1000, small.nodeCount() + " " + big.nodeCount());
            TraversalStack stack = new TraversalStack();
            double[] s = bounds(small);
            double[] b = bounds(big);
            AllOverlaps inner = new AllOverlaps();
            // a region query on the small world whose visitor queries the big one on the same stack: the outer
            // query then takes the big world's node numbers from the stack
            int[] nested = new int[1];
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> small.queryAabb(s[0], s[1],
                    s[2], s[3], s[4], s[5], -1L, (handle, userValue) -> {
                        if (nested[0]++ == 0) {
                            big.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, inner, stack);
                        }
                        return true;
                    }, stack));
            assertTrue(e.getMessage().contains("in use by another query")
                    || e.getMessage().contains("another query ran on this TraversalStack"), e.getMessage());

            // casts and sweeps nested the same way, in both directions and within one world, each starting at an
            // object and ending at another (so they hit): an exception or an answer, never a read outside the
            // mapping (which crashed the JVM)
            MappedWorld[] worlds = {small, big};
            TestWorld[] contents = {smallWorld, bigWorld};
            int refused = 0;
            int runs = 0;
            for (int outerIndex = 0; outerIndex < 2; outerIndex++) {
                for (int otherIndex = 0; otherIndex < 2; otherIndex++) {
                    MappedWorld outer = worlds[outerIndex];
                    MappedWorld other = worlds[otherIndex];
                    double[] o = contents[outerIndex].segmentsBetweenObjects(8, 5);
                    double[] q = contents[otherIndex].segmentsBetweenObjects(8, 6);
                    for (int i = 0; i < 6 * 8; i += 6) {
                        for (int kind = 0; kind < 4; kind++) {
                            int k = kind;
                            int at = i;
                            boolean[] fired = {false};
                            RayCastVisitor nests = (handle, userValue, fraction) -> {
                                if (!fired[0]) {
                                    fired[0] = true;
                                    if (k % 2 == 0) {
                                        other.rayCast(q[at], q[at + 1], q[at + 2], q[at + 3], q[at + 4], q[at + 5],
                                                1.0, -1L, new AllHits(), stack);
                                    } else {
                                        other.sweepBox(q[at] - 3, q[at + 1] - 3, q[at + 2] - 3, q[at] + 3,
                                                q[at + 1] + 3, q[at + 2] + 3, q[at + 3], q[at + 4], q[at + 5], -1L,
                                                new AllHits(), stack);
                                    }
                                }
                                return Double.POSITIVE_INFINITY;
                            };
                            try {
                                if (k < 2) {
                                    outer.rayCast(o[at], o[at + 1], o[at + 2], o[at + 3], o[at + 4], o[at + 5], 1.0,
                                            -1L, nests, stack);
                                } else {
                                    outer.sweepBox(o[at] - 3, o[at + 1] - 3, o[at + 2] - 3, o[at] + 3, o[at + 1] + 3,
                                            o[at + 2] + 3, o[at + 3], o[at + 4], o[at + 5], -1L, nests, stack);
                                }
                            } catch (IllegalStateException refusedHere) {
                                String message = refusedHere.getMessage();
                                assertTrue(message.contains("in use by another query")
                                        || message.contains("another query ran on this TraversalStack"), message);
                                refused++;
                            }
                            runs += fired[0] ? 1 : 0;
                        }
                    }
                }
            }
            assertTrue(runs > 64, runs + " nested queries ran");
            // every outer query that had a query nested on its stack throws (before the stack's end-of-walk check,
            // some answered, wrongly at times)
            assertEquals(runs, refused, "outer queries refused");
            // used correctly again, the stack answers as a fresh one does
            AllOverlaps again = new AllOverlaps();
            AllOverlaps fresh = new AllOverlaps();
            big.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, again, stack);
            big.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, fresh, new TraversalStack());
            assertEquals(fresh.count(), again.count());
        }
    }

    @Test
    void shouldRefuseANearestQueryWhoseResultsANestedOneReused() throws IOException {
        TestWorld world = TestWorld.clustered(5_000, 9);
        try (MappedWorld mapped = write("nearest.bxw", world)) {
            double[] b = bounds(mapped);
            double x = 0.5 * (b[0] + b[3]);
            double y = 0.5 * (b[1] + b[4]);
            double z = 0.5 * (b[2] + b[5]);
            NearestNeighbours own = new NearestNeighbours();
            NearestNeighbours inner = new NearestNeighbours();
            NearestNeighbours expected = new NearestNeighbours();
            mapped.kNearest(x, y, z, 20, Double.POSITIVE_INFINITY, -1L, null, null, expected);
            // results of its own: the nested search leaves the outer one alone
            mapped.kNearest(x, y, z, 20, Double.POSITIVE_INFINITY, -1L, (h, uv) -> {
                mapped.kNearest(b[0], b[1], b[2], 5, Double.POSITIVE_INFINITY, -1L, null, null, inner);
                return true;
            }, null, own);
            assertEquals(expected.count(), own.count());
            for (int i = 0; i < own.count(); i++) {
                assertEquals(expected.handle(i), own.handle(i));
            }
            // the outer search's own results: refused at its end (they were replaced under it)
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> mapped.kNearest(x, y, z, 20,
                    Double.POSITIVE_INFINITY, -1L, (h, uv) -> {
                        mapped.kNearest(b[0], b[1], b[2], 5, Double.POSITIVE_INFINITY, -1L, null, null, own);
                        return true;
                    }, null, own));
            assertTrue(e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
            e = assertThrows(IllegalStateException.class, () -> mapped.browseNearest(x, y, z,
                    Double.POSITIVE_INFINITY, -1L, null, null, (h, uv, d) -> {
                        mapped.kNearest(b[0], b[1], b[2], 5, Double.POSITIVE_INFINITY, -1L, null, null, own);
                        return true;
                    }, own));
            assertTrue(e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
            // a search nested in the filter: refused before the visitor is handed anything the nested one left
            boolean[] nested = {false};
            int[] seen = {0};
            e = assertThrows(IllegalStateException.class, () -> mapped.browseNearest(x, y, z,
                    Double.POSITIVE_INFINITY, -1L, (h, uv) -> {
                        if (!nested[0]) {
                            nested[0] = true;
                            mapped.kNearest(b[0], b[1], b[2], 1, Double.POSITIVE_INFINITY, -1L, null, null, own);
                        }
                        return true;
                    }, null, (h, uv, d) -> ++seen[0] > 0, own));
            assertTrue(e.getMessage().contains("another query ran on this NearestNeighbours"), e.getMessage());
            assertEquals(0, seen[0]);
            // used correctly again, the results answer as fresh ones do
            mapped.kNearest(x, y, z, 20, Double.POSITIVE_INFINITY, -1L, null, null, own);
            assertEquals(expected.count(), own.count());
        }
    }

    @Test
    void shouldRefuseEveryQueryNestedOnTheRunningQuerysStackWhereverItRuns() throws IOException {
        // nested at any point of an outer box query over 20,000 boxes, a query on the same stack makes the outer one
        // throw IllegalStateException (before, a nesting point could also be reported as a corrupt file)
        TestWorld world = TestWorld.clustered(20_000, 17);
        try (MappedWorld mapped = write("everywhere.bxw", world)) {
            double[] b = bounds(mapped);
            double[] s = world.segmentsBetweenObjects(1, 18);
            AllOverlaps all = new AllOverlaps();
            mapped.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, all, new TraversalStack());
            int runs = 0;
            for (int at = 1; at <= all.count(); at += 397) {
                for (int kind = 0; kind < 3; kind++) {
                    TraversalStack stack = new TraversalStack();
                    int when = at;
                    int inner = kind;
                    int[] visits = {0};
                    Runnable nested = () -> {
                        if (inner == 0) {
                            mapped.queryAabb(b[0], b[1], b[2], 0.5 * (b[0] + b[3]), 0.5 * (b[1] + b[4]), b[5], -1L,
                                    new AllOverlaps(), stack);
                        } else if (inner == 1) {
                            mapped.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, new AllOverlaps(), stack);
                        } else {
                            mapped.rayCast(s[0], s[1], s[2], s[3], s[4], s[5], 1.0, -1L, new AllHits(), stack);
                        }
                    };
                    boolean[] fired = {false};
                    IllegalStateException e = assertThrows(IllegalStateException.class, () -> mapped.queryAabb(b[0],
                            b[1], b[2], b[3], b[4], b[5], -1L, (h, uv) -> {
                                if (++visits[0] == when) {
                                    fired[0] = true;
                                    nested.run();
                                }
                                return true;
                            }, stack), "nested at visit " + at + ", kind " + kind);
                    assertTrue(fired[0]);
                    assertTrue(e.getMessage().contains("another query ran on this TraversalStack")
                            || e.getMessage().contains("in use by another query"), e.getMessage());
                    runs++;
                }
            }
            assertTrue(runs > 100, runs + " runs");
        }
    }

    @Test
    void shouldRefuseAQueryNestedOnTheStackOfAWorldOfOneLeaf() throws IOException {
        // eight boxes in a row: one leaf, no node; the oriented box of queryObb is kept in the stack
        double[] boxes = new double[6 * 8];
        for (int i = 0; i < 8; i++) {
            boxes[6 * i] = 2 * i;
            boxes[6 * i + 3] = 2 * i + 1;
            boxes[6 * i + 4] = 1;
            boxes[6 * i + 5] = 1;
        }
        Path file = dir.resolve("leaf.bxw");
        StaticWorldWriter.write(file, boxes, null, null, null);
        try (MappedWorld leaf = MappedWorld.open(file)) {
            assertEquals(0, leaf.nodeCount());
            double[] part = {5.5, 0.5, 0.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 6.2, 1, 1};
            double[] far = {1000, 1000, 1000, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
            TraversalStack stack = new TraversalStack();
            AllOverlaps expected = new AllOverlaps();
            leaf.queryObb(part, 0, RegionMode.CROSSING, -1L, null, expected, new TraversalStack());
            assertEquals(6, expected.count());
            // outer on the leaf world, inner anywhere on its stack
            boolean[] fired = {false};
            assertThrows(IllegalStateException.class, () -> leaf.queryObb(part, 0, RegionMode.CROSSING, -1L, null,
                    (h, uv) -> {
                        if (!fired[0]) {
                            fired[0] = true;
                            leaf.queryObb(far, 0, RegionMode.CROSSING, -1L, null, new AllOverlaps(), stack);
                        }
                        return true;
                    }, stack));
            // outer on a tree, inner on the leaf world: the inner query's use of the stack is seen too
            DynamicAabbTree tree = new DynamicAabbTree();
            for (int i = 0; i < 400; i++) {
                tree.add(2 * i, 0, 0, 2 * i + 1, 1, 1, i, 1L);
            }
            double[] treePart = {200, 0.5, 0.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 100.2, 1, 1};
            fired[0] = false;
            assertThrows(IllegalStateException.class, () -> tree.queryObb(treePart, 0, RegionMode.CROSSING, -1L, null,
                    (h, uv) -> {
                        if (!fired[0]) {
                            fired[0] = true;
                            leaf.queryObb(far, 0, RegionMode.CROSSING, -1L, null, new AllOverlaps(), stack);
                        }
                        return true;
                    }, stack));
        }
    }
}
