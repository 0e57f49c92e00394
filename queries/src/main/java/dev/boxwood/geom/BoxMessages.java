package dev.boxwood.geom;

/**
 * The wording of the messages about an invalid box, kept in one place so that every entry point (the value types,
 * the trees' single and bulk adds and queries, the builders, the world writers and readers) words the same problem
 * the same way. A message is a subject followed by a predicate: the subject names the argument and, for an array,
 * the box's index ({@code "box"}, {@code "boxes: box 3"}, {@code "rectangles: rectangle 2"}); the predicate names
 * the problem, the axis by its letter and both bounds on it:
 * <ul>
 *   <li>{@code has a NaN bound on axis y: minY = NaN, maxY = 1.0}</li>
 *   <li>{@code has an infinite bound on axis y: minY = -Infinity, maxY = 1.0}</li>
 *   <li>{@code is inverted on axis y: minY = 2.0 > maxY = 1.0}</li>
 *   <li>{@code reaches more than 1.0E18 from the origin 0.0 on axis y (the float storage range): minY = 2.0E18,
 *       maxY = 3.0E18}</li>
 * </ul>
 * An axis whose bounds have more than one problem is named by the first of NaN, infinite, inverted. Float bounds
 * are written as floats. Building a message allocates: call these only once a check has failed.
 */
public final class BoxMessages {

    private static final String[] AXES = {"x", "y", "z"};
    private static final String[] MIN_NAMES = {"minX", "minY", "minZ"};
    private static final String[] MAX_NAMES = {"maxX", "maxY", "maxZ"};

    private static final int VALID = 0;
    private static final int NAN = 1;
    private static final int INFINITE = 2;
    private static final int INVERTED = 3;

    private BoxMessages() {
    }

    /**
     * The letter of an axis.
     *
     * @param axis 0, 1 or 2
     * @return {@code "x"}, {@code "y"} or {@code "z"}
     * @throws IllegalArgumentException for another axis
     */
    public static String axisName(int axis) {
        checkAxis(axis);
        return AXES[axis];
    }

    /**
     * What is wrong with a box's bounds on one axis, as a predicate of the box (see the class comment).
     *
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @return the predicate, or {@code null} if both bounds are finite and {@code min <= max}
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2
     */
    public static String problem(int axis, double min, double max) {
        checkAxis(axis);
        int kind = kind(min, max);
        // the check of every box a world file holds: nothing is formatted for a valid one
        return kind == VALID ? null : problem(axis, kind, Double.toString(min), Double.toString(max));
    }

    /**
     * {@link #problem(int, double, double)} for float bounds, written as floats.
     *
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @return the predicate, or {@code null} if both bounds are finite and {@code min <= max}
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2
     */
    public static String problem(int axis, float min, float max) {
        checkAxis(axis);
        int kind = kind(min, max);
        return kind == VALID ? null : problem(axis, kind, Float.toString(min), Float.toString(max));
    }

    /**
     * The exception for an invalid box: {@code subject + " " + }{@link #problem(int, double, double) problem}.
     *
     * @param subject what the box is called: the argument, and for an array the box's index
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @return the exception, to throw
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2, or bounds with no problem (a caller's bug)
     */
    public static IllegalArgumentException invalid(String subject, int axis, double min, double max) {
        return invalid(subject, axis, problem(axis, min, max), min + " and " + max);
    }

    /**
     * {@link #invalid(String, int, double, double)} for float bounds, written as floats.
     *
     * @param subject what the box is called: the argument, and for an array the box's index
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @return the exception, to throw
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2, or bounds with no problem (a caller's bug)
     */
    public static IllegalArgumentException invalid(String subject, int axis, float min, float max) {
        return invalid(subject, axis, problem(axis, min, max), min + " and " + max);
    }

    private static IllegalArgumentException invalid(String subject, int axis, String problem, String bounds) {
        if (problem == null) {
            throw new IllegalArgumentException("the bounds " + bounds + " on axis " + AXES[axis] + " are valid");
        }
        return new IllegalArgumentException(subject + " " + problem);
    }

    /**
     * The exception for a box beyond the float storage range: {@code subject + " " + }{@link #beyondStorage(int,
     * double, double, double, String) beyondStorage}.
     *
     * @param subject what the box is called: the argument, and for an array the box's index
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @param limit the largest distance from the origin an index stores
     * @param origin the origin the distance is measured from, as the message calls it ("the origin 5.0")
     * @return the exception, to throw
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2
     */
    public static IllegalArgumentException beyond(String subject, int axis, double min, double max, double limit,
                                                  String origin) {
        return new IllegalArgumentException(subject + " " + beyondStorage(axis, min, max, limit, origin));
    }

    /**
     * {@link #beyond(String, int, double, double, double, String)} for float bounds, written as floats.
     *
     * @param subject what the box is called: the argument, and for an array the box's index
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @param limit the largest distance from the origin an index stores
     * @param origin the origin the distance is measured from, as the message calls it ("its origin")
     * @return the exception, to throw
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2
     */
    public static IllegalArgumentException beyond(String subject, int axis, float min, float max, double limit,
                                                  String origin) {
        return new IllegalArgumentException(subject + " " + beyondStorage(axis, min, max, limit, origin));
    }

    /**
     * The predicate for bounds beyond the float storage range of an index (see the class comment).
     *
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @param limit the largest distance from the origin an index stores
     * @param origin the origin the distance is measured from, as the message calls it ("the origin 5.0")
     * @return the predicate
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2
     */
    public static String beyondStorage(int axis, double min, double max, double limit, String origin) {
        checkAxis(axis);
        return beyondStorage(axis, Double.toString(min), Double.toString(max), limit, origin);
    }

    /**
     * {@link #beyondStorage(int, double, double, double, String)} for float bounds, written as floats.
     *
     * @param axis 0, 1 or 2 (x, y, z)
     * @param min the box's lower bound on the axis
     * @param max its upper bound
     * @param limit the largest distance from the origin an index stores
     * @param origin the origin the distance is measured from, as the message calls it ("its origin")
     * @return the predicate
     * @throws IllegalArgumentException for an axis other than 0, 1 or 2
     */
    public static String beyondStorage(int axis, float min, float max, double limit, String origin) {
        checkAxis(axis);
        return beyondStorage(axis, Float.toString(min), Float.toString(max), limit, origin);
    }

    private static int kind(double min, double max) {
        if (Double.isNaN(min) || Double.isNaN(max)) {
            return NAN;
        }
        if (Double.isInfinite(min) || Double.isInfinite(max)) {
            return INFINITE;
        }
        return min > max ? INVERTED : VALID;
    }

    private static String problem(int axis, int kind, String min, String max) {
        String what = switch (kind) {
            case NAN -> "has a NaN bound";
            case INFINITE -> "has an infinite bound";
            default -> "is inverted";
        };
        return what + " on axis " + AXES[axis] + ": " + MIN_NAMES[axis] + " = " + min
                + (kind == INVERTED ? " > " : ", ") + MAX_NAMES[axis] + " = " + max;
    }

    private static String beyondStorage(int axis, String min, String max, double limit, String origin) {
        return "reaches more than " + limit + " from " + origin + " on axis " + AXES[axis]
                + " (the float storage range): " + MIN_NAMES[axis] + " = " + min + ", " + MAX_NAMES[axis] + " = "
                + max;
    }

    private static void checkAxis(int axis) {
        if (axis < 0 || axis > 2) {
            throw new IllegalArgumentException("axis must be 0, 1 or 2: " + axis);
        }
    }
}
