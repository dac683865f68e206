package dev.stoker.formats.folder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder with non-ASCII names, scanned by a JVM started under {@code LANG=C} (a bare container):
 * the JVM decodes file names as ASCII there, and the scan must say to run with a UTF-8 locale,
 * not throw {@link InvalidPathException} nor read wrong class names. Under {@code LC_ALL=C.UTF-8}
 * (what ./stoker sets) the same folder reads as Python reads it.
 */
class AsciiLocaleTest {
    @TempDir
    Path dir;

    private Path folder() throws IOException {
        Path root;
        try {
            root = dir.resolve("images");
            Files.createDirectories(root.resolve("caf\u00e9"));
            Files.createDirectories(root.resolve("plain"));
        } catch (InvalidPathException e) {
            throw new AssertionError("the test JVM itself runs under an ASCII locale; run it under UTF-8", e);
        }
        Files.write(root.resolve("caf\u00e9").resolve("cr\u00e8me.jpg"), new byte[] {1});
        Files.write(root.resolve("plain").resolve("a.jpg"), new byte[] {2});
        return root;
    }

    private List<String> probe(Path root, Map<String, String> locale) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(AsciiLocaleProbe.class.getName());
        command.add(root.toString());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG") || k.equals("LANGUAGE"));
        env.putAll(locale);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return List.of(new String(out, StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    void underLangCTheScanSaysToRunWithAUtf8Locale() throws Exception {
        List<String> lines = probe(folder(), Map.of("LANG", "C", "LC_ALL", "C"));
        assumeTrue(lines.get(0).equals("encoding ANSI_X3.4-1968") || lines.get(0).equals("encoding US-ASCII"),
                "this platform's JVM does not decode names as ASCII under LANG=C: " + lines);
        String result = lines.get(1);
        assertThat(result).doesNotContain("InvalidPathException");
        assertThat(result).startsWith("error java.io.IOException: cannot read the file names in ")
                .contains("images")
                .contains("Run it with a UTF-8 locale, e.g. LC_ALL=C.UTF-8");
    }

    @Test
    void underAUtf8LocaleTheSameFolderReads() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/usr/lib/locale/C.utf8")) || Files.isDirectory(Path.of("/usr/lib/locale/C.UTF-8")),
                "no C.UTF-8 locale on this system");
        List<String> lines = probe(folder(), Map.of("LANG", "C", "LC_ALL", "C.UTF-8"));
        assertThat(lines.get(0)).isEqualTo("encoding UTF-8");
        assertThat(lines.get(1)).isEqualTo("classes [caf\u00e9, plain]");
    }
}
