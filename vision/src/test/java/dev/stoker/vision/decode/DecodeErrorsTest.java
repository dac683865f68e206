package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input gives an error naming the source and the problem, with each decoder; never a crash. */
class DecodeErrorsTest {

    private static ImageDecoder decoder(boolean turbo, DecodeOptions options) {
        if (turbo) {
            assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed");
        }
        return ImageDecoder.create(options.withUseTurboJpeg(turbo));
    }

    private static void assertFails(boolean turbo, String file, String... fragments) {
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults()); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(Fixtures.bytes("decode/" + file), "odd/" + file))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageStartingWith("odd/" + file + ": ")
                    .hasMessageContainingAll(fragments)
                    .satisfies(e -> assertThat(((ImageDecodeException) e).source()).isEqualTo("odd/" + file));
            // The session is still good for the next image, with the decoder it had.
            DecodedImage next = s.decode(Fixtures.bytes("decode/rgb420_q90.jpg"), "ok.jpg");
            assertThat(next.width()).isEqualTo(64);
            assertThat(next.decoder()).isEqualTo(turbo ? TurboJpegDecoder.NAME : ImageIODecoder.NAME);
        }
    }

    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void emptyFile(boolean turbo) {
        assertFails(turbo, "empty.jpg", "empty (0 bytes)");
    }

    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void garbage(boolean turbo) {
        assertFails(turbo, "garbage.jpg", "not an image", "300 bytes");
    }

    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void jpegMarkerThenGarbage(boolean turbo) {
        assertFails(turbo, "soi_garbage.jpg", "ImageIO");
    }

    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void truncatedIsAnErrorByDefault(boolean turbo) {
        assertFails(turbo, "truncated.jpg", "truncated", "64x48");
    }

    @org.junit.jupiter.api.Test
    void damageLibjpegTurboFindsIsNotDecodedAgainByImageIo() {
        // strict mode: libjpeg-turbo's warning is the verdict; ImageIO would decode the whole file to repeat it
        try (ImageDecoder decoder = decoder(true, DecodeOptions.defaults()); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(Fixtures.bytes("decode/truncated.jpg"), "odd/truncated.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContaining("libjpeg-turbo: damaged or truncated data")
                    .hasMessageNotContaining("ImageIO");
        }
    }

    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void truncatedIsDecodedWhenAllowed(boolean turbo) {
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults().withAllowTruncated(true));
             DecodeSession s = decoder.session()) {
            DecodedImage image = s.decode(Fixtures.bytes("decode/truncated.jpg"), "truncated.jpg");
            assertThat(image.width()).isEqualTo(64);
            assertThat(image.height()).isEqualTo(48);
            // What the half file holds (the start of the first row of blocks) matches the full image.
            byte[] full = Fixtures.bytes("decode/rgb420_q90.rgb");
            byte[] got = image.toByteArray();
            assertThat(Fixtures.maxDiff(Arrays.copyOf(got, 16 * 3), Arrays.copyOf(full, 16 * 3))).isLessThanOrEqualTo(1);
        }
    }

    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void overThePixelLimit(boolean turbo) {
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults().withMaxPixels(64 * 48 - 1));
             DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(Fixtures.bytes("decode/rgb420_q90.jpg"), "big.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContainingAll("big.jpg", "64x48", "over the limit of 3071");
            assertThatThrownBy(() -> s.decode(Fixtures.bytes("decode/png_named.jpg"), "big.png"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContainingAll("big.png", "64x48", "over the limit");
        }
    }

    /** A 2 KB file whose header claims 60000 x 60000 pixels is refused before anything is allocated for it. */
    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void decompressionBomb(boolean turbo) {
        byte[] bomb = withSize(Fixtures.bytes("decode/rgb420_q90.jpg"), 60000, 60000);
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults()); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(bomb, "bomb.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContainingAll("bomb.jpg", "60000x60000", "3600000000 pixels", "decompression bomb");
        }
    }

    /** A header claiming more rows than the data holds: decoded as truncated, not read out of bounds. */
    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void headerLargerThanTheData(boolean turbo) {
        byte[] liar = withSize(Fixtures.bytes("decode/rgb420_q90.jpg"), 640, 480);
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults()); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(liar, "liar.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContainingAll("liar.jpg", "640x480");
        }
    }

    /**
     * A progressive JPEG whose last scan is repeated 600 times: libjpeg-turbo refuses it
     * (TJFLAG_LIMITSCANS), and so must ImageIO, its fallback, which would otherwise decode every
     * scan (at 1024 x 1024 pixels, about a second per hundred scans): the fallback must keep the
     * library's limits. Lenient, libjpeg-turbo's refusal is told from damage, which it would decode.
     */
    @ParameterizedTest(name = "turbo {0}, truncated allowed {1}")
    @CsvSource({"true, false", "true, true", "false, false", "false, true"})
    void tooManyScans(boolean turbo, boolean allowTruncated) {
        byte[] bomb = withRepeatedLastScan(Fixtures.bytes("decode/progressive.jpg"), 600);
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults().withAllowTruncated(allowTruncated));
             DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(bomb, "scans.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageStartingWith("scans.jpg: ")
                    // strict mode with libjpeg-turbo: its warning on the repeated scan is the verdict at once
                    .hasMessageContainingAll("64x48", !turbo ? "ImageIO: more than 500 scans"
                            : allowTruncated ? "libjpeg-turbo: more than 500 scans" : "libjpeg-turbo: damaged or truncated data")
                    .satisfies(e -> assertThat(turbo && e.getMessage().contains("ImageIO")).isFalse());
        }
    }

    /**
     * A memory-mapped file larger than any Java array (a sparse 3 GiB file here): refused naming
     * the source, where copying it for ImageIO threw IllegalStateException. Refused before any
     * decoder reads it: a mapped image is copied into the session's buffer first (no native
     * decoder reads a map), and no image that can be decoded is that large.
     */
    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void mappedFileLargerThanAnArray(boolean turbo, @TempDir Path dir) throws IOException {
        Path file = sparseFile(dir.resolve("huge.jpg"), "not an image".getBytes(StandardCharsets.US_ASCII), 3L << 30);
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults()); DecodeSession s = decoder.session();
             Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
            MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            assertThatThrownBy(() -> s.decode(mapped, "huge.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessage("huge.jpg: too large to read: 3221225473 bytes of a mapped file, more than an image"
                            + " within the pixel limit (178956970 pixels, DecodeOptions.maxPixels) takes encoded"
                            + " (716876456 bytes)");
        }
    }

    /**
     * A file larger than any image within the pixel limit can be encoded is refused from its
     * size, before the session takes memory for it (a 2 GB ".jpg" took 2 GB).
     */
    @ParameterizedTest(name = "turbo {0}")
    @ValueSource(booleans = {true, false})
    void aFileLargerThanThePixelLimitAllowsIsRefusedBeforeItIsRead(boolean turbo, @TempDir Path dir) throws IOException {
        Path file = sparseFile(dir.resolve("big.jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8}, 2L << 20);
        try (ImageDecoder decoder = decoder(turbo, DecodeOptions.defaults().withMaxPixels(100));
             DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.open(file))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessage(file + ": too large to read: 2097153 bytes, more than an image within the pixel limit"
                            + " (100 pixels, DecodeOptions.maxPixels) takes encoded (1048976 bytes)");
            assertThat(s.bufferBytes()).isZero();
        }
    }

    /** A sparse file of {@code head}, a hole, and one zero byte at {@code lastByte}: large on disk in name only. */
    private static Path sparseFile(Path file, byte[] head, long lastByte) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.SPARSE)) {
            ch.write(ByteBuffer.wrap(head), 0);
            ch.write(ByteBuffer.wrap(new byte[1]), lastByte);
        }
        return file;
    }

    /** The same file with its last scan repeated {@code copies} more times, before EOI. */
    static byte[] withRepeatedLastScan(byte[] jpeg, int copies) {
        int lastScan = -1;
        for (int i = 0; i + 1 < jpeg.length; i++) {
            if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == 0xDA) {
                lastScan = i;
            }
        }
        int eoi = jpeg.length - 2;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(jpeg, 0, eoi);
        for (int c = 0; c < copies; c++) {
            out.write(jpeg, lastScan, eoi - lastScan);
        }
        out.write(jpeg, eoi, 2);
        return out.toByteArray();
    }

    /** Rewrites the size in the first SOF marker of a JPEG. */
    static byte[] withSize(byte[] jpeg, int width, int height) {
        byte[] out = jpeg.clone();
        int i = 2;
        while (i + 4 < out.length) {
            int marker = out[i + 1] & 0xFF;
            int length = ((out[i + 2] & 0xFF) << 8) | (out[i + 3] & 0xFF);
            if (marker >= 0xC0 && marker <= 0xC2) {
                out[i + 5] = (byte) (height >> 8);
                out[i + 6] = (byte) height;
                out[i + 7] = (byte) (width >> 8);
                out[i + 8] = (byte) width;
                return out;
            }
            i += 2 + length;
        }
        throw new IllegalArgumentException("no SOF marker");
    }
}
