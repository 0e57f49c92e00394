package dev.boxwood.query;

/**
 * Validation of the inputs of query batches (many queries in primitive arrays), shared by every batch runner so
 * each rejects the same input with the same message. A message names the bad query by its index, so a caller
 * finds it in a batch of thousands. Every method throws {@link IllegalArgumentException} and returns normally
 * otherwise; batch runners check everything before any query runs, so a rejected batch writes nothing.
 */
public final class BatchArguments {

    private BatchArguments() {
    }

    /**
     * @param count the number of queries
     * @throws IllegalArgumentException if negative
     */
    public static void requireCount(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
    }

    /**
     * @param name the argument's name for the message
     * @param array the input or output values
     * @param length how many values it must hold
     * @throws IllegalArgumentException if null or shorter
     */
    public static void requireLength(String name, double[] array, long length) {
        Arguments.requireNonNull(name, array);
        if (array.length < length) {
            throw new IllegalArgumentException(name + " must hold " + length + " values, has " + array.length);
        }
    }

    /**
     * @param name the argument's name for the message
     * @param length the length of an answer array (checked non-null by the caller)
     * @param count the number of queries
     * @throws IllegalArgumentException if {@code length < count}
     */
    public static void requireAnswers(String name, int length, int count) {
        if (length < count) {
            throw new IllegalArgumentException(name + " must hold " + count + " answers");
        }
    }

    /**
     * @param name the argument's name for the message
     * @param handles one handle per query, or null for none
     * @param count the number of queries
     * @throws IllegalArgumentException if non-null and shorter than {@code count}
     */
    public static void requireOptionalHandles(String name, int[] handles, int count) {
        if (handles != null && handles.length < count) {
            throw new IllegalArgumentException(name + " must hold at least " + count + " handles (or be null), has "
                    + handles.length);
        }
    }

    /**
     * An answer array that is not also another argument of the same batch: the queries run in parallel and write
     * their answers as they finish, so an answer array that is also an input would change the inputs of queries
     * still to run, and one shared by two kinds of answer would keep only the last written.
     *
     * @param name the answer array's name for the message
     * @param answers the answer array
     * @param otherName the other argument's name for the message
     * @param other the other argument, or null
     * @throws IllegalArgumentException if both are the same array
     */
    public static void requireDistinct(String name, Object answers, String otherName, Object other) {
        if (answers != null && answers == other) {
            throw new IllegalArgumentException(name + " and " + otherName + " are the same array: each needs its own"
                    + " (answers are written while other queries of the batch still read their inputs)");
        }
    }

    /**
     * Every one of the first {@code length} values finite.
     *
     * @param name the argument's name for the message
     * @param array the values, {@code stride} per query
     * @param length how many to check
     * @param stride values per query
     * @param query what one query is called in the message ("ray", "sphere")
     * @throws IllegalArgumentException naming the query of the first NaN or infinite value
     */
    public static void requireFinite(String name, double[] array, int length, int stride, String query) {
        for (int i = 0; i < length; i++) {
            if (!Double.isFinite(array[i])) {
                throw new IllegalArgumentException(name + ": " + query + " " + i / stride + " is not finite: "
                        + array[i] + " at " + i);
            }
        }
    }

    /**
     * The spheres of a sphere batch: a count {@code >= 0}, {@code spheres} non-null with 4 values per sphere
     * (centre, radius), finite, each radius in {@code [0, }{@link Arguments#MAX_RADIUS}{@code ]}.
     *
     * @param spheres centre x, y, z and radius per query
     * @param count the number of spheres
     * @throws IllegalArgumentException naming the argument, or the first bad sphere
     */
    public static void requireSphereBatch(double[] spheres, int count) {
        requireCount(count);
        requireLength("spheres", spheres, 4L * count);
        requireFinite("spheres", spheres, 4 * count, 4, "sphere");
        for (int i = 0; i < count; i++) {
            if (!(spheres[4 * i + 3] >= 0 && spheres[4 * i + 3] <= Arguments.MAX_RADIUS)) {
                throw new IllegalArgumentException("spheres: sphere " + i + " has a radius outside [0, "
                        + Arguments.MAX_RADIUS + "]: " + spheres[4 * i + 3]);
            }
        }
    }

    /**
     * Result slots of a batch that keeps up to {@code maxPerQuery} results per query: {@code maxPerQuery >= 0} and
     * an array of at least {@code count * maxPerQuery} slots.
     *
     * @param name the argument's name for the message
     * @param length the result array's length (the array checked non-null by the caller)
     * @param count the number of queries
     * @param maxPerQuery results kept per query
     * @throws IllegalArgumentException if {@code maxPerQuery < 0} or the array is shorter
     */
    public static void requireSlots(String name, int length, int count, int maxPerQuery) {
        if (maxPerQuery < 0) {
            throw new IllegalArgumentException("maxPerQuery must be >= 0: " + maxPerQuery);
        }
        if (length < (long) count * maxPerQuery) {
            throw new IllegalArgumentException(name + " must hold count * maxPerQuery = " + (long) count * maxPerQuery
                    + " results, has " + length);
        }
    }

    /**
     * The arguments of a line-of-sight batch: its segments ({@link #requireSegmentBatch}), the optional ignored
     * handles ({@link #requireOptionalHandles}) and the answer array.
     *
     * @param from segment starts
     * @param to segment ends
     * @param ignoreFirst first ignored handle per query, or null
     * @param ignoreSecond second ignored handle per query, or null
     * @param count the number of segments
     * @param visible the answer array
     * @throws IllegalArgumentException naming the argument, or the first bad segment and axis
     */
    public static void requireLineOfSightBatch(double[] from, double[] to, int[] ignoreFirst, int[] ignoreSecond,
                                               int count, boolean[] visible) {
        requireSegmentBatch(from, to, count);
        requireOptionalHandles("ignoreFirst", ignoreFirst, count);
        requireOptionalHandles("ignoreSecond", ignoreSecond, count);
        Arguments.requireNonNull("visible", visible);
        requireAnswers("visible", visible.length, count);
    }

    /**
     * The segments of a line-of-sight batch: a count {@code >= 0}, {@code from} and {@code to} non-null with 3
     * values per segment, and finite translations ({@link #requireSegments}).
     *
     * @param from segment starts
     * @param to segment ends
     * @param count the number of segments
     * @throws IllegalArgumentException naming the argument, or the first bad segment and axis
     */
    public static void requireSegmentBatch(double[] from, double[] to, int count) {
        requireCount(count);
        requireLength("from", from, 3L * count);
        requireLength("to", to, 3L * count);
        requireSegments(from, to, count);
    }

    /**
     * The rays of a closest-ray batch: a count {@code >= 0}, {@code origins} and {@code translations} non-null
     * with 3 finite values per ray, and a finite {@code maxFraction >= 0}; with {@code maxFraction > 1}, no start
     * within {@link OutwardFloat#MAX_ORIGIN} of {@code ±Double.MAX_VALUE} (its offset from an index's origin could
     * overflow, which the single cast refuses: {@link Arguments#requireStartInFrame}).
     *
     * @param origins ray origins
     * @param translations ray translations
     * @param count the number of rays
     * @param maxFraction the largest fraction of every ray
     * @throws IllegalArgumentException naming the argument, or the first bad ray
     */
    public static void requireRayBatch(double[] origins, double[] translations, int count, double maxFraction) {
        requireCount(count);
        requireLength("origins", origins, 3L * count);
        requireLength("translations", translations, 3L * count);
        requireFinite("origins", origins, 3 * count, 3, "ray");
        requireFinite("translations", translations, 3 * count, 3, "ray");
        Arguments.requireFiniteNonNegative("maxFraction", maxFraction);
        if (maxFraction > 1.0) {
            // up front, as the single casts would refuse it mid-batch (Arguments.requireStartInFrame) for an index
            // whose origin lies on the far side: any start within MAX_ORIGIN of the largest double
            for (int i = 0; i < 3 * count; i++) {
                if (!(Math.abs(origins[i]) <= Double.MAX_VALUE - OutwardFloat.MAX_ORIGIN)) {
                    throw new IllegalArgumentException("ray " + i / 3 + " starts at " + origins[i] + " on axis "
                            + i % 3 + ", within " + OutwardFloat.MAX_ORIGIN + " of the largest double: with"
                            + " maxFraction " + maxFraction + " > 1 its offset from an index's origin may overflow");
                }
            }
        }
    }

    /**
     * Segments from {@code from[3i..3i+2]} to {@code to[3i..3i+2]} whose translations {@code to - from} are
     * finite: finite ends, not so far apart that the difference overflows.
     *
     * @param from segment starts (length checked by the caller)
     * @param to segment ends (length checked by the caller)
     * @param count the number of segments
     * @throws IllegalArgumentException naming the first bad segment and axis
     */
    public static void requireSegments(double[] from, double[] to, int count) {
        for (int i = 0; i < 3 * count; i++) {
            if (!Double.isFinite(to[i] - from[i])) {
                throw new IllegalArgumentException("segment " + i / 3 + " is not finite: from " + from[i] + " to "
                        + to[i] + " on axis " + i % 3);
            }
        }
    }
}
