package dev.stoker.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The HTML page of {@code stoker profile --report}: one file that opens with no network, its
 * charting library (uPlot, vendored from npm under {@code resources/dev/stoker/cli/report}, MIT;
 * see NOTICE), its script and its data inlined.
 *
 * <p>The data goes in as JSON inside {@code <script type="application/json">}, read with
 * {@code JSON.parse}: never as code. Names in it come from the user (dataset paths, configuration
 * names) and could hold {@code </script>}; {@link #scriptSafe} writes every {@code <}, {@code >}
 * and {@code &} as a JSON escape, so no text in the data can end the element or open another.
 */
final class ReportPage {
    /** The vendored charting library, as the page names it. */
    static final String CHART_LIBRARY = "uPlot 1.6.32";

    private static final String FOLDER = "report/";

    private ReportPage() {
    }

    /** The whole page for {@code data} ({@link ProfileReport#build}). */
    static String render(JsonNode data) {
        String page = resource("profile-report.html");
        // Literal replacements, the data last: nothing inserted before it is searched again for it.
        page = page.replace("/*STOKER:UPLOT_CSS*/", resource("uPlot.min.css"))
                .replace("/*STOKER:UPLOT_JS*/", inlineScript(resource("uPlot.iife.min.js")))
                .replace("/*STOKER:PAGE_JS*/", inlineScript(resource("report.js")));
        return page.replace("/*STOKER:DATA*/", scriptSafe(data.toString()));
    }

    /**
     * JSON text that can stand inside a {@code <script>} element: {@code <}, {@code >}, {@code &}
     * and the two line separators JavaScript once took for line ends, written as {@code \\uXXXX}.
     * Outside strings JSON has none of these characters, so only strings change, and they parse
     * to the same text.
     */
    static String scriptSafe(String json) {
        StringBuilder b = new StringBuilder(json.length() + 16);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> b.append("\\u003c");
                case '>' -> b.append("\\u003e");
                case '&' -> b.append("\\u0026");
                case '\u2028' -> b.append("\\u2028");
                case '\u2029' -> b.append("\\u2029");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A script of ours or the library's, checked to hold nothing that would end its element early. */
    private static String inlineScript(String code) {
        String lower = code.toLowerCase(Locale.ROOT);
        if (lower.contains("</script") || lower.contains("<!--")) {
            throw new IllegalStateException("a script bundled with stoker holds </script or <!-- and cannot be inlined");
        }
        return code;
    }

    private static String resource(String name) {
        try (InputStream in = ReportPage.class.getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("the report's " + name + " is missing from stoker's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the report's " + name + " from stoker's jar", e);
        }
    }
}
