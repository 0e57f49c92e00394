package dev.boxwood.query;

import dev.boxwood.geom.AabbAabb;
import dev.boxwood.geom.FrustumAabb;
import dev.boxwood.geom.Geom;
import dev.boxwood.geom.Obb;
import dev.boxwood.geom.ObbAabb;
import dev.boxwood.geom.ObbLayout;
import dev.boxwood.geom.SphereAabb;

/**
 * The per-box decisions of the region queries, shared by every index so that they all report the same objects
 * for the same stored boxes: classification of a closed box against a sphere, an oriented box or an axis-aligned
 * box as {@link Geom#OUTSIDE}, {@link Geom#CROSSING} or {@link Geom#INSIDE}, and the acceptance rule of each
 * {@link RegionMode}. Indexes also classify their internal node boxes with these methods: every decision is
 * monotonic in the box (a larger box is never further outside nor further inside), so a node that is outside
 * holds no accepted object and a node that is inside holds only accepted objects (for the oriented box even where
 * rounding decides: {@link ObbAabb#test} projects the box from its faces there). Kernel style: no validation.
 */
public final class RegionTests {

    /** Shape kind of the shared traversal decisions: a sphere, {@code p0..p3} = centre and radius. */
    public static final int SPHERE = 0;
    /** Shape kind: an axis-aligned box, {@code p0..p5} = min x, y, z, max x, y, z. */
    public static final int BOX = 1;
    /** Shape kind: an oriented box in {@link ObbLayout}, given as an array and offset. */
    public static final int OBB = 2;
    /** Shape kind: a {@link ConvexRegion}. */
    public static final int CONVEX = 3;
    /** Traversal state of a subtree still to be tested (non-convex shapes); state 0 means inside, taken whole. */
    public static final int TEST = 1;

    private RegionTests() {
    }

    /**
     * The radius a sphere query tests with in an index's frame, whose centre it moves there as {@code c - origin}
     * rounded to double: for the crossing modes {@code r} grown by the exact errors of that rounding (Knuth's TwoSum,
     * {@link Geom#sumError}), summed and rounded up, so that a sphere touching a given box in world coordinates
     * still touches the stored box, which holds the box's exact offsets ({@link OutwardFloat#below}); where the
     * move is exact (an origin of 0, a centre on the origin's grid) {@code r} itself. {@code r} for
     * {@link RegionMode#WINDOW}, which decides flush boxes only where rounding is exact.
     *
     * @param cx centre x, world frame
     * @param cy centre y
     * @param cz centre z
     * @param ox the index's (or tile's) origin x
     * @param oy origin y
     * @param oz origin z
     * @param r the radius, {@code >= 0}
     * @param mode the selection mode
     * @return the radius to test the moved centre with
     */
    public static double frameRadius(double cx, double cy, double cz, double ox, double oy, double oz, double r,
                                     RegionMode mode) {
        if (mode == RegionMode.WINDOW) {
            return r;
        }
        double ex = Math.abs(Geom.sumError(cx, -ox, cx - ox));
        double ey = Math.abs(Geom.sumError(cy, -oy, cy - oy));
        double ez = Math.abs(Geom.sumError(cz, -oz, cz - oz));
        // the sum of the errors bounds their Euclidean length; each addition rounded up keeps it a bound
        return Geom.addUp(Geom.addUp(Geom.addUp(r, ex), ey), ez);
    }

    /**
     * The oriented box an index's query tests in its frame, into {@code dest[0 ..]}: {@link Obb#copyForQuery} (the
     * centre moved there as {@code c - origin} rounded to double, the axes re-orthonormalized) and, for the crossing
     * modes, each half extent grown by the exact errors of moving the centre, as {@link #frameRadius} grows a
     * sphere's radius: the move shifts the box by at most their sum along any unit axis, so an oriented box touching
     * a box exactly in world coordinates still touches the stored box (without it, a box far from the origin, 1e7
     * and beyond, was missed by the rounding). The half extents as given for {@link RegionMode#WINDOW}, which
     * decides flush boxes only where rounding is exact.
     *
     * @param src the oriented box, validated by {@link Obb#validate}
     * @param offset where it starts
     * @param ox the index's (or tile's) origin x
     * @param oy origin y
     * @param oz origin z
     * @param mode the selection mode
     * @param dest receives the box at 0; at least {@link ObbLayout#STRIDE} long; may not overlap {@code src}'s box
     */
    public static void frameObb(double[] src, int offset, double ox, double oy, double oz, RegionMode mode,
                                double[] dest) {
        Obb.copyForQuery(src, offset, ox, oy, oz, dest);
        double grow = frameRadius(src[offset], src[offset + 1], src[offset + 2], ox, oy, oz, 0, mode);
        if (grow > 0) {
            for (int i = ObbLayout.HALF_EXTENTS; i < ObbLayout.HALF_EXTENTS + 3; i++) {
                dest[i] = Geom.addUp(dest[i], grow);
            }
        }
    }

    /**
     * The traversal state of the root: every plane of a convex region, {@link #TEST} for the other shapes.
     *
     * @param shape the shape kind
     * @param region the region for {@link #CONVEX}, else ignored
     * @return the root state
     */
    public static int rootState(int shape, ConvexRegion region) {
        return shape == CONVEX ? region.allPlanes() : TEST;
    }

    /**
     * Classifies a non-convex shape ({@link #SPHERE}, {@link #BOX}, {@link #OBB}) against a closed box with
     * {@link #classifySphere}, {@link #classifyBox} or {@link #classifyObb}.
     *
     * @param shape the shape kind
     * @param p0 shape parameter 0
     * @param p1 shape parameter 1
     * @param p2 shape parameter 2
     * @param p3 shape parameter 3
     * @param p4 shape parameter 4
     * @param p5 shape parameter 5
     * @param obb the oriented box's array for {@link #OBB}
     * @param obbOffset where it starts
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return {@link Geom#OUTSIDE}, {@link Geom#CROSSING} or {@link Geom#INSIDE}
     */
    public static int classifyShape(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                                    double[] obb, int obbOffset, double minX, double minY, double minZ,
                                    double maxX, double maxY, double maxZ) {
        switch (shape) {
            case SPHERE:
                return classifySphere(p0, p1, p2, p3, minX, minY, minZ, maxX, maxY, maxZ);
            case BOX:
                return classifyBox(p0, p1, p2, p3, p4, p5, minX, minY, minZ, maxX, maxY, maxZ);
            default:
                return classifyObb(obb, obbOffset, minX, minY, minZ, maxX, maxY, maxZ);
        }
    }

    /**
     * The traversal decision for a box under a subtree in state {@code state}: {@link FrustumAabb#CULLED}, 0
     * (inside: take the subtree whole) or a non-zero state to pass down (convex regions: the planes still crossed,
     * Assarsson and Möller 2000). For an internal node ({@code node}) of a convex query in an exact mode, a box
     * outside no single plane but beside a bounded region is dropped by the cheap vertex-box axes. A box inside every
     * plane (as rounded) of a bounded region is taken whole only within the vertex box: beyond a needle-sharp corner
     * a box well away from the region can be within rounding of every plane; one partly within passes
     * {@code state} on, so that each object decides by {@link #acceptsConvex}, as an index without this subtree
     * would.
     *
     * @param shape the shape kind
     * @param p0 shape parameter 0
     * @param p1 shape parameter 1
     * @param p2 shape parameter 2
     * @param p3 shape parameter 3
     * @param p4 shape parameter 4
     * @param p5 shape parameter 5
     * @param obb the oriented box's array for {@link #OBB}
     * @param obbOffset where it starts
     * @param region the region for {@link #CONVEX}
     * @param mode the selection mode
     * @param state the parent's state (non-zero)
     * @param node whether the box is an internal node's (not a leaf's)
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return the state of the subtree, or {@link FrustumAabb#CULLED}
     */
    public static int classifySubtree(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                                      double[] obb, int obbOffset, ConvexRegion region, RegionMode mode, int state,
                                      boolean node, double minX, double minY, double minZ,
                                      double maxX, double maxY, double maxZ) {
        if (shape == CONVEX) {
            int crossing = region.cull(state, minX, minY, minZ, maxX, maxY, maxZ);
            if (crossing == FrustumAabb.CULLED || mode == RegionMode.CROSSING_CONSERVATIVE || !region.isBounded()) {
                return crossing;
            }
            if (crossing == 0) {
                return insideEveryPlane(region, state, minX, minY, minZ, maxX, maxY, maxZ);
            }
            return node && !region.overlapsVertexBox(minX, minY, minZ, maxX, maxY, maxZ) ? FrustumAabb.CULLED
                    : crossing;
        }
        int c = classifyShape(shape, p0, p1, p2, p3, p4, p5, obb, obbOffset, minX, minY, minZ, maxX, maxY, maxZ);
        return c == Geom.OUTSIDE ? FrustumAabb.CULLED : c == Geom.INSIDE ? 0 : TEST;
    }

    /**
     * The state of a box inside every plane of a bounded region as rounded, which near a needle-sharp corner holds
     * for boxes well away from the region too: 0 (whole) within the vertex box, {@code state} (each object decides,
     * {@link #acceptsConvex}) partly within it, culled outside it. Out of line: it is met once per subtree taken
     * whole, and the traversal's per-node path stays small enough to be inlined.
     */
    private static int insideEveryPlane(ConvexRegion region, int state, double minX, double minY, double minZ,
                                        double maxX, double maxY, double maxZ) {
        return region.withinVertexBox(minX, minY, minZ, maxX, maxY, maxZ) ? 0
                : region.overlapsVertexBox(minX, minY, minZ, maxX, maxY, maxZ) ? state : FrustumAabb.CULLED;
    }

    /**
     * Whether an object's tight box under a subtree in state {@code state} (non-zero) is reported:
     * {@link #acceptsConvex} for convex regions, else {@link #accepts} of {@link #classifyShape}.
     *
     * @param shape the shape kind
     * @param p0 shape parameter 0
     * @param p1 shape parameter 1
     * @param p2 shape parameter 2
     * @param p3 shape parameter 3
     * @param p4 shape parameter 4
     * @param p5 shape parameter 5
     * @param obb the oriented box's array for {@link #OBB}
     * @param obbOffset where it starts
     * @param region the region for {@link #CONVEX}
     * @param mode the selection mode
     * @param state the state of the subtree holding the object
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return whether the object is reported
     */
    public static boolean acceptsObject(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                                        double[] obb, int obbOffset, ConvexRegion region, RegionMode mode, int state,
                                        double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (shape == CONVEX) {
            return acceptsConvex(region, mode, state, minX, minY, minZ, maxX, maxY, maxZ);
        }
        return accepts(mode, classifyShape(shape, p0, p1, p2, p3, p4, p5, obb, obbOffset, minX, minY, minZ, maxX,
                maxY, maxZ));
    }

    /**
     * Whether a box with the given classification is reported in {@code mode} (for sphere, oriented-box and box
     * regions): crossing modes take every box that is not outside, window mode only the inside ones.
     *
     * @param mode the selection mode
     * @param classification {@link Geom#OUTSIDE}, {@link Geom#CROSSING} or {@link Geom#INSIDE}
     * @return whether the box is reported
     */
    public static boolean accepts(RegionMode mode, int classification) {
        return classification == Geom.INSIDE || classification == Geom.CROSSING && mode != RegionMode.WINDOW;
    }

    /**
     * Classifies a closed box against a closed sphere: outside by the canonical {@link SphereAabb#test}, inside by
     * {@link SphereAabb#contains} (the farthest corner within the radius). Both are exact up to about {@code 1e-29}
     * of {@code r^2}, so every box inside a box classified inside passes the outside test too: a subtree taken whole
     * holds only objects that would each be reported.
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius {@code >= 0}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return the classification
     */
    public static int classifySphere(double cx, double cy, double cz, double r,
                                     double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (!SphereAabb.test(cx, cy, cz, r, minX, minY, minZ, maxX, maxY, maxZ)) {
            return Geom.OUTSIDE;
        }
        return SphereAabb.contains(cx, cy, cz, r, minX, minY, minZ, maxX, maxY, maxZ) ? Geom.INSIDE : Geom.CROSSING;
    }

    /**
     * Classifies a closed box against a closed query box: outside by {@link AabbAabb#test}, inside when it lies
     * within the query box on every axis. Exact (comparisons only).
     *
     * @param qMinX query min x
     * @param qMinY query min y
     * @param qMinZ query min z
     * @param qMaxX query max x
     * @param qMaxY query max y
     * @param qMaxZ query max z
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return the classification
     */
    public static int classifyBox(double qMinX, double qMinY, double qMinZ, double qMaxX, double qMaxY, double qMaxZ,
                                  double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (!AabbAabb.test(qMinX, qMinY, qMinZ, qMaxX, qMaxY, qMaxZ, minX, minY, minZ, maxX, maxY, maxZ)) {
            return Geom.OUTSIDE;
        }
        return qMinX <= minX && qMinY <= minY && qMinZ <= minZ && maxX <= qMaxX && maxY <= qMaxY && maxZ <= qMaxZ
                ? Geom.INSIDE : Geom.CROSSING;
    }

    /**
     * Classifies a closed box against a closed oriented box in {@link ObbLayout}: first the cheap pre-cull against
     * the oriented box's enclosing axis-aligned box, then the 15-axis test {@link ObbAabb#test} (conservative by
     * its epsilon); inside when the box's projection on each oriented axis lies within the half extent
     * ({@code -H_i <= sum_k min(a_k (min_k - c_k), a_k (max_k - c_k))} and
     * {@code sum_k max(a_k (min_k - c_k), a_k (max_k - c_k)) <= H_i}, {@code a} the axis, {@code c} the oriented
     * box's centre): each term only moves outward as the box grows, so the decision is monotonic in the box.
     *
     * @param obb array holding the oriented box
     * @param offset where it starts
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return the classification
     */
    public static int classifyObb(double[] obb, int offset,
                                  double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double cx = obb[offset];
        double cy = obb[offset + 1];
        double cz = obb[offset + 2];
        int ax = offset + ObbLayout.AXES;
        int h = offset + ObbLayout.HALF_EXTENTS;
        // pre-cull: the enclosing box of the oriented one (Gomez 1999), grown by the test's own epsilon
        double slack = 1.0 + 1e-9;
        double ex = (obb[h] * Math.abs(obb[ax]) + obb[h + 1] * Math.abs(obb[ax + 3])
                + obb[h + 2] * Math.abs(obb[ax + 6])) * slack;
        double ey = (obb[h] * Math.abs(obb[ax + 1]) + obb[h + 1] * Math.abs(obb[ax + 4])
                + obb[h + 2] * Math.abs(obb[ax + 7])) * slack;
        double ez = (obb[h] * Math.abs(obb[ax + 2]) + obb[h + 1] * Math.abs(obb[ax + 5])
                + obb[h + 2] * Math.abs(obb[ax + 8])) * slack;
        double reach = 1e-9 * (ex + ey + ez);
        if (minX - cx > ex + reach || cx - maxX > ex + reach || minY - cy > ey + reach || cy - maxY > ey + reach
                || minZ - cz > ez + reach || cz - maxZ > ez + reach) {
            return Geom.OUTSIDE;
        }
        if (!ObbAabb.test(obb, offset, minX, minY, minZ, maxX, maxY, maxZ)) {
            return Geom.OUTSIDE;
        }
        // The projection's ends from each face's offset, not from the box's centre and half extents: those round
        // either way, so a box inside a node found inside could come out a few ulps beyond the half extent, and an
        // index taking that node whole would report a box that the test of the box itself leaves out.
        double x0 = minX - cx;
        double y0 = minY - cy;
        double z0 = minZ - cz;
        double x1 = maxX - cx;
        double y1 = maxY - cy;
        double z1 = maxZ - cz;
        for (int i = 0; i < 3; i++) {
            int a = ax + 3 * i;
            double px0 = obb[a] * x0;
            double px1 = obb[a] * x1;
            double py0 = obb[a + 1] * y0;
            double py1 = obb[a + 1] * y1;
            double pz0 = obb[a + 2] * z0;
            double pz1 = obb[a + 2] * z1;
            double high = Math.max(px0, px1) + Math.max(py0, py1) + Math.max(pz0, pz1);
            double low = Math.min(px0, px1) + Math.min(py0, py1) + Math.min(pz0, pz1);
            if (high > obb[h + i] || -low > obb[h + i]) {
                return Geom.CROSSING;
            }
        }
        return Geom.INSIDE;
    }

    /**
     * The checks every index's convex-region query makes first: a region, and a bounded one for the exact
     * {@link RegionMode#CROSSING} (whose edge test needs the region's vertices).
     *
     * @param region the region
     * @param mode the selection mode (checked by the caller)
     * @throws IllegalArgumentException for a null region, or {@code CROSSING} with an unbounded region
     */
    public static void requireConvexQuery(ConvexRegion region, RegionMode mode) {
        Arguments.requireNonNull("region", region);
        if (mode == RegionMode.CROSSING && !region.isBounded()) {
            throw new IllegalArgumentException("region must be bounded for the exact CROSSING mode; use"
                    + " CROSSING_CONSERVATIVE or add planes");
        }
    }

    /**
     * Whether a closed box is reported by a convex-region query in {@code mode}, testing only the planes in
     * {@code activeMask} (pass {@link ConvexRegion#allPlanes()}; an index passes the mask its ancestors still
     * cross, which gives the same answer). {@link RegionMode#CROSSING} needs a bounded region.
     *
     * @param region the region
     * @param mode the selection mode
     * @param activeMask the planes to test
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return whether the box is reported
     */
    public static boolean acceptsConvex(ConvexRegion region, RegionMode mode, int activeMask,
                                        double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        int crossing = region.cull(activeMask, minX, minY, minZ, maxX, maxY, maxZ);
        if (crossing == FrustumAabb.CULLED) {
            return false;
        }
        if (crossing == 0) {
            // the vertex box rules out a box within rounding of every plane but away from a sharp corner, as the
            // traversal's classifySubtree does for the subtrees above it
            return mode == RegionMode.CROSSING_CONSERVATIVE || !region.isBounded()
                    || region.overlapsVertexBox(minX, minY, minZ, maxX, maxY, maxZ);
        }
        if (mode == RegionMode.WINDOW) {
            return false;
        }
        return mode == RegionMode.CROSSING_CONSERVATIVE || region.testBeyondPlanes(minX, minY, minZ, maxX, maxY, maxZ);
    }

    /**
     * The squared distance from a point to a closed box (0 inside): the per-axis distance outside the box is
     * {@code max(min - p, 0) + max(p - max, 0)} (Arvo 1990, as {@link SphereAabb#testBranchFree}). Monotonic: a
     * larger box is never farther. The key of the nearest-neighbour queries.
     *
     * @param x point x
     * @param y point y
     * @param z point z
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return the squared distance
     */
    public static double squaredDistance(double x, double y, double z,
                                         double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double ex = Math.max(minX - x, 0.0) + Math.max(x - maxX, 0.0);
        double ey = Math.max(minY - y, 0.0) + Math.max(y - maxY, 0.0);
        double ez = Math.max(minZ - z, 0.0) + Math.max(z - maxZ, 0.0);
        return ex * ex + ey * ey + ez * ez;
    }
}
