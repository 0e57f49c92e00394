package dev.boxwood.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.boxwood.index.build.BinnedSahBuilder;
import dev.boxwood.serial.BoxSource;

/**
 * A binary list of boxes read as a {@link BoxSource}: the file is nothing but little-endian IEEE 754 doubles, six
 * per box ({@code minX, minY, minZ, maxX, maxY, maxZ}), so its length is 48 bytes per box. Boxes are read in the
 * chunks the writer asks for, through one reused buffer: a world of any size is built without its boxes ever
 * being on the heap as doubles.
 */
final class BinaryBoxFile implements BoxSource, AutoCloseable {

    /** Bytes per box. */
    static final int BOX_BYTES = 48;

    private final Path file;
    private final FileChannel channel;
    private final int count;
    private ByteBuffer buffer = ByteBuffer.allocate(0);

    private BinaryBoxFile(Path file, FileChannel channel, int count) {
        this.file = file;
        this.channel = channel;
        this.count = count;
    }

    /**
     * Opens a binary box list.
     *
     * @param file the file
     * @return the source; close it when done
     * @throws IOException if the file cannot be opened; {@link WorldTool.InvalidInputException} if its length is
     *                     not a whole number of boxes or is more boxes than a world holds
     */
    static BinaryBoxFile open(Path file) throws IOException {
        WorldTool.requireFile(file);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            long length = channel.size();
            if (length % BOX_BYTES != 0) {
                throw new WorldTool.InvalidInputException(file + ": length " + length + " is not a multiple of "
                        + BOX_BYTES + " bytes (six little-endian doubles per box)", null);
            }
            if (length / BOX_BYTES > BinnedSahBuilder.MAX_OBJECTS) {
                throw new WorldTool.InvalidInputException(file + ": " + length / BOX_BYTES + " boxes, more than the "
                        + BinnedSahBuilder.MAX_OBJECTS + " a world holds", null);
            }
            return new BinaryBoxFile(file, channel, (int) (length / BOX_BYTES));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public void read(int first, int count, double[] dest) {
        int bytes = count * BOX_BYTES;
        if (buffer.capacity() < bytes) {
            buffer = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        buffer.clear().limit(bytes);
        long position = (long) first * BOX_BYTES;
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, position + buffer.position()) < 0) {
                    throw new IOException(file + ": ended before box " + (first + count) + " (truncated while read?)");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        buffer.flip();
        buffer.asDoubleBuffer().get(dest, 0, 6 * count);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
