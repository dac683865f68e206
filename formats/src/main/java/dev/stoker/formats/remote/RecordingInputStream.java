package dev.stoker.formats.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A remote shard's stream that writes what is read into a part file of the {@link ShardCache},
 * and renames the part file to the cached copy when the stream ends cleanly and whole. Ended any
 * other way (a failure, a close before the end, a length other than announced), the part file is
 * deleted and nothing is cached.
 */
final class RecordingInputStream extends InputStream {
    private static final System.Logger LOG = System.getLogger(RecordingInputStream.class.getName());

    private final InputStream in;
    private final Path part;
    private final Path target;
    private final long expectedLength;
    private final ShardCache cache;
    private OutputStream out; // null once the copy is kept or given up
    private long written;
    private boolean kept;

    RecordingInputStream(InputStream in, Path part, Path target, long expectedLength, ShardCache cache) {
        this.in = in;
        this.part = part;
        this.target = target;
        this.expectedLength = expectedLength;
        this.cache = cache;
        try {
            this.out = Files.newOutputStream(part);
        } catch (IOException e) {
            giveUp(e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException | RuntimeException e) {
            discard();
            throw e;
        }
        if (n < 0) {
            keep();
        } else if (out != null) {
            try {
                out.write(b, off, n);
                written += n;
            } catch (IOException e) {
                giveUp(e);
            }
        }
        return n;
    }

    private void keep() {
        if (out == null) {
            return;
        }
        try {
            out.close();
            out = null;
            if (expectedLength >= 0 && written != expectedLength) {
                Files.deleteIfExists(part); // the stream ended early without saying so
                return;
            }
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            kept = true;
            cache.evict(target);
        } catch (IOException e) {
            giveUp(e);
        }
    }

    private void giveUp(IOException e) {
        LOG.log(System.Logger.Level.WARNING, "shard cache: cannot keep a copy as " + target + " ("
                + e.getMessage() + "); the shard is read from its stream");
        discard();
    }

    private void discard() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // deleted next
            }
            out = null;
        }
        try {
            Files.deleteIfExists(part);
        } catch (IOException ignored) {
            // a stray part file; the cache never reads part files
        }
    }

    /** Whether the stream ended whole and its copy is now in the cache. */
    boolean kept() {
        return kept;
    }

    @Override
    public void close() throws IOException {
        discard(); // a copy that was kept is no longer the part file: nothing is lost
        in.close();
    }
}
