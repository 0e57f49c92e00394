package dev.boxwood.query;

import dev.boxwood.geom.Geom;

/**
 * An immutable, validated perspective camera for picking and marquee selection: a position, an orthonormal view
 * basis (forward, up, right), a vertical field of view, an aspect ratio and near and far distances.
 *
 * <p>Screen points are given in normalized viewport coordinates {@code (u, v)}: {@code u} from 0 at the left edge
 * to 1 at the right edge, {@code v} from 0 at the bottom edge to 1 at the top edge ({@code (0.5, 0.5)} is the
 * centre of the view). From pixels {@code (px, py)} with {@code py} counted downwards in a {@code w x h} viewport:
 * {@code u = px / w}, {@code v = 1 - py / h}. Values outside {@code [0, 1]} address points beyond the viewport
 * and are allowed.
 *
 * <p>The view volume is the set of points whose depth along {@code forward} is in {@code [near, far]} and whose
 * projection falls inside the viewport; {@link #frustum(double, double, double, double)} bounds the part of it
 * behind a screen rectangle (the marquee), as six planes (left, right, bottom, top, near, far) with outward
 * normals.
 */
public final class PerspectiveCamera {

    /**
     * Largest side offset {@link #frustum} takes (the tangent of a side's angle off the view axis): far beyond any
     * screen, and small enough that the side planes' normals stay finite.
     */
    static final double MAX_SCREEN_OFFSET = 1e100;

    /** The planes of {@link #frustum}, in order. */
    private static final String[] PLANE_NAMES = {"left", "right", "bottom", "top", "near", "far"};

    private final double positionX;
    private final double positionY;
    private final double positionZ;
    private final double forwardX;
    private final double forwardY;
    private final double forwardZ;
    private final double upX;
    private final double upY;
    private final double upZ;
    private final double rightX;
    private final double rightY;
    private final double rightZ;
    private final double tanHalfY;
    private final double tanHalfX;
    private final double near;
    private final double far;

    /**
     * A camera at {@code position} looking at {@code target}, with {@code up} giving the roll (it need not be
     * perpendicular to the view direction, only not parallel to it).
     *
     * @param positionX eye x
     * @param positionY eye y
     * @param positionZ eye z
     * @param targetX looked-at point x
     * @param targetY looked-at point y
     * @param targetZ looked-at point z
     * @param upX up hint x
     * @param upY up hint y
     * @param upZ up hint z
     * @param verticalFovRadians vertical field of view, in {@code (0, pi)}
     * @param aspect width over height of the viewport, {@code > 0} ({@code aspect * tan(fov / 2)} at most 1e100)
     * @param near distance of the near plane, {@code > 0}
     * @param far distance of the far plane, {@code > near}
     * @return the camera
     * @throws IllegalArgumentException naming the argument: non-finite values, target equal to the position, up
     *     parallel to the view direction, a field of view, aspect or near/far out of range
     */
    public static PerspectiveCamera lookAt(double positionX, double positionY, double positionZ,
                                           double targetX, double targetY, double targetZ,
                                           double upX, double upY, double upZ,
                                           double verticalFovRadians, double aspect, double near, double far) {
        Arguments.requireFinite("positionX", positionX);
        Arguments.requireFinite("positionY", positionY);
        Arguments.requireFinite("positionZ", positionZ);
        Arguments.requireFinite("targetX", targetX);
        Arguments.requireFinite("targetY", targetY);
        Arguments.requireFinite("targetZ", targetZ);
        double dx = targetX - positionX;
        double dy = targetY - positionY;
        double dz = targetZ - positionZ;
        if (Double.isInfinite(dx) || Double.isInfinite(dy) || Double.isInfinite(dz)) {
            // only the direction matters: half the difference fits, and what halving loses (a subnormal's last
            // bit) is nothing against a component this large
            dx = 0.5 * targetX - 0.5 * positionX;
            dy = 0.5 * targetY - 0.5 * positionY;
            dz = 0.5 * targetZ - 0.5 * positionZ;
        }
        return new PerspectiveCamera(positionX, positionY, positionZ, dx, dy, dz, upX, upY, upZ,
                verticalFovRadians, aspect, near, far);
    }

    /**
     * A camera at {@code position} looking along {@code forward}, with {@code up} giving the roll.
     *
     * @param positionX eye x
     * @param positionY eye y
     * @param positionZ eye z
     * @param forwardX view direction x (any non-zero length)
     * @param forwardY view direction y
     * @param forwardZ view direction z
     * @param upX up hint x (not parallel to forward)
     * @param upY up hint y
     * @param upZ up hint z
     * @param verticalFovRadians vertical field of view, in {@code (0, pi)}
     * @param aspect width over height of the viewport, {@code > 0} ({@code aspect * tan(fov / 2)} at most 1e100)
     * @param near distance of the near plane, {@code > 0}
     * @param far distance of the far plane, {@code > near}
     * @throws IllegalArgumentException naming the argument (see {@link #lookAt})
     */
    public PerspectiveCamera(double positionX, double positionY, double positionZ,
                             double forwardX, double forwardY, double forwardZ,
                             double upX, double upY, double upZ,
                             double verticalFovRadians, double aspect, double near, double far) {
        Arguments.requireFinite("positionX", positionX);
        Arguments.requireFinite("positionY", positionY);
        Arguments.requireFinite("positionZ", positionZ);
        Arguments.requireFinite("forwardX", forwardX);
        Arguments.requireFinite("forwardY", forwardY);
        Arguments.requireFinite("forwardZ", forwardZ);
        Arguments.requireFinite("upX", upX);
        Arguments.requireFinite("upY", upY);
        Arguments.requireFinite("upZ", upZ);
        Arguments.requireFinite("verticalFovRadians", verticalFovRadians);
        Arguments.requireFinite("aspect", aspect);
        Arguments.requireFinite("near", near);
        Arguments.requireFinite("far", far);
        if (!(verticalFovRadians > 0 && verticalFovRadians < Math.PI)) {
            throw new IllegalArgumentException("verticalFovRadians must be in (0, pi): " + verticalFovRadians);
        }
        if (!(aspect > 0)) {
            throw new IllegalArgumentException("aspect must be > 0: " + aspect);
        }
        if (!(near > 0)) {
            throw new IllegalArgumentException("near must be > 0: " + near);
        }
        if (!(far > near)) {
            throw new IllegalArgumentException("far must be > near: far " + far + ", near " + near);
        }
        double[] forward = {forwardX, forwardY, forwardZ};
        if (!Geom.normalize(forward, 0, 3)) {
            throw new IllegalArgumentException("forward (or target - position) must be a non-zero vector");
        }
        this.positionX = positionX;
        this.positionY = positionY;
        this.positionZ = positionZ;
        this.forwardX = forward[0];
        this.forwardY = forward[1];
        this.forwardZ = forward[2];
        // right = forward x up, up' = right x forward (right-handed, Gram-Schmidt on the hint); both unit, so the
        // length of right is the sine of their angle
        double[] up = {upX, upY, upZ};
        boolean upGiven = Geom.normalize(up, 0, 3);
        double rx = this.forwardY * up[2] - this.forwardZ * up[1];
        double ry = this.forwardZ * up[0] - this.forwardX * up[2];
        double rz = this.forwardX * up[1] - this.forwardY * up[0];
        double r = Math.sqrt(rx * rx + ry * ry + rz * rz);
        if (!upGiven || !(r > 1e-9)) {
            throw new IllegalArgumentException("up must be non-zero and not parallel to the view direction");
        }
        this.rightX = rx / r;
        this.rightY = ry / r;
        this.rightZ = rz / r;
        this.upX = this.rightY * this.forwardZ - this.rightZ * this.forwardY;
        this.upY = this.rightZ * this.forwardX - this.rightX * this.forwardZ;
        this.upZ = this.rightX * this.forwardY - this.rightY * this.forwardX;
        this.tanHalfY = Math.tan(0.5 * verticalFovRadians);
        this.tanHalfX = tanHalfY * aspect;
        if (!(tanHalfX > 0 && tanHalfX <= MAX_SCREEN_OFFSET)) {
            throw new IllegalArgumentException("aspect " + aspect + " with verticalFovRadians " + verticalFovRadians
                    + " gives a horizontal half-angle tangent of " + tanHalfX + "; it must be > 0 and at most "
                    + MAX_SCREEN_OFFSET);
        }
        this.near = near;
        this.far = far;
    }

    /**
     * The pick ray through a screen point, as a segment from the near plane to the far plane: {@code dest}
     * receives {@code originX, originY, originZ, translationX, translationY, translationZ}; fraction 0 is on the
     * near plane, fraction 1 on the far plane (cast it with {@code maxFraction = 1}).
     *
     * @param u horizontal viewport coordinate (0 left, 1 right)
     * @param v vertical viewport coordinate (0 bottom, 1 top)
     * @param dest an array of length {@code >= 6}
     * @throws IllegalArgumentException for non-finite coordinates or a short or null {@code dest}
     */
    public void pickRay(double u, double v, double[] dest) {
        Arguments.requireFinite("u", u);
        Arguments.requireFinite("v", v);
        Arguments.requireNonNull("dest", dest);
        if (dest.length < 6) {
            throw new IllegalArgumentException("dest must hold 6 doubles, has " + dest.length);
        }
        double sx = (2 * u - 1) * tanHalfX;
        double sy = (2 * v - 1) * tanHalfY;
        // direction with unit depth along forward
        double dx = forwardX + sx * rightX + sy * upX;
        double dy = forwardY + sx * rightY + sy * upY;
        double dz = forwardZ + sx * rightZ + sy * upZ;
        dest[0] = positionX + near * dx;
        dest[1] = positionY + near * dy;
        dest[2] = positionZ + near * dz;
        dest[3] = (far - near) * dx;
        dest[4] = (far - near) * dy;
        dest[5] = (far - near) * dz;
    }

    /**
     * Projects a world point to the screen, the inverse of {@link #pickRay}: {@code dest} receives the viewport
     * coordinates {@code u, v} (same convention as {@code pickRay}, so {@code pickRay(u, v)} passes through the
     * point) and the point's depth along the view direction ({@code > 0} in front of the eye).
     *
     * @param x world x
     * @param y world y
     * @param z world z
     * @param dest an array of length {@code >= 3}
     * @return whether the point is in front of the eye (depth {@code > 0}); if not, it has no screen position and
     *     {@code u} and {@code v} are set to 0.5 (the depth is still written)
     * @throws IllegalArgumentException for non-finite coordinates or a short or null {@code dest}
     */
    public boolean project(double x, double y, double z, double[] dest) {
        Arguments.requireFinite("x", x);
        Arguments.requireFinite("y", y);
        Arguments.requireFinite("z", z);
        Arguments.requireNonNull("dest", dest);
        if (dest.length < 3) {
            throw new IllegalArgumentException("dest must hold 3 doubles, has " + dest.length);
        }
        double dx = x - positionX;
        double dy = y - positionY;
        double dz = z - positionZ;
        double depth = dx * forwardX + dy * forwardY + dz * forwardZ;
        dest[2] = depth;
        if (!(depth > 0)) {
            dest[0] = 0.5;
            dest[1] = 0.5;
            return false;
        }
        // the screen offsets pickRay scales by tan(fov / 2), divided by depth (pinhole model)
        dest[0] = 0.5 + 0.5 * (dx * rightX + dy * rightY + dz * rightZ) / (depth * tanHalfX);
        dest[1] = 0.5 + 0.5 * (dx * upX + dy * upY + dz * upZ) / (depth * tanHalfY);
        return true;
    }

    /**
     * The view volume behind the screen rectangle spanned by two corners (in either order): six planes, left,
     * right, bottom, top (through the eye), near and far. A rectangle of zero width or height gives a flat region:
     * a click without a drag selects, in the crossing modes, every object the pick ray through that point meets
     * along its whole length (in {@code WINDOW} mode only flat objects), so an editor treats such a click as a pick
     * ({@link #pickRay}) instead.
     *
     * @param u0 one corner's horizontal coordinate
     * @param v0 one corner's vertical coordinate
     * @param u1 the other corner's horizontal coordinate
     * @param v1 the other corner's vertical coordinate
     * @return the prepared region; bounded ({@link ConvexRegion#isBounded()}) for rectangles on the screen or
     *     reaching a long way past it, but not for a side so far out (about {@code 1e11} screen widths at a 60
     *     degree field of view) that its plane lies along the view direction to within the region's tolerance
     * @throws IllegalArgumentException for non-finite coordinates, or one so far off screen that its side plane
     *     cannot be represented (naming the coordinate)
     */
    public ConvexRegion frustum(double u0, double v0, double u1, double v1) {
        double x0 = screenOffset("u0", u0, "u1", u1, true, tanHalfX);
        double x1 = screenOffset("u0", u0, "u1", u1, false, tanHalfX);
        double y0 = screenOffset("v0", v0, "v1", v1, true, tanHalfY);
        double y1 = screenOffset("v0", v0, "v1", v1, false, tanHalfY);
        double[] planes = new double[24];
        // a side plane through the eye containing the view directions forward + s * axis, for all values of the
        // other screen coordinate: its normal is (s * forward - axis) for the low side, negated for the high side
        sidePlane(planes, 0, x0, rightX, rightY, rightZ, -1);
        sidePlane(planes, 4, x1, rightX, rightY, rightZ, 1);
        sidePlane(planes, 8, y0, upX, upY, upZ, -1);
        sidePlane(planes, 12, y1, upX, upY, upZ, 1);
        double depth = forwardX * positionX + forwardY * positionY + forwardZ * positionZ;
        setPlane(planes, 16, -forwardX, -forwardY, -forwardZ, -(depth + near));
        setPlane(planes, 20, forwardX, forwardY, forwardZ, depth + far);
        for (int i = 0; i < planes.length; i++) {
            if (!Double.isFinite(planes[i])) {
                // normals are finite (offsets are bounded), so a plane's distance overflowed: a position near the
                // double range, times a large side offset, or plus a far distance near it
                throw new IllegalArgumentException("the " + PLANE_NAMES[i / 4] + " plane's distance overflows for "
                        + "the rectangle (" + u0 + ", " + v0 + ") .. (" + u1 + ", " + v1 + ") of a camera at ("
                        + positionX + ", " + positionY + ", " + positionZ + ") with far " + far);
            }
        }
        return new ConvexRegion(planes, 6);
    }

    /**
     * The side offset ({@code tan} of the angle off the view axis) of the lower or upper of two screen coordinates,
     * checked finite so that the plane made from it is.
     */
    private static double screenOffset(String name0, double c0, String name1, double c1, boolean lower,
                                       double tanHalf) {
        Arguments.requireFinite(name0, c0);
        Arguments.requireFinite(name1, c1);
        boolean first = lower == (c0 <= c1);
        double c = first ? c0 : c1;
        double offset = (2 * c - 1) * tanHalf;
        if (!(Math.abs(offset) <= MAX_SCREEN_OFFSET)) {
            throw new IllegalArgumentException((first ? name0 : name1) + " = " + c + " is too far off screen: "
                    + "its side plane is " + offset + " view-axis units out per unit of depth, at most "
                    + MAX_SCREEN_OFFSET);
        }
        return offset;
    }

    /** @return the whole view volume, {@link #frustum(double, double, double, double) frustum(0, 0, 1, 1)} */
    public ConvexRegion frustum() {
        return frustum(0, 0, 1, 1);
    }

    /**
     * Plane through the eye bounding screen coordinate {@code s} along {@code axis}: points with
     * {@code (p - eye) · axis <= s (p - eye) · forward} are inside for the high side ({@code sign = 1}), the
     * reverse for the low side ({@code sign = -1}).
     */
    private void sidePlane(double[] planes, int at, double s, double ax, double ay, double az, double sign) {
        double nx = sign * (ax - s * forwardX);
        double ny = sign * (ay - s * forwardY);
        double nz = sign * (az - s * forwardZ);
        setPlane(planes, at, nx, ny, nz, nx * positionX + ny * positionY + nz * positionZ);
    }

    private static void setPlane(double[] planes, int at, double nx, double ny, double nz, double d) {
        planes[at] = nx;
        planes[at + 1] = ny;
        planes[at + 2] = nz;
        planes[at + 3] = d;
    }

    /** @return near plane distance */
    public double near() {
        return near;
    }

    /** @return far plane distance */
    public double far() {
        return far;
    }
}
