package dev.stoker.formats.mds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The fixtures Streaming's MDSWriter wrote (src/test/resources/mds/make_fixtures.py), copied into a
 * test's directory before use: opening a compressed set writes its raw shards beside it.
 */
final class MdsFixtures {
    static final Path ROOT = Path.of("src/test/resources/mds").toAbsolutePath();

    private MdsFixtures() {
    }

    /** Copies fixture set {@code name} (a directory tree) into {@code dir}/{@code name} and returns that. */
    static Path copy(String name, Path dir) {
        Path from = ROOT.resolve(name);
        Path to = dir.resolve(name);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return to;
    }

    /** The set's expected.json: {@code {columns: {name: encoding}, samples: [{name: value}]}}. */
    static JsonNode expected(String name) {
        try {
            return new ObjectMapper().readTree(ROOT.resolve(name).resolve("expected.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
