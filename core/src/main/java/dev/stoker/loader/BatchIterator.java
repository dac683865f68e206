package dev.stoker.loader;

import dev.stoker.loader.engine.BatchSource;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.Usage;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One pass of a loader over its data: one epoch. Made by the loader's {@code iterator()};
 * for one consumer thread, though {@link #close()} may come from any thread.
 *
 * <p>Each batch handed out belongs to the caller, who closes it. Closing the iterator ends the
 * pass early: it closes the dataset's stream and gives back the memory of any batch loaded but
 * not handed out; batches already handed out stay valid. A pass that runs to its end closes
 * itself; one that is abandoned is closed when the loader starts the next pass or is closed.
 *
 * <p>NOTE: closed from another thread (or with the loader), the pass ends at the consumer's next
 * {@code hasNext()}, which returns false. A batch that {@code hasNext()} already announced is
 * still the consumer's: {@code next()} hands it out (never a {@code NoSuchElementException}
 * after a true {@code hasNext()}), or the consumer's own {@code close()} gives it back. A batch
 * that was being loaded when the close came is given back by the consumer's thread.
 *
 * <pre>{@code
 * try (BatchIterator it = loader.iterator()) {
 *     while (it.hasNext()) {
 *         try (Batch b = it.next()) {
 *             if (step(b)) break;   // leaving early is fine: close() cleans up
 *         }
 *     }
 * }
 * }</pre>
 */
public final class BatchIterator implements Iterator<Batch>, AutoCloseable {
    private final PassListener listener;
    private final long epoch;
    private final BatchSource source;
    // pending, pendingFailure and exhausted are the consumer's alone: a close() from another
    // thread only raises `closed` (and closes the source, which wakes a consumer waiting on it),
    // and the consumer gives back what it loaded once it sees the flag. So the per-batch cost is
    // one volatile read; no lock.
    private Batch pending;
    private RuntimeException pendingFailure;
    private boolean exhausted;
    private Thread consumer; // the thread that loaded `pending`, for close() to know whose it is
    private volatile boolean closed;
    private final AtomicBoolean closing = new AtomicBoolean(); // close()'s work runs once
    private long delivered;
    private final StageClock clock;
    private final Usage atStart = Usage.now();
    private volatile Usage atEnd; // null while the pass runs; read by profile() from any thread
    private long handedOutAt; // when the last batch was handed out: the consumer's step starts; 0 before the first

    BatchIterator(PassListener listener, long epoch, BatchSource source, StageClock clock) {
        this.listener = listener;
        this.epoch = epoch;
        this.source = source;
        this.clock = clock;
    }

    /** What this pass has cost, to its end or to now while it runs, for the loader's profile. */
    Usage activeUsage() {
        Usage end = atEnd;
        return (end != null ? end : Usage.now()).minus(atStart);
    }

    private void ended() {
        if (atEnd == null) {
            atEnd = Usage.now();
        }
    }

    /** Batches made ahead and waiting for the consumer (not the one {@code hasNext()} announced). Any thread. */
    int ready() {
        return source.ready();
    }

    /** Whether every batch of the pass was delivered: it ran to its end, not closed early. */
    boolean ranToEnd() {
        return exhausted && pending == null && pendingFailure == null;
    }

    /**
     * Whether another batch (or the error of the next batch) is coming. This loads the next batch
     * when none is loaded yet, so it may take as long as loading one.
     */
    @Override
    public boolean hasNext() {
        if (pending != null || pendingFailure != null) {
            return true; // announced before a close: still the consumer's, see the class comment
        }
        if (closed || exhausted) {
            return false;
        }
        long asked = System.nanoTime();
        if (handedOutAt != 0) {
            clock.record(Stage.STEP, handedOutAt, asked, epoch, delivered - 1);
            handedOutAt = 0;
        }
        Batch loaded;
        try {
            loaded = source.next();
        } catch (RuntimeException e) {
            if (closed) {
                return false; // the pass was closed meanwhile: nobody waits for its errors now
            }
            waited(asked); // for a batch, whose error came instead
            // Kept for next(), so that the error comes at the batch that needed it.
            pendingFailure = e;
            consumer = Thread.currentThread();
            return true;
        }
        if (loaded != null) {
            waited(asked); // the ask that found the end waited for no batch: not a wait of the loader's
        }
        if (loaded == null) {
            exhausted = true;
            ended();
            source.close();
            return false;
        }
        if (closed) { // closed while it loaded: the closer did not see it, so it goes back from here
            loaded.close();
            return false;
        }
        pending = loaded;
        consumer = Thread.currentThread();
        return true;
    }

    /** The consumer waited from {@code asked} to now for the next batch (or its error). */
    private void waited(long asked) {
        clock.record(delivered == 0 ? Stage.FIRST_BATCH : Stage.WAIT, asked, System.nanoTime(), epoch, delivered);
    }

    /**
     * The next batch, which the caller must close.
     *
     * @throws LoaderException when this batch could not be loaded; with a map-style dataset the
     *     pass goes on with the next batch (not after a timeout, or a worker whose
     *     {@code workerInit} failed: those end the pass)
     * @throws NoSuchElementException when the pass is over or the iterator closed
     */
    @Override
    public Batch next() {
        if (!hasNext()) {
            throw new NoSuchElementException(closed ? "this pass (epoch " + epoch + ") was closed"
                    : "epoch " + epoch + " is over after " + delivered + " batches");
        }
        if (pendingFailure != null) {
            RuntimeException e = pendingFailure;
            pendingFailure = null;
            source.received(e); // its error took its place: resume goes on after it
            listener.received();
            throw e;
        }
        Batch b = pending;
        pending = null;
        delivered++;
        source.received(b);
        listener.received();
        handedOutAt = System.nanoTime();
        return b;
    }

    /** The epoch of this pass. */
    public long epoch() {
        return epoch;
    }

    /** Batches handed out so far in this pass. */
    public long batchesDelivered() {
        return delivered;
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Ends the pass; see the class comment. Idempotent, and safe from any thread: from the
     * consumer's it also gives back a batch {@code hasNext()} announced and {@code next()} did not
     * hand out.
     */
    @Override
    public void close() {
        closed = true;
        if (Thread.currentThread() == consumer) {
            pendingFailure = null;
            Batch b = pending;
            pending = null;
            if (b != null) {
                b.close();
            }
        }
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        ended();
        try {
            source.close();
        } finally {
            listener.closed();
        }
    }
}
