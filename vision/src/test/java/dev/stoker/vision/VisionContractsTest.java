package dev.stoker.vision;

import dev.stoker.contract.FillableDatasetContract;
import dev.stoker.contract.FillableStreamContract;
import dev.stoker.contract.MapDatasetContract;
import dev.stoker.contract.RangeStream;
import dev.stoker.contract.StreamDatasetContract;
import dev.stoker.data.Dataset;
import dev.stoker.vision.transform.CenterCrop;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Nested;

/**
 * The image datasets run the contracts that apply to them: JPEG, PNG, CMYK and grayscale files
 * decoded, randomly cropped and flipped (draws keyed on the sample, so the same on every path).
 */
class VisionContractsTest {
    private static final List<String> FILES = List.of("rgb420_q90.jpg", "odd_37x23.jpg", "grayscale.jpg", "cmyk.jpg",
            "png_named.jpg", "progressive.jpg", "rgba_png_named.jpg");

    static EncodedImage encoded(long i) {
        return EncodedImage.of(Fixtures.bytes("decode/" + FILES.get((int) (i % FILES.size()))), i % 3, "k" + i);
    }

    /** Nine encoded images, {@code get} checking its bounds as the contract asks of every dataset. */
    static JpegDataset<EncodedImage> jpegs(ImagePipeline p) {
        Dataset<EncodedImage> source = new Dataset<>() {
            public long size() {
                return 9;
            }

            public EncodedImage get(long i) {
                return encoded(Objects.checkIndex(i, 9L));
            }
        };
        return JpegDataset.of(source, p);
    }

    /**
     * Decoded and center-cropped: no random draw, so that a sample read outside a loader equals the
     * one the loader delivers (random draws are keyed on the batch's generator, which only a loader has).
     */
    static ImagePipeline fixed() {
        return ImagePipeline.builder().add(new CenterCrop(16)).build();
    }

    static JpegStream<Long> jpegStream(ImagePipeline p) {
        return JpegStream.of(new RangeStream(0, 9), VisionContractsTest::encoded, p);
    }

    @Nested
    class Images extends MapDatasetContract<ImageSample> {
        @Override
        protected Opened<ImageSample> open() {
            ImagePipeline p = fixed();
            return new Opened<>(jpegs(p), p);
        }

        @Override
        protected Object content(ImageSample s) {
            return Arrays.toString(s.image().toFloatArray()) + " label " + s.label();
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false; // the pipeline's close frees its decoders; a read after it makes new ones
        }
    }

    @Nested
    class ImagesFill extends FillableDatasetContract<ImageSample> {
        @Override
        protected Opened<ImageSample> open() {
            ImagePipeline p = JpegDatasetTest.pipeline();
            return new Opened<>(jpegs(p), p);
        }
    }

    @Nested
    class Stream extends StreamDatasetContract<EncodedImage> {
        @Override
        protected Opened<EncodedImage> open() {
            ImagePipeline p = JpegDatasetTest.pipeline();
            return new Opened<>(jpegStream(p), p);
        }

        @Override
        protected Object content(EncodedImage e) {
            return e.key() + " " + e.label() + " " + Arrays.toString(e.bytes().toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Nested
    class StreamFill extends FillableStreamContract<EncodedImage> {
        @Override
        protected Opened<EncodedImage> open() {
            ImagePipeline p = JpegDatasetTest.pipeline();
            return new Opened<>(jpegStream(p), p);
        }
    }
}
