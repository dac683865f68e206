package dev.stoker.formats.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A read-ahead buffer that gives up on a stalled source: a virtual thread copies the source into
 * a bounded queue of chunks, and a read that waits longer than the stall timeout for the next
 * chunk fails with an {@link IOException} naming the source, instead of blocking for ever. The
 * JDK's HTTP client has no read timeout once the headers have arrived; this is its read timeout.
 *
 * <pre>{@code
 * InputStream body = new StallGuardInputStream(response.body(), url, 1 << 20, Duration.ofSeconds(60));
 * }</pre>
 *
 * <p>Closing it closes the source (which cancels an HTTP exchange) and ends the copying thread.
 */
public final class StallGuardInputStream extends InputStream {
    private static final int CHUNK = 64 << 10;
    private static final byte[] END = new byte[0];

    /** What the copying thread hands over: bytes, the end, or the source's failure. */
    private record Piece(byte[] bytes, int length, IOException failure) {}

    private final InputStream source;
    private final String name;
    private final String producer;
    private final long stallNanos;
    private final BlockingQueue<Piece> pieces;
    private final Thread pump;
    private Piece current;
    private int offset;
    private volatile boolean closed;

    /**
     * @param source    what is read (closed with this stream)
     * @param name      the source, for messages (a URL)
     * @param readAhead bytes buffered ahead of the reader, at most (rounded up to 64 KiB chunks)
     * @param stall     how long a read may wait for the next bytes
     */
    public StallGuardInputStream(InputStream source, String name, int readAhead, Duration stall) {
        this(source, name, readAhead, stall, "the server");
    }

    /**
     * @param source    what is read (closed with this stream)
     * @param name      the source, for messages (a URL)
     * @param readAhead bytes buffered ahead of the reader, at most (rounded up to 64 KiB chunks)
     * @param stall     how long a read may wait for the next bytes
     * @param producer  what writes the source, for the stall message: "the server", "the command"
     */
    public StallGuardInputStream(InputStream source, String name, int readAhead, Duration stall, String producer) {
        if (stall.isNegative() || stall.isZero()) {
            throw new IllegalArgumentException("a stall timeout is positive, not " + stall);
        }
        this.source = source;
        this.name = name;
        this.producer = producer;
        this.stallNanos = stall.toNanos();
        this.pieces = new ArrayBlockingQueue<>(Math.max(2, Math.ceilDiv(readAhead, CHUNK)));
        this.pump = Thread.ofVirtual().name("stoker-stream-read " + name).start(this::copy);
    }

    private void copy() {
        try {
            while (!closed) {
                byte[] chunk = new byte[CHUNK];
                int n = source.read(chunk, 0, CHUNK); // what has arrived: a slow trickle is not a stall
                if (n < 0) {
                    pieces.put(new Piece(END, -1, null));
                    return;
                }
                pieces.put(new Piece(chunk, n, null));
            }
        } catch (IOException e) {
            if (!closed) {
                offerQuietly(new Piece(END, -1, e));
            }
        } catch (InterruptedException e) {
            // closed: nobody reads any more
        } catch (RuntimeException e) {
            // Handed over too: a pump that died silently would read as a stall, after the whole timeout.
            if (!closed) {
                offerQuietly(new Piece(END, -1, new IOException("reading " + name + " failed: " + e, e)));
            }
        }
    }

    private void offerQuietly(Piece p) {
        try {
            pieces.put(p);
        } catch (InterruptedException e) {
            // closed while handing over the failure: nobody reads any more
        }
    }

    /** The piece being read, waiting at most the stall timeout for the next one; null at the end. */
    private Piece current() throws IOException {
        if (closed) {
            throw new IOException(name + ": read after close");
        }
        if (current != null && (current.length < 0 || offset < current.length)) {
            return current.length < 0 ? end(current) : current;
        }
        Piece next;
        try {
            next = pieces.poll(stallNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for data from " + name);
        }
        if (next == null) {
            close();
            throw new IOException("no data from " + name + " for " + Duration.ofNanos(stallNanos).toMillis()
                    + " ms: " + producer + " stalled"
                    + " (give the reader a longer stall or read timeout if it is only slow)");
        }
        current = next;
        offset = 0;
        return next.length < 0 ? end(next) : next;
    }

    private Piece end(Piece last) throws IOException {
        if (last.failure != null) {
            throw last.failure;
        }
        return null;
    }

    @Override
    public int read() throws IOException {
        Piece p = current();
        return p == null ? -1 : p.bytes[offset++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        Piece p = current();
        if (p == null) {
            return -1;
        }
        int n = Math.min(len, p.length - offset);
        System.arraycopy(p.bytes, offset, b, off, n);
        offset += n;
        return n;
    }

    @Override
    public int available() {
        return current == null || current.length < 0 ? 0 : current.length - offset;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        pump.interrupt();
        pieces.clear();
        current = null;
        source.close();
    }

    @Override
    public String toString() {
        return "StallGuardInputStream(" + name + ", stall after " + Duration.ofNanos(stallNanos).toMillis() + " ms)";
    }
}
