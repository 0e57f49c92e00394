package dev.boxwood.bench.peers;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.testkit.scenes.BoxSet;

/**
 * What every adapter shares: its own copy of the boxes (the exact 3D check of every candidate the peer
 * reports), and the dispatch of candidates to the current question. An adapter implements
 * {@link #visitCandidates} with the peer's region query and calls {@link #accept(int)} for each box it
 * reports; answers are then always exact 3D answers, whatever the peer's dimension or precision.
 *
 * <p>Segment casts default to the {@code RayByBoxes} emulation for peers without a native clipping cast:
 * box queries over consecutive pieces of about {@value #RAY_PIECE_LENGTH} units of the segment, in order,
 * stopping once the best hit precedes the end of the current piece (a box entered at fraction {@code f}
 * overlaps the piece holding {@code f}, so later pieces cannot beat it). Peers with a native cast override
 * {@link #cast(boolean)}, read the segment from {@code ox .. tz} and report candidates to {@link #accept(int)}
 * too (which then keeps the best hit, or stops at the first).
 */
abstract class AbstractContender implements Contender {

    /** Fat margin per side for peers that fatten leaves, world units: jbox2d's fixed 0.1 m, matched elsewhere. */
    static final double FAT_MARGIN = 0.1;
    /** Piece length of the {@code RayByBoxes} emulation, world units (best of 10/25/60 m on this workload). */
    static final double RAY_PIECE_LENGTH = 25;

    private static final int COUNT = 0;
    private static final int CLOSEST = 1;
    private static final int ANY = 2;
    /** A box query that lists what it counts ({@link #listOverlaps}): the answer checks' mode, never timed. */
    private static final int LIST = 3;

    private final String name;
    private final boolean dynamic;

    /** The adapter's own copy of the boxes, kept current by {@link #move}. */
    protected BoxSet scene = new BoxSet(0);
    /**
     * The same boxes interleaved, 6 doubles per box, for the exact re-tests of {@link #accept}: one cache line per
     * candidate instead of one per coordinate array, so the harness's own cost per candidate, which every contender
     * pays alike, stays small next to the index's.
     */
    private double[] packed = new double[0];

    private int mode;
    private double qMinX;
    private double qMinY;
    private double qMinZ;
    private double qMaxX;
    private double qMaxY;
    private double qMaxZ;
    private int count;
    private int[] listed = new int[0];

    /** The current segment: {@code origin + t * translation}, {@code t} in [0, 1]. */
    double ox;
    double oy;
    double oz;
    double tx;
    double ty;
    double tz;
    private double bestFraction;
    private int bestIndex;
    private int anyIndex;

    AbstractContender(String name, boolean dynamic) {
        this.name = name;
        this.dynamic = dynamic;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean dynamic() {
        return dynamic;
    }

    @Override
    public final void build(BoxSet boxes) {
        scene = boxes.copy();
        packed = scene.toInterleaved();
        buildIndex();
    }

    /** Builds the peer's index over {@link #scene}. */
    protected abstract void buildIndex();

    /**
     * Reports through {@link #accept(int)} at least every box that overlaps the closed query box in 3D
     * (more is fine: 2D peers report x,y overlaps, float peers rounded boxes). May stop when
     * {@code accept} returns false.
     */
    protected abstract void visitCandidates(double minX, double minY, double minZ,
            double maxX, double maxY, double maxZ);

    /**
     * Takes one candidate for the current question.
     *
     * @return false once the question is answered (an any-hit cast found its hit), so the peer may stop
     */
    protected final boolean accept(int i) {
        switch (mode) {
            case COUNT:
                int o = 6 * i;
                if (AabbAabb.test(packed[o], packed[o + 1], packed[o + 2], packed[o + 3], packed[o + 4], packed[o + 5],
                        qMinX, qMinY, qMinZ, qMaxX, qMaxY, qMaxZ)) {
                    count++;
                }
                return true;
            case LIST:
                int b = 6 * i;
                if (AabbAabb.test(packed[b], packed[b + 1], packed[b + 2], packed[b + 3], packed[b + 4], packed[b + 5],
                        qMinX, qMinY, qMinZ, qMaxX, qMaxY, qMaxZ)) {
                    if (count == listed.length) {
                        listed = java.util.Arrays.copyOf(listed, Math.max(16, 2 * count));
                    }
                    listed[count++] = i;
                }
                return true;
            case CLOSEST:
                offerClosest(i);
                return true;
            default:
                return offerAny(i);
        }
    }

    @Override
    public int[] listOverlaps(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        countOverlaps(LIST, minX, minY, minZ, maxX, maxY, maxZ);
        int[] found = java.util.Arrays.copyOf(listed, count);
        java.util.Arrays.sort(found);
        return found;
    }

    @Override
    public int countOverlaps(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        return countOverlaps(COUNT, minX, minY, minZ, maxX, maxY, maxZ);
    }

    /** A box query in {@code how} ({@link #COUNT} or {@link #LIST}); returns the count. */
    private int countOverlaps(int how, double minX, double minY, double minZ, double maxX, double maxY,
                              double maxZ) {
        mode = how;
        count = 0;
        qMinX = minX;
        qMinY = minY;
        qMinZ = minZ;
        qMaxX = maxX;
        qMaxY = maxY;
        qMaxZ = maxZ;
        visitCandidates(minX, minY, minZ, maxX, maxY, maxZ);
        return count;
    }

    @Override
    public final double castClosest(double ox, double oy, double oz, double tx, double ty, double tz) {
        beginSegment(ox, oy, oz, tx, ty, tz);
        mode = CLOSEST;
        cast(false);
        return bestFraction;
    }

    @Override
    public int closestIndex() {
        return bestIndex;
    }

    @Override
    public final int castAny(double ox, double oy, double oz, double tx, double ty, double tz) {
        beginSegment(ox, oy, oz, tx, ty, tz);
        mode = ANY;
        cast(true);
        return anyIndex;
    }

    /**
     * Casts the current segment ({@code ox .. tz}), reporting at least every box it hits through
     * {@link #accept(int)}. The default is the {@code RayByBoxes} emulation.
     *
     * @param any true for an any-hit cast (stop at the first hit), false for the closest hit
     */
    protected void cast(boolean any) {
        castByPieces();
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        throw new UnsupportedOperationException(name + " is static");
    }

    /** The {@code RayByBoxes} emulation, see the class comment. */
    private void castByPieces() {
        double length = Math.sqrt(tx * tx + ty * ty + tz * tz);
        int pieces = (int) Math.max(1, Math.ceil(length / RAY_PIECE_LENGTH));
        // pad each piece a little so rounding of its corners cannot drop a box touching a piece boundary
        double pad = 1e-9 * (length + Math.abs(ox) + Math.abs(oy) + Math.abs(oz));
        for (int k = 0; k < pieces; k++) {
            double t0 = (double) k / pieces;
            double t1 = (double) (k + 1) / pieces;
            double ax = ox + t0 * tx;
            double bx = ox + t1 * tx;
            double ay = oy + t0 * ty;
            double by = oy + t1 * ty;
            double az = oz + t0 * tz;
            double bz = oz + t1 * tz;
            visitCandidates(Math.min(ax, bx) - pad, Math.min(ay, by) - pad, Math.min(az, bz) - pad,
                    Math.max(ax, bx) + pad, Math.max(ay, by) + pad, Math.max(az, bz) + pad);
            if (mode == ANY ? anyIndex >= 0 : bestFraction >= 0 && bestFraction <= t1) {
                return;
            }
        }
    }

    /** Records the segment and clears the answers. */
    private void beginSegment(double ox, double oy, double oz, double tx, double ty, double tz) {
        this.ox = ox;
        this.oy = oy;
        this.oz = oz;
        this.tx = tx;
        this.ty = ty;
        this.tz = tz;
        bestFraction = NO_HIT;
        bestIndex = -1;
        anyIndex = -1;
    }

    /** Exact entry fraction of the current segment into box {@code i}, up to {@code maxFraction}, or NO_HIT. */
    protected final double fraction(int i, double maxFraction) {
        int o = 6 * i;
        return SegmentAabb.intersect(ox, oy, oz, tx, ty, tz, maxFraction,
                packed[o], packed[o + 1], packed[o + 2], packed[o + 3], packed[o + 4], packed[o + 5]);
    }

    /**
     * Offers box {@code i} as the closest hit of the current segment.
     *
     * @return true if it is now the best hit
     */
    private boolean offerClosest(int i) {
        double f = fraction(i, bestFraction >= 0 ? bestFraction : 1);
        if (f >= 0 && (bestFraction < 0 || f < bestFraction)) {
            bestFraction = f;
            bestIndex = i;
            return true;
        }
        return false;
    }

    /**
     * Offers box {@code i} as the any-hit answer of the current segment.
     *
     * @return false once a hit is known (stop), true to continue
     */
    private boolean offerAny(int i) {
        if (anyIndex >= 0) {
            return false;
        }
        if (fraction(i, 1) >= 0) {
            anyIndex = i;
            return false;
        }
        return true;
    }

    /** Best fraction of the current closest-hit cast so far, or NO_HIT. */
    protected final double bestFraction() {
        return bestFraction;
    }

    /** Bounds of the scene as {@code {minX, minY, minZ, maxX, maxY, maxZ}}; all zero for an empty scene. */
    protected final double[] sceneBounds() {
        return scene.size() == 0 ? new double[6] : scene.bounds();
    }

    /** Records the new box of a moved box in {@link #scene}. */
    protected final void moveInScene(int i, double minX, double minY, double minZ,
            double maxX, double maxY, double maxZ) {
        scene.set(i, minX, minY, minZ, maxX, maxY, maxZ);
        int o = 6 * i;
        packed[o] = minX;
        packed[o + 1] = minY;
        packed[o + 2] = minZ;
        packed[o + 3] = maxX;
        packed[o + 4] = maxY;
        packed[o + 5] = maxZ;
    }

    /** Largest float not above {@code v}: rounds a lower bound outward. */
    static float floatDown(double v) {
        float f = (float) v;
        return f > v ? Math.nextDown(f) : f;
    }

    /** Smallest float not below {@code v}: rounds an upper bound outward. */
    static float floatUp(double v) {
        float f = (float) v;
        return f < v ? Math.nextUp(f) : f;
    }
}
