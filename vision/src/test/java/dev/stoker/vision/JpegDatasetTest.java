package dev.stoker.vision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.Dataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderException;
import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The image dataset under a DataLoader: the fill path, the collate path, workers, errors. */
class JpegDatasetTest {
    private static final List<String> FILES = List.of("rgb420_q90.jpg", "odd_37x23.jpg", "grayscale.jpg", "cmyk.jpg",
            "png_named.jpg", "progressive.jpg", "rgba_png_named.jpg");

    /** Encoded images in memory: sample i is FILES[i % 7], label i % 3; {@code bad} is empty. */
    static Dataset<EncodedImage> images(int size, int bad) {
        return new Dataset<>() {
            public long size() {
                return size;
            }

            public EncodedImage get(long i) {
                String file = FILES.get((int) (i % FILES.size()));
                byte[] bytes = i == bad ? new byte[0] : Fixtures.bytes("decode/" + file);
                return EncodedImage.of(bytes, i % 3, "sample " + i + " (" + file + ")");
            }
        };
    }

    static ImagePipeline pipeline() {
        return ImagePipeline.builder().add(new RandomResizedCrop(24)).add(new RandomHorizontalFlip()).build();
    }

    /** index -> image floats and label, from one epoch. */
    static Map<Long, String> epoch(DataLoader<?> loader) {
        Map<Long, String> out = new HashMap<>();
        for (Batch b : loader) {
            try (b) {
                Tensor images = b.tensor("image");
                Tensor labels = b.tensor("label");
                assertThat(images.shape()).isEqualTo(Shape.of(b.indices().length, 3, 24, 24));
                assertThat(images.dtype()).isEqualTo(DType.F32);
                for (int j = 0; j < b.indices().length; j++) {
                    out.put(b.indices()[j], Arrays.toString(images.select(j).toFloatArray()) + " label " + labels.getLong(j));
                }
            }
        }
        return out;
    }

    @Test
    void fillPathCollatePathAndWorkersGiveTheSameBatches() {
        try (ImagePipeline p = pipeline(); BufferPool pool = BufferPool.builder().name("jpeg test").build()) {
            JpegDataset<EncodedImage> ds = JpegDataset.of(images(23, -1), p);
            Map<Long, String> serial;
            Map<Long, String> workers;
            Map<Long, String> collated;
            try (DataLoader<ImageSample> a = DataLoader.builder(ds).batchSize(4).shuffle(true).seed(5).pool(pool).build();
                 DataLoader<ImageSample> b = DataLoader.builder(ds).batchSize(4).shuffle(true).seed(5).pool(pool)
                         .numWorkers(2).build();
                 DataLoader<ImageSample> c = DataLoader.builder(ds).batchSize(4).shuffle(true).seed(5).pool(pool)
                         .collate(DefaultCollate.instance()).build()) {
                serial = epoch(a);
                workers = epoch(b);
                collated = epoch(c);
                // The next epoch draws other crops.
                assertThat(epoch(a)).isNotEqualTo(serial);
            }
            assertThat(serial).hasSize(23);
            assertThat(workers).isEqualTo(serial);
            assertThat(collated).isEqualTo(serial);
            assertThat(pool.lentCount()).isZero();
        }
    }

    @Test
    void getGivesTheSameImageAsFill() {
        try (ImagePipeline p = ImagePipeline.eval(24)) {
            JpegDataset<EncodedImage> ds = JpegDataset.of(images(7, -1), p);
            try (DataLoader<ImageSample> loader = DataLoader.builder(ds).batchSize(7).build()) {
                Iterator<Batch> it = loader.iterator();
                try (Batch b = it.next()) {
                    for (int j = 0; j < 7; j++) {
                        ImageSample s = ds.get(j);
                        assertThat(s.label()).isEqualTo(j % 3);
                        assertThat(s.image().toFloatArray()).containsExactly(b.tensor("image").select(j).toFloatArray());
                    }
                }
            }
        }
    }

    @Test
    void aBadImageFailsItsBatchNamingTheSample() {
        try (ImagePipeline p = pipeline()) {
            JpegDataset<EncodedImage> ds = JpegDataset.of(images(8, 5), p);
            try (DataLoader<ImageSample> loader = DataLoader.builder(ds).batchSize(4).build()) {
                Iterator<Batch> it = loader.iterator();
                it.next().close();
                assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                        .hasStackTraceContaining("sample 5 (progressive.jpg): empty (0 bytes)");
            }
        }
    }

    @Test
    void layoutFollowsThePipelineAndDtype() {
        try (ImagePipeline p = ImagePipeline.train(64)) {
            assertThat(JpegDataset.of(images(3, -1), p).layout().toString())
                    .isEqualTo("{image: f32 [3, 64, 64], label: i64 []}");
            assertThat(JpegDataset.of(images(3, -1), e -> e, p, DType.BF16).layout().field(0).dtype()).isEqualTo(DType.BF16);
        }
    }
}
