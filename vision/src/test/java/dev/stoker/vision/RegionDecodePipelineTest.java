package dev.stoker.vision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.vision.decode.ImageDecoder;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.Normalize;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pipeline decoding only the crop through libjpeg-turbo 3 ({@code tj3SetCroppingRegion}):
 * its output is the whole decode's at the same DCT scale, value for value, for random resized
 * crops with flips and for a centre crop after a resize; with DCT scaling off it is therefore
 * PIL's. Skipped where the loaded library is 2.x (see {@link dev.stoker.vision.decode.ImageDecoder#turboJpegDecodesRegions()}).
 */
class RegionDecodePipelineTest {
    private static final String NO_V3 = "the loaded libjpeg-turbo is 2.x (its TurboJPEG API cannot decode a region) or"
            + " none is: run with STOKER_TURBOJPEG=/path/to/libjpeg-turbo-3/lib/libturbojpeg.so.0 to test the 3.x path";

    @ParameterizedTest
    @ValueSource(strings = {"decode/rgb420_q90.jpg", "decode/progressive.jpg", "decode/sub_422.jpg",
            "decode/sub_411.jpg", "decode/grayscale.jpg", "torchvision/photo_80x60.jpg"})
    void randomCropsDecodedOnTheirOwnGiveTheWholeDecodesOutputExactly(String file) {
        assumeTrue(ImageDecoder.turboJpegDecodesRegions(), NO_V3);
        byte[] bytes = Fixtures.bytes(file);
        for (boolean dct : new boolean[] {false, true}) {
            for (int size : new int[] {8, 24}) {  // 8: crops at least twice the output, decoded at 1/2 or less
                try (ImagePipeline whole = pipeline(size, false, dct); ImagePipeline cropped = pipeline(size, true, dct);
                     Arena arena = Arena.ofConfined()) {
                    for (int i = 0; i < 30; i++) {
                        float[] a = whole.apply(bytes, file, SampleRandom.of(7, 0, i), DType.U8, arena).toFloatArray();
                        float[] b = cropped.apply(bytes, file, SampleRandom.of(7, 0, i), DType.U8, arena).toFloatArray();
                        assertThat(b).as("%s sample %d, output %d, DCT scaling %s", file, i, size, dct).containsExactly(a);
                    }
                }
            }
        }
    }

    @Test
    void aCentreCropAfterAResizeIsTheWholeDecodesExactly() {
        assumeTrue(ImageDecoder.turboJpegDecodesRegions(), NO_V3);
        byte[] bytes = Fixtures.bytes("torchvision/photo_80x60.jpg");
        try (ImagePipeline whole = ImagePipeline.builder().add(Resize.shorterSide(120)).add(new CenterCrop(40))
                     .normalize(Normalize.NONE).exact().build();
             ImagePipeline cropped = ImagePipeline.builder().add(Resize.shorterSide(120)).add(new CenterCrop(40))
                     .normalize(Normalize.NONE).dctScaling(false).cropDecode(true).build();
             Arena arena = Arena.ofConfined()) {
            float[] a = whole.apply(bytes, "photo", null, DType.U8, arena).toFloatArray();
            float[] b = cropped.apply(bytes, "photo", null, DType.U8, arena).toFloatArray();
            assertThat(b).containsExactly(a);
        }
    }

    private static ImagePipeline pipeline(int size, boolean crop, boolean dct) {
        return ImagePipeline.builder().add(new RandomResizedCrop(size)).add(new RandomHorizontalFlip())
                .normalize(Normalize.NONE).dctScaling(dct).cropDecode(crop).build();
    }
}
