package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer process killed at a random moment during a write never leaves a broken world under the target name:
 * the target still opens and verifies, and holds the last world written completely (or the one being written,
 * if the kill came after its rename).
 */
class CrashSafetyTest {

    @TempDir
    Path dir;

    @Test
    void shouldKeepThePreviousWorldWhenTheWriterIsKilledMidWrite() throws Exception {
        killWritersMidWrite(40_000, 2, 0xC0FFEEL);
    }

    @Tag("long")
    @Test
    void shouldKeepThePreviousWorldWhenAWriterOfABigWorldIsKilledMidWrite() throws Exception {
        killWritersMidWrite(3_000_000, 10, 0xBEEFL);
    }

    private void killWritersMidWrite(int objects, int rounds, long seed) throws Exception {
        Path worlds = Files.createDirectory(dir.resolve("worlds"));
        Path target = worlds.resolve("world.bxw");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < rounds; round++) {
            Path log = dir.resolve("writer-" + round + ".stderr");
            Process child = startWriter(target, objects, random.nextLong(), log);
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            // time the first complete write, then kill the process somewhere inside the second one
            expectLine(out, "writing 0", log);
            long start = System.nanoTime();
            expectLine(out, "wrote 0", log);
            long duration = System.nanoTime() - start;
            expectLine(out, "writing 1", log);
            TimeUnit.NANOSECONDS.sleep((long) (random.nextDouble() * 1.1 * duration));
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the writer died");
            try (MappedWorld world = MappedWorld.open(target)) {
                world.verify();
                assertEquals(objects, world.size());
                // a complete world of the child (world 0, or a later one if the kill came after a rename)
                assertEquals(1, world.payloadLength());
            }
            try (Stream<Path> files = Files.list(worlds)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    if (!p.equals(target)) {
                        assertTrue(p.getFileName().toString().startsWith(".world.bxw.tmp-"), "stray " + p);
                        Files.delete(p);
                    }
                }
            }
            Files.delete(target);
        }
    }

    private static void expectLine(BufferedReader out, String expected, Path log) throws IOException {
        String line = out.readLine();
        assertEquals(expected, line, () -> "the writer failed: " + read(log));
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** A child JVM with this JVM's class path and its module-access flags (which Chronicle Bytes needs). */
    private static Process startWriter(Path target, int objects, long seed, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("--enable-native-access")
                    || arg.startsWith("--sun-misc-unsafe-memory-access") || arg.startsWith("-Dchronicle.")
                    || arg.startsWith("-Ddisable.")) {
                command.add(arg);
            }
        }
        command.add("-Xmx1g");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(WriterProcess.class.getName());
        command.add(target.toString());
        command.add(Integer.toString(objects));
        command.add(Long.toString(seed));
        return new ProcessBuilder(command).redirectError(log.toFile()).start();
    }
}
