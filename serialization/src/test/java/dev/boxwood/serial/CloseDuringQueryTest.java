package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.NearestNeighbours;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.TraversalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MappedWorld#close()} while queries of the world run: from a query's own callback, and from another
 * thread. Running queries finish with the answers of an open world, later ones throw
 * {@link IllegalStateException}, and the file is unmapped when the last reader returns. Before the reader count,
 * close unmapped at once and the running query read unmapped memory (the JVM crashed).
 */
class CloseDuringQueryTest {

    private static final Path MAPS = Path.of("/proc/self/maps");

    @TempDir
    Path dir;

    /** One query kind run with a callback: {@code hook} is called from inside the query, once per callback. */
    private interface Query {
        void run(MappedWorld world, Runnable hook, List<Integer> out);
    }

    private static List<Query> kinds(TestWorld world) {
        // a cube around object 0 holding the 40 objects whose centres are nearest to its centre, and its diagonal
        double[] o = world.boxes;
        double cx = 0.5 * (o[0] + o[3]);
        double cy = 0.5 * (o[1] + o[4]);
        double cz = 0.5 * (o[2] + o[5]);
        double[] far = new double[world.size()];
        for (int i = 0; i < far.length; i++) {
            double dx = Math.abs(0.5 * (o[6 * i] + o[6 * i + 3]) - cx);
            double dy = Math.abs(0.5 * (o[6 * i + 1] + o[6 * i + 4]) - cy);
            double dz = Math.abs(0.5 * (o[6 * i + 2] + o[6 * i + 5]) - cz);
            far[i] = Math.max(dx, Math.max(dy, dz));
        }
        double[] sorted = far.clone();
        Arrays.sort(sorted);
        double r = sorted[40];
        double[] b = {cx - r, cy - r, cz - r, cx + r, cy + r, cz + r};
        // from the centre of object 0 to that of the farthest object in the cube: hits both, and others on the way
        int end = 0;
        for (int i = 1; i < far.length; i++) {
            if (far[i] <= r && far[i] > far[end]) {
                end = i;
            }
        }
        double[] s = {cx, cy, cz, 0.5 * (o[6 * end] + o[6 * end + 3]) - cx,
                0.5 * (o[6 * end + 1] + o[6 * end + 4]) - cy, 0.5 * (o[6 * end + 2] + o[6 * end + 5]) - cz};
        TraversalStack stack = new TraversalStack();
        List<Query> kinds = new ArrayList<>();
        kinds.add((w, hook, out) -> w.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], -1L, (h, v) -> {
            hook.run();
            return out.add(h);
        }, stack));
        kinds.add((w, hook, out) -> w.querySphere(cx, cy, cz, r, RegionMode.CROSSING, -1L, null, (h, v) -> {
            hook.run();
            return out.add(h);
        }, stack));
        kinds.add((w, hook, out) -> w.queryBox(b[0], b[1], b[2], b[3], b[4], b[5], RegionMode.WINDOW, -1L,
                (h, v) -> {
                    hook.run();
                    return true;
                }, (h, v) -> out.add(h), stack));
        kinds.add((w, hook, out) -> w.rayCast(s[0], s[1], s[2], s[3], s[4], s[5], 1.0, -1L, (h, v, f) -> {
            hook.run();
            out.add(h);
            return 1.0;
        }, stack));
        kinds.add((w, hook, out) -> w.sweepBox(s[0] - 1, s[1] - 1, s[2] - 1, s[0] + 1, s[1] + 1, s[2] + 1, s[3],
                s[4], s[5], -1L, (h, v, f) -> {
                    hook.run();
                    out.add(h);
                    return 1.0;
                }, stack));
        kinds.add((w, hook, out) -> w.sweepSphere(s[0], s[1], s[2], 2, s[3], s[4], s[5], -1L, (h, v, f) -> {
            hook.run();
            out.add(h);
            return 1.0;
        }, stack));
        NearestNeighbours nearest = new NearestNeighbours();
        kinds.add((w, hook, out) -> {
            w.kNearest(cx, cy, cz, 20, Double.POSITIVE_INFINITY, -1L, (h, v) -> {
                hook.run();
                return true;
            }, null, nearest);
            for (int i = 0; i < nearest.count(); i++) {
                out.add(nearest.handle(i));
            }
        });
        kinds.add((w, hook, out) -> w.browseNearest(cx, cy, cz, Double.POSITIVE_INFINITY, -1L, null, null,
                (h, v, d) -> {
                    hook.run();
                    out.add(h);
                    return out.size() < 20;
                }, nearest));
        return kinds;
    }

    private static long mappingsOf(Path file) throws IOException {
        String name = file.getFileName().toString();
        return Files.readAllLines(MAPS).stream().filter(line -> line.endsWith(name)).count();
    }

    @Test
    void shouldFinishAQueryWhoseOwnCallbackClosesTheWorldAndUnmapWhenItReturns() throws IOException {
        assumeTrue(Files.isReadable(MAPS), "needs /proc/self/maps (Linux)");
        TestWorld world = TestWorld.clustered(5_000, 11);
        Path file = dir.resolve("own.bxw");
        world.write(file);
        List<Query> kinds = kinds(world);
        try (MappedWorld reference = MappedWorld.open(file)) {
            for (int k = 0; k < kinds.size(); k++) {
                Query query = kinds.get(k);
                List<Integer> expected = new ArrayList<>();
                query.run(reference, () -> { }, expected);
                assertTrue(expected.size() >= 2, "kind " + k + " reaches several objects: " + expected.size());

                long baseline = mappingsOf(file);
                MappedWorld closing = MappedWorld.open(file);
                long[] mappedInside = {-1};
                List<Integer> got = new ArrayList<>();
                query.run(closing, () -> {
                    if (!closing.isClosed()) {
                        closing.close();
                        try {
                            mappedInside[0] = mappingsOf(file);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        // closed for new readers, this one's own accessors included
                        assertThrows(IllegalStateException.class, () -> closing.userValue(0));
                    }
                }, got);
                assertEquals(expected, got, "kind " + k + ": the running query answers as on an open world");
                assertTrue(closing.isClosed());
                assertTrue(mappedInside[0] > baseline, "kind " + k + ": still mapped while the query ran");
                assertTrue(closing.isUnmapped(), "kind " + k);
                assertEquals(baseline, mappingsOf(file), "kind " + k + ": unmapped when the query returned");
                assertThrows(IllegalStateException.class, () -> query.run(closing, () -> { }, new ArrayList<>()));
            }
        }
        assertEquals(0, mappingsOf(file), "every mapping released");
    }

    @Test
    void shouldLetQueriesOfOtherThreadsFinishOrRefuseWhenTheWorldIsClosedUnderThem() throws Exception {
        TestWorld world = TestWorld.clustered(20_000, 12);
        Path file = dir.resolve("threads.bxw");
        world.write(file);
        double[] boxes = world.boxQueries(64, 13);
        double[] segments = world.segmentsBetweenObjects(64, 14);
        int[] expectedOverlaps = new int[64];
        int[] expectedHits = new int[64];
        try (MappedWorld reference = MappedWorld.open(file)) {
            TraversalStack stack = new TraversalStack();
            for (int q = 0; q < 64; q++) {
                AllOverlaps overlaps = new AllOverlaps();
                reference.queryAabb(boxes[6 * q], boxes[6 * q + 1], boxes[6 * q + 2], boxes[6 * q + 3],
                        boxes[6 * q + 4], boxes[6 * q + 5], -1L, overlaps, stack);
                expectedOverlaps[q] = overlaps.count();
                AllHits hits = new AllHits();
                reference.rayCast(segments[6 * q], segments[6 * q + 1], segments[6 * q + 2], segments[6 * q + 3],
                        segments[6 * q + 4], segments[6 * q + 5], 1.0, -1L, hits, stack);
                expectedHits[q] = hits.count();
            }
        }
        int answered = 0;
        SplittableRandom random = new SplittableRandom(15);
        for (int round = 0; round < 40; round++) {
            MappedWorld mapped = MappedWorld.open(file);
            answered += readUntilClosed(random, 3, reader -> {
                TraversalStack stack = new TraversalStack();
                AllOverlaps overlaps = new AllOverlaps();
                AllHits hits = new AllHits();
                return i -> {
                    int q = (reader + i) & 63;
                    if ((i & 1) == 0) {
                        overlaps.reset();
                        mapped.queryAabb(boxes[6 * q], boxes[6 * q + 1], boxes[6 * q + 2], boxes[6 * q + 3],
                                boxes[6 * q + 4], boxes[6 * q + 5], -1L, overlaps, stack);
                        assertEquals(expectedOverlaps[q], overlaps.count(), "box query " + q);
                    } else {
                        mapped.rayCast(segments[6 * q], segments[6 * q + 1], segments[6 * q + 2],
                                segments[6 * q + 3], segments[6 * q + 4], segments[6 * q + 5], 1.0, -1L, hits, stack);
                        assertEquals(expectedHits[q], hits.count(), "ray " + q);
                    }
                };
            }, mapped::close, "the world " + file + " is closed");
            assertTrue(mapped.isUnmapped(), "round " + round + ": unmapped once every reader left");
        }
        assertTrue(answered > 40 * 3, "queries ran against the worlds: " + answered);
    }

    /**
     * Starts {@code threads} readers, each running its queries {@code i = 0, 1, ...} (from {@code readers}, which
     * makes a reader's scratch and its query) until one is refused with {@code refusal}; runs {@code close} after
     * a short random pause; waits for every reader and rethrows the first failure.
     *
     * @return the number of queries answered
     */
    private static int readUntilClosed(SplittableRandom random, int threads, IntFunction<IntConsumer> readers,
                                       Runnable close, String refusal) throws InterruptedException {
        AtomicInteger answered = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(threads);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            IntConsumer query = readers.apply(t);
            Thread thread = new Thread(() -> {
                started.countDown();
                try {
                    for (int i = 0; ; i++) {
                        try {
                            query.accept(i);
                        } catch (IllegalStateException e) {
                            assertEquals(refusal, e.getMessage());
                            return;
                        }
                        answered.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            running.add(thread);
            thread.start();
        }
        started.await();
        Thread.sleep(random.nextInt(1, 25));
        close.run();
        for (Thread thread : running) {
            thread.join(60_000);
            assertFalse(thread.isAlive());
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return answered.get();
    }

    @Test
    void shouldLetTiledQueriesOfOtherThreadsFinishOrRefuseWhenTheTiledWorldIsClosedUnderThem() throws Exception {
        TestWorld world = TestWorld.clustered(8_000, 21);
        List<Path> tiles = TileSetWriter.writeGrid(dir, "tile", world.boxes, null, world.categories, 2500);
        assertTrue(tiles.size() >= 9, tiles.size() + " tiles");
        long largest = 0;
        for (Path tile : tiles) {
            largest = Math.max(largest, Files.size(tile));
        }
        double[] segments = world.segmentsBetweenObjects(64, 22);
        int[] expected = new int[64];
        try (TiledWorld open = TiledWorld.open(tiles, Long.MAX_VALUE)) {
            TiledWorld.Scratch scratch = new TiledWorld.Scratch();
            for (int q = 0; q < 64; q++) {
                AllHits hits = new AllHits();
                open.rayCast(segments[6 * q], segments[6 * q + 1], segments[6 * q + 2], segments[6 * q + 3],
                        segments[6 * q + 4], segments[6 * q + 5], 1.0, -1L, hits, scratch);
                expected[q] = hits.count();
            }
        }
        int answered = 0;
        SplittableRandom random = new SplittableRandom(23);
        for (int round = 0; round < 30; round++) {
            // a budget of two tiles: the readers' walks evict tiles under each other while the world closes
            TiledWorld tiled = TiledWorld.open(tiles, 2 * largest);
            answered += readUntilClosed(random, 3, reader -> {
                TiledWorld.Scratch scratch = new TiledWorld.Scratch();
                AllHits hits = new AllHits();
                return i -> {
                    int q = (reader + i) & 63;
                    tiled.rayCast(segments[6 * q], segments[6 * q + 1], segments[6 * q + 2], segments[6 * q + 3],
                            segments[6 * q + 4], segments[6 * q + 5], 1.0, -1L, hits, scratch);
                    assertEquals(expected[q], hits.count(), "ray " + q);
                };
            }, tiled::close, "the tiled world is closed");
            assertEquals(0, tiled.mappedTileCount(), "round " + round + ": every tile unmapped once the readers left");
            assertEquals(0, tiled.mappedBytes());
            assertEquals(tiled.mapCount(), tiled.unmapCount());
        }
        assertTrue(answered > 30 * 3, "queries ran against the tiled worlds: " + answered);
    }
}
