package dev.stoker.cli;

import dev.stoker.loader.DataLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stoker bench}: runs a workload of {@code WORKLOADS.md} in each of its configurations and
 * reports samples per second, the time to the first batch and the memory it took, as a table for
 * a person or as JSON lines for scripts. Each configuration is warmed up first (one repetition,
 * and more until {@code --warmup} seconds have passed, so that a workload whose repetition lasts
 * milliseconds is timed compiled, not interpreted, as JMH would time it), then the timed
 * repetitions run, each with a fresh loader seeded with its number.
 */
@Command(
        name = "bench",
        sortOptions = false,
        header = "Measure how fast Stoker delivers batches (W1: no data needed).",
        description = {
            "Runs the workloads that the PyTorch peer benchmark runs too",
            "(WORKLOADS.md), with the same work per sample, so that the two compare.",
            "",
            "The default, W1 (synthetic-delay, from PyTorch's data-loading tuning",
            "tutorial), needs no data: 512 samples of 3x224x224 float32 noise and a",
            "label, each made after a 5 ms sleep that stands in for slow storage;",
            "batch 32, shuffled, 4 epochs. Every configuration is warmed up (one",
            "repetition, more until 2 s have passed), then runs 3 timed repetitions;",
            "the report gives batches/s, samples/s (median, min, max), MB/s, the time",
            "to the first batch and the peak memory (process RSS, the loader's pool).",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker bench                          every configuration of W1",
            "  stoker bench --quick                  a smoke test: 1 repetition, 1 epoch",
            "  stoker bench --config 'nw=0 batched'  one configuration",
            "  stoker bench --json >> results.jsonl  one JSON line per configuration",
            "  stoker bench --list                   the workloads and configurations",
            "",
            "With --json, stdout carries only the JSON lines; progress goes to stderr."
        })
final class BenchCommand implements Callable<Integer> {
    private static final Duration RSS_INTERVAL = Duration.ofMillis(50);

    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions workloadOptions;

    @Option(names = {"-c", "--config"}, paramLabel = "NAME",
            description = "Run only this configuration, e.g. 'nw=0 batched' (see --list).")
    String configName;

    @Option(names = "--reps", paramLabel = "N", description = "Timed repetitions per configuration (default: 3).")
    Integer reps;

    @Option(names = "--epochs", paramLabel = "N", description = "Epochs per repetition (default: the workload's; 4 for W1).")
    Integer epochs;

    @Option(names = "--warmup", paramLabel = "SECONDS", defaultValue = "2",
            description = "Warm up each configuration with one repetition, and more until this many seconds"
                    + " have passed (default: ${DEFAULT-VALUE}; 0: one repetition), so that short"
                    + " repetitions are timed after the JIT compiled the loader.")
    double warmupSeconds;

    @Option(names = "--quick", description = "A smoke test: 1 repetition of 1 epoch, no warm-up.")
    boolean quick;

    @Option(names = "--json", description = "Print one JSON object per configuration and line, nothing else, on stdout.")
    boolean json;

    @Option(names = "--list", description = "List the workloads and the configurations, and exit.")
    boolean list;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();

        Optional<Workload> found = workloadOptions.find();
        if (found.isEmpty()) {
            return usageError(Workloads.unknown(workloadOptions.workloadName));
        }
        Workload workload = found.get();
        if (list) {
            printList(out, workload);
            return CommandLine.ExitCode.OK;
        }
        int timedReps = reps != null ? reps : quick ? 1 : 3;
        int epochCount = epochs != null ? epochs : quick ? 1 : workload.epochs();
        int warmups = quick ? 0 : 1;
        if (timedReps < 1 || epochCount < 1) {
            return usageError("--reps and --epochs must be at least 1");
        }
        if (!(warmupSeconds >= 0 && warmupSeconds <= 600)) {
            return usageError("--warmup is a number of seconds from 0 to 600, not " + warmupSeconds);
        }
        long warmupNanos = quick ? 0 : (long) (warmupSeconds * 1e9);
        Path dataFolder;
        try {
            dataFolder = workloadOptions.dataFolder(workload);
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }

        List<Configuration> chosen = workload.configurations();
        if (configName != null) {
            chosen = chosen.stream().filter(c -> c.isNamed(configName)).toList();
            if (chosen.isEmpty()) {
                return usageError(WorkloadOptions.noSuchConfiguration(workload, configName));
            }
        }

        Machine machine = Machine.current();
        if (!json) {
            out.println(workload.name() + " " + workload.title() + ": " + workload.summary());
            out.println(machine.describe());
            out.println(plural(timedReps, "timed repetition") + " of " + plural(epochCount, "epoch") + " ("
                    + plural(workload.samplesPerEpoch() * epochCount, "sample") + ") per configuration, "
                    + (warmups == 0 ? "no warm-up" : "after a warm-up of one repetition"
                    + (warmupNanos > 0 ? " and more until " + warmupSeconds + " s have passed" : "")));
            out.flush();
        }

        // The dataset first, timed on its own: the cold start's loader build then finds it built,
        // as PyTorch's first iter() finds its dataset (bench/python/first_batch_peer.py).
        long datasetStart = System.nanoTime();
        try {
            workload.prepare(dataFolder);
        } catch (RuntimeException e) {
            workload.close();
            throw e;
        }
        datasetNanos = System.nanoTime() - datasetStart;
        long batchesPerRep = workload.batchesPerEpoch() * epochCount;
        List<BenchResult> results = new ArrayList<>();
        try (workload; // frees what it keeps between repetitions (W6's tensors)
             Progress progress = Progress.create(err, batchesPerRep * (warmups + timedReps) * chosen.size(),
                     chosen.size())) {
            for (Configuration c : chosen) {
                boolean first = coldStart.isEmpty();
                BenchResult r = runConfiguration(workload, c, dataFolder, warmups, warmupNanos, timedReps, epochCount,
                        progress);
                progress.finished(r);
                results.add(r);
                if (json) {
                    // the cold start goes with the configuration whose loader was the run's first
                    out.println(JsonLines.format(r, epochCount, machine, first ? coldStart : Optional.empty()));
                    out.flush();
                }
            }
        }
        if (!json) {
            out.println();
            out.print(ResultTable.format(results));
            coldStart.ifPresent(cold -> out.println(System.lineSeparator() + cold.describe(warmups > 0)));
            out.flush();
        }
        return CommandLine.ExitCode.OK;
    }

    /** The first loader's cold start, once it has given its first batch. */
    private Optional<ColdStart> coldStart = Optional.empty();
    /** How long {@link Workload#prepare} took, before the first loader was built. */
    private long datasetNanos;

    private void coldStartOnce(long buildStartNanos, long firstBatchNanos) {
        if (coldStart.isEmpty()) {
            coldStart = Optional.of(ColdStart.measured(datasetNanos, buildStartNanos, firstBatchNanos));
        }
    }

    /** At most this many warm-up repetitions, however short they are. */
    static final int MAX_WARMUPS = 200;

    private BenchResult runConfiguration(Workload workload, Configuration c, Path dataFolder, int warmups,
                                         long warmupNanos, int timedReps, int epochs, Progress progress) {
        long warmupStart = System.nanoTime();
        for (int i = 0; i < MAX_WARMUPS
                && (i < warmups || (warmups > 0 && System.nanoTime() - warmupStart < warmupNanos)); i++) {
            progress.repetition(c, "warm-up");
            // Seeds after the timed ones: the warm-up shares no order with a reported repetition.
            // Only the first warm-up counts on the progress bar, whose length is known in advance.
            long buildStart = System.nanoTime();
            try (DataLoader<?> loader = workload.newLoader(c, timedReps + i, dataFolder)) {
                Timer.run(loader, epochs, workload::step, i < warmups ? progress::batch : () -> { },
                        at -> coldStartOnce(buildStart, at));
            }
        }
        List<Measurement> measured = new ArrayList<>();
        long peakRss;
        try (PeakMemory peak = PeakMemory.start(RSS_INTERVAL)) {
            for (int rep = 0; rep < timedReps; rep++) {
                progress.repetition(c, "rep " + (rep + 1) + "/" + timedReps);
                long buildStart = System.nanoTime();
                try (DataLoader<?> loader = workload.newLoader(c, rep, dataFolder)) {
                    measured.add(Timer.run(loader, epochs, workload::step, progress::batch,
                            at -> coldStartOnce(buildStart, at)));
                }
            }
            peakRss = peak.peakRssBytes();
        }
        return new BenchResult(workload.name(), c, measured, workload.outputBytesPerSample(), peakRss);
    }

    private void printList(PrintWriter out, Workload shown) {
        out.println("Workloads:");
        out.println(Workloads.catalogue().indent(2).stripTrailing());
        out.println();
        out.println("Configurations of " + shown.name() + ":");
        for (Configuration c : shown.configurations()) {
            out.println("  " + c.name());
        }
        out.flush();
    }

    private int usageError(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("stoker bench: " + message);
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

}
