package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.cli.BenchCommandTest.Run;
import org.junit.jupiter.api.Test;

/** {@code stoker tune} in-process, on a tiny W1 and at most one or two workers. */
class TuneCommandTest {
    /** W1 shrunk: 64 samples (2 batches of 32), a 1 ms sleep per sample. */
    private static final String[] TINY = {"tune", "--samples", "64", "--delay-ms", "1", "--batches", "6"};

    private static Run run(String... more) {
        return BenchCommandTest.run(TINY, more);
    }

    @Test
    void printsATrialPerWorkerCountAndTheChoice() {
        Run r = run("--max-workers", "1", "--step-ms", "5");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("tuning the workers of nw=2 against a step of 5 ms, 6 batches a trial")
                .containsPattern("(?m)^workers +batches/s +wait +busy +CPU +verdict$")
                .containsPattern("(?m)^ +0 +[0-9.]+ +[0-9.]+% +")
                .containsPattern("(?m)^choose numWorkers\\([01]\\): ");
    }

    @Test
    void theJsonListsTheTrialsAndTheChoice() throws Exception {
        Run r = run("--max-workers", "2", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertThat(root.path("workload").asText()).isEqualTo("W1");
        assertThat(root.path("stepMillis").asDouble()).isZero();
        assertThat(root.path("trials").size()).isBetween(2, 3);
        assertThat(root.path("trials").get(0).path("numWorkers").asInt()).isZero();
        int chosen = root.path("numWorkers").asInt();
        assertThat(chosen).isBetween(0, 2);
        assertThat(root.path("reason").asText()).startsWith("the fewest workers within 5% of the fastest");
    }

    @Test
    void aPersistentConfigurationIsTriedWithoutWorkersToo() {
        Run r = run("--max-workers", "1", "-c", "nw=2 persistent");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("tuning the workers of nw=2 persistent").containsPattern("(?m)^ +0 +[0-9.]+ ");
    }

    @Test
    void autotuneRunsTheLoadersControllerAndReportsWhereItSettled() {
        Run r = run("--max-workers", "2", "--step-ms", "2", "--autotune", "64MiB");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("autotuning nw=2 (2 lanes, budget 64.0 MiB) against a step of 2 ms, 60 batches")
                .contains("  from batch 0: 1 worker, prefetch 1 (start)")
                .containsPattern("(?m)^autotune settled on [12] workers?, prefetch [1-4]: ")
                .containsPattern("(?m)^second half: [0-9.]+ batches/s")
                .containsPattern("(?m)^pool peak .* of a 64.0 MiB budget$");
    }

    @Test
    void aBudgetOfNothingIsRefused() {
        Run r = run("--autotune", "0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Invalid value for option '--autotune': '0' is not a size");
    }

    @Test
    void tooFewBatchesPerTrialAreRefused() {
        Run r = BenchCommandTest.run("tune", "--batches", "2");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("stoker tune: --batches must be at least 5");
    }

    @Test
    void theHelpSaysWhatItIsFor() {
        Run r = BenchCommandTest.run("tune", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("how many workers keep a training step fed", "--step-ms", "--max-workers");
    }
}
