package dev.boxwood.samples.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleArgsTest {

    @TempDir
    Path dir;

    @Test
    void shouldTakeOneFolderAndTheQuickFlagInAnyOrder() {
        Path out = dir.resolve("out");
        SampleArgs a = SampleArgs.parse(new String[] {out.toString(), "--quick"});
        assertEquals(out, a.out());
        assertTrue(a.quick());
        assertTrue(Files.isDirectory(out), "the folder is created");
    }

    @Test
    void shouldRejectUnknownOptionsAndASecondFolderWithoutCreatingAnything() {
        for (String[] bad : new String[][] {{"-h"}, {"--help"}, {"-quick", dir.resolve("x").toString()},
            {dir.resolve("a").toString(), dir.resolve("b").toString()}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SampleArgs.parse(bad));
            assertTrue(e.getMessage().contains("expected: [--quick] [folder]"), e.getMessage());
        }
        assertTrue(!Files.exists(dir.resolve("a")) && !Files.exists(dir.resolve("x")), "nothing created");
    }

    @Test
    void shouldRejectAFolderThatIsAFile() throws java.io.IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SampleArgs.parse(new String[] {file.toString()}));
        assertTrue(e.getMessage().contains("is a file"), e.getMessage());
        assertEquals("x", Files.readString(file));
    }
}
