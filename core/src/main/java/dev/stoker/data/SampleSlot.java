package dev.stoker.data;

import dev.stoker.tensor.Tensor;

/**
 * Where one sample goes in the batch being filled: for each field of the {@link SampleLayout}, a
 * view of the sample's row of the batch tensor, with the field's own dtype and shape. Writing into
 * the view writes into the batch; nothing is copied afterwards.
 *
 * <pre>{@code
 * public void fill(long index, SampleSlot slot) {
 *     Tensor image = slot.tensor("image");         // f32 [3, 224, 224], row j of the batch
 *     decoder.decodeInto(index, image.segment());
 *     slot.tensor("label").setLong(0, labels[(int) index]);
 * }
 * }</pre>
 *
 * <p>The memory is not cleared: write every element of every field. Valid only during the
 * {@code fill} call it was given to.
 */
public final class SampleSlot {
    private final BatchSlots batch;
    private final int row;
    private int lastField = -1;

    SampleSlot(BatchSlots batch, int row) {
        this.batch = batch;
        this.row = row;
    }

    /** The row of the field named {@code name}: a tensor of the field's dtype and shape. */
    public Tensor tensor(String name) {
        return tensor(batch.position(name));
    }

    /** The row of field {@code position} of the layout. */
    public Tensor tensor(int position) {
        Tensor t = batch.row(position, row);
        lastField = position;
        return t;
    }

    /**
     * The name of the field this slot last gave out, or {@code null}: for error messages. Unlike
     * {@link BatchSlots#lastField()}, it stays this sample's when several rows are filled at once.
     */
    public String lastField() {
        return lastField < 0 ? null : batch.layout().field(lastField).name();
    }

    /** This sample's position in the batch, from 0. */
    public int row() {
        return row;
    }

    public SampleLayout layout() {
        return batch.layout();
    }

    @Override
    public String toString() {
        return "SampleSlot(row " + row + " of " + batch + ")";
    }
}
