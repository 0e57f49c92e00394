package dev.boxwood.bench.peers;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The three query benchmarks shared by every peer query benchmark: a built contender and prebuilt queries,
 * cycled one per operation, so that every workload times the same operations the same way. Subclasses carry
 * the JMH state and settings and call {@link #use} from their setup.
 */
public abstract class CycledQueryBenchmark {

    private Contender index;
    private BoxSet boxQueries;
    private SegmentSet segments;
    private int mask;
    private int next;

    /** Queries of each kind checked against the brute-force scan before timing (about 0.2 s at 1M boxes). */
    static final int CHECKED_QUERIES = 64;

    /**
     * Sets what the benchmarks query, after checking the contender's answers to the first
     * {@value #CHECKED_QUERIES} queries of each kind against a brute-force scan of the same boxes
     * ({@link AnswerCheck}).
     *
     * @param built the built contender
     * @param boxes the boxes it was built from
     * @param boxQueries the box queries
     * @param segmentQueries the segments; as many as box queries, a power of two (cycled with a mask)
     * @throws IllegalArgumentException if the counts differ or are not a power of two
     * @throws IllegalStateException if the contender disagrees with the brute-force scan
     */
    protected final void use(Contender built, BoxSet boxes, BoxSet boxQueries, SegmentSet segmentQueries) {
        int n = boxQueries.size();
        if (n != segmentQueries.size() || n <= 0 || Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("boxQueries and segmentQueries must have the same power-of-two size: "
                    + n + ", " + segmentQueries.size());
        }
        this.index = built;
        this.boxQueries = boxQueries;
        this.segments = segmentQueries;
        this.mask = n - 1;
        this.next = 0;
        if (built instanceof AnswerTableContender) {
            ((AnswerTableContender) built).learnBoxQueries(boxQueries);
        }
        if (!built.name().equals("brute")) {
            Contender reference = Contenders.create("brute");
            reference.build(boxes);
            AnswerCheck.compare(built, reference, boxes, boxQueries, segmentQueries, CHECKED_QUERIES, built.name());
        }
    }

    /**
     * One box query.
     *
     * @return the hit count
     */
    @Benchmark
    public int boxQuery() {
        int k = next++ & mask;
        BoxSet q = boxQueries;
        return index.countOverlaps(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k]);
    }

    /**
     * One closest-hit cast.
     *
     * @return the entry fraction, or -1
     */
    @Benchmark
    public double castClosest() {
        int k = next++ & mask;
        SegmentSet s = segments;
        return index.castClosest(s.originX[k], s.originY[k], s.originZ[k],
                s.translationX[k], s.translationY[k], s.translationZ[k]);
    }

    /**
     * One any-hit cast.
     *
     * @return the index of a hit box, or -1
     */
    @Benchmark
    public int castAny() {
        int k = next++ & mask;
        SegmentSet s = segments;
        return index.castAny(s.originX[k], s.originY[k], s.originZ[k],
                s.translationX[k], s.translationY[k], s.translationZ[k]);
    }
}
