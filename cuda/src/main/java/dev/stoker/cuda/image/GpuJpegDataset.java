package dev.stoker.cuda.image;

import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.decode.DecodeSession;
import dev.stoker.vision.decode.ImageDecodeException;
import dev.stoker.vision.decode.ImageHeader;
import dev.stoker.vision.transform.Geometry;
import dev.stoker.vision.transform.SampleRandom;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.function.Function;

/**
 * The CPU's half of decoding JPEGs on the GPU, DALI's "mixed" split: the loader's workers read
 * each file, read its header and draw its crop and flip (the same draws as the CPU path's
 * {@link dev.stoker.vision.JpegDataset}, from the same {@link SampleRandom}), and write the
 * encoded bytes and that plan into a (pinned) batch. {@link GpuJpegDecoder} then decodes the batch
 * with nvJPEG and resamples, flips and normalizes it on the GPU.
 *
 * <p>A batch is a map: {@code jpeg} {@code (n, maxJpegBytes)} u8, {@code jpeg_bytes} {@code (n)}
 * i64, {@code geometry} {@code (n, 19)} i64 and {@code label} {@code (n)} i64.
 *
 * <pre>{@code
 * var folder = ImageFolder.scan(root).dataset();
 * GpuJpegDataset<ImageBytes> jpegs = GpuJpegDataset.of(folder,
 *         s -> EncodedImage.of(s.bytes(), s.label(), s.path().toString()), ImagePipeline.train(224), 1 << 20);
 * try (DataLoader<GpuJpegSample> loader = DataLoader.builder(jpegs).batchSize(256).numWorkers(4)
 *              .pinMemory(true).build();
 *      GpuJpegDecoder decoder = GpuJpegDecoder.builder(cuda, jpegs).build();
 *      DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, loader.iterator()).stage(decoder).build()) {
 *     while (gpu.hasNext()) {
 *         try (DeviceBatch b = gpu.next()) {
 *             step(b.tensor("image"), b.tensor("label"));   // (256, 3, 224, 224) f32 on the GPU
 *         }
 *     }
 * }
 * }</pre>
 *
 * @param <S> the source's sample type
 */
public final class GpuJpegDataset<S> implements FillableDataset<GpuJpegSample> {
    static final String JPEG = "jpeg";
    static final String JPEG_BYTES = "jpeg_bytes";
    static final String GEOMETRY = "geometry";
    static final String LABEL = "label";

    private final Dataset<S> source;
    private final Function<? super S, EncodedImage> encoded;
    private final ImagePipeline pipeline;
    private final int maxJpegBytes;
    private final SampleLayout layout;

    private GpuJpegDataset(Dataset<S> source, Function<? super S, EncodedImage> encoded, ImagePipeline pipeline,
                           int maxJpegBytes) {
        this.source = Objects.requireNonNull(source, "source");
        this.encoded = Objects.requireNonNull(encoded, "encoded");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        if (maxJpegBytes < 1) {
            throw new IllegalArgumentException("maxJpegBytes is positive, not " + maxJpegBytes);
        }
        if (!pipeline.pixelOps().isEmpty() || !pipeline.tensorOps().isEmpty()) {
            throw new IllegalArgumentException("the GPU path runs the crops, resize, flip and normalize; " + pipeline
                    + " also has " + (pipeline.pixelOps().isEmpty() ? pipeline.tensorOps() : pipeline.pixelOps())
                    + ": run it on the CPU path (JpegDataset)");
        }
        pipeline.outputShape(); // a fixed output size, or a message saying why not
        this.maxJpegBytes = maxJpegBytes;
        this.layout = SampleLayout.of(
                new SampleLayout.Field(JPEG, DType.U8, Shape.of(maxJpegBytes)),
                new SampleLayout.Field(JPEG_BYTES, DType.I64, Shape.scalar()),
                new SampleLayout.Field(GEOMETRY, DType.I64, Shape.of(GpuSampleRecord.WORDS)),
                new SampleLayout.Field(LABEL, DType.I64, Shape.scalar()));
    }

    /**
     * JPEGs from {@code source}, to be transformed by {@code pipeline} on the GPU.
     *
     * @param encoded      a sample's bytes, label and key (the key names it in errors)
     * @param pipeline     geometric transforms and a normalize only (crops, resizes, flips)
     * @param maxJpegBytes the largest file a batch row holds; a larger one is an error naming it
     */
    public static <S> GpuJpegDataset<S> of(Dataset<S> source, Function<? super S, EncodedImage> encoded,
                                           ImagePipeline pipeline, int maxJpegBytes) {
        return new GpuJpegDataset<>(source, encoded, pipeline, maxJpegBytes);
    }

    @Override
    public long size() {
        return source.size();
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    public ImagePipeline pipeline() {
        return pipeline;
    }

    public int maxJpegBytes() {
        return maxJpegBytes;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        EncodedImage e = encoded(index);
        MemorySegment bytes = e.bytes();
        plan(index, e, slot.tensor(GEOMETRY).segment());
        MemorySegment.copy(bytes, 0, slot.tensor(JPEG).segment(), 0, bytes.byteSize());
        slot.tensor(JPEG_BYTES).setLong(0, bytes.byteSize());
        slot.tensor(LABEL).setLong(0, e.label());
    }

    @Override
    public GpuJpegSample get(long index) {
        EncodedImage e = encoded(index);
        MemorySegment record = MemorySegment.ofArray(new long[GpuSampleRecord.WORDS]);
        plan(index, e, record);
        return new GpuJpegSample(e.bytes().toArray(ValueLayout.JAVA_BYTE), record.toArray(ValueLayout.JAVA_LONG),
                e.label());
    }

    @Override
    public void willNeed(long[] indices) {
        source.willNeed(indices);
    }

    /** Reads the header, draws the transforms and writes the resample record. */
    private void plan(long index, EncodedImage e, MemorySegment record) {
        long size = e.bytes().byteSize();
        if (size > maxJpegBytes) {
            throw new ImageDecodeException(e.key(), size + " bytes, more than the " + maxJpegBytes
                    + " a batch row holds (GpuJpegDataset's maxJpegBytes)");
        }
        ImageHeader header;
        try (DecodeSession session = pipeline.decoder().session()) {
            header = session.open(e.bytes(), e.key());
        }
        if (!header.format().startsWith("JPEG")) {
            throw new ImageDecodeException(e.key(), "a " + header.format() + " image; the GPU path decodes JPEGs only");
        }
        Geometry g = pipeline.plan(header.width(), header.height(), SampleRandom.ofSample(index));
        GpuSampleRecord.write(record, 0, g, header.width(), header.height(), e.key());
    }

    private EncodedImage encoded(long index) {
        EncodedImage e = encoded.apply(source.get(index));
        if (e == null) {
            throw new IllegalStateException(name() + ": no image for sample " + index);
        }
        return e;
    }


    /** The key of sample {@code index}, for the decoder's errors. */
    String describe(long index) {
        try {
            EncodedImage e = encoded.apply(source.get(index));
            return e == null ? "sample " + index : e.key() + " (sample " + index + ")";
        } catch (RuntimeException ex) {
            return "sample " + index;
        }
    }

    @Override
    public String name() {
        return "gpu-jpeg " + source.name();
    }
}
