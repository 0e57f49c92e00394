package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import dev.boxwood.geom.SphereAabb;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.index.build.FlatBvh;
import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.OutwardFloat;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.SpatialQueries;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.testkit.scenes.LevelScenes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(TracedReferences.class)
class MappedWorldTest {

    private static final long[] MASKS = {-1L, 1L, 0x00F0_0000_0000_0001L, 1L << 63, 0L};

    @TempDir
    Path dir;

    static Stream<TestWorld> worlds() {
        return Stream.of(
                TestWorld.empty(),
                TestWorld.single(true),
                new TestWorld("pair", new double[] {0, 0, 0, 1, 1, 1, 2, 0, 0, 3, 1, 1}, 3, false),
                TestWorld.clustered(3, 4),
                TestWorld.clustered(20_000, 5),
                TestWorld.level(LevelScenes.Level.BOUNDS01),
                TestWorld.level(LevelScenes.Level.BOUNDS02),
                TestWorld.level(LevelScenes.Level.BOUNDS03));
    }

    /** Every answer of an index to a fixed query set, as comparable text. */
    static List<String> answers(SpatialQueries index, double[] boxQueries, double[] segments, TraversalStack stack) {
        List<String> out = new ArrayList<>();
        AllOverlaps overlaps = new AllOverlaps();
        AllHits all = new AllHits();
        ClosestHit closest = new ClosestHit();
        AnyHit any = new AnyHit();
        for (long mask : MASKS) {
            for (int q = 0; q < boxQueries.length; q += 6) {
                overlaps.reset();
                index.queryAabb(boxQueries[q], boxQueries[q + 1], boxQueries[q + 2], boxQueries[q + 3],
                        boxQueries[q + 4], boxQueries[q + 5], mask, overlaps, stack);
                overlaps.sort();
                StringBuilder sb = new StringBuilder("box " + q / 6 + " mask " + Long.toHexString(mask) + ":");
                for (int i = 0; i < overlaps.count(); i++) {
                    sb.append(' ').append(overlaps.handle(i)).append('/').append(overlaps.userValue(i));
                }
                out.add(sb.toString());
            }
            for (int s = 0; s < segments.length; s += 6) {
                double maxFraction = s % 12 == 0 ? 1.0 : 0.25;
                cast(index, segments, s, maxFraction, mask, all, stack);
                all.sort();
                StringBuilder sb = new StringBuilder("ray " + s / 6 + " mask " + Long.toHexString(mask) + ":");
                for (int i = 0; i < all.count(); i++) {
                    sb.append(' ').append(all.handle(i)).append('@').append(all.fraction(i));
                }
                cast(index, segments, s, maxFraction, mask, closest, stack);
                sb.append(" closest ").append(closest.hasHit() ? closest.handle() + "@" + closest.fraction() : "-");
                cast(index, segments, s, maxFraction, mask, any, stack);
                sb.append(" any ").append(any.hasHit());
                out.add(sb.toString());
            }
        }
        return out;
    }

    private static void cast(SpatialQueries index, double[] seg, int s, double maxFraction, long mask,
                             dev.boxwood.query.RayCastVisitor visitor, TraversalStack stack) {
        index.rayCast(seg[s], seg[s + 1], seg[s + 2], seg[s + 3], seg[s + 4], seg[s + 5], maxFraction, mask,
                visitor, stack);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldAnswerExactlyLikeTheBruteForceScanAfterARoundTrip(TestWorld input) throws IOException {
        Path file = dir.resolve(input.name + ".bxw");
        WrittenWorld written = input.write(file);
        // the objects in handle order: oracles built from them hand out the world's handles
        TestWorld world = input.inStorageOrder(written);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            mapped.verify();
            assertEquals(world.size(), mapped.size());
            assertEquals(written.originX(), mapped.originX());
            assertEquals(written.height(), mapped.height());
            assertEquals(written.nodeCount(), mapped.nodeCount());
            for (int i = 0; i < world.size(); i++) {
                assertEquals(i, written.handleOf(written.inputIndexOf(i)));
                assertEquals(input.userValues[written.inputIndexOf(i)], mapped.userValue(i));
            }
            SpatialQueries oracle = world.oracle(mapped);
            double[] a = new double[6];
            double[] b = new double[6];
            for (int i = 0; i < world.size(); i++) {
                assertEquals(world.userValues[i], mapped.userValue(i));
                assertEquals(world.categories[i], mapped.categoryBits(i));
                mapped.getTightBox(i, a);
                oracle.getTightBox(i, b);
                assertArrayEquals(b, a, "tight box " + i);
            }
            double[] queries = world.boxQueries(60, 11);
            // in a large world, segments between objects: the world's diagonal at random mostly misses a sparse one
            double[] segments = world.size() > 1000 ? world.segmentsBetweenObjects(60, 12) : world.segments(60, 12);
            TraversalStack stack = new TraversalStack(1);
            List<String> expected = answers(oracle, queries, segments, new TraversalStack());
            long rayHits = expected.stream().filter(line -> line.startsWith("ray") && !line.contains("closest -"))
                    .count();
            assertTrue(world.size() < 1000 || rayHits > 25, rayHits + " casts hit");
            assertEquals(expected, answers(mapped, queries, segments, stack));
            // the in-memory dynamic tree over the same boxes, with the same origin, answers the same
            DynamicAabbTree inMemory = DynamicAabbTree.build(TreeConfig.defaults().withOrigin(mapped.originX(),
                    mapped.originY(), mapped.originZ()), world.boxes, world.userValues, world.categories);
            assertEquals(expected, answers(inMemory, queries, segments, new TraversalStack()));
            if (world.size() > 1000) {
                assertTrue(stack.leafVisits() < (long) world.size() * queries.length / 6,
                        "the tree prunes: " + stack.leafVisits() + " leaf tests");
            }
            assertPayload(world, mapped);
        }
    }

    private static void assertPayload(TestWorld world, MappedWorld mapped) {
        byte[] expected = world.payload == null ? new byte[0] : world.payload;
        assertEquals(expected.length, mapped.payloadLength());
        byte[] actual = new byte[expected.length];
        mapped.readPayload(0, actual, 0, actual.length);
        assertArrayEquals(expected, actual);
        assertThrows(IndexOutOfBoundsException.class, () -> mapped.readPayload(1, new byte[expected.length], 0,
                expected.length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldFindExactlyTheBoxesASphereTouches(TestWorld input) throws IOException {
        Path file = dir.resolve(input.name + ".bxw");
        WrittenWorld tree = input.write(file);
        TestWorld world = input.inStorageOrder(tree);
        float[] stored = BinnedSahBuilder.toFloatBoxes(world.boxes, tree.originX(), tree.originY(), tree.originZ());
        double[] queries = world.boxQueries(40, 13);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            AllOverlaps found = new AllOverlaps();
            TraversalStack stack = new TraversalStack();
            for (int q = 0; q < queries.length; q += 6) {
                double cx = (queries[q] + queries[q + 3]) / 2;
                double cy = (queries[q + 1] + queries[q + 4]) / 2;
                double cz = (queries[q + 2] + queries[q + 5]) / 2;
                double r = (queries[q + 3] - queries[q]) / 2;
                for (long mask : MASKS) {
                    found.reset();
                    mapped.querySphere(cx, cy, cz, r, mask, found, stack);
                    found.sort();
                    List<Integer> expected = new ArrayList<>();
                    for (int i = 0; i < world.size(); i++) {
                        int o = 6 * i;
                        if ((world.categories[i] & mask) != 0 && SphereAabb.test(cx - tree.originX(),
                                cy - tree.originY(), cz - tree.originZ(), r, stored[o], stored[o + 1], stored[o + 2],
                                stored[o + 3], stored[o + 4], stored[o + 5])) {
                            expected.add(i);
                        }
                    }
                    List<Integer> actual = new ArrayList<>();
                    for (int i = 0; i < found.count(); i++) {
                        actual.add(found.handle(i));
                    }
                    assertEquals(expected, actual, "sphere " + q / 6);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("worlds")
    void shouldReadBackATreeOfOneObjectPerLeafInHandleOrder(TestWorld input) throws IOException {
        Path file = dir.resolve(input.name + ".bxw");
        TestWorld world = input.writeStored(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            FlatBvh read = mapped.readTree();
            float[] boxes = mapped.readObjectBoxes();
            assertArrayEquals(BinnedSahBuilder.toFloatBoxes(world.boxes, read.originX(), read.originY(),
                    read.originZ()), boxes);
            assertEquals(world.size(), read.objectCount());
            if (world.size() < 2) {
                return;
            }
            // every child box is the exact union below it; child A, when a node, is the next node
            int[] refs = read.childRefs();
            float[] bounds = read.childBounds();
            for (int k = 0; k < read.nodeCount(); k++) {
                for (int c = 0; c < 2; c++) {
                    int ref = refs[2 * k + c];
                    float[] below = new float[6];
                    for (int a = 0; a < 3; a++) {
                        below[a] = ref < 0 ? boxes[6 * ~ref + a]
                                : Math.min(bounds[12 * ref + a], bounds[12 * ref + 6 + a]);
                        below[3 + a] = ref < 0 ? boxes[6 * ~ref + 3 + a]
                                : Math.max(bounds[12 * ref + 3 + a], bounds[12 * ref + 9 + a]);
                    }
                    assertArrayEquals(below, Arrays.copyOfRange(bounds, 12 * k + 6 * c, 12 * k + 6 * c + 6));
                    if (c == 0 && ref >= 0) {
                        assertEquals(k + 1, ref);
                    }
                }
            }
            // depth first, child A first: the leaves are the handles in order
            int[] stack = new int[world.size() + 1];
            int sp = 0;
            stack[sp++] = 0;
            int expected = 0;
            while (sp > 0) {
                int ref = stack[--sp];
                if (ref < 0) {
                    assertEquals(expected++, ~ref, "leaf order");
                    continue;
                }
                stack[sp++] = refs[2 * ref + 1];
                stack[sp++] = refs[2 * ref];
            }
            assertEquals(world.size(), expected);
        }
    }

    @Test
    void shouldAnswerFromManyThreadsAtOnce() throws Exception {
        Path file = dir.resolve("shared.bxw");
        TestWorld world = TestWorld.clustered(30_000, 21).writeStored(file);
        double[] queries = world.boxQueries(40, 22);
        double[] segments = world.segments(40, 23);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            List<String> expected = answers(world.oracle(mapped),
                    queries, segments, new TraversalStack());
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(pool.submit(() -> answers(mapped, queries, segments, new TraversalStack())));
            }
            for (Future<List<String>> f : results) {
                assertEquals(expected, f.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void shouldLeaveNoMappingBehindAfterWritesAndCloses() throws IOException {
        Path maps = Path.of("/proc/self/maps");
        assumeTrue(Files.isReadable(maps), "needs /proc/self/maps (Linux)");
        TestWorld world = TestWorld.clustered(2_000, 41);
        Path file = dir.resolve("reopened.bxw");
        for (int w = 0; w < 5; w++) {
            world.write(file);
        }
        for (int i = 0; i < 300; i++) {
            try (MappedWorld mapped = MappedWorld.open(file)) {
                assertEquals(2_000, mapped.size());
            }
        }
        // writes cancelled half-way (a progress listener that throws) release their mapping before the temporary
        // file is deleted, or its disk space stays held until the JVM exits
        StaticWorldWriter.Progress cancel = new StaticWorldWriter.Progress() {
            @Override
            public void building(long placedObjects, long totalObjects) {
            }

            @Override
            public void writing(long writtenBytes, long totalBytes) {
                if (writtenBytes > 0 && writtenBytes < totalBytes) {
                    throw new IllegalStateException("cancelled");
                }
            }
        };
        for (int w = 0; w < 5; w++) {
            assertThrows(IllegalStateException.class, () -> StaticWorldWriter.write(dir.resolve("cancelled.bxw"),
                    world.boxes, null, null, new byte[4 << 20], cancel));
        }
        String name = dir.getFileName().toString();
        long left = Files.readAllLines(maps).stream().filter(line -> line.contains(name)).count();
        // a streaming server maps tiles in and out all day: one leaked mapping per open would end at the kernel's
        // limit on mappings (65530 by default)
        assertEquals(0, left, "mappings of the world files still present after close");
    }

    @Test
    void shouldHoldNoFileDescriptorWhileMapped() throws IOException {
        // a tiled world maps tiles under a byte budget: one descriptor kept per mapped world ran a process out of
        // descriptors (the usual limit of 1024) with about a thousand small tiles mapped
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "Linux's /proc/self/fd");
        TestWorld world = TestWorld.clustered(200, 33);
        Path file = dir.resolve("descriptors.bxw");
        world.write(file);
        List<MappedWorld> open = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                open.add(MappedWorld.open(file));
            }
            assertEquals(0, descriptorsOf(fds, file), "descriptors of the mapped file");
            long categorised = Arrays.stream(world.categories).filter(c -> c != 0).count();
            double[] box = new double[6];
            for (MappedWorld mapped : open) {
                mapped.getBounds(box);
                AllOverlaps all = new AllOverlaps();
                mapped.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], -1L, all,
                        new dev.boxwood.query.TraversalStack());
                assertEquals(categorised, all.count(), "the mapping answers without its descriptor");
                mapped.verify();
            }
        } finally {
            for (MappedWorld mapped : open) {
                mapped.close();
            }
        }
        assertEquals(0, descriptorsOf(fds, file));
    }

    private static long descriptorsOf(Path fds, Path file) throws IOException {
        Path target = file.toRealPath();
        long count = 0;
        try (Stream<Path> links = Files.list(fds)) {
            for (Path link : (Iterable<Path>) links::iterator) {
                try {
                    count += Files.readSymbolicLink(link).equals(target) ? 1 : 0;
                } catch (IOException e) {
                    // a descriptor closed while listing
                }
            }
        }
        return count;
    }

    @Test
    void shouldRefuseUseAfterCloseWithIllegalState() throws IOException {
        TestWorld world = TestWorld.clustered(100, 31);
        Path file = dir.resolve("closed.bxw");
        world.write(file);
        MappedWorld mapped = MappedWorld.open(file);
        mapped.close();
        mapped.close();
        assertTrue(mapped.isClosed());
        AllOverlaps sink = new AllOverlaps();
        TraversalStack stack = new TraversalStack();
        assertThrows(IllegalStateException.class, () -> mapped.queryAabb(0, 0, 0, 1, 1, 1, -1L, sink, stack));
        assertThrows(IllegalStateException.class, () -> mapped.rayCast(0, 0, 0, 1, 1, 1, 1, -1L, new AllHits(),
                stack));
        assertThrows(IllegalStateException.class, () -> mapped.querySphere(0, 0, 0, 1, -1L, sink, stack));
        assertThrows(IllegalStateException.class, () -> mapped.userValue(0));
        assertThrows(IllegalStateException.class, () -> mapped.getTightBox(0, new double[6]));
        assertThrows(IllegalStateException.class, mapped::verify);
        assertThrows(IllegalStateException.class, () -> mapped.readPayload(0, new byte[1], 0, 1));
    }

    @Test
    void shouldRejectInvalidArgumentsNamingThem() throws IOException {
        TestWorld world = TestWorld.clustered(100, 41);
        Path file = dir.resolve("args.bxw");
        world.write(file);
        try (MappedWorld mapped = MappedWorld.open(file)) {
            AllOverlaps sink = new AllOverlaps();
            TraversalStack stack = new TraversalStack();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> mapped.queryAabb(Double.NaN, 0, 0, 1, 1, 1, -1L, sink, stack));
            assertTrue(e.getMessage().contains("minX"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> mapped.querySphere(0, 0, 0, -1, -1L, sink, stack));
            assertTrue(e.getMessage().contains("radius"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> mapped.rayCast(0, 0, 0, 1, 1, Double.POSITIVE_INFINITY, 1, -1L, new AllHits(), stack));
            assertTrue(e.getMessage().contains("translationZ"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> mapped.userValue(100));
            assertThrows(IllegalArgumentException.class, () -> mapped.categoryBits(-1));
            assertFalse(mapped.contains(100));
            double[] shortDest = new double[5];
            e = assertThrows(IllegalArgumentException.class, () -> mapped.getBounds(shortDest));
            assertTrue(e.getMessage().contains("dest"), e.getMessage());
            assertArrayEquals(new double[5], shortDest, "nothing written");
            assertThrows(IllegalArgumentException.class, () -> mapped.getBounds(null));
        }
        assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, new double[] {0, 0, 0, 1, 1, 1}, null, new long[2], null));
    }

    @Test
    void shouldRejectATreeWhoseBoxesAreNotTheUnionsOfItsObjectsAndLeaveTheTargetUntouched() throws IOException {
        // 12 half-unit boxes along x: more than one leaf, so the stored tree has internal nodes
        float[] boxes = new float[6 * 12];
        for (int i = 0; i < 12; i++) {
            boxes[6 * i] = i;
            boxes[6 * i + 3] = i + 0.5f;
            boxes[6 * i + 4] = 1;
            boxes[6 * i + 5] = 1;
        }
        FlatBvh good = BinnedSahBuilder.defaults().build(boxes, 0, 0, 0);
        Path file = dir.resolve("tree.bxw");
        StaticWorldWriter.write(file, good, boxes, null, null, null);
        byte[] before = Files.readAllBytes(file);

        // root bounds that miss objects 5 to 11 (FlatBvh.of does not check boxes)
        FlatBvh shortRoot = FlatBvh.of(12, 0, 0, 0, good.childBounds().clone(), good.childRefs().clone(),
                new float[] {0, 0, 0, 5, 1, 1});
        assertRejectedTree(file, before, shortRoot, boxes, "the root bounds must contain every box below");

        // an internal node's box, shrunk so that it misses the last object below it
        int[] refs = good.childRefs();
        int k = 0;
        int c = refs[0] >= 0 ? 0 : 1;
        assertTrue(refs[c] >= 0, "a root child over more than one object is an internal node");
        float[] shrunk = good.childBounds().clone();
        shrunk[12 * k + 6 * c + 3] -= 0.25f;
        FlatBvh shrunkNode = FlatBvh.of(12, 0, 0, 0, shrunk, refs.clone(), good.rootBounds().clone());
        assertRejectedTree(file, before, shrunkNode, boxes, "child " + c + " of node " + k + " (node " + refs[c]
                + ") must contain every box below");

        // a box that still contains its objects but is not their union: its quantized codes would not be the
        // writer's, and the file would fail verify()
        float[] grown = good.childBounds().clone();
        grown[12 * k + 6 * c + 4] += 1;
        FlatBvh grownNode = FlatBvh.of(12, 0, 0, 0, grown, refs.clone(), good.rootBounds().clone());
        assertRejectedTree(file, before, grownNode, boxes, "child " + c + " of node " + k + " (node " + refs[c]
                + ") must be the exact union");

        try (MappedWorld mapped = MappedWorld.open(file)) {
            mapped.verify();
            AllOverlaps overlaps = new AllOverlaps();
            mapped.queryAabb(10.1, 0.1, 0.1, 10.2, 0.2, 0.2, -1L, overlaps, new TraversalStack());
            assertEquals(1, overlaps.count());
            assertEquals(10, overlaps.userValue(0));
        }
    }

    @Test
    void shouldRejectObjectBoxesThatNoReaderAccepts() throws IOException {
        Path file = dir.resolve("box.bxw");
        // one object, so the tree is its box and agrees with it: only the box itself is wrong (the first is finite
        // but beyond the float storage range every index keeps, the second would not even open)
        float[][] bad = {{0, 0, 0, 1e30f, 1, 1}, {1, 0, 0, 0, 1, 1}, {0, Float.NaN, 0, 1, 1, 1}};
        String[] named = {"reaches more than " + OutwardFloat.MAX_OFFSET + " from the origin on axis x (the float "
            + "storage range): minX = 0.0, maxX = 1.0E30", "is inverted on axis x: minX = 1.0 > maxX = 0.0",
            "has a NaN bound on axis y: minY = NaN, maxY = 1.0"};
        for (int t = 0; t < bad.length; t++) {
            float[] box = bad[t];
            FlatBvh single = FlatBvh.of(1, 0, 0, 0, new float[0], new int[0], box.clone());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> StaticWorldWriter.write(file, single, box, null, null, null));
            assertTrue(e.getMessage().contains("objectBoxes: box 0 " + named[t]), e.getMessage());
            assertFalse(Files.exists(file), "nothing written");
        }
    }

    @Test
    void shouldKeepAnEmptyWorldsRootBoundsZero() throws IOException {
        Path file = dir.resolve("empty.bxw");
        FlatBvh empty = FlatBvh.of(0, 0, 0, 0, new float[0], new int[0], new float[] {0, 0, 0, 0, 0, 1});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, empty, new float[0], null, null, null));
        assertTrue(e.getMessage().contains("an empty tree's root bounds must be zeros; coordinate 5"), e.getMessage());
        assertFalse(Files.exists(file), "nothing written");
        // the same header from a hand-made file (its checksum resealed): the reader refuses it too
        StaticWorldWriter.write(file, FlatBvh.of(0, 0, 0, 0, new float[0], new int[0], new float[6]), new float[0],
                null, null, null);
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int a = 0; a < 6; a++) {
            assertEquals(0f, b.getFloat(WorldLayout.ROOT_BOUNDS_OFFSET + 4 * a), "the writer stores zeros");
        }
        b.putFloat(WorldLayout.ROOT_BOUNDS_OFFSET + 8, -3f);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, WorldLayout.HEADER_CRC_OFFSET);
        b.putInt(WorldLayout.HEADER_CRC_OFFSET, (int) crc.getValue());
        Path forged = dir.resolve("forged.bxw");
        Files.write(forged, bytes);
        CorruptWorldFileException c = assertThrows(CorruptWorldFileException.class, () -> MappedWorld.open(forged));
        assertTrue(c.getMessage().contains("root bounds of an empty world are not zeros: coordinate 2 is -3.0"),
                c.getMessage());
    }

    private void assertRejectedTree(Path file, byte[] before, FlatBvh tree, float[] boxes, String named)
            throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.write(file, tree, boxes, null, null, null));
        assertTrue(e.getMessage().contains(named), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file), "the target is untouched");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList(), "no temporary file is left");
        }
    }

    @Test
    void shouldNameTheGivenPathWhenItsDirectoryIsMissingOrItIsADirectory() throws IOException, InterruptedException {
        double[] boxes = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
        Path missing = dir.resolve("no-such-dir").resolve("w.bxw");
        // every entry point fails before any work, naming the given path and its missing directory
        FlatBvh tree = BinnedSahBuilder.defaults().build(boxes);
        float[] stored = BinnedSahBuilder.toFloatBoxes(boxes, tree.originX(), tree.originY(), tree.originZ());
        List<Executable> writes = List.of(
                () -> StaticWorldWriter.write(missing, boxes, null, null, null),
                () -> StaticWorldWriter.write(missing, BoxSource.of(boxes), null, null, null, null),
                () -> StaticWorldWriter.write(missing, tree, stored, null, null, null),
                () -> TileSetWriter.writeGrid(missing.getParent(), "t", boxes, null, null, 1.0));
        for (Executable write : writes) {
            NoSuchFileException e = assertThrows(NoSuchFileException.class, write);
            assertTrue(e.getMessage().contains("no-such-dir"), e.getMessage());
            assertFalse(e.getMessage().contains(".tmp-"), e.getMessage());
        }
        Path directory = Files.createDirectory(dir.resolve("a-directory.bxw"));
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> StaticWorldWriter.write(directory, boxes, null, null, null));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
        e = assertThrows(FileSystemException.class, () -> MappedWorld.open(directory));
        assertTrue(e.getMessage().contains("a-directory.bxw") && e.getMessage().contains("is a directory"),
                e.getMessage());
        e = assertThrows(FileSystemException.class, () -> TiledWorld.open(List.of(directory), 0));
        assertTrue(e.getMessage().contains("a-directory.bxw") && e.getMessage().contains("is a directory"),
                e.getMessage());
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        e = assertThrows(FileSystemException.class,
                () -> StaticWorldWriter.write(file.resolve("w.bxw"), boxes, null, null, null));
        assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
        e = assertThrows(FileSystemException.class, () -> TileSetWriter.writeGrid(file, "t", boxes, null, null, 1));
        assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
        // a symbolic link, or a pipe, at the target: the rename would replace it, not write through it
        Path link = Files.createSymbolicLink(dir.resolve("link.bxw"), file);
        e = assertThrows(FileSystemException.class, () -> StaticWorldWriter.write(link, boxes, null, null, null));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("x", Files.readString(file), "the link's target untouched");
        Path pipe = dir.resolve("pipe.bxw");
        boolean piped = new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor() == 0 && Files.exists(pipe);
        if (piped) {
            e = assertThrows(FileSystemException.class, () -> StaticWorldWriter.write(pipe, boxes, null, null, null));
            assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
            assertFalse(Files.isRegularFile(pipe), "the pipe is still a pipe");
            Files.delete(pipe);
        }
        Files.delete(link);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "nothing written");
        }
        // a target name near the usual 255-byte limit leaves room for the temporary file's name
        Path longName = dir.resolve("w".repeat(240) + ".bxw");
        StaticWorldWriter.write(longName, boxes, null, null, null);
        try (MappedWorld mapped = MappedWorld.open(longName)) {
            assertEquals(2, mapped.size());
        }
        Files.delete(longName);
        // cut to 64 chars for the temporary name, a name with a surrogate pair across the cut keeps the pair whole
        String straddling = "a".repeat(63) + "\uD83D\uDE00" + ".bxw";
        Path pairName = null;
        try {
            pairName = dir.resolve(straddling);
            Files.delete(Files.writeString(pairName, "probe"));
        } catch (InvalidPathException | IOException unencodable) {
            pairName = null; // the file system's name encoding cannot hold the character at all
        }
        if (pairName != null) {
            StaticWorldWriter.write(pairName, boxes, null, null, null);
            try (MappedWorld mapped = MappedWorld.open(pairName)) {
                assertEquals(2, mapped.size());
            }
            Files.delete(pairName);
        }
        // a tile set whose second tile's target is a directory writes no tile at all
        Path tiles = Files.createDirectory(dir.resolve("tiles"));
        Files.createDirectory(tiles.resolve("t_1_0_0.bxw"));
        double[] twoCells = {0, 0, 0, 1, 1, 1, 3, 0, 0, 4, 1, 1};
        e = assertThrows(FileSystemException.class, () -> TileSetWriter.writeGrid(tiles, "t", twoCells, null, null,
                2.0));
        assertTrue(e.getMessage().contains("t_1_0_0.bxw"), e.getMessage());
        try (Stream<Path> files = Files.list(tiles)) {
            assertEquals(1, files.count(), "no tile written");
        }
    }

    @Test
    void shouldWindowSelectBoxesFlushWithTheWindowInAWholeMetreWorldFarFromTheOrigin() throws IOException {
        // whole-metre boxes 10,000 km out; the bounds (two fractional boxes) put their centre off the metre grid,
        // which the writer's origin rounds back onto it, so the stored floats are the given boxes exactly
        SplittableRandom random = new SplittableRandom(71);
        double[] boxes = new double[6 * 500];
        Arrays.fill(boxes, 0, 6, 1e7 - 0.37);
        Arrays.fill(boxes, 6, 12, 1e7 + 20_004.61);
        for (int i = 12; i < boxes.length; i += 6) {
            for (int a = 0; a < 3; a++) {
                boxes[i + a] = 1e7 + random.nextInt(20_000);
                boxes[i + 3 + a] = boxes[i + a] + random.nextInt(0, 4);
            }
        }
        Path file = dir.resolve("metres.bxw");
        WrittenWorld written = StaticWorldWriter.write(file, boxes, null, null, null);
        AllOverlaps found = new AllOverlaps();
        TraversalStack stack = new TraversalStack();
        try (MappedWorld mapped = MappedWorld.open(file)) {
            for (int i = 2; i < boxes.length / 6; i++) {
                int b = 6 * i;
                found.reset();
                mapped.queryBox(boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4], boxes[b + 5],
                        RegionMode.WINDOW, -1L, null, found, stack);
                boolean selected = false;
                for (int k = 0; k < found.count(); k++) {
                    selected |= found.handle(k) == written.handleOf(i);
                }
                assertTrue(selected, "box " + i + " flush with its window");
            }
        }
    }

    @Test
    void shouldReplaceAnOpenWorldAtomicallyAndLeaveNoTemporaryFile() throws IOException {
        Path file = dir.resolve("replaced.bxw");
        TestWorld first = TestWorld.clustered(500, 51);
        TestWorld second = TestWorld.clustered(700, 52);
        WrittenWorld firstWritten = first.write(file);
        try (MappedWorld old = MappedWorld.open(file)) {
            second.write(file);
            // the old mapping keeps the old file's contents; a new open sees the new file
            assertEquals(500, old.size());
            assertEquals(first.userValues[499], old.userValue(firstWritten.handleOf(499)));
            old.verify();
            try (MappedWorld fresh = MappedWorld.open(file)) {
                assertEquals(700, fresh.size());
                fresh.verify();
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }

    @Test
    void shouldStoreAtMost48BytesPerObject() throws IOException {
        // 100k clustered objects, 8 distinct category values, distinct user values
        TestWorld world = TestWorld.clustered(100_000, 61);
        long[] categories = new long[world.size()];
        SplittableRandom r = new SplittableRandom(62);
        for (int i = 0; i < categories.length; i++) {
            categories[i] = 1L << (8 * r.nextInt(8));
        }
        Path file = dir.resolve("size.bxw");
        WrittenWorld written = StaticWorldWriter.write(file, world.boxes, world.userValues, categories, null);
        double perObject = (double) Files.size(file) / world.size();
        assertTrue(perObject <= 48.0, perObject + " bytes per object, average leaf " + written.averageLeafSize());
        assertEquals(Files.size(file), written.fileLength());
        try (MappedWorld mapped = MappedWorld.open(file)) {
            assertEquals(8, mapped.paletteSize());
            assertEquals(written.leafCount(), mapped.leafCount());
            // the formula of docs/format.md: 24 + 2 + 8 bytes per object and 40 per internal node, plus the header,
            // the palette and at most 5 gaps of alignment
            long formula = WorldLayout.HEADER_SIZE + 34L * world.size() + 40L * mapped.nodeCount() + 8 * 8;
            assertTrue(Files.size(file) >= formula && Files.size(file) < formula + 5 * 64, Files.size(file) + " vs "
                    + formula);
            mapped.verify();
        }
    }
}
