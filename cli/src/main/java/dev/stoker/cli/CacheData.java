package dev.stoker.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Data a workload makes for itself when the benchmark data folder lacks it (W2, W3, W5, W7): made
 * once in the cache folder ({@link Workload#defaultDataFolder()}) and kept for later runs. It is
 * written under a temporary name and then moved into place, so that an interrupted run leaves
 * nothing that a later one would take for finished.
 *
 * <pre>{@code
 * Path file = CacheData.file("W7", "data-w7-gaussian.h5", "no data.h5 in the data folder; writing 4,096 samples",
 *         tmp -> writeFile(tmp, 4096, seed));
 * }</pre>
 */
final class CacheData {
    private CacheData() {}

    /** Writes the data at {@code target}: a file, or an empty folder it fills. */
    @FunctionalInterface
    interface Writer {
        void write(Path target) throws IOException;
    }

    /**
     * The cache folder's file {@code name}, written by {@code writer} when it is not there yet;
     * {@code what} says why and what is written, for the line printed before.
     */
    static Path file(String workload, String name, String what, Writer writer) throws IOException {
        Path file = Workload.defaultDataFolder().resolve(name);
        if (Files.isRegularFile(file)) {
            return file;
        }
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(name + ".tmp");
        long start = starting(workload, what, file);
        try {
            writer.write(tmp);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        done(workload, file, start);
        return file;
    }

    /** The cache folder's folder {@code name}, filled by {@code writer} when it is not there yet; as {@link #file}. */
    static Path folder(String workload, String name, String what, Writer writer) throws IOException {
        return folder(workload, Workload.defaultDataFolder().resolve(name), what, writer);
    }

    /** The folder {@code root}, filled by {@code writer} when it is not there yet; as {@link #file}. */
    static Path folder(String workload, Path root, String what, Writer writer) throws IOException {
        String name = root.getFileName().toString();
        if (Files.isDirectory(root)) {
            return root;
        }
        Files.createDirectories(root.getParent());
        Path tmp = Files.createTempDirectory(root.getParent(), name + ".tmp");
        long start = starting(workload, what, root);
        try {
            writer.write(tmp);
            Files.move(tmp, root, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            deleteTree(tmp);
            if (!Files.isDirectory(root)) {
                throw e;
            }
            return root; // another run made it meanwhile
        }
        done(workload, root, start);
        return root;
    }

    private static long starting(String workload, String what, Path target) {
        System.err.printf("%s: %s to %s ...%n", workload, what, target);
        return System.nanoTime();
    }

    private static void done(String workload, Path made, long start) {
        System.err.printf("%s: wrote %s in %.1f s%n", workload, made, (System.nanoTime() - start) / 1e9);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
