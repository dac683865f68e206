package dev.stoker.loader.engine;

import java.util.concurrent.TimeUnit;

/**
 * How many sample fetches the loader's I/O mode runs at once ({@code ioConcurrency(c)}), a count
 * that may change while fetches run: an autotuned loader raises it while its workers wait on I/O
 * and lowers it when the consumer no longer waits.
 *
 * <p>A fair semaphore whose permit count is set ({@link Throttle}): growing it releases the new
 * permits at once; shrinking it takes them back with {@link java.util.concurrent.Semaphore#reducePermits},
 * which never blocks the caller (the tuner, on the consumer's thread) and may leave the count
 * below zero until the fetches under way give their permits back, so no permit is lost and no
 * more than the new count run once those have ended. Fair, so that a batch's fetches start in the
 * order they asked.
 */
public final class IoLimit {
    private final Throttle permits;

    private IoLimit(int size) {
        this.permits = new Throttle(size);
    }

    /** A limit of {@code concurrency} fetches at once. */
    public static IoLimit of(int concurrency) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("ioConcurrency must be positive, not " + concurrency);
        }
        return new IoLimit(concurrency);
    }

    /** Fetches that may run at once now. */
    public int size() {
        return permits.size();
    }

    /**
     * Sets the fetches at once (at least 1); fetches under way finish, so a smaller count takes
     * effect as they end. Never blocks.
     */
    public void resize(int concurrency) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("ioConcurrency must be positive, not " + concurrency);
        }
        permits.resize(concurrency);
    }

    /** Permits free now (negative while a shrink waits for fetches under way); for tests. */
    int available() {
        return permits.availablePermits();
    }

    void acquire() throws InterruptedException {
        permits.acquire();
    }

    boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
        return permits.tryAcquire(timeout, unit);
    }

    void release() {
        permits.release();
    }
}
