package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code stoker bench} run in-process through picocli, on a W1 small and fast enough for a unit test. */
class BenchCommandTest {
    /** W1 shrunk: 64 samples (2 batches), no delay. */
    private static final String[] TINY = {"bench", "--samples", "64", "--delay-ms", "0", "--warmup", "0"};

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new Main());
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Runs {@code first} followed by {@code more}. */
    static Run run(String[] first, String... more) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(more));
        return run(all.toArray(String[]::new));
    }

    static String[] tiny(String... more) {
        List<String> all = new ArrayList<>(List.of(TINY));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static List<Configuration> w1Configurations() {
        return new W1Synthetic().configurations();
    }

    @Test
    void quickRunPrintsTheTableWithOneRowPerConfiguration() {
        Run r = run(tiny("--quick"));

        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("configuration")).findFirst().orElseThrow());
        assertThat(lines.get(header)).contains("samples/s", "batches/s", "MB/s", "first batch ms", "peak RSS MiB",
                "pool peak MiB");
        List<String> rows = lines.subList(header + 1, lines.size()).stream().takeWhile(l -> !l.isBlank()).toList();
        assertThat(rows).hasSize(w1Configurations().size());
        assertThat(lines.getLast()).startsWith("cold start: "); // after a blank line, below the table
        for (int i = 0; i < rows.size(); i++) {
            // the name, then nine columns of figures
            assertThat(rows.get(i)).startsWith(w1Configurations().get(i).name() + " ");
        }
        assertThat(r.out()).contains("W1 synthetic-delay", "machine: ");
    }

    @Test
    void theWarmUpLastsTheSecondsAsked() {
        Run r = run("bench", "--samples", "64", "--delay-ms", "0", "--reps", "1", "--config", "nw=0", "--warmup", "0.3");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("after a warm-up of one repetition and more until 0.3 s have passed");
        Run bad = run("bench", "--warmup", "-1");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--warmup is a number of seconds");
    }

    @Test
    void warmUpAndSeveralRepetitionsAreSummedUp() {
        Run r = run(tiny("--reps", "2", "--epochs", "2", "--config", "nw=0", "--json"));

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode line = parse(r.out().lines().toList().getFirst());
        assertThat(line.get("reps").asInt()).isEqualTo(2);
        assertThat(line.get("epochs").asInt()).isEqualTo(2);
        assertThat(line.get("samples").asLong()).isEqualTo(128); // every sample of both epochs reached the consumer
        assertThat(line.get("batches").asLong()).isEqualTo(4);
        assertThat(line.get("times_s")).hasSize(2);
    }

    @Test
    void jsonPrintsOneParsableLinePerConfigurationAndNothingElse() {
        Run r = run(tiny("--quick", "--json"));

        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(w1Configurations().size());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode o = parse(lines.get(i));
            assertThat(o.get("workload").asText()).isEqualTo("W1");
            assertThat(o.get("configuration").asText()).isEqualTo(w1Configurations().get(i).name());
            assertThat(o.get("config").asText()).isEqualTo(w1Configurations().get(i).peerName());
            for (String field : List.of("samples_per_s", "samples_per_s_min", "samples_per_s_max", "mb_per_s",
                    "first_batch_ms", "peak_rss_bytes", "pool_peak_bytes")) {
                assertThat(o.has(field)).as(field).isTrue();
                assertThat(o.get(field).isNumber()).as(field).isTrue();
            }
            double sps = o.get("samples_per_s").asDouble();
            assertThat(sps).isPositive();
            assertThat(o.get("samples_per_s_min").asDouble()).isLessThanOrEqualTo(sps);
            assertThat(o.get("samples_per_s_max").asDouble()).isGreaterThanOrEqualTo(sps);
            assertThat(o.get("mb_per_s").asDouble()).isCloseTo(sps * 602_112 / 1e6, withinPercentage(0.01));
            assertThat(o.get("pool_peak_bytes").asLong()).isPositive();
        }
    }

    @Test
    void theRunsFirstLoaderGivesTheColdStartOnItsConfigurationsLineAlone() {
        Run r = run(tiny("--quick", "--json", "--config", "nw=0"));
        Run all = run(tiny("--quick", "--json"));

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode o = parse(r.out().lines().toList().getFirst());
        for (String field : List.of("cold_dataset_ms", "cold_build_to_first_batch_ms", "cold_jvm_to_first_batch_ms")) {
            assertThat(o.get(field).isNumber()).as(field).isTrue();
        }
        // the JVM started before the loader was built, and both before its first batch
        assertThat(o.get("cold_build_to_first_batch_ms").asDouble()).isPositive()
                .isLessThanOrEqualTo(o.get("cold_jvm_to_first_batch_ms").asDouble());
        List<JsonNode> lines = all.out().lines().map(BenchCommandTest::parse).toList();
        assertThat(lines.getFirst().has("cold_build_to_first_batch_ms")).isTrue();
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l.has("cold_build_to_first_batch_ms"))
                .as(l.get("configuration").asText()).isFalse());
    }

    /** W3's folder is scanned and its decoders made before the first loader is built, and timed apart from it. */
    @Test
    void theDatasetIsBuiltBeforeTheFirstLoaderAndTimedOnItsOwn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path data)
            throws Exception {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(1);
        for (int i = 0; i < 20; i++) {
            java.nio.file.Path dir = java.nio.file.Files.createDirectories(data.resolve("jpeg").resolve("class_0" + (i / 10)));
            javax.imageio.ImageIO.write(W3JpegFolder.picture(rnd, i / 10), "jpeg",
                    dir.resolve(String.format("%06d.jpg", i)).toFile());
        }
        Run r = run("bench", "-w", "W3", "--data", data.toString(), "--samples", "16", "--quick", "--json",
                "--config", "nw=0 fill");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode o = parse(r.out().lines().toList().getFirst());
        double dataset = o.get("cold_dataset_ms").asDouble();
        double build = o.get("cold_build_to_first_batch_ms").asDouble();
        assertThat(dataset).isPositive();
        assertThat(build).isPositive();
        // two intervals one after the other, both after the JVM's start and before the first batch
        assertThat(dataset + build).isLessThanOrEqualTo(o.get("cold_jvm_to_first_batch_ms").asDouble());
    }

    @Test
    void theTableSaysWhenTheFirstBatchCame() {
        Run quick = run(tiny("--quick", "--config", "nw=0"));
        Run warmedUp = run(tiny("--reps", "1", "--config", "nw=0")); // TINY warms up for 0 s: one repetition

        assertThat(quick.exit()).as(quick.err()).isZero();
        assertThat(quick.out()).containsPattern("cold start: the first batch came \\d+ ms after its loader was built \\(the"
                + " dataset before it: \\d+ ms\\), \\d+ ms after the JVM started")
                .doesNotContain("warm one"); // --quick times the cold loader itself
        assertThat(warmedUp.exit()).as(warmedUp.err()).isZero();
        assertThat(warmedUp.out()).contains("the table's first batch is a warm one");
    }

    @Test
    void oneConfigurationByName() {
        Run r = run(tiny("--quick", "--json", "--config", "nw=0,batched"));

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines()).singleElement()
                .satisfies(l -> assertThat(parse(l).get("configuration").asText()).isEqualTo("nw=0 batched"));
    }

    @Test
    void anUnknownConfigurationNamesTheKnownOnes() {
        Run r = run(tiny("--quick", "--config", "nw=3"));

        assertThat(r.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(r.err()).contains("nw=3", "'nw=0'", "'nw=0 batched'", "'nw=8 persistent batched'");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void anUnknownWorkloadFailsAndListsTheKnownOnes() {
        Run r = run("bench", "--workload", "W42");

        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("W42", "W1", "synthetic-delay", "W2", "W7", "W8", "lmdb");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void w8WithoutItsDataSaysHowToMakeIt() {
        Run r = run("bench", "--workload", "w8", "--quick", "--data", "/nonexistent-stoker-data");

        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("W8", "gen_data.py");
    }

    /** A folder named with --data that lacks the workload's files is refused, not replaced by the cache's stand-in. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"W2, tokens.bin", "W3, jpeg/", "W5, shards/", "W7, data.h5",
            "W2-MDS, mds-tokens/", "W3-MDS, mds-jpeg/"})
    void aDataFolderWithoutTheWorkloadsFilesIsNamedAndRefused(String workload, String file,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("README"), "not the benchmark data");
        for (String command : new String[] {"bench", "profile", "tune"}) {
            Run r = run(command, "--workload", workload, "--data", dir.toString());

            assertThat(r.exit()).as(command).isNotZero();
            assertThat(r.err()).as(command).contains(workload + " reads ", file, dir + " has none", "gen_data.py",
                    "leave out --data");
            assertThat(r.out()).as(command).isEmpty();
        }
        try (var files = java.nio.file.Files.list(dir)) {
            assertThat(files).hasSize(1); // nothing written into it
        }
    }

    @Test
    void listShowsWorkloadsAndConfigurations() {
        Run r = run("bench", "--list");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("W1 synthetic-delay", "W2", "nw=0 batched", "nw=8 persistent batched");
    }

    @Test
    void helpIsWrittenForAPerson() {
        Run r = run("bench", "--help");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: stoker bench", "W1", "Examples:", "--quick", "--json", "--workload")
                .doesNotContain("--samples", "--delay-ms"); // the test-only options stay hidden
    }

    private static JsonNode parse(String line) {
        try {
            return new ObjectMapper().readTree(line);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }
}
