package dev.boxwood.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.LevelScenes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorldToolTest {

    @TempDir
    Path dir;

    private String out;
    private String err;

    private int run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = WorldTool.run(new PrintWriter(o, true), new PrintWriter(e, true), args);
        out = o.toString();
        err = e.toString();
        return code;
    }

    private Path writeLevel() throws IOException {
        BoxSet level = LevelScenes.load(LevelScenes.Level.BOUNDS01);
        StringBuilder text = new StringBuilder("# bounds01\n");
        for (int i = 0; i < level.size(); i++) {
            text.append(String.format(Locale.ROOT, "%s %s %s %s %s %s %d %d%n", level.minX[i], level.minY[i],
                    level.minZ[i], level.maxX[i], level.maxY[i], level.maxZ[i], 1L << (i % 3), 1000 + i));
        }
        Path input = dir.resolve("level.txt");
        Files.writeString(input, text);
        return input;
    }

    /** The level built into {@code level.bxw} by the tool, from {@link #writeLevel()}'s {@code level.txt}. */
    private Path buildLevel() throws IOException {
        Path world = dir.resolve("level.bxw");
        assertEquals(0, run("build", writeLevel().toString(), world.toString()), err);
        return world;
    }

    @Test
    void shouldBuildInspectVerifyAndQueryAWorld() throws IOException {
        Path world = buildLevel();
        int objects = LevelScenes.load(LevelScenes.Level.BOUNDS01).size();
        assertTrue(out.startsWith(objects + " objects"), out);
        assertEquals(0, run("info", world.toString()), err);
        assertTrue(out.contains("objects     " + objects), out);
        assertTrue(out.contains("format      version 2"), out);
        assertTrue(out.contains("objects per leaf") && out.contains("palette of 3 values"), out);
        assertEquals(0, run("verify", world.toString()), err);
        assertTrue(out.startsWith("ok"), out);

        BoxSet level = LevelScenes.load(LevelScenes.Level.BOUNDS01);
        double[] b = level.bounds();
        assertEquals(0, run("query", world.toString(), "--box", "" + b[0], "" + b[1], "" + b[2], "" + b[3],
                "" + b[4], "" + b[5]), err);
        assertTrue(out.endsWith(objects + " objects" + System.lineSeparator()), out);
        // handles are storage positions, user values the input's: every input object once
        String[] lines = out.split(System.lineSeparator());
        assertTrue(lines[0].startsWith("0 "), out);
        long[] values = new long[objects];
        for (int i = 0; i < objects; i++) {
            values[i] = Long.parseLong(lines[i].split(" ")[1]);
        }
        java.util.Arrays.sort(values);
        for (int i = 0; i < objects; i++) {
            assertEquals(1000 + i, values[i]);
        }
        assertEquals(0, run("query", world.toString(), "--box", "" + b[0], "" + b[1], "" + b[2], "" + b[3],
                "" + b[4], "" + b[5], "--mask", "0x2"), err);
        assertTrue(out.endsWith((objects + 1) / 3 + " objects" + System.lineSeparator()), out);
        assertEquals(0, run("query", world.toString(), "--ray", "" + b[0], "" + b[1], "" + b[2],
                "" + (b[3] - b[0]), "" + (b[4] - b[1]), "" + (b[5] - b[2]), "--closest"), err);
        assertTrue(!out.isBlank(), out);
    }

    @Test
    void shouldShowABuildProgressBarOnTheErrorOutputWhenAsked() throws IOException {
        Path input = writeLevel();
        Path world = dir.resolve("level.bxw");
        assertEquals(0, run("build", input.toString(), world.toString(), "--progress"), err);
        assertTrue(err.contains("building [") && err.contains("writing  [") && err.contains("] 100%"), err);
        assertTrue(out.contains("objects per leaf"), out);
        assertEquals(0, run("build", input.toString(), world.toString()), err);
        assertTrue(err.isEmpty(), "a small build shows no bar: " + err);
    }

    @Test
    void shouldReportCorruptionAndBadUsageWithExitCodes() throws IOException {
        Path world = buildLevel();
        byte[] bytes = Files.readAllBytes(world);
        bytes[bytes.length - 3] ^= 0x10;
        Files.write(world, bytes);
        assertEquals(WorldTool.EXIT_CORRUPT, run("verify", world.toString()));
        assertTrue(out.contains("CORRUPT") && out.contains("checksum"), out);
        bytes[0] ^= 1;
        Files.write(world, bytes);
        assertEquals(WorldTool.EXIT_CORRUPT, run("info", world.toString()));
        assertTrue(err.contains("magic"), err);
        assertEquals(2, run("query", world.toString()));
        assertEquals(2, run("frobnicate"));
    }

    @Test
    void shouldStopAQueryWhoseOutputIsClosed() throws IOException {
        Path world = buildLevel();
        double[] b = LevelScenes.load(LevelScenes.Level.BOUNDS01).bounds();
        // a pipe whose reader has gone: every write fails, which a PrintStream records on itself
        java.io.PrintStream closed = new java.io.PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int x) throws IOException {
                throw new IOException("Broken pipe");
            }
        });
        StringWriter e = new StringWriter();
        int code = WorldTool.run(new PrintWriter(closed, false), new PrintWriter(e, true), "query", world.toString(),
                "--box", "" + b[0], "" + b[1], "" + b[2], "" + b[3], "" + b[4], "" + b[5]);
        assertEquals(WorldTool.EXIT_IO, code, e.toString());
    }

    @Test
    void shouldFailACommandWhoseOutputCannotBeWritten() throws IOException {
        Path world = buildLevel();
        // standard output redirected to a full disk: every write fails, which a PrintStream records on itself
        java.io.PrintStream full = new java.io.PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int x) throws IOException {
                throw new IOException("No space left on device");
            }
        });
        for (String[] command : new String[][] {{"info", world.toString()}, {"verify", world.toString()}}) {
            StringWriter e = new StringWriter();
            int code = WorldTool.run(new PrintWriter(full, false), new PrintWriter(e, true), command);
            assertEquals(WorldTool.EXIT_IO, code, command[0] + " printed nothing: " + e);
            assertTrue(e.toString().contains("standard output"), e.toString());
        }
    }

    @Test
    void shouldRefuseOutputsThatWouldDestroySomething() throws IOException {
        Path input = writeLevel();
        String text = Files.readString(input);
        // the input itself
        assertEquals(2, run("build", input.toString(), input.toString()));
        assertTrue(err.contains("the output is the input file"), err);
        assertEquals(text, Files.readString(input), "the input is untouched");
        // a symbolic link: the world would replace the link, not the file it points to
        Path target = Files.writeString(dir.resolve("target.bxw"), "keep");
        Path link = Files.createSymbolicLink(dir.resolve("link.bxw"), target);
        assertEquals(WorldTool.EXIT_IO, run("build", input.toString(), link.toString()));
        assertTrue(err.contains("symbolic link"), err);
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("keep", Files.readString(target));
        // tiles of an earlier build in the output directory, which a new grid would not all replace
        Path tiles = dir.resolve("tiles");
        assertEquals(0, run("build", input.toString(), tiles.toString(), "--tile-size", "1"), err);
        long before;
        try (var files = Files.list(tiles)) {
            before = files.count();
        }
        assertTrue(before > 1, before + " tiles");
        assertEquals(2, run("build", input.toString(), tiles.toString(), "--tile-size", "1000"));
        assertTrue(err.contains(before + " tile files") && err.contains("earlier build"), err);
        try (var files = Files.list(tiles)) {
            assertEquals(before, files.count(), "nothing written");
        }
        // unless asked: the new grid, then the old tiles it did not replace deleted
        assertEquals(0, run("build", input.toString(), tiles.toString(), "--tile-size", "1000", "--overwrite"), err);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("in (\\d+) tiles").matcher(out);
        assertTrue(m.find() && out.contains("removed "), out);
        int fresh = Integer.parseInt(m.group(1));
        assertTrue(fresh < before, out);
        try (var files = Files.list(tiles)) {
            assertEquals(fresh, files.count(), "only the new grid's tiles");
        }
        assertEquals(2, run("build", input.toString(), dir.resolve("w.bxw").toString(), "--overwrite"));
    }

    /** Writes {@code count} boxes both as a text box list ({@code name.txt}) and as a binary one ({@code name.bin}). */
    private void writeBoxLists(String name, int count, java.util.function.IntFunction<double[]> box)
            throws IOException {
        StringBuilder text = new StringBuilder();
        java.nio.ByteBuffer binary = java.nio.ByteBuffer.allocate(48 * count).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            for (double v : box.apply(i)) {
                text.append(v).append(' ');
                binary.putDouble(v);
            }
            text.append('\n');
        }
        Files.writeString(dir.resolve(name + ".txt"), text);
        Files.write(dir.resolve(name + ".bin"), binary.array());
    }

    @Test
    void shouldStreamABinaryBoxListIntoTheSameWorldAsItsTextForm() throws IOException {
        BoxSet level = LevelScenes.load(LevelScenes.Level.BOUNDS02);
        writeBoxLists("level", level.size(), i -> new double[] {level.minX[i], level.minY[i], level.minZ[i],
            level.maxX[i], level.maxY[i], level.maxZ[i]});
        Path textInput = dir.resolve("level.txt");
        Path binaryInput = dir.resolve("level.bin");
        Path fromText = dir.resolve("text.bxw");
        Path fromBinary = dir.resolve("binary.bxw");
        assertEquals(0, run("build", textInput.toString(), fromText.toString()), err);
        assertEquals(0, run("build", "--binary", binaryInput.toString(), fromBinary.toString()), err);
        assertTrue(out.startsWith(level.size() + " objects"), out);
        assertArrayEquals(Files.readAllBytes(fromText), Files.readAllBytes(fromBinary));
        assertEquals(0, run("verify", fromBinary.toString()), err);

        Path ragged = dir.resolve("ragged.bin");
        Files.write(ragged, new byte[47]);
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", "--binary", ragged.toString(),
                dir.resolve("r.bxw").toString()));
        assertTrue(err.contains("not a multiple of 48"), err);
        assertFalse(Files.exists(dir.resolve("r.bxw")));
        assertEquals(2, run("build", "--binary", binaryInput.toString(), dir.resolve("t").toString(),
                "--tile-size", "10"));
        assertTrue(err.contains("--tile-size needs a text input"), err);
        byte[] binary = Files.readAllBytes(binaryInput);
        java.nio.ByteBuffer.wrap(binary).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putDouble(48 * 7 + 8, Double.NaN);   // box 7's min y
        Files.write(binaryInput, binary);
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", "--binary", binaryInput.toString(),
                fromBinary.toString()));
        assertTrue(err.contains("box 7") && !err.contains("Usage"), err);
        assertEquals(0, run("verify", fromBinary.toString()), "the previous world is intact: " + err);
    }

    /**
     * The tool in a JVM of its own with a heap too small for the input: the advice names the input kind that was
     * given, and the exit code is {@link WorldTool#EXIT_IO}, with no stack trace and no world written.
     */
    @Test
    void shouldAdviseByTheInputKindWhenTheHeapIsTooSmall() throws IOException, InterruptedException {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        writeBoxLists("big", 400_000, i -> {
            double x = random.nextInt(100_000);
            double y = random.nextInt(100_000);
            double z = random.nextInt(100);
            return new double[] {x, y, z, x + 1, y + 2, z + 3};
        });
        Path textInput = dir.resolve("big.txt");
        Path binaryInput = dir.resolve("big.bin");
        Path world = dir.resolve("big.bxw");

        String textErr = runInSmallHeap("build", textInput.toString(), world.toString());
        assertTrue(textErr.contains("error: out of memory") && textErr.contains("use --binary input"), textErr);
        String binaryErr = runInSmallHeap("build", "--binary", binaryInput.toString(), world.toString());
        assertTrue(binaryErr.contains("error: out of memory") && binaryErr.contains("the binary input is streamed")
                && !binaryErr.contains("use --binary"), binaryErr);
        assertFalse(Files.exists(world));
    }

    /** Runs the tool's main in a JVM with a 16 MB heap, checks its exit code and returns its error output. */
    private String runInSmallHeap(String... args) throws IOException, InterruptedException {
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // this JVM's module and storage options (as the build passes them to tests), not its heap size or agents
        for (String option : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (option.startsWith("--") || option.startsWith("-Dchronicle") || option.startsWith("-Ddisable.")) {
                command.add(option);
            }
        }
        command.addAll(java.util.List.of("-Xmx16m", "-cp", System.getProperty("java.class.path"),
                WorldTool.class.getName()));
        command.addAll(java.util.List.of(args));
        Path errFile = dir.resolve("child-err.txt");
        Process child = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(errFile.toFile()).start();
        assertTrue(child.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the tool did not finish");
        String childErr = Files.readString(errFile);
        assertEquals(WorldTool.EXIT_IO, child.exitValue(), childErr);
        assertFalse(childErr.contains("\tat "), "no stack trace: " + childErr);
        return childErr;
    }

    @Test
    void shouldSplitIntoTiles() throws IOException {
        Path input = writeLevel();
        Path tiles = dir.resolve("tiles");
        assertEquals(0, run("build", input.toString(), tiles.toString(), "--tile-size", "10"), err);
        try (var files = Files.list(tiles)) {
            long count = files.count();
            assertTrue(count > 1, count + " tiles");
            assertTrue(out.contains(count + " tiles"), out);
        }
    }

    @Test
    void shouldReportCorruptionMetByAQueryAsCorruption() throws IOException {
        Path world = buildLevel();
        // break one node reference in place (the header stays valid, so open succeeds and the query meets it)
        byte[] bytes = Files.readAllBytes(world);
        int broken = -1;
        for (int offset = 64; offset < bytes.length - 4 && broken < 0; offset += 4) {
            byte[] copy = bytes.clone();
            copy[offset] ^= 0x40;
            Files.write(world, copy);
            // open (all info does) must accept the file: the corruption is met by the query itself
            if (run("info", world.toString()) == 0
                    && run("query", world.toString(), "--box", "-1e9", "-1e9", "-1e9", "1e9", "1e9", "1e9")
                    == WorldTool.EXIT_CORRUPT) {
                broken = offset;
            }
        }
        assertTrue(broken >= 0, "some flipped byte must be met by a query over everything");
        assertTrue(err.startsWith("error: ") && !err.contains("Exception"), err);
    }

    @Test
    void shouldVerifyEveryFileAndNameWhatIsWrongWithTheInput() throws IOException {
        Path world = buildLevel();
        Path input = dir.resolve("level.txt");
        Path missing = dir.resolve("missing.bxw");
        assertEquals(WorldTool.EXIT_IO, run("verify", missing.toString(), world.toString()));
        assertTrue(out.contains("ERROR   no such file: " + missing), out);
        assertTrue(out.contains("ok      " + world), "the file after the missing one is still verified: " + out);
        assertEquals(WorldTool.EXIT_IO, run("build", dir.resolve("nothing.txt").toString(),
                dir.resolve("x.bxw").toString()));
        assertTrue(err.contains("no such file: " + dir.resolve("nothing.txt")), err);
        assertEquals(WorldTool.EXIT_IO, run("info", dir.toString()));
        assertTrue(err.contains(dir + ": not a regular file"), err);
        assertEquals(2, run("build", input.toString(), dir.resolve("no/such/dir/x.bxw").toString()));
        assertTrue(err.contains("does not exist"), err);
        assertEquals(2, run("build", input.toString(), input.resolve("x.bxw").toString()));
        assertTrue(err.contains("the directory of the output is not a directory: " + input), err);
        Path tiles = dir.resolve("tiles");
        assertEquals(2, run("build", input.toString(), tiles.toString(), "--tile-size", "0"));
        assertFalse(Files.exists(tiles), "nothing created for a bad tile size");
        // a tile size too fine for the world is bad usage, also where it puts every box beyond 2^53 cells
        assertEquals(2, run("build", input.toString(), tiles.toString(), "--tile-size", "1e-300"));
        assertTrue(err.contains("--tile-size 1.0E-300 puts every box beyond 2^53 cells"), err);
        assertFalse(Files.exists(tiles), "nothing left behind by a tile size too fine");
        // the output's kind must match the command: a directory for tiles, a file otherwise
        assertEquals(2, run("build", input.toString(), dir.toString()));
        assertTrue(err.contains("the output is a directory") && err.contains(dir.toString())
                && !err.contains(".tmp-"), err);
        assertEquals(2, run("build", input.toString(), world.toString(), "--tile-size", "5"));
        assertTrue(err.contains("this is a file: " + world), err);
        assertEquals(WorldTool.EXIT_IO, run("verify", world.resolve("inside.bxw").toString()));
        // a text input that is not UTF-8 is bad input, named by file and line
        Path latin = dir.resolve("latin.txt");
        Files.write(latin, new byte[] {'0', ' ', '0', ' ', '0', ' ', '1', ' ', '1', ' ', '1', '\n', '#', (byte) 0xE9,
            '\n'});
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", latin.toString(),
                dir.resolve("latin.bxw").toString()));
        assertTrue(err.contains(latin + ":2: not UTF-8 text"), err);
        // far down a file the reader decodes ahead of: still the line, also the last one without a newline
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            many.append(i).append(" 0 0 ").append(i + 1).append(" 1 1\n");
        }
        byte[] text = many.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] tail = java.util.Arrays.copyOf(text, text.length + 2);
        tail[text.length] = '#';
        tail[text.length + 1] = (byte) 0xC3;
        Files.write(latin, tail);
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", latin.toString(),
                dir.resolve("latin.bxw").toString()));
        assertTrue(err.contains(latin + ":20001: not UTF-8 text"), err);
        assertEquals(0, WorldTool.firstLineNotUtf8(input), "a good file has no bad line");
    }

    @Test
    void shouldDescribeFileSystemFailuresWithoutAReasonByTheirKind() {
        assertEquals("a: already exists", WorldTool.describe(new java.nio.file.FileAlreadyExistsException("a")));
        assertEquals("b: access denied", WorldTool.describe(new java.nio.file.AccessDeniedException("b")));
        assertEquals("c: not a directory", WorldTool.describe(new java.nio.file.NotDirectoryException("c")));
        assertEquals("d: why", WorldTool.describe(new java.nio.file.FileSystemException("d", null, "why")));
    }

    @Test
    void shouldNameTheLinesOfAWorldTooWideForItsFloatsNotOnlyTheFirstBoxChecked() throws IOException {
        Path input = dir.resolve("stray.txt");
        Path world = dir.resolve("stray.bxw");
        // the stray box is the last: the writer's origin is the centre of all, so it names box 0 first
        Files.writeString(input, "0 0 0 1 1 1\n2 2 2 3 3 3\n# a typo: 1e19 for 1e1\n1e19 0 0 1e19 1 1\n");
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", input.toString(), world.toString()));
        assertTrue(err.contains("(line 1)") && err.contains("1.0E19 (line 4)") && err.contains("0.0 (line 1)"),
                err);
        assertFalse(Files.exists(world));
    }

    @Test
    void shouldTakeOneQueryAndFullWidthHexMasks() throws IOException {
        Path world = buildLevel();
        String[] everything = {"-1e9", "-1e9", "-1e9", "1e9", "1e9", "1e9"};
        assertEquals(2, run("query", world.toString(), "--box", "0", "0", "0", "1", "1", "1", "--box", "2", "2",
                "2", "3", "3", "3"));
        assertEquals(2, run("query", world.toString(), "--box", "0", "0", "0", "1", "1", "1", "--closest"));
        assertEquals(0, run("query", world.toString(), "--mask", "0xFFFFFFFFFFFFFFFF", "--box", everything[0],
                everything[1], everything[2], everything[3], everything[4], everything[5]), err);
        String all = out;
        assertEquals(0, run("query", world.toString(), "--mask", "-1", "--box", everything[0], everything[1],
                everything[2], everything[3], everything[4], everything[5]), err);
        assertEquals(all, out, "0xFFFFFFFFFFFFFFFF is every category, as -1");
        assertEquals(0, run("query", world.toString(), "--mask", "0x8000000000000000", "--box", everything[0],
                everything[1], everything[2], everything[3], everything[4], everything[5]), err);
        assertTrue(out.endsWith("0 objects" + System.lineSeparator()), "no object has category bit 63: " + out);
        assertEquals(-1L, WorldTool.LongDecoder.parse("0xFFFFFFFFFFFFFFFF"));
        assertEquals(Long.MIN_VALUE, WorldTool.LongDecoder.parse("0x8000000000000000"));
        assertEquals(-5L, WorldTool.LongDecoder.parse("-5"));
    }

    @Test
    void shouldNameTheLineOfBadInputAndReadNumbersAsDocumented() throws IOException {
        Path world = dir.resolve("t.bxw");
        Path input = dir.resolve("t.txt");
        // a byte order mark, a trailing comment, a zero-padded category (decimal: 10) and hex user value
        Files.writeString(input, "\uFEFF0 0 0 1 1 1 010 0x10   # a crate\n\n# a comment line\n2, 2, 2, 3, 3, 3, 0x2\n");
        assertEquals(0, run("build", input.toString(), world.toString()), err);
        // category 010 read as ten (0b1010) shares bit 2 with the mask 2, and the mask 010 (ten) takes the second
        // box's category 0x2 too; read as octal (eight) neither would
        assertEquals(0, run("query", world.toString(), "--box", "0", "0", "0", "3", "3", "3", "--mask", "010"), err);
        assertTrue(out.contains("2 objects") && out.contains(" 16"), "mask ten and user value 16: " + out);
        assertEquals(0, run("query", world.toString(), "--box", "0", "0", "0", "1", "1", "1", "--mask", "2"), err);
        assertTrue(out.contains("1 objects"), "category ten has bit 2: " + out);

        String[][] bad = {
            {"0 0 0 1 1 1\n\n# skipped\n5 0 0 4 1 1\n", ":4: ", "minX"},
            {"0 0 0 1 1 1\n0 0 NaN 1 1 1\n", ":2: ", "minZ"},
            {"0 0 0 1 1 1 0x10 0x\n", ":1: ", "userValue is not a number: \"0x\""},
            {"0 0 0 1 1 abc\n", ":1: ", "maxZ is not a number: \"abc\""},
            {"0 0 0 1 1 1 08x\n", ":1: ", "categoryBits is not a number"},
            {"0 0 0 1 1\n", ":1: ", "expected 6 to 8 numbers, got 5"},
            // Long.decode's # hex is not a comment start (it would silently drop the category) and not a number
            {"0 0 0 1 1 1 #FF 7\n", ":1: ", "categoryBits is not a number: \"#FF\""},
            // commas separate one field each: an empty field is an error, not skipped
            {"0,0,0,1,1,1,,5\n", ":1: ", "categoryBits is not a number: \"\""},
            {"0 0 0 1 1 1,\n", ":1: ", "categoryBits is not a number: \"\""},
            {"0 0 0 1 1 1 0x+1\n", ":1: ", "categoryBits is not a number"},
            // what Double.parseDouble takes beyond a written number: Java's suffixes, trimmed control characters
            {"0 0 0 1f 1 1\n", ":1: ", "maxX is not a number: \"1f\""},
            {"0 0 0 1 1 2d\n", ":1: ", "maxZ is not a number: \"2d\""},
            {"0 0 0 1 1 1\u0000\n", ":1: ", "maxZ is not a number"},
            // a finite number beyond the double range is named as written, not as infinity
            {"0 0 0 1e400 1 1\n", ":1: ", "maxX is beyond the double range: \"1e400\""},
        };
        Files.writeString(world, "");
        assertEquals(0, run("build", input.toString(), world.toString()), err);
        byte[] before = Files.readAllBytes(world);
        for (String[] c : bad) {
            Files.writeString(input, c[0]);
            assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", input.toString(), world.toString()), c[0]);
            assertTrue(err.contains(input + c[1]) && err.contains(c[2]) && !err.contains("Usage"), err);
            assertArrayEquals(before, Files.readAllBytes(world), "the world is untouched");
        }
        // a box the writer refuses (too far from the origin the bounds give) is named with its line
        Files.writeString(input, "# far\n0 0 0 1 1 1\n\n1e300 0 0 1e300 1 1\n");
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", input.toString(), world.toString()));
        assertTrue(err.contains("box 0 reaches more than") && err.contains("(line 2)") && !err.contains("Usage"), err);
        // and the two lines holding the ends of the world on the axis the message names
        assertTrue(err.contains("the boxes reach from 0.0 (line 2) to 1.0E300 (line 4) on axis x, too far apart"),
                err);

        // the query's numbers are read the same way
        assertEquals(2, run("query", world.toString(), "--box", "0", "0", "0", "1", "1", "1f"));
        assertTrue(err.contains("'1f' is not a number"), err);
        assertEquals(2, run("query", world.toString(), "--ray", "0", "0", "0", "1e400", "0", "0"));
        assertTrue(err.contains("'1e400' is beyond the double range"), err);

        // a signed hex mask applies its sign to the bits: -0x1 is every category
        Files.writeString(input, "0 0 0 1 1 1 0x4\n");
        assertEquals(0, run("build", input.toString(), world.toString()), err);
        assertEquals(0, run("query", world.toString(), "--box", "0", "0", "0", "1", "1", "1", "--mask", "-0x1"), err);
        assertTrue(out.contains("1 objects"), out);

        // tiles: a box the grid cannot take is named with its line, and the directory made for the tiles is gone
        Path tiles = dir.resolve("tiles");
        Files.writeString(input, "0 0 0 1 1 1\n# far away\n1e30 0 0 1e30 1 1\n");
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", input.toString(), tiles.toString(),
                "--tile-size", "10"));
        assertTrue(err.contains("object 1") && err.contains("(line 3)"), err);
        assertFalse(Files.exists(tiles), "no tile directory left behind");
        // nor the missing parents the build created for it
        Path nested = dir.resolve("new").resolve("deeper").resolve("tiles");
        assertEquals(WorldTool.EXIT_INVALID_INPUT, run("build", input.toString(), nested.toString(),
                "--tile-size", "10"));
        assertFalse(Files.exists(dir.resolve("new")), "no parent directory left behind");
        // a grid too fine for the world is the option's fault: bad usage, naming it
        Files.writeString(input, "0 0 0 1 1 1\n1e6 0 0 1e6 1 1\n");
        assertEquals(2, run("build", input.toString(), tiles.toString(), "--tile-size", "1e-3"));
        assertTrue(err.contains("--tile-size 0.001 gives more than 2^21 cells"), err);
        assertFalse(Files.exists(tiles));
    }
}
