package dev.stoker.data;

import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Tensors already in memory, sample {@code i} being row {@code i} of each (their first axis is
 * the sample axis): PyTorch's {@code TensorDataset}. {@link #get} returns views of the rows and
 * copies nothing; under a loader without a collate of its own the rows are copied straight into
 * the batch ({@link #fill}, one {@code MemorySegment.copy} per row and tensor; {@link #fillBatch},
 * the gather of a whole batch, tensor by tensor).
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofShared()) {
 *     Tensor images = Tensor.allocate(arena, DType.F32, Shape.of(2000, 3, 224, 224));
 *     Tensor labels = Tensor.allocate(arena, DType.I64, Shape.of(2000));
 *     TensorDataset<List<Tensor>> ds = TensorDataset.of(images, labels);
 *     ds.get(7);    // [f32 [3, 224, 224], i64 []]: views of row 7
 *     // batches: [images (n, 3, 224, 224) f32, labels (n) i64], batch.tensor(0), batch.tensor(1)
 *
 *     TensorDataset<Map<String, Tensor>> named = TensorDataset.of(Map.of("image", images));
 *     // batches: {image: (n, 3, 224, 224) f32}, batch.tensor("image")
 * }
 * }</pre>
 *
 * <p>NOTE: the dataset does not own the tensors' memory. Keep it alive (its arena open) while any
 * loader reads the dataset and any of its views is in use. The tensors are only read, so the
 * dataset is safe for any number of threads, as long as nobody writes the tensors meanwhile.
 *
 * @param <S> the sample: {@code List<Tensor>} (from {@link #of(Tensor...)}) or
 *            {@code Map<String, Tensor>} (from {@link #of(Map)})
 */
public final class TensorDataset<S> implements FillableDataset<S> {
    private final Tensor[] tensors;
    private final long[] rowBytes;
    private final long size;
    private final SampleLayout layout;

    private TensorDataset(SampleLayout.Form form, List<String> names, List<Tensor> tensors) {
        if (tensors.isEmpty()) {
            throw new IllegalArgumentException("a TensorDataset needs at least one tensor");
        }
        this.tensors = tensors.toArray(new Tensor[0]);
        this.rowBytes = new long[this.tensors.length];
        SampleLayout.Field[] fields = new SampleLayout.Field[this.tensors.length];
        long rows = -1;
        for (int f = 0; f < this.tensors.length; f++) {
            Tensor t = Objects.requireNonNull(this.tensors[f], "tensor " + names.get(f));
            if (t.shape().rank() == 0) {
                throw new IllegalArgumentException("tensor " + names.get(f) + " is a scalar; each tensor needs a first"
                        + " axis of samples");
            }
            long n = t.shape().dim(0);
            if (rows >= 0 && n != rows) {
                throw new IllegalArgumentException("the tensors hold different numbers of samples: tensor "
                        + names.getFirst() + " has " + rows + " rows (" + this.tensors[0].shape() + "), tensor "
                        + names.get(f) + " has " + n + " (" + t.shape() + ")");
            }
            rows = n;
            fields[f] = new SampleLayout.Field(names.get(f), t.dtype(), t.shape().dropFirst());
            rowBytes[f] = fields[f].bytes();
        }
        this.size = rows;
        this.layout = new SampleLayout(form, List.of(fields));
    }

    /**
     * Samples of the rows of {@code tensors}, as a list (PyTorch's tuple): batches are a list of
     * tensors in this order. Fields are named by position, {@code "0"}, {@code "1"}, ...
     *
     * @throws IllegalArgumentException when there is no tensor, one is a scalar, or their first
     *     dimensions differ
     */
    public static TensorDataset<List<Tensor>> of(Tensor... tensors) {
        List<Tensor> list = Arrays.asList(tensors.clone());
        List<String> names = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            names.add(Integer.toString(i));
        }
        return new TensorDataset<>(SampleLayout.Form.LIST, names, list);
    }

    /**
     * Samples of the rows of named tensors, as a map: batches are a map from name to tensor, in
     * the map's iteration order (use a {@code LinkedHashMap} or {@code Map.of} of one entry to
     * fix it).
     *
     * @throws IllegalArgumentException as {@link #of(Tensor...)}
     */
    public static TensorDataset<Map<String, Tensor>> of(Map<String, Tensor> tensors) {
        return new TensorDataset<>(SampleLayout.Form.MAP, List.copyOf(tensors.keySet()),
                List.copyOf(tensors.values()));
    }

    @Override
    public long size() {
        return size;
    }

    /** Row {@code index} of every tensor, as views sharing the tensors' memory. */
    @Override
    @SuppressWarnings("unchecked") // S is List<Tensor> for LIST and Map<String, Tensor> for MAP, by the factories
    public S get(long index) {
        checkIndex(index);
        if (layout.form() == SampleLayout.Form.MAP) {
            Map<String, Tensor> out = new LinkedHashMap<>();
            for (int f = 0; f < tensors.length; f++) {
                out.put(layout.field(f).name(), tensors[f].select(index));
            }
            return (S) out;
        }
        Tensor[] rows = new Tensor[tensors.length];
        for (int f = 0; f < tensors.length; f++) {
            rows[f] = tensors[f].select(index);
        }
        return (S) Collections.unmodifiableList(Arrays.asList(rows));
    }

    /** One field per tensor: its dtype and the shape of one row. */
    @Override
    public SampleLayout layout() {
        return layout;
    }

    /** Copies row {@code index} of every tensor into the slot. */
    @Override
    public void fill(long index, SampleSlot slot) {
        checkIndex(index);
        for (int f = 0; f < tensors.length; f++) {
            MemorySegment.copy(tensors[f].segment(), index * rowBytes[f], slot.tensor(f).segment(), 0, rowBytes[f]);
        }
    }

    /** Gathers the rows at {@code indices} into the batch, one tensor at a time. */
    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        for (long i : indices) {
            checkIndex(i);
        }
        for (int f = 0; f < tensors.length; f++) {
            MemorySegment src = tensors[f].segment();
            MemorySegment dst = slots.tensor(f).segment();
            long row = rowBytes[f];
            for (int j = 0; j < indices.length; j++) {
                MemorySegment.copy(src, indices[j] * row, dst, j * row, row);
            }
        }
    }

    /** The tensor of field {@code position}, all samples. */
    public Tensor tensor(int position) {
        return tensors[Objects.checkIndex(position, tensors.length)];
    }

    private void checkIndex(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name() + ": index " + index + " is outside [0, " + size + ")");
        }
    }

    @Override
    public String toString() {
        return name() + "(" + size + " samples of " + layout + ")";
    }
}
