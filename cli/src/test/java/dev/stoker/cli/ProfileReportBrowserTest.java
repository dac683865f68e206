package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stoker.cli.BenchCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stoker profile --report}'s page in a real headless Chromium: it loads with no console
 * message and no error, and every chart draws. Skipped where no Chromium is installed
 * ({@code .ci/run} installs Debian's).
 */
class ProfileReportBrowserTest {
    private static final Pattern CHART = Pattern.compile("data-chart=\"([^\"]*)\"[^>]*data-drawn=\"(true|false)\"");

    private static Chromium chromium() {
        Optional<Chromium> c = Chromium.find();
        assumeTrue(c.isPresent(), "no chromium on the PATH (apt-get install chromium): the report's browser test is skipped");
        return c.get();
    }

    @Test
    void theReportLoadsWithoutErrorsAndEveryChartDraws(@TempDir Path dir) throws Exception {
        Chromium chromium = chromium();
        Path page = dir.resolve("report.html");
        Run r = BenchCommandTest.run("profile", "--samples", "192", "--delay-ms", "0", "--config", "nw=2",
                "--step-ms", "1", "--sample-ms", "5", "--report=" + page);
        assertThat(r.exit()).as(r.err()).isZero();

        Chromium.Result loaded = chromium.dumpDom(page, dir);

        assertThat(loaded.exit()).as(loaded.log()).isZero();
        assertThat(consoleLines(loaded.log())).as("the page's console").isEmpty();
        assertThat(loaded.dom()).contains("data-errors=\"0\"");
        List<String> drawn = charts(loaded.dom(), "true");
        assertThat(charts(loaded.dom(), "false")).as("charts that never drew").isEmpty();
        assertThat(drawn).contains("consumer", "workers", "queue", "pool", "stages", "histogram consumer wait",
                "histogram collate");
        assertThat(loaded.dom()).contains("data-charts-expected=\"" + drawn.size() + "\"",
                "data-charts-drawn=\"" + drawn.size() + "\"");
        assertThat(loaded.dom()).contains("stoker profile: W1 synthetic-delay, nw=2", "Next step to try: ",
                "stoker-worker-0", "stoker-worker-1");
    }

    @Test
    void namesThatCloseTheScriptStayText(@TempDir Path dir) throws Exception {
        Chromium chromium = chromium();
        Path page = dir.resolve("report.html");
        Run r = BenchCommandTest.run("profile", "--samples", "64", "--delay-ms", "0", "--config", "nw=0",
                "--report=" + page);
        assertThat(r.exit()).as(r.err()).isZero();
        ObjectNode data = (ObjectNode) new ObjectMapper().readTree(ProfileReportTest.dataOf(Files.readString(page)));
        String evil = "</script><script>document.documentElement.setAttribute('data-pwned','1')</script><!--";
        data.put("workload", evil);
        data.put("summary", "a path /data/</SCRIPT >\u2028& more");
        Files.writeString(page, ReportPage.render(data));

        Chromium.Result loaded = chromium.dumpDom(page, dir);

        assertThat(loaded.dom()).doesNotContain("data-pwned=\"1\"").contains("data-errors=\"0\"");
        assertThat(consoleLines(loaded.log())).isEmpty();
        // the title shows the name as text (the DOM dump writes < and > back as entities)
        assertThat(loaded.dom()).contains("stoker profile: &lt;/script&gt;&lt;script&gt;document.documentElement");
        assertThat(charts(loaded.dom(), "false")).isEmpty();
    }

    private static List<String> charts(String dom, String drawn) {
        Matcher m = CHART.matcher(dom);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            if (m.group(2).equals(drawn)) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The lines where Chromium logs the page's console (its messages, uncaught errors). */
    private static List<String> consoleLines(String log) {
        return log.lines().filter(l -> l.contains(":CONSOLE")).toList();
    }
}
