package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.boxwood.index.build.BinnedSahBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(TracedReferences.class)
class BoxSourceWriteTest {

    private static final int CHUNK = 1000;

    @TempDir
    Path dir;

    /**
     * Boxes spread over a few kilometres far from zero (so the origin and the outward rounding matter), some flat or
     * points, some sharing coordinates.
     */
    private static double[] randomBoxes(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                double min = 1e6 * (a + 1) + r.nextDouble(-3000, 3000);
                double extent = switch (r.nextInt(8)) {
                    case 0 -> 0.0;
                    case 1 -> r.nextDouble(100, 400);
                    default -> r.nextDouble(0.01, 10);
                };
                boxes[6 * i + a] = i > 0 && r.nextInt(20) == 0 ? boxes[6 * (i - 1) + a] : min;
                boxes[6 * i + 3 + a] = boxes[6 * i + a] + extent;
            }
        }
        return boxes;
    }

    /** Reads through to an array, recording each read and checking that the writer keeps to the conventions. */
    private static class RecordingSource implements BoxSource {
        final double[] boxes;
        final int chunk;
        final List<int[]> reads = new ArrayList<>();

        RecordingSource(double[] boxes, int chunk) {
            this.boxes = boxes;
            this.chunk = chunk;
        }

        @Override
        public int size() {
            return boxes.length / 6;
        }

        @Override
        public void read(int first, int count, double[] dest) {
            assertTrue(count >= 1 && count <= chunk && first >= 0 && first + count <= size(),
                    "read of " + count + " at " + first);
            assertTrue(dest.length >= 6 * count);
            reads.add(new int[] {first, count});
            // stale values beyond the chunk must not be read as boxes
            Arrays.fill(dest, Double.NaN);
            System.arraycopy(boxes, 6 * first, dest, 0, 6 * count);
        }
    }

    private List<String> filesInDir() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    @ParameterizedTest(name = "{0} objects")
    @ValueSource(ints = {1, 7, 999, 1000, 1001, 4321})
    void shouldWriteTheSameBytesAsTheArrayPathAcrossChunks(int n) throws IOException {
        TestWorld world = new TestWorld("random", randomBoxes(n, 17 + n), 5 + n, true);
        Path expected = dir.resolve("array.bxw");
        Path actual = dir.resolve("stream.bxw");
        WrittenWorld fromArray = world.write(expected);
        RecordingSource source = new RecordingSource(world.boxes, CHUNK);
        WrittenWorld fromSource = StaticWorldWriter.write(actual, source, world.userValues, world.categories,
                world.payload, null, CHUNK);

        assertEquals(-1L, Files.mismatch(expected, actual), "files differ");
        assertEquals(fromArray.fileLength(), fromSource.fileLength());
        assertEquals(fromArray.originX(), fromSource.originX());
        for (int i = 0; i < n; i++) {
            assertEquals(fromArray.handleOf(i), fromSource.handleOf(i));
        }
        // two passes, each in ascending chunks covering every object once
        int chunks = (n + CHUNK - 1) / CHUNK;
        assertEquals(2 * chunks, source.reads.size());
        for (int k = 0; k < source.reads.size(); k++) {
            int c = k % chunks;
            assertArrayEquals(new int[] {c * CHUNK, Math.min(CHUNK, n - c * CHUNK)}, source.reads.get(k));
        }
        assertEquals(List.of("array.bxw", "stream.bxw"), filesInDir());
    }

    @Test
    void shouldWriteTheSameBytesAtTheDefaultChunkWithoutOptionalArrays() throws IOException {
        // just over one default chunk of 65,536 objects
        double[] boxes = randomBoxes(65_536 + 1_234, 99);
        Path expected = dir.resolve("array.bxw");
        Path actual = dir.resolve("stream.bxw");
        StaticWorldWriter.write(expected, boxes, null, null, null);
        List<long[]> progress = new ArrayList<>();
        StaticWorldWriter.write(actual, BoxSource.of(boxes), null, null, null, new StaticWorldWriter.Progress() {
            @Override
            public void building(long placedObjects, long totalObjects) {
            }

            @Override
            public void writing(long writtenBytes, long totalBytes) {
                progress.add(new long[] {writtenBytes, totalBytes});
            }
        });
        assertEquals(-1L, Files.mismatch(expected, actual), "files differ");
        long[] last = progress.get(progress.size() - 1);
        assertEquals(Files.size(actual), last[0]);
        assertEquals(last[0], last[1]);
    }

    @Test
    void shouldWriteAnEmptyWorldFromAnEmptySource() throws IOException {
        Path expected = dir.resolve("array.bxw");
        Path actual = dir.resolve("stream.bxw");
        StaticWorldWriter.write(expected, new double[0], null, null, null);
        RecordingSource source = new RecordingSource(new double[0], CHUNK);
        WrittenWorld written = StaticWorldWriter.write(actual, source, null, null, null, null);
        assertEquals(-1L, Files.mismatch(expected, actual), "files differ");
        assertTrue(source.reads.isEmpty());
        assertEquals(0, written.nodeCount());
        try (MappedWorld mapped = MappedWorld.open(actual)) {
            assertEquals(0, mapped.size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nan", "infinite", "inverted"})
    void shouldRejectABadBoxInALaterChunkAsTheArrayPathDoesAndKeepThePreviousFile(String kind) throws IOException {
        int n = 3 * CHUNK + 17;
        int bad = 2 * CHUNK + 5;
        double[] boxes = randomBoxes(n, 3);
        switch (kind) {
            case "nan" -> boxes[6 * bad + 4] = Double.NaN;
            case "infinite" -> boxes[6 * bad] = Double.NEGATIVE_INFINITY;
            default -> boxes[6 * bad + 2] = boxes[6 * bad + 5] + 1;
        }
        Path target = dir.resolve("world.bxw");
        StaticWorldWriter.write(target, randomBoxes(10, 4), null, null, null);
        byte[] previous = Files.readAllBytes(target);

        IllegalArgumentException fromArray = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(target, boxes, null, null, null));
        RecordingSource source = new RecordingSource(boxes, CHUNK);
        IllegalArgumentException fromSource = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(target, source, null, null, null, null, CHUNK));

        assertEquals(fromArray.getMessage(), fromSource.getMessage());
        assertTrue(fromSource.getMessage().contains("box " + bad + " "), fromSource.getMessage());
        // found while reading the bounds, before any float or file exists
        assertEquals(3, source.reads.size());
        assertArrayEquals(previous, Files.readAllBytes(target));
        assertEquals(List.of("world.bxw"), filesInDir());
    }

    @Test
    void shouldLeaveNoFileWhenTheTargetDidNotExist() {
        double[] boxes = randomBoxes(2 * CHUNK + 1, 8);
        boxes[6 * 2 * CHUNK + 3] = Double.POSITIVE_INFINITY;
        Path target = dir.resolve("world.bxw");
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(target, BoxSource.of(boxes), null, null, null, null, CHUNK));
        assertFalse(Files.exists(target));
    }

    /** A source that fails or changes its answers on the second pass, after the bounds were taken. */
    private static final class LyingSource extends RecordingSource {
        final RuntimeException failure;
        final int badObject;

        LyingSource(double[] boxes, RuntimeException failure, int badObject) {
            super(boxes, CHUNK);
            this.failure = failure;
            this.badObject = badObject;
        }

        @Override
        public void read(int first, int count, double[] dest) {
            super.read(first, count, dest);
            boolean secondPass = reads.size() > (size() + CHUNK - 1) / CHUNK;
            if (secondPass && first <= badObject && badObject < first + count) {
                if (failure != null) {
                    throw failure;
                }
                dest[6 * (badObject - first) + 1] = Double.NaN;
            }
        }
    }

    /** Writes a small world to the target, then fails a streaming write over it; the small world must remain. */
    private <T extends Throwable> T assertFailsKeepingThePreviousFile(Class<T> type, BoxSource source)
            throws IOException {
        Path target = dir.resolve("world.bxw");
        StaticWorldWriter.write(target, randomBoxes(10, 12), null, null, null);
        byte[] previous = Files.readAllBytes(target);
        T thrown = assertThrows(type, () -> StaticWorldWriter.write(target, source, null, null, null, null, CHUNK));
        assertArrayEquals(previous, Files.readAllBytes(target));
        assertEquals(List.of("world.bxw"), filesInDir());
        return thrown;
    }

    @Test
    void shouldPropagateAFailingReadAndKeepThePreviousFile() throws IOException {
        UncheckedIOException failure = new UncheckedIOException(new IOException("disk gone"));
        LyingSource source = new LyingSource(randomBoxes(4 * CHUNK, 11), failure, 3 * CHUNK + 2);
        assertSame(failure, assertFailsKeepingThePreviousFile(UncheckedIOException.class, source));
    }

    @Test
    void shouldRejectABoxThatTurnsBadOnTheSecondReadAndKeepThePreviousFile() throws IOException {
        LyingSource source = new LyingSource(randomBoxes(4 * CHUNK, 13), null, 3 * CHUNK + 2);
        String message = assertFailsKeepingThePreviousFile(IllegalArgumentException.class, source).getMessage();
        assertTrue(message.contains("box " + (3 * CHUNK + 2) + " "), message);
    }

    @Test
    void shouldRejectBadArgumentsBeforeReading() {
        Path target = dir.resolve("world.bxw");
        RecordingSource source = new RecordingSource(randomBoxes(5, 1), CHUNK);
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(target, (BoxSource) null, null, null, null, null));
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(target, source, null, new long[4], null, null));
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(target, source, new long[6], null, null, null));
        BoxSource tooBig = new BoxSource() {
            @Override
            public int size() {
                return BinnedSahBuilder.MAX_OBJECTS + 1;
            }

            @Override
            public void read(int first, int count, double[] dest) {
                throw new AssertionError("read");
            }
        };
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(target, tooBig, null, null, null, null));
        assertTrue(source.reads.isEmpty());
        assertFalse(Files.exists(target));
        assertThrows(IllegalArgumentException.class, () -> BoxSource.of(null));
        assertThrows(IllegalArgumentException.class, () -> BoxSource.of(new double[7]));
    }
}
