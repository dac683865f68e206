package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.testing.CaseJvm;
import dev.stoker.vision.ImagePipeline;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded corruptions of the JPEG fixtures by the thousand ({@link JpegCorruptor}: SOF sizes up
 * to 65535 x 65535, scrambled DHT and DQT tables, frame and scan fields, marker lengths,
 * segments copied and removed, scans repeated, flipped bits, overwritten bytes, truncation, junk
 * appended), each put through each decoder and both preset pipelines ({@link JpegFuzzRunner}): each decodes to a
 * sane size or is refused with an {@link ImageDecodeException} naming the source. Never another
 * exception, a crash, a hang, or an allocation past what the pixel limit allows.
 *
 * <p>The cases run in a JVM of their own with a small heap, so that a crash in native code fails
 * this test at the case that crashed, and a runaway heap allocation is an
 * {@link OutOfMemoryError} the case reports. Each decoder has its own run: libjpeg-turbo (with
 * ImageIO as its fallback, as the session uses them), skipped saying so when libturbojpeg is
 * not installed, and ImageIO alone.
 *
 * <p>{@code -Dstoker.jpeg.fuzzCases=N} sets the number of cases per decoder (1000; named as LMDB's
 * {@code stoker.lmdb.fuzzCases}), {@code -Dstoker.jpeg.fuzzSeed=S} the first seed (0). A failure
 * prints each bad case's seed, fixture, leg and damage (a crash or hang: the case it was in);
 * {@code -Dstoker.jpeg.fuzzCases=1 -Dstoker.jpeg.fuzzSeed=S} replays case S, and
 * {@code JpegFuzzRunner.damage(S)} rebuilds its bytes.
 */
class JpegCorruptionFuzzTest {
    private static final int CASES = Integer.getInteger("stoker.jpeg.fuzzCases", 1000);
    private static final long FIRST_SEED = Long.getLong("stoker.jpeg.fuzzSeed", 0);
    /** A hang guard, not a speed limit: the CI run takes seconds. */
    private static final long HANG_GUARD_SECONDS = 120 + CASES / 50;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"turbo", "imageio"})
    void everyDamagedJpegDecodesOrIsRefusedNamingTheSource(String decoder) throws Exception {
        if (decoder.equals("turbo")) {
            assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed: only the ImageIO fuzz runs");
        }
        List<String> lines = runCases(decoder);
        List<String> bad = lines.stream().filter(l -> l.startsWith("BAD ")).toList();
        assertThat(bad).as("%d findings (seed, fixture, leg: what [damage]); the first ones", bad.size())
                .satisfies(b -> assertThat(b.subList(0, Math.min(10, b.size()))).isEmpty());
        assertThat(lines.stream().filter(l -> l.startsWith("done ")).count()).isEqualTo(CASES);
        String summary = lines.stream().filter(l -> l.startsWith("summary ")).findFirst().orElseThrow();
        System.out.println(decoder + ": " + summary);
        // The damage is neither always harmless nor always caught: both outcomes occur on every leg
        // (in a run of more than a few cases; one case replays a failure).
        for (String leg : List.of("decode-", "crop-", "train-", "eval-")) {
            for (String mode : List.of("", "-lenient")) {
                assertThat(CASES < 100 || summary.matches(".* " + leg + decoder + mode + "=ok:[1-9]\\d*/refused:[1-9].*"))
                        .as("both outcomes on %s%s%s: %s", leg, decoder, mode, summary).isTrue();
            }
        }
    }

    /** The fuzz pipelines are the presets' transforms (only the decoder, with the fuzz's pixel limit, differs). */
    @Test
    void fuzzPipelinesAreThePresets() {
        try (ImageDecoder d = ImageDecoder.create(JpegFuzzRunner.options(false));
             ImagePipeline train = ImagePipeline.train(224); ImagePipeline eval = ImagePipeline.eval(224);
             ImagePipeline fuzzTrain = JpegFuzzRunner.train(d); ImagePipeline fuzzEval = JpegFuzzRunner.eval(d)) {
            assertThat(fuzzTrain.transforms()).isEqualTo(train.transforms());
            assertThat(fuzzEval.transforms()).isEqualTo(eval.transforms());
            assertThat(fuzzTrain.normalize()).isEqualTo(train.normalize());
        }
    }

    private List<String> runCases(String decoder) throws IOException, InterruptedException {
        // -Xmx: well above what the pixel limit allows a case, well below what a corrupt size claims
        return CaseJvm.run(dir, decoder, JpegFuzzRunner.class, List.of("-Xmx512m"),
                List.of(Integer.toString(CASES), Long.toString(FIRST_SEED), decoder),
                Duration.ofSeconds(HANG_GUARD_SECONDS));
    }
}
