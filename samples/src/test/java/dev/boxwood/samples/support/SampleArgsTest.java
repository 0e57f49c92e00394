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
}
