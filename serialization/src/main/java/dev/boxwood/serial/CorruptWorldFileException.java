package dev.boxwood.serial;

import java.io.IOException;

/**
 * A static world file is not a valid world: wrong magic, unsupported version, sizes inconsistent with the file
 * length, a checksum mismatch or a broken tree structure. The message names the file and what is wrong.
 *
 * <p>It is an {@link IOException} because it comes from the same calls that read files ({@link MappedWorld#open}
 * and {@link MappedWorld#verify()}), and callers handle it alike: the file cannot be used. A query on a world
 * whose corruption was not caught by {@code open} (the cheap header checks, unless the world was opened with
 * {@link MappedWorld#open(java.nio.file.Path, boolean) verification}) and that meets an impossible node reference
 * throws it wrapped in an {@link java.io.UncheckedIOException}; it never reads outside the mapping.
 */
public class CorruptWorldFileException extends IOException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the file
     */
    public CorruptWorldFileException(String message) {
        super(message);
    }
}
