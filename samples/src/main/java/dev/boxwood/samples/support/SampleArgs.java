package dev.boxwood.samples.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command line every sample accepts: an optional output folder (default {@code boxwood-out}) and an optional
 * {@code --quick} flag for a smaller, faster run. Parsing also calls {@link #quiet()}.
 *
 * @param out the output folder, created if missing
 * @param quick whether to run the small version
 */
public record SampleArgs(Path out, boolean quick) {

    /** Headless AWT (pictures without a display) and warnings-only logging; call before anything else. */
    public static void quiet() {
        System.setProperty("java.awt.headless", "true");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }

    /**
     * Parses the arguments and creates the output folder.
     *
     * @param args {@code [--quick] [folder]}, in any order
     * @return the parsed arguments
     * @throws IllegalArgumentException for an unknown option (anything else starting with {@code -}, so that
     *                                  {@code -h} does not become a folder), a second folder, or a folder that is a
     *                                  file or not writable
     * @throws UncheckedIOException     if the folder cannot be created
     */
    public static SampleArgs parse(String[] args) {
        quiet();
        Path out = null;
        boolean quick = false;
        for (String arg : args) {
            if (arg.equals("--quick")) {
                quick = true;
            } else if (arg.startsWith("-")) {
                throw new IllegalArgumentException("unknown option " + arg + " (expected: [--quick] [folder])");
            } else if (out != null) {
                throw new IllegalArgumentException("one output folder only, got " + out + " and " + arg
                        + " (expected: [--quick] [folder])");
            } else {
                out = Path.of(arg);
            }
        }
        if (out == null) {
            out = Path.of("boxwood-out");
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new IllegalArgumentException("the output folder " + out + " is a file");
        }
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the output folder " + out + " (" + e + ")", e);
        }
        if (!Files.isWritable(out)) {
            throw new IllegalArgumentException("the output folder " + out + " is not writable");
        }
        return new SampleArgs(out, quick);
    }

    /**
     * {@link #parse} for a sample's {@code main}: {@code -h} or {@code --help} prints the usage and exits with 0;
     * arguments {@link #parse} refuses print one line saying why, then the usage, and exit with 2 (no stack trace
     * for a user's mistake).
     *
     * @param program the sample's class name, for the usage line
     * @param args the command line
     * @return the parsed arguments
     */
    public static SampleArgs parseOrExit(String program, String[] args) {
        String usage = "usage: " + program + " [--quick] [folder]   (folder default: boxwood-out)";
        for (String arg : args) {
            if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println(usage);
                System.exit(0);
            }
        }
        try {
            return parse(args);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(usage);
            System.exit(2);
            throw e; // not reached
        }
    }
}
