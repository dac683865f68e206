package dev.stoker.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;

/**
 * Paths that are not regular files, put where a reader expects a data file, and a check that the
 * reader refuses them rather than hanging on them.
 *
 * <p>A reader that opens a named pipe (FIFO) blocks in {@code open(2)} until a writer comes, and
 * that open cannot be interrupted; so the read runs on a daemon thread, and a read that has not
 * finished after {@link #HANG} is a hang: the test fails, and the blocked thread is let go by
 * opening the pipe for writing (then closing it), so that it does not outlive the test.
 */
public final class SpecialFiles {
    /** How long a refusal may take before it counts as a hang: far longer than one stat. */
    /** What a refusal of a named pipe says after the file's name ({@code DataFiles}). */
    public static final String FIFO_REFUSED = ": is a named pipe (FIFO), not a regular file; a data file must be a regular file";
    private static final long HANG = 10;

    private SpecialFiles() {
    }

    /** What a reader does with the file; anything it throws is the refusal. */
    @FunctionalInterface
    public interface Read {
        void run() throws Exception;
    }

    /** Makes a named pipe at {@code path} with {@code mkfifo}; the test is skipped where there is none. */
    public static Path fifo(Path path) throws IOException, InterruptedException {
        Process p;
        try {
            // the name as an argument of its own, after "--": never a shell, never an option
            p = new ProcessBuilder("mkfifo", "--", path.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("no mkfifo here: " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes());
        Assumptions.assumeTrue(p.waitFor() == 0, () -> "mkfifo failed: " + out);
        return path;
    }

    /** A link at {@code path} to {@code /dev/zero} (a character device that reads zeros without end); skipped where there is none. */
    public static Path linkToDevZero(Path path) throws IOException {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero here");
        return Files.createSymbolicLink(path, zero);
    }

    /**
     * Runs {@code read}, which must meet {@code special} (a FIFO or another path that is not a
     * regular file), and returns what it threw; fails the test when it returns normally or has not
     * finished in time (a hang).
     */
    public static Throwable refused(Path special, Read read) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().daemon().name("special-file-read").start(() -> {
            try {
                read.run();
            } catch (Throwable e) {
                thrown.set(e);
            } finally {
                done.countDown();
            }
        });
        if (!done.await(HANG, TimeUnit.SECONDS)) {
            String where = stack(t);
            // On a thread of its own: with no reader blocked on the pipe, opening it to write blocks too.
            Thread.ofPlatform().daemon().name("special-file-release").start(() -> release(special));
            t.join(TimeUnit.SECONDS.toMillis(HANG));
            fail("the read of " + special + " hung (no answer in " + HANG + " s):" + where);
        }
        assertThat(thrown.get()).as("what reading %s threw", special).isNotNull();
        return thrown.get();
    }

    /** The message of {@code e} and of each of its causes, one after another: a reader may wrap the refusal. */
    public static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append(" | ");
        }
        return b.toString();
    }

    /** Lets a read blocked on opening a FIFO go on, by opening the FIFO for writing and closing it (it then reads an empty pipe). */
    private static void release(Path special) {
        if (!Files.isRegularFile(special) && !Files.isDirectory(special)) {
            try (OutputStream out = Files.newOutputStream(special, StandardOpenOption.WRITE)) {
                out.flush();
            } catch (IOException | RuntimeException ignored) {
                // not a FIFO, or gone: nothing to let go
            }
        }
    }

    private static String stack(Thread t) {
        StringBuilder b = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            b.append("\n    at ").append(e);
        }
        return b.toString();
    }
}
