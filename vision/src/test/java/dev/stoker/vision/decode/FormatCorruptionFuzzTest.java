package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CaseJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruptions of the WebP and PNM fixtures ({@link FormatFuzzRunner}: flipped bits,
 * overwritten, removed and repeated runs, truncation, junk appended, header numbers up to ten
 * digits, RIFF and chunk sizes and frame widths rewritten), each decoded by libwebp (when
 * installed), the pure-Java decoders, strict and lenient: each decodes to a sane size or is
 * refused with an {@link ImageDecodeException} naming the source. Never another exception, a
 * crash, a hang, or an allocation past what the pixel limit allows. In a JVM of its own with a
 * small heap, as {@link JpegCorruptionFuzzTest}.
 *
 * <p>{@code -Dstoker.formats.fuzzCases=N} (1000) and {@code -Dstoker.formats.fuzzSeed=S} (0) as
 * for the JPEG fuzz; {@code FormatFuzzRunner.damage(S)} rebuilds a case's bytes.
 */
class FormatCorruptionFuzzTest {
    private static final int CASES = Integer.getInteger("stoker.formats.fuzzCases", 1000);
    private static final long FIRST_SEED = Long.getLong("stoker.formats.fuzzSeed", 0);
    /** A hang guard, not a speed limit. */
    private static final long HANG_GUARD_SECONDS = 120 + CASES / 50;

    @TempDir
    Path dir;

    @Test
    void everyDamagedFileDecodesOrIsRefusedNamingTheSource() throws IOException, InterruptedException {
        List<String> lines = CaseJvm.run(dir, "formats", FormatFuzzRunner.class, List.of("-Xmx512m"),
                List.of(Integer.toString(CASES), Long.toString(FIRST_SEED)), Duration.ofSeconds(HANG_GUARD_SECONDS));
        List<String> bad = lines.stream().filter(l -> l.startsWith("BAD ")).toList();
        assertThat(bad).as("%d findings (seed, fixture, leg: what [damage]); the first ones", bad.size())
                .satisfies(b -> assertThat(b.subList(0, Math.min(10, b.size()))).isEmpty());
        assertThat(lines.stream().filter(l -> l.startsWith("done ")).count()).isEqualTo(CASES);
        String summary = lines.stream().filter(l -> l.startsWith("summary ")).findFirst().orElseThrow();
        System.out.println(summary);
        // Neither always harmless nor always caught: both outcomes on every leg.
        for (String leg : List.of("java", "java-lenient")) {
            assertThat(CASES < 100 || summary.matches(".* " + leg + "=ok:[1-9]\\d*/refused:[1-9].*"))
                    .as("both outcomes on %s: %s", leg, summary).isTrue();
        }
    }
}
