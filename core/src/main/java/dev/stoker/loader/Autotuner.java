package dev.stoker.loader;

import dev.stoker.loader.TuningPolicy.Change;
import dev.stoker.loader.TuningPolicy.Hold;
import dev.stoker.loader.TuningPolicy.Settings;
import dev.stoker.loader.engine.LiveSettings;
import dev.stoker.metrics.MachineCpu;
import dev.stoker.metrics.ProcessCpu;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The loader's controller: on each tick of the consumer's side (every {@value #EVERY_BATCHES}
 * batches and {@value #EVERY_MILLIS} ms at most often) it reads the machine's and the process's
 * CPU counters, asks the {@link TuningPolicy} and applies its move to the engine's
 * {@link LiveSettings}; or, replaying, applies the given decisions at their batches. Each change
 * is kept ({@link #log()}) and logged at INFO.
 *
 * <p>For the I/O mode it also reads, per window, the workers' loading time on the stage clock
 * (fetch and collate, less their waits for pool memory) and the CPU the process used less the
 * consumer's own thread's: their ratio tells blocked workers from computing ones
 * ({@link TuningPolicy.Signals#loadingCpu}).
 */
final class Autotuner implements LiveSettings.Tuner {
    static final int EVERY_BATCHES = 4;
    static final long EVERY_MILLIS = 100;
    private static final System.Logger LOG = System.getLogger(Autotuner.class.getName());

    private final String name;
    private final TuningPolicy policy;
    private final List<TuningDecision> replay;
    private final LongSupplier batchBytes;
    private final int cores;
    private final int startWorkers;
    private final int startIo; // 0: no I/O mode
    private final int maxIo; // 0: no I/O mode
    private final LongSupplier loadingNanos;
    private final List<TuningDecision> log = new CopyOnWriteArrayList<>();
    private int next; // the next replayed decision
    private MachineCpu.Ticks machineBefore;
    private long processBefore;
    private long loadingBefore;
    private Thread consumer; // the thread of the last reading of consumerBefore
    private long consumerBefore;

    /**
     * @param loadingNanos the workers' loading time so far, summed over threads (read once a window)
     * @param startIo      the I/O mode's fetches at once to start at, 0 without the I/O mode
     * @param maxIo        the most fetches at once (the loader's ioConcurrency), 0 without the I/O mode
     */
    Autotuner(String name, TuningPolicy policy, List<TuningDecision> replay, LongSupplier batchBytes, int cores,
              int startWorkers, int startIo, int maxIo, LongSupplier loadingNanos) {
        this.startWorkers = startWorkers;
        this.startIo = maxIo == 0 ? 0 : Math.clamp(startIo, 1, maxIo);
        this.maxIo = maxIo;
        this.loadingNanos = loadingNanos;
        this.name = name;
        this.policy = policy;
        this.replay = replay;
        this.batchBytes = batchBytes;
        this.cores = cores;
    }

    /** The settings to start at: the first replayed decision at batch 0, or the start's workers and prefetch 1. */
    TuningDecision start() {
        TuningDecision first = !replay.isEmpty() && replay.getFirst().batch() == 0 ? replay.get(next++) : null;
        TuningDecision start = first != null ? first : new TuningDecision(0, startWorkers, 1, TuningDecision.Reason.START,
                Double.NaN, startIo);
        // the I/O mode's count as it will be: a replay's clamped to the most, or the tuner's start where it
        // says none; none without the I/O mode
        int io = maxIo == 0 ? 0 : start.ioConcurrency() == 0 ? startIo : Math.min(start.ioConcurrency(), maxIo);
        if (io != start.ioConcurrency()) {
            start = new TuningDecision(start.batch(), start.workers(), start.prefetch(), start.reason(),
                    start.waitShare(), io);
        }
        record(start);
        machineBefore = MachineCpu.ticks();
        processBefore = ProcessCpu.nanos();
        loadingBefore = loadingNanos.getAsLong();
        consumer = Thread.currentThread();
        consumerBefore = threadCpu();
        return start;
    }

    List<TuningDecision> log() {
        return List.copyOf(log);
    }

    @Override
    public int everyBatches() {
        return replaying() ? 0 : EVERY_BATCHES; // a replay applies its decisions at their batch, pass starts too
    }

    @Override
    public long everyNanos() {
        return replaying() ? 0 : EVERY_MILLIS * 1_000_000;
    }

    private boolean replaying() {
        return !replay.isEmpty();
    }

    @Override
    public void tick(LiveSettings live, long taken, long batches, long waitNanos, long windowNanos) {
        if (replaying()) {
            while (next < replay.size() && replay.get(next).batch() <= taken) {
                TuningDecision d = replay.get(next++);
                live.apply(d.workers(), d.prefetch(), d.ioConcurrency());
                record(new TuningDecision(taken, live.workers(), live.prefetch(), d.reason(), d.waitShare(),
                        live.ioConcurrency()));
            }
            return;
        }
        double waitShare = windowNanos <= 0 ? 0 : Math.min(1, (double) waitNanos / windowNanos);
        MachineCpu.Ticks machineNow = MachineCpu.ticks();
        long processNow = ProcessCpu.nanos();
        double busy = MachineCpu.busyShare(machineBefore, machineNow);
        double machineBusy = busy < 0 ? Double.NaN : busy;
        double processShare = processNow < 0 || processBefore < 0 || windowNanos <= 0 ? Double.NaN
                : Math.min(1, (double) (processNow - processBefore) / windowNanos / cores);
        double loadingCpu = live.ioConcurrency() > 0 ? loadingCpu(processNow) : Double.NaN;
        machineBefore = machineNow;
        processBefore = processNow;
        Settings now = new Settings(live.workers(), live.prefetch(), live.ioConcurrency());
        TuningPolicy.Signals signals = new TuningPolicy.Signals(waitShare, machineBusy, processShare,
                batchBytes.getAsLong(), loadingCpu);
        switch (policy.next(now, signals)) {
            case Hold h -> { }
            case Change(Settings to, TuningDecision.Reason reason) -> {
                live.apply(to.workers(), to.prefetch(), to.io());
                record(new TuningDecision(taken, live.workers(), live.prefetch(), reason, waitShare,
                        live.ioConcurrency()));
            }
        }
    }

    /**
     * The window's CPU per second of loading: the process's CPU less the consumer's thread's
     * (this thread: the tick runs on it), over the workers' loading time; NaN where a counter is
     * unknown or no loading was timed. A consumer that moved to another thread since the last
     * window counts as using none, which only makes the workers look busier.
     */
    private double loadingCpu(long processNow) {
        long loadingNow = loadingNanos.getAsLong();
        long loading = loadingNow - loadingBefore;
        loadingBefore = loadingNow;
        Thread self = Thread.currentThread();
        long consumerNow = threadCpu();
        long consumerCpu = self == consumer && consumerNow >= 0 && consumerBefore >= 0 ? consumerNow - consumerBefore : 0;
        consumer = self;
        consumerBefore = consumerNow;
        if (processNow < 0 || processBefore < 0 || loading <= 0) {
            return Double.NaN;
        }
        return Math.max(0, processNow - processBefore - consumerCpu) / (double) loading;
    }

    /** The calling thread's CPU nanoseconds, or -1 where the runtime does not say. */
    private static long threadCpu() {
        try {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
        } catch (UnsupportedOperationException | SecurityException e) {
            return -1;
        }
    }

    private void record(TuningDecision d) {
        log.add(d);
        LOG.log(System.Logger.Level.INFO, () -> "autotune of " + name + ": " + d.describe());
    }
}
