package dev.boxwood.serial;

import dev.boxwood.index.build.BinnedSahBuilder;

/**
 * The boxes of a static world, read in chunks, so that a world can be written without its boxes ever existing as
 * one {@code double[]} (at 48 bytes per object that array alone would be 4.8 GB for 100 million objects, beside the
 * builder's own float copy). See {@link StaticWorldWriter#write(java.nio.file.Path, BoxSource, long[], long[],
 * byte[], StaticWorldWriter.Progress)}.
 *
 * <p>Conventions:
 * <ul>
 *   <li>Object {@code i}, for {@code 0 <= i < size()}, is a closed box in world coordinates: {@code minX, minY,
 *       minZ, maxX, maxY, maxZ}, finite, min &lt;= max on every axis. Its input index (the index the written world's
 *       handles map back to, and the default user value) is {@code i}.</li>
 *   <li>A source is read more than once, and must give the same boxes every time. The writer reads it twice, in
 *       ascending chunks each time: first for the bounds, whose centre becomes the world's double origin, then
 *       to round each box outward to floats relative to that origin (the library's storage rule,
 *       {@link BinnedSahBuilder#toFloatBoxes(double[], int, int, double, double, double, float[])}). A source that
 *       changes between the reads still yields a valid world, but not the one either read describes alone.</li>
 *   <li>Reads come from the writer's thread only, one at a time.</li>
 *   <li>Any exception a read throws ends the write and reaches its caller unchanged; no file is left at the
 *       target.</li>
 * </ul>
 */
public interface BoxSource {

    /**
     * @return the number of objects, 0 to {@link BinnedSahBuilder#MAX_OBJECTS}; the same on every call
     */
    int size();

    /**
     * Fills {@code dest[0 .. 6 * count)} with the boxes of objects {@code first .. first + count - 1}, stride 6
     * ({@code minX, minY, minZ, maxX, maxY, maxZ}). Values of {@code dest} beyond {@code 6 * count} may be
     * anything on return.
     *
     * @param first the first object, {@code 0 <= first <= size() - count}
     * @param count objects to read, at least 1
     * @param dest  receives the boxes; at least {@code 6 * count} long
     */
    void read(int first, int count, double[] dest);

    /**
     * A source over boxes already in memory, for callers that have them as one array anyway; the array is not
     * copied, so it must not change while a write reads it.
     *
     * @param boxes stride 6 ({@code minX, minY, minZ, maxX, maxY, maxZ}); object {@code i} is the box at {@code 6 i}
     * @return a source over {@code boxes}
     * @throws IllegalArgumentException if {@code boxes} is null or its length is not a multiple of 6 (its boxes
     *                                  are checked when they are read)
     */
    static BoxSource of(double[] boxes) {
        if (boxes == null) {
            throw new IllegalArgumentException("boxes must not be null");
        }
        if (boxes.length % 6 != 0) {
            throw new IllegalArgumentException("boxes length must be a multiple of 6, got " + boxes.length);
        }
        return new BoxSource() {
            @Override
            public int size() {
                return boxes.length / 6;
            }

            @Override
            public void read(int first, int count, double[] dest) {
                System.arraycopy(boxes, 6 * first, dest, 0, 6 * count);
            }
        };
    }
}
