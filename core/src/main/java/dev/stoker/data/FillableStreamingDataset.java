package dev.stoker.data;

/**
 * A streaming dataset whose samples are written straight into the batch, the streaming side of
 * {@link FillableDataset}: its stream yields light samples (encoded bytes, a row's location) and
 * {@link #fill} turns each one into its row of the batch's pooled tensors, in the worker thread.
 * Under a loader with the default collate no per-sample tensor exists and nothing is collated.
 *
 * <p>The batch is the layout's tensors arranged as {@link dev.stoker.collate.DefaultCollate}
 * arranges a sample of that form (a map of named fields, a list, or one tensor). A loader given a
 * collate of its own collates the stream's samples as they are, without {@code fill}.
 *
 * <pre>{@code
 * // stream yields encoded JPEG bytes; fill decodes each into its row: {image: (n, 3, 224, 224), label: (n)}
 * FillableStreamingDataset<EncodedImage> images = JpegStream.of(shards,
 *         s -> new EncodedImage(s.segment("jpg"), Long.parseLong(s.string("cls").strip()), s.key()), pipeline);
 * DataLoader.builder(images).batchSize(64).numWorkers(4).build();
 * }</pre>
 *
 * @param <T> what the stream yields
 */
public interface FillableStreamingDataset<T> extends StreamingDataset<T> {

    /** The fields of one sample as it lands in the batch: dtype and shape of each. The same on every call. */
    SampleLayout layout();

    /**
     * Writes {@code sample}, as the stream yielded it, into {@code slot}: every element of every
     * field. Called from the worker that read it, inside its fetch (see {@link WorkerContext}).
     */
    void fill(T sample, SampleSlot slot);
}
