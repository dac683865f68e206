package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The default pixel limit is PIL's: refused above 2 x {@code MAX_IMAGE_PIXELS}
 * ({@code DecompressionBombError}), counted above {@code MAX_IMAGE_PIXELS} (where PIL only
 * warns). Checked at the boundaries with files that are a header alone: the size is checked when
 * the header is read, before anything is allocated for the pixels, so nothing large is needed.
 */
class PixelLimitTest {
    static final long PIL_MAX = 89_478_485L;  // PIL 9.4's Image.MAX_IMAGE_PIXELS

    @Test
    void theLimitsArePils() {
        assertThat(DecodeOptions.PIL_MAX_IMAGE_PIXELS).isEqualTo(PIL_MAX).isEqualTo(1024L * 1024 * 1024 / 4 / 3);
        assertThat(DecodeOptions.defaults().maxPixels()).isEqualTo(2 * PIL_MAX);
        assertThat(DecodeOptions.defaults().largePixels()).isEqualTo(PIL_MAX);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pgm", "png"})
    void refusedAboveTwicePilsMaxCountedAboveIt(String format) {
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session()) {
            // At PIL's MAX_IMAGE_PIXELS: nothing to say (PIL neither warns nor refuses).
            assertThat(s.open(header(format, 14351, 6235), "at-max." + format).pixels()).isEqualTo(PIL_MAX);
            assertThat(decoder.largeImages()).isZero();
            // One more pixel: PIL warns and decodes, and so does Stoker, counting it.
            assertThat(s.open(header(format, (int) PIL_MAX + 1, 1), "over-max." + format).pixels()).isEqualTo(PIL_MAX + 1);
            assertThat(decoder.largeImages()).isEqualTo(1);
            // Twice PIL's MAX_IMAGE_PIXELS, a 14351 x 12470 image: PIL still decodes it (with a warning).
            assertThat(s.open(header(format, 14351, 12470), "twice-max." + format).pixels()).isEqualTo(2 * PIL_MAX);
            assertThat(decoder.largeImages()).isEqualTo(2);
            // One more: PIL raises DecompressionBombError, Stoker refuses it naming the file.
            assertThatThrownBy(() -> s.open(header(format, (int) (2 * PIL_MAX) + 1, 1), "bomb." + format))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContainingAll("bomb." + format, "178956971 pixels", "over the limit of 178956970",
                            "decompression bomb");
            assertThat(decoder.largeImages()).isEqualTo(2);
        }
    }

    /** A lower limit moves the count with it, as PIL's warning moves with MAX_IMAGE_PIXELS. */
    @Test
    void aLowerLimitCountsAboveItsHalf() {
        try (ImageDecoder decoder = ImageDecoder.create(DecodeOptions.defaults().withMaxPixels(1000));
             DecodeSession s = decoder.session()) {
            s.open(header("pgm", 500, 1), "half.pgm");
            assertThat(decoder.largeImages()).isZero();
            s.open(header("pgm", 501, 1), "over-half.pgm");
            assertThat(decoder.largeImages()).isEqualTo(1);
            assertThatThrownBy(() -> s.open(header("pgm", 1001, 1), "over.pgm"))
                    .isInstanceOf(ImageDecodeException.class).hasMessageContaining("over the limit of 1000");
        }
    }

    /** A binary PGM header or a PNG's signature and IHDR chunk, with no pixels after them. */
    static byte[] header(String format, int width, int height) {
        if (format.equals("pgm")) {
            return ("P5\n" + width + " " + height + "\n255\n").getBytes(StandardCharsets.US_ASCII);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
        // IHDR: width, height, bit depth 8, colour type 2 (RGB), compression, filter, interlace 0
        ByteBuffer ihdr = ByteBuffer.allocate(4 + 13).put("IHDR".getBytes(StandardCharsets.US_ASCII))
                .putInt(width).putInt(height).put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        CRC32 crc = new CRC32();
        crc.update(ihdr.array());
        out.writeBytes(ByteBuffer.allocate(4).putInt(13).array());
        out.writeBytes(ihdr.array());
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        return out.toByteArray();
    }
}
