package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decoding only the crop (libjpeg-turbo's lossless crop, then a decode of the smaller JPEG):
 * the region decoded holds the one asked for, on MCU boundaries, and its pixels are the whole
 * decode's but near the cut; what cannot be cropped, and damaged data, go the whole decode's way.
 */
class CropDecodeTest {
    @BeforeAll
    static void turbo() {
        assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rgb420_q90.jpg", "rgb444_q95.jpg", "progressive.jpg", "grayscale.jpg", "odd_37x23.jpg"})
    void aCropHoldsTheRegionWithTheWholeDecodesPixelsAwayFromTheCut(String file) {
        byte[] bytes = Fixtures.bytes("decode/" + file);
        SplittableRandom rnd = new SplittableRandom(file.hashCode());
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session()) {
            for (ScalingFactor scale : new ScalingFactor[] {ScalingFactor.ONE, new ScalingFactor(1, 2)}) {
                ImageHeader h = s.open(bytes, file);
                byte[] whole = s.decode(scale).toByteArray();
                int fullW = scale.scale(h.width());
                int partial = 0;
                for (int i = 0; i < 30; i++) {
                    int left = rnd.nextInt(h.width());
                    int top = rnd.nextInt(h.height());
                    int w = 1 + rnd.nextInt(h.width() - left);
                    int hh = 1 + rnd.nextInt(h.height() - top);
                    s.open(bytes, file);
                    DecodedRegion r = s.decodeRegion(scale, left, top, w, hh, true);
                    assertThat(r.fullWidth()).isEqualTo(fullW);
                    assertThat(r.fullHeight()).isEqualTo(scale.scale(h.height()));
                    // Holds the region asked for, in the scaled image's pixels.
                    assertThat(r.left()).isLessThanOrEqualTo(left * scale.num() / scale.denom());
                    assertThat(r.top()).isLessThanOrEqualTo(top * scale.num() / scale.denom());
                    assertThat(r.left() + r.image().width()).isGreaterThanOrEqualTo(scale.scale(left + w) - 1);
                    assertThat(r.top() + r.image().height()).isGreaterThanOrEqualTo(scale.scale(top + hh) - 1);
                    if (r.isPartial()) {
                        partial++;
                        if (!ImageDecoder.turboJpegDecodesRegions()) {  // the lossless crop's cut (3.x: anywhere)
                            assertThat(r.left() % (8 * scale.num() / scale.denom())).isZero();
                        }
                    }
                    // Pixels: the whole decode's, exactly but within 3 pixels of a cut (the chroma
                    // upsampling reads a neighbour there), and within a few levels at it.
                    int differ = 0;
                    int max = 0;
                    int rightCut = r.left() + r.image().width() < fullW ? r.image().width() - 3 : Integer.MAX_VALUE;
                    int bottomCut = r.top() + r.image().height() < r.fullHeight() ? r.image().height() - 3 : Integer.MAX_VALUE;
                    for (int y = 0; y < r.image().height(); y++) {
                        for (int x = 0; x < r.image().width(); x++) {
                            boolean nearCut = (r.left() > 0 && x < 3) || (r.top() > 0 && y < 3) || x >= rightCut || y >= bottomCut;
                            for (int c = 0; c < 3; c++) {
                                int a = r.image().get(x, y, c);
                                int b = whole[((r.top() + y) * fullW + r.left() + x) * 3 + c] & 0xFF;
                                differ += a != b && !nearCut ? 1 : 0;
                                max = Math.max(max, Math.abs(a - b));
                            }
                        }
                    }
                    assertThat(differ).as("%s at %s, values away from the cut that differ, region %s", file, scale, r).isZero();
                    assertThat(max).as("%s at %s, region %s", file, scale, r).isLessThanOrEqualTo(64);
                }
                assertThat(partial).as("crops of %s at %s decoded on their own", file, scale).isGreaterThan(10);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cmyk.jpg", "png_named.jpg"})
    void whatCannotBeCroppedIsDecodedWhole(String file) {
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session()) {
            ImageHeader h = s.open(Fixtures.bytes("decode/" + file), file);
            DecodedRegion r = s.decodeRegion(ScalingFactor.ONE, 16, 16, 8, 8, true);
            assertThat(r.isPartial()).isFalse();
            assertThat(r.image().width()).isEqualTo(h.width());
        }
    }

    @Test
    void aDamagedJpegCroppedIsRefusedNamingTheSourceOrDecodedLeniently() {
        byte[] bytes = Fixtures.bytes("decode/truncated.jpg");
        try (ImageDecoder strict = ImageDecoder.create(); DecodeSession s = strict.session()) {
            s.open(bytes, "cut/short.jpg");
            assertThatThrownBy(() -> s.decodeRegion(ScalingFactor.ONE, 8, 8, 16, 16, true))
                    .isInstanceOf(ImageDecodeException.class).hasMessageStartingWith("cut/short.jpg");
        }
        try (ImageDecoder lenient = ImageDecoder.create(DecodeOptions.defaults().withAllowTruncated(true));
             DecodeSession s = lenient.session()) {
            ImageHeader h = s.open(bytes, "cut/short.jpg");
            DecodedRegion r = s.decodeRegion(ScalingFactor.ONE, 8, 8, 16, 16, true);
            assertThat(r.image().width()).isEqualTo(h.width());  // the whole decode's way, filled in
        }
    }

    @Test
    void aCropIsWorthItWhenThePixelWorkDominates() {
        // W3's images: 0.36 bytes a pixel, most of the decode is entropy decoding.
        long w3Bytes = (long) (0.36 * 520 * 390);
        assertThat(TurboJpegDecoder.worthCropping(w3Bytes, 520, 390, ScalingFactor.ONE, 520 * 390 / 10)).isTrue();
        assertThat(TurboJpegDecoder.worthCropping(w3Bytes, 520, 390, ScalingFactor.ONE, 520 * 390 / 4)).isFalse();
        // Smooth quality-75 images: 0.03 bytes a pixel.
        long smooth = (long) (0.034 * 1024 * 768);
        assertThat(TurboJpegDecoder.worthCropping(smooth, 1024, 768, ScalingFactor.ONE, 1024 * 768 * 4 / 10)).isTrue();
        assertThat(TurboJpegDecoder.worthCropping(smooth, 1024, 768, ScalingFactor.ONE, 1024 * 768 / 2)).isFalse();
        // Decoded at 1/2 the pixel work left to save is a quarter.
        assertThat(TurboJpegDecoder.worthCropping(smooth, 1024, 768, new ScalingFactor(1, 2), 1024 * 768 * 4 / 10)).isFalse();
    }
}
