package dev.stoker.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stoker.loader.LoaderProfile;
import dev.stoker.loader.TuningResult;
import dev.stoker.loader.TuningTrial;
import dev.stoker.loader.WorkerTuner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stoker tune}: how many workers a workload needs to keep a training step of a given
 * length fed, found by trying worker counts ({@link WorkerTuner}) and printing each trial as it
 * ends.
 */
@Command(
        name = "tune",
        sortOptions = false,
        header = "Find how many workers keep a training step fed.",
        description = {
            "Tries worker counts 0, 1, 2, 4, ... on one configuration of a workload,",
            "each against a stand-in for the training step (the loop sleeps",
            "--step-ms per batch), and stops where more workers stop helping: the loop",
            "is fed, the speed levels off, or every core is busy. Then it narrows down",
            "to the fewest workers that keep the step fed (the loop waits less than 5%%",
            "of its time). Without --step-ms it looks for the fewest workers within 5%%",
            "of the fastest count.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker tune --step-ms 100                      W1 against a 100 ms step",
            "  stoker tune -w W3 -c 'nw=2 fill' --step-ms 80   W3's fill path",
            "  stoker tune -w W6                              the fastest for W6, no step"
        })
final class TuneCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions workloadOptions;

    @Option(names = {"-c", "--config"}, paramLabel = "NAME",
            description = "The configuration whose worker count is tuned, all else kept (default: the"
                    + " workload's first with workers).")
    String configName;

    @Option(names = "--step-ms", paramLabel = "MS", defaultValue = "0",
            description = "The training step in milliseconds (default: ${DEFAULT-VALUE}: tune for speed alone).")
    double stepMillis;

    @Option(names = "--batches", paramLabel = "N", defaultValue = "40",
            description = "Batches per trial (default: ${DEFAULT-VALUE}).")
    int batchesPerTrial;

    @Option(names = "--max-workers", paramLabel = "N",
            description = "The most workers to try (default: twice the cores, at least 4).")
    Integer maxWorkers;

    @Option(names = "--autotune", paramLabel = "BUDGET", converter = ByteSize.class,
            description = "Instead of trying counts, run the loader's own autotuner (the same controller as"
                    + " LoaderBuilder.autotune) from 1 worker and prefetch 1 within BUDGET of batch memory"
                    + " (e.g. 1GiB), --batches x 10 batches against the step, and report what it settled on,"
                    + " when the wait fell under 5% and the speed once settled.")
    Long autotuneBytes;

    @Option(names = "--json", description = "Print the trials and the choice as one JSON object on stdout, nothing else.")
    boolean json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!(stepMillis >= 0 && stepMillis <= 60_000)) {
            return usageError("--step-ms is a number of milliseconds from 0 to 60000, not " + stepMillis);
        }
        if (batchesPerTrial < WorkerTuner.MIN_BATCHES_PER_TRIAL) {
            return usageError("--batches must be at least " + WorkerTuner.MIN_BATCHES_PER_TRIAL
                    + ": the first batch of a trial is start-up, and a verdict needs a few more");
        }
        if (maxWorkers != null && maxWorkers < 0) {
            return usageError("--max-workers must be 0 or more, not " + maxWorkers);
        }
        WorkloadOptions.Chosen chosen;
        try {
            chosen = workloadOptions.choose(configName);
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        try (Workload workload = chosen.workload()) {
            Configuration base = chosen.configuration();
            Path folder = chosen.dataFolder();
            Duration step = Duration.ofNanos((long) (stepMillis * 1e6));
            if (autotuneBytes != null) {
                return autotune(out, workload, base, folder, step);
            }
            WorkerTuner tuner = WorkerTuner.of(n -> workload.newLoader(base.withWorkers(n), 0, folder))
                    .step(step).batchesPerTrial(batchesPerTrial);
            if (maxWorkers != null) {
                tuner.maxWorkers(maxWorkers);
            }
            if (!json) {
                out.println(workload.name() + " " + workload.title() + ": " + workload.summary());
                out.printf(Locale.ROOT, "tuning the workers of %s against %s, %d batches a trial%n%n", base.name(),
                        step.isZero() ? "no step (speed alone)" : "a step of " + WorkloadOptions.millis(stepMillis) + " ms",
                        batchesPerTrial);
                out.printf(Locale.ROOT, "%7s %11s %8s %8s %6s  %s%n", "workers", "batches/s", "wait", "busy", "CPU",
                        "verdict");
                out.flush();
            }
            TuningResult result = tuner.run(t -> {
                if (!json) {
                    out.println(row(t));
                    out.flush();
                }
            });
            if (json) {
                out.println(toJson(workload, base, stepMillis, result));
            } else {
                out.printf(Locale.ROOT, "%nchoose numWorkers(%d): %s%n", result.numWorkers(), result.reason());
            }
            out.flush();
            return CommandLine.ExitCode.OK;
        }
    }

    /** {@code --autotune}: one run of the live controller against the step. */
    private int autotune(PrintWriter out, Workload workload, Configuration base, Path folder, Duration step) {
        if (autotuneBytes <= 0) {
            return usageError("--autotune needs a positive budget, not " + autotuneBytes);
        }
        int lanes = maxWorkers != null && maxWorkers > 0 ? maxWorkers : Runtime.getRuntime().availableProcessors();
        Configuration tuned = base.withAutotune(autotuneBytes, lanes);
        long batches = 10L * batchesPerTrial;
        out.println(workload.name() + " " + workload.title() + ": " + workload.summary());
        out.printf(Locale.ROOT, "autotuning %s (%d lanes, budget %s) against %s, %d batches%n%n", base.name(), lanes,
                ByteSize.format(autotuneBytes), step.isZero() ? "no step"
                        : "a step of " + WorkloadOptions.millis(stepMillis) + " ms", batches);
        out.flush();
        try (var loader = workload.newLoader(tuned, 0, folder)) {
            AutotuneTrial trial = AutotuneTrial.run(loader, batches, step, autotuneBytes);
            out.print(trial.report());
        }
        out.flush();
        return CommandLine.ExitCode.OK;
    }

    private static String row(TuningTrial t) {
        LoaderProfile p = t.profile();
        return String.format(Locale.ROOT, "%7d %11.1f %7.1f%% %7.0f%% %6s  %s", t.numWorkers(), t.batchesPerSecond(),
                100 * p.waitShare(), 100 * p.workerBusyShare(),
                p.coresUsed() < 0 ? "?" : String.format(Locale.ROOT, "%.1f", p.coresUsed()),
                p.verdict().kind().words());
    }

    private static String toJson(Workload workload, Configuration base, double stepMillis, TuningResult r) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("workload", workload.name());
        root.put("configuration", base.name());
        root.put("stepMillis", stepMillis);
        ArrayNode trials = root.putArray("trials");
        for (TuningTrial t : r.trials()) {
            ObjectNode n = trials.addObject();
            n.put("numWorkers", t.numWorkers());
            n.put("batchesPerSecond", t.batchesPerSecond());
            n.put("waitShare", t.profile().waitShare());
            n.put("workerBusyShare", t.profile().workerBusyShare());
            n.put("coresUsed", t.profile().coresUsed());
            n.put("verdict", t.profile().verdict().kind().words());
        }
        root.put("numWorkers", r.numWorkers());
        root.put("reason", r.reason());
        return root.toString();
    }

    private int usageError(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("stoker tune: " + message);
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }
}
