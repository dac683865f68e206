package dev.stoker.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout the tests run in, for tests of its shell scripts; such a test is skipped outside one. */
final class RepositoryRoot {
    private RepositoryRoot() {}

    /** The nearest folder at or above the working directory that holds {@code file}. */
    static Path holding(String file) {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve(file))) {
            p = p.getParent();
        }
        assumeTrue(p != null, "not run from inside the repository");
        return p;
    }
}
