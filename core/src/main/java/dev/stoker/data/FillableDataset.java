package dev.stoker.data;

/**
 * A dataset that writes its samples straight into the batch: it declares the layout of a sample
 * ({@link #layout()}) and fills a sample's slot of the batch's pooled tensors ({@link #fill}),
 * so the loader skips collate and allocates nothing per sample (DESIGN.md, idea 1).
 *
 * <p>The loader takes this path when the dataset is fillable and no collate function was given
 * to its builder; the batch looks exactly as {@link dev.stoker.collate.DefaultCollate} would make
 * it from the samples {@link #get} returns, so the code that reads batches does not change. A
 * loader given a collate (any, {@code DefaultCollate.instance()} included) calls {@link #get}
 * and collates, as for any dataset.
 *
 * <p>The contract: {@code fill(i, slot)} writes every byte of every field of the layout, and
 * writes what collating {@code get(i)} would have given; {@link #layout()} returns the same
 * layout every time. Like {@code get}, {@code fill} is called from several worker threads at once
 * (each with its own slots).
 *
 * <pre>{@code
 * final class Points implements FillableDataset<float[]> { // samples are float[2]; batch (n, 2) f32
 *     public long size() { return 1000; }
 *     public float[] get(long i) { return new float[] {i, i * i}; }
 *     public SampleLayout layout() {
 *         return SampleLayout.single(new SampleLayout.Field("xy", DType.F32, Shape.of(2)));
 *     }
 *     public void fill(long i, SampleSlot slot) {
 *         Tensor xy = slot.tensor(0);
 *         xy.setFloat(0, i);
 *         xy.setFloat(1, i * i);
 *     }
 * }
 * }</pre>
 *
 * <p>NOTE: the {@link SampleLayout.Form} must match what {@code get} returns: a record or map
 * collates to a map ({@link SampleLayout#of}), a list to a list ({@link SampleLayout#tuple}, a
 * one-element list too), a bare tensor or array to a tensor ({@link SampleLayout#single}).
 *
 * @param <T> the sample type of {@link #get}
 */
public interface FillableDataset<T> extends Dataset<T> {

    /** The fields of one sample: dtype and shape of each. The same on every call. */
    SampleLayout layout();

    /**
     * Writes sample {@code index} into {@code slot}: every element of every field.
     *
     * @throws IndexOutOfBoundsException for an index outside the dataset
     */
    void fill(long index, SampleSlot slot);

    /**
     * Writes the samples at {@code indices} into the batch, sample {@code j} into row {@code j}:
     * the batched fetch ({@link #getBatch}, PyTorch's {@code __getitems__}) of the fill path. The
     * default is a loop over {@link #fill}; a dataset that can fill a batch more cheaply at once
     * (one read, one random fill, one request) overrides it, and the loader calls it once per
     * batch.
     */
    default void fillBatch(long[] indices, BatchSlots slots) {
        for (int j = 0; j < indices.length; j++) {
            fill(indices[j], slots.slot(j));
        }
    }
}
