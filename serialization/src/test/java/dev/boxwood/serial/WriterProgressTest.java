package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link StaticWorldWriter.Progress}: a listener overrides only the phase it reports, or is made from a lambda. */
class WriterProgressTest {

    @TempDir
    Path dir;

    private final TestWorld world = TestWorld.clustered(5_000, 3);

    @Test
    void shouldReportTheWritingToAnAnonymousClassOverridingOnlyIt() throws IOException {
        Path file = dir.resolve("world.bxw");
        List<long[]> calls = new ArrayList<>();
        StaticWorldWriter.write(file, world.boxes, null, null, null, new StaticWorldWriter.Progress() {
            @Override
            public void writing(long writtenBytes, long totalBytes) {
                calls.add(new long[] {writtenBytes, totalBytes});
            }
        });
        assertWholeFileReported(file, calls);
    }

    @Test
    void shouldReportTheWritingToALambda() throws IOException {
        Path file = dir.resolve("world.bxw");
        List<long[]> calls = new ArrayList<>();
        StaticWorldWriter.write(file, world.boxes, null, null, null,
                StaticWorldWriter.Progress.onWriting((written, total) -> calls.add(new long[] {written, total})));
        assertWholeFileReported(file, calls);
    }

    @Test
    void shouldReportTheBuildToALambda() throws IOException {
        // build calls may come from several pool threads at once
        AtomicLong placed = new AtomicLong();
        AtomicLong total = new AtomicLong();
        StaticWorldWriter.write(dir.resolve("world.bxw"), world.boxes, null, null, null,
                StaticWorldWriter.Progress.onBuilding((done, all) -> {
                    placed.accumulateAndGet(done, Math::max);
                    total.set(all);
                }));
        assertEquals(world.size(), placed.get());
        assertEquals(world.size(), total.get());
    }

    @Test
    void shouldRefuseANullListener() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StaticWorldWriter.Progress.onWriting(null));
        assertTrue(e.getMessage().contains("listener"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> StaticWorldWriter.Progress.onBuilding(null));
        assertTrue(e.getMessage().contains("listener"), e.getMessage());
    }

    /** The bytes written grow to the file's length, which the last call reports whole. */
    private static void assertWholeFileReported(Path file, List<long[]> calls) throws IOException {
        assertTrue(calls.size() >= 2, calls.size() + " calls");
        long length = Files.size(file);
        long previous = 0;
        for (long[] call : calls) {
            assertTrue(call[0] >= previous && call[0] <= call[1], call[0] + " of " + call[1]);
            assertEquals(length, call[1]);
            previous = call[0];
        }
        assertEquals(length, calls.get(calls.size() - 1)[0]);
    }
}
