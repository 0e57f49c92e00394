package dev.boxwood.query;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.geom.SweepAabb;

/**
 * The per-box decisions of the swept queries (a box or a sphere moving by a displacement over one frame), shared by
 * every index so that they all report the same objects with the same times for the same stored boxes: a conservative
 * bound for a subtree's box, the exact first time of contact for an object's tight box. The shape is given in the
 * index's frame as six parameters: a box's {@code min, max} ({@link #BOX}) or a sphere's centre, radius and cull radius
 * ({@code p0..p4}, {@link #SPHERE}). Times are normalized over the frame ({@code u} in {@code [0, max]}); a miss is
 * {@link Geom#NO_HIT}. Kernel style: no validation.
 */
public final class SweepTests {

    /** A moving axis-aligned box: {@code p0..p5} = min x, y, z, max x, y, z at the start. */
    public static final int BOX = 0;
    /**
     * A moving sphere: {@code p0..p2} = centre at the start, {@code p3} = radius, {@code p4} = the radius the
     * subtree bound grows boxes by ({@link #sphereCullRadius}).
     */
    public static final int SPHERE = 1;

    private SweepTests() {
    }

    /**
     * Starts a box sweep's visitor: the path its exact-test hook sees is that of the box's centre
     * ({@link Geom#midpoint}, inside the box at any magnitude), over the displacement, up to fraction 1. Every index's
     * {@code sweepBox} starts its visitor here, so they all hand the hook the same path.
     *
     * @param visitor the sweep's visitor
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @param dx displacement x
     * @param dy displacement y
     * @param dz displacement z
     */
    public static void beginBoxSweep(RayCastVisitor visitor, double minX, double minY, double minZ,
                                     double maxX, double maxY, double maxZ, double dx, double dy, double dz) {
        visitor.begin(Geom.midpoint(minX, maxX), Geom.midpoint(minY, maxY), Geom.midpoint(minZ, maxZ), dx, dy, dz,
                1.0);
    }

    /**
     * The radius {@link #boundContact} grows boxes by for a sphere: the radius and a little more, once per query.
     * The exact test accepts a centre up to about {@code r (1 + 2^-52)} from a box after its own rounding (Arvo's
     * squared distances), and a gap below about {@code 1.5e-162} whatever the radius (its square underflows to 0);
     * growing a box by {@code r} rounds by up to half an ulp of the coordinates near the centre's path. The
     * relative slack covers the first and the last, an absolute {@code 2^-530} the underflow, so the bound never
     * rejects a box the exact test touches.
     *
     * @param p0 centre x at the start, in the index's frame
     * @param p1 centre y
     * @param p2 centre z
     * @param radius the radius, {@code >= 0}
     * @param dx displacement x
     * @param dy displacement y
     * @param dz displacement z
     * @return the cull radius ({@code p4} of {@link #SPHERE})
     */
    public static double sphereCullRadius(double p0, double p1, double p2, double radius, double dx, double dy,
                                          double dz) {
        double scale = radius + Math.abs(p0) + Math.abs(p1) + Math.abs(p2) + Math.abs(dx) + Math.abs(dy)
                + Math.abs(dz);
        // plus an absolute 2^-530: the exact test takes gaps below 1.5e-162 (about 2^-538) as touching
        return radius + scale * 0x1p-50 + 0x1p-530;
    }

    /**
     * A lower bound of the first time of contact with any box inside the given (node) box, for culling: the
     * centre's path against the node grown by the shape (the Minkowski sum with the box, or the box grown by the
     * cull radius {@code p4} on every axis), with the robust slab test ({@link SegmentAabb#intersectInverse}). For
     * a moving box the bound is exact ({@link SweepAabb#intersectMovingAabb}).
     *
     * @param shape {@link #BOX} or {@link #SPHERE}
     * @param p0 shape parameter 0
     * @param p1 shape parameter 1
     * @param p2 shape parameter 2
     * @param p3 shape parameter 3
     * @param p4 shape parameter 4
     * @param p5 shape parameter 5
     * @param invDx {@code 1 / dx} ({@link SegmentAabb#inverse})
     * @param invDy {@code 1 / dy}
     * @param invDz {@code 1 / dz}
     * @param max largest time of interest
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return a time {@code <=} the first contact with anything inside the box, or {@link Geom#NO_HIT}
     */
    public static double boundContact(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                                      double invDx, double invDy, double invDz, double max,
                                      double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (shape == BOX) {
            return SweepAabb.intersectMovingAabb(invDx, invDy, invDz, max, p0, p1, p2, p3, p4, p5,
                    minX, minY, minZ, maxX, maxY, maxZ);
        }
        return SegmentAabb.intersectInverse(p0, p1, p2, invDx, invDy, invDz, max,
                minX - p4, minY - p4, minZ - p4, maxX + p4, maxY + p4, maxZ + p4);
    }

    /**
     * The exact first time of contact of the moving shape with an object's tight box over the whole frame:
     * {@link SweepAabb#intersectMovingAabb} (the first time of {@link dev.boxwood.geom.AabbAabb#sweep}) or
     * {@link SweepAabb#intersectMovingSphere} (Ericson 5.5.7). Indexes call it with {@code maxFraction = 1}, never
     * a clipped bound, so times do not depend on the visit order.
     *
     * @param shape {@link #BOX} or {@link #SPHERE}
     * @param p0 shape parameter 0
     * @param p1 shape parameter 1
     * @param p2 shape parameter 2
     * @param p3 shape parameter 3
     * @param p4 shape parameter 4
     * @param p5 shape parameter 5
     * @param dx displacement x
     * @param dy displacement y
     * @param dz displacement z
     * @param invDx {@code 1 / dx}
     * @param invDy {@code 1 / dy}
     * @param invDz {@code 1 / dz}
     * @param minX box min x
     * @param minY box min y
     * @param minZ box min z
     * @param maxX box max x
     * @param maxY box max y
     * @param maxZ box max z
     * @return the first time of contact in {@code [0, 1]} (0 when touching at the start) or {@link Geom#NO_HIT}
     */
    public static double exactContact(int shape, double p0, double p1, double p2, double p3, double p4, double p5,
                                      double dx, double dy, double dz, double invDx, double invDy, double invDz,
                                      double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (shape == BOX) {
            return SweepAabb.intersectMovingAabb(invDx, invDy, invDz, 1.0, p0, p1, p2, p3, p4, p5,
                    minX, minY, minZ, maxX, maxY, maxZ);
        }
        return SweepAabb.intersectMovingSphere(p0, p1, p2, p3, dx, dy, dz, 1.0, minX, minY, minZ, maxX, maxY, maxZ);
    }
}
