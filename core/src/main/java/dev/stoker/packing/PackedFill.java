package dev.stoker.packing;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;

/** {@link PackedDataset#fillable()}: the rows written straight into the batch, four int64 fields. */
final class PackedFill implements FillableDataset<PackedRow> {
    private final PackedDataset rows;
    private final SampleLayout layout;

    PackedFill(PackedDataset rows) {
        this.rows = rows;
        Shape row = Shape.of(rows.maxLength());
        this.layout = SampleLayout.of(new SampleLayout.Field("input_ids", DType.I64, row),
                new SampleLayout.Field("labels", DType.I64, row), new SampleLayout.Field("position_ids", DType.I64, row),
                new SampleLayout.Field("attention_mask", DType.I64, row));
    }

    @Override
    public long size() {
        return rows.size();
    }

    @Override
    public PackedRow get(long index) {
        return rows.get(index);
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        rows.fill(index, slot.tensor(0).segment(), slot.tensor(1).segment(), slot.tensor(2).segment(),
                slot.tensor(3).segment());
    }

    @Override
    public String name() {
        return rows.name() + " (fill path)";
    }
}
