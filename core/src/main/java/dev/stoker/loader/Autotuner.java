package dev.stoker.loader;

import dev.stoker.loader.TuningPolicy.Change;
import dev.stoker.loader.TuningPolicy.Hold;
import dev.stoker.loader.TuningPolicy.Settings;
import dev.stoker.loader.engine.LiveSettings;
import dev.stoker.metrics.MachineCpu;
import dev.stoker.metrics.ProcessCpu;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The loader's controller: on each tick of the consumer's side (every {@value #EVERY_BATCHES}
 * batches and {@value #EVERY_MILLIS} ms at most often) it reads the machine's and the process's
 * CPU counters, asks the {@link TuningPolicy} and applies its move to the engine's
 * {@link LiveSettings}; or, replaying, applies the given decisions at their batches. Each change
 * is kept ({@link #log()}) and logged at INFO.
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
    private final List<TuningDecision> log = new CopyOnWriteArrayList<>();
    private int next; // the next replayed decision
    private MachineCpu.Ticks machineBefore;
    private long processBefore;

    Autotuner(String name, TuningPolicy policy, List<TuningDecision> replay, LongSupplier batchBytes, int cores,
              int startWorkers) {
        this.startWorkers = startWorkers;
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
                Double.NaN);
        record(start);
        machineBefore = MachineCpu.ticks();
        processBefore = ProcessCpu.nanos();
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
                live.apply(d.workers(), d.prefetch());
                record(new TuningDecision(taken, live.workers(), live.prefetch(), d.reason(), d.waitShare()));
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
        machineBefore = machineNow;
        processBefore = processNow;
        Settings now = new Settings(live.workers(), live.prefetch());
        TuningPolicy.Signals signals = new TuningPolicy.Signals(waitShare, machineBusy, processShare,
                batchBytes.getAsLong());
        switch (policy.next(now, signals)) {
            case Hold h -> { }
            case Change(Settings to, TuningDecision.Reason reason) -> {
                live.apply(to.workers(), to.prefetch());
                record(new TuningDecision(taken, live.workers(), live.prefetch(), reason, waitShare));
            }
        }
    }

    private void record(TuningDecision d) {
        log.add(d);
        LOG.log(System.Logger.Level.INFO, () -> "autotune of " + name + ": " + d.describe());
    }
}
