package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import net.openhft.chronicle.core.io.AbstractReferenceCounted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MappedWorld#open} while a writer replaces the file by renaming new versions over it, as
 * {@link StaticWorldWriter} does: each open maps one whole version, with that version's header. Before, the size,
 * the header and the mapping were each taken from the path, so an open could validate one version's header and map
 * another: valid files reported corrupt, and a shorter version read past its end (an {@link InternalError} for the
 * fault, or a crash).
 */
class OpenDuringReplaceTest {

    private static final Path MAPS = Path.of("/proc/self/maps");

    @TempDir
    Path dir;

    @Test
    void shouldMapOneWholeVersionWhileRenamesReplaceTheFile() throws Exception {
        AbstractReferenceCounted.enableReferenceTracing();
        Path big = dir.resolve("big.world");
        Path small = dir.resolve("small.world");
        TestWorld.clustered(3000, 5).write(big);
        TestWorld.clustered(20, 6).write(small);
        Path file = dir.resolve("level.world");
        Files.copy(small, file);
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; !stop.get(); i++) {
                    Path next = dir.resolve("next-" + i);
                    Files.createLink(next, (i & 1) == 0 ? big : small);
                    Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        List<String> failures = new ArrayList<>();
        int opened = 0;
        try {
            long end = System.nanoTime() + 2_000_000_000L;
            while (System.nanoTime() < end && failures.size() < 5) {
                try (MappedWorld world = MappedWorld.open(file)) {
                    opened++;
                    assertTrue(Set.of(3000, 20).contains(world.size()), "objects: " + world.size());
                    world.verify();
                } catch (IOException | RuntimeException | InternalError e) {
                    failures.add(e.toString());
                }
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertEquals(List.of(), failures, "opens of a valid file replaced by renames failed (" + opened + " opened)");
        assertTrue(opened > 10, "opened " + opened);
        if (Files.isReadable(MAPS)) {
            assertEquals(0, Files.readAllLines(MAPS).stream().filter(line -> line.contains(dir.toString())).count(),
                    "mappings left behind");
        }
        AbstractReferenceCounted.assertReferencesReleased();
    }
}
