package dev.boxwood.index;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Queries and non-escaping moves allocate nothing once warmed up (HotSpot's per-thread allocation counter). */
class AllocationTest {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final SyntheticWorld world = SyntheticWorld.clustered(5000, 31);
    private final BoxSet boxes = world.boxes();
    private final BoxSet queries = world.boxQueries(256, 32);
    private final SegmentSet segments = world.segments(256, 33);
    private final DynamicAabbTree tree = new DynamicAabbTree();
    private final int[] handles = new int[boxes.size()];
    private final TraversalStack stack = new TraversalStack(1);
    private final AllOverlaps overlaps = new AllOverlaps();
    private final ClosestHit closest = new ClosestHit();
    private final AnyHit any = new AnyHit();
    private final AllHits all = new AllHits();
    private long sink;

    AllocationTest() {
        for (int i = 0; i < boxes.size(); i++) {
            handles[i] = tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i],
                    boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i], i, 1L << (i & 7));
        }
    }

    private void runQueries() {
        for (int i = 0; i < queries.size(); i++) {
            overlaps.reset();
            tree.queryAabb(queries.minX[i], queries.minY[i], queries.minZ[i],
                    queries.maxX[i], queries.maxY[i], queries.maxZ[i], -1L, overlaps, stack);
            sink += overlaps.count();
        }
        for (int i = 0; i < segments.size(); i++) {
            double ox = segments.originX[i];
            double oy = segments.originY[i];
            double oz = segments.originZ[i];
            double tx = segments.translationX[i];
            double ty = segments.translationY[i];
            double tz = segments.translationZ[i];
            tree.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, closest, stack);
            tree.rayCast(ox, oy, oz, tx, ty, tz, 1.0, 0x0FL, any, stack);
            tree.rayCast(ox, oy, oz, tx, ty, tz, 1.0, -1L, all, stack);
            sink += closest.handle() + any.handle() + all.count();
        }
    }

    /** Moves every object by a tenth of its margin back and forth: never escapes its fat box. */
    private void runSmallMoves(int round) {
        double d = (round & 1) == 0 ? 0.001 : 0.0;
        for (int i = 0; i < boxes.size(); i++) {
            tree.move(handles[i], boxes.minX[i] + d, boxes.minY[i], boxes.minZ[i],
                    boxes.maxX[i] + d, boxes.maxY[i], boxes.maxZ[i]);
        }
    }

    private static long allocatedBytes() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void shouldAllocateNothingPerQueryAfterWarmUp() {
        for (int round = 0; round < 200; round++) {
            runQueries();
        }
        // Up to ten windows: a per-query allocation shows in every one (20k queries), while a one-off allocation
        // of the runtime during a window (seen on JDK 25 around late compilation) does not repeat.
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = allocatedBytes();
            for (int round = 0; round < 20; round++) {
                runQueries();
            }
            allocated = allocatedBytes() - before;
        }
        assertTrue(sink != 0);
        assertEquals(0, allocated, "bytes allocated by " + 20 * (queries.size() + 3 * segments.size()) + " queries");
    }

    @Test
    void shouldAllocateNothingForMovesThatStayInsideTheFatBox() {
        for (int round = 0; round < 200; round++) {
            runSmallMoves(round);
        }
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = allocatedBytes();
            for (int round = 0; round < 20; round++) {
                runSmallMoves(round);
            }
            allocated = allocatedBytes() - before;
        }
        tree.validate();
        assertEquals(0, allocated, "bytes allocated by " + 20 * boxes.size() + " moves");
    }

    @Test
    void shouldAllocateNothingToClearAndRefillTheTree() {
        long allocated = Long.MAX_VALUE;
        for (int cycle = 0; cycle < 8 && allocated != 0; cycle++) {
            long before = allocatedBytes();
            tree.clear();
            for (int i = 0; i < boxes.size(); i++) {
                handles[i] = tree.add(boxes.minX[i], boxes.minY[i], boxes.minZ[i], boxes.maxX[i], boxes.maxY[i],
                        boxes.maxZ[i], i, -1L);
            }
            // the first cycles may still grow scratch (and the runtime compiles); a steady cycle allocates nothing
            allocated = cycle < 2 ? Long.MAX_VALUE : allocatedBytes() - before;
        }
        tree.validate();
        assertEquals(boxes.size(), tree.size());
        assertEquals(0, allocated, "bytes allocated by clear() and " + boxes.size() + " adds");
    }
}
