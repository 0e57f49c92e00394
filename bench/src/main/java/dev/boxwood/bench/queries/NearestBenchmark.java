package dev.boxwood.bench.queries;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.NearestQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.index.strtree.ItemBoundable;
import org.locationtech.jts.index.strtree.ItemDistance;
import org.locationtech.jts.index.strtree.STRtree;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.tinspin.index.Index;
import org.tinspin.index.rtree.RTree;
import org.tinspin.index.rtree.RTreeEntry;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The 10 objects nearest to a point, on the clustered world of 100k and 1M objects: the tree's best-first search
 * against JTS {@code STRtree.nearestNeighbour(k)} (2D: the world's x/y footprint, as JTS has no z) and the tinspin
 * R*-tree's {@code queryKnn} (3D box distance). Query points are near objects (a random object's centre, jittered).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
public class NearestBenchmark {

    private static final int K = 10;
    private static final int POINTS = 1024;

    /** Number of objects in the world. */
    @Param({"100000", "1000000"})
    public int n;

    private DynamicAabbTree tree;
    private STRtree jts;
    private RTree<Integer> tinspin;
    private final double[] points = new double[3 * POINTS];
    private final NearestNeighbours found = new NearestNeighbours();
    private static final ItemDistance ENVELOPE_DISTANCE = (ItemBoundable a, ItemBoundable b) ->
            ((Envelope) a.getBounds()).distance((Envelope) b.getBounds());

    @Setup(Level.Trial)
    public void setUp() {
        BoxSet boxes = SyntheticWorld.clustered(n, 13).boxes();
        tree = DynamicAabbTree.build(TreeConfig.defaults(), boxes.toInterleaved(), null, null);
        jts = new STRtree();
        @SuppressWarnings("unchecked")
        RTreeEntry<Integer>[] entries = new RTreeEntry[n];
        for (int i = 0; i < n; i++) {
            jts.insert(new Envelope(boxes.minX[i], boxes.maxX[i], boxes.minY[i], boxes.maxY[i]), i);
            entries[i] = RTreeEntry.createBox(new double[] {boxes.minX[i], boxes.minY[i], boxes.minZ[i]},
                    new double[] {boxes.maxX[i], boxes.maxY[i], boxes.maxZ[i]}, i);
        }
        jts.build();
        tinspin = RTree.createRStar(3);
        tinspin.load(entries);
        SplittableRandom random = new SplittableRandom(14);
        for (int q = 0; q < POINTS; q++) {
            int i = random.nextInt(n);
            points[3 * q] = 0.5 * (boxes.minX[i] + boxes.maxX[i]) + random.nextDouble() * 20 - 10;
            points[3 * q + 1] = 0.5 * (boxes.minY[i] + boxes.maxY[i]) + random.nextDouble() * 20 - 10;
            points[3 * q + 2] = 0.5 * (boxes.minZ[i] + boxes.maxZ[i]);
        }
    }

    @Benchmark
    @OperationsPerInvocation(POINTS)
    public void boxwood(Blackhole sink) {
        for (int q = 0; q < POINTS; q++) {
            NearestQueries.kNearest(tree, points[3 * q], points[3 * q + 1], points[3 * q + 2], K,
                    Double.POSITIVE_INFINITY, -1L, null, null, found);
            sink.consume(found.handle(0));
        }
    }

    @Benchmark
    @OperationsPerInvocation(POINTS)
    public void jtsStrTree(Blackhole sink) {
        for (int q = 0; q < POINTS; q++) {
            Envelope p = new Envelope(points[3 * q], points[3 * q], points[3 * q + 1], points[3 * q + 1]);
            sink.consume(jts.nearestNeighbour(p, null, ENVELOPE_DISTANCE, K));
        }
    }

    @Benchmark
    @OperationsPerInvocation(POINTS)
    public void tinspinRStar(Blackhole sink) {
        double[] centre = new double[3];
        for (int q = 0; q < POINTS; q++) {
            centre[0] = points[3 * q];
            centre[1] = points[3 * q + 1];
            centre[2] = points[3 * q + 2];
            Index.BoxIteratorKnn<Integer> it = tinspin.queryKnn(centre, K);
            while (it.hasNext()) {
                sink.consume(it.next().value());
            }
        }
    }
}
