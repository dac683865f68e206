package dev.stoker.formats.tar;

import dev.stoker.data.DataFiles;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Gzip-compressed shards ({@code .tar.gz}, {@code .tgz}), recognized by their magic bytes rather
 * than their names, as Python's {@code tarfile.open(mode="r|*")} does, and read through the JDK's
 * inflater as a stream: a compressed shard cannot be memory-mapped, so its members are read into
 * memory as they are inflated, with the same bounds as a shard over HTTP.
 */
final class GzipShards {
    private static final int MAGIC_0 = 0x1f;
    private static final int MAGIC_1 = 0x8b;
    private static final int BUFFER = 64 << 10;
    /** What may follow the compressed data (padding) that is read to reach the end of the input. */
    private static final long MAX_TRAILER = 1 << 20;

    private GzipShards() {
    }

    /** Whether the file starts with gzip's magic bytes. */
    static boolean isGzip(Path file) {
        try (InputStream in = DataFiles.newInputStream(file)) {
            return in.read() == MAGIC_0 && in.read() == MAGIC_1;
        } catch (IOException e) {
            return false; // opening it as a tar says what is wrong (a FIFO included: refused, not opened)
        }
    }

    /** Whether a mapped file starts with gzip's magic bytes. */
    static boolean isGzip(MemorySegment map) {
        return map.byteSize() >= 2 && Byte.toUnsignedInt(map.get(ValueLayout.JAVA_BYTE, 0)) == MAGIC_0
                && Byte.toUnsignedInt(map.get(ValueLayout.JAVA_BYTE, 1)) == MAGIC_1;
    }

    /**
     * {@code in} inflated when it starts with gzip's magic bytes, else {@code in} as it is. At the
     * end of the compressed data the rest of {@code in} is read too, so that what reads below this
     * (a cache that keeps the download, a command's exit status) sees the input end.
     *
     * @throws TarException naming {@code name} when the gzip header is damaged
     */
    static InputStream inflatingIfGzip(InputStream in, String name) {
        PushbackInputStream peek = new PushbackInputStream(in, 2);
        try {
            int b0 = peek.read();
            int b1 = b0 < 0 ? -1 : peek.read();
            if (b1 >= 0) {
                peek.unread(b1);
            }
            if (b0 >= 0) {
                peek.unread(b0);
            }
            if (b0 != MAGIC_0 || b1 != MAGIC_1) {
                return peek;
            }
            return new ToTheEnd(new GZIPInputStream(peek, BUFFER), peek);
        } catch (IOException e) {
            closeQuietly(peek);
            throw new TarException(name, 0, "cannot read the gzip header: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
    }

    /** Whether {@code in} is one that {@link #inflatingIfGzip} made to inflate. */
    static boolean isInflating(InputStream in) {
        return in instanceof ToTheEnd;
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // failing already
        }
    }

    /** The inflated stream, reading its raw input to the end once the inflated data ends. */
    private static final class ToTheEnd extends FilterInputStream {
        private final InputStream raw;

        ToTheEnd(InputStream inflated, InputStream raw) {
            super(inflated);
            this.raw = raw;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n < 0) {
                byte[] skip = new byte[8192];
                long left = MAX_TRAILER;
                int r;
                while (left > 0 && (r = raw.read(skip, 0, (int) Math.min(skip.length, left))) >= 0) {
                    left -= r;
                }
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }
    }
}
