package dev.stoker.cli;

import dev.stoker.loader.DataLoader;
import dev.stoker.memory.PoolStats;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageTimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Reads a loader's counters every so often while {@code stoker profile} runs, for the report's
 * charts over time: batches ready for the consumer, pool memory, the consumer's wait.
 *
 * <p>Only the loader's public readings: {@link DataLoader#stats()} (batches made),
 * {@link DataLoader#queueDepth()} (batches made and waiting), the pool's figures,
 * {@link DataLoader#stageTimes()}.
 *
 * <p>At most {@link #MAX_SAMPLES} are kept: when full, every other one is dropped and the interval
 * doubles, so a long run costs as little memory as a short one and is still covered from start to
 * end.
 */
final class ProfileSampler implements AutoCloseable {
    /** The most samples kept; past it the series thins out. */
    static final int MAX_SAMPLES = 2048;

    /**
     * One reading.
     *
     * @param atNanos       when, in {@link System#nanoTime()}'s terms
     * @param made          batches made so far
     * @param taken         batches the consumer had taken
     * @param ready         batches made and not yet taken: the queue ahead of the consumer
     * @param lentBytes     pool memory lent to batches
     * @param reservedBytes pool memory held, lent and idle
     * @param waitNanos     the consumer's waits so far, summed (the first batch of a pass included)
     * @param stepNanos     the consumer's steps so far, summed
     */
    record Sample(long atNanos, long made, long taken, int ready, long lentBytes, long reservedBytes, long waitNanos,
                  long stepNanos) {}

    private final DataLoader<?> loader;
    private final LongSupplier taken;
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private final int maxSamples;
    private long intervalNanos;
    private volatile boolean stopped;

    /** Starts reading {@code loader} every {@code every}; {@code taken} counts the consumer's batches. */
    ProfileSampler(DataLoader<?> loader, LongSupplier taken, Duration every) {
        this(loader, taken, every, MAX_SAMPLES);
    }

    /** As above, keeping at most {@code maxSamples}: for tests. */
    ProfileSampler(DataLoader<?> loader, LongSupplier taken, Duration every, int maxSamples) {
        this.maxSamples = maxSamples;
        this.loader = loader;
        this.taken = taken;
        this.intervalNanos = every.toNanos();
        sample();
        thread = Thread.ofPlatform().daemon().name("stoker-profile-sampler").start(this::run);
    }

    private void run() {
        while (!stopped) {
            long interval;
            synchronized (this) {
                interval = intervalNanos;
            }
            LockSupport.parkNanos(interval);
            if (!stopped) {
                sample();
            }
        }
    }

    private void sample() {
        PoolStats pool = loader.pool().stats();
        StageTimes t = loader.stageTimes();
        Sample s = new Sample(System.nanoTime(), loader.stats().batches(), taken.getAsLong(), loader.queueDepth(),
                pool.lentBytes(),
                pool.reservedBytes(), t.nanos(Stage.WAIT) + t.nanos(Stage.FIRST_BATCH), t.nanos(Stage.STEP));
        synchronized (this) {
            if (samples.size() >= maxSamples) {
                List<Sample> thinned = new ArrayList<>(maxSamples / 2 + 1);
                for (int i = 0; i < samples.size(); i += 2) {
                    thinned.add(samples.get(i));
                }
                samples.clear();
                samples.addAll(thinned);
                intervalNanos *= 2;
            }
            samples.add(s);
        }
    }

    /** Stops reading, after one last reading; waits for the sampling thread. */
    @Override
    public void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
    }

    /** The interval between readings now: the one it started with, doubled at each thinning. */
    synchronized Duration interval() {
        return Duration.ofNanos(intervalNanos);
    }

    /** The readings so far, oldest first. */
    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }
}
