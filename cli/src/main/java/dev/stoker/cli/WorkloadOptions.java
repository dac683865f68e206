package dev.stoker.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options that pick a workload and its data, shared by {@code bench}, {@code profile} and
 * {@code tune} (a picocli mixin), with the lookups they make of them.
 */
final class WorkloadOptions {
    @Option(names = {"-w", "--workload"}, paramLabel = "NAME", defaultValue = "W1",
            description = "The workload (default: ${DEFAULT-VALUE}); `stoker bench --list` lists them.")
    String workloadName;

    @Option(names = "--data", paramLabel = "DIR",
            description = "The benchmark data folder, for the workloads that read files (W1 reads none), "
                    + "as the PyTorch peers' generator makes it (gen_data.py --root DIR). "
                    + "Default: ~/.cache/stoker/bench-data.")
    Path data;

    /** For tests: a smaller W1. */
    @Option(names = "--samples", hidden = true)
    Integer samples;

    /** For tests: a shorter W1 delay. */
    @Option(names = "--delay-ms", hidden = true)
    Long delayMillis;

    /** The workload named, with the test-only overrides; empty for an unknown name ({@link Workloads#unknown}). */
    Optional<Workload> find() {
        return Workloads.find(workloadName, samples, delayMillis == null ? null : Duration.ofMillis(delayMillis));
    }

    /**
     * The data folder {@code workload} reads, or {@code null}; see {@link Workloads#dataFolder}.
     *
     * @throws IllegalArgumentException when it needs one that is not there, saying how to make it
     */
    Path dataFolder(Workload workload) {
        return Workloads.dataFolder(workload, data);
    }

    /**
     * A workload picked by these options, one configuration of it, and its data folder (or
     * {@code null}); the caller closes the workload.
     */
    record Chosen(Workload workload, Configuration configuration, Path dataFolder) {}

    /**
     * The workload, its configuration {@code configName} (see {@link #configuration}) and its data.
     *
     * @throws IllegalArgumentException for an unknown workload or configuration, or missing data,
     *     with a message for the person who typed them
     */
    Chosen choose(String configName) {
        Workload workload = find().orElseThrow(() -> new IllegalArgumentException(Workloads.unknown(workloadName)));
        try {
            Configuration c = configuration(workload, configName);
            if (c == null) {
                throw new IllegalArgumentException(noSuchConfiguration(workload, configName));
            }
            return new Chosen(workload, c, dataFolder(workload));
        } catch (RuntimeException e) {
            workload.close();
            throw e;
        }
    }

    /**
     * The configuration named {@code name} in {@code workload}, or with no name its first with
     * workers (its first, if none has); {@code null} for a name it does not have.
     */
    static Configuration configuration(Workload workload, String name) {
        if (name != null) {
            return workload.configurations().stream().filter(c -> c.isNamed(name)).findFirst().orElse(null);
        }
        return workload.configurations().stream().filter(c -> c.numWorkers() > 0).findFirst()
                .orElse(workload.configurations().getFirst());
    }

    /** The message for a configuration name {@code workload} does not have: the ones it does. */
    static String noSuchConfiguration(Workload workload, String name) {
        return "there is no configuration '" + name + "' in " + workload.name() + "; there are: "
                + String.join(", ", workload.configurations().stream().map(c -> "'" + c.name() + "'").toList());
    }

    /** {@code 5} for 5.0, {@code 2.5} for 2.5: milliseconds as a person writes them. */
    static String millis(double ms) {
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }
}
