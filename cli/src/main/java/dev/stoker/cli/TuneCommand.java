package dev.stoker.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stoker.loader.Autotune;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderProfile;
import dev.stoker.loader.TuningDecision;
import dev.stoker.loader.TuningResult;
import dev.stoker.loader.TuningTrial;
import dev.stoker.loader.WorkerTuner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stoker tune}: how many workers and how much prefetch a workload needs to keep a training
 * step of a given length fed, found by the loader's own controller ({@code LoaderBuilder.autotune},
 * the same code a training job runs): the loader starts at one worker and prefetch 1, runs against
 * a stand-in step until the controller settles, and the command says where it settled, why not one
 * worker fewer or more, how soon the consumer stopped waiting and the memory held against the
 * budget. {@code --verify} also tries fixed worker counts ({@link WorkerTuner}) and sets the best
 * of them beside the tuned speed.
 */
@Command(
        name = "tune",
        sortOptions = false,
        header = "Find how many workers keep a training step fed.",
        // one paragraph: picocli wraps it to the terminal (lines of its own would wrap twice)
        description = {
            "Runs one configuration of a workload under the loader's autotuner (the controller of "
                + "LoaderBuilder.autotune) from 1 worker (--from) and prefetch 1, against a stand-in for the training "
                + "step (the loop sleeps --step-ms per batch), until the controller has changed nothing for --settle "
                + "batches and a second. Prints each change as it was made, the settings it settled on with why not one"
                + " worker fewer (the consumer waited) or more (no gain, every lane in use, the cores busy, the "
                + "budget), when the consumer's wait fell under 5%%, the settled speed and the pool's peak against the "
                + "budget. --verify then tries fixed worker counts 0, 1, 2, 4, ... against the same step and compares "
                + "the best with the tuned run.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker tune --step-ms 100                        W1 against a 100 ms step",
            "  stoker tune -w W3 -c 'nw=2 fill' --step-ms 80     W3's fill path",
            "  stoker tune -w W1 --step-ms 40 --from 0 --io 256  W1 in the I/O mode, from the worst start",
            "  stoker tune -w W5 --step-ms 20 --budget 512MiB --verify",
            "                                                   and the best fixed count beside it"
        })
final class TuneCommand implements Callable<Integer> {
    /** How long, besides --settle batches, the controller must have changed nothing: ten of its windows. */
    static final Duration SETTLE_TIME = Duration.ofSeconds(1);

    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions workloadOptions;

    @Option(names = {"-c", "--config"}, paramLabel = "NAME",
            description = "The configuration to tune, all but its workers and prefetch kept (default: the"
                    + " workload's first with workers).")
    String configName;

    @Option(names = "--step-ms", paramLabel = "MS", defaultValue = "0",
            description = "The training step in milliseconds (default: ${DEFAULT-VALUE}: no step, the loader as"
                    + " fast as it goes).")
    double stepMillis;

    @Option(names = "--budget", paramLabel = "SIZE", converter = ByteSize.class,
            defaultValue = "1GiB",
            description = "The memory the batches may take, in flight and the consumer's (e.g. 512MiB; default:"
                    + " ${DEFAULT-VALUE}); the loader's pool gets it as its hard limit.")
    long budgetBytes;

    @Option(names = "--max-workers", paramLabel = "N",
            description = "Worker threads (lanes), the most the tuner may run at once (default: twice the cores,"
                    + " at least 4).")
    Integer maxWorkers;

    @Option(names = "--from", paramLabel = "N", defaultValue = "1",
            description = "The workers the tuner starts at, prefetch 1 (default: ${DEFAULT-VALUE}); 0 makes the first"
                    + " batches in the loop's own thread, the worst start (map-style workloads only).")
    int startWorkers;

    @Option(names = "--io", paramLabel = "N",
            description = "Tune in the loader's I/O mode (ioConcurrency): each batch's samples fetched at once on"
                    + " virtual threads, at most N; the tuner starts at 1 and doubles the count, rather than add"
                    + " workers, while the workers wait on I/O (a slow disk, remote storage, W1's sleep).")
    Integer ioConcurrency;

    @Option(names = "--batches", paramLabel = "N", defaultValue = "600",
            description = "The most batches the run takes when the tuner does not settle first (default:"
                    + " ${DEFAULT-VALUE}).")
    int maxBatches;

    @Option(names = "--settle", paramLabel = "N", defaultValue = "40",
            description = "Batches without a change, and at least a second, after which the tuner has settled"
                    + " (default: ${DEFAULT-VALUE}).")
    int settleBatches;

    @Option(names = "--verify",
            description = "Then try fixed worker counts against the same step and set the best beside the tuned"
                    + " speed.")
    boolean verify;

    @Option(names = "--trial-batches", paramLabel = "N", defaultValue = "40",
            description = "With --verify: batches per fixed count (default: ${DEFAULT-VALUE}).")
    int trialBatches;

    @Option(names = "--json", description = "Print the run (and the trials) as one JSON object on stdout, nothing else.")
    boolean json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!(stepMillis >= 0 && stepMillis <= 60_000)) {
            return usageError("--step-ms is a number of milliseconds from 0 to 60000, not " + stepMillis);
        }
        if (settleBatches < 2) {
            return usageError("--settle must be at least 2 batches, not " + settleBatches);
        }
        if (maxBatches < settleBatches || maxBatches > 10_000_000) {
            return usageError("--batches must be from --settle (" + settleBatches + ") to 10000000, not " + maxBatches);
        }
        if (trialBatches < WorkerTuner.MIN_BATCHES_PER_TRIAL) {
            return usageError("--trial-batches must be at least " + WorkerTuner.MIN_BATCHES_PER_TRIAL
                    + ": the first batch of a trial is start-up, and a verdict needs a few more");
        }
        if (maxWorkers != null && maxWorkers < 1) {
            return usageError("--max-workers must be 1 or more, not " + maxWorkers);
        }
        if (ioConcurrency != null && (ioConcurrency < 1 || ioConcurrency > 1_000_000)) {
            return usageError("--io must be from 1 to 1000000 fetches at once, not " + ioConcurrency);
        }
        if (startWorkers < 0 || maxWorkers != null && startWorkers > maxWorkers) {
            return usageError("--from must be from 0 to --max-workers, not " + startWorkers);
        }
        WorkloadOptions.Chosen chosen;
        try {
            chosen = workloadOptions.choose(configName);
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        try (Workload workload = chosen.workload()) {
            Configuration base = ioConcurrency == null ? chosen.configuration()
                    : chosen.configuration().withIo(ioConcurrency);
            Path folder = chosen.dataFolder();
            Duration step = Duration.ofNanos((long) (stepMillis * 1e6));
            int lanes = maxWorkers != null ? maxWorkers : Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
            String against = step.isZero() ? "no step" : "a step of " + WorkloadOptions.millis(stepMillis) + " ms";
            if (!json) {
                out.println(workload.name() + " " + workload.title() + ": " + workload.summary());
                out.printf(Locale.ROOT, "autotuning %s from %s and prefetch 1 (%d lanes, budget %s) against %s,"
                                + " until no change for %d batches (at most %d)%n%n", base.name(),
                        startWorkers == 0 ? "0 workers" : startWorkers == 1 ? "1 worker" : startWorkers + " workers", lanes,
                        ByteSize.format(budgetBytes), against, settleBatches, maxBatches);
                out.flush();
            }
            if (base.ioConcurrency() > 0 && !json) {
                out.printf(Locale.ROOT, "in the I/O mode: from 1 to %d samples fetched at once%n%n",
                        base.ioConcurrency());
            }
            AutotuneTrial tuned;
            DataLoader<?> loader;
            try {
                loader = workload.newLoader(base.withAutotune(budgetBytes, lanes, startWorkers), 0, folder);
            } catch (IllegalArgumentException e) { // a start the loader refuses for this workload (0 for a stream)
                return usageError(e.getMessage());
            }
            if (base.ioConcurrency() > 0 && loader.stats().ioConcurrency() == 0 && !json) {
                out.println("note: the I/O mode does not apply to " + base.name() + ": its dataset fetches a batch"
                        + " in one call, which has nothing to overlap; tuning its workers");
            }
            try (loader) {
                tuned = AutotuneTrial.run(loader, new AutotuneTrial.Limits(maxBatches, settleBatches, SETTLE_TIME),
                        step, budgetBytes, lanes, Autotune.DEFAULT_MAX_PREFETCH,
                        new TuningExplanation.FetchLimits(base.ioConcurrency(), workload.batchSize()));
            }
            if (!json) {
                out.print(tuned.report());
                out.flush();
            }
            TuningResult fixed = null;
            if (verify) {
                fixed = verify(out, workload, base, folder, step, lanes);
            }
            if (json) {
                out.println(toJson(workload, base, lanes, tuned, fixed));
            } else {
                TuningExplanation e = tuned.explanation();
                int io = tuned.decisions().getLast().ioConcurrency();
                out.printf(Locale.ROOT, "%nuse autotune(%s), or numWorkers(%d).prefetchFactor(%d)%s to fix what it"
                                + " found%n", ByteSize.format(budgetBytes).replace(" ", ""), e.workers(), e.prefetch(),
                        io > 0 ? ".ioConcurrency(" + io + ")" : "");
            }
            out.flush();
            return CommandLine.ExitCode.OK;
        }
    }

    /** {@code --verify}: fixed counts tried against the step, the best beside the tuned speed. */
    private TuningResult verify(PrintWriter out, Workload workload, Configuration base, Path folder, Duration step,
                                int lanes) {
        WorkerTuner tuner = WorkerTuner.of(n -> workload.newLoader(base.withWorkers(n), 0, folder))
                .step(step).batchesPerTrial(trialBatches).maxWorkers(lanes);
        if (!json) {
            out.printf(Locale.ROOT, "%ncheck: fixed worker counts of %s (prefetch %d), %d batches each%n", base.name(),
                    base.prefetchFactor(), trialBatches);
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
        if (!json) {
            TuningTrial best = best(result);
            out.printf(Locale.ROOT, "best fixed: %d %s, %.1f batches/s; the search chose %d (%s)%n", best.numWorkers(),
                    best.numWorkers() == 1 ? "worker" : "workers", best.batchesPerSecond(), result.numWorkers(),
                    result.reason());
        }
        return result;
    }

    /** The fastest fixed count tried. */
    private static TuningTrial best(TuningResult r) {
        return r.trials().stream().max(Comparator.comparingDouble(TuningTrial::batchesPerSecond)).orElseThrow();
    }

    private static String row(TuningTrial t) {
        LoaderProfile p = t.profile();
        return String.format(Locale.ROOT, "%7d %11.1f %7.1f%% %7.0f%% %6s  %s", t.numWorkers(), t.batchesPerSecond(),
                100 * p.waitShare(), 100 * p.workerBusyShare(),
                p.coresUsed() < 0 ? "?" : String.format(Locale.ROOT, "%.1f", p.coresUsed()),
                p.verdict().kind().words());
    }

    private String toJson(Workload workload, Configuration base, int lanes, AutotuneTrial t, TuningResult fixed) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("workload", workload.name());
        root.put("configuration", base.name());
        root.put("stepMillis", stepMillis);
        root.put("lanes", lanes);
        root.put("budgetBytes", budgetBytes);
        root.put("batches", t.batches());
        root.put("settled", t.settled());
        root.put("settledFromBatch", t.settledFrom());
        root.put("numWorkers", t.explanation().workers());
        root.put("prefetch", t.explanation().prefetch());
        int io = t.decisions().getLast().ioConcurrency();
        if (io > 0) {
            root.put("ioConcurrency", io);
        } else {
            root.putNull("ioConcurrency");
        }
        root.put("whyNotFewer", t.explanation().whyNotFewer());
        root.put("whyNotMore", t.explanation().whyNotMore());
        t.explanation().fetches().ifPresentOrElse(f -> {
            root.put("whyNotFewerFetches", f.whyNotFewer());
            root.put("whyNotMoreFetches", f.whyNotMore());
        }, () -> {
            root.putNull("whyNotFewerFetches");
            root.putNull("whyNotMoreFetches");
        });
        if (t.fedBatch() >= 0) {
            root.put("fedFromBatch", t.fedBatch());
            root.put("secondsUntilFed", t.fedSeconds());
        } else {
            root.putNull("fedFromBatch");
            root.putNull("secondsUntilFed");
        }
        root.put("steadyBatchesPerSecond", t.steadyPerSecond());
        root.put("steadyWaitShare", t.steadyWaitShare());
        if (Double.isNaN(t.passStartMillis())) {
            root.putNull("passStartWaitMs");
        } else {
            root.put("passStartWaitMs", t.passStartMillis());
        }
        root.put("peakPoolBytes", t.peakPoolBytes());
        ArrayNode decisions = root.putArray("decisions");
        for (TuningDecision d : t.decisions()) {
            ObjectNode n = decisions.addObject();
            n.put("batch", d.batch());
            n.put("workers", d.workers());
            n.put("prefetch", d.prefetch());
            if (d.ioConcurrency() > 0) {
                n.put("ioConcurrency", d.ioConcurrency());
            }
            n.put("reason", d.reason().name());
            if (Double.isNaN(d.waitShare())) {
                n.putNull("waitShare");
            } else {
                n.put("waitShare", d.waitShare());
            }
        }
        if (fixed != null) {
            ObjectNode check = root.putObject("verify");
            ArrayNode trials = check.putArray("trials");
            for (TuningTrial tr : fixed.trials()) {
                ObjectNode n = trials.addObject();
                n.put("numWorkers", tr.numWorkers());
                n.put("batchesPerSecond", tr.batchesPerSecond());
                n.put("waitShare", tr.profile().waitShare());
                n.put("workerBusyShare", tr.profile().workerBusyShare());
                n.put("coresUsed", tr.profile().coresUsed());
                n.put("verdict", tr.profile().verdict().kind().words());
            }
            TuningTrial best = best(fixed);
            check.put("bestNumWorkers", best.numWorkers());
            check.put("bestBatchesPerSecond", best.batchesPerSecond());
            check.put("chosenNumWorkers", fixed.numWorkers());
            check.put("reason", fixed.reason());
        }
        return root.toString();
    }

    private int usageError(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("stoker tune: " + message);
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }
}
