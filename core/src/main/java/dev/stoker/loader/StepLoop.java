package dev.stoker.loader;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A stand-in for a training loop: takes batches from a loader and holds each one for a fixed
 * step, sleeping, as a training thread waits while the GPU computes. What {@link WorkerTuner}
 * and {@code stoker profile} measure a loader against.
 *
 * <pre>{@code
 * long taken = StepLoop.run(loader, 200, Duration.ofMillis(80), batch -> { });
 * System.out.println(loader.profile().verdict());
 * }</pre>
 */
public final class StepLoop {
    private StepLoop() {
    }

    /**
     * Takes up to {@code batches} batches, epoch after epoch, and for each calls {@code touch},
     * sleeps {@code step} and closes it. Returns the batches taken: fewer only when an epoch
     * comes out empty.
     */
    public static long run(DataLoader<?> loader, long batches, Duration step, Consumer<Batch> touch) {
        Objects.requireNonNull(touch, "touch");
        long stepNanos = step.toNanos();
        long taken = 0;
        while (taken < batches) {
            long before = taken;
            try (BatchIterator it = loader.iterator()) {
                while (taken < batches && it.hasNext()) {
                    try (Batch batch = it.next()) {
                        touch.accept(batch);
                        sleep(stepNanos);
                    }
                    taken++;
                }
            }
            if (taken == before) {
                return taken; // an empty epoch: nothing more will come
            }
        }
        return taken;
    }

    /** Sleeps {@code nanos}, parking again after an early wake-up. */
    private static void sleep(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
