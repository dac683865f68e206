package dev.stoker.formats.jsonl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The lines of one stream, one at a time, into a reused buffer: a line is what lies before the
 * next {@code '\n'} (a {@code '\r'} before it dropped), and text after the last {@code '\n'}. A
 * line longer than the limit is refused rather than buffered, so a file without newlines cannot
 * exhaust the heap. Not thread-safe.
 */
final class LineReader implements AutoCloseable {
    private final InputStream in;
    private final Path file;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[1 << 16];
    private int pos;
    private int lim;
    private boolean eof;
    private byte[] line = new byte[256];
    private int length;
    private long number; // lines read so far

    LineReader(InputStream in, Path file, int maxLineBytes) {
        this.in = in;
        this.file = file;
        this.maxLineBytes = maxLineBytes;
    }

    /** Reads the next line; false at the end. @throws JsonlLineException for a line past the limit */
    boolean next() throws IOException {
        length = 0;
        boolean any = false;
        boolean tooLong = false;
        while (true) {
            if (pos == lim) {
                if (eof || !fill()) {
                    return any && end(tooLong);
                }
            }
            any = true;
            int nl = pos;
            while (nl < lim && chunk[nl] != '\n') {
                nl++;
            }
            if (!tooLong && (long) length + (nl - pos) > maxLineBytes) {
                tooLong = true; // read on to its end, so the next line starts where it should
            }
            if (!tooLong) {
                append(pos, nl);
            }
            if (nl < lim) {
                pos = nl + 1;
                return end(tooLong);
            }
            pos = lim;
        }
    }

    private boolean end(boolean tooLong) {
        number++;
        if (tooLong) {
            length = 0;
            throw new JsonlLineException(file, number, "is longer than " + maxLineBytes + " bytes (the stream's limit)");
        }
        length = LineDecoder.stripCr(line, length);
        return true;
    }

    private boolean fill() throws IOException {
        int n = in.read(chunk);
        if (n <= 0) {
            eof = true;
            return false;
        }
        pos = 0;
        lim = n;
        return true;
    }

    private void append(int from, int to) {
        int n = to - from;
        if (length + n > line.length) {
            line = Arrays.copyOf(line, (int) Math.min(maxLineBytes, Math.max(length + n, 2L * line.length)));
        }
        System.arraycopy(chunk, from, line, length, n);
        length += n;
    }

    byte[] line() {
        return line;
    }

    int length() {
        return length;
    }

    /** The line read last, counted from 1. */
    long number() {
        return number;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
