package dev.boxwood.bench.world;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;

/**
 * The peer benchmark's workload at one size: the clustered world of {@code n} boxes and its query sets,
 * all from fixed seeds so every contender, fork and run sees the same numbers.
 */
public final class PeerWorkload {

    /** Number of queries of each kind; a power of two, so a counter cycles them with a mask. */
    public static final int QUERIES = 4096;
    /** Seed of the world. */
    public static final long WORLD_SEED = 0xB0C5_0001L;
    /** Seed of the box queries. */
    public static final long BOX_QUERY_SEED = 0xB0C5_0002L;
    /** Seed of the segments. */
    public static final long SEGMENT_SEED = 0xB0C5_0003L;
    /** Seed of the moving workload. */
    public static final long MOVE_SEED = 0xB0C5_0004L;

    private final SyntheticWorld world;
    private final BoxSet boxQueries;
    private final SegmentSet segments;

    private PeerWorkload(SyntheticWorld world, int queries) {
        this.world = world;
        this.boxQueries = world.boxQueries(queries, BOX_QUERY_SEED);
        this.segments = world.segments(queries, SEGMENT_SEED);
    }

    /**
     * The workload of {@code n} boxes with {@link #QUERIES} queries of each kind.
     *
     * @param n number of boxes
     * @return the workload
     */
    public static PeerWorkload of(int n) {
        return of(n, QUERIES);
    }

    /**
     * The workload of {@code n} boxes with {@code queries} queries of each kind.
     *
     * @param n number of boxes
     * @param queries number of box queries and of segments
     * @return the workload
     */
    public static PeerWorkload of(int n, int queries) {
        return new PeerWorkload(SyntheticWorld.clustered(n, WORLD_SEED), queries);
    }

    /**
     * The world.
     *
     * @return the world
     */
    public SyntheticWorld world() {
        return world;
    }

    /**
     * The boxes of the world.
     *
     * @return the boxes
     */
    public BoxSet boxes() {
        return world.boxes();
    }

    /**
     * Box queries sized for 10 to 100 hits.
     *
     * @return the query boxes
     */
    public BoxSet boxQueries() {
        return boxQueries;
    }

    /**
     * 500 m segments.
     *
     * @return the segments
     */
    public SegmentSet segments() {
        return segments;
    }
}
