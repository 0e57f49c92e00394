package dev.boxwood.tools;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.Arguments;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.serial.CorruptWorldFileException;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;
import dev.boxwood.serial.TileSetWriter;
import dev.boxwood.serial.WorldLayout;
import dev.boxwood.serial.WrittenWorld;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code boxwood} command-line tool for static world files: {@code build}, {@code info}, {@code verify} and
 * {@code query}. Run it with {@code java -jar tools/target/boxwood-tools.jar <command> ...}; the jar's manifest
 * carries the module flags Chronicle Bytes needs. Exit codes: 0 success, 1 a corrupt world, 2 bad usage, 3 any
 * other I/O error, 4 invalid input boxes ({@code build}: a line that is not 6 to 8 numbers, a box that is not
 * finite or is inverted, an object count or extent the writer refuses).
 */
@Command(name = "boxwood", mixinStandardHelpOptions = true, version = "boxwood tools 0.1",
        description = "Builds, inspects, verifies and queries static world files.",
        subcommands = {WorldTool.Build.class, WorldTool.Info.class, WorldTool.Verify.class, WorldTool.Query.class})
public final class WorldTool {

    /** Exit code of a corrupt world file. */
    public static final int EXIT_CORRUPT = 1;
    /** Exit code of any other I/O failure. */
    public static final int EXIT_IO = 3;
    /** Exit code of input boxes that {@code build} cannot take (the message names the file and line or box). */
    public static final int EXIT_INVALID_INPUT = 4;

    private WorldTool() {
    }

    /**
     * Runs the tool and exits with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        // standard output buffered (a query may print millions of lines), flushed when the run ends; a writer over
        // the PrintStream itself, so that checkError sees a closed pipe (which System.out records on itself)
        PrintWriter out = new PrintWriter(System.out, false);
        int code = run(out, new PrintWriter(System.err, true), args);
        out.flush();
        System.exit(code);
    }

    /**
     * Runs the tool without exiting.
     *
     * @param out  standard output
     * @param err  error output
     * @param args the command line
     * @return the exit code
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new WorldTool());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            // a query that meets a corrupt node reports it unchecked: the exit code follows the cause
            Throwable cause = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
            line.getErr().println("error: " + describe(cause));
            return cause instanceof CorruptWorldFileException ? EXIT_CORRUPT
                    : cause instanceof InvalidInputException ? EXIT_INVALID_INPUT : EXIT_IO;
        });
        try {
            int code = cli.execute(args);
            // a report nobody can read (standard output on a full disk, or a pipe whose reader has gone) is a
            // failure, not a success; a query that stopped early for it has returned its code already
            if (code == 0 && out.checkError()) {
                err.println("error: the standard output could not be written");
                return EXIT_IO;
            }
            return code;
        } catch (OutOfMemoryError e) {
            // the text input is held in memory whole: say what to do rather than print the JVM's stack trace
            err.println();
            CommandLine.ParseResult parsed = cli.getParseResult();
            boolean streamed = parsed != null && parsed.hasSubcommand()
                    && parsed.subcommand().hasMatchedOption("--binary");
            err.println("error: out of memory (" + e.getMessage() + "): give the JVM more heap (java -Xmx...)"
                    + (streamed ? " (the binary input is streamed; the builder still holds 24 bytes per box and its"
                    + " working arrays)" : " or, for a single world file, use --binary input, which is streamed"));
            return EXIT_IO;
        } finally {
            out.flush();
        }
    }

    /**
     * A failure as a user reads it: the file and what went wrong with it. The JDK's file system exceptions carry
     * only the path as their message ({@code NoSuchFileException}) or the reason without the path.
     */
    static String describe(Throwable e) {
        if (e instanceof NoSuchFileException f) {
            return "no such file: " + f.getFile();
        }
        if (e instanceof FileSystemException f) {
            return f.getFile() + ": " + (f.getReason() != null ? f.getReason() : reasonOf(f));
        }
        return String.valueOf(e.getMessage());
    }

    /** What the JDK's reason-less file system exceptions mean: their type. */
    private static String reasonOf(FileSystemException e) {
        if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        }
        if (e instanceof AccessDeniedException) {
            return "access denied";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        }
        return e.getClass().getSimpleName();
    }

    /** An input must be a readable regular file: a directory would fail later with a message naming no file. */
    static void requireFile(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString());
        }
        if (!Files.isRegularFile(file)) {
            throw new FileSystemException(file.toString(), null, "not a regular file");
        }
    }

    /** Input boxes that {@code build} cannot take: {@link #EXIT_INVALID_INPUT}, not an I/O failure. */
    static final class InvalidInputException extends IOException {
        InvalidInputException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The first line (from 1) of a file whose bytes are not UTF-8, or 0 if every line decodes (the file changed
     * since it failed): each line's bytes are decoded alone, so the answer does not depend on how far a reader
     * decoded ahead.
     */
    static long firstLineNotUtf8(Path file) throws IOException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        long number = 1;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            for (int b; (b = in.read()) >= 0; ) {
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                if (!decodes(decoder, line)) {
                    return number;
                }
                line.reset();
                number++;
            }
        }
        return decodes(decoder, line) ? 0 : number;
    }

    private static boolean decodes(CharsetDecoder decoder, ByteArrayOutputStream line) {
        try {
            decoder.reset().decode(ByteBuffer.wrap(line.toByteArray()));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * Reads boxes from a text file: {@code minX minY minZ maxX maxY maxZ [categoryBits [userValue]]} per line,
     * separated by blanks or commas; {@code #} starts a comment (a whole line or the rest of one); a UTF-8 byte
     * order mark is skipped. Every box is checked here, so a bad one is reported by its line.
     */
    static final class BoxFile {
        double[] boxes = new double[0];
        long[] categories = new long[0];
        long[] userValues = new long[0];
        /** Per box: its line in the file, to name it when the writer refuses it. */
        int[] lines = new int[0];
        int count;

        static BoxFile read(Path file) throws IOException {
            requireFile(file);
            BoxFile f = new BoxFile();
            int lineNumber = 0;
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                for (String line; (line = reader.readLine()) != null; ) {
                    lineNumber++;
                    if (lineNumber == 1 && line.startsWith("\uFEFF")) {
                        line = line.substring(1);
                    }
                    int comment = commentStart(line);
                    line = (comment >= 0 ? line.substring(0, comment) : line).strip();
                    if (line.isEmpty()) {
                        continue;
                    }
                    // commas separate fields one by one (an empty field is an error, not skipped); blanks may repeat
                    String[] parts = line.split("\\s*,\\s*|\\s+", -1);
                    String where = file + ":" + lineNumber + ": ";
                    if (parts.length < 6 || parts.length > 8) {
                        throw new InvalidInputException(where + "expected 6 to 8 numbers, got " + parts.length, null);
                    }
                    f.grow();
                    int at = 6 * f.count;
                    for (int a = 0; a < 6; a++) {
                        f.boxes[at + a] = parse(where, FIELDS[a], parts[a], DoubleDecoder::parse);
                    }
                    try {
                        Arguments.requireBox(f.boxes[at], f.boxes[at + 1], f.boxes[at + 2], f.boxes[at + 3],
                                f.boxes[at + 4], f.boxes[at + 5]);
                    } catch (IllegalArgumentException e) {
                        throw new InvalidInputException(where + e.getMessage(), e);
                    }
                    f.categories[f.count] = parts.length > 6 ? parse(where, FIELDS[6], parts[6], LongDecoder::parse)
                            : -1L;
                    f.userValues[f.count] = parts.length > 7 ? parse(where, FIELDS[7], parts[7], LongDecoder::parse)
                            : f.count;
                    f.lines[f.count] = lineNumber;
                    f.count++;
                }
            } catch (CharacterCodingException e) {
                // the reader decodes ahead of the lines it returns: the file is read again to name the line
                long bad = firstLineNotUtf8(file);
                throw new InvalidInputException(file + (bad > 0 ? ":" + bad + ": not UTF-8 text"
                        : ": not UTF-8 text (at or after line " + (lineNumber + 1) + ")"), e);
            }
            f.boxes = Arrays.copyOf(f.boxes, 6 * f.count);
            f.categories = Arrays.copyOf(f.categories, f.count);
            f.userValues = Arrays.copyOf(f.userValues, f.count);
            return f;
        }

        private static final Pattern BOX_INDEX = Pattern.compile("\\b(?:box|object) (\\d+)\\b");
        /**
         * Where a comment starts: a {@code #} at the start of the line or followed by a blank or the line's end.
         * A {@code #} inside a field ({@code #FF}, the hex of {@link Long#decode}) is left to fail as a number
         * instead of silently cutting the line.
         */
        static int commentStart(String line) {
            for (int i = line.indexOf('#'); i >= 0; i = line.indexOf('#', i + 1)) {
                if (line.substring(0, i).isBlank() || i + 1 == line.length()
                        || Character.isWhitespace(line.charAt(i + 1))) {
                    return i;
                }
            }
            return -1;
        }

        private static final String[] FIELDS = {"minX", "minY", "minZ", "maxX", "maxY", "maxZ", "categoryBits",
            "userValue"};

        private static <T> T parse(String where, String field, String text, Function<String, T> parser)
                throws InvalidInputException {
            try {
                return parser.apply(text);
            } catch (DoubleDecoder.OutOfRangeException e) {
                throw new InvalidInputException(where + field + " " + e.getMessage() + ": \"" + text + "\"", e);
            } catch (NumberFormatException e) {
                throw new InvalidInputException(where + field + " is not a number: \"" + text + "\"", e);
            }
        }

        /**
         * A writer's message about box {@code i} (its index among the boxes, which skips blank and comment lines)
         * with the line the box came from.
         */
        String withLine(String message) {
            Matcher m = BOX_INDEX.matcher(message);
            if (m.find()) {
                long box = Long.parseLong(m.group(1));
                if (box < count) {
                    return message + " (line " + lines[(int) box] + ")" + spread(message);
                }
            }
            return message;
        }

        private static final Pattern BEYOND_STORAGE = Pattern.compile("reaches more than .* on axis ([xyz])");

        /**
         * For a box beyond the float storage range: the origin is the centre of all the boxes, so the box the
         * writer names is merely the first one checked (often an ordinary box), not the one far from the others.
         * The lines holding the two ends of the world on that axis are where the stray box is.
         */
        private String spread(String message) {
            Matcher m = BEYOND_STORAGE.matcher(message);
            if (!m.find() || count == 0) {
                return "";
            }
            int a = "xyz".indexOf(m.group(1));
            int low = 0;
            int high = 0;
            for (int i = 1; i < count; i++) {
                if (boxes[6 * i + a] < boxes[6 * low + a]) {
                    low = i;
                }
                if (boxes[6 * i + 3 + a] > boxes[6 * high + 3 + a]) {
                    high = i;
                }
            }
            return "; the boxes reach from " + boxes[6 * low + a] + " (line " + lines[low] + ") to "
                    + boxes[6 * high + 3 + a] + " (line " + lines[high] + ") on axis " + m.group(1)
                    + ", too far apart for one world file";
        }

        private void grow() {
            if (count == categories.length) {
                int capacity = Math.max(1024, 2 * count);
                boxes = Arrays.copyOf(boxes, 6 * capacity);
                categories = Arrays.copyOf(categories, capacity);
                userValues = Arrays.copyOf(userValues, capacity);
                lines = Arrays.copyOf(lines, capacity);
            }
        }
    }

    /** {@code build}: text boxes to a world file, or to a grid of tiles. */
    @Command(name = "build", mixinStandardHelpOptions = true,
            description = "Builds a world file (binned SAH) from a text file of boxes, one box per "
            + "line: minX minY minZ maxX maxY maxZ [categoryBits [userValue]].")
    static final class Build implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", description = "input: a text file (default), or with --binary six little-endian "
                + "doubles per box")
        Path input;
        @Option(names = "--binary", description = "the input is binary: minX minY minZ maxX maxY maxZ as "
                + "little-endian doubles, 48 bytes per box, streamed (never held as a whole); every category, user "
                + "value = index")
        boolean binary;
        @Parameters(index = "1", description = "output world file (or, with --tile-size, output directory)")
        Path output;
        @Option(names = "--tile-size", converter = DoubleDecoder.class,
                description = "split into tiles of this edge length, one file per tile")
        Double tileSize;
        @Option(names = "--overwrite", description = "with --tile-size: replace the tiles of an earlier build in the "
                + "output directory (the new grid is written, then the old tiles it did not replace are deleted)")
        boolean overwrite;
        @Option(names = "--progress", negatable = true, description = "show a progress bar on the error output "
                + "(default: for inputs of " + ProgressBar.THRESHOLD + " objects or more)")
        Boolean progress;

        @Override
        public Integer call() throws IOException {
            if (tileSize != null && !(tileSize > 0 && Double.isFinite(tileSize))) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--tile-size must be finite and > 0: " + tileSize);
            }
            // a world file's directory must exist (tiles create theirs): the writer's temporary file would otherwise
            // be named in the error instead
            Path directory = output.toAbsolutePath().getParent();
            if (tileSize == null && directory != null && !Files.isDirectory(directory)) {
                throw new CommandLine.ParameterException(spec.commandLine(), Files.exists(directory)
                        ? "the directory of the output is not a directory: " + directory
                        : "the directory of the output does not exist: " + directory);
            }
            if (tileSize == null && Files.isDirectory(output)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "the output is a directory (a world file is wanted without --tile-size): " + output);
            }
            if (tileSize != null && Files.exists(output) && !Files.isDirectory(output)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "with --tile-size the output is a directory, but this is a file: " + output);
            }
            if (Files.exists(output) && Files.exists(input) && Files.isSameFile(input, output)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "the output is the input file: " + output);
            }
            if (overwrite && tileSize == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--overwrite applies to --tile-size only"
                        + " (a world file is always replaced)");
            }
            if (tileSize != null && Files.isDirectory(output) && !overwrite) {
                requireNoOldTiles();
            }
            if (binary) {
                return buildFromBinary();
            }
            BoxFile boxes = BoxFile.read(input);
            PrintWriter out = spec.commandLine().getOut();
            if (tileSize != null) {
                buildTiles(boxes, out);
                return 0;
            }
            boolean show = progress != null ? progress : boxes.count >= ProgressBar.THRESHOLD;
            ProgressBar bar = show ? new ProgressBar(spec.commandLine().getErr()) : null;
            try {
                WrittenWorld world = StaticWorldWriter.write(output, boxes.boxes, boxes.userValues,
                        boxes.categories, null, bar);
                report(world, boxes.count, bar);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException(input + ": " + boxes.withLine(e.getMessage()), e);
            } finally {
                if (bar != null) {
                    bar.finish(); // an error message starts on a line of its own
                }
            }
            return 0;
        }

        /**
         * Refuses an output directory that already holds tiles: a new grid overwrites only the tiles of its own
         * cells, and the old ones of other cells would be loaded with it.
         */
        private void requireNoOldTiles() throws IOException {
            long old;
            try (var files = Files.newDirectoryStream(output, "tile_*.bxw")) {
                old = java.util.stream.StreamSupport.stream(files.spliterator(), false).count();
            }
            if (old > 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "the output directory already holds "
                        + old + " tile files (tile_*.bxw) of an earlier build, which a new grid would not all replace:"
                        + " remove them, choose another directory or give --overwrite: " + output);
            }
        }

        /** With {@code --overwrite}, after the new grid is written: deletes the tiles it did not replace. */
        private void removeOldTiles(List<Path> written, PrintWriter out) throws IOException {
            java.util.Set<Path> kept = new java.util.HashSet<>();
            for (Path p : written) {
                kept.add(p.toAbsolutePath().normalize());
            }
            int removed = 0;
            try (var files = Files.newDirectoryStream(output, "tile_*.bxw")) {
                for (Path p : files) {
                    if (!kept.contains(p.toAbsolutePath().normalize())) {
                        Files.delete(p);
                        removed++;
                    }
                }
            }
            if (removed > 0) {
                out.printf(Locale.ROOT, "removed %d tiles of the earlier build%n", removed);
            }
        }

        /**
         * Cuts the boxes into a grid of tile files. The output directory is created if needed, and removed again
         * if the writer refuses the boxes before writing a tile, so a refused build leaves nothing behind.
         */
        private void buildTiles(BoxFile boxes, PrintWriter out) throws IOException {
            Path created = outermostMissing(output);
            Files.createDirectories(output);
            try {
                List<Path> tiles = TileSetWriter.writeGrid(output, "tile", boxes.boxes, boxes.userValues,
                        boxes.categories, tileSize);
                out.printf(Locale.ROOT, "%d objects in %d tiles under %s%n", boxes.count, tiles.size(), output);
                if (overwrite) {
                    removeOldTiles(tiles, out);
                }
            } catch (IllegalArgumentException e) {
                if (created != null) {
                    removeCreated(created);
                }
                if (e.getMessage().startsWith("cellSize")) {
                    // the option, not the input: a grid too fine for the world's extent
                    throw new CommandLine.ParameterException(spec.commandLine(),
                            "--tile-size" + e.getMessage().substring("cellSize".length()), e);
                }
                throw new InvalidInputException(input + ": " + boxes.withLine(e.getMessage()), e);
            }
        }

        /**
         * The outermost directory of the output that does not exist yet, or null: {@code createDirectories} makes
         * the missing parents too, and a refused build must not leave them behind either.
         */
        private Path outermostMissing(Path dir) {
            Path missing = null;
            for (Path p = dir.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
                missing = p;
            }
            return missing;
        }

        /** Removes the output directory and its parents up to {@code created}, while they are empty. */
        private void removeCreated(Path created) throws IOException {
            for (Path p = output.toAbsolutePath(); p != null; p = p.getParent()) {
                try {
                    Files.deleteIfExists(p);
                } catch (DirectoryNotEmptyException kept) {
                    return; // something was written after all: leave it for the user to see
                }
                if (p.equals(created)) {
                    return;
                }
            }
        }

        /** Streams a binary box list into one world file ({@link BinaryBoxFile}). */
        private Integer buildFromBinary() throws IOException {
            if (tileSize != null) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--tile-size needs a text input (tiles are cut from boxes held in memory)");
            }
            ProgressBar bar = null;
            try (BinaryBoxFile boxes = BinaryBoxFile.open(input)) {
                boolean show = progress != null ? progress : boxes.size() >= ProgressBar.THRESHOLD;
                bar = show ? new ProgressBar(spec.commandLine().getErr()) : null;
                WrittenWorld world = StaticWorldWriter.write(output, boxes, null, null, null, bar);
                report(world, boxes.size(), bar);
            } catch (IllegalArgumentException e) {
                // boxes count from 0 in file order, 48 bytes each
                throw new InvalidInputException(input + ": " + e.getMessage(), e);
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            } finally {
                if (bar != null) {
                    bar.finish(); // an error message starts on a line of its own
                }
            }
            return 0;
        }

        private void report(WrittenWorld world, int count, ProgressBar bar) {
            if (bar != null) {
                bar.finish();
            }
            spec.commandLine().getOut().printf(Locale.ROOT, "%d objects, height %d, %d leaves (%.2f objects per "
                            + "leaf), %d bytes (%.1f per object) -> %s%n", count, world.height(), world.leafCount(),
                    world.averageLeafSize(), world.fileLength(), world.bytesPerObject(), output);
        }
    }

    /** {@code info}: header summary. */
    @Command(name = "info", mixinStandardHelpOptions = true,
            description = "Prints the header of a world file (opens it without reading the rest).")
    static final class Info implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", description = "world file")
        Path file;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            requireFile(file);
            try (MappedWorld world = MappedWorld.open(file)) {
                double[] b = new double[6];
                world.getBounds(b);
                out.printf(Locale.ROOT, "file        %s%n", file);
                out.printf(Locale.ROOT, "bytes       %d (%.1f per object)%n", world.fileLength(),
                        world.size() == 0 ? 0.0 : (double) world.fileLength() / world.size());
                out.printf(Locale.ROOT, "objects     %d%n", world.size());
                out.printf(Locale.ROOT, "format      version %d%n", WorldLayout.FORMAT_VERSION);
                out.printf(Locale.ROOT, "nodes       %d, height %d%n", world.nodeCount(), world.height());
                out.printf(Locale.ROOT, "leaves      %d (%.2f objects per leaf, at most %d)%n", world.leafCount(),
                        world.averageLeafSize(), WorldLayout.MAX_LEAF_SIZE);
                out.printf(Locale.ROOT, "categories  %s%n", world.paletteSize() > 0 ? "palette of "
                        + world.paletteSize() + " values" : world.size() == 0 ? "none" : "64 bits per object");
                out.printf(Locale.ROOT, "origin      %s %s %s%n", world.originX(), world.originY(), world.originZ());
                out.printf(Locale.ROOT, "bounds      %s %s %s .. %s %s %s%n", b[0], b[1], b[2], b[3], b[4], b[5]);
                out.printf(Locale.ROOT, "payload     %d bytes%n", world.payloadLength());
            }
            return 0;
        }
    }

    /** {@code verify}: every checksum and the tree structure. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Checks every checksum and the tree structure of each file, one line per file; exit "
            + "code 1 if one is corrupt, 3 if one cannot be read.")
    static final class Verify implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(arity = "1..*", description = "world files")
        List<Path> files;

        /**
         * One line per file, every file checked even after a failure; the exit code is the worst: {@link #EXIT_IO}
         * if a file could not be read, else {@link #EXIT_CORRUPT} if one is corrupt.
         */
        @Override
        public Integer call() {
            int code = 0;
            for (Path file : files) {
                PrintWriter out = spec.commandLine().getOut();
                try {
                    requireFile(file);
                    try (MappedWorld world = MappedWorld.open(file)) {
                        world.verify();
                        out.println("ok      " + file + " (" + world.size() + " objects)");
                    }
                } catch (CorruptWorldFileException e) {
                    out.println("CORRUPT " + e.getMessage());
                    code = Math.max(code, EXIT_CORRUPT);
                } catch (IOException e) {
                    out.println("ERROR   " + describe(e));
                    code = Math.max(code, EXIT_IO);
                }
            }
            return code;
        }
    }

    /** {@code query}: a box query or a ray cast, printing handles, user values and fractions. */
    @Command(name = "query", mixinStandardHelpOptions = true,
            description = "Runs a box query (--box) or a ray cast (--ray) and prints the objects "
            + "found: handle, user value (and entry fraction for rays).")
    static final class Query implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", description = "world file")
        Path file;
        @Option(names = "--box", arity = "6", converter = DoubleDecoder.class,
                description = "minX minY minZ maxX maxY maxZ")
        double[] box;
        @Option(names = "--ray", arity = "6", converter = DoubleDecoder.class,
                description = "originX originY originZ translationX translationY "
                + "translationZ")
        double[] ray;
        @Option(names = "--max-fraction", defaultValue = "1", converter = DoubleDecoder.class,
                description = "largest fraction of a ray (default 1)")
        double maxFraction;
        @Option(names = "--closest", description = "print only the closest hit of a ray")
        boolean closest;
        @Option(names = "--mask", defaultValue = "-1", converter = LongDecoder.class,
                description = "category mask, decimal (leading zeros too) or 0x hex (default -1: all)")
        long mask;

        @Override
        public Integer call() throws IOException {
            if ((box == null) == (ray == null)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "give exactly one of --box and --ray");
            }
            // a repeated option appends its six values: only one query per run
            if (box != null && box.length != 6 || ray != null && ray.length != 6) {
                throw new CommandLine.ParameterException(spec.commandLine(), "give --box or --ray once");
            }
            CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
            if (box != null && (closest || parsed.hasMatchedOption("--max-fraction"))) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--closest and --max-fraction apply to --ray only");
            }
            PrintWriter out = spec.commandLine().getOut();
            requireFile(file);
            TraversalStack stack = new TraversalStack();
            try (MappedWorld world = MappedWorld.open(file)) {
                if (box != null) {
                    AllOverlaps found = new AllOverlaps();
                    world.queryAabb(box[0], box[1], box[2], box[3], box[4], box[5], mask, found, stack);
                    found.sort();
                    for (int i = 0; i < found.count(); i++) {
                        out.println(found.handle(i) + " " + found.userValue(i));
                        if ((i & 4095) == 4095 && out.checkError()) {
                            return EXIT_IO; // the reader has gone (a closed pipe): stop
                        }
                    }
                    out.println(found.count() + " objects");
                    if (out.checkError()) {
                        return EXIT_IO;
                    }
                } else if (closest) {
                    ClosestHit hit = new ClosestHit();
                    world.rayCast(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], maxFraction, mask, hit, stack);
                    out.println(hit.hasHit() ? hit.handle() + " " + hit.userValue() + " " + hit.fraction() : "no hit");
                    if (out.checkError()) {
                        return EXIT_IO;
                    }
                } else {
                    AllHits hits = new AllHits();
                    world.rayCast(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], maxFraction, mask, hits, stack);
                    hits.sort();
                    for (int i = 0; i < hits.count(); i++) {
                        out.println(hits.handle(i) + " " + hits.userValue(i) + " " + hits.fraction(i));
                        if ((i & 4095) == 4095 && out.checkError()) {
                            return EXIT_IO; // the reader has gone (a closed pipe): stop
                        }
                    }
                    out.println(hits.count() + " hits");
                    if (out.checkError()) {
                        return EXIT_IO;
                    }
                }
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            return 0;
        }
    }

    /**
     * A text progress bar on the error output for {@code build}: the bulk build fills the first half, the file
     * the second; redrawn in place ({@code \r}) only when the percentage changes.
     */
    static final class ProgressBar implements StaticWorldWriter.Progress {
        /** Inputs of at least this many objects show the bar by default. */
        static final int THRESHOLD = 100_000;
        private static final int WIDTH = 40;
        private final PrintWriter err;
        private int shown = -1;

        ProgressBar(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void building(long placedObjects, long totalObjects) {
            show("building", totalObjects == 0 ? 50 : (int) (50 * placedObjects / totalObjects));
        }

        @Override
        public void writing(long writtenBytes, long totalBytes) {
            show("writing ", totalBytes == 0 ? 100 : 50 + (int) (50 * writtenBytes / totalBytes));
        }

        /** Build callbacks come from several threads: one at a time, and never backwards. */
        private synchronized void show(String stage, int percent) {
            if (percent <= shown) {
                return;
            }
            shown = percent;
            int filled = percent * WIDTH / 100;
            err.print("\r" + stage + " [" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + percent + "%");
            err.flush();
        }

        /** Ends the bar's line, once (after a finished write, or before an error message). */
        synchronized void finish() {
            if (shown >= 0) {
                err.println();
                shown = Integer.MAX_VALUE;
            }
        }
    }

    /**
     * Parses a double as {@link Double#parseDouble} does, without what it takes beyond a written number: Java's
     * type suffixes ({@code 1f}, {@code 2d}: a typo such as {@code 1f} for hex would pass as one) and the control
     * characters it trims (a NUL at the end of a field), and without turning a finite number too large for a double
     * ({@code 1e400}) silently into infinity, which would then be refused as "not finite" under a value never
     * written.
     */
    static final class DoubleDecoder implements CommandLine.ITypeConverter<Double> {
        /** A number too large in magnitude for a double. */
        static final class OutOfRangeException extends NumberFormatException {
            OutOfRangeException(String message) {
                super(message);
            }
        }

        @Override
        public Double convert(String value) {
            try {
                return parse(value);
            } catch (OutOfRangeException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' " + e.getMessage());
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a number");
            }
        }

        static double parse(String value) {
            char last = value.isEmpty() ? ' ' : value.charAt(value.length() - 1);
            if ("dDfF".indexOf(last) >= 0 || value.chars().anyMatch(c -> c <= ' ')) {
                throw new NumberFormatException("For input string: \"" + value + "\"");
            }
            double d = Double.parseDouble(value);
            if (Double.isInfinite(d) && !value.endsWith("Infinity")) {
                throw new OutOfRangeException("is beyond the double range");
            }
            return d;
        }
    }

    /**
     * Parses a long as signed decimal (leading zeros are decimal, not octal: {@code 010} is ten) or as {@code 0x}
     * hex, read as 64 unsigned bits, so a mask with the top bit set can be written as it is printed
     * ({@code 0xFFFFFFFFFFFFFFFF}, {@code 0x8000000000000000}); a sign before {@code 0x} applies to those bits
     * ({@code -0x1} is -1). {@link Long#decode}'s octal and {@code #} hex are not taken.
     */
    static final class LongDecoder implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parse(value);
        }

        static long parse(String value) {
            boolean negative = value.startsWith("-");
            String digits = negative || value.startsWith("+") ? value.substring(1) : value;
            if (digits.startsWith("0x") || digits.startsWith("0X")) {
                String hex = digits.substring(2);
                if (hex.isEmpty() || Character.digit(hex.charAt(0), 16) < 0) {
                    // parseUnsignedLong would take a sign here: 0x+1
                    throw new NumberFormatException("For input string: \"" + value + "\"");
                }
                long bits = Long.parseUnsignedLong(hex, 16);
                return negative ? -bits : bits;
            }
            return Long.parseLong(value);
        }
    }
}
