package dev.boxwood.testkit.scenes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The real level data shipped with the test kit (resources {@code dev/boxwood/testkit/levels/bounds0N.txt},
 * MIT licence beside them; one box per line, {@code minX minY minZ maxX maxY maxZ}), and random queries
 * inside a level's bounds.
 */
public final class LevelScenes {

    /** The shipped levels, with the scale their authors used them at. */
    public enum Level {
        /** 288 boxes, used at scale 1. */
        BOUNDS01("bounds01.txt", 1),
        /** 4221 boxes, used at scale 1. */
        BOUNDS02("bounds02.txt", 1),
        /** 268 boxes, used at scale 0.01 by its authors. */
        BOUNDS03("bounds03.txt", 0.01);

        private final String fileName;
        private final double authorScale;

        Level(String fileName, double authorScale) {
            this.fileName = fileName;
            this.authorScale = authorScale;
        }

        /**
         * The resource file name, relative to {@code dev/boxwood/testkit/levels/}.
         *
         * @return the file name
         */
        public String fileName() {
            return fileName;
        }

        /**
         * The scale the level's authors used it at (every coordinate multiplied by it).
         *
         * @return the scale
         */
        public double authorScale() {
            return authorScale;
        }
    }

    private static final String FOLDER = "/dev/boxwood/testkit/levels/";

    private LevelScenes() {
    }

    /**
     * Loads a level at its {@linkplain Level#authorScale() authors' scale}.
     *
     * @param level the level
     * @return its boxes, in file order
     * @throws IllegalStateException if the resource is missing or malformed
     */
    public static BoxSet load(Level level) {
        return load(level, level.authorScale());
    }

    /**
     * Loads a level with every coordinate multiplied by {@code scale}.
     *
     * @param level the level
     * @param scale coordinate multiplier; finite and positive
     * @return its boxes, in file order
     * @throws IllegalArgumentException if {@code scale} is not finite and positive
     * @throws IllegalStateException if the resource is missing or malformed (names the line)
     */
    public static BoxSet load(Level level, double scale) {
        if (!(scale > 0) || !Double.isFinite(scale)) {
            throw new IllegalArgumentException("scale must be finite and positive: " + scale);
        }
        String path = FOLDER + level.fileName();
        double[] values = new double[6 * 512];
        int count = 0;
        try (InputStream in = LevelScenes.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            int lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                String trimmed = line.trim();
                if (trimmed.isEmpty()) {
                    continue;
                }
                String[] parts = trimmed.split("\\s+");
                if (parts.length != 6) {
                    throw new IllegalStateException(path + ":" + lineNumber + ": expected 6 numbers");
                }
                if (count + 6 > values.length) {
                    values = Arrays.copyOf(values, values.length * 2);
                }
                for (int k = 0; k < 6; k++) {
                    double v = Double.parseDouble(parts[k]) * scale;
                    if (!Double.isFinite(v)) {
                        throw new IllegalStateException(path + ":" + lineNumber + ": non-finite coordinate");
                    }
                    values[count + k] = v;
                }
                for (int k = 0; k < 3; k++) {
                    if (values[count + k] > values[count + 3 + k]) {
                        throw new IllegalStateException(path + ":" + lineNumber + ": inverted box");
                    }
                }
                count += 6;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(path + ": malformed number", e);
        }
        BoxSet boxes = new BoxSet(count / 6);
        for (int i = 0, o = 0; o < count; i++, o += 6) {
            boxes.set(i, values[o], values[o + 1], values[o + 2], values[o + 3], values[o + 4], values[o + 5]);
        }
        return boxes;
    }

    /**
     * Random segments inside the bounds of {@code boxes}: origins uniform in the bounds, directions
     * uniform on the sphere, length equal to the diagonal of the bounds (so many segments leave them).
     *
     * @param boxes the level (not empty)
     * @param count number of segments; not negative
     * @param seed the seed
     * @return the segments
     * @throws IllegalArgumentException if {@code count} is negative or {@code boxes} is empty
     */
    public static SegmentSet randomSegments(BoxSet boxes, int count, long seed) {
        Sampling.requireCount(count, "count");
        double[] b = nonEmptyBounds(boxes);
        double length = Math.sqrt(square(b[3] - b[0]) + square(b[4] - b[1]) + square(b[5] - b[2]));
        SplittableRandom random = new SplittableRandom(seed);
        SegmentSet segments = new SegmentSet(count);
        for (int s = 0; s < count; s++) {
            double ox = inBounds(random, b, 0);
            double oy = inBounds(random, b, 1);
            double oz = inBounds(random, b, 2);
            // uniform direction: z uniform in [-1, 1], azimuth uniform (Archimedes' hat-box theorem)
            double dz = 2 * random.nextDouble() - 1;
            double azimuth = random.nextDouble() * 2 * Math.PI;
            double r = Math.sqrt(Math.max(0, 1 - dz * dz));
            segments.set(s, ox, oy, oz, length * r * Math.cos(azimuth), length * r * Math.sin(azimuth),
                    length * dz);
        }
        return segments;
    }

    /**
     * Random query boxes inside the bounds of {@code boxes}: centres uniform in the bounds, half-extents per
     * axis uniform in [1 %, 10 %] of the bounds' extent on that axis.
     *
     * @param boxes the level (not empty)
     * @param count number of queries; not negative
     * @param seed the seed
     * @return the query boxes
     * @throws IllegalArgumentException if {@code count} is negative or {@code boxes} is empty
     */
    public static BoxSet randomBoxQueries(BoxSet boxes, int count, long seed) {
        Sampling.requireCount(count, "count");
        double[] b = nonEmptyBounds(boxes);
        SplittableRandom random = new SplittableRandom(seed);
        BoxSet queries = new BoxSet(count);
        for (int q = 0; q < count; q++) {
            double cx = inBounds(random, b, 0);
            double cy = inBounds(random, b, 1);
            double cz = inBounds(random, b, 2);
            double hx = (b[3] - b[0]) * Sampling.uniform(random, 0.01, 0.1);
            double hy = (b[4] - b[1]) * Sampling.uniform(random, 0.01, 0.1);
            double hz = (b[5] - b[2]) * Sampling.uniform(random, 0.01, 0.1);
            queries.set(q, cx - hx, cy - hy, cz - hz, cx + hx, cy + hy, cz + hz);
        }
        return queries;
    }

    private static double[] nonEmptyBounds(BoxSet boxes) {
        if (boxes.size() == 0) {
            throw new IllegalArgumentException("boxes must not be empty");
        }
        return boxes.bounds();
    }

    /** Uniform coordinate on {@code axis} (0 = x, 1 = y, 2 = z) of bounds {@code {minX, minY, minZ, maxX, maxY, maxZ}}. */
    private static double inBounds(SplittableRandom random, double[] bounds, int axis) {
        return Sampling.uniform(random, bounds[axis], bounds[axis + 3]);
    }

    private static double square(double v) {
        return v * v;
    }
}
