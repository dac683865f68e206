package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of seeded corruptions of valid environments (three written by Python's lmdb, one by
 * lmdbjava in W8's layout): each must read cleanly (wrong value bytes are fine where only value
 * bytes were hit) or fail with an {@link LmdbException} naming the environment; nothing else, no
 * crash, no hang. The cases run in a JVM of their own ({@link LmdbFuzzRunner}), so a crash shows
 * up as this test failing at the case that crashed, not as a dead test run.
 *
 * <p>{@code -Dstoker.lmdb.fuzzCases=N} sets the cases per base (2000);
 * {@code -Dstoker.lmdb.fuzzTrusted=true} opens without the structural check, to see what it
 * prevents: the case JVM then dies in liblmdb within the first few cases.
 */
class LmdbCorruptionFuzzTest {
    private static final int CASES_PER_BASE = Integer.getInteger("stoker.lmdb.fuzzCases", 2000); // 4 bases
    private static final long HANG_GUARD_SECONDS = 300;

    @TempDir
    Path dir;

    @Test
    void corruptedEnvironmentsReadCleanlyOrFailWithLmdbException() throws Exception {
        List<String> lines = runCases(CASES_PER_BASE);
        List<String> bad = lines.stream().filter(l -> l.startsWith("BAD ")).toList();
        assertThat(bad).as("cases that neither read cleanly nor failed with an LmdbException naming the path")
                .isEmpty();
        List<String> summaries = lines.stream().filter(l -> l.startsWith("summary ")).toList();
        assertThat(summaries).hasSize(4).allSatisfy(s -> assertThat(s).contains("cases=" + CASES_PER_BASE));
        long done = lines.stream().filter(l -> l.startsWith("done ")).count();
        assertThat(done).isEqualTo(4L * CASES_PER_BASE);
        // Both outcomes occur: the damage is neither always harmless nor always caught at open.
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" clean"));
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" refused-open"));
        summaries.forEach(System.out::println);
    }

    private List<String> runCases(int cases) throws IOException, InterruptedException {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path log = dir.resolve("cases.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-agentlib:jdwp") && !arg.startsWith("-XX:ErrorFile")) {
                command.add(arg);
            }
        }
        command.add("-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LmdbFuzzRunner.class.getName());
        command.add(work.toString());
        command.add(Path.of("src/test/resources/lmdb").toAbsolutePath().toString());
        command.add(Integer.toString(cases));
        if (Boolean.getBoolean("stoker.lmdb.fuzzTrusted")) {
            command.add("trusted"); // without the check: shows what it prevents (this test then fails)
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS); // a hang guard, not a speed limit
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        if (!finished || process.exitValue() != 0) {
            String last = lines.stream().filter(l -> l.startsWith("start ")).reduce((a, b) -> b).orElse("(no case started)");
            fail((finished ? "the case JVM died with exit code " + process.exitValue() : "the case JVM hung")
                    + " at case: " + last + "\n" + tail(lines, 40) + crashReport());
        }
        return lines;
    }

    // The head of the JVM's crash report, which says where in liblmdb it died.
    private String crashReport() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList()) {
                List<String> report = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
                return "\n" + String.join("\n", report.subList(0, Math.min(20, report.size())));
            }
        }
        return "";
    }

    private static String tail(List<String> lines, int n) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
