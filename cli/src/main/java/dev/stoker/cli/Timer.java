package dev.stoker.cli;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Times one repetition the way {@code WORKLOADS.md} defines it: from the first
 * {@code iterator()} (so worker start-up counts, and for non-persistent workers their restart at
 * every epoch) to the moment the {@link NullConsumer} has finished and closed the last batch of
 * the last epoch. Closing the loader afterwards is not timed.
 */
final class Timer {
    private Timer() {}

    /**
     * Runs {@code epochs} epochs of {@code loader} through the workload's {@code step} and the null consumer.
     *
     * @param step       the workload's {@link Workload#step} on each batch, timed
     * @param afterBatch called after each batch, inside the timed region, so it must be cheap
     *                   (a progress bar's counter)
     */
    static Measurement run(DataLoader<?> loader, int epochs, Consumer<Batch> step, Runnable afterBatch) {
        return run(loader, epochs, step, afterBatch, at -> { });
    }

    /**
     * As {@link #run(DataLoader, int, Consumer, Runnable)}, and tells {@code onFirstBatch} the
     * {@link System#nanoTime} at which the first batch reached the consumer (for {@link ColdStart}),
     * after the repetition, outside the timed region.
     */
    static Measurement run(DataLoader<?> loader, int epochs, Consumer<Batch> step, Runnable afterBatch,
                           LongConsumer onFirstBatch) {
        long samples = 0;
        long batches = 0;
        long firstBatch = -1;
        long start = System.nanoTime();
        for (int e = 0; e < epochs; e++) {
            for (Batch batch : loader) { // each iterator() is one epoch
                try (batch) {
                    if (firstBatch < 0) {
                        firstBatch = System.nanoTime() - start;
                    }
                    step.accept(batch);
                    samples += NullConsumer.consume(batch);
                }
                batches++;
                afterBatch.run();
            }
        }
        long nanos = System.nanoTime() - start;
        if (firstBatch >= 0) {
            onFirstBatch.accept(start + firstBatch);
        }
        return new Measurement(nanos, Math.max(firstBatch, 0), samples, batches, loader.pool().peakReservedBytes(),
                loader.inFlightBound().bytes());
    }
}
