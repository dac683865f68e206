package dev.stoker.formats.jsonl;

import java.io.IOException;
import java.io.InputStream;

/**
 * A decompressing stream made at the first read, not when the file is opened, so that a damaged
 * header (gzip's or zstd's frame header) is met where the lines are read, as the first line's
 * error, rather than as a file that cannot be opened.
 */
final class DecompressOnRead extends InputStream {
    /** Makes the decompressor over the raw file stream; it may read the header. */
    interface Opener {
        InputStream open(InputStream raw) throws IOException;
    }

    private final InputStream raw;
    private final Opener opener;
    private InputStream decompressed;

    DecompressOnRead(InputStream raw, Opener opener) {
        this.raw = raw;
        this.opener = opener;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (decompressed == null) {
            decompressed = opener.open(raw);
        }
        return decompressed.read(b, off, len);
    }

    @Override
    public void close() throws IOException {
        if (decompressed != null) {
            decompressed.close();
        } else {
            raw.close();
        }
    }
}
