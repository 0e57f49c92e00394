package dev.boxwood.serial;

import java.lang.reflect.InaccessibleObjectException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Recognises Chronicle Bytes failing to map a file for want of the JVM options in
 * {@code serialization/chronicle.args}, and turns its raw failure into one that says what to do.
 *
 * <p>Without the options Chronicle does not report a missing option: it throws an {@link AssertionError} (or an
 * I/O exception) whose cause is an {@link IllegalAccessException} or {@link IllegalAccessError} from its reflective
 * access to {@code map0} of the JDK's file channel, which names neither the option nor the file.
 */
final class JvmFlags {

    /** Where the options are kept, as the README and {@code docs/format.md} name the file. */
    static final String ARGS_FILE = "serialization/chronicle.args";

    /** The option JDK 23 and later need beside {@link #ARGS_FILE} (JDK 17 to 22 reject it). */
    static final String JDK23_ARGS_FILE = "serialization/chronicle-jdk23.args";

    /**
     * The module options of {@link #ARGS_FILE}, as {option, module, package}: the ones the running JVM can be asked
     * about ({@link Module#isOpen}, {@link Module#isExported}); {@code --enable-native-access} cannot be on JDK 17.
     */
    static final String[][] MODULE_OPTIONS = {
        {"--add-opens", "java.base", "java.lang.reflect"},
        {"--add-exports", "java.base", "sun.nio.ch"},
        {"--add-exports", "java.base", "jdk.internal.ref"},
        {"--add-exports", "java.base", "jdk.internal.misc"},
        {"--add-exports", "jdk.unsupported", "sun.misc"},
        {"--add-opens", "java.base", "java.lang"},
        {"--add-opens", "java.base", "java.io"},
        {"--add-opens", "java.base", "java.util"},
    };

    /** How deep a cause chain is searched: Chronicle wraps its failure two or three times. */
    private static final int MAX_CAUSES = 16;

    private JvmFlags() {
    }

    /**
     * Throws an {@link IllegalStateException} naming the missing options and the argument file if {@code failure},
     * thrown by Chronicle Bytes while mapping {@code file}, comes from a JDK internal it was not allowed to reach;
     * returns if it does not.
     *
     * @param failure what Chronicle threw
     * @param file    the file being mapped, for the message
     * @throws IllegalStateException with {@code failure} as its cause, if the JVM lacks the options
     */
    static void requireFor(Throwable failure, Path file) {
        if (!deniedAccess(failure)) {
            return;
        }
        List<String> missing = missingOptions();
        String options = missing.isEmpty()
                ? "every --add-opens and --add-exports of the file is in effect here: check its other options"
                : "missing here: " + String.join(" ", missing);
        throw new IllegalStateException(file + ": Chronicle Bytes, which maps world files, was denied access to JDK"
                + " internals: start the JVM with the options of " + ARGS_FILE + " (java @" + ARGS_FILE
                + " ..., and @" + JDK23_ARGS_FILE + " as well on JDK 23 and later); " + options, failure);
    }

    /** Whether the failure, or a cause of it, is the JVM denying reflective or linkage access. */
    static boolean deniedAccess(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++) {
            if (t instanceof IllegalAccessException || t instanceof IllegalAccessError
                    || t instanceof InaccessibleObjectException) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }

    /**
     * The options of {@link #MODULE_OPTIONS} this JVM runs without, spelled as on the command line for the module
     * that does the access (Chronicle's: {@code ALL-UNNAMED} on the class path, its own name on the module path).
     */
    static List<String> missingOptions() {
        Module chronicle = net.openhft.chronicle.core.OS.class.getModule();
        String target = chronicle.isNamed() ? chronicle.getName() : "ALL-UNNAMED";
        List<String> missing = new ArrayList<>();
        for (String[] option : MODULE_OPTIONS) {
            Module module = ModuleLayer.boot().findModule(option[1]).orElse(null);
            boolean open = option[0].equals("--add-opens");
            boolean granted = module != null && (open ? module.isOpen(option[2], chronicle)
                    : module.isExported(option[2], chronicle));
            if (!granted) {
                missing.add(option[0] + "=" + option[1] + "/" + option[2] + "=" + target);
            }
        }
        return missing;
    }
}
