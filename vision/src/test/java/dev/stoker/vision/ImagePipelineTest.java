package dev.stoker.vision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.decode.ImageDecodeException;
import dev.stoker.vision.decode.ScalingFactor;
import dev.stoker.vision.augment.RandomErasing;
import dev.stoker.vision.augment.RandomGrayscale;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.Normalize;
import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ImagePipelineTest {
    private static final byte[] PHOTO = Fixtures.bytes("torchvision/photo_80x60.jpg");

    @Test
    void presetsHaveTorchvisionsShapes() {
        try (ImagePipeline train = ImagePipeline.train(224); ImagePipeline eval = ImagePipeline.eval(224)) {
            assertThat(train.outputShape()).isEqualTo(Shape.of(3, 224, 224));
            assertThat(eval.outputShape()).isEqualTo(Shape.of(3, 224, 224));
            assertThat(eval.transforms()).containsExactly(Resize.shorterSide(256), new CenterCrop(224));
            assertThat(train.transforms().getFirst()).isEqualTo(new RandomResizedCrop(224));
            assertThat(train.pixelOps()).isEmpty();     // the fast path: the resample writes the slot
        }
        try (ImagePipeline recipe = ImagePipeline.trainRecipe(176)) {
            assertThat(recipe.outputShape()).isEqualTo(Shape.of(3, 176, 176));
            assertThat(recipe.pixelOps()).containsExactly(new dev.stoker.vision.augment.TrivialAugmentWide(
                    dev.stoker.vision.augment.Interpolation.BILINEAR));
            assertThat(recipe.tensorOps()).containsExactly(new RandomErasing(0.1));
        }
    }

    /**
     * The same picture saved by PIL as lossless WebP, PPM, BMP and TIFF: each goes through the
     * pipeline (which asks the decoder for DCT scaling only JPEG has) to the same tensor.
     */
    @Test
    void everyLosslessFormatGivesTheSameTensor() {
        try (ImagePipeline p = ImagePipeline.eval(16); Arena arena = Arena.ofConfined()) {
            float[] first = null;
            for (String file : List.of("lossless.webp", "p6.ppm", "rgb.bmp", "rgb.tif", "rgb_lzw.tif")) {
                float[] out = p.apply(Fixtures.bytes("formats/" + file), file, null, DType.F32, arena).toFloatArray();
                if (first == null) {
                    first = out;
                } else {
                    assertThat(out).as(file).containsExactly(first);
                }
            }
        }
    }

    @Test
    void sameDrawsSameOutputOnAnyThread() throws Exception {
        try (ImagePipeline p = ImagePipeline.train(32); Arena arena = Arena.ofShared()) {
            int n = 40;
            List<float[]> expected = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                expected.add(p.apply(PHOTO, "photo", SampleRandom.of(1, 2, i), DType.F32, arena).toFloatArray());
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<float[]>> got = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    long index = i;
                    got.add(pool.submit(() -> {
                        Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 32, 32));
                        p.apply(PHOTO, "photo", slot, SampleRandom.of(1, 2, index));
                        return slot.toFloatArray();
                    }));
                }
                for (int i = 0; i < n; i++) {
                    assertThat(got.get(i).get()).containsExactly(expected.get(i));
                }
            } finally {
                pool.shutdown();
            }
            assertThat(p.decoder().sessionsCreated()).isLessThanOrEqualTo(5);
        }
    }

    @Test
    void dctScalingStaysCloseToTheFullDecode() {
        // 80x60 shrunk to 16x12: the decoder may decode at 1/2, 1/4 (20x15 >= 16x12).
        try (ImagePipeline scaled = ImagePipeline.builder().add(Resize.to(12, 16)).build();
             ImagePipeline full = ImagePipeline.builder().add(Resize.to(12, 16)).exact().build();
             Arena arena = Arena.ofConfined()) {
            if (scaled.decoder().usesTurboJpeg()) {
                assertThat(ScalingFactor.choose(scaled.decoder().scalingFactors(), 80, 60, 16, 12))
                        .isEqualTo(new ScalingFactor(1, 4));
            }
            float[] a = scaled.apply(PHOTO, "photo", null, DType.F32, arena).toFloatArray();
            float[] b = full.apply(PHOTO, "photo", null, DType.F32, arena).toFloatArray();
            double sum = 0;
            for (int i = 0; i < a.length; i++) {
                sum += Math.abs(a[i] - b[i]);
            }
            // Normalized units (1/255/0.225 = 0.017 per level): within a few levels on average.
            assertThat(sum / a.length).isLessThan(0.1);
        }
    }

    @Test
    void dctScaledCropsStayCloseToTheFullDecode() {
        // RandomResizedCrop(16) of an 80x60 image: crops of 32 pixels and more decode at 1/2 or less.
        try (ImagePipeline scaled = ImagePipeline.builder().add(new RandomResizedCrop(16)).build();
             ImagePipeline full = ImagePipeline.builder().add(new RandomResizedCrop(16)).exact().build();
             Arena arena = Arena.ofConfined()) {
            for (long i = 0; i < 30; i++) {
                float[] a = scaled.apply(PHOTO, "photo", SampleRandom.of(4, 0, i), DType.F32, arena).toFloatArray();
                float[] b = full.apply(PHOTO, "photo", SampleRandom.of(4, 0, i), DType.F32, arena).toFloatArray();
                double sum = 0;
                for (int k = 0; k < a.length; k++) {
                    sum += Math.abs(a[k] - b[k]);
                }
                assertThat(sum / a.length).as("sample %d", i).isLessThan(0.15);
            }
        }
    }

    @Test
    void errorsNameTheSourceAndLeaveTheSlotAlone() {
        try (ImagePipeline p = ImagePipeline.eval(32); Arena arena = Arena.ofConfined()) {
            Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 32, 32));
            assertThatThrownBy(() -> p.apply(new byte[] {1, 2, 3}, "shard-3/000042.jpg", slot, null))
                    .isInstanceOf(ImageDecodeException.class).hasMessageStartingWith("shard-3/000042.jpg: not an image");
            assertThat(slot.toFloatArray()).containsOnly(0f);
            Tensor wrong = Tensor.allocate(arena, DType.F32, Shape.of(3, 30, 32));
            assertThatThrownBy(() -> p.apply(PHOTO, "photo.jpg", wrong, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("photo.jpg").hasMessageContaining("32x32");
        }
        try (ImagePipeline train = ImagePipeline.train(32); Arena arena = Arena.ofConfined()) {
            Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 32, 32));
            assertThatThrownBy(() -> train.apply(PHOTO, "photo.jpg", slot, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SampleRandom");
        }
    }

    @Test
    void resizeOnlyHasNoFixedShape() {
        try (ImagePipeline p = ImagePipeline.builder().add(Resize.shorterSide(30)).build()) {
            assertThatThrownBy(p::outputShape).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void stepsGoGeometricThenPixelThenTensor() {
        ImagePipeline.Builder b = ImagePipeline.builder().add(new RandomResizedCrop(32)).add(new RandomGrayscale());
        assertThatThrownBy(() -> b.add(new RandomHorizontalFlip())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before the pixel and tensor ops");
        b.add(new RandomErasing());
        assertThatThrownBy(() -> b.add(new RandomGrayscale())).hasMessageContaining("before the tensor ops");
        try (ImagePipeline p = b.build()) {
            assertThat(p.outputShape()).isEqualTo(Shape.of(3, 32, 32));
            assertThat(p.pixelOps()).containsExactly(new RandomGrayscale());
            assertThat(p.tensorOps()).containsExactly(new RandomErasing());
            assertThatThrownBy(() -> p.apply(PHOTO, "photo", null, DType.F32, Arena.global()))
                    .hasMessageContaining("SampleRandom");
        }
        try (ImagePipeline p = ImagePipeline.builder().add(Resize.shorterSide(20)).add(new RandomGrayscale()).build()) {
            assertThatThrownBy(p::outputShape).hasMessageContaining("depends on each image");
        }
    }

    /** An op of one's own, as a lambda: it sees the tile after the crop and flip, before Normalize. */
    @Test
    void aUsersPixelOpRunsOnTheOutputTile() {
        PixelOp invert = (tile, random) -> {
            byte[] px = tile.pixels();
            for (int i = 0; i < tile.length(); i++) {
                px[i] = (byte) ~px[i];
            }
        };
        try (ImagePipeline plain = ImagePipeline.builder().add(Resize.to(20, 24)).normalize(Normalize.NONE).build();
             ImagePipeline inverted = ImagePipeline.builder().add(Resize.to(20, 24)).add(invert)
                     .normalize(Normalize.NONE).build();
             Arena arena = Arena.ofConfined()) {
            float[] a = plain.apply(PHOTO, "photo", null, DType.U8, arena).toFloatArray();
            float[] b = inverted.apply(PHOTO, "photo", SampleRandom.of(0, 0, 0), DType.U8, arena).toFloatArray();
            for (int i = 0; i < a.length; i++) {
                assertThat(b[i]).isEqualTo(255 - a[i]);
            }
        }
    }
}
