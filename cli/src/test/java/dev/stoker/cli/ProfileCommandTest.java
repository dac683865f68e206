package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.cli.BenchCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stoker profile} in-process, on a W1 small enough for a unit test. */
class ProfileCommandTest {
    /** W1 shrunk: 96 samples (3 batches of 32), no delay. */
    private static final String[] TINY = {"profile", "--samples", "96", "--delay-ms", "0"};

    private static Run run(String... more) {
        return BenchCommandTest.run(TINY, more);
    }

    @Test
    void printsEveryStageAndAVerdict() {
        Run r = run("--epochs", "2", "--step-ms", "1");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("W1 synthetic-delay", "configuration nw=", "6 batches", "a step of 1 ms");
        assertThat(r.out()).containsPattern("(?m)^fetch +\\d")
                .containsPattern("(?m)^collate +\\d")
                .containsPattern("(?m)^step +[0-9.]+ +5 ") // the last ends when the loop asks again: it never does
                .containsPattern("(?m)^first batch +[0-9.]+ +2 ")
                .containsPattern("(?m)^verdict: (data-bound|compute-bound): ");
    }

    @Test
    void theJsonHasTheStagesAndTheVerdict() throws Exception {
        Run r = run("--json", "--config", "nw=0", "--batches", "2");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertThat(root.path("workload").asText()).isEqualTo("W1");
        assertThat(root.path("configuration").asText()).isEqualTo("nw=0");
        assertThat(root.path("batches").asLong()).isEqualTo(2);
        assertThat(root.path("stages").path("fetch").path("count").asLong()).isEqualTo(2);
        assertThat(root.path("stages").path("first batch").path("count").asLong()).isEqualTo(1);
        // two batches taken: one step after each, the second ending when the loop stopped asking
        assertThat(root.path("stages").path("step").path("count").asLong()).isEqualTo(1);
        assertThat(root.path("verdict").path("kind").asText()).isEqualTo("not known yet");
        assertThat(root.has("traceEvents")).isFalse();
    }

    @Test
    void writesATraceThatOpensAsJson(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.json");
        Run r = run("--trace=" + file, "--config", "nw=2");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("trace: " + file, "ui.perfetto.dev");
        JsonNode root = new ObjectMapper().readTree(Files.readString(file));
        long fetches = 0;
        for (JsonNode e : root.path("traceEvents")) {
            if (e.path("name").asText().equals("fetch")) {
                fetches++;
            }
        }
        assertThat(fetches).isEqualTo(3);
    }

    @Test
    void aFullTraceSaysHowManyItDropped(@TempDir Path dir) {
        Run r = run("--trace=" + dir.resolve("t.json"), "--trace-events", "2");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("(2 events, ").contains("more dropped: raise --trace-events");
    }

    @Test
    void anUnknownConfigurationListsTheOnesThereAre() {
        Run r = run("--config", "nw=99");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("stoker profile: there is no configuration 'nw=99' in W1; there are: 'nw=0', ");
    }

    @Test
    void aNegativeStepIsRefused() {
        Run r = run("--step-ms", "-3");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--step-ms is a number of milliseconds from 0 to 60000");
    }

    @Test
    void theHelpSaysWhatItIsFor() {
        Run r = BenchCommandTest.run("profile", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("data-bound or compute-bound", "--step-ms", "--trace", "ui.perfetto.dev", "--report",
                "stoker-report.html");
    }
}
