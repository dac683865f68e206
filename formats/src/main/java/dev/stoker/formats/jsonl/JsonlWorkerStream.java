package dev.stoker.formats.jsonl;

import dev.stoker.data.DataFiles;
import dev.stoker.data.SampleStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * One worker's lines of a {@link JsonlStream}: its files in order, and of their lines those whose
 * position {@code k} in the concatenation has {@code k % stride == phase}.
 *
 * <p>{@link #hasNext} only finds the next line of this worker's; {@link #next} parses it, so a
 * bad line throws from {@code next} with the stream already past it, and {@link #skip} moves on
 * without parsing.
 */
final class JsonlWorkerStream<T> implements SampleStream<T> {
    private final JsonlStream<T> source;
    private final List<Integer> files;
    private final int stride;
    private final int phase;
    private int nextFile;
    private int current = -1;
    private LineReader reader;
    private long seen; // lines of the concatenation passed
    private boolean positioned; // the reader holds a line of ours not yet handed out
    private JsonlLineException pendingError; // that line was bad before it could be read
    private boolean closed;
    private long linesOfFile; // lines read from the current file, for errors

    JsonlWorkerStream(JsonlStream<T> source, List<Integer> files, int stride, int phase) {
        this.source = source;
        this.files = files;
        this.stride = stride;
        this.phase = phase;
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        while (!positioned) {
            if (reader == null && !openNext()) {
                return false;
            }
            boolean more;
            JsonlLineException bad = null;
            boolean damaged = false;
            try {
                more = reader.next();
            } catch (JsonlLineException e) {
                more = true; // too long: a line all the same, bad
                bad = e;
            } catch (ZipException | EOFException | DamagedStreamException e) {
                // a damaged or cut gzip stream: the line it reached is a bad line, the one worker whose line it
                // is reports it, and every worker goes on with the next file (the file's rest cannot be found)
                more = true;
                damaged = true;
                bad = damaged(source.file(current), reader.number() + 1, e);
            } catch (IOException e) {
                Path f = source.file(current);
                closeReader();
                nextFile = files.size();
                throw new UncheckedIOException(f + ": cannot be read after line " + linesOfFile + ": " + e.getMessage(), e);
            }
            if (!more) {
                closeReader();
                continue;
            }
            linesOfFile = damaged ? reader.number() + 1 : reader.number();
            if (damaged) {
                closeReader();
            }
            if (seen++ % stride == phase) {
                positioned = true;
                pendingError = bad;
            }
        }
        return true;
    }

    private boolean openNext() {
        if (nextFile >= files.size()) {
            return false;
        }
        current = files.get(nextFile++);
        Path f = source.file(current);
        linesOfFile = 0;
        try {
            InputStream in = DataFiles.newInputStream(f); // a FIFO is refused, not opened
            switch (source.compression(current)) {
                case GZIP -> in = new DecompressOnRead(in, raw -> new GZIPInputStream(raw, 1 << 16));
                case ZSTD -> in = new DecompressOnRead(in, ZstdLines::open);
                case NONE -> { }
            }
            reader = new LineReader(in, f, source.maxLineBytes());
            return true;
        } catch (IOException e) {
            nextFile = files.size();
            throw new UncheckedIOException(f + ": cannot be opened: " + e.getMessage(), e);
        }
    }

    private static JsonlLineException damaged(Path file, long line, IOException e) {
        String why = e instanceof DamagedStreamException ? e.getMessage()
                : e instanceof EOFException ? "the gzip stream ends early (the file is cut short)"
                : "the gzip stream is damaged (" + e.getMessage() + ")";
        return new JsonlLineException(file, line, why + "; the lines before it were read, the rest of the file is"
                + " passed over", e);
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the stream is at its end");
        }
        positioned = false;
        if (pendingError != null) {
            JsonlLineException e = pendingError;
            pendingError = null;
            throw e;
        }
        return source.decoder().decode(reader.line(), reader.length(), source.file(current), reader.number());
    }

    /** Moves past {@code n} of this worker's lines, reading but not parsing them. */
    @Override
    public long skip(long n) {
        long done = 0;
        while (done < n && hasNext()) {
            positioned = false;
            pendingError = null;
            done++;
        }
        return done;
    }

    private void closeReader() {
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException e) {
                // reading is over; nothing is lost by a failed close of an input
            }
            reader = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        closeReader();
    }
}
