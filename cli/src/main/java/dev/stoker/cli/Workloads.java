package dev.stoker.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The workloads {@code stoker bench} knows (every one {@code WORKLOADS.md} defines): the error for
 * an unknown name lists them.
 */
final class Workloads {
    private Workloads() {}

    /**
     * The workload named {@code name} (any case), with the test-only overrides applied where the
     * workload has them.
     *
     * @param samples a sample count in place of the workload's, or {@code null}
     * @param delay   a per-fetch delay in place of the workload's, or {@code null}
     */
    static Optional<Workload> find(String name, Integer samples, Duration delay) {
        return switch (name.trim().toUpperCase(Locale.ROOT)) {
            case "W1" -> Optional.of(new W1Synthetic(samples == null ? W1Synthetic.SAMPLES : samples,
                    delay == null ? W1Synthetic.DELAY : delay));
            case "W4" -> Optional.of(new W4VarlenCollate(samples == null ? W4VarlenCollate.SAMPLES : samples));
            case "W6" -> Optional.of(new W6InMemoryTensors(samples == null ? W6InMemoryTensors.SAMPLES : samples));
            case "W2" -> Optional.of(new W2TokenMemmap(samples == null ? W2TokenMemmap.SAMPLES : samples));
            case "W3" -> Optional.of(new W3JpegFolder(samples == null ? W3JpegFolder.SAMPLES : samples));
            case "W5" -> Optional.of(new W5TarShards(samples == null ? W5TarShards.SAMPLES : samples));
            case "W7" -> Optional.of(new W7Hdf5(samples == null ? W7Hdf5.SAMPLES : samples));
            case "W8" -> Optional.of(new W8Lmdb(samples == null ? W8Lmdb.SAMPLES : samples));
            case "W9" -> Optional.of(samples == null ? new W9Packing() : new W9Packing(samples));
            case "W10" -> Optional.of(new W10TextWindows(samples == null ? W10TextWindows.SAMPLES : samples));
            case "W2-MDS" -> Optional.of(new W2MdsTokens(samples == null ? W2TokenMemmap.SAMPLES : samples));
            case "W3-MDS" -> Optional.of(new W3MdsJpeg(samples == null ? W3JpegFolder.SAMPLES : samples));
            case "W3-RECIPE" -> Optional.of(new W3Recipe(samples == null ? W3JpegFolder.SAMPLES : samples));
            default -> Optional.empty();
        };
    }

    /**
     * The benchmark data folder {@code workload} reads: {@code given}, else the default one;
     * {@code null} for a workload that reads none.
     *
     * @throws IllegalArgumentException when the workload needs the folder's files, cannot make
     *     them itself, and the folder is missing: the message says how to make it
     */
    static Path dataFolder(Workload workload, Path given) {
        if (!workload.needsData()) {
            return null;
        }
        Path folder = given != null ? given : Workload.defaultDataFolder();
        if (!Files.isDirectory(folder) && (given != null || !workload.makesMissingData())) {
            throw new IllegalArgumentException(workload.name() + " reads the benchmark data, and " + folder
                    + " is not a folder. Make it with the PyTorch peers' generator:\n"
                    + "  python3 gen_data.py --root " + folder + "\n"
                    + (given == null ? "or pass --data DIR." : standIn(workload)));
        }
        // A stand-in made in the cache folder is no answer to a folder the user named: say so and stop.
        String missing = given != null && workload.makesMissingData() ? workload.missingFrom(folder) : null;
        if (missing != null) {
            throw new IllegalArgumentException(workload.name() + " reads " + missing + " from the data folder, and "
                    + folder + " has none. Make the benchmark data there with the PyTorch peers' generator:\n"
                    + "  python3 gen_data.py --root " + folder + "\n" + standIn(workload));
        }
        return folder;
    }

    /** How to run {@code workload} without the benchmark data, when it can. */
    private static String standIn(Workload workload) {
        return workload.makesMissingData()
                ? "or leave out --data: " + workload.name() + " then makes a stand-in of its data in "
                        + Workload.defaultDataFolder() + " and reads that."
                : "or pass --data DIR.";
    }

    /** The message for a name that is not a workload: what exists. */
    static String unknown(String name) {
        return "there is no workload '" + name + "'.\n" + catalogue();
    }

    /** The workloads that run, one per line. */
    static String catalogue() {
        // Made only to be described: W6's tensors are made by its first loader, not here.
        List<Workload> available = List.of(new W1Synthetic(), new W2TokenMemmap(), new W3JpegFolder(),
                new W4VarlenCollate(), new W5TarShards(), new W6InMemoryTensors(),
                new W7Hdf5(), new W8Lmdb(), new W9Packing(), new W10TextWindows(), new W2MdsTokens(), new W3MdsJpeg(), new W3Recipe());
        return "Available:\n"
                + available.stream()
                        .map(w -> "  " + w.name() + " " + w.title() + ": " + w.summary()
                                + (w.needsData() ? " (reads --data DIR)\n" : " (no data needed)\n"))
                        .collect(Collectors.joining());
    }
}
