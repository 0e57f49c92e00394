package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import dev.boxwood.testkit.scenes.SyntheticWorld;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writing to a full file system: a clear {@link IOException}, the previous file kept, no temporary file left. Runs
 * where a small tmpfs can be mounted (as root on Linux), and is skipped elsewhere.
 */
@ExtendWith(TracedReferences.class)
class DiskFullTest {

    private static final long FILE_SYSTEM_BYTES = 4L << 20;

    @TempDir
    Path temp;

    private Path small;
    private boolean mounted;

    @BeforeEach
    void mountASmallFileSystem() throws IOException, InterruptedException {
        small = Files.createDirectory(temp.resolve("small"));
        mounted = run("mount", "-t", "tmpfs", "-o", "size=" + FILE_SYSTEM_BYTES, "tmpfs", small.toString());
        assumeTrue(mounted, "a tmpfs can be mounted here (Linux, as root)");
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        // a mount is undone even when a test failed; a busy one is detached lazily, so the directory can go
        if (mounted && !run("umount", small.toString())) {
            assertTrue(run("umount", "-l", small.toString()), "unmounted");
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return false; // no such command
        }
        p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return false;
        }
        return p.exitValue() == 0;
    }

    @Test
    void shouldRefuseAWorldWithoutRoomBeforeWritingIt() throws IOException {
        Path target = small.resolve("world.bxw");
        StaticWorldWriter.write(target, SyntheticWorld.clustered(100, 1).boxes().toInterleaved(), null, null, null);
        byte[] before = Files.readAllBytes(target);
        // about 8 MB of world on a 4 MB file system
        double[] big = SyntheticWorld.clustered(200_000, 2).boxes().toInterleaved();
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> StaticWorldWriter.write(target, big, null, null, null));
        assertTrue(e.getMessage().contains("not enough space") && e.getMessage().contains(small.toString()),
                e.getMessage());
        assertKept(target, before);
    }

    @Test
    void shouldReportADiskThatFillsUpDuringTheWriteAsAnIOException() throws IOException {
        Path target = small.resolve("world.bxw");
        StaticWorldWriter.write(target, SyntheticWorld.clustered(100, 1).boxes().toInterleaved(), null, null, null);
        byte[] before = Files.readAllBytes(target);
        // about 2 MB of world, which fits; once the first bytes are out another writer takes the rest of the space
        double[] boxes = SyntheticWorld.clustered(50_000, 3).boxes().toInterleaved();
        Path filler = small.resolve("filler");
        StaticWorldWriter.Progress fillUp = new StaticWorldWriter.Progress() {
            @Override
            public void building(long placedObjects, long totalObjects) {
            }

            @Override
            public void writing(long writtenBytes, long totalBytes) {
                if (!Files.exists(filler)) {
                    fill(filler);
                }
            }
        };
        IOException e = assertThrows(IOException.class,
                () -> StaticWorldWriter.write(target, boxes, null, null, null, fillUp));
        assertTrue(e.getMessage().contains(".world.bxw.tmp-") && e.getMessage().contains("no space left"),
                e.getMessage());
        Files.delete(filler);
        assertKept(target, before);
    }

    @Test
    void shouldRefuseADirectoryThatCannotBeWrittenBeforeAnyWork() throws IOException, InterruptedException {
        Path target = small.resolve("world.bxw");
        StaticWorldWriter.write(target, SyntheticWorld.clustered(100, 1).boxes().toInterleaved(), null, null, null);
        byte[] before = Files.readAllBytes(target);
        assumeTrue(run("mount", "-o", "remount,ro", small.toString()), "the file system can be made read-only");
        double[] boxes = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
        // the build of a large world takes minutes: the directory must be refused before the source is read
        BoxSource unread = new BoxSource() {
            @Override
            public int size() {
                return 2;
            }

            @Override
            public void read(int first, int count, double[] dest) {
                fail("the source is read before the directory is checked");
            }
        };
        List<Executable> writes = List.of(
                () -> StaticWorldWriter.write(target, boxes, null, null, null),
                () -> StaticWorldWriter.write(target, unread, null, null, null, null),
                () -> TileSetWriter.writeGrid(small, "t", boxes, null, null, 1.0));
        for (Executable write : writes) {
            AccessDeniedException e = assertThrows(AccessDeniedException.class, write);
            assertTrue(e.getMessage().contains(small.toString()) && e.getMessage().contains("not writable"),
                    e.getMessage());
            assertFalse(e.getMessage().contains(".tmp-"), "names the given path: " + e.getMessage());
        }
        assertKept(target, before);
    }

    /** Writes zeros to {@code file} until the file system is full. */
    private static void fill(Path file) {
        byte[] zeros = new byte[64 << 10];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(zeros);
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) {
                throw new UncheckedIOException(full);
            }
        }
    }

    private void assertKept(Path target, byte[] before) throws IOException {
        assertArrayEquals(before, Files.readAllBytes(target), "the previous file is kept");
        try (Stream<Path> files = Files.list(small)) {
            assertEquals(List.of(target), files.toList(), "no temporary file is left");
        }
        try (MappedWorld world = MappedWorld.open(target)) {
            world.verify();
            assertEquals(100, world.size());
        }
    }
}
