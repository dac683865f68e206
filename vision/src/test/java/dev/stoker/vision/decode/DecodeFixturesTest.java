package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fixture file against the pixels PIL decoded from it, with each decoder: libjpeg-turbo
 * (skipped where the library is missing) and ImageIO alone.
 */
class DecodeFixturesTest {

    static Stream<Arguments> readable() {
        List<Arguments> out = new ArrayList<>();
        for (String[] row : Fixtures.table("decode/cases.txt")) {
            if (row[0].endsWith(".jpg") && !row[1].equals("-")) {
                for (boolean turbo : new boolean[] {true, false}) {
                    out.add(Arguments.of(row[0], Integer.parseInt(row[1]), Integer.parseInt(row[2]), turbo));
                }
            }
        }
        return out.stream();
    }

    static ImageDecoder decoder(boolean turbo) {
        if (turbo) {
            assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed");
        }
        return ImageDecoder.create(DecodeOptions.defaults().withUseTurboJpeg(turbo));
    }

    @ParameterizedTest(name = "{0}, turbo {3}")
    @MethodSource("readable")
    void decodesLikePil(String file, int width, int height, boolean turbo) {
        byte[] expected = Fixtures.bytes("decode/" + file.replace(".jpg", ".rgb"));
        try (ImageDecoder decoder = decoder(turbo); DecodeSession s = decoder.session()) {
            DecodedImage image = s.decode(Fixtures.bytes("decode/" + file), file);
            assertThat(image.width()).isEqualTo(width);
            assertThat(image.height()).isEqualTo(height);
            byte[] actual = image.toByteArray();
            int max = Fixtures.maxDiff(actual, expected);
            double mean = Fixtures.meanDiff(actual, expected);
            System.out.printf("%s via %s: max %d, mean %.3f%n", file, image.decoder(), max, mean);
            // libjpeg-turbo is PIL's own decoder, ImageIO's libjpeg 6b upsamples chroma the same
            // way, and PNG is lossless: the pixels agree (found exact; one level allowed).
            assertThat(max).as("max difference to PIL").isLessThanOrEqualTo(1);
            assertThat(mean).as("mean difference to PIL").isLessThan(0.05);
        }
    }
}
