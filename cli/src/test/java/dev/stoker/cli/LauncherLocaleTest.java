package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The launcher runs the JVM in a UTF-8 locale where the system has one, so that file names with
 * non-ASCII letters work in a bare container ({@code LANG=C}); a UTF-8 locale already in force is
 * kept. Shell-level: runs scripts/utf8-locale.sh as ./stoker sources it.
 */
class LauncherLocaleTest {

    private static Path root() {
        return RepositoryRoot.holding("scripts/utf8-locale.sh");
    }

    /** LC_ALL after use_utf8_locale, in a shell whose locale variables are only {@code locale}. */
    private static String lcAllAfter(Map<String, String> locale) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", ". scripts/utf8-locale.sh; use_utf8_locale;"
                + " printf '%s' \"${LC_ALL-}\"").directory(root().toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD); // bash's setlocale warnings
        pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG") || k.equals("LANGUAGE"));
        pb.environment().putAll(locale);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private static boolean hasUtf8Locale() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "locale -a 2>/dev/null").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return List.of(out.split("\n")).stream().anyMatch(l -> l.equalsIgnoreCase("C.UTF-8") || l.equals("C.utf8"));
    }

    @Test
    void underLangCTheLauncherExportsAUtf8Locale() throws Exception {
        assumeTrue(hasUtf8Locale(), "no C.UTF-8 locale on this system");
        assertThat(lcAllAfter(Map.of("LANG", "C"))).isIn("C.UTF-8", "C.utf8");
        assertThat(lcAllAfter(Map.of("LC_ALL", "POSIX"))).isIn("C.UTF-8", "C.utf8");
        assertThat(lcAllAfter(Map.of())).isIn("C.UTF-8", "C.utf8");
    }

    @Test
    void aUtf8LocaleInForceIsKeptWhereTheSystemHasIt() throws Exception {
        assumeTrue(hasUtf8Locale(), "no C.UTF-8 locale on this system");
        assertThat(lcAllAfter(Map.of("LANG", "C.UTF-8"))).isEmpty();
        assertThat(lcAllAfter(Map.of("LC_ALL", "C.utf8"))).isEqualTo("C.utf8");
        // a UTF-8 name the system lacks falls back to C (ASCII) in the JVM: replaced too
        assertThat(lcAllAfter(Map.of("LANG", "xx_NOWHERE.UTF-8"))).isIn("C.UTF-8", "C.utf8");
    }

    @Test
    void theLauncherSetsTheLocaleBeforeItStartsAJvm() throws IOException {
        String launcher = Files.readString(root().resolve("stoker"));
        int set = launcher.indexOf("\nuse_utf8_locale\n");
        assertThat(set).as("./stoker calls use_utf8_locale").isPositive();
        assertThat(set).as("before the test command's JVM").isLessThan(launcher.indexOf("mvnw -B -ntp verify"));
        assertThat(set).as("before the tool's JVM").isLessThan(launcher.indexOf("exec \"$JAVA_HOME/bin/java\""));
    }
}
