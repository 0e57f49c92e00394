package dev.boxwood.testkit.scenes;

import java.util.SplittableRandom;

/**
 * The synthetic game world of the dynamic-tree benchmark, and queries drawn from the same distribution.
 *
 * <p>Canonical world (before the {@link WorldFrame} is applied): {@value #WIDTH} m x {@value #DEPTH} m x
 * {@value #HEIGHT} m, i.e. {@code [0, 10000] x [0, 10000] x [0, 200]}. Box centres: x,y from a mixture of
 * {@value #CLUSTERS} Gaussian clusters (centres uniform, sigma log-uniform in [{@value #SIGMA_MIN},
 * {@value #SIGMA_MAX}) m, equal weights, draws outside the world redrawn) plus a fraction
 * {@value #BACKGROUND_FRACTION} of uniform background; z uniform in [0, {@value #HEIGHT}). Each of the three
 * edge lengths is log-normal with median {@value #MEDIAN_EDGE} m and log-sigma {@value #EDGE_LOG_SIGMA},
 * capped at {@value #MAX_EDGE} m. The {@linkplain #uniform uniform variant} has no clusters.
 *
 * <p>Everything is deterministic given the seeds: the world's seed fixes the clusters and the boxes; each
 * query generator takes its own seed and reuses the world's clusters, so queries follow the data.
 * Instances are immutable apart from the exposed arrays of {@link #boxes()}.
 */
public final class SyntheticWorld {

    /** Canonical world extent along x, metres. */
    public static final double WIDTH = 10_000;
    /** Canonical world extent along y, metres. */
    public static final double DEPTH = 10_000;
    /** Canonical world extent along z, metres. */
    public static final double HEIGHT = 200;
    /** Number of Gaussian clusters in the clustered world. */
    public static final int CLUSTERS = 64;
    /** Smallest cluster sigma, metres. */
    public static final double SIGMA_MIN = 40;
    /** Largest cluster sigma, metres. */
    public static final double SIGMA_MAX = 400;
    /** Fraction of boxes placed uniformly instead of in a cluster. */
    public static final double BACKGROUND_FRACTION = 0.2;
    /** Median box edge length, metres. */
    public static final double MEDIAN_EDGE = 2;
    /** Standard deviation of the natural log of an edge length. */
    public static final double EDGE_LOG_SIGMA = 0.5;
    /** Upper cap on an edge length, metres (keeps the worst case bounded; about 5.4 sigma). */
    public static final double MAX_EDGE = 30;
    /** Length of a query segment, metres. */
    public static final double SEGMENT_LENGTH = 500;
    /** Largest elevation of a query segment above or below the horizontal, degrees. */
    public static final double MAX_ELEVATION_DEGREES = 8;
    /** Fewest boxes a {@linkplain #boxQueries box query} is sized to hit. */
    public static final int MIN_HITS = 10;
    /** Most boxes a {@linkplain #boxQueries box query} is sized to hit. */
    public static final int MAX_HITS = 100;

    private final WorldFrame frame;
    private final ClusterMixture mixture;
    private final BoxSet boxes;

    private SyntheticWorld(WorldFrame frame, ClusterMixture mixture, BoxSet boxes) {
        this.frame = frame;
        this.mixture = mixture;
        this.boxes = boxes;
    }

    /**
     * The clustered world in the canonical frame.
     *
     * @param n number of boxes; not negative
     * @param seed the seed
     * @return the world
     */
    public static SyntheticWorld clustered(int n, long seed) {
        return clustered(n, seed, WorldFrame.STANDARD);
    }

    /**
     * The clustered world placed by {@code frame}.
     *
     * @param n number of boxes; not negative
     * @param seed the seed
     * @param frame where the world sits and at what scale
     * @return the world
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public static SyntheticWorld clustered(int n, long seed, WorldFrame frame) {
        return generate(n, seed, frame, CLUSTERS);
    }

    /**
     * The uniform variant: box centres uniform in the whole world, same box sizes.
     *
     * @param n number of boxes; not negative
     * @param seed the seed
     * @param frame where the world sits and at what scale
     * @return the world
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public static SyntheticWorld uniform(int n, long seed, WorldFrame frame) {
        return generate(n, seed, frame, 0);
    }

    private static SyntheticWorld generate(int n, long seed, WorldFrame frame, int clusters) {
        Sampling.requireCount(n, "n");
        SplittableRandom random = new SplittableRandom(seed);
        ClusterMixture mixture = new ClusterMixture(random, WIDTH, DEPTH, clusters, SIGMA_MIN, SIGMA_MAX,
                BACKGROUND_FRACTION);
        BoxSet boxes = new BoxSet(n);
        double[] xy = new double[2];
        for (int i = 0; i < n; i++) {
            mixture.sample(random, xy);
            double z = random.nextDouble() * HEIGHT;
            double hx = frame.length(edge(random)) / 2;
            double hy = frame.length(edge(random)) / 2;
            double hz = frame.length(edge(random)) / 2;
            double x = frame.x(xy[0]);
            double y = frame.y(xy[1]);
            double wz = frame.z(z);
            boxes.set(i, x - hx, y - hy, wz - hz, x + hx, y + hy, wz + hz);
        }
        return new SyntheticWorld(frame, mixture, boxes);
    }

    private static double edge(SplittableRandom random) {
        return Math.min(MAX_EDGE, MEDIAN_EDGE * Math.exp(EDGE_LOG_SIGMA * Sampling.gaussian(random)));
    }

    /**
     * The boxes, in world coordinates. The returned set is this world's own (not a copy).
     *
     * @return the boxes
     */
    public BoxSet boxes() {
        return boxes;
    }

    /**
     * The frame the world was generated in.
     *
     * @return the frame
     */
    public WorldFrame frame() {
        return frame;
    }

    /**
     * Cube queries centred at points drawn like the box centres, each sized to overlap a number of boxes
     * drawn log-uniformly in [{@value #MIN_HITS}, {@value #MAX_HITS}] (capped at the world's size), counted
     * against {@link #boxes()} as they are now (closed overlap, in 3D). Ties of distance or rounding may
     * add a hit; a world with fewer boxes than the target gives cubes covering all of them.
     *
     * @param count number of queries; not negative
     * @param seed the seed of this query set
     * @return the query boxes
     * @throws IllegalArgumentException if {@code count} is negative
     * @throws IllegalStateException if the world has no boxes and {@code count > 0}
     */
    public BoxSet boxQueries(int count, long seed) {
        Sampling.requireCount(count, "count");
        if (count > 0 && boxes.size() == 0) {
            throw new IllegalStateException("cannot size box queries in an empty world");
        }
        SplittableRandom random = new SplittableRandom(seed);
        HitSizedCubes sizer = new HitSizedCubes(boxes);
        BoxSet queries = new BoxSet(count);
        double[] xy = new double[2];
        int maxHits = Math.min(MAX_HITS, boxes.size());
        int minHits = Math.min(MIN_HITS, maxHits);
        for (int q = 0; q < count; q++) {
            mixture.sample(random, xy);
            double x = frame.x(xy[0]);
            double y = frame.y(xy[1]);
            double z = frame.z(random.nextDouble() * HEIGHT);
            int k = (int) Math.min(maxHits, Math.floor(Sampling.logUniform(random, minHits, maxHits + 1)));
            double h = sizer.halfSizeFor(x, y, z, k);
            queries.set(q, x - h, y - h, z - h, x + h, y + h, z + h);
        }
        return queries;
    }

    /**
     * Segments of length {@value #SEGMENT_LENGTH} m (scaled by the frame) starting at points drawn like
     * the box centres, with a uniform azimuth and an elevation uniform in
     * [-{@value #MAX_ELEVATION_DEGREES}, {@value #MAX_ELEVATION_DEGREES}] degrees. Segments may leave the
     * world.
     *
     * @param count number of segments; not negative
     * @param seed the seed of this query set
     * @return the segments (fraction 1 is the far end)
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public SegmentSet segments(int count, long seed) {
        Sampling.requireCount(count, "count");
        SplittableRandom random = new SplittableRandom(seed);
        SegmentSet segments = new SegmentSet(count);
        double[] xy = new double[2];
        double length = frame.length(SEGMENT_LENGTH);
        double maxElevation = Math.toRadians(MAX_ELEVATION_DEGREES);
        for (int s = 0; s < count; s++) {
            mixture.sample(random, xy);
            double z = random.nextDouble() * HEIGHT;
            double azimuth = random.nextDouble() * 2 * Math.PI;
            double elevation = Sampling.uniform(random, -maxElevation, maxElevation);
            double horizontal = length * Math.cos(elevation);
            segments.set(s, frame.x(xy[0]), frame.y(xy[1]), frame.z(z),
                    horizontal * Math.cos(azimuth), horizontal * Math.sin(azimuth), length * Math.sin(elevation));
        }
        return segments;
    }

    /**
     * A moving workload over a copy of this world's boxes, confined to this world's bounds.
     *
     * @param seed the seed of the walk
     * @return a new workload; its {@link MovingWorkload#boxes()} start equal to {@link #boxes()}
     */
    public MovingWorkload moving(long seed) {
        return new MovingWorkload(boxes.copy(), frame, seed);
    }
}
