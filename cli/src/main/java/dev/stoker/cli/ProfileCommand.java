package dev.stoker.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderProfile;
import dev.stoker.loader.StepLoop;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageTotal;
import dev.stoker.metrics.Trace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stoker profile}: runs one configuration of a workload against a training step of a
 * given length (the consumer's thread sleeps, as it would while the GPU computes) and says where
 * the time went, stage by stage, whether the loop waited for data and why; optionally writes a
 * trace that Perfetto opens.
 */
@Command(
        name = "profile",
        sortOptions = false,
        header = "Find where a loader's time goes: data-bound or compute-bound, and why.",
        description = {
            "Runs one configuration of a workload (WORKLOADS.md) with a stand-in for",
            "the training step: after taking each batch, the loop sleeps --step-ms, as",
            "a training thread waits while the GPU computes. Then it prints the time",
            "of every stage (fetch, and within it the dataset's read, decode and",
            "transform; collate; the workers' waits for pool memory; the loop's",
            "waits and steps) and a verdict: data-bound or compute-bound, and what",
            "would help. With --trace it also writes every span, thread by thread,",
            "as a trace for https://ui.perfetto.dev or chrome://tracing. With --report",
            "it writes one HTML page of charts (the consumer's waits, the workers'",
            "busy time, the queue and pool memory over time, each batch's stages)",
            "that any browser opens without a network.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker profile                                 W1, 4 workers, no step",
            "  stoker profile -w W3 -c 'nw=2 fill' --step-ms 40",
            "  stoker profile --step-ms 100 --trace           also write stoker-trace.json",
            "  stoker profile -w W3 --step-ms 40 --report     also write stoker-report.html",
            "  stoker profile --json                          one JSON object, for scripts"
        })
final class ProfileCommand implements Callable<Integer> {
    /** Events a trace keeps unless told otherwise: about 41 MB. */
    static final int DEFAULT_TRACE_EVENTS = 1_000_000;

    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions workloadOptions;

    @Option(names = {"-c", "--config"}, paramLabel = "NAME",
            description = "The configuration, e.g. 'nw=4 persistent' (default: the workload's first with workers).")
    String configName;

    @Option(names = "--step-ms", paramLabel = "MS", defaultValue = "0",
            description = "The training step's length in milliseconds: the loop sleeps this long per batch"
                    + " (default: ${DEFAULT-VALUE}, a loop that only takes batches).")
    double stepMillis;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "1", description = "Epochs to run (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--batches", paramLabel = "N", description = "Stop after this many batches.")
    Long batchLimit;

    @Option(names = "--trace", paramLabel = "FILE", arity = "0..1", fallbackValue = "stoker-trace.json",
            description = "Write a trace of every span to FILE (default name: ${FALLBACK-VALUE}).")
    Path trace;

    @Option(names = "--trace-events", paramLabel = "N", defaultValue = "" + DEFAULT_TRACE_EVENTS,
            description = "The most events the trace keeps, " + Trace.BYTES_PER_EVENT + " bytes each (default: ${DEFAULT-VALUE})."
                    + " Later ones are counted, not kept.")
    int traceEvents;

    @Option(names = "--report", paramLabel = "FILE", arity = "0..1", fallbackValue = "stoker-report.html",
            description = "Write an HTML page of charts to FILE, one file with no network needed to view it"
                    + " (default name: ${FALLBACK-VALUE}).")
    Path report;

    @Option(names = "--sample-ms", paramLabel = "MS", defaultValue = "50", hidden = true,
            description = "How often the report's charts over time read the loader (default: ${DEFAULT-VALUE}).")
    int sampleMillis;

    @Option(names = "--json", description = "Print the profile as one JSON object on stdout, nothing else.")
    boolean json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!(stepMillis >= 0 && stepMillis <= 60_000)) {
            return usageError("--step-ms is a number of milliseconds from 0 to 60000, not " + stepMillis);
        }
        if (epochs < 1 || (batchLimit != null && batchLimit < 1) || traceEvents < 1 || sampleMillis < 1) {
            return usageError("--epochs, --batches, --trace-events and --sample-ms must be at least 1");
        }
        WorkloadOptions.Chosen chosen;
        try {
            chosen = workloadOptions.choose(configName);
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        try (Workload workload = chosen.workload()) {
            Configuration config = chosen.configuration();
            Path folder = chosen.dataFolder();
            long planned = workload.batchesPerEpoch() * epochs;
            long total = batchLimit == null ? planned : Math.min(planned, batchLimit);
            if (!json) {
                out.println(workload.name() + " " + workload.title() + ": " + workload.summary());
                out.printf(Locale.ROOT, "configuration %s, %d batches, a step of %s ms per batch (the loop sleeps)%n",
                        config.name(), total, WorkloadOptions.millis(stepMillis));
                out.flush();
            }
            LoaderProfile profile;
            Trace recorded = null;
            ProfileReport.Input reportInput = null;
            try (DataLoader<?> loader = workload.newLoader(config, 0, folder);
                 Progress progress = Progress.create(err, total, 1)) {
                progress.repetition(config, "profile");
                if (trace != null || report != null) {
                    loader.startTrace(traceEvents);
                }
                AtomicLong taken = new AtomicLong();
                ProfileSampler sampler = report == null ? null
                        : new ProfileSampler(loader, taken::get, Duration.ofMillis(sampleMillis));
                try {
                    StepLoop.run(loader, total, Duration.ofNanos((long) (stepMillis * 1e6)), batch -> {
                        taken.incrementAndGet();
                        NullConsumer.consume(batch); // touch it, as the benchmark's consumer does
                        progress.batch();
                    });
                } finally {
                    if (sampler != null) {
                        sampler.close(); // before the loader closes: its last reading is of the pool
                    }
                }
                recorded = loader.stopTrace();
                profile = loader.profile();
                if (sampler != null) {
                    reportInput = new ProfileReport.Input(workload.name(), workload.title(), workload.summary(),
                            config.name(), stepMillis, profile, loader.inFlightBound(), loader.pool().budgetBytes(),
                            loader.pool().stats(), loader.stats(), recorded, sampler.samples());
                }
            }
            if (recorded != null && trace != null) {
                try {
                    recorded.writeChromeJson(trace);
                } catch (IOException e) {
                    err.println("stoker profile: could not write the trace to " + trace + ": " + e.getMessage());
                    return CommandLine.ExitCode.SOFTWARE;
                }
            }
            if (reportInput != null) {
                try {
                    Files.writeString(report, ReportPage.render(ProfileReport.build(reportInput)));
                } catch (IOException e) {
                    err.println("stoker profile: could not write the report to " + report + ": " + e.getMessage());
                    return CommandLine.ExitCode.SOFTWARE;
                }
            }
            if (json) {
                out.println(toJson(workload, config, profile, trace != null ? recorded : null));
            } else {
                out.println();
                out.print(profile.report());
                if (trace != null && recorded != null) {
                    out.printf(Locale.ROOT, "trace: %s (%,d events%s); open it at https://ui.perfetto.dev%n", trace,
                            recorded.events(), recorded.dropped() > 0
                                    ? String.format(Locale.ROOT, ", %,d more dropped: raise --trace-events", recorded.dropped())
                                    : "");
                }
            }
            if (!json && report != null) {
                out.printf(Locale.ROOT, "report: %s; open it in a browser (no network needed)%s%n", report,
                        recorded.dropped() > 0 ? String.format(Locale.ROOT, "; %,d spans did not fit the trace:"
                                + " raise --trace-events for every batch's stages", recorded.dropped()) : "");
            }
            out.flush();
            return CommandLine.ExitCode.OK;
        }
    }

    private static String toJson(Workload workload, Configuration config, LoaderProfile profile, Trace recorded) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("workload", workload.name());
        root.put("configuration", config.name());
        root.put("numWorkers", profile.numWorkers());
        root.put("batches", profile.batches());
        root.put("activeSeconds", profile.activeNanos() / 1e9);
        root.put("waitShare", profile.waitShare());
        root.put("workerBusyShare", profile.workerBusyShare());
        ObjectNode stages = root.putObject("stages");
        for (Stage s : Stage.values()) {
            StageTotal t = profile.times().get(s);
            ObjectNode n = stages.putObject(s.label());
            n.put("seconds", t.seconds());
            n.put("count", t.count());
            n.put("meanMillis", t.meanMillis());
        }
        ObjectNode verdict = root.putObject("verdict");
        verdict.put("kind", profile.verdict().kind().words());
        verdict.put("reason", profile.verdict().reason());
        if (recorded != null) {
            root.put("traceEvents", recorded.events());
            root.put("traceDropped", recorded.dropped());
        }
        return root.toString();
    }

    private int usageError(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("stoker profile: " + message);
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }
}
