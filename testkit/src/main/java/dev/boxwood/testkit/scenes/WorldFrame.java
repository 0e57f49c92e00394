package dev.boxwood.testkit.scenes;

/**
 * Places a generated world: a point {@code p} of the canonical world (metres, the canonical world of
 * {@link SyntheticWorld} spans {@code [0, 10000] x [0, 10000] x [0, 200]}) lands at
 * {@code origin + scale * p}. Lengths (box edges, segment lengths, speeds) are multiplied by
 * {@code scale}.
 *
 * <p>Use {@link #STANDARD} for the canonical world, {@link #offset(double)} for a world far from zero
 * (e.g. {@code 1e6}, to exercise precision), and {@link #scaled(double)} for unit-scale worlds.
 *
 * @param originX where the canonical x = 0 lands
 * @param originY where the canonical y = 0 lands
 * @param originZ where the canonical z = 0 lands
 * @param scale world units per canonical metre; finite and positive
 */
public record WorldFrame(double originX, double originY, double originZ, double scale) {

    /** The canonical frame: origin at zero, one unit per metre. */
    public static final WorldFrame STANDARD = new WorldFrame(0, 0, 0, 1);

    /**
     * Validates the frame.
     *
     * @param originX where the canonical x = 0 lands; finite
     * @param originY where the canonical y = 0 lands; finite
     * @param originZ where the canonical z = 0 lands; finite
     * @param scale world units per canonical metre; finite and positive
     * @throws IllegalArgumentException if an origin coordinate is not finite or the scale is not finite
     *         and positive
     */
    public WorldFrame {
        requireFinite(originX, "originX");
        requireFinite(originY, "originY");
        requireFinite(originZ, "originZ");
        if (!(scale > 0) || !Double.isFinite(scale)) {
            throw new IllegalArgumentException("scale must be finite and positive: " + scale);
        }
    }

    /**
     * A frame at scale 1 whose origin is {@code (offset, offset, offset)}.
     *
     * @param offset added to every coordinate; finite
     * @return the frame
     */
    public static WorldFrame offset(double offset) {
        return new WorldFrame(offset, offset, offset, 1);
    }

    /**
     * A frame at the origin with the given scale (e.g. {@code 1e-4} maps the 10 km world onto about
     * {@code [0, 1]^2}).
     *
     * @param scale world units per canonical metre; finite and positive
     * @return the frame
     */
    public static WorldFrame scaled(double scale) {
        return new WorldFrame(0, 0, 0, scale);
    }

    /**
     * Maps a canonical x.
     *
     * @param x canonical x in metres
     * @return the world x
     */
    public double x(double x) {
        return originX + scale * x;
    }

    /**
     * Maps a canonical y.
     *
     * @param y canonical y in metres
     * @return the world y
     */
    public double y(double y) {
        return originY + scale * y;
    }

    /**
     * Maps a canonical z.
     *
     * @param z canonical z in metres
     * @return the world z
     */
    public double z(double z) {
        return originZ + scale * z;
    }

    /**
     * Maps a canonical length.
     *
     * @param length a length in metres
     * @return the length in world units
     */
    public double length(double length) {
        return scale * length;
    }

    static void requireFinite(double v, String name) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(name + " must be finite: " + v);
        }
    }
}
