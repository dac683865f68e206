package dev.stoker.loader.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine sits below the loader's API: it may use the values a user also sees (a batch, its
 * failure, a state) but never the classes that drive it (DataLoader, its builder, the
 * iterator), so that no loop runs between the two packages' classes and issue 17's module-info
 * can export dev.stoker.loader alone. Read from the sources, as imports.
 */
class EngineLayeringTest {
    /** What the engine may take from dev.stoker.loader: values, no drivers. */
    private static final Set<String> ALLOWED = Set.of("Batch", "LoaderException", "LoaderState", "StreamState",
            "SamplePolicy", "LoaderStats", "SkippedSample", "LoaderProfile");
    private static final Pattern LOADER_IMPORT = Pattern.compile("^import dev\\.stoker\\.loader\\.([A-Z]\\w*);",
            Pattern.MULTILINE);

    @Test
    void theEngineImportsOnlyTheLoadersValues() throws IOException {
        Path engine = Path.of("src/main/java/dev/stoker/loader/engine");
        assertThat(engine).isDirectory();
        List<String> offending = new ArrayList<>();
        int files = 0;
        try (Stream<Path> sources = Files.list(engine)) {
            for (Path p : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                files++;
                Matcher m = LOADER_IMPORT.matcher(Files.readString(p));
                while (m.find()) {
                    if (!ALLOWED.contains(m.group(1))) {
                        offending.add(p.getFileName() + " imports " + m.group(1));
                    }
                }
            }
        }
        assertThat(files).as("engine sources read").isGreaterThan(20);
        assertThat(offending).isEmpty();
    }

    @Test
    void theEngineDoesNotNameTheLoaderInItsCode() throws IOException {
        // no fully qualified use past the imports either (comments and strings may name them)
        Path engine = Path.of("src/main/java/dev/stoker/loader/engine");
        List<String> offending = new ArrayList<>();
        try (Stream<Path> sources = Files.list(engine)) {
            for (Path p : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                String code = Files.readString(p).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "")
                        .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
                for (String driver : List.of("DataLoader", "LoaderBuilder", "BatchIterator", "WorkerTuner")) {
                    if (Pattern.compile("\\b" + driver + "\\b").matcher(code).find()) {
                        offending.add(p.getFileName() + " uses " + driver);
                    }
                }
            }
        }
        assertThat(offending).isEmpty();
    }
}
