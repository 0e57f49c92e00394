package dev.boxwood.geom;

/**
 * Where a segment meets a shape and which way the shape's surface faces there: what a pick needs to place
 * something on the object under the mouse, and a projectile to leave a mark or bounce. Filled by the
 * {@code surface} methods of the segment kernels ({@link SegmentAabb#surface}, {@link SegmentSphere#surface},
 * {@link SegmentCapsule#surface}, {@link SegmentTriangle#surface}, {@link SegmentConvex#surface}) from a hit
 * fraction already found: by the kernel itself, or by a cast's collector (the closest hit's fraction and handle,
 * then the object's shape), so that a cast pays for the point and normal of the one hit it keeps, not of every
 * candidate. Caller-supplied and reusable; every call overwrites every field.
 *
 * <p>Conventions, for the segment {@code o + t d}:
 * <ul>
 *   <li>The point is {@code o + fraction * d} as computed (two roundings per coordinate). On a box it is then
 *       moved onto the box's boundary: the coordinate across the face is the face's own, the others are clamped
 *       into the box, so rounding never puts a box's hit point outside it or inside it.</li>
 *   <li>The normal is a unit vector (up to rounding), the outward normal of the surface at the point; a triangle,
 *       which is two-sided, gives the side facing the segment's start. Where the surface has no single normal (a
 *       box's edge or corner, the edge of a convex polyhedron) it is one of the faces meeting there, chosen as each
 *       method says, the same on every call.</li>
 *   <li>A segment that starts in the interior of a solid (fraction 0 and the start strictly inside) gives
 *       {@link #startInside}, the start as the point and the reversed unit translation as the normal (it faces
 *       the caster; the convention of PhysX's initial overlaps). A start on the surface is not inside: it gets the
 *       surface's normal there.</li>
 *   <li>When neither the surface nor the translation gives a direction (a zero-length segment inside a solid, a
 *       sphere of radius 0 met by a zero-length segment) the normal is {@code (0, 0, 0)}.</li>
 *   <li>A negative fraction ({@link Geom#NO_HIT}) is a miss: {@link #hit} false, the fraction {@code NO_HIT},
 *       everything else 0.</li>
 * </ul>
 * The methods trust the fraction: given one where the segment does not meet the shape, they report the segment's
 * point at that fraction and a normal by the same rules, which then describe no real contact. Inputs must be
 * finite and small enough that differences do not overflow; the methods do not validate.
 */
public final class SurfaceHit {

    /** Whether the segment hits (the fraction given was not negative). */
    public boolean hit;

    /** The hit fraction as given, or {@link Geom#NO_HIT} on a miss. */
    public double fraction = Geom.NO_HIT;

    /** Whether the segment starts in the interior of the solid (then the fraction is 0 and the point the start). */
    public boolean startInside;

    /** The hit point's x coordinate. */
    public double x;

    /** The hit point's y coordinate. */
    public double y;

    /** The hit point's z coordinate. */
    public double z;

    /** The unit surface normal's x component. */
    public double normalX;

    /** The unit surface normal's y component. */
    public double normalY;

    /** The unit surface normal's z component. */
    public double normalZ;

    /** Scratch of {@link #normal}. */
    private final double[] direction = new double[3];

    /** Creates an empty result (a miss). */
    public SurfaceHit() {
    }

    /** Makes this a miss: {@link #hit} false, the fraction {@link Geom#NO_HIT}, everything else 0. */
    public void reset() {
        hit = false;
        fraction = Geom.NO_HIT;
        startInside = false;
        x = 0.0;
        y = 0.0;
        z = 0.0;
        normalX = 0.0;
        normalY = 0.0;
        normalZ = 0.0;
    }

    /** Records a miss; returns false for the caller to return. */
    boolean miss() {
        reset();
        return false;
    }

    /** Records a hit at {@code o + t d}, not inside; the caller sets the normal. */
    void at(double ox, double oy, double oz, double dx, double dy, double dz, double t) {
        hit = true;
        fraction = t + 0.0; // a fraction of -0.0 reads as the documented 0
        startInside = false;
        // t = 0 gives the start exactly (0 * d is 0 for finite d)
        x = ox + t * dx;
        y = oy + t * dy;
        z = oz + t * dz;
    }

    /** Records a start inside the solid; returns true for the caller to return. */
    boolean inside(double ox, double oy, double oz, double dx, double dy, double dz) {
        hit = true;
        fraction = 0.0;
        startInside = true;
        x = ox;
        y = oy;
        z = oz;
        normal(-dx, -dy, -dz, 0.0, 0.0, 0.0);
        return true;
    }

    /**
     * Sets the normal to the direction of {@code n} ({@link Geom#normalize}), or of {@code fallback} when {@code n}
     * has none (zero, or not finite after an overflowing difference), or 0. Returns true for the caller to return.
     */
    boolean normal(double nx, double ny, double nz, double fallbackX, double fallbackY, double fallbackZ) {
        double[] n = direction;
        n[0] = nx;
        n[1] = ny;
        n[2] = nz;
        double largest = Math.max(Math.abs(nx), Math.max(Math.abs(ny), Math.abs(nz)));
        if (!(largest < Double.POSITIVE_INFINITY && Geom.normalize(n, 0, 3))) {
            n[0] = fallbackX;
            n[1] = fallbackY;
            n[2] = fallbackZ;
            if (!Geom.normalize(n, 0, 3)) {
                n[0] = 0.0;
                n[1] = 0.0;
                n[2] = 0.0;
            }
        }
        // + 0.0: no negative zeros (IEEE 754: -0 + 0 = +0)
        normalX = n[0] + 0.0;
        normalY = n[1] + 0.0;
        normalZ = n[2] + 0.0;
        return true;
    }

    @Override
    public String toString() {
        return hit ? "SurfaceHit[t=" + fraction + (startInside ? " inside" : "") + " at (" + x + ", " + y + ", " + z
                + ") normal (" + normalX + ", " + normalY + ", " + normalZ + ")]" : "SurfaceHit[miss]";
    }
}
