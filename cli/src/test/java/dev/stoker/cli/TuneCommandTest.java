package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.cli.BenchCommandTest.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code stoker tune} in-process, on a tiny W1 whose samples each sleep 1 ms (32 ms a batch for one
 * worker), against no step: the consumer must wait with one worker, so the tuner has a reason to add
 * one. Where it ends depends on the machine (a busy one keeps the count down), so the tests check
 * that the explanation fits the count and the wait the run measured, not a count or a time.
 */
class TuneCommandTest {
    /** W1 shrunk: 64 samples (2 batches of 32), a 1 ms sleep per sample. */
    private static final String[] TINY = {"tune", "--samples", "64", "--delay-ms", "1", "--settle", "8",
        "--batches", "150"};

    /** The tiny W1 on at most {@code lanes} lanes. */
    private static Run run(int lanes, String... more) {
        List<String> args = new ArrayList<>(List.of(TINY));
        args.add("--max-workers=" + lanes);
        args.addAll(List.of(more));
        return BenchCommandTest.run(args.toArray(String[]::new));
    }

    @Test
    void printsEachChangeWhereItSettledAndWhyNotOneFewerOrMore() {
        Run r = run(2, "--budget", "512MiB");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("autotuning nw=2 from 1 worker and prefetch 1 (2 lanes, budget 512 MiB) against"
                        + " no step, until no change for 8 batches (at most 150)")
                .contains("  from batch 0: 1 worker, prefetch 1 (start)")
                .containsPattern("(?m)^(settled|ended) on [12] workers?, prefetch [1-4] \\(")
                .containsPattern("(?m)^  why not [01]: ")
                .containsPattern("(?m)^  why not [23]: ")
                .containsPattern("(?m)^(settled|second half): [0-9.]+ batches/s, the consumer waiting [0-9.]+% of the"
                        + " time$")
                .containsPattern("(?m)^pool peak .* of a 512 MiB budget$")
                .doesNotContain("(OVER)")
                .containsPattern("(?m)^use autotune\\(512MiB\\), or numWorkers\\([12]\\)\\.prefetchFactor\\([1-4]\\)");
    }

    @Test
    void theExplanationFitsTheCountAndTheWaitMeasured() throws Exception {
        Run r = run(2, "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertThat(root.path("workload").asText()).isEqualTo("W1");
        assertThat(root.path("lanes").asInt()).isEqualTo(2);
        JsonNode first = root.path("decisions").get(0);
        assertThat(first.path("workers").asInt()).isEqualTo(1);
        assertThat(first.path("reason").asText()).isEqualTo("START");
        int n = root.path("numWorkers").asInt();
        assertThat(n).isBetween(1, 2);
        JsonNode last = root.path("decisions").get(root.path("decisions").size() - 1);
        assertThat(last.path("workers").asInt()).isEqualTo(n);
        assertThat(root.path("peakPoolBytes").asLong()).isPositive().isLessThanOrEqualTo(root.path("budgetBytes")
                .asLong());

        String fewer = root.path("whyNotFewer").asText();
        String more = root.path("whyNotMore").asText();
        if (n == 2) { // the second worker came because the consumer waited with one
            assertThat(fewer).startsWith("with 1 worker the consumer waited ");
        } else {
            assertThat(fewer).isEqualTo("one worker is where the tuner starts and the fewest it runs");
        }
        if (root.path("steadyWaitShare").asDouble() < 0.05) {
            assertThat(more).startsWith("no gain: with " + n + " the consumer waits only ");
        } else if (n == 2) {
            assertThat(more).contains("every lane is in use (2 worker threads");
        } else { // one worker and still waiting: only busy cores keep the second lane out for a settled second
            assertThat(more).contains("busy with other processes");
        }
    }

    @Test
    void aBudgetForThreeBatchesHoldsTheCountAndThePool() throws Exception {
        // 19.3 MB a batch: 64 MiB holds the consumer's batch and 2 in flight, so 2 workers x prefetch 1 at most
        Run r = run(3, "--json", "--budget", "64MiB");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertThat(root.path("peakPoolBytes").asLong()).isLessThanOrEqualTo(64L << 20);
        for (JsonNode d : root.path("decisions")) {
            assertThat(d.path("workers").asInt() * d.path("prefetch").asInt()).as("%s", d).isLessThanOrEqualTo(2);
        }
        if (root.path("numWorkers").asInt() == 2 && root.path("steadyWaitShare").asDouble() >= 0.05
                && !root.path("whyNotMore").asText().contains("busy with other processes")) {
            assertThat(root.path("whyNotMore").asText()).endsWith("3 workers with prefetch 1 would hold more batches"
                    + " than the memory budget (64.0 MiB) allows");
        }
    }

    @Test
    void fromZeroWorkersTheLoopsThreadMakesTheFirstBatchesAndTheTunerAddsAWorker() throws Exception {
        Run r = run(2, "--from", "0");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("autotuning nw=2 from 0 workers and prefetch 1 (2 lanes, budget 1.00 GiB)")
                .contains("  from batch 0: 0 workers (the consumer's thread), prefetch 1 (start)")
                .containsPattern("(?m)^  from batch [0-9]+: 1 worker, prefetch 1 \\(the consumer waited [0-9]+% of the"
                        + " time\\)$") // the first change, whatever the cores: a worker
                .containsPattern("(?m)^(settled|ended) on [12] workers?");
    }

    @Test
    void inTheIoModeTheTunerRaisesTheFetchesAtOnceAndSaysWhereItSettled() throws Exception {
        // the tiny W1's samples sleep 1 ms: with one fetch at once a batch takes 32 ms, with 32 about 1
        Run text = run(2, "--io", "64");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("in the I/O mode: from 1 to 64 samples fetched at once")
                .contains("  from batch 0: 1 worker, prefetch 1, 1 fetch at once (start)")
                .containsPattern("(?m)^  the I/O mode: [0-9]+ fetch(es)? at once \\(from 1; [0-9]+ raises? while the"
                        + " workers waited on I/O\\)$")
                .containsPattern("(?m)^use autotune\\(1\\.00GiB\\), or numWorkers\\([12]\\)\\.prefetchFactor\\([1-4]\\)"
                        + "\\.ioConcurrency\\([0-9]+\\)");
        Run r = run(2, "--io", "64", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        JsonNode decisions = root.path("decisions");
        assertThat(decisions.get(0).path("ioConcurrency").asInt()).isEqualTo(1);
        JsonNode last = decisions.get(decisions.size() - 1);
        assertThat(root.path("ioConcurrency").asInt()).isEqualTo(last.path("ioConcurrency").asInt())
                .isBetween(1, 64);
        // the consumer waits for every batch (no step): blocked workers got more fetches at once
        assertThat(decisions.findValuesAsText("reason")).contains("WAITS_ON_IO");
    }

    @Test
    void verifyTriesFixedCountsAndSetsTheBestBeside() {
        Run r = run(2, "--step-ms", "5", "--verify", "--trial-batches", "6");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("check: fixed worker counts of nw=2 (prefetch 2), 6 batches each")
                .containsPattern("(?m)^workers +batches/s +wait +busy +CPU +verdict$")
                .containsPattern("(?m)^ +0 +[0-9.]+ +[0-9.]+% +")
                .containsPattern("(?m)^best fixed: [0-2] workers?, [0-9.]+ batches/s; the search chose [0-2] \\(");
    }

    @Test
    void aBudgetOfNothingIsRefused() {
        Run r = run(2, "--budget", "0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Invalid value for option '--budget': '0' is not a size");
    }

    @Test
    void aRunShorterThanItsSettledPartIsRefused() {
        Run r = BenchCommandTest.run("tune", "--batches", "10", "--settle", "20");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("stoker tune: --batches must be from --settle (20) to 10000000, not 10");
    }

    @Test
    void theHelpSaysWhatItIsFor() {
        Run r = BenchCommandTest.run("tune", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out().replaceAll("\\s+", " ")).contains("how many workers keep a training step fed", "autotuner",
                "--step-ms", "--budget", "--verify", "why not one worker"); // the description wraps where picocli likes
    }
}
