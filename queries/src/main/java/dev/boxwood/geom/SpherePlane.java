package dev.boxwood.geom;

/**
 * Sphere against plane. Planes follow the kernel convention {@code n · x = d} with a unit normal {@code n}; the
 * signed distance of a point is {@code n · x - d}, positive on the outside. The kernels do not validate (unit
 * normal, radius {@code >= 0}, finite input). Because a plane at distance {@code d} from the origin is stored by
 * {@code d}, signed distances of points near the plane but far from the origin carry an absolute error of a few
 * ulps of the coordinates ({@code n · x} and {@code d} cancel); that is the resolution of the plane itself.
 */
public final class SpherePlane {

    private SpherePlane() {
    }

    /**
     * Sweep of a moving sphere against the plane surface over normalized time {@code u} in {@code [0, 1]} (seed
     * 004, "sphere-plane sweep", extended to both sides and to the last time): the sphere is in contact while its
     * centre is within {@code r} of the plane, {@code |n · (c + u v) - d| <= r}. Fills {@code dest} with the first
     * and last times of contact in {@code [0, 1]}: a sphere touching or crossing the plane at the start gives
     * {@code first = 0}; one that passes through gives the time it first touches and the time it leaves the other
     * side (clamped to 1); approach from the outside and from the inside work alike. A sphere moving parallel to
     * the plane is in contact for the whole frame or never. This is a 1D slab test on the signed distance, with the
     * slab bounds of {@link SegmentAabb} (no NaN, enlarged far bound).
     *
     * @param cx centre at {@code u = 0}, x
     * @param cy centre at {@code u = 0}, y
     * @param cz centre at {@code u = 0}, z
     * @param r radius, {@code >= 0}
     * @param vx displacement over the frame, x
     * @param vy displacement over the frame, y
     * @param vz displacement over the frame, z
     * @param nx plane unit normal x
     * @param ny plane unit normal y
     * @param nz plane unit normal z
     * @param d plane offset: the plane is {@code n · x = d}
     * @param dest receives the first and last times of contact, or a miss
     * @return true if the sphere touches the plane at some time in {@code [0, 1]}
     */
    public static boolean sweep(double cx, double cy, double cz, double r, double vx, double vy, double vz,
                                double nx, double ny, double nz, double d, SweepResult dest) {
        double distance = nx * cx + ny * cy + nz * cz - d;
        double inverse = SegmentAabb.inverse(nx * vx + ny * vy + nz * vz);
        // the distance moves from `distance` at rate 1/inverse; contact while it is in [-r, r]
        double near = Geom.later(0.0, ((inverse >= 0.0 ? -r : r) - distance) * inverse);
        double far = Geom.earlier(1.0, ((inverse >= 0.0 ? r : -r) - distance) * inverse);
        if (near <= far * Geom.ROBUST_FAR_SCALE) {
            double first = Math.min(near, 1.0);
            return dest.set(first, Math.max(far, first));
        }
        return dest.miss();
    }

    /**
     * Whether the closed sphere touches or crosses the plane surface: {@code |n · c - d| <= r}.
     *
     * @param cx centre x
     * @param cy centre y
     * @param cz centre z
     * @param r radius, {@code >= 0}
     * @param nx plane unit normal x
     * @param ny plane unit normal y
     * @param nz plane unit normal z
     * @param d plane offset
     * @return true if the sphere meets the plane
     */
    public static boolean test(double cx, double cy, double cz, double r, double nx, double ny, double nz, double d) {
        return Math.abs(nx * cx + ny * cy + nz * cz - d) <= r;
    }
}
