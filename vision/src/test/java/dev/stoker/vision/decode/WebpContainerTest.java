package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The RIFF checks made before a WebP reaches either decoder ({@link WebpDecoder#problem}). */
class WebpContainerTest {
    /** lossy_alpha.webp: VP8X at 12, ALPH at 30, then the VP8 chunk at 72, whose 14-bit width is at 72 + 8 + 6. */
    private static final int VP8_WIDTH = 72 + 8 + 6;

    /**
     * A 64 x 48 canvas over a VP8 frame that says 16383 x 48: libwebp refuses it; TwelveMonkeys sized
     * its macroblocks from the frame and ran out of heap, the pixel limit having passed the canvas.
     */
    @ParameterizedTest(name = "libwebp {0}")
    @ValueSource(booleans = {true, false})
    void aBitstreamLargerThanItsCanvasIsRefused(boolean libwebp) {
        if (libwebp) {
            assumeTrue(ImageDecoder.libWebpAvailable(), "libwebp is not installed");
        }
        byte[] bytes = Fixtures.bytes("formats/lossy_alpha.webp");
        bytes[VP8_WIDTH] = (byte) 0xFF;
        bytes[VP8_WIDTH + 1] = 0x3F;
        try (ImageDecoder decoder = ImageDecoder.create(DecodeOptions.defaults().withMaxPixels(1 << 16)
                .withUseLibWebp(libwebp)); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(bytes, "wide.webp"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContainingAll("wide.webp", "the VP8 bitstream is 16383x48, its canvas 64x48");
        }
    }

    @ParameterizedTest(name = "libwebp {0}")
    @ValueSource(booleans = {true, false})
    void aFileShorterThanItsRiffHeaderIsRefused(boolean libwebp) {
        if (libwebp) {
            assumeTrue(ImageDecoder.libWebpAvailable(), "libwebp is not installed");
        }
        byte[] bytes = Fixtures.bytes("formats/truncated_lossless.webp");
        try (ImageDecoder decoder = ImageDecoder.create(DecodeOptions.defaults().withUseLibWebp(libwebp));
             DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(bytes, "cut.webp"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContainingAll("cut.webp", "truncated", "its RIFF header gives");
        }
    }
}
