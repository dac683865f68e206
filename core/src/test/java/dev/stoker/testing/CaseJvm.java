package dev.stoker.testing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a fuzz test's cases in a JVM of their own, with this JVM's flags and class path, so that
 * a case that crashes the JVM (native code reading a damaged file) or hangs fails the test with
 * the case it was on, instead of taking the test run down. The runner prints {@code start ...}
 * before each case; those lines name the case in the failure.
 *
 * <pre>{@code
 * List<String> lines = CaseJvm.run(dir, "jpeg", JpegFuzzRunner.class, List.of("-Xmx512m"),
 *         List.of("1000", "0", "turbo"), Duration.ofSeconds(140));
 * }</pre>
 */
public final class CaseJvm {
    private CaseJvm() {
    }

    /**
     * Runs {@code main} with {@code args} in a new JVM and returns its output lines.
     *
     * @param dir   where the output log and any crash report go
     * @param name  names the log, {@code NAME-cases.log}
     * @param flags JVM flags added after this JVM's own; a flag here replaces this JVM's flag of the
     *              same kind ({@code -Xmx...} replaces {@code -Xmx...})
     * @param guard how long the cases may take: a hang guard, not a speed limit
     * @throws AssertionError when the JVM died (with the last case started, the output's tail and
     *     the head of the crash report) or ran past the guard
     */
    public static List<String> run(Path dir, String name, Class<?> main, List<String> flags, List<String> args,
                                   Duration guard) throws IOException, InterruptedException {
        Path log = dir.resolve(name + "-cases.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-agentlib:jdwp") && !arg.startsWith("-XX:ErrorFile") && !replaced(arg, flags)) {
                command.add(arg);
            }
        }
        command.addAll(flags);
        command.add("-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = process.waitFor(guard.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        if (!finished || process.exitValue() != 0) {
            String last = lines.stream().filter(l -> l.startsWith("start ")).reduce((a, b) -> b)
                    .orElse("(no case started)");
            throw new AssertionError((finished ? "the case JVM died with exit code " + process.exitValue()
                    : "the case JVM hung") + " at case: " + last + "\n" + tail(lines, 40) + crashReport(dir));
        }
        return lines;
    }

    /** Whether {@code arg} is of a kind one of {@code flags} sets ({@code -Xmx}, {@code -Xss}, {@code -XX:Name=}). */
    private static boolean replaced(String arg, List<String> flags) {
        for (String f : flags) {
            String kind = f.startsWith("-XX:") && f.contains("=") ? f.substring(0, f.indexOf('=') + 1)
                    : f.startsWith("-X") && f.length() > 4 ? f.substring(0, 4) : f;
            if (arg.startsWith(kind)) {
                return true;
            }
        }
        return false;
    }

    // The head of the JVM's crash report, which says where in native code it died.
    private static String crashReport(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList()) {
                List<String> report = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
                return "\n" + String.join("\n", report.subList(0, Math.min(30, report.size())));
            }
        }
        return "";
    }

    private static String tail(List<String> lines, int n) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
