package dev.stoker.formats.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RemoteFile}: a name from data reaches a {@code pipe:} command as exactly itself, through
 * the environment, whatever it holds and however the template quotes {@code {}}: it never runs.
 */
class RemoteFileTest {
    private static final String M = "PWNED";
    private static final String[] PIECES = {
        "$(touch " + M + ")", "`touch " + M + "`", ";touch " + M, "|touch " + M, "&touch " + M, "'", "\"", "\\",
        "'\\''", "\"'\"", "${IFS}", "$STOKER_FILE", "${STOKER_FILE}", "{}", "*", "?", "~", "#", "!", " ", "  ",
        ">" + M, "<", "..x", "x..", "-", "--", "%", "%s", "%n", "\u00e9", "\u202e", "\ud83d\ude00", "a", "0",
        ".mds", "/", "\t", "\n", "\u0000",
    };
    /** {@code printf %s} of the name, with {@code {}} bare, single- or double-quoted, repeated, glued. */
    private static final String[] TEMPLATES = {
        "pipe:printf %s {}", "pipe:printf '%s' '{}'", "pipe:printf \"%s\" \"{}\"", "pipe:printf %s '<{}>'",
        "pipe:printf %s \"<{}>\"", "pipe:printf %s {}{}", "pipe:printf '%s|' {} '{}' \"{}\"",
        "pipe:printf %s x{}y", "pipe:printf %s \\'{}", "pipe:cd DIR && printf %s {}",
    };

    @TempDir
    Path dir;

    @Test
    void aNameReachesTheCommandAsExactlyItselfAndNeverRuns() throws IOException {
        boolean utf8 = "UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding"));
        Random rnd = new Random(16);
        for (int n = 0; n < 300; n++) {
            String name = name(rnd, utf8);
            String template = TEMPLATES[rnd.nextInt(TEMPLATES.length)].replace("DIR", dir.toString());
            String what = "case " + n + ": " + DataFileNames.quoted(name) + " in " + template;
            Throwable refused = catchThrowable(() -> RemoteFile.of(template, name));
            if (refused != null) {
                assertThat(refused).as(what).isInstanceOf(IllegalArgumentException.class);
                assertThat(breaksRelativePath(name)).as(what + ": refused, yet a relative path").isTrue();
                continue;
            }
            assertThat(breaksRelativePath(name)).as(what + ": accepted, yet not a relative path").isFalse();
            RemoteFile file = RemoteFile.of(template, name);
            assertThat(file).isInstanceOf(RemoteFile.Command.class);
            assertThat(file.location()).as(what).isEqualTo(template.replace("{}", name));
            assertThat(output(file)).as(what).isEqualTo(expected(template, name));
            assertThat(Files.exists(dir.resolve(M)) || Files.exists(Path.of(M))).as(what + ": ran").isFalse();
        }
    }

    @Test
    void withoutBracesTheNameFollowsTheBaseAfterASlash() throws IOException {
        Path base = Files.createDirectories(dir.resolve("base"));
        Files.writeString(base.resolve("f.txt"), "hello");
        RemoteFile file = RemoteFile.of("pipe:cat " + base, "f.txt");
        assertThat(file.location()).isEqualTo("pipe:cat " + base + "/f.txt");
        assertThat(output(file)).isEqualTo("hello");
        assertThat(output(RemoteFile.of("pipe:cat '" + base + "/'", "f.txt"))).isEqualTo("hello");
    }

    @Test
    void urlsGetTheNamePercentEncoded() {
        Random rnd = new Random(17);
        for (int n = 0; n < 300; n++) {
            String name = name(rnd, true);
            if (breaksRelativePath(name)) {
                assertThatThrownBy(() -> RemoteFile.of("https://host/base/{}", name))
                        .isInstanceOf(IllegalArgumentException.class);
                continue;
            }
            for (String template : new String[] {"https://host/base/{}", "https://host/base", "http://host/base/"}) {
                RemoteFile file = RemoteFile.of(template, name);
                assertThat(file).isInstanceOf(RemoteFile.Url.class);
                URI uri = URI.create(file.location());
                assertThat(uri.getPath()).as(DataFileNames.quoted(name)).isEqualTo("/base/" + name);
                assertThat(uri.getRawQuery()).isNull();
                assertThat(uri.getRawFragment()).isNull();
                assertThat(uri.getHost()).isEqualTo("host");
            }
        }
    }

    @Test
    void aLocationThatIsNeitherAUrlNorACommandIsNeverRun() {
        Path marker = dir.resolve(M);
        // Before, the first five characters were cut off as if they were "pipe:" and the rest run.
        String local = "/nope;touch " + marker;
        ShardCache cache = ShardCache.in(dir.resolve("cache"));
        assertThatThrownBy(() -> cache.fetchFile(local))
                .isInstanceOf(RemoteFileException.class).hasMessageContaining("neither an http(s):// URL nor a pipe:");
        assertThatThrownBy(() -> RemoteFile.of(local + "/{}", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("neither");
        assertThatThrownBy(() -> RemoteFile.at(local))
                .isInstanceOf(RemoteFileException.class);
        assertThat(marker).doesNotExist();
    }

    private static String output(RemoteFile file) throws IOException {
        RemoteBytes bytes = file.open(RemoteSettings.defaults().withReadAhead(1 << 16)
                .withStallTimeout(Duration.ofSeconds(30)));
        try (InputStream in = bytes.in()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** What {@code printf} writes for the template when {@code {}} is the name, read as the shell reads it. */
    private static String expected(String template, String name) {
        String command = template.substring("pipe:".length());
        return switch (command.substring(command.indexOf("printf"))) {
            case "printf %s {}", "printf '%s' '{}'", "printf \"%s\" \"{}\"" -> name;
            case "printf %s '<{}>'", "printf %s \"<{}>\"" -> "<" + name + ">";
            case "printf %s {}{}" -> name + name;
            case "printf '%s|' {} '{}' \"{}\"" -> name + "|" + name + "|" + name + "|";
            case "printf %s x{}y" -> "x" + name + "y";
            case "printf %s \\'{}" -> "'" + name;
            default -> throw new AssertionError(template);
        };
    }

    /** Whether {@link RemoteFile#of} must refuse {@code name}: absolute, a part empty, '.' or '..', a control char. */
    private static boolean breaksRelativePath(String name) {
        if (name.isEmpty() || name.startsWith("/") || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return true;
        }
        for (String part : name.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                return true;
            }
        }
        return false;
    }

    /** One to four pieces; non-ASCII only where the JVM hands the environment to commands as UTF-8. */
    private static String name(Random rnd, boolean utf8) {
        StringBuilder b = new StringBuilder();
        for (int k = 1 + rnd.nextInt(4); k > 0; k--) {
            String p = PIECES[rnd.nextInt(PIECES.length)];
            if (utf8 || p.chars().allMatch(c -> c < 0x80)) {
                b.append(p);
            }
        }
        return b.isEmpty() ? "a" : b.toString();
    }
}
