package dev.boxwood.serial;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import dev.boxwood.query.AllOverlaps;
import dev.boxwood.testkit.BruteForceIndex;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.LevelScenes;
import dev.boxwood.testkit.scenes.SegmentSet;
import dev.boxwood.testkit.scenes.SyntheticWorld;

/** A world's input arrays (boxes, categories, user values, payload) and helpers to write it and build oracles. */
final class TestWorld {

    final String name;
    final double[] boxes;
    final long[] categories;
    final long[] userValues;
    final byte[] payload;

    TestWorld(String name, double[] boxes, long seed, boolean withPayload) {
        this.name = name;
        this.boxes = boxes;
        int n = boxes.length / 6;
        SplittableRandom r = new SplittableRandom(seed);
        categories = new long[n];
        userValues = new long[n];
        for (int i = 0; i < n; i++) {
            // mostly one category of 64, some with two, a few in none (never reported)
            long bits = 1L << r.nextInt(64);
            if (r.nextInt(4) == 0) {
                bits |= 1L << r.nextInt(64);
            }
            categories[i] = r.nextInt(50) == 0 ? 0L : bits;
            userValues[i] = r.nextLong();
        }
        payload = withPayload ? new byte[1 + r.nextInt(5000)] : null;
        if (payload != null) {
            r.nextBytes(payload);
        }
    }

    private TestWorld(String name, double[] boxes, long[] categories, long[] userValues, byte[] payload) {
        this.name = name;
        this.boxes = boxes;
        this.categories = categories;
        this.userValues = userValues;
        this.payload = payload;
    }

    /** No objects. */
    static TestWorld empty() {
        return new TestWorld("empty", new double[0], 1, false);
    }

    /** One object far along x (where float steps are large), with or without a payload. */
    static TestWorld single(boolean withPayload) {
        return new TestWorld("single", new double[] {1e6, 2, 3, 1e6 + 1, 4, 5}, 2, withPayload);
    }

    static TestWorld clustered(int n, long seed) {
        return new TestWorld("clustered-" + n, SyntheticWorld.clustered(n, seed).boxes().toInterleaved(), seed, true);
    }

    static TestWorld level(LevelScenes.Level level) {
        return new TestWorld(level.name(), LevelScenes.load(level).toInterleaved(), level.ordinal(), false);
    }

    int size() {
        return boxes.length / 6;
    }

    WrittenWorld write(Path file) throws IOException {
        return StaticWorldWriter.write(file, boxes, userValues, categories, payload);
    }

    /**
     * Writes the world and returns it in the written world's storage order: object {@code h} of the result is the
     * object with handle {@code h}, so oracles built from it hand out the world's handles.
     */
    TestWorld writeStored(Path file) throws IOException {
        return inStorageOrder(write(file));
    }

    /** This world's objects permuted into the storage order of a written world (same name and payload). */
    TestWorld inStorageOrder(WrittenWorld written) {
        int n = size();
        double[] b = new double[6 * n];
        long[] c = new long[n];
        long[] v = new long[n];
        for (int h = 0; h < n; h++) {
            int i = written.inputIndexOf(h);
            System.arraycopy(boxes, 6 * i, b, 6 * h, 6);
            c[h] = categories[i];
            v[h] = userValues[i];
        }
        return new TestWorld(name, b, c, v, payload);
    }

    /**
     * The reference index, with the world's origin so it stores the same float boxes and hands out handles in this
     * world's object order (the written world's handles for a world in storage order, see {@link #writeStored}).
     */
    BruteForceIndex oracle(double originX, double originY, double originZ) {
        BruteForceIndex index = new BruteForceIndex(originX, originY, originZ);
        for (int i = 0; i < size(); i++) {
            int handle = index.add(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3],
                    boxes[6 * i + 4], boxes[6 * i + 5], userValues[i], categories[i]);
            if (handle != i) {
                throw new IllegalStateException("the oracle handed out handle " + handle + " for object " + i);
            }
        }
        return index;
    }

    /** The reference index in the frame of a world written from this one (see {@link #oracle(double, double, double)}). */
    BruteForceIndex oracle(MappedWorld mapped) {
        return oracle(mapped.originX(), mapped.originY(), mapped.originZ());
    }

    private BoxSet boxSet() {
        BoxSet set = new BoxSet(size());
        for (int i = 0; i < size(); i++) {
            set.set(i, boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2], boxes[6 * i + 3], boxes[6 * i + 4],
                    boxes[6 * i + 5]);
        }
        return set;
    }

    /** Query boxes of 1 to 10 % of the world's extent, stride 6. */
    double[] boxQueries(int count, long seed) {
        if (size() == 0) {
            return new double[] {-1, -1, -1, 1, 1, 1};
        }
        return LevelScenes.randomBoxQueries(boxSet(), count, seed).toInterleaved();
    }

    /**
     * Segments from near one random object (within 20 m of its centre) to the centre of another, stride 6: origin,
     * translation. Each ends inside a box, so every one hits, and many cross clusters (and tiles) on the way; the
     * diagonal-long random segments of {@link #segments} mostly miss a sparse world.
     */
    double[] segmentsBetweenObjects(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] out = new double[6 * count];
        for (int i = 0; i < count; i++) {
            int from = random.nextInt(size());
            int to = random.nextInt(size());
            for (int a = 0; a < 3; a++) {
                double start = 0.5 * (boxes[6 * from + a] + boxes[6 * from + 3 + a]) + random.nextDouble(-20, 20);
                out[6 * i + a] = start;
                out[6 * i + 3 + a] = 0.5 * (boxes[6 * to + a] + boxes[6 * to + 3 + a]) - start;
            }
        }
        return out;
    }

    /** Segments as the world's diagonal long, stride 6: origin, translation. */
    double[] segments(int count, long seed) {
        if (size() == 0) {
            return new double[] {0, 0, 0, 1, 1, 1};
        }
        SegmentSet set = LevelScenes.randomSegments(boxSet(), count, seed);
        double[] out = new double[6 * count];
        for (int i = 0; i < count; i++) {
            out[6 * i] = set.originX[i];
            out[6 * i + 1] = set.originY[i];
            out[6 * i + 2] = set.originZ[i];
            out[6 * i + 3] = set.translationX[i];
            out[6 * i + 4] = set.translationY[i];
            out[6 * i + 5] = set.translationZ[i];
        }
        return out;
    }

    /** The user values an overlap collector holds, sorted: answers compared as sets. */
    static long[] sortedUserValues(AllOverlaps overlaps) {
        long[] values = new long[overlaps.count()];
        for (int i = 0; i < values.length; i++) {
            values[i] = overlaps.userValue(i);
        }
        java.util.Arrays.sort(values);
        return values;
    }
}
