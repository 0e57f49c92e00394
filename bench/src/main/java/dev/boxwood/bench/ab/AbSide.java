package dev.boxwood.bench.ab;

import dev.boxwood.bench.peers.Contender;
import dev.boxwood.bench.peers.Contenders;
import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.geom.SphereAabb;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.RegionQueries;
import dev.boxwood.query.OverlapVisitor;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.MovingWorkload;
import dev.boxwood.testkit.scenes.SegmentSet;

/**
 * One side of an {@link InterleavedAb} run: the peer workload and one contender, loaded from one build of the
 * benchmark jar. Only the bench API that every build has (the contenders and the workload) is used, so an older
 * jar can be measured against a newer one. The {@code sphere} kind, Boxwood only, queries the tree directly
 * ({@code RegionQueries.querySphere}); it needs a jar whose {@code AbSide} has it.
 */
public final class AbSide {

    private static final int BOX = 0;
    private static final int CLOSEST = 1;
    private static final int ANY = 2;
    /** Ticks of the walk before the index is built, as in the JMH move benchmark. */
    private static final int SETTLING_TICKS = 500;

    private final String contender;
    private final BoxSet boxes;
    private final BoxSet boxQueries;
    private final SegmentSet segments;
    private final MovingWorkload moving;
    private Contender index;
    /** Consumed answers, so that no query is dead code. */
    private long sink;
    /** The {@code sphere} kind's tree (user value: box index), the boxes interleaved, and its scratch. */
    private DynamicAabbTree sphereTree;
    private double[] packed;
    private final TraversalStack stack = new TraversalStack();
    private double sphereX;
    private double sphereY;
    private double sphereZ;
    private double sphereRadius;
    private int sphereHits;
    /** Re-checks each reported box against the sphere in double, as the peer harness re-checks its candidates. */
    private final OverlapVisitor sphereCheck = (handle, userValue) -> {
        int o = 6 * (int) userValue;
        double[] b = packed;
        if (SphereAabb.test(sphereX, sphereY, sphereZ, sphereRadius, b[o], b[o + 1], b[o + 2], b[o + 3], b[o + 4],
                b[o + 5])) {
            sphereHits++;
        }
        return true;
    };

    /**
     * Builds the workload and, unless {@code kind} is {@code build}, the index. For {@code move} the world's
     * moving workload (the JMH move benchmark's seed) first settles for 500 ticks, and the index is built on its
     * boxes; two sides with the same {@code n} then walk the same steps.
     *
     * @param contender a contender name ({@code Contenders})
     * @param n the number of boxes
     * @param kind {@code box}, {@code closest}, {@code any}, {@code sphere}, {@code build} or {@code move}
     */
    public AbSide(String contender, int n, String kind) {
        this.contender = contender;
        boolean move = "move".equals(kind);
        PeerWorkload workload = move ? PeerWorkload.of(n, 1) : PeerWorkload.of(n);
        boxQueries = workload.boxQueries();
        segments = workload.segments();
        if (move) {
            moving = workload.world().moving(PeerWorkload.MOVE_SEED);
            for (int t = 0; t < SETTLING_TICKS; t++) {
                moving.tick();
            }
            boxes = moving.boxes();
        } else {
            moving = null;
            boxes = workload.boxes();
        }
        if ("sphere".equals(kind)) {
            buildSphereTree(contender);
        } else if (!"build".equals(kind)) {
            index = Contenders.create(contender);
            index.build(boxes);
        }
    }

    /**
     * Runs one round.
     *
     * @param kind {@code box}, {@code closest}, {@code any}, {@code sphere}, {@code build} or {@code move}
     * @param count queries in the round, or ticks for {@code move} (every box moves once per tick); ignored by
     *     {@code build}, which builds the index once
     * @return the round's wall time in nanoseconds
     */
    public long round(String kind, int count) {
        if ("build".equals(kind)) {
            index = null;
            System.gc();
            long start = System.nanoTime();
            Contender built = Contenders.create(contender);
            built.build(boxes);
            long time = System.nanoTime() - start;
            index = built;
            return time;
        }
        int query;
        switch (kind) {
            case "box":
                query = BOX;
                break;
            case "closest":
                query = CLOSEST;
                break;
            case "any":
                query = ANY;
                break;
            case "move":
                return moveRound(count);
            case "sphere":
                return sphereRound(count);
            default:
                throw new IllegalArgumentException("kind must be box, closest, any, sphere, build or move: " + kind);
        }
        long answers = 0;
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            answers += answer(query, i);
        }
        long time = System.nanoTime() - start;
        sink += answers;
        return time;
    }

    /** Query {@code i} (cycling through the query set) of the given kind, its answer as a number. */
    private long answer(int query, int i) {
        if (query == BOX) {
            BoxSet q = boxQueries;
            int k = i & (q.size() - 1);
            return index.countOverlaps(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k]);
        }
        SegmentSet s = segments;
        int k = i & (s.size() - 1);
        return query == ANY
                ? index.castAny(s.originX[k], s.originY[k], s.originZ[k],
                        s.translationX[k], s.translationY[k], s.translationZ[k])
                : Double.doubleToRawLongBits(index.castClosest(s.originX[k], s.originY[k], s.originZ[k],
                        s.translationX[k], s.translationY[k], s.translationZ[k]));
    }

    /** The {@code boxwood} contender's tree ({@link Contenders#boxwoodTree}), queried directly. */
    private void buildSphereTree(String contender) {
        if (!"boxwood".equals(contender)) {
            throw new IllegalArgumentException("the sphere kind measures the boxwood contender only: " + contender);
        }
        packed = boxes.toInterleaved();
        sphereTree = Contenders.boxwoodTree(boxes);
    }

    /** Sphere queries at the box queries' centres, radius half the box's x extent (about as many hits). */
    private long sphereRound(int count) {
        BoxSet q = boxQueries;
        int mask = q.size() - 1;
        sphereHits = 0;
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            int k = i & mask;
            sphereX = 0.5 * (q.minX[k] + q.maxX[k]);
            sphereY = 0.5 * (q.minY[k] + q.maxY[k]);
            sphereZ = 0.5 * (q.minZ[k] + q.maxZ[k]);
            sphereRadius = 0.5 * (q.maxX[k] - q.minX[k]);
            RegionQueries.querySphere(sphereTree, sphereX, sphereY, sphereZ, sphereRadius, RegionMode.CROSSING, -1L,
                    null, sphereCheck, stack);
        }
        long time = System.nanoTime() - start;
        sink += sphereHits;
        return time;
    }

    private long moveRound(int ticks) {
        BoxSet b = moving.boxes();
        int n = b.size();
        long start = System.nanoTime();
        for (int t = 0; t < ticks; t++) {
            moving.tick();
            for (int i = 0; i < n; i++) {
                index.move(i, b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i],
                        moving.displacementX[i], moving.displacementY[i], moving.displacementZ[i]);
            }
        }
        return System.nanoTime() - start;
    }

    /** @return the consumed answers */
    public long sink() {
        return sink;
    }
}
