package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM started without the options of {@code serialization/chronicle.args}: writing, opening and querying a tiled
 * world fail with an {@link IllegalStateException} naming the missing options and the file, not with Chronicle's raw
 * {@link AssertionError}. Run in child JVMs, since this one has the options.
 */
class JvmFlagsTest {

    private static final String REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    private static final String NIO = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";

    @TempDir
    Path dir;

    @Test
    void shouldNameTheMissingOptionsWhenAJvmWithoutThemWritesOrMapsAWorld() throws Exception {
        Path existing = dir.resolve("existing.bxw");
        StaticWorldWriter.write(existing, new double[] {0, 0, 0, 1, 1, 1}, null, null, null);
        Path target = dir.resolve("new.bxw");
        List<String> lines = run(arg -> false, target, existing, "write", "open", "tiled");
        assertEquals(3, lines.size(), lines.toString());
        for (String line : lines) {
            String step = line.substring(0, line.indexOf(' '));
            Path file = step.equals("write") ? target : existing;
            assertTrue(line.startsWith(step + " java.lang.IllegalStateException " + file + ": "), line);
            assertTrue(line.contains("start the JVM with the options of serialization/chronicle.args")
                    && line.contains("serialization/chronicle-jdk23.args") && line.contains(REFLECT)
                    && line.contains(NIO), line);
        }
        // the failed write left the directory as it was
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(existing.getFileName().toString()), files.map(p -> p.getFileName().toString())
                    .filter(name -> !name.endsWith(".stderr")).collect(Collectors.toList()));
        }
    }

    @Test
    void shouldNameOnlyTheOptionThatIsMissing() throws Exception {
        // without this export Chronicle fails differently (an IllegalAccessError inside its own I/O exception)
        Path existing = dir.resolve("existing.bxw");
        StaticWorldWriter.write(existing, new double[] {0, 0, 0, 1, 1, 1}, null, null, null);
        List<String> lines = run(arg -> arg.startsWith("--add-") || arg.startsWith("--enable-native-access"),
                dir.resolve("new.bxw"), existing, "open");
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.get(0);
        assertTrue(line.startsWith("open java.lang.IllegalStateException " + existing + ": ")
                && line.endsWith("missing here: " + NIO), line);
        assertFalse(line.contains(REFLECT), line);
    }

    @Test
    void shouldListTheModuleOptionsOfTheArgumentFile() throws IOException {
        // the surefire working directory is the module's
        List<String> file = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("chronicle.args"))) {
            if (line.startsWith("--add-opens") || line.startsWith("--add-exports")) {
                file.add(line.trim());
            }
        }
        List<String> listed = new ArrayList<>();
        for (String[] option : JvmFlags.MODULE_OPTIONS) {
            listed.add(option[0] + "=" + option[1] + "/" + option[2] + "=ALL-UNNAMED");
        }
        assertEquals(file, listed);
        // this JVM runs with them (the build passes the same options)
        assertEquals(List.of(), JvmFlags.missingOptions());
    }

    @Test
    void shouldLeaveOtherFailuresAlone() {
        Path file = dir.resolve("world.bxw");
        JvmFlags.requireFor(new AssertionError("something else"), file);
        JvmFlags.requireFor(new IllegalStateException(new IOException("disk")), file);
        AssertionError denied = new AssertionError(new IllegalAccessException("member is private: map0"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JvmFlags.requireFor(denied, file));
        assertSame(denied, e.getCause());
        assertTrue(e.getMessage().startsWith(file + ": ") && e.getMessage().contains("serialization/chronicle.args"),
                e.getMessage());
    }

    /**
     * Runs {@link MissingFlagsProcess} in a JVM with this one's class path and those of its options that
     * {@code keep} accepts, but never the export of {@code sun.nio.ch}; returns its output lines.
     */
    private List<String> run(Predicate<String> keep, Path target, Path existing, String... steps)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (keep.test(arg) && !arg.equals(NIO)) {
                command.add(arg);
            }
        }
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MissingFlagsProcess.class.getName());
        command.add(target.toString());
        command.add(existing.toString());
        command.addAll(Arrays.asList(steps));
        Path log = dir.resolve("child.stderr");
        Process child = new ProcessBuilder(command).redirectError(log.toFile()).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not end");
        assertEquals(0, child.exitValue(), () -> "the child failed: " + read(log));
        return out.lines().collect(Collectors.toList());
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
