package dev.boxwood.geom;

/**
 * Segment against a triangle, two-sided, by the watertight test of Woop, Benthin and Wald ("Watertight
 * Ray/Triangle Intersection", JCGT 2(1), 2013): the exact-test hook's kernel for meshes (editor picking, line of
 * sight against level geometry). The vertices are taken relative to the segment's origin and sheared into a frame
 * where the segment runs along the z axis; the three edge functions are then 2D cross products of the sheared
 * vertices, and a point is inside when none of them has a sign opposite to another's. Two triangles that share an
 * edge compute that edge's function from the same two sheared vertices, with the operands swapped, so they see it
 * with exactly opposite signs: a segment through a shared edge or vertex of a mesh hits at least one of the
 * triangles, never neither, even through a crack-free mesh's corners (the plain Möller–Trumbore test does not
 * promise this). An edge function that rounds to 0 counts as inside for both neighbours.
 *
 * <p>Conventions: a triangle has no inside, so a segment hits it where it crosses or touches its surface, from
 * either side; a segment that starts on the triangle hits at fraction 0. A segment lying in the triangle's plane
 * does not hit it (it meets the surface in no transversal point; in a closed mesh it meets the neighbouring
 * triangles), and a triangle of zero area is never hit; "in the plane" is up to the rounding of the sheared
 * vertices, a few ulps of their distances from the segment's origin (so a sliver or a triangle within a few
 * hundred such ulps in size may be missed too). Fractions within a few ulps of 0 or {@code maxFraction}
 * (a start or end within rounding of the plane) may go either way. The offsets and the translation are each scaled
 * to unit size by a power of two, so the answer does not depend on the scale of either. The kernel does not
 * validate.
 */
public final class SegmentTriangle {

    /**
     * Relative bound on the rounding of the plain orientation determinant against its permanent: Shewchuk's
     * {@code o3derrboundA = (7 + 56 eps) eps} with {@code eps = 2^-53}, rounded up.
     */
    private static final double ORIENT_BOUND = 8.0 * Geom.UNIT_ROUNDOFF;
    /**
     * Relative bound on the rounding of a 2D edge function of a point from its rounded differences to the vertices:
     * each of the four factors (2u), the two products and the difference, with a margin.
     */
    private static final double EDGE_BOUND = 8.0 * Geom.UNIT_ROUNDOFF;
    /**
     * Bound on the rounding of the edge functions' sum from the sheared coordinates: a sheared coordinate is off by
     * at most {@code 2u |z| + u |x|} (the shear rounded, one product, one difference; shears at most 1 in magnitude),
     * which the three edge functions carry as at most {@code 2u S Z + u S^2} for the sum {@code S} of the sheared
     * coordinates' magnitudes and {@code Z} of the offsets along the segment; their own products and differences
     * add at most {@code u S^2}. The test takes twice that.
     */
    private static final double SHEAR_BOUND = 4.0 * Geom.UNIT_ROUNDOFF;

    private SegmentTriangle() {
    }

    /**
     * Fraction at which the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}, crosses or touches the
     * closed triangle {@code (a, b, c)}, either side, or {@link Geom#NO_HIT}. A zero-length segment (or
     * {@code maxFraction = 0}) hits at 0 when its point lies on the triangle: on its plane up to the rounding of the
     * orientation determinant (a point within that bound of the plane counts as on it), and within its edges up to
     * their rounding (so a point on an edge two triangles share is on both).
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param maxFraction largest fraction, finite and {@code >= 0}
     * @param ax vertex a, x
     * @param ay vertex a, y
     * @param az vertex a, z
     * @param bx vertex b, x
     * @param by vertex b, y
     * @param bz vertex b, z
     * @param cx vertex c, x
     * @param cy vertex c, y
     * @param cz vertex c, z
     * @return the fraction in {@code [0, maxFraction]}, or {@link Geom#NO_HIT}
     */
    public static double intersect(double ox, double oy, double oz, double dx, double dy, double dz,
                                   double maxFraction, double ax, double ay, double az, double bx, double by,
                                   double bz, double cx, double cy, double cz) {
        // vertices relative to the origin, differences first (far from zero the coordinates cancel here, exactly
        // when they are close)
        double pax = ax - ox;
        double pay = ay - oy;
        double paz = az - oz;
        double pbx = bx - ox;
        double pby = by - oy;
        double pbz = bz - oz;
        double pcx = cx - ox;
        double pcy = cy - oy;
        double pcz = cz - oz;
        if (maxFraction == 0.0 || (dx == 0.0 && dy == 0.0 && dz == 0.0)) {
            return pointOnTriangle(pax, pay, paz, pbx, pby, pbz, pcx, pcy, pcz) ? 0.0 : Geom.NO_HIT;
        }
        return relative(pax, pay, paz, pbx, pby, pbz, pcx, pcy, pcz, dx, dy, dz, maxFraction);
    }

    /**
     * Whether the origin lies on the closed triangle of the vertices {@code a, b, c} relative to it: on its plane
     * up to the rounding of the orientation determinant (Shewchuk's bound on the plain evaluation, Shewchuk 1997,
     * so a point on the plane is never refused; one within that bound of it counts as on it), and inside the
     * triangle's projection along the normal's longest axis, edges included.
     */
    private static boolean pointOnTriangle(double ax, double ay, double az, double bx, double by, double bz,
                                           double cx, double cy, double cz) {
        int ev = Geom.scaleExponent(ax, ay, az, bx, by, bz, cx, cy, cz);
        double s = Geom.powerOfTwo(-ev);
        ax *= s;
        ay *= s;
        az *= s;
        bx *= s;
        by *= s;
        bz *= s;
        cx *= s;
        cy *= s;
        cz *= s;
        double bcx = by * cz - bz * cy;
        double bcy = bz * cx - bx * cz;
        double bcz = bx * cy - by * cx;
        double det = ax * bcx + ay * bcy + az * bcz;
        double permanent = Math.abs(ax) * (Math.abs(by * cz) + Math.abs(bz * cy))
                + Math.abs(ay) * (Math.abs(bz * cx) + Math.abs(bx * cz))
                + Math.abs(az) * (Math.abs(bx * cy) + Math.abs(by * cx));
        if (Math.abs(det) > ORIENT_BOUND * permanent) {
            return false; // off the plane
        }
        double ux = bx - ax;
        double uy = by - ay;
        double uz = bz - az;
        double vx = cx - ax;
        double vy = cy - ay;
        double vz = cz - az;
        double nx = Math.abs(uy * vz - uz * vy);
        double ny = Math.abs(uz * vx - ux * vz);
        double nz = Math.abs(ux * vy - uy * vx);
        if (nx == 0.0 && ny == 0.0 && nz == 0.0) {
            return false; // no area
        }
        // the 2D edge functions of the origin in the plane that drops the normal's longest axis
        double pax;
        double pay;
        double pbx;
        double pby;
        double pcx;
        double pcy;
        if (nx >= ny && nx >= nz) {
            pax = ay;
            pay = az;
            pbx = by;
            pby = bz;
            pcx = cy;
            pcy = cz;
        } else if (ny >= nz) {
            pax = az;
            pay = ax;
            pbx = bz;
            pby = bx;
            pcx = cz;
            pcy = cx;
        } else {
            pax = ax;
            pay = ay;
            pbx = bx;
            pby = by;
            pcx = cx;
            pcy = cy;
        }
        // an edge function within its rounding (the vertices' differences from the point, two products and a
        // difference) is 0: a point on an edge shared by two triangles is on both, whichever planes they project
        // it to (each rounds the edge's function differently, and both could put it outside)
        double u = edgeSign(pcx * pby, pcy * pbx);
        double v = edgeSign(pax * pcy, pay * pcx);
        double w = edgeSign(pbx * pay, pby * pax);
        return !((u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0));
    }

    /** {@code l - r}, or 0 where that is within its rounding and the rounding of the differences in its factors. */
    private static double edgeSign(double l, double r) {
        double value = l - r;
        return Math.abs(value) <= EDGE_BOUND * (Math.abs(l) + Math.abs(r)) ? 0.0 : value;
    }

    /**
     * The point and normal of the hit at {@code fraction} of the segment {@code o + t d} on the triangle
     * {@code (a, b, c)} (conventions of {@link SurfaceHit}), typically the fraction of {@link #intersect}: the unit
     * normal of the triangle's plane on the side the segment comes from ({@code normal · d < 0}, its sign as
     * computed: a segment grazing the plane within a few ulps, at an angle below about {@code 2^-50}, may get either
     * side); for a zero-length segment the side of the counter-clockwise winding, {@code (b - a) × (c - a)}. A
     * triangle has no inside, so
     * {@link SurfaceHit#startInside} is always false; a triangle of zero area (no plane) takes the reversed
     * translation as its normal. The edges are scaled by a power of two before the cross product, so the normal of a
     * tiny or huge triangle neither underflows nor overflows.
     *
     * @param ox origin x
     * @param oy origin y
     * @param oz origin z
     * @param dx translation x
     * @param dy translation y
     * @param dz translation z
     * @param fraction the hit fraction, {@code >= 0}; negative for a miss
     * @param ax vertex a, x
     * @param ay vertex a, y
     * @param az vertex a, z
     * @param bx vertex b, x
     * @param by vertex b, y
     * @param bz vertex b, z
     * @param cx vertex c, x
     * @param cy vertex c, y
     * @param cz vertex c, z
     * @param dest receives the hit
     * @return whether it is a hit ({@code fraction >= 0})
     */
    public static boolean surface(double ox, double oy, double oz, double dx, double dy, double dz, double fraction,
                                  double ax, double ay, double az, double bx, double by, double bz, double cx,
                                  double cy, double cz, SurfaceHit dest) {
        if (!(fraction >= 0.0)) {
            return dest.miss();
        }
        double ux = bx - ax;
        double uy = by - ay;
        double uz = bz - az;
        double vx = cx - ax;
        double vy = cy - ay;
        double vz = cz - az;
        double scale = Geom.powerOfTwo(-Geom.scaleExponent(Double.longBitsToDouble(
                Math.max(Geom.magnitudeBits(ux, uy, uz, 0.0), Geom.magnitudeBits(vx, vy, vz, 0.0)))));
        ux *= scale;
        uy *= scale;
        uz *= scale;
        vx *= scale;
        vy *= scale;
        vz *= scale;
        double nx = uy * vz - uz * vy;
        double ny = uz * vx - ux * vz;
        double nz = ux * vy - uy * vx;
        // the side facing the start: against the translation, brought to unit size (only the sign is used)
        double sd = Geom.powerOfTwo(-Geom.scaleExponent(dx, dy, dz, 0.0));
        if (nx * (dx * sd) + ny * (dy * sd) + nz * (dz * sd) > 0.0) {
            nx = -nx;
            ny = -ny;
            nz = -nz;
        }
        dest.at(ox, oy, oz, dx, dy, dz, fraction);
        return dest.normal(nx, ny, nz, -dx, -dy, -dz);
    }

    /** The test with the vertices relative to the origin; {@code d} not zero. */
    private static double relative(double pax, double pay, double paz, double pbx, double pby, double pbz,
                                   double pcx, double pcy, double pcz, double dx, double dy, double dz,
                                   double maxFraction) {
        int ed = Geom.kernelExponent(dx, dy, dz, 0.0);
        double sd = Geom.powerOfTwo(-ed);
        dx *= sd;
        dy *= sd;
        dz *= sd;
        int frame = frame(dx, dy, dz);
        double kz = along(frame, dx, dy, dz);
        return crossing(pax, pay, paz, pbx, pby, pbz, pcx, pcy, pcz, frame, across(frame, dx, dy, dz) / kz,
                up(frame, dx, dy, dz) / kz, 1.0 / kz, ed, maxFraction);
    }

    /**
     * The sheared frame of a translation: the axis along which it is longest becomes z (code 0, 1, 2 for x, y, z),
     * x and y following cyclically, swapped (code + 4) when that component is negative so that the winding (the sign
     * of the determinant) is kept.
     */
    private static int frame(double dx, double dy, double dz) {
        double adx = Math.abs(dx);
        double ady = Math.abs(dy);
        double adz = Math.abs(dz);
        int axis = adx >= ady && adx >= adz ? 0 : ady >= adz ? 1 : 2;
        return along(axis, dx, dy, dz) < 0.0 ? axis + 4 : axis;
    }

    /** The component of a vector along the frame's z axis. */
    private static double along(int frame, double x, double y, double z) {
        int axis = frame & 3;
        return axis == 0 ? x : axis == 1 ? y : z;
    }

    /** The component along the frame's x axis (the cyclic successor of z, or its successor's successor if swapped). */
    private static double across(int frame, double x, double y, double z) {
        int axis = (frame & 3) + ((frame & 4) == 0 ? 1 : 2);
        axis = axis >= 3 ? axis - 3 : axis;
        return axis == 0 ? x : axis == 1 ? y : z;
    }

    /** The component along the frame's y axis. */
    private static double up(int frame, double x, double y, double z) {
        int axis = (frame & 3) + ((frame & 4) == 0 ? 2 : 1);
        axis = axis >= 3 ? axis - 3 : axis;
        return axis == 0 ? x : axis == 1 ? y : z;
    }

    /**
     * The crossing of a translation, prepared as its frame and shear (of the translation scaled by {@code 2^-ed}),
     * with the triangle of the vertices relative to the origin.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static double crossing(double pax, double pay, double paz, double pbx, double pby, double pbz,
                                   double pcx, double pcy, double pcz, int frame, double shearX, double shearY,
                                   double shearZ, int ed, double maxFraction) {
        // unit scale for the offsets, by a power of two: products of three offsets overflow from about 1e102 and
        // underflow below 1e-102 otherwise; t = 2^(ev - ed) t' (as in SegmentSphere)
        double sum = Math.abs(pax) + Math.abs(pay) + Math.abs(paz) + Math.abs(pbx) + Math.abs(pby) + Math.abs(pbz)
                + Math.abs(pcx) + Math.abs(pcy) + Math.abs(pcz);
        int ev = sum < Double.POSITIVE_INFINITY ? Geom.sumExponent(sum)
                : Geom.scaleExponent(pax, pay, paz, pbx, pby, pbz, pcx, pcy, pcz);
        double sv = Geom.powerOfTwo(-ev);
        // the vertices in the frame (one switch for all nine components: the frame is the same for every triangle
        // of a cast, so the branch predicts)
        double ax;
        double ay;
        double az;
        double bx;
        double by;
        double bz;
        double cx;
        double cy;
        double cz;
        switch (frame) {
            case 0:
                ax = pay;
                ay = paz;
                az = pax;
                bx = pby;
                by = pbz;
                bz = pbx;
                cx = pcy;
                cy = pcz;
                cz = pcx;
                break;
            case 4:
                ax = paz;
                ay = pay;
                az = pax;
                bx = pbz;
                by = pby;
                bz = pbx;
                cx = pcz;
                cy = pcy;
                cz = pcx;
                break;
            case 1:
                ax = paz;
                ay = pax;
                az = pay;
                bx = pbz;
                by = pbx;
                bz = pby;
                cx = pcz;
                cy = pcx;
                cz = pcy;
                break;
            case 5:
                ax = pax;
                ay = paz;
                az = pay;
                bx = pbx;
                by = pbz;
                bz = pby;
                cx = pcx;
                cy = pcz;
                cz = pcy;
                break;
            case 2:
                ax = pax;
                ay = pay;
                az = paz;
                bx = pbx;
                by = pby;
                bz = pbz;
                cx = pcx;
                cy = pcy;
                cz = pcz;
                break;
            default:
                ax = pay;
                ay = pax;
                az = paz;
                bx = pby;
                by = pbx;
                bz = pbz;
                cx = pcy;
                cy = pcx;
                cz = pcz;
                break;
        }
        az *= sv;
        bz *= sv;
        cz *= sv;
        double sax = ax * sv - shearX * az;
        double say = ay * sv - shearY * az;
        double sbx = bx * sv - shearX * bz;
        double sby = by * sv - shearY * bz;
        double scx = cx * sv - shearX * cz;
        double scy = cy * sv - shearY * cz;

        // the edge functions: twice the signed areas of the sheared triangles (origin, b, c), (origin, c, a) and
        // (origin, a, b), each from the same two vertices a neighbour sharing the edge uses
        double u = scx * sby - scy * sbx;
        double v = sax * scy - say * scx;
        double w = sbx * say - sby * sax;
        if ((u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0)) {
            return Geom.NO_HIT;
        }
        double det = u + v + w;
        // with u, v, w of one sign, |det| is their sum: twice the area of the sheared triangle, 0 for a segment in
        // its plane or a triangle of no area. A det within the rounding of the sheared coordinates is no certain
        // transversal crossing and is taken as the plane (a coplanar segment's rounding was a hit for one oblique
        // triangle in seven)
        double extent = Math.abs(sax) + Math.abs(say) + Math.abs(sbx) + Math.abs(sby) + Math.abs(scx)
                + Math.abs(scy);
        if (!(Math.abs(det) > SHEAR_BOUND * extent * (Math.abs(az) + Math.abs(bz) + Math.abs(cz) + extent))) {
            return Geom.NO_HIT; // in the triangle's plane, or a triangle of zero area
        }
        double t = (u * (shearZ * az) + v * (shearZ * bz) + w * (shearZ * cz)) / det;
        if (!(t >= 0.0)) {
            return Geom.NO_HIT;
        }
        t = Geom.scalb(t, ev - ed) + 0.0; // + 0.0 turns a -0.0 into 0
        return t <= maxFraction ? t : Geom.NO_HIT;
    }

    /**
     * A segment prepared for many triangles (a mesh under a pick ray): the frame and shear that
     * {@link SegmentTriangle#intersect} computes on every call are computed once by {@link #set}, so each
     * {@link #intersect} does the per-triangle part only, with the same answers. Reusable; not thread-safe (one per
     * thread, like the query scratch).
     */
    public static final class Cast {
        private double ox;
        private double oy;
        private double oz;
        private double dx;
        private double dy;
        private double dz;
        private double maxFraction;
        private boolean point;
        private int frame;
        private double shearX;
        private double shearY;
        private double shearZ;
        private int ed;

        /**
         * Prepares the segment {@code o + t d}, {@code t} in {@code [0, maxFraction]}.
         *
         * @param ox origin x
         * @param oy origin y
         * @param oz origin z
         * @param dx translation x
         * @param dy translation y
         * @param dz translation z
         * @param maxFraction largest fraction, finite and {@code >= 0}
         * @return this
         */
        public Cast set(double ox, double oy, double oz, double dx, double dy, double dz, double maxFraction) {
            this.ox = ox;
            this.oy = oy;
            this.oz = oz;
            this.dx = dx;
            this.dy = dy;
            this.dz = dz;
            this.maxFraction = maxFraction;
            point = maxFraction == 0.0 || (dx == 0.0 && dy == 0.0 && dz == 0.0);
            if (!point) {
                ed = Geom.kernelExponent(dx, dy, dz, 0.0);
                double sd = Geom.powerOfTwo(-ed);
                double x = dx * sd;
                double y = dy * sd;
                double z = dz * sd;
                frame = frame(x, y, z);
                double kz = along(frame, x, y, z);
                shearX = across(frame, x, y, z) / kz;
                shearY = up(frame, x, y, z) / kz;
                shearZ = 1.0 / kz;
            }
            return this;
        }

        /**
         * {@link SegmentTriangle#intersect} of the prepared segment and the triangle {@code (a, b, c)}.
         *
         * @param ax vertex a, x
         * @param ay vertex a, y
         * @param az vertex a, z
         * @param bx vertex b, x
         * @param by vertex b, y
         * @param bz vertex b, z
         * @param cx vertex c, x
         * @param cy vertex c, y
         * @param cz vertex c, z
         * @return the fraction in {@code [0, maxFraction]}, or {@link Geom#NO_HIT}
         */
        public double intersect(double ax, double ay, double az, double bx, double by, double bz, double cx,
                                double cy, double cz) {
            if (point) {
                return SegmentTriangle.intersect(ox, oy, oz, dx, dy, dz, maxFraction, ax, ay, az, bx, by, bz, cx, cy,
                        cz);
            }
            return crossing(ax - ox, ay - oy, az - oz, bx - ox, by - oy, bz - oz, cx - ox, cy - oy, cz - oz, frame,
                    shearX, shearY, shearZ, ed, maxFraction);
        }
    }
}
