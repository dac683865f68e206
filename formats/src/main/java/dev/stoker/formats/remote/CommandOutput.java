package dev.stoker.formats.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A command's standard output as a stream that fails at its end when the command did: where the
 * output ends, the command's exit status is read, and a status other than 0 becomes an
 * {@link IOException} with the end of its standard error. Standard error is drained all along (a
 * full pipe would stall the command), keeping only its last {@link #TAIL_BYTES}.
 * Closing it before the end ends the command and every process it started.
 */
final class CommandOutput extends InputStream {
    static final int TAIL_BYTES = 2048;
    private static final Duration FORCE_AFTER = Duration.ofSeconds(5);

    private final Process process;
    private final String command;
    private final InputStream out;
    private final Duration exitWait;
    private final byte[] tail = new byte[TAIL_BYTES];
    private final Thread errorReader;
    private long errorBytes; // guarded by tail
    private boolean ended;

    CommandOutput(Process process, String command, Duration exitWait) {
        this.process = process;
        this.command = command;
        this.out = process.getInputStream();
        this.exitWait = exitWait;
        this.errorReader = Thread.ofVirtual().name("stoker-pipe-stderr").start(this::drainErrors);
    }

    private void drainErrors() {
        byte[] buf = new byte[4096];
        try (InputStream err = process.getErrorStream()) {
            int n;
            while ((n = err.read(buf)) >= 0) {
                synchronized (tail) {
                    for (int i = 0; i < n; i++) {
                        tail[(int) (errorBytes++ % TAIL_BYTES)] = buf[i];
                    }
                }
            }
        } catch (IOException e) {
            // the command is gone or was ended: what it wrote so far is what there is
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
        if (ended) {
            return -1;
        }
        int n = out.read(b, off, len);
        if (n < 0) {
            ended = true;
            checkExit();
        }
        return n;
    }

    private void checkExit() throws IOException {
        int status;
        try {
            if (!process.waitFor(exitWait.toNanos(), TimeUnit.NANOSECONDS)) {
                endProcesses();
                throw new IOException("`" + command + "` closed its output but was still running "
                        + exitWait.toMillis() + " ms later; it was ended");
            }
            status = process.exitValue();
            errorReader.join(Duration.ofSeconds(1)); // the rest of its standard error
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            endProcesses();
            throw new InterruptedIOException("interrupted while waiting for `" + command + "` to exit");
        }
        if (status != 0) {
            String err = errorTail();
            throw new IOException("`" + command + "` exited with status " + status
                    + (err.isEmpty() ? " and wrote nothing to standard error" : "; its standard error: " + err));
        }
    }

    /** The last bytes of standard error as text, on one line. */
    String errorTail() {
        byte[] last;
        synchronized (tail) {
            int size = (int) Math.min(errorBytes, TAIL_BYTES);
            last = new byte[size];
            for (int i = 0; i < size; i++) {
                last[i] = tail[(int) ((errorBytes - size + i) % TAIL_BYTES)];
            }
        }
        String text = new String(last, StandardCharsets.UTF_8).strip().replaceAll("\\s*\\R\\s*", " | ");
        return errorBytes > TAIL_BYTES ? "..." + text : text;
    }

    private void endProcesses() {
        // The shell's children first: ending only the shell would leave them writing to a closed pipe.
        var all = java.util.stream.Stream.concat(process.descendants(), java.util.stream.Stream.of(process.toHandle()))
                .toList();
        all.forEach(ProcessHandle::destroy);
        // One that ignores SIGTERM is killed a little later, without holding up the caller.
        Thread.ofVirtual().name("stoker-pipe-reaper").start(() -> {
            try {
                Thread.sleep(FORCE_AFTER);
            } catch (InterruptedException e) {
                return;
            }
            all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        });
    }

    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            endProcesses();
        }
        out.close();
    }
}
