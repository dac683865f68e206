package dev.stoker.cli;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long the first batch of a {@code stoker bench} run took to arrive: the first loader it built
 * is timed from its build to its first batch, before the JIT has compiled anything, and against
 * the JVM's and the process's start. The timed repetitions' first batch ({@code first_batch_ms})
 * is a warm one; this is what a training job sees at its start, the peer of PyTorch's worker
 * start-up ({@code bench/python/first_batch_peer.py}). The dataset is built before, timed on its
 * own ({@link Workload#prepare}), as PyTorch's {@code iter()} finds its dataset built.
 *
 * @param datasetBuild        building the workload's dataset ({@link Workload#prepare}), before the loader
 * @param buildToFirstBatch   from the call that built the loader to its first batch in the consumer's hands
 * @param jvmToFirstBatch     from the JVM's start (its runtime bean's start time) to that batch
 * @param processToFirstBatch from the process's start to that batch (with {@code ./stoker}, the launcher
 *                            script's start: it {@code exec}s the JVM), empty where the OS does not say
 */
record ColdStart(Duration datasetBuild, Duration buildToFirstBatch, Duration jvmToFirstBatch, Optional<Duration> processToFirstBatch) {

    /**
     * The figures for a first batch that arrived at {@code firstBatchNanos} ({@link System#nanoTime})
     * from a loader whose build began at {@code buildStartNanos}, over a dataset built in
     * {@code datasetNanos} before. Called after the first batch, so that reading the start times
     * (the management bean's classes) is not counted in it.
     */
    static ColdStart measured(long datasetNanos, long buildStartNanos, long firstBatchNanos) {
        Instant firstBatch = Instant.now().minusNanos(System.nanoTime() - firstBatchNanos);
        Instant jvmStart = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
        Optional<Duration> sinceProcess = ProcessHandle.current().info().startInstant()
                .map(start -> Duration.between(start, firstBatch));
        return new ColdStart(Duration.ofNanos(datasetNanos), Duration.ofNanos(firstBatchNanos - buildStartNanos),
                Duration.between(jvmStart, firstBatch), sinceProcess);
    }

    /**
     * One line for the table's reader.
     *
     * @param tableWarm whether the table's repetitions ran after a warm-up, so that its first batch
     *                  is a warm one (not with {@code --quick})
     */
    String describe(boolean tableWarm) {
        return String.format("cold start: the first batch came %.0f ms after its loader was built (the dataset before it:"
                        + " %.0f ms), %.0f ms after the JVM started%s (before the JIT compiled anything%s)",
                millis(buildToFirstBatch), millis(datasetBuild), millis(jvmToFirstBatch),
                processToFirstBatch.map(d -> String.format(", %.0f ms after the process started", millis(d))).orElse(""),
                tableWarm ? "; the table's first batch is a warm one" : "");
    }

    static double millis(Duration d) {
        return d.toNanos() / 1e6;
    }
}
