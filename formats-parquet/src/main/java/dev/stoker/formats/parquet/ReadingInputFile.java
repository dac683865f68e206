package dev.stoker.formats.parquet;

import dev.stoker.data.DataFiles;
import dev.hardwood.InputFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Hardwood's {@link InputFile} over positional reads instead of its memory map. Hardwood hands
 * compressed pages to snappy-java and zstd-jni, which read them in native code: over a map of a
 * file that another process cut short, that read raises {@code SIGBUS} inside native code, which
 * the JVM cannot turn into an exception and dies of. A read past the new end here is a short
 * read, reported as {@link FileCutShortException}, which the dataset names. The cost is one copy of
 * a column chunk's compressed bytes, small next to decompressing and decoding them.
 */
final class ReadingInputFile implements InputFile {
    private final Path path;
    private FileChannel channel;
    private long length = -1;

    ReadingInputFile(Path path) {
        this.path = path;
    }

    @Override
    public void open() throws IOException {
        if (channel == null) {
            channel = DataFiles.openChannel(path); // a FIFO is refused, not opened
            length = channel.size();
        }
    }

    @Override
    public ByteBuffer readRange(long offset, int len) throws IOException {
        if (channel == null) {
            throw new IOException(path + ": read before it was opened");
        }
        if (offset < 0 || len < 0 || offset > length - len) {
            throw new IOException(path + ": a read of " + len + " bytes at byte " + offset + " is outside the file ("
                    + length + " bytes)");
        }
        // off-heap, so the decompressors take it as it is; freed with the last page that refers to it
        ByteBuffer buf = Arena.ofAuto().allocate(Math.max(1, len), 64).asByteBuffer().limit(len);
        long at = offset;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) {
                throw new FileCutShortException(path, length, channel.size(), at);
            }
            at += n;
        }
        return buf.flip();
    }

    @Override
    public long length() throws IOException {
        if (channel == null) {
            throw new IOException(path + ": asked its length before it was opened");
        }
        return length;
    }

    @Override
    public String name() {
        return path.getFileName().toString();
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
