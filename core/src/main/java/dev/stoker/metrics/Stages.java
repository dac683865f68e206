package dev.stoker.metrics;

import java.util.function.Supplier;

/**
 * Times a stage from inside a dataset, for the loader that runs it. The loader binds its
 * {@link StageClock} and the batch being made around every fetch; {@link #end} adds the span to
 * it, and outside a loader (a plain call to {@code get}) does nothing.
 *
 * <pre>{@code
 * public Image get(long i) {
 *     long t = Stages.start();
 *     byte[] bytes = files.read(i);
 *     t = Stages.end(Stage.READ, t);         // returns the time it ended: the next stage's start
 *     Image image = decode(bytes);
 *     Stages.end(Stage.DECODE, t);
 *     return image;
 * }
 * }</pre>
 *
 * <p>NOTE: the binding is a {@link ScopedValue}: threads a dataset starts itself do not see it
 * unless it passes {@link #current()} on and runs under {@link #call(Scope, Supplier)}.
 */
public final class Stages {
    private static final ScopedValue<Scope> CURRENT = ScopedValue.newInstance();

    /**
     * Where spans go: a loader's clock, and the batch being made.
     *
     * @param clock the loader's clock
     * @param epoch the epoch of the batch
     * @param batch the batch's number in its epoch
     */
    public record Scope(StageClock clock, long epoch, long batch) {}

    private Stages() {
    }

    /** The start of a span: now, in {@link System#nanoTime()}'s terms. */
    public static long start() {
        return System.nanoTime();
    }

    /**
     * Ends the span of {@code stage} that began at {@code startNanos}, adding it to the current
     * loader's clock if there is one; returns now, the start of whatever comes next.
     */
    public static long end(Stage stage, long startNanos) {
        long now = System.nanoTime();
        if (CURRENT.isBound()) {
            Scope s = CURRENT.get();
            s.clock().record(stage, startNanos, now, s.epoch(), s.batch());
        }
        return now;
    }

    /** The scope bound to this thread, or {@code null}: to hand on to threads of one's own. */
    public static Scope current() {
        return CURRENT.isBound() ? CURRENT.get() : null;
    }

    /** Runs {@code action} with {@code scope} as the current one; with {@code null}, just runs it. */
    public static <R> R call(Scope scope, Supplier<R> action) {
        if (scope == null) {
            return action.get();
        }
        return ScopedValue.where(CURRENT, scope).call(action::get);
    }
}
