package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decoding only the region with libjpeg-turbo 3's TurboJPEG API ({@code tj3SetCroppingRegion}):
 * the region holds the one asked for and its pixels are the whole decode's at the same scale, bit
 * for bit, in every subsampling and at every scale; a file cut short is still refused. Skipped
 * where the loaded library is 2.x (CI, Debian 12 and 13): name a libjpeg-turbo 3 with
 * {@code STOKER_TURBOJPEG=/path/to/libturbojpeg.so.0} to run them.
 */
class RegionDecodeTest {
    static final String NO_V3 = "the loaded libjpeg-turbo is 2.x (its TurboJPEG API cannot decode a region) or none is:"
            + " run with STOKER_TURBOJPEG=/path/to/libjpeg-turbo-3/lib/libturbojpeg.so.0 to test the 3.x path";

    @ParameterizedTest
    @ValueSource(strings = {"rgb420_q90.jpg", "rgb444_q95.jpg", "progressive.jpg", "grayscale.jpg", "odd_37x23.jpg",
            "sub_422.jpg", "sub_440.jpg", "sub_411.jpg", "progressive_422.jpg"})
    void aRegionHasTheWholeDecodesPixelsBitForBitAtEveryScale(String file) {
        assumeTrue(ImageDecoder.turboJpegDecodesRegions(), NO_V3);
        byte[] bytes = Fixtures.bytes("decode/" + file);
        SplittableRandom rnd = new SplittableRandom(file.hashCode());
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session()) {
            for (ScalingFactor scale : decoder.scalingFactors()) {
                if (scale.num() != 1 || Integer.bitCount(scale.denom()) != 1) {
                    continue;  // the pipeline scales by 1, 1/2, 1/4 and 1/8 only
                }
                ImageHeader h = s.open(bytes, file);
                byte[] whole = s.decode(scale).toByteArray();
                int fullW = scale.scale(h.width());
                int fullH = scale.scale(h.height());
                int partial = 0;
                for (int i = 0; i < 40; i++) {
                    int left = rnd.nextInt(h.width());
                    int top = rnd.nextInt(h.height());
                    int w = 1 + rnd.nextInt(h.width() - left);
                    int hh = 1 + rnd.nextInt(h.height() - top);
                    s.open(bytes, file);
                    DecodedRegion r = s.decodeRegion(scale, left, top, w, hh);
                    assertThat(r.fullWidth()).isEqualTo(fullW);
                    assertThat(r.fullHeight()).isEqualTo(fullH);
                    // Holds the region asked for, in the scaled image's pixels.
                    assertThat(r.left()).isLessThanOrEqualTo((int) ((long) left * scale.num() / scale.denom()));
                    assertThat(r.top()).isLessThanOrEqualTo((int) ((long) top * scale.num() / scale.denom()));
                    assertThat(r.left() + r.image().width()).isGreaterThanOrEqualTo(Math.min(fullW, scale.scale(left + w)));
                    assertThat(r.top() + r.image().height()).isGreaterThanOrEqualTo(Math.min(fullH, scale.scale(top + hh)));
                    partial += r.isPartial() ? 1 : 0;
                    byte[] got = r.image().toByteArray();
                    for (int y = 0; y < r.image().height(); y++) {
                        int at = ((r.top() + y) * fullW + r.left()) * 3;
                        byte[] expected = Arrays.copyOfRange(whole, at, at + r.image().width() * 3);
                        byte[] row = Arrays.copyOfRange(got, y * r.image().width() * 3, (y + 1) * r.image().width() * 3);
                        assertThat(row).as("%s at %s, row %d of region %s", file, scale, y, r).isEqualTo(expected);
                    }
                }
                if (fullW > 2 * scale.scale(32) || fullH > 8) {
                    assertThat(partial).as("regions of %s at %s decoded on their own", file, scale).isGreaterThan(5);
                }
            }
        }
    }

    @Test
    void aFileCutShortIsRefusedThoughTheRegionLiesBeforeTheCut() {
        assumeTrue(ImageDecoder.turboJpegDecodesRegions(), NO_V3);
        byte[] whole = Fixtures.bytes("decode/rgb420_q90.jpg");
        byte[] bytes = Arrays.copyOf(whole, whole.length * 3 / 4);  // the top rows are all there
        try (ImageDecoder strict = ImageDecoder.create(); DecodeSession s = strict.session()) {
            s.open(bytes, "cut/short.jpg");
            // Only the missing end-of-image marker tells: the rows below the region are not read.
            assertThatThrownBy(() -> s.decodeRegion(ScalingFactor.ONE, 0, 0, 16, 4))
                    .isInstanceOf(ImageDecodeException.class).hasMessageStartingWith("cut/short.jpg");
        }
        try (ImageDecoder lenient = ImageDecoder.create(DecodeOptions.defaults().withAllowTruncated(true));
             DecodeSession s = lenient.session()) {
            s.open(bytes, "cut/short.jpg");
            DecodedRegion r = s.decodeRegion(ScalingFactor.ONE, 0, 0, 16, 4);
            assertThat(r.isPartial()).isTrue();  // decoded on its own, as the whole decode fills it in
            s.open(bytes, "cut/short.jpg");
            byte[] filled = s.decode(ScalingFactor.ONE).toByteArray();
            int w = r.image().width();
            assertThat(Arrays.copyOf(r.image().toByteArray(), w * 3)).isEqualTo(Arrays.copyOf(filled, w * 3));
        }
    }

    @Test
    void theLibraryAndItsApiAreReported() {
        assumeTrue(ImageDecoder.turboJpegDecodesRegions(), NO_V3);
        assertThat(ImageDecoder.turboJpegLibrary()).hasValueSatisfying(d -> assertThat(d).contains("TurboJPEG 3 API"));
        try (ImageDecoder decoder = ImageDecoder.create()) {
            assertThat(decoder.describe()).contains("TurboJPEG 3 API");
        }
    }

    @Test
    void theEndOfImageMarkerIsFoundBehindATrailerButNotInACutFile() {
        byte[] whole = Fixtures.bytes("decode/rgb420_q90.jpg");
        assertThat(TurboJpegRegion.endsWithEoi(MemorySegment.ofArray(whole))).isTrue();
        byte[] padded = Arrays.copyOf(whole, whole.length + 40);  // zero padding after EOI, as some writers leave
        assertThat(TurboJpegRegion.endsWithEoi(MemorySegment.ofArray(padded))).isTrue();
        assertThat(TurboJpegRegion.endsWithEoi(MemorySegment.ofArray(Fixtures.bytes("decode/truncated.jpg")))).isFalse();
        assertThat(TurboJpegRegion.endsWithEoi(MemorySegment.ofArray(Arrays.copyOf(whole, whole.length + 200)))).isFalse();
        assertThat(TurboJpegRegion.endsWithEoi(MemorySegment.ofArray(new byte[] {(byte) 0xFF}))).isFalse();
    }
}
