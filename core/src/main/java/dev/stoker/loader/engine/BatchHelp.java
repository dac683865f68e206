package dev.stoker.loader.engine;

import java.util.Objects;

/**
 * Where the first batch of a worker pass is shared out: the worker making it posts its samples
 * here ({@link #share}), and the other workers, before they start on batches of their own, help
 * make them ({@link #helpFirst}). The first batch of a pass is the one the consumer waits for
 * with nothing to hide the wait: every worker is starting at once, and in a new JVM the code that
 * makes a sample still runs in the interpreter. Made by all workers, it arrives about that many
 * times sooner; the batches after it are made one per worker, as before, so the memory in flight
 * and the order stay as they were. {@link SharedSamples} says why the batch holds the same
 * samples and draws.
 *
 * <p>A pass without help ({@link #NONE}: one worker, an autotuned pass, whose lanes and the
 * consumer's thread may make batches in any order, or a dataset found to draw from the batch's
 * generator) makes every batch on one thread.
 */
final class BatchHelp {
    /** No help: every batch made by its own worker alone. */
    static final BatchHelp NONE = new BatchHelp(null);

    /** What to tell when a shared batch's samples drew from the batch's generator; null for {@link #NONE}. */
    private final Runnable onDraw;
    private SharedSamples posted;   // guarded by this
    private boolean ownerDrew;      // the first batch's worker's thread alone
    private volatile boolean closed; // written under this; read without it once per batch, to skip the lock

    private BatchHelp(Runnable onDraw) {
        this.onDraw = onDraw;
        this.closed = onDraw == null;
    }

    /** Help for one pass; {@code onDraw} is told when a shared batch turned out to draw from its generator. */
    static BatchHelp forPass(Runnable onDraw) {
        return new BatchHelp(Objects.requireNonNull(onDraw, "onDraw"));
    }

    /** Whether the next batch made with this help may be shared: a pass's first, until it is made. */
    boolean isOpen() {
        return !closed;
    }

    /** The first batch's own scope drew from the batch's generator (its worker's thread). */
    void ownerDrew() {
        ownerDrew = true;
    }

    /**
     * Called by the first batch's worker, in the batch's scope: makes the first of the
     * {@code size} samples ({@code work}) itself, then, unless it drew from the batch's generator
     * (its draws then run on into the next sample's, which only this thread can continue), has
     * the others made by every worker that comes to help. Returns how many samples from the start
     * are made; the caller makes the rest, in order, in the same scope. Without help (or once the
     * first batch is made) it makes nothing and returns 0. Closes the help: only the first batch
     * is shared.
     *
     * @throws SharedSamples.Failed for a failed sample, as {@link SharedSamples#made} says
     */
    int share(int size, SharedSamples.SampleWork work) {
        if (closed) {
            return 0; // every batch but a pass's first: one volatile read
        }
        try {
            if (size == 0) {
                return 0;
            }
            try {
                work.run(0);
            } catch (RuntimeException | Error e) {
                throw new SharedSamples.Failed(0, e);
            }
            if (ownerDrew) {
                onDraw.run();
                return 1;
            }
            SharedSamples shared;
            synchronized (this) {
                if (closed) {
                    return 1;
                }
                shared = new SharedSamples(1, size, work);
                posted = shared;
                notifyAll();
            }
            int made = shared.made();
            if (shared.drew()) {
                onDraw.run();
            }
            return made;
        } finally {
            close();
        }
    }

    /** No more help: a worker waiting for the first batch goes on to its own. Safe to call more than once. */
    void close() {
        if (closed) {
            return; // once per batch on some paths: a volatile read
        }
        synchronized (this) {
            closed = true;
            posted = null;
            notifyAll();
        }
    }

    /**
     * Called by a worker before its first batch: waits until the first batch's samples are posted
     * and helps make them, or returns at once when the first batch is made without help.
     *
     * @throws InterruptedException when the pass closes meanwhile
     */
    void helpFirst() throws InterruptedException {
        SharedSamples shared;
        synchronized (this) {
            while (posted == null && !closed) {
                wait();
            }
            shared = posted;
        }
        if (shared != null) {
            shared.help();
        }
    }
}
