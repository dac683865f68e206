package dev.stoker.loader;

import java.util.List;

/**
 * What {@link LoaderBuilder#autotune(Autotune)} may spend: the loader starts with one worker and
 * one batch of prefetch and, while the consumer waits for data, adds workers and then prefetch;
 * it takes them back when the consumer no longer waits, when other processes keep the machine's
 * cores busy, or when the batches in flight would pass the memory budget.
 *
 * <p>The loader has {@link #lanes()} worker threads, which decide the batches (batch {@code k}
 * is lane {@code k % lanes}'s; a streaming lane reads its own stream, as a worker does), and the
 * tuner decides how many of them make batches at once: the batches, their order, their random
 * draws and {@code state()} are those of {@code numWorkers(lanes)} with any prefetch, whatever
 * the tuner does.
 *
 * <pre>{@code
 * DataLoader.builder(ds).batchSize(64).autotune(Autotune.budget(2L << 30)).build();
 * DataLoader.builder(ds).batchSize(64).autotune(Autotune.budget(2L << 30).cpuShare(0.5)).build();
 * // a dataset that waits on remote storage: up to 256 samples fetched at once, from 1
 * DataLoader.builder(remote).batchSize(64).ioConcurrency(256).autotune(Autotune.budget(2L << 30)).build();
 * }</pre>
 *
 * <p>In the I/O mode ({@link LoaderBuilder#ioConcurrency}) the tuner also sets how many samples
 * are fetched at once, from {@link #startIo()} up to the loader's {@code ioConcurrency}: while
 * the consumer waits and the workers are blocked (they use little CPU for the time they spend
 * making batches) it doubles that count rather than adding a worker, since a waiting fetch costs
 * a virtual thread and no batch memory.
 *
 * @param budgetBytes bytes of batch memory the loader may hold (in flight and the consumer's
 *                    batch); the loader's own pool gets this budget, the hard limit
 * @param cpuShare    share of the machine's cores the workers may use (0 to 1]: the lanes
 * @param maxWorkers  worker threads (lanes), or 0 for {@code cpuShare x cores}
 * @param maxPrefetch most batches of prefetch per lane
 * @param replay      decisions to apply instead of deciding (a run's {@link DataLoader#tuningLog()},
 *                    or a test's), empty to decide
 * @param startWorkers workers to start with (prefetch 1): 1 unless set; 0 makes the first batches
 *                    in the consumer's thread, as {@code numWorkers(0)} does, until the tuner adds
 *                    a worker (map-style datasets delivered in order only)
 * @param startIo     in the I/O mode ({@link LoaderBuilder#ioConcurrency}, whose count is then the
 *                    most the tuner may set), the samples fetched at once to start with: 1 unless
 *                    set; the tuner doubles it while the consumer waits and the workers are blocked
 *                    on I/O, and takes it back by quarters when the consumer no longer waits
 */
public record Autotune(long budgetBytes, double cpuShare, int maxWorkers, int maxPrefetch,
                       List<TuningDecision> replay, int startWorkers, int startIo) {
    /** Most prefetch per lane unless set. */
    public static final int DEFAULT_MAX_PREFETCH = 4;

    public Autotune {
        if (budgetBytes < 1) {
            throw new IllegalArgumentException("the autotune budget must be positive, not " + budgetBytes + " bytes");
        }
        if (!(cpuShare > 0 && cpuShare <= 1)) {
            throw new IllegalArgumentException("the CPU share must be in (0, 1], not " + cpuShare);
        }
        if (startWorkers < 0 || maxWorkers > 0 && startWorkers > maxWorkers) {
            throw new IllegalArgumentException("the autotuner starts at 0 to maxWorkers workers, not " + startWorkers);
        }
        if (startIo < 1) {
            throw new IllegalArgumentException("the autotuner starts at 1 or more fetches at once, not " + startIo);
        }
        if (maxWorkers < 0 || maxPrefetch < 1) {
            throw new IllegalArgumentException("maxWorkers must be 0 (from the CPU share) or more and maxPrefetch"
                    + " positive, not " + maxWorkers + " and " + maxPrefetch);
        }
        replay = List.copyOf(replay);
        for (int i = 1; i < replay.size(); i++) {
            if (replay.get(i).batch() < replay.get(i - 1).batch()) {
                throw new IllegalArgumentException("replayed decisions must come in batch order: decision " + i
                        + " (batch " + replay.get(i).batch() + ") comes before decision " + (i - 1));
            }
        }
    }

    /** Tuning within {@code budgetBytes} of batch memory, on all the machine's cores. */
    public static Autotune budget(long budgetBytes) {
        return new Autotune(budgetBytes, 1.0, 0, DEFAULT_MAX_PREFETCH, List.of(), 1, 1);
    }

    /** The same, on at most this share of the machine's cores. */
    public Autotune cpuShare(double share) {
        return new Autotune(budgetBytes, share, maxWorkers, maxPrefetch, replay, startWorkers, startIo);
    }

    /** The same, with exactly this many worker threads (lanes), whatever the CPU share. */
    public Autotune maxWorkers(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("maxWorkers must be positive, not " + workers);
        }
        return new Autotune(budgetBytes, cpuShare, workers, maxPrefetch, replay, startWorkers, startIo);
    }

    /** The same, with at most this much prefetch per lane. */
    public Autotune maxPrefetch(int prefetch) {
        return new Autotune(budgetBytes, cpuShare, maxWorkers, prefetch, replay, startWorkers, startIo);
    }

    /** The same, applying {@code decisions} at their batches instead of deciding. */
    public Autotune replaying(List<TuningDecision> decisions) {
        return new Autotune(budgetBytes, cpuShare, maxWorkers, maxPrefetch, decisions, startWorkers, startIo);
    }

    /**
     * The same, starting at {@code workers} workers and prefetch 1 rather than 1 and 1. Zero makes
     * the first batches in the consumer's thread, as {@code numWorkers(0)} does (no
     * {@code workerInit} runs there), until the consumer's wait brings a worker in: the worst start
     * there is, and one the tuner leaves at its first window. Zero is for map-style datasets
     * delivered in order; a stream's lanes each read their own stream, so one of them must run.
     */
    public Autotune startingAt(int workers) {
        return new Autotune(budgetBytes, cpuShare, maxWorkers, maxPrefetch, replay, workers, startIo);
    }

    /**
     * The same, starting the I/O mode at {@code fetches} samples fetched at once rather than 1
     * (clamped to the loader's {@code ioConcurrency}); no effect without the I/O mode.
     */
    public Autotune startingIoAt(int fetches) {
        return new Autotune(budgetBytes, cpuShare, maxWorkers, maxPrefetch, replay, startWorkers, fetches);
    }

    /** The worker threads: {@code maxWorkers}, or the CPU share of the machine's cores (at least 1). */
    public int lanes() {
        return lanes(Runtime.getRuntime().availableProcessors());
    }

    int lanes(int cores) {
        return maxWorkers > 0 ? maxWorkers : Math.max(1, (int) Math.floor(cores * cpuShare));
    }
}
