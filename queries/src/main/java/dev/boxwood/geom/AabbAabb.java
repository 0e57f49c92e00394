package dev.boxwood.geom;

/**
 * Axis-aligned box against axis-aligned box: overlap in min/max and centre/extent form, and the sweep of two moving
 * boxes. Boxes are closed (sharing a face, edge or corner counts as overlap) and may be flat or points. The kernels
 * do not validate ({@code min <= max}, extents {@code >= 0}, finite input).
 */
public final class AabbAabb {

    private AabbAabb() {
    }

    /**
     * Whether two closed boxes overlap: their intervals overlap on all three axes (separating axis test on the
     * coordinate axes; Gomez 1999). Exact: only comparisons, no arithmetic. Symmetric.
     *
     * @param aMinX box a min x
     * @param aMinY box a min y
     * @param aMinZ box a min z
     * @param aMaxX box a max x
     * @param aMaxY box a max y
     * @param aMaxZ box a max z
     * @param bMinX box b min x
     * @param bMinY box b min y
     * @param bMinZ box b min z
     * @param bMaxX box b max x
     * @param bMaxY box b max y
     * @param bMaxZ box b max z
     * @return true if they overlap (touching counts)
     */
    public static boolean test(double aMinX, double aMinY, double aMinZ, double aMaxX, double aMaxY, double aMaxZ,
                               double bMinX, double bMinY, double bMinZ, double bMaxX, double bMaxY, double bMaxZ) {
        return aMinX <= bMaxX && bMinX <= aMaxX
                && aMinY <= bMaxY && bMinY <= aMaxY
                && aMinZ <= bMaxZ && bMinZ <= aMaxZ;
    }

    /**
     * Whether two closed boxes given by centre and half extents overlap: {@code |cb - ca| <= ea + eb} on every
     * axis (Gomez 1999, Listing 3). The difference of centres is formed first, so it stays accurate far from the
     * origin; the sums round, so a contact within an ulp or so of the extents may go either way. Symmetric.
     *
     * @param aCentreX box a centre x
     * @param aCentreY box a centre y
     * @param aCentreZ box a centre z
     * @param aHalfX box a half extent x
     * @param aHalfY box a half extent y
     * @param aHalfZ box a half extent z
     * @param bCentreX box b centre x
     * @param bCentreY box b centre y
     * @param bCentreZ box b centre z
     * @param bHalfX box b half extent x
     * @param bHalfY box b half extent y
     * @param bHalfZ box b half extent z
     * @return true if they overlap (touching counts)
     */
    public static boolean testCentreExtent(double aCentreX, double aCentreY, double aCentreZ,
                                           double aHalfX, double aHalfY, double aHalfZ,
                                           double bCentreX, double bCentreY, double bCentreZ,
                                           double bHalfX, double bHalfY, double bHalfZ) {
        return Math.abs(bCentreX - aCentreX) <= aHalfX + bHalfX
                && Math.abs(bCentreY - aCentreY) <= aHalfY + bHalfY
                && Math.abs(bCentreZ - aCentreZ) <= aHalfZ + bHalfZ;
    }

    /**
     * Sweep of two moving boxes over one frame of normalized time {@code u} in {@code [0, 1]}: box a moves by
     * {@code va}, box b by {@code vb} (each from its start position at {@code u = 0} to its end at {@code u = 1}).
     * Fills {@code dest} with the first and last times of overlap (Gomez 1999, "AABB sweep"), both in
     * {@code [0, 1]}: boxes that overlap at the start give {@code first = 0} and the true last time (1 when they
     * still overlap at the end, or when they do not move relative to each other).
     *
     * <p>Solved as in Gomez 1999 in a's frame, but as a slab test: b moves by {@code v = vb - va} relative to a, and
     * they overlap on an axis while {@code aMin - bMax <= v u <= aMax - bMin}. That is the cast of the point 0 with
     * translation {@code v} through the box {@code [aMin - bMax, aMax - bMin]} (their Minkowski difference), so it
     * shares {@link SegmentAabb#intersectInverse(double, double, double, double, double, double, double, double,
     * double, double, double, double, double, SweepResult)} and its guarantees: no NaN when an axis has no relative
     * motion, and no false miss from rounding (a pair that misses by a relative few ulps may report contact).
     *
     * @param aMinX box a min x at {@code u = 0}
     * @param aMinY box a min y at {@code u = 0}
     * @param aMinZ box a min z at {@code u = 0}
     * @param aMaxX box a max x at {@code u = 0}
     * @param aMaxY box a max y at {@code u = 0}
     * @param aMaxZ box a max z at {@code u = 0}
     * @param vaX displacement of a over the frame, x
     * @param vaY displacement of a over the frame, y
     * @param vaZ displacement of a over the frame, z
     * @param bMinX box b min x at {@code u = 0}
     * @param bMinY box b min y at {@code u = 0}
     * @param bMinZ box b min z at {@code u = 0}
     * @param bMaxX box b max x at {@code u = 0}
     * @param bMaxY box b max y at {@code u = 0}
     * @param bMaxZ box b max z at {@code u = 0}
     * @param vbX displacement of b over the frame, x
     * @param vbY displacement of b over the frame, y
     * @param vbZ displacement of b over the frame, z
     * @param dest receives the first and last times of overlap, or a miss
     * @return true if the boxes overlap at some time in {@code [0, 1]} (touching counts)
     */
    public static boolean sweep(double aMinX, double aMinY, double aMinZ, double aMaxX, double aMaxY, double aMaxZ,
                                double vaX, double vaY, double vaZ,
                                double bMinX, double bMinY, double bMinZ, double bMaxX, double bMaxY, double bMaxZ,
                                double vbX, double vbY, double vbZ, SweepResult dest) {
        return SegmentAabb.intersectInverse(0.0, 0.0, 0.0,
                SegmentAabb.inverse(vbX - vaX), SegmentAabb.inverse(vbY - vaY), SegmentAabb.inverse(vbZ - vaZ), 1.0,
                aMinX - bMaxX, aMinY - bMaxY, aMinZ - bMaxZ, aMaxX - bMinX, aMaxY - bMinY, aMaxZ - bMinZ, dest);
    }
}
