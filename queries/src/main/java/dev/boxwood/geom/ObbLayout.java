package dev.boxwood.geom;

/**
 * Flat layout of an oriented box in a {@code double[]}, as the OBB kernels read it: {@link #STRIDE} doubles from an
 * offset, the centre, the three axes (unit length, mutually orthogonal) and the three half extents along them:
 * <pre>
 *   offset + 0..2    centre x, y, z
 *   offset + 3..5    axis 0 x, y, z
 *   offset + 6..8    axis 1 x, y, z
 *   offset + 9..11   axis 2 x, y, z
 *   offset + 12..14  half extents along axis 0, 1, 2
 * </pre>
 * The box is {@code centre + s0 h0 axis0 + s1 h1 axis1 + s2 h2 axis2} for {@code s} in {@code [-1, 1]^3}, closed.
 * {@link Obb#writeTo(double[], int)} writes a validated box in this layout.
 */
public final class ObbLayout {

    /** Offset of the centre. */
    public static final int CENTRE = 0;
    /** Offset of axis 0; axis {@code i} starts at {@code AXES + 3 * i}. */
    public static final int AXES = 3;
    /** Offset of the half extents. */
    public static final int HALF_EXTENTS = 12;
    /** Doubles per box. */
    public static final int STRIDE = 15;

    private ObbLayout() {
    }
}
