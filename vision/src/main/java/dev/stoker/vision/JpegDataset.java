package dev.stoker.vision;

import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.WorkerContext;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.SampleRandom;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.Function;

/**
 * Images decoded and transformed straight into the batch: a dataset of encoded images (an image
 * folder, tar shards, LMDB values) seen through an {@link ImagePipeline}. Under a loader with the
 * default collate it takes the fill path: each image is decoded and written, normalized, into its
 * row of the batch's {@code image} tensor, and its label into {@code label}; no per-sample tensor
 * exists. {@link #get} gives the same values as an {@link ImageSample} on the heap, for any other
 * use.
 *
 * <pre>{@code
 * ImageFolder folder = ImageFolder.scan(Path.of("data/jpeg"));
 * try (ImagePipeline train = ImagePipeline.train(224)) {
 *     JpegDataset<LabeledFile> images = JpegDataset.ofFiles(folder.fileDataset(),
 *             f -> new ImageFile(f.path(), f.label()), train);
 *     DataLoader<ImageSample> loader = DataLoader.builder(images).batchSize(64).shuffle(true).seed(7).build();
 *     // batches: {image: (64, 3, 224, 224) f32, label: (64) i64}
 * }
 * }</pre>
 *
 * <p>Files ({@link #ofFiles}) are read straight into the decoder's off-heap buffer. Samples that
 * are bytes already ({@link #of}: a tar shard's slice, an LMDB value, bytes a dataset read) are
 * decoded where they lie.
 *
 * <p>Random transforms draw from {@code SampleRandom.of(seed, epoch, index)} with the loader's
 * seed and epoch ({@link WorkerContext#current()}; seed 0, epoch 0 outside a loader), so a
 * sample's crop and flip depend on neither the worker nor the thread that loads it.
 *
 * <p>The pipeline stays the caller's: close it after the loaders that use this dataset.
 *
 * @param <S> the source dataset's sample type
 */
public final class JpegDataset<S> implements FillableDataset<ImageSample> {
    private final Dataset<S> source;
    private final Input<S> input;
    private final ImagePipeline pipeline;
    private final DType dtype;
    private final Shape imageShape;
    private final SampleLayout layout;

    /** Where a sample's encoded image is: bytes the source gives, or a file to read. */
    private sealed interface Input<S> {}

    private record Bytes<S>(Function<? super S, EncodedImage> encoded) implements Input<S> {
        Bytes {
            Objects.requireNonNull(encoded, "encoded");
        }
    }

    private record Files<S>(Function<? super S, ImageFile> file) implements Input<S> {
        Files {
            Objects.requireNonNull(file, "file");
        }
    }

    private JpegDataset(Dataset<S> source, Input<S> input, ImagePipeline pipeline, DType dtype) {
        this.source = Objects.requireNonNull(source, "source");
        this.input = input;
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        this.imageShape = pipeline.outputShape();
        this.layout = SampleLayout.of(new SampleLayout.Field("image", dtype, imageShape),
                new SampleLayout.Field("label", DType.I64, Shape.scalar()));
    }

    /** Float32 images from {@code source}, each sample read as an {@link EncodedImage} by {@code encoded}. */
    public static <S> JpegDataset<S> of(Dataset<S> source, Function<? super S, EncodedImage> encoded,
                                        ImagePipeline pipeline) {
        return new JpegDataset<>(source, new Bytes<>(encoded), pipeline, DType.F32);
    }

    /** As {@link #of}, with images of {@code dtype}: F32, F16, BF16 (normalized) or U8 (pixels). */
    public static <S> JpegDataset<S> of(Dataset<S> source, Function<? super S, EncodedImage> encoded,
                                        ImagePipeline pipeline, DType dtype) {
        return new JpegDataset<>(source, new Bytes<>(encoded), pipeline, dtype);
    }

    /** A dataset whose samples are already {@link EncodedImage}s. */
    public static JpegDataset<EncodedImage> of(Dataset<EncodedImage> source, ImagePipeline pipeline) {
        return new JpegDataset<>(source, new Bytes<>(Function.identity()), pipeline, DType.F32);
    }

    /**
     * Float32 images from files: {@code file} names sample {@code s}'s file and label, and the
     * file is read into the decoder's own buffer ({@link ImagePipeline#apply(java.nio.file.Path,
     * Tensor, SampleRandom)}) rather than into an array per image. For a folder of images, the
     * source is its {@code fileDataset()}, which reads nothing.
     */
    public static <S> JpegDataset<S> ofFiles(Dataset<S> source, Function<? super S, ImageFile> file,
                                             ImagePipeline pipeline) {
        return new JpegDataset<>(source, new Files<>(file), pipeline, DType.F32);
    }

    /** As {@link #ofFiles(Dataset, Function, ImagePipeline)}, with images of {@code dtype}. */
    public static <S> JpegDataset<S> ofFiles(Dataset<S> source, Function<? super S, ImageFile> file,
                                             ImagePipeline pipeline, DType dtype) {
        return new JpegDataset<>(source, new Files<>(file), pipeline, dtype);
    }

    @Override
    public long size() {
        return source.size();
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        slot.tensor(1).setLong(0, render(index, slot.tensor(0)));
    }

    @Override
    public void willNeed(long[] indices) {
        source.willNeed(indices); // a remote source starts its fetches
    }

    @Override
    public ImageSample get(long index) {
        Tensor image = new Tensor(heap(imageShape.elements() * dtype.byteSize()), dtype, imageShape);
        long label = render(index, image);
        return new ImageSample(image, label);
    }

    /** Decodes sample {@code index}'s image and renders it into {@code image}; returns its label. */
    private long render(long index, Tensor image) {
        SampleRandom random = SampleRandom.ofSample(index);
        switch (input) {
            case Bytes<S> b -> {
                long t = Stages.start();
                EncodedImage e = b.encoded().apply(source.get(index));
                Stages.end(Stage.READ, t);
                if (e == null) {
                    throw new IllegalStateException(name() + ": no image for sample " + index);
                }
                pipeline.apply(e.bytes(), e.key(), image, random);
                return e.label();
            }
            case Files<S> f -> {
                // the file is read (and timed as READ) by the decoder, into its own buffer
                ImageFile file = f.file().apply(source.get(index));
                if (file == null) {
                    throw new IllegalStateException(name() + ": no image file for sample " + index);
                }
                pipeline.apply(file.path(), image, random);
                return file.label();
            }
        }
    }

    private static MemorySegment heap(long bytes) {
        // A long[] keeps the memory 8-byte aligned for any dtype.
        return MemorySegment.ofArray(new long[(int) ((bytes + 7) / 8)]).asSlice(0, bytes);
    }

    public ImagePipeline pipeline() {
        return pipeline;
    }

    @Override
    public String name() {
        return "jpeg " + source.name();
    }
}
