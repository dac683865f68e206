package dev.stoker.loader.engine;

import java.util.Objects;

/**
 * One lane's first batch of a worker pass, shared out ({@link FirstBatches}): the worker making
 * it makes its first sample, then posts the rest here ({@link #share}); the other workers help
 * make them ({@link #helpFirst}). {@link SharedSamples} says why the batch holds the same samples
 * and draws.
 *
 * <p>{@link #NONE}: no help, every batch made on one thread.
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

    /** Help for one lane's first batch; {@code onDraw} is told when it turned out to draw from its generator. */
    static BatchHelp forLane(Runnable onDraw) {
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
     * Called by another worker: waits until this lane's first batch's samples are posted and helps
     * make them, or returns at once when the batch is made without help.
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
