package dev.stoker.vision;

import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.SampleStreams;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.vision.transform.SampleRandom;
import java.util.Objects;
import java.util.function.Function;

/**
 * Images from a stream (tar shards, a remote bucket) decoded and transformed straight into the
 * batch: the streaming side of {@link JpegDataset}. The stream yields {@link EncodedImage}s (the
 * bytes still encoded: slices of a mapped shard stay slices), and under a loader with the default
 * collate each one is decoded into its row of the batch's {@code image} tensor in the worker that
 * read it, its label into {@code label}; no per-sample tensor exists (WebDataset's
 * {@code .decode().to_tuple()}, without the copy into a batch). A loader given a collate of its
 * own gets the {@code EncodedImage}s as they are.
 *
 * <pre>{@code
 * TarShardDataset shards = TarShardDataset.builder("shards/train-{000000..000127}.tar").shuffleBuffer(1000).build();
 * try (ImagePipeline train = ImagePipeline.train(224)) {
 *     JpegStream<TarSample> images = JpegStream.of(shards,
 *             s -> new EncodedImage(s.segment("jpg"), Long.parseLong(s.string("cls").strip()), s.key()), train);
 *     DataLoader<EncodedImage> loader = DataLoader.builder(images).batchSize(64).numWorkers(4).build();
 *     // batches: {image: (64, 3, 224, 224) f32, label: (64) i64}
 * }
 * }</pre>
 *
 * <p>Random transforms draw from a stream keyed by the loader's seed and epoch and the image's
 * key ({@code SampleRandom.of(seed, epoch, hash(key))}, where {@link JpegDataset} uses the
 * index), so an image gets the same crop and flip whichever worker reads it, and after a resume.
 *
 * <p>The pipeline stays the caller's: close it after the loaders that use this dataset.
 *
 * @param <S> the source stream's sample type
 */
public final class JpegStream<S> implements FillableStreamingDataset<EncodedImage> {
    private final StreamingDataset<S> source;
    private final Function<? super S, EncodedImage> encoded;
    private final ImagePipeline pipeline;
    private final SampleLayout layout;

    private JpegStream(StreamingDataset<S> source, Function<? super S, EncodedImage> encoded, ImagePipeline pipeline,
                       DType dtype) {
        this.source = Objects.requireNonNull(source, "source");
        this.encoded = Objects.requireNonNull(encoded, "encoded");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.layout = SampleLayout.of(new SampleLayout.Field("image", Objects.requireNonNull(dtype, "dtype"),
                pipeline.outputShape()), new SampleLayout.Field("label", DType.I64, Shape.scalar()));
    }

    /** Float32 images from {@code source}'s stream, each sample read as an {@link EncodedImage} by {@code encoded}. */
    public static <S> JpegStream<S> of(StreamingDataset<S> source, Function<? super S, EncodedImage> encoded,
                                       ImagePipeline pipeline) {
        return new JpegStream<>(source, encoded, pipeline, DType.F32);
    }

    /** As {@link #of}, with images of {@code dtype}: F32, F16, BF16 (normalized) or U8 (pixels). */
    public static <S> JpegStream<S> of(StreamingDataset<S> source, Function<? super S, EncodedImage> encoded,
                                       ImagePipeline pipeline, DType dtype) {
        return new JpegStream<>(source, encoded, pipeline, dtype);
    }

    @Override
    public SampleStream<EncodedImage> open(WorkerContext context) {
        return SampleStreams.timedReads(source.open(context), s -> {
            EncodedImage e = encoded.apply(s);
            if (e == null) {
                throw new IllegalStateException(name() + ": no image for a sample of the stream");
            }
            return e;
        });
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(EncodedImage e, SampleSlot slot) {
        // keyed on the image, not its place in a stream: see the class comment
        pipeline.apply(e.bytes(), e.key(), slot.tensor(0), SampleRandom.ofSample(hash(e.key())));
        slot.tensor(1).setLong(0, e.label());
    }

    /** FNV-1a over the key's characters: 64 bits, so that distinct keys practically never share a stream. */
    static long hash(String key) {
        long h = 0xCBF2_9CE4_8422_2325L;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x0000_0100_0000_01B3L;
        }
        return h;
    }

    public ImagePipeline pipeline() {
        return pipeline;
    }

    @Override
    public String name() {
        return "jpeg " + source.name();
    }
}
