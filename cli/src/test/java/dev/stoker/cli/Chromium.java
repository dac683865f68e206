package dev.stoker.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real headless Chromium for the report's tests: Debian's {@code chromium} (what {@code .ci/run}
 * installs), or whatever {@code STOKER_CHROMIUM} names. Tests that need it are skipped without it.
 */
final class Chromium {
    /** What one headless run printed: the DOM after the page's scripts ran, and the browser's log. */
    record Result(int exit, String dom, String log) {}

    private final Path binary;

    private Chromium(Path binary) {
        this.binary = binary;
    }

    /** The browser on this machine, if there is one. */
    static Optional<Chromium> find() {
        String named = System.getenv("STOKER_CHROMIUM");
        if (named != null && !named.isBlank()) {
            return Optional.of(new Chromium(Path.of(named)));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(new Chromium(p));
                }
            }
        }
        return Optional.empty();
    }

    /** Loads {@code page} headless and returns the DOM its scripts left, with the console in the log. */
    Result dumpDom(Path page, Path scratch) throws IOException, InterruptedException {
        return run(scratch, "--enable-logging=stderr", "--v=0", "--dump-dom", page.toUri().toString());
    }

    /** Loads {@code page} headless in a {@code width} x {@code height} window and writes a PNG of it. */
    Result screenshot(Path page, Path png, int width, int height, Path scratch) throws IOException, InterruptedException {
        return run(scratch, "--hide-scrollbars", "--window-size=" + width + "," + height,
                "--screenshot=" + png.toAbsolutePath(), page.toUri().toString());
    }

    private Result run(Path scratch, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--disable-gpu",
                "--no-sandbox", // CI runs as root, where Chromium's sandbox refuses to start
                "--disable-dev-shm-usage", // containers' /dev/shm is often too small for it
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + scratch.resolve("profile"),
                // the page has no timers: virtual time only makes sure everything it queued has run
                "--virtual-time-budget=2000"));
        command.addAll(List.of(args));
        Path out = scratch.resolve("stdout");
        Path err = scratch.resolve("stderr");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not finish within 90 s: " + command);
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
