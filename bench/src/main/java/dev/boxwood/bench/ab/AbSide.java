package dev.boxwood.bench.ab;

import dev.boxwood.bench.peers.Contender;
import dev.boxwood.bench.peers.Contenders;
import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.MovingWorkload;
import dev.boxwood.testkit.scenes.SegmentSet;

/**
 * One side of an {@link InterleavedAb} run: the peer workload and one contender, loaded from one build of the
 * benchmark jar. Only the bench API that every build has (the contenders and the workload) is used, so an older
 * jar can be measured against a newer one.
 */
public final class AbSide {

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

    /**
     * Builds the workload and, unless {@code kind} is {@code build}, the index. For {@code move} the world's
     * moving workload (the JMH move benchmark's seed) first settles for 500 ticks, and the index is built on its
     * boxes; two sides with the same {@code n} then walk the same steps.
     *
     * @param contender a contender name ({@code Contenders})
     * @param n the number of boxes
     * @param kind {@code box}, {@code closest}, {@code any}, {@code build} or {@code move}
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
        if (!"build".equals(kind)) {
            index = Contenders.create(contender);
            index.build(boxes);
        }
    }

    /**
     * Runs one round.
     *
     * @param kind {@code box}, {@code closest}, {@code any}, {@code build} or {@code move}
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
        switch (kind) {
            case "box":
                return boxRound(count);
            case "closest":
                return castRound(count, false);
            case "any":
                return castRound(count, true);
            case "move":
                return moveRound(count);
            default:
                throw new IllegalArgumentException("kind must be box, closest, any, build or move: " + kind);
        }
    }

    private long boxRound(int count) {
        BoxSet q = boxQueries;
        int mask = q.size() - 1;
        long answers = 0;
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            int k = i & mask;
            answers += index.countOverlaps(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k]);
        }
        long time = System.nanoTime() - start;
        sink += answers;
        return time;
    }

    private long castRound(int count, boolean any) {
        SegmentSet s = segments;
        int mask = s.size() - 1;
        long answers = 0;
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            int k = i & mask;
            answers += any
                    ? index.castAny(s.originX[k], s.originY[k], s.originZ[k],
                            s.translationX[k], s.translationY[k], s.translationZ[k])
                    : Double.doubleToRawLongBits(index.castClosest(s.originX[k], s.originY[k], s.originZ[k],
                            s.translationX[k], s.translationY[k], s.translationZ[k]));
        }
        long time = System.nanoTime() - start;
        sink += answers;
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
