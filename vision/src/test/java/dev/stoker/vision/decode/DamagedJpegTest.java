package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JPEG whose header libjpeg-turbo read stays with libjpeg-turbo however damaged its data:
 * strict, its first warning or error refuses the image; lenient, the image is what it decoded
 * and never the previous image's pixels. ImageIO is not asked again, which for a damaged
 * progressive JPEG of a few hundred scans took seconds (it renders the image once per scan) and
 * gave nothing: the JDK's libjpeg stops on the same error.
 */
class DamagedJpegTest {
    private static final String TURBO = TurboJpegDecoder.NAME;

    private static ImageDecoder turbo(boolean lenient) {
        assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed");
        return ImageDecoder.create(DecodeOptions.defaults().withAllowTruncated(lenient));
    }

    /** The progressive fixture with a seeded number of DC scans (up to 480 in all) and a seeded one of them broken. */
    private static byte[] brokenManyScans(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int copies = 100 + rnd.nextInt(371);
        return ManyScans.withBrokenDcScan(Fixtures.bytes("decode/progressive.jpg"), copies, 50 + rnd.nextInt(copies - 50),
                rnd.nextLong());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void lenientKeepsWhatLibjpegTurboDecodedOfABrokenProgressiveJpeg(long seed) {
        byte[] broken = brokenManyScans(seed);
        assertThat(JpegScans.count(broken, 1000)).isBetween(110, JpegScans.MAX_SCANS);
        try (ImageDecoder decoder = turbo(true); DecodeSession s = decoder.session()) {
            DecodedImage image = s.decode(broken, "many-scans.jpg");
            assertThat(image.decoder()).isEqualTo(TURBO);
            assertThat(image.width()).isEqualTo(64);
            assertThat(image.height()).isEqualTo(48);
            // The error is met while the scans are read, before any row is made: every row is
            // one the decoder never reached, black, as PIL leaves it.
            assertThat(isBlack(image.toByteArray())).isTrue();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void strictRefusesABrokenProgressiveJpegWithLibjpegTurbosError(long seed) {
        byte[] broken = brokenManyScans(seed);
        try (ImageDecoder decoder = turbo(false); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(broken, "many-scans.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageStartingWith("many-scans.jpg: cannot decode this JPEG image of 64x48")
                    // 2.x: "Invalid progressive parameters ...", 3.x: "Invalid progressive/lossless parameters ..."
                    .hasMessageContaining("libjpeg-turbo: Invalid progressive")
                    .hasMessageNotContaining("ImageIO");
        }
    }

    /** What ImageIO made of the files above: the same error, so nothing is lost by not asking it. */
    @ParameterizedTest(name = "lenient {0}")
    @ValueSource(booleans = {true, false})
    void imageIoStopsOnTheSameError(boolean lenient) {
        byte[] broken = brokenManyScans(1);
        try (ImageDecoder decoder = ImageDecoder.create(DecodeOptions.defaults().withUseTurboJpeg(false)
                .withAllowTruncated(lenient)); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(broken, "many-scans.jpg"))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageContaining("ImageIO: Invalid progressive parameters");
        }
    }

    /** The same scans unbroken are a valid file: the error, not the number of scans, is what is refused. */
    @ParameterizedTest(name = "lenient {0}")
    @ValueSource(booleans = {true, false})
    void theUnbrokenScansDecodeCleanly(boolean lenient) {
        byte[] many = ManyScans.withRepeatedDcScan(Fixtures.bytes("decode/progressive.jpg"), 400);
        try (ImageDecoder decoder = turbo(lenient); DecodeSession s = decoder.session()) {
            assertThat(s.decode(many, "many-scans.jpg").decoder()).isEqualTo(TURBO);
        }
    }

    /**
     * Warnings (a scan repeated out of order), then an error: libjpeg-turbo reports the error as
     * a warning (its warning flag stays set), and the decode used to return the pixel buffer as
     * it was, holding the previous image.
     */
    @Test
    void anErrorAfterWarningsNeverGivesThePreviousImage() {
        byte[] progressive = Fixtures.bytes("decode/progressive.jpg");
        byte[] warnings = DecodeErrorsTest.withRepeatedLastScan(progressive, 20);
        byte[] warningsThenError = ManyScans.withBrokenDcScan(warnings, 5, 2, 7);
        try (ImageDecoder decoder = turbo(true); DecodeSession s = decoder.session()) {
            assertThat(isBlack(s.decode(progressive, "good.jpg").toByteArray())).isFalse();
            DecodedImage image = s.decode(warningsThenError, "warnings-then-error.jpg");
            assertThat(image.decoder()).isEqualTo(TURBO);
            assertThat(isBlack(image.toByteArray())).isTrue();
        }
        try (ImageDecoder decoder = turbo(false); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(warningsThenError, "warnings-then-error.jpg"))
                    .hasMessageContaining("libjpeg-turbo: damaged or truncated data: Inconsistent progression sequence");
        }
    }

    /**
     * A baseline (one-scan) JPEG without its quantization tables: the error comes before the first
     * row, so the rows are decoded again into a cleared buffer, and none was reached. (The image
     * before it is a PNG, in the same pixel buffer: a JPEG would leave its tables in the handle,
     * which libjpeg keeps for abbreviated streams and would use here.)
     */
    @ParameterizedTest(name = "lenient {0}")
    @ValueSource(booleans = {true, false})
    void anErrorBeforeTheFirstRowOfABaselineJpeg(boolean lenient) {
        byte[] good = Fixtures.bytes("decode/rgb420_q90.jpg");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        for (JpegCorruptor.Segment g : JpegCorruptor.segments(good)) {
            if (g.marker() == 0xDB) { // DQT left out
                out.write(good, at, g.offset() - at);
                at = g.end();
            }
        }
        out.write(good, at, good.length - at);
        byte[] withoutTables = out.toByteArray();
        try (ImageDecoder decoder = turbo(lenient); DecodeSession s = decoder.session()) {
            assertThat(isBlack(s.decode(Fixtures.bytes("decode/png_named.jpg"), "before.png").toByteArray())).isFalse();
            if (lenient) {
                DecodedImage image = s.decode(withoutTables, "no-tables.jpg");
                assertThat(image.decoder()).isEqualTo(TURBO);
                assertThat(isBlack(image.toByteArray())).isTrue();
            } else {
                assertThatThrownBy(() -> s.decode(withoutTables, "no-tables.jpg"))
                        .hasMessageContaining("libjpeg-turbo: Quantization table 0x00 was not defined")
                        .hasMessageNotContaining("ImageIO");
            }
        }
    }

    /**
     * A truncated baseline JPEG with marker junk after it: the decoder fills the rows with a
     * warning, then fails on the junk's marker after the last row. The rows are all there: the
     * image is the truncated file's.
     */
    @Test
    void anErrorAfterTheLastRowKeepsTheRows() {
        byte[] truncated = Fixtures.bytes("decode/truncated.jpg");
        byte[] withJunk = Arrays.copyOf(truncated, truncated.length + 4);
        withJunk[truncated.length] = (byte) 0xFF;
        withJunk[truncated.length + 1] = (byte) 0xFC; // a marker no decoder knows
        try (ImageDecoder decoder = turbo(true); DecodeSession s = decoder.session()) {
            byte[] expected = s.decode(truncated, "truncated.jpg").toByteArray();
            DecodedImage image = s.decode(withJunk, "junk.jpg");
            assertThat(image.decoder()).isEqualTo(TURBO);
            assertThat(image.toByteArray()).isEqualTo(expected);
        }
        try (ImageDecoder decoder = turbo(false); DecodeSession s = decoder.session()) {
            assertThatThrownBy(() -> s.decode(withJunk, "junk.jpg")).hasMessageContaining("libjpeg-turbo: damaged")
                    .hasMessageNotContaining("ImageIO");
        }
    }

    /**
     * libjpeg-turbo 2.1 leaves its handle in the header state after an error in a header, and
     * every later header then fails with the same error: the session's later images all went to
     * ImageIO. The handle is renewed.
     */
    @ParameterizedTest(name = "lenient {0}")
    @ValueSource(booleans = {true, false})
    void aDamagedHeaderDoesNotSendLaterImagesToImageIo(boolean lenient) {
        byte[] good = Fixtures.bytes("decode/rgb420_q90.jpg");
        byte[] bogusTable = good.clone();
        JpegCorruptor.Segment dht = JpegCorruptor.segments(good).stream().filter(g -> g.marker() == 0xC4)
                .findFirst().orElseThrow();
        Arrays.fill(bogusTable, dht.body() + 1, dht.body() + 17, (byte) 0xFF); // 16 code counts of 255
        try (ImageDecoder decoder = turbo(lenient); DecodeSession s = decoder.session()) {
            // libjpeg-turbo 3's tjDecompressHeader3 replaces libjpeg's message with its own.
            assertThatThrownBy(() -> s.decode(bogusTable, "bogus.jpg")).hasMessageMatching("(?s).*libjpeg-turbo: (Bogus Huffman"
                    + " table definition|tjDecompressHeader3\\(\\): Could not determine subsampling level of JPEG image).*");
            for (int i = 0; i < 3; i++) {
                assertThat(s.decode(good, "good.jpg").decoder()).isEqualTo(TURBO);
            }
        }
    }

    /**
     * Junk between the header's markers is a warning in the header: the header counts as read,
     * and the mode decides as for damaged data (it went to ImageIO, which decoded the whole file
     * to reach the same verdict).
     */
    @ParameterizedTest(name = "lenient {0}")
    @ValueSource(booleans = {true, false})
    void aHeaderReadWithAWarningStaysWithLibjpegTurbo(boolean lenient) {
        byte[] good = Fixtures.bytes("decode/progressive.jpg");
        JpegCorruptor.Segment sof = JpegCorruptor.segments(good).stream().filter(g -> g.marker() == 0xC2)
                .findFirst().orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(good, 0, sof.offset());
        out.write(new byte[] {1, 2, 3, 4, 5}, 0, 5);
        out.write(good, sof.offset(), good.length - sof.offset());
        byte[] junk = out.toByteArray();
        try (ImageDecoder decoder = turbo(lenient); DecodeSession s = decoder.session()) {
            byte[] expected = s.decode(good, "good.jpg").toByteArray();
            if (lenient) {
                DecodedImage image = s.decode(junk, "junk.jpg");
                assertThat(image.decoder()).isEqualTo(TURBO);
                assertThat(image.toByteArray()).isEqualTo(expected);
            } else {
                assertThatThrownBy(() -> s.decode(junk, "junk.jpg"))
                        .hasMessageContaining("libjpeg-turbo: damaged or truncated data: Corrupt JPEG data: 5 extraneous bytes")
                        .hasMessageNotContaining("ImageIO");
            }
        }
    }

    private static boolean isBlack(byte[] pixels) {
        for (byte b : pixels) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
