package dev.boxwood.index;

import dev.boxwood.geom.Obb;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.PairBuffer;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Region, sweep, nearest, batch and pair queries allocate nothing in the calling thread once warmed up (HotSpot's
 * per-thread allocation counter; for batches the caller's side, which also answers a share of the queries).
 */
class QueryAllocationTest {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** {@code values()} clones its array on every call. */
    private static final RegionMode[] MODES = RegionMode.values();

    private final SyntheticWorld world = SyntheticWorld.clustered(4000, 41);
    private final BoxSet boxes = world.boxes();
    private final BoxSet queries = world.boxQueries(64, 42);
    private final SegmentSet segments = world.segments(64, 43);
    private final DynamicAabbTree tree;
    private final DynamicAabbTree other;
    private final TraversalStack stack = new TraversalStack(1);
    private final AllOverlaps overlaps = new AllOverlaps();
    private final ClosestHit closest = new ClosestHit();
    private final AllHits all = new AllHits();
    private final NearestNeighbours nearest = new NearestNeighbours();
    private final dev.boxwood.testkit.NearestRecorder browser = new dev.boxwood.testkit.NearestRecorder();
    private final PairBuffer pairs = new PairBuffer(1);
    private final double[] obb = new double[15];
    private final ConvexRegion frustum;
    private final BatchQueries batch = new BatchQueries(2);
    private final double[] from = new double[3 * 64];
    private final double[] to = new double[3 * 64];
    private final double[] spheres = new double[4 * 64];
    private final boolean[] visible = new boolean[64];
    private final int[] hitHandles = new int[64 * 8];
    private final double[] fractions = new double[64];
    private final int[] counts = new int[64];
    private long sink;

    QueryAllocationTest() {
        double[] all6 = boxes.toInterleaved();
        tree = DynamicAabbTree.build(TreeConfig.defaults(), all6, null, null);
        other = new DynamicAabbTree(TreeConfig.defaults().withOrigin(100, 100, 0));
        for (int i = 0; i < boxes.size(); i += 3) {
            other.add(boxes.minX[i] + 1, boxes.minY[i], boxes.minZ[i], boxes.maxX[i] + 1, boxes.maxY[i],
                    boxes.maxZ[i], i, 1L << (i & 3));
        }
        double[] b = boxes.bounds();
        double cx = 0.5 * (b[0] + b[3]);
        double cy = 0.5 * (b[1] + b[4]);
        frustum = PerspectiveCamera.lookAt(cx, cy - 3000, 500, cx, cy, 0, 0, 0, 1, 0.8, 1.5, 1, 4000)
                .frustum(0.4, 0.4, 0.6, 0.6);
        double s = Math.sqrt(0.5);
        new Obb(cx, cy, 50, s, s, 0, -s, s, 0, 0, 0, 1, 300, 100, 100).writeTo(obb, 0);
        for (int i = 0; i < 64; i++) {
            from[3 * i] = segments.originX[i];
            from[3 * i + 1] = segments.originY[i];
            from[3 * i + 2] = segments.originZ[i];
            to[3 * i] = segments.originX[i] + segments.translationX[i];
            to[3 * i + 1] = segments.originY[i] + segments.translationY[i];
            to[3 * i + 2] = segments.originZ[i] + segments.translationZ[i];
            spheres[4 * i] = 0.5 * (queries.minX[i] + queries.maxX[i]);
            spheres[4 * i + 1] = 0.5 * (queries.minY[i] + queries.maxY[i]);
            spheres[4 * i + 2] = 0.5 * (queries.minZ[i] + queries.maxZ[i]);
            spheres[4 * i + 3] = queries.maxX[i] - queries.minX[i];
        }
    }

    @AfterEach
    void closeBatch() {
        batch.close();
    }

    private void regionQueries() {
        for (int i = 0; i < queries.size(); i++) {
            double x0 = queries.minX[i];
            double y0 = queries.minY[i];
            double z0 = queries.minZ[i];
            double x1 = queries.maxX[i];
            double y1 = queries.maxY[i];
            double z1 = queries.maxZ[i];
            overlaps.reset();
            RegionQueries.querySphere(tree, 0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.5 * (z0 + z1), x1 - x0,
                    RegionMode.CROSSING, -1L, null, overlaps, stack);
            RegionQueries.queryBox(tree, x0, y0, z0, x1, y1, z1, RegionMode.WINDOW, -1L,
                    (h, u) -> (u & 1) == 0, overlaps, stack);
            sink += overlaps.count();
        }
        for (RegionMode mode : MODES) {
            overlaps.reset();
            RegionQueries.queryConvex(tree, frustum, mode, -1L, null, overlaps, stack);
            RegionQueries.queryObb(tree, obb, 0, mode, -1L, null, overlaps, stack);
            sink += overlaps.count();
        }
    }

    private void sweepAndNearestQueries() {
        for (int i = 0; i < segments.size(); i++) {
            double ox = segments.originX[i];
            double oy = segments.originY[i];
            double oz = segments.originZ[i];
            SweepQueries.sweepBox(tree, ox - 1, oy - 1, oz - 1, ox + 1, oy + 1, oz + 1, segments.translationX[i],
                    segments.translationY[i], segments.translationZ[i], -1L, closest, stack);
            sink += closest.handle();
            SweepQueries.sweepSphere(tree, ox, oy, oz, 1.5, segments.translationX[i], segments.translationY[i],
                    segments.translationZ[i], -1L, all, stack);
            sink += all.count();
            NearestQueries.kNearest(tree, ox, oy, oz, 10, Double.POSITIVE_INFINITY, -1L, null, null, nearest);
            NearestQueries.nearest(tree, ox, oy, oz, 50, 0xFL, (h, u) -> true, null, nearest);
            sink += nearest.count();
            NearestQueries.browseNearest(tree, ox, oy, oz, Double.POSITIVE_INFINITY, -1L, null, null,
                    browser.reset(25), nearest);
            sink += browser.count();
        }
    }

    private void batchQueries() {
        batch.lineOfSight(tree, from, to, null, null, 64, -1L, visible);
        batch.lineOfSight(other, tree, from, to, null, null, 64, -1L, -1L, visible);
        batch.closestRays(tree, from, to, 64, 1.0, -1L, hitHandles, fractions);
        batch.spheres(tree, spheres, 64, RegionMode.CROSSING, -1L, 8, hitHandles, counts);
        sink += counts[0] + hitHandles[0];
    }

    private void pairQueries(int round) {
        PairQueries.selfPairs(other, -1L, pairs, stack);
        sink += pairs.size();
        PairQueries.treePairs(other, 0x3L, tree, -1L, pairs, stack);
        sink += pairs.size();
        double d = (round & 1) == 0 ? 0.001 : 0.0;
        for (int i = 0; i < 200; i++) {
            tree.move(i, boxes.minX[i] + d, boxes.minY[i], boxes.minZ[i], boxes.maxX[i] + d, boxes.maxY[i],
                    boxes.maxZ[i]);
        }
        PairQueries.movedPairs(tree, -1L, pairs, stack);
        sink += pairs.size();
    }

    private static long allocatedBytes() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private void assertNoAllocation(Runnable round, String what) {
        for (int i = 0; i < 100; i++) {
            round.run();
        }
        // Up to ten windows: an allocation per query shows in every one, a one-off allocation of the runtime
        // during a window (seen on JDK 25 around late compilation) does not repeat.
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && allocated != 0; attempt++) {
            long before = allocatedBytes();
            for (int i = 0; i < 10; i++) {
                round.run();
            }
            allocated = allocatedBytes() - before;
        }
        assertEquals(0, allocated, "bytes allocated by 10 rounds of " + what);
        assertTrue(sink != 0, what + " found nothing");
    }

    @Test
    void shouldAllocateNothingForRegionQueries() {
        assertNoAllocation(this::regionQueries, "region queries");
    }

    @Test
    void shouldAllocateNothingForSweepAndNearestQueries() {
        assertNoAllocation(this::sweepAndNearestQueries, "sweeps and nearest queries");
    }

    @Test
    void shouldAllocateNothingOnTheCallerSideOfBatches() {
        assertNoAllocation(this::batchQueries, "batches");
    }

    @Test
    void shouldAllocateNothingForPairQueries() {
        int[] round = {0};
        assertNoAllocation(() -> pairQueries(round[0]++), "pair queries");
    }
}
