package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * WebP, PBM, PGM, PPM and the PNG and TIFF depths other than 8-bit RGB, each against the pixels
 * of PIL 9.4's {@code Image.open(f).convert("RGB")} (formats/cases.txt, written by
 * make_fixtures.py). WebP runs with libwebp (skipped where it is missing) and with the pure-Java
 * TwelveMonkeys plugin; input on the heap and off it. An animated WebP gives its first frame, as
 * in PIL, through libwebpdemux, and is refused without libwebp.
 */
class FormatFixturesTest {
    /**
     * Lossy WebP through TwelveMonkeys, where libwebp is missing. libwebp is PIL's own decoder, so
     * through it lossy WebP is compared exactly. TwelveMonkeys' pure-Java VP8 decoder upsamples
     * the half-size chroma planes by repeating each sample, where libwebp (by default, and so PIL)
     * interpolates them ("fancy upsampling"): single pixels at sharp colour edges are far off while
     * the image is close on average. Measured on lossy.webp: max 91, mean 4.3 levels to PIL; and
     * max 4, mean 0.6 to libwebp's own planes upsampled by repetition, so the upsampling is the
     * whole difference. The bounds catch a decoder gone wrong (wrong planes, colours or rows: a
     * mean in the tens), not the upsampling of a good one.
     */
    static final int LOSSY_FALLBACK_MAX = 100;
    static final double LOSSY_FALLBACK_MEAN = 5.0;

    static Stream<Arguments> readable() {
        List<Arguments> out = new ArrayList<>();
        for (String[] row : Fixtures.table("formats/cases.txt")) {
            if (row[1].equals("-")) {
                continue;
            }
            // libwebp plays no part outside WebP: those run without it, so that they run everywhere.
            List<Boolean> libwebp = row[0].endsWith(".webp") ? List.of(true, false) : List.of(false);
            for (boolean lib : libwebp) {
                for (boolean offHeap : new boolean[] {false, true}) {
                    out.add(Arguments.of(row[0], Integer.parseInt(row[1]), Integer.parseInt(row[2]), row[3], lib, offHeap));
                }
            }
        }
        return out.stream();
    }

    static Stream<Arguments> refused() {
        List<Arguments> out = new ArrayList<>();
        for (String[] row : Fixtures.table("formats/cases.txt")) {
            if (row[1].equals("-")) {
                for (boolean lib : row[0].endsWith(".webp") ? List.of(true, false) : List.of(false)) {
                    out.add(Arguments.of(row[0], lib));
                }
            }
        }
        return out.stream();
    }

    static ImageDecoder decoder(boolean libwebp, DecodeOptions options) {
        if (libwebp) {
            assumeTrue(ImageDecoder.libWebpAvailable(), "libwebp is not installed");
        }
        return ImageDecoder.create(options.withUseLibWebp(libwebp));
    }

    @ParameterizedTest(name = "{0}, libwebp {4}, off-heap {5}")
    @MethodSource("readable")
    void decodesLikePil(String file, int width, int height, String kind, boolean libwebp, boolean offHeap) {
        byte[] bytes = Fixtures.bytes("formats/" + file);
        byte[] expected = Fixtures.bytes("formats/" + file.replace('.', '_') + ".rgb");
        try (ImageDecoder decoder = decoder(libwebp, DecodeOptions.defaults());
             DecodeSession s = decoder.session(); Arena arena = Arena.ofConfined()) {
            MemorySegment input = offHeap ? arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, bytes)
                    : MemorySegment.ofArray(bytes);
            if (kind.equals("animated") && !decoder.usesLibWebp()) {
                // TwelveMonkeys' first frame of a lossy animation is far from PIL's: refused.
                assertThatThrownBy(() -> s.decode(input, file)).isInstanceOf(ImageDecodeException.class)
                        .hasMessageContainingAll(file, "an animated WebP");
                return;
            }
            DecodedImage image = s.decode(input, file);
            assertThat(image.width()).isEqualTo(width);
            assertThat(image.height()).isEqualTo(height);
            byte[] actual = image.toByteArray();
            int max = Fixtures.maxDiff(actual, expected);
            double mean = Fixtures.meanDiff(actual, expected);
            System.out.printf("%s via %s: max %d, mean %.3f%n", file, image.decoder(), max, mean);
            if (kind.equals("exact") || kind.equals("animated") || image.decoder().equals(WebpDecoder.NAME)) {
                assertThat(max).as("%s via %s: the largest difference to PIL's pixels", file, image.decoder()).isZero();
            } else if (kind.equals("within1")) {
                // A palette TIFF written by PIL: its colour map holds v * 256, which PIL reads back
                // as v (the high byte) and the JDK as v - 1 (scaled by 255 / 65535). Exact for a
                // map written as libtiff writes it (v * 257). Not worth a TIFF reader of our own.
                assertThat(max).as("%s via %s: the largest difference to PIL's pixels", file, image.decoder())
                        .isLessThanOrEqualTo(1);
            } else {
                assertThat(max).as("max difference to PIL").isLessThanOrEqualTo(LOSSY_FALLBACK_MAX);
                assertThat(mean).as("mean difference to PIL").isLessThan(LOSSY_FALLBACK_MEAN);
            }
        }
    }

    /** What PIL refuses (cut short, junk after a WebP header, a plain sample over maxval) is refused naming the file. */
    @ParameterizedTest(name = "{0}, libwebp {1}")
    @MethodSource("refused")
    void refusesWhatPilRefuses(String file, boolean libwebp) {
        byte[] bytes = Fixtures.bytes("formats/" + file);
        try (ImageDecoder decoder = decoder(libwebp, DecodeOptions.defaults()); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(bytes, "dir/" + file))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageStartingWith("dir/" + file + ": ")
                    .satisfies(e -> System.out.println(e.getMessage()));
        }
    }
}
