package dev.stoker.metrics;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sums the time of every {@link Stage}, from any number of threads at once, and passes each
 * timed span on to the {@link Trace} being recorded, if one is. A loader has one; it is always
 * on, since a span costs two clock reads and two adds, and a trace only while one is started.
 *
 * <pre>{@code
 * StageClock clock = new StageClock();
 * long t = System.nanoTime();
 * work();
 * clock.record(Stage.DECODE, t, System.nanoTime(), 0, 7);
 * clock.times().get(Stage.DECODE).count();   // 1
 * }</pre>
 */
public final class StageClock {
    private static final Stage[] STAGES = Stage.values();

    private final LongAdder[] nanos = new LongAdder[STAGES.length];
    private final LongAdder[] counts = new LongAdder[STAGES.length];
    private volatile Trace trace;
    private volatile SpanListener[] listeners = new SpanListener[0];
    private volatile BatchListener[] batchListeners = new BatchListener[0];

    public StageClock() {
        for (int i = 0; i < STAGES.length; i++) {
            nanos[i] = new LongAdder();
            counts[i] = new LongAdder();
        }
    }

    /**
     * Adds the span {@code [startNanos, endNanos)} ({@link System#nanoTime()}) of {@code stage}, done
     * for batch {@code batch} of {@code epoch} (or -1 where no batch is known) by the calling thread.
     */
    public void record(Stage stage, long startNanos, long endNanos, long epoch, long batch) {
        long d = Math.max(0, endNanos - startNanos);
        nanos[stage.ordinal()].add(d);
        counts[stage.ordinal()].increment();
        Trace t = trace;
        if (t != null) {
            t.record(stage, startNanos, d, epoch, batch);
        }
        for (SpanListener l : listeners) { // an empty array unless someone listens: one volatile read
            l.span(stage, startNanos, d, epoch, batch);
        }
    }

    /**
     * Hands every span recorded from now on to {@code listener}, on the thread that recorded it,
     * until the returned handle is closed: for per-batch histograms (the consumer's wait for each
     * batch, each batch's fetch and collate). The listener runs on the loader's workers and its
     * consumer, so it must be quick and must not throw.
     */
    public Listening listen(SpanListener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            listeners = with(listeners, listener);
        }
        return () -> {
            synchronized (this) {
                listeners = without(listeners, listener);
            }
        };
    }

    /** {@code all} and {@code one}, as a new array: the listeners are read without a lock, so never changed in place. */
    private static <L> L[] with(L[] all, L one) {
        L[] more = Arrays.copyOf(all, all.length + 1);
        more[all.length] = one;
        return more;
    }

    /** {@code all} without {@code one} (the first of it, by identity), as a new array; {@code all} if it is not there. */
    private static <L> L[] without(L[] all, L one) {
        for (int i = 0; i < all.length; i++) {
            if (all[i] == one) {
                L[] fewer = Arrays.copyOf(all, all.length - 1);
                System.arraycopy(all, i + 1, fewer, i, all.length - i - 1);
                return fewer;
            }
        }
        return all;
    }

    /**
     * Passes on one batch made (see {@link BatchListener}): the loader calls it once per batch,
     * not per sample. With no listener it costs one volatile read.
     */
    public void batchMade(long epoch, long batch, int rows, long bytes, long startNanos, long endNanos) {
        for (BatchListener l : batchListeners) {
            l.batchMade(epoch, batch, rows, bytes, startNanos, endNanos);
        }
    }

    /**
     * Hands every batch made from now on to {@code listener}, on the thread that made it, until the
     * returned handle is closed. Quick and must not throw, as for {@link #listen}.
     */
    public Listening listenBatches(BatchListener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            batchListeners = with(batchListeners, listener);
        }
        return () -> {
            synchronized (this) {
                batchListeners = without(batchListeners, listener);
            }
        };
    }

    /** A listener's registration: closing it stops the spans (idempotent). */
    @FunctionalInterface
    public interface Listening extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Starts recording every span from now on into a new trace of at most {@code maxEvents}
     * events; a trace already running is stopped first.
     */
    public Trace startTrace(int maxEvents) {
        Trace t = new Trace(maxEvents);
        Trace old = trace;
        trace = t;
        if (old != null) {
            old.stop();
        }
        return t;
    }

    /** Stops the running trace, if any, and returns it (or {@code null}). */
    public Trace stopTrace() {
        Trace t = trace;
        trace = null;
        if (t != null) {
            t.stop();
        }
        return t;
    }

    /** Nanoseconds of {@code stage} so far, summed over threads: one figure, without the snapshot of {@link #times()}. */
    public long nanos(Stage stage) {
        return nanos[stage.ordinal()].sum();
    }

    /** The totals so far. */
    public StageTimes times() {
        Map<Stage, StageTotal> out = new EnumMap<>(Stage.class);
        for (Stage s : STAGES) {
            out.put(s, new StageTotal(nanos[s.ordinal()].sum(), counts[s.ordinal()].sum()));
        }
        return new StageTimes(out);
    }
}
