package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.Fixtures;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.decode.DecodeOptions;
import dev.stoker.vision.decode.DecodeSession;
import dev.stoker.vision.decode.DecodedImage;
import dev.stoker.vision.decode.ImageDecoder;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/**
 * Against torchvision 0.14 (PIL backend) on the same JPEG: the outputs of make_fixtures.py,
 * float32 CHW. The decoders give PIL's pixels, the resampler PIL's arithmetic and the
 * normalization torchvision's float32 operations, so the values agree to the last bit or nearly.
 */
class TorchvisionTest {
    private static final byte[] PHOTO = Fixtures.bytes("torchvision/photo_80x60.jpg");
    private static final float TOLERANCE = 1e-6f;

    private static void assertClose(Tensor actual, String fixture) {
        float[] expected = Fixtures.floats("torchvision/" + fixture + ".f32");
        float[] got = actual.toFloatArray();
        assertThat(got).hasSameSizeAs(expected);
        float max = 0;
        for (int i = 0; i < got.length; i++) {
            max = Math.max(max, Math.abs(got[i] - expected[i]));
        }
        assertThat(max).as(fixture + ": largest difference to torchvision").isLessThanOrEqualTo(TOLERANCE);
    }

    private static void assertPipeline(ImagePipeline.Builder builder, String fixture, int h, int w) {
        try (ImagePipeline p = builder.exact().build(); Arena arena = Arena.ofConfined()) {
            assertThat(p.outputShape()).isEqualTo(Shape.of(3, h, w));
            assertClose(p.apply(PHOTO, fixture, null, DType.F32, arena), fixture);
        }
    }

    @Test
    void resizeThenCenterCrop() {
        assertPipeline(ImagePipeline.builder().add(Resize.shorterSide(40)).add(new CenterCrop(32)), "eval_40_32", 32, 32);
        assertPipeline(ImagePipeline.builder().add(Resize.shorterSide(70)).add(new CenterCrop(64)), "eval_70_64", 64, 64);
    }

    @Test
    void theImageIODecoderGivesTheSameValues() {
        DecodeOptions imageIo = DecodeOptions.defaults().withUseTurboJpeg(false);
        assertPipeline(ImagePipeline.builder().decodeOptions(imageIo).add(Resize.shorterSide(40)).add(new CenterCrop(32)),
                "eval_40_32", 32, 32);
    }

    @Test
    void centerCropLargerThanTheImagePads() {
        assertPipeline(ImagePipeline.builder().add(new CenterCrop(40, 96)), "centercrop_pad_96x40", 40, 96);
    }

    @Test
    void resizedCropsWithAndWithoutFlip() {
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session();
             Arena arena = Arena.ofConfined()) {
            DecodedImage image = s.decode(PHOTO, "photo_80x60.jpg");
            for (String[] row : Fixtures.table("torchvision/cases.txt")) {
                if (!row[0].startsWith("rrc_")) {
                    continue;
                }
                String[] p = row[0].split("_");
                Geometry g = new Geometry(image.width(), image.height());
                g.crop(new CropBox(Integer.parseInt(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]),
                        Integer.parseInt(p[4])));
                g.resize(32, 32);
                if (p[5].equals("1")) {
                    g.flipHorizontal();
                }
                Tensor out = Tensor.allocate(arena, DType.F32, Shape.of(3, 32, 32));
                Resampler.render(image.pixels(), image.width(), image.height(), g, Normalize.IMAGENET, out, new Scratch());
                assertClose(out, row[0]);
            }
        }
    }

    @Test
    void randomResizedCropFallbackIsTheCentralCrop() {
        for (String[] row : Fixtures.table("torchvision/rrc_fallback.txt")) {
            int w = Integer.parseInt(row[0]);
            int h = Integer.parseInt(row[1]);
            // A scale above 1 never fits, so every attempt fails, whatever the draws.
            RandomResizedCrop rrc = new RandomResizedCrop(32, 32, 1.5, 2.0, Double.parseDouble(row[2]),
                    Double.parseDouble(row[3]));
            CropBox box = rrc.params(w, h, SampleRandom.of(1, 2, 3));
            assertThat(box).as(String.join(" ", row)).isEqualTo(new CropBox(Integer.parseInt(row[4]),
                    Integer.parseInt(row[5]), Integer.parseInt(row[6]), Integer.parseInt(row[7])));
        }
    }

    @Test
    void resizeOutputSizes() {
        for (String[] row : Fixtures.table("torchvision/resize_sizes.txt")) {
            int[] size = Resize.shorterSide(Integer.parseInt(row[2])).outputSize(Integer.parseInt(row[0]),
                    Integer.parseInt(row[1]));
            assertThat(size).as(String.join(" ", row)).containsExactly(Integer.parseInt(row[3]), Integer.parseInt(row[4]));
        }
    }
}
