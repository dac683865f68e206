package dev.stoker.metrics;

/**
 * Told of every span a {@link StageClock} records, as it is recorded: what per-batch histograms
 * are built on, where totals ({@link StageTimes}) say too little.
 *
 * <pre>{@code
 * try (var l = clock.listen((stage, start, nanos, epoch, batch) -> {
 *     if (stage == Stage.WAIT) waits.record(nanos);
 * })) { ... }
 * }</pre>
 */
@FunctionalInterface
public interface SpanListener {
    /**
     * A span just recorded, on the thread that recorded it.
     *
     * @param stage         its stage
     * @param startNanos    when it began ({@link System#nanoTime()})
     * @param durationNanos how long it took, never negative
     * @param epoch         the epoch of its batch, -1 where none is known
     * @param batch         its batch's number in the epoch, -1 where none is known
     */
    void span(Stage stage, long startNanos, long durationNanos, long epoch, long batch);
}
