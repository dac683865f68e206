package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stoker.cli.BenchCommandTest.Run;
import dev.stoker.loader.Verdict;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.Trace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stoker profile --report}: the page's data and its escaping, without a browser. */
class ProfileReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DATA_OPEN = "<script id=\"stoker-data\" type=\"application/json\">";

    /** The JSON inside a report page. */
    static String dataOf(String html) {
        int from = html.indexOf(DATA_OPEN) + DATA_OPEN.length();
        return html.substring(from, html.indexOf("</script>", from));
    }

    @Test
    void aReportHoldsEveryBatchTheWorkersAndTheReadingsOverTime(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("r.html");
        Run r = BenchCommandTest.run("profile", "--samples", "192", "--delay-ms", "0", "--config", "nw=2",
                "--epochs", "2", "--step-ms", "1", "--sample-ms", "2", "--report=" + page);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("report: " + page);
        String html = Files.readString(page);
        assertThat(html).doesNotContain("/*STOKER:").doesNotContainIgnoringCase("src=\"http").contains("uPlot");

        JsonNode d = JSON.readTree(dataOf(html));
        assertThat(d.path("batches").asLong()).isEqualTo(12); // 192 samples / 32, twice
        assertThat(d.path("consumer").path("waitMillis")).hasSize(12);
        assertThat(d.path("consumer").path("stepMillis")).hasSize(12);
        assertThat(d.path("perBatch").path("batch")).hasSize(12);
        assertThat(d.path("perBatch").path("parts").path("collate")).hasSize(12);
        assertThat(d.path("workers").path("names").toString()).contains("stoker-worker-0", "stoker-worker-1");
        assertThat(d.path("workers").path("busy").get(0)).hasSize(ProfileReport.BUSY_BUCKETS);
        long inHistogram = 0;
        for (JsonNode n : d.path("histograms").path("consumer wait").path("count")) {
            inHistogram += n.asLong();
        }
        assertThat(inHistogram).isEqualTo(10); // the first batch of each pass is start-up, not a wait
        assertThat(d.path("consumer").path("waitMillis").get(0).isNull()).isTrue();
        assertThat(d.path("consumer").path("waitMillis").get(6).isNull()).isTrue();
        assertThat(d.path("consumer").path("stepMillis").get(11).isNull()).isTrue(); // the loop never asked again
        assertThat(d.path("firstBatchMillis").asDouble()).isPositive();
        assertThat(d.path("overTime").path("seconds").size()).isGreaterThanOrEqualTo(2); // the first and last
        assertThat(d.path("memory").path("boundBytes").asLong()).isEqualTo(4L * 32 * (3 * 224 * 224 * 4 + 8));
        assertThat(d.path("verdict").path("nextStep").asText()).isNotBlank();
        assertThat(d.path("counters").path("samples").asLong()).isEqualTo(2 * 192);
        assertThat(d.path("memory").path("poolAllocations").asLong()).isPositive();
    }

    @Test
    void aBatchsPartsStackUpToItsFetchAndCollate() {
        StageClock clock = new StageClock();
        Trace trace = clock.startTrace(100);
        long t = System.nanoTime();
        // batch 0, general path: memory wait inside collate
        clock.record(Stage.READ, t, t + 2_000_000, 0, 0);
        clock.record(Stage.DECODE, t, t + 3_000_000, 0, 0);
        clock.record(Stage.FETCH, t, t + 10_000_000, 0, 0);
        clock.record(Stage.MEMORY, t, t + 1_000_000, 0, 0);
        clock.record(Stage.COLLATE, t, t + 4_000_000, 0, 0);
        clock.record(Stage.COPY, t, t + 2_500_000, 0, 0); // a device prefetcher on the loader's clock
        // batch 1, fill path: memory wait inside fetch, no collate
        clock.record(Stage.MEMORY, t, t + 1_500_000, 0, 1);
        clock.record(Stage.FETCH, t, t + 6_000_000, 0, 1);
        clock.stopTrace();

        double[][] parts = ProfileReport.Spans.of(trace).parts();

        // read decode transform memory rest collate copy
        assertThat(column(parts, 0)).containsExactly(2, 3, 0, 1, 5, 3, 2.5);
        assertThat(column(parts, 1)).containsExactly(0, 0, 0, 1.5, 4.5, 0, 0);
    }

    private static double[] column(double[][] parts, int batch) {
        double[] out = new double[parts.length];
        for (int p = 0; p < parts.length; p++) {
            out[p] = parts[p][batch];
        }
        return out;
    }

    @Test
    void aHistogramCountsEveryValueOnce() {
        Random random = new Random(22);
        for (int round = 0; round < 200; round++) {
            double[] values = new double[random.nextInt(50)];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 100;
            }
            ObjectNode h = JSON.createObjectNode();
            ProfileReport.histogram(h, values);
            long sum = 0;
            for (JsonNode n : h.path("count")) {
                sum += n.asLong();
            }
            assertThat(sum).isEqualTo(values.length);
            assertThat(h.path("fromMillis")).hasSize(ProfileReport.HISTOGRAM_BINS);
        }
    }

    @Test
    void scriptSafeJsonHasNoMarkupAndParsesToTheSameText() throws Exception {
        Random random = new Random(7);
        String alphabet = "<>&/!-\"'\\sScript \u2028\u2029\u00e9\u4e2d\n\t";
        for (int round = 0; round < 500; round++) {
            StringBuilder b = new StringBuilder();
            for (int i = random.nextInt(40); i > 0; i--) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String name = b.toString() + (round % 3 == 0 ? "</script><!--" : "");
            ObjectNode node = JSON.createObjectNode().put("name", name);

            String safe = ReportPage.scriptSafe(node.toString());

            assertThat(safe).doesNotContain("<", ">", "&", "\u2028", "\u2029");
            assertThat(JSON.readTree(safe).path("name").asText()).isEqualTo(name);
        }
    }

    @Test
    void theVerdictSplitsIntoWhatHappenedAndWhatToTry() {
        String[] s = ProfileReport.splitVerdict(Verdict.Kind.DATA_BOUND,
                "the loop waited for data 40% of its time (3.0 ms a batch). The worker is busy 95%. More workers would help.");
        assertThat(s[0]).isEqualTo("the loop waited for data 40% of its time (3.0 ms a batch).");
        assertThat(s[1]).isEqualTo("The worker is busy 95%. More workers would help.");
        assertThat(ProfileReport.splitVerdict(Verdict.Kind.COMPUTE_BOUND, "the loop waited 1.0% of its time; batches are ready when it asks.")[1])
                .contains("keeps up");
    }

    @Test
    void aReportAloneNeedsNoTraceFileAndTheJsonSaysNothingOfATrace(@TempDir Path dir) throws Exception {
        Run r = BenchCommandTest.run("profile", "--samples", "64", "--delay-ms", "0", "--config", "nw=0",
                "--json", "--report=" + dir.resolve("r.html"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(JSON.readTree(r.out()).has("traceEvents")).isFalse();
        assertThat(dir.resolve("r.html")).exists();
        try (var files = Files.list(dir)) {
            assertThat(files.count()).isEqualTo(1);
        }
    }
}
