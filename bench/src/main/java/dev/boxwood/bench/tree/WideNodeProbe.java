package dev.boxwood.bench.tree;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;

import java.util.Arrays;

/**
 * What a wider node layout would buy the traversals at 1M, measured rather than argued: one binned-SAH hierarchy of
 * the peer world laid out three ways, each walked by the same style of loop, in alternating rounds in one JVM.
 * <ul>
 *   <li>{@code binary}: the dynamic tree's node pair, one 64-byte record per internal node (two float child boxes,
 *   two references);</li>
 *   <li>{@code wide4}: the binary hierarchy collapsed into nodes of up to four children (by area, see
 *   {@code wideChildren}), four float child boxes and references per node, 128 bytes (Jolt's broad phase uses four-wide float nodes);</li>
 *   <li>{@code wide4q}: the same four-wide nodes in 64 bytes, child boxes quantised to 8 bits per bound against
 *   the node's own box and rounded outward, so no box shrinks (Ylitie, Karras and Laine 2017, "Efficient Incoherent
 *   Ray Traversal on GPUs Through Compressed Wide BVHs", eight-wide there).</li>
 * </ul>
 * Objects sit in the leaves with their (exact float) boxes, as in the tree; there are no margins and no category
 * masks, and the closest-hit cast reports the nearest leaf box, so the figures compare layouts, not libraries. Every
 * layout's answers are checked against the binary layout's before timing: the same hit count, and the same nearest
 * fraction of every cast for the float layouts (the quantised one may enter a slightly larger box earlier; it must
 * never miss one).
 *
 * <pre>
 * java -Xms6g -Xmx6g -cp bench/target/benchmarks.jar dev.boxwood.bench.tree.WideNodeProbe N ROUNDS
 * </pre>
 * Prints per layout the median rate of casts (closest hit) and box queries (counting), the node records read per
 * query, the bytes of node records per object, and the medians of the per-round speed ratios against binary.
 */
public final class WideNodeProbe {

    /** Ints per binary record: 12 box floats, 2 references, 2 of padding (one 64-byte cache line). */
    private static final int B2 = 16;
    /** Ints per four-wide float record: 24 box floats, 4 references, 4 of padding (two cache lines). */
    private static final int W4 = 32;
    /** Ints per quantised four-wide record: node min and step (6), quantised bounds (6), 4 references. */
    private static final int Q4 = 16;
    /** Offset that puts records of large arrays on 64-byte boundaries (16-byte array header, as the tree). */
    private static final int BASE = 12;
    private static final int EMPTY = Integer.MIN_VALUE;

    private final int[] binary;
    private final int[] wide;
    private final int[] quantised;
    private final int binaryNodes;
    private final int wideNodes;
    private final int rootB;
    private final double ox0;
    private final double oy0;
    private final double oz0;
    private final int[] stack = new int[256];
    private final double[] fractions = new double[256];
    private long visits;

    private WideNodeProbe(FlatBvh bvh) {
        ox0 = bvh.originX();
        oy0 = bvh.originY();
        oz0 = bvh.originZ();
        float[] cb = bvh.childBounds();
        int[] cr = bvh.childRefs();
        binaryNodes = bvh.nodeCount();
        binary = new int[BASE + B2 * binaryNodes];
        for (int k = 0; k < binaryNodes; k++) {
            int o = BASE + B2 * k;
            for (int i = 0; i < 12; i++) {
                binary[o + i] = Float.floatToRawIntBits(cb[12 * k + i]);
            }
            binary[o + 12] = cr[2 * k];
            binary[o + 13] = cr[2 * k + 1];
        }
        rootB = bvh.rootRef();
        // Wide nodes are numbered in the order a depth-first walk creates them, as the binary records are.
        int[] wideOf = new int[binaryNodes];
        Arrays.fill(wideOf, -1);
        int count = 0;
        int[] todo = new int[binaryNodes + 1];
        int top = 0;
        todo[top++] = 0;
        int[] order = new int[binaryNodes];
        while (top > 0) {
            int k = todo[--top];
            wideOf[k] = count;
            order[count++] = k;
            int[] kids = wideChildren(cb, cr, k, new float[24]);
            for (int i = 3; i >= 0; i--) {
                if (kids[i] >= 0) {
                    todo[top++] = kids[i];
                }
            }
        }
        wideNodes = count;
        wide = new int[BASE + W4 * wideNodes];
        quantised = new int[BASE + Q4 * wideNodes];
        float[] box = new float[24];
        for (int w = 0; w < wideNodes; w++) {
            int k = order[w];
            float[] kidBoxes = box;
            int[] kids = wideChildren(cb, cr, k, kidBoxes);
            int o = BASE + W4 * w;
            int q = BASE + Q4 * w;
            for (int c = 0; c < 4; c++) {
                int ref = kids[c];
                int wref = ref == EMPTY ? EMPTY : ref >= 0 ? wideOf[ref] : ref;
                wide[o + 24 + c] = wref;
                quantised[q + 12 + c] = wref;
                for (int i = 0; i < 6; i++) {
                    wide[o + 6 * c + i] = Float.floatToRawIntBits(ref == EMPTY ? Float.NaN : kidBoxes[6 * c + i]);
                }
            }
            quantise(kidBoxes, kids, quantised, q);
        }
    }

    /**
     * The up to four children of binary node k: starting from its two, the internal child of largest surface
     * area is opened until there are four or none is left to open (Dammertz et al. 2008, "Shallow Bounding Volume
     * Hierarchies for Fast SIMD Ray Tracing of Incoherent Rays", collapse by area); EMPTY pads.
     */
    private static int[] wideChildren(float[] cb, int[] cr, int k, float[] boxes) {
        int[] kids = {EMPTY, EMPTY, EMPTY, EMPTY};
        Arrays.fill(boxes, Float.NaN);
        kids[0] = cr[2 * k];
        kids[1] = cr[2 * k + 1];
        System.arraycopy(cb, 12 * k, boxes, 0, 12);
        int count = 2;
        while (count < 4) {
            int open = -1;
            double area = -1;
            for (int c = 0; c < count; c++) {
                if (kids[c] >= 0) {
                    double a = FlatBvh.surfaceArea(boxes, 6 * c);
                    if (a > area) {
                        area = a;
                        open = c;
                    }
                }
            }
            if (open < 0) {
                break;
            }
            int node = kids[open];
            kids[open] = cr[2 * node];
            kids[count] = cr[2 * node + 1];
            System.arraycopy(cb, 12 * node, boxes, 6 * open, 6);
            System.arraycopy(cb, 12 * node + 6, boxes, 6 * count, 6);
            count++;
        }
        return kids;
    }

    /**
     * Node min and step per axis (step = extent / 255 rounded up, so 255 steps reach the max), then each child's
     * bounds as floor / ceil step counts: the decoded box contains the child's box.
     */
    private static void quantise(float[] kidBoxes, int[] kids, int[] rec, int q) {
        double[] lo = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] hi = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int c = 0; c < 4; c++) {
            if (kids[c] == EMPTY) {
                continue;
            }
            for (int a = 0; a < 3; a++) {
                lo[a] = Math.min(lo[a], kidBoxes[6 * c + a]);
                hi[a] = Math.max(hi[a], kidBoxes[6 * c + 3 + a]);
            }
        }
        for (int a = 0; a < 3; a++) {
            float min = (float) lo[a];
            float step = Math.nextUp((float) ((hi[a] - min) / 255.0));
            if (step <= 0) {
                step = Float.MIN_NORMAL;
            }
            rec[q + a] = Float.floatToRawIntBits(min);
            rec[q + 3 + a] = Float.floatToRawIntBits(step);
            int mins = 0;
            int maxs = 0;
            for (int c = 0; c < 4; c++) {
                int qlo = 255;
                int qhi = 0;
                if (kids[c] != EMPTY) {
                    qlo = (int) Math.floor((kidBoxes[6 * c + a] - (double) min) / step);
                    qhi = (int) Math.ceil((kidBoxes[6 * c + 3 + a] - (double) min) / step);
                    qlo = Math.max(0, Math.min(255, qlo));
                    qhi = Math.max(0, Math.min(255, qhi));
                    // decoding rounds: widen until the decoded bounds contain the float bounds
                    while (qlo > 0 && min + (double) qlo * step > kidBoxes[6 * c + a]) {
                        qlo--;
                    }
                    while (qhi < 255 && min + (double) qhi * step < kidBoxes[6 * c + 3 + a]) {
                        qhi++;
                    }
                }
                mins |= qlo << (8 * c);
                maxs |= qhi << (8 * c);
            }
            rec[q + 6 + a] = mins;
            rec[q + 9 + a] = maxs;
        }
    }

    /** The probe's three layouts of the binned-SAH hierarchy of {@code boxes} (at least two). */
    static WideNodeProbe of(BoxSet boxes) {
        return new WideNodeProbe(BinnedSahBuilder.defaults().build(boxes.toInterleaved()));
    }

    /** Node records read since the last call (and resets the count). */
    long takeVisits() {
        long v = visits;
        visits = 0;
        return v;
    }

    int wideNodes() {
        return wideNodes;
    }

    private static float f(int bits) {
        return Float.intBitsToFloat(bits);
    }

    // ------------------------------------------------------------------------------------------------ casts

    /** Nearest leaf-box entry fraction of the segment, or -1; near child first, clip on pop. */
    double castBinary(double px, double py, double pz, double dx, double dy, double dz) {
        final double ox = px - ox0;
        final double oy = py - oy0;
        final double oz = pz - oz0;
        final double ix = 1.0 / dx;
        final double iy = 1.0 / dy;
        final double iz = 1.0 / dz;
        final int[] r = binary;
        final int[] st = stack;
        final double[] sf = fractions;
        double best = -1;
        double max = 1.0;
        double bound = max * Geom.ROBUST_FAR_SCALE;
        int sp = 0;
        st[sp] = rootB;
        sf[sp++] = 0;
        long v = 0;
        int early = 0;
        while (sp > 0) {
            sp--;
            if (sf[sp] > bound) {
                continue;
            }
            int ref = st[sp];
            v++;
            int o = BASE + B2 * ref;
            double t0 = SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, 1.0,
                    f(r[o]), f(r[o + 1]), f(r[o + 2]), f(r[o + 3]), f(r[o + 4]), f(r[o + 5]));
            double t1 = SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, 1.0,
                    f(r[o + 6]), f(r[o + 7]), f(r[o + 8]), f(r[o + 9]), f(r[o + 10]), f(r[o + 11]));
            int c0 = r[o + 12];
            int c1 = r[o + 13];
            // Fractions against the whole segment (1.0), not the clip, so that a fraction does not depend on the
            // order of the walk (as in the tree); leaves clip at once.
            if (c0 < 0 && t0 >= 0 && t0 <= max) {
                best = max = t0;
                bound = max * Geom.ROBUST_FAR_SCALE;
            }
            if (c1 < 0 && t1 >= 0 && t1 <= max) {
                best = max = t1;
                bound = max * Geom.ROBUST_FAR_SCALE;
            }
            boolean p0 = c0 >= 0 && t0 >= 0 && t0 <= bound;
            boolean p1 = c1 >= 0 && t1 >= 0 && t1 <= bound;
            if (p0 && p1 && t0 <= t1) {
                st[sp] = c1;
                sf[sp++] = t1;
                st[sp] = c0;
                sf[sp++] = t0;
                early += r[BASE + B2 * c1] + r[BASE + B2 * c0];
            } else if (p0 && p1) {
                st[sp] = c0;
                sf[sp++] = t0;
                st[sp] = c1;
                sf[sp++] = t1;
                early += r[BASE + B2 * c1] + r[BASE + B2 * c0];
            } else if (p0) {
                st[sp] = c0;
                sf[sp++] = t0;
                early += r[BASE + B2 * c0];
            } else if (p1) {
                st[sp] = c1;
                sf[sp++] = t1;
                early += r[BASE + B2 * c1];
            }
        }
        visits += v;
        sink += early;
        return best;
    }

    private int sink;

    /** As {@link #castBinary}, four children per node, pushed farthest first. */
    double castWide(double px, double py, double pz, double dx, double dy, double dz, boolean q) {
        final double ox = px - ox0;
        final double oy = py - oy0;
        final double oz = pz - oz0;
        final double ix = 1.0 / dx;
        final double iy = 1.0 / dy;
        final double iz = 1.0 / dz;
        final int[] r = q ? quantised : wide;
        final int size = q ? Q4 : W4;
        final int refs = q ? 12 : 24;
        final int[] st = stack;
        final double[] sf = fractions;
        double best = -1;
        double max = 1.0;
        double bound = max * Geom.ROBUST_FAR_SCALE;
        int sp = 0;
        st[sp] = 0;
        sf[sp++] = 0;
        long v = 0;
        int early = 0;
        while (sp > 0) {
            sp--;
            if (sf[sp] > bound) {
                continue;
            }
            int node = st[sp];
            v++;
            int o = BASE + size * node;
            int first = sp;
            for (int c = 0; c < 4; c++) {
                int ref = r[o + refs + c];
                if (ref == EMPTY) {
                    continue;
                }
                double t = q ? quantisedEntry(r, o, c, ox, oy, oz, ix, iy, iz)
                        : SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, 1.0,
                        f(r[o + 6 * c]), f(r[o + 6 * c + 1]), f(r[o + 6 * c + 2]),
                        f(r[o + 6 * c + 3]), f(r[o + 6 * c + 4]), f(r[o + 6 * c + 5]));
                if (t < 0 || t > bound) {
                    continue;
                }
                if (ref < 0) {
                    if (t <= max) {
                        best = max = t;
                        bound = max * Geom.ROBUST_FAR_SCALE;
                    }
                    continue;
                }
                // insertion by descending fraction: the nearest ends on top
                int i = sp++;
                while (i > first && sf[i - 1] < t) {
                    st[i] = st[i - 1];
                    sf[i] = sf[i - 1];
                    i--;
                }
                st[i] = ref;
                sf[i] = t;
                early += r[BASE + size * ref];
            }
        }
        visits += v;
        sink += early;
        return best;
    }

    private static double quantisedEntry(int[] r, int o, int c, double ox, double oy, double oz,
                                         double ix, double iy, double iz) {
        int shift = 8 * c;
        double mx = f(r[o]);
        double my = f(r[o + 1]);
        double mz = f(r[o + 2]);
        double sx = f(r[o + 3]);
        double sy = f(r[o + 4]);
        double sz = f(r[o + 5]);
        return SegmentAabb.intersectInverse(ox, oy, oz, ix, iy, iz, 1.0,
                mx + ((r[o + 6] >>> shift) & 0xFF) * sx, my + ((r[o + 7] >>> shift) & 0xFF) * sy,
                mz + ((r[o + 8] >>> shift) & 0xFF) * sz, mx + ((r[o + 9] >>> shift) & 0xFF) * sx,
                my + ((r[o + 10] >>> shift) & 0xFF) * sy, mz + ((r[o + 11] >>> shift) & 0xFF) * sz);
    }

    // ------------------------------------------------------------------------------------------------ boxes

    /** Leaves whose box overlaps the closed query box; windowless depth first, both layouts alike. */
    int boxBinary(double x0, double y0, double z0, double x1, double y1, double z1) {
        final float a0 = (float) (x0 - ox0);
        final float b0 = (float) (y0 - oy0);
        final float c0 = (float) (z0 - oz0);
        final float a1 = (float) (x1 - ox0);
        final float b1 = (float) (y1 - oy0);
        final float c1 = (float) (z1 - oz0);
        final int[] r = binary;
        final int[] st = stack;
        int sp = 0;
        st[sp++] = rootB;
        int hits = 0;
        long v = 0;
        int early = 0;
        while (sp > 0) {
            int ref = st[--sp];
            v++;
            int o = BASE + B2 * ref;
            for (int side = 0; side < 2; side++) {
                if (overlaps(r, o + 6 * side, a0, b0, c0, a1, b1, c1)) {
                    int child = r[o + 12 + side];
                    if (child < 0) {
                        hits++;
                    } else {
                        st[sp++] = child;
                        early += r[BASE + B2 * child];
                    }
                }
            }
        }
        visits += v;
        sink += early;
        return hits;
    }

    /** Whether the float box at {@code r[b .. b + 5]} overlaps the closed query box. */
    private static boolean overlaps(int[] r, int b, float a0, float b0, float c0, float a1, float b1, float c1) {
        return f(r[b]) <= a1 && f(r[b + 3]) >= a0 && f(r[b + 1]) <= b1 && f(r[b + 4]) >= b0
                && f(r[b + 2]) <= c1 && f(r[b + 5]) >= c0;
    }

    int boxWide(double x0, double y0, double z0, double x1, double y1, double z1, boolean q) {
        final float a0 = (float) (x0 - ox0);
        final float b0 = (float) (y0 - oy0);
        final float c0 = (float) (z0 - oz0);
        final float a1 = (float) (x1 - ox0);
        final float b1 = (float) (y1 - oy0);
        final float c1 = (float) (z1 - oz0);
        final int[] r = q ? quantised : wide;
        final int size = q ? Q4 : W4;
        final int refs = q ? 12 : 24;
        final int[] st = stack;
        int sp = 0;
        st[sp++] = 0;
        int hits = 0;
        long v = 0;
        int early = 0;
        while (sp > 0) {
            int node = st[--sp];
            v++;
            int o = BASE + size * node;
            for (int c = 0; c < 4; c++) {
                int child = r[o + refs + c];
                if (child == EMPTY) {
                    continue;
                }
                boolean overlap;
                if (q) {
                    int shift = 8 * c;
                    float mx = f(r[o]);
                    float my = f(r[o + 1]);
                    float mz = f(r[o + 2]);
                    float sx = f(r[o + 3]);
                    float sy = f(r[o + 4]);
                    float sz = f(r[o + 5]);
                    // in double: the float product and sum could round a bound inward
                    overlap = mx + ((r[o + 6] >>> shift) & 0xFF) * (double) sx <= a1
                            && mx + ((r[o + 9] >>> shift) & 0xFF) * (double) sx >= a0
                            && my + ((r[o + 7] >>> shift) & 0xFF) * (double) sy <= b1
                            && my + ((r[o + 10] >>> shift) & 0xFF) * (double) sy >= b0
                            && mz + ((r[o + 8] >>> shift) & 0xFF) * (double) sz <= c1
                            && mz + ((r[o + 11] >>> shift) & 0xFF) * (double) sz >= c0;
                } else {
                    overlap = overlaps(r, o + 6 * c, a0, b0, c0, a1, b1, c1);
                }
                if (overlap) {
                    if (child < 0) {
                        hits++;
                    } else {
                        st[sp++] = child;
                        early += r[BASE + size * child];
                    }
                }
            }
        }
        visits += v;
        sink += early;
        return hits;
    }

    // ------------------------------------------------------------------------------------------------ driver

    private static final String[] NAMES = {"binary", "wide4", "wide4q"};

    /**
     * Runs the probe.
     *
     * @param args N ROUNDS
     */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        PeerWorkload w = PeerWorkload.of(n, 20_000);
        BoxSet boxes = w.boxes();
        WideNodeProbe p = of(boxes);
        SegmentSet s = w.segments();
        BoxSet q = w.boxQueries();
        System.out.printf("n=%d: binary %d nodes, %.1f B/object; four-wide %d nodes, %.1f B/object float,"
                        + " %.1f quantised%n", n, p.binaryNodes, 64.0 * p.binaryNodes / n, p.wideNodes,
                128.0 * p.wideNodes / n, 64.0 * p.wideNodes / n);
        p.check(s, q);
        double[][] castRate = new double[3][rounds];
        double[][] boxRate = new double[3][rounds];
        double[] castVisits = new double[3];
        double[] boxVisits = new double[3];
        for (int round = -3; round < rounds; round++) {
            for (int k = 0; k < 3; k++) {
                // rotate the order so no layout always runs first
                int layout = Math.floorMod(k + round, 3);
                p.visits = 0;
                long t0 = System.nanoTime();
                for (int i = 0; i < s.size(); i++) {
                    p.cast(layout, s, i);
                }
                long t1 = System.nanoTime();
                castVisits[layout] = p.visits / (double) s.size();
                p.visits = 0;
                for (int i = 0; i < q.size(); i++) {
                    p.box(layout, q, i);
                }
                long t2 = System.nanoTime();
                boxVisits[layout] = p.visits / (double) q.size();
                if (round >= 0) {
                    castRate[layout][round] = s.size() / ((t1 - t0) / 1e9);
                    boxRate[layout][round] = q.size() / ((t2 - t1) / 1e9);
                }
            }
        }
        for (int layout = 0; layout < 3; layout++) {
            System.out.printf("%-7s casts %,9.0f/s (%.1f nodes), box queries %,9.0f/s (%.1f nodes);"
                            + " per-round speed / binary: casts %.3f (%.3f to %.3f), boxes %.3f (%.3f to %.3f)%n",
                    NAMES[layout], median(castRate[layout]), castVisits[layout], median(boxRate[layout]),
                    boxVisits[layout], ratio(castRate[layout], castRate[0], 2), ratio(castRate[layout],
                            castRate[0], 1), ratio(castRate[layout], castRate[0], 3), ratio(boxRate[layout],
                            boxRate[0], 2), ratio(boxRate[layout], boxRate[0], 1), ratio(boxRate[layout],
                            boxRate[0], 3));
        }
        System.out.println("(sink " + p.sink + ")");
    }

    /** Nearest leaf-box fraction of segment {@code i} in layout 0 (binary), 1 (wide4) or 2 (wide4q), or -1. */
    double cast(int layout, SegmentSet s, int i) {
        return layout == 0
                ? castBinary(s.originX[i], s.originY[i], s.originZ[i], s.translationX[i], s.translationY[i],
                s.translationZ[i])
                : castWide(s.originX[i], s.originY[i], s.originZ[i], s.translationX[i], s.translationY[i],
                s.translationZ[i], layout == 2);
    }

    /** Leaf boxes overlapping query {@code i} in layout 0, 1 or 2. */
    int box(int layout, BoxSet q, int i) {
        return layout == 0 ? boxBinary(q.minX[i], q.minY[i], q.minZ[i], q.maxX[i], q.maxY[i], q.maxZ[i])
                : boxWide(q.minX[i], q.minY[i], q.minZ[i], q.maxX[i], q.maxY[i], q.maxZ[i], layout == 2);
    }

    /** The layouts answer alike: float layouts exactly, the quantised one never less. */
    void check(SegmentSet s, BoxSet q) {
        for (int i = 0; i < s.size(); i++) {
            double b = cast(0, s, i);
            double wf = cast(1, s, i);
            double wq = cast(2, s, i);
            if (wf != b || (b >= 0 && (wq < 0 || wq > b))) {
                throw new AssertionError("cast " + i + ": binary " + b + ", wide4 " + wf + ", wide4q " + wq);
            }
        }
        for (int i = 0; i < q.size(); i++) {
            int b = box(0, q, i);
            int wf = box(1, q, i);
            int wq = box(2, q, i);
            if (wf != b || wq < b) {
                throw new AssertionError("box " + i + ": binary " + b + ", wide4 " + wf + ", wide4q " + wq);
            }
        }
    }

    private static double median(double[] a) {
        double[] c = a.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : 0.5 * (c[c.length / 2 - 1] + c[c.length / 2]);
    }

    /** Quartile {@code quart} (1, 2, 3) of the per-round ratios a / b. */
    private static double ratio(double[] a, double[] b, int quart) {
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] / b[i];
        }
        Arrays.sort(r);
        return r[Math.min(r.length - 1, (int) Math.round(quart * (r.length - 1) / 4.0))];
    }
}
