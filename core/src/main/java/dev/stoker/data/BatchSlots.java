package dev.stoker.data;

import dev.stoker.tensor.Tensor;
import java.util.List;
import java.util.Objects;

/**
 * The tensors of one batch being filled: one per field of a {@link SampleLayout}, each
 * {@code (n, ...field shape)}, in pooled memory the loader took for the batch. A
 * {@link FillableDataset} writes sample {@code j} of the batch into row {@code j} of each, through
 * {@link #slot(int)} or, filling a whole batch at once, through the batch tensors themselves.
 *
 * <pre>{@code
 * public void fillBatch(long[] indices, BatchSlots slots) {
 *     Tensor images = slots.tensor("image");        // (n, 3, 224, 224) f32
 *     GaussianFill.fill(images.segment(), images.elements(), seed);
 *     for (int j = 0; j < indices.length; j++) {
 *         slots.slot(j).tensor("label").setLong(0, label(indices[j]));
 *     }
 * }
 * }</pre>
 *
 * <p>The memory is not cleared: every byte of every field must be written. Used by one thread;
 * it remembers the field and row last asked for, so that an error can name them.
 */
public final class BatchSlots {
    private final SampleLayout layout;
    private final Tensor[] tensors;
    private final int size;
    private int lastField = -1;
    private int lastRow = -1;

    /**
     * @param layout  the layout the tensors follow
     * @param tensors one per field, in order, each {@code (n, ...field shape)} of the field's dtype
     * @throws IllegalArgumentException when a tensor does not match its field or the batch sizes differ
     */
    public BatchSlots(SampleLayout layout, List<Tensor> tensors) {
        this.layout = Objects.requireNonNull(layout, "layout");
        if (tensors.size() != layout.size()) {
            throw new IllegalArgumentException("the layout " + layout + " has " + layout.size() + " fields but "
                    + tensors.size() + " tensors were given");
        }
        this.tensors = tensors.toArray(new Tensor[0]);
        int n = -1;
        for (int f = 0; f < this.tensors.length; f++) {
            SampleLayout.Field field = layout.field(f);
            Tensor t = Objects.requireNonNull(this.tensors[f], "tensor of field " + field.name());
            if (t.dtype() != field.dtype() || t.shape().rank() != field.shape().rank() + 1
                    || !t.shape().dropFirst().equals(field.shape())) {
                throw new IllegalArgumentException("field '" + field.name() + "' is " + field.dtype() + " "
                        + field.shape() + " per sample, so its batch tensor must be " + field.dtype()
                        + " (n, ...) of that; got " + t.dtype() + " " + t.shape());
            }
            long rows = t.shape().dim(0);
            if (n >= 0 && rows != n) {
                throw new IllegalArgumentException("the batch tensors hold different numbers of samples: " + n
                        + " for field '" + layout.field(0).name() + "', " + rows + " for '" + field.name() + "'");
            }
            n = (int) rows;
        }
        this.size = n;
    }

    public SampleLayout layout() {
        return layout;
    }

    /** Samples in the batch. */
    public int size() {
        return size;
    }

    /** The whole batch tensor of field {@code position}, {@code (n, ...shape)}. */
    public Tensor tensor(int position) {
        Objects.checkIndex(position, tensors.length);
        lastField = position;
        lastRow = -1;
        return tensors[position];
    }

    /** The whole batch tensor of the field named {@code name}, {@code (n, ...shape)}. */
    public Tensor tensor(String name) {
        return tensor(position(name));
    }

    /** The slot of sample {@code row} of the batch, in {@code [0, size())}. */
    public SampleSlot slot(int row) {
        Objects.checkIndex(row, size);
        return new SampleSlot(this, row);
    }

    /** Row {@code row} of field {@code position}: a view, copying nothing. */
    Tensor row(int position, int row) {
        Objects.checkIndex(position, tensors.length);
        lastField = position;
        lastRow = row;
        return tensors[position].select(row);
    }

    int position(String name) {
        int position = layout.indexOf(name);
        if (position < 0) {
            throw new IllegalArgumentException("the layout has no field '" + name + "'; its fields are " + layout);
        }
        return position;
    }

    /** The name of the field last asked for, or {@code null}: for error messages. */
    public String lastField() {
        return lastField < 0 ? null : layout.field(lastField).name();
    }

    /** The row of the slot last asked for a field, or -1 (none, or a whole batch tensor): for error messages. */
    public int lastRow() {
        return lastRow;
    }

    @Override
    public String toString() {
        return "BatchSlots(" + size + " x " + layout + ")";
    }
}
