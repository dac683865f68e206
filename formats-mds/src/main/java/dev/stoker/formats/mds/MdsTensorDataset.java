package dev.stoker.formats.mds;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Chosen fixed-shape columns of an {@link MdsDataset} as a fillable dataset: the loader's fill path
 * copies each sample's column bytes straight from the memory-mapped shard into its row of the
 * batch, with no object per sample (uint32 and uint64 are widened to int64 in that copy). The batch
 * is {@code {column: (n, ...shape)}}: {@code (n)} for a scalar column.
 *
 * <pre>{@code
 * try (MdsDataset mds = MdsDataset.open(Path.of("/data/mds"));
 *      DataLoader<Map<String, Tensor>> loader =
 *              DataLoader.builder(mds.tensors("x", "y")).batchSize(256).shuffle(true).build()) {
 *     for (Batch b : loader) {
 *         try (b) { Tensor x = b.tensor("x"); Tensor y = b.tensor("y"); ... }
 *     }
 * }
 * }</pre>
 *
 * {@link #get} gives the same values as fresh heap tensors, so a loader given a collate function
 * makes the same batches.
 */
public final class MdsTensorDataset implements FillableDataset<Map<String, Tensor>> {
    private final MdsDataset mds;
    private final int[] columns;
    private final MdsNumber[] numbers;
    private final long[] bytes;
    private final SampleLayout layout;

    MdsTensorDataset(MdsDataset mds, String... names) {
        this.mds = Objects.requireNonNull(mds, "mds");
        if (names.length == 0) {
            throw new IllegalArgumentException("name at least one column of " + mds.name());
        }
        this.columns = new int[names.length];
        this.numbers = new MdsNumber[names.length];
        this.bytes = new long[names.length];
        List<SampleLayout.Field> fields = new ArrayList<>();
        for (int f = 0; f < names.length; f++) {
            MdsColumn c = mds.column(names[f]);
            MdsEncoding e = c.encoding();
            if (!e.isFixedTensor()) {
                throw new IllegalArgumentException("column '" + c.name() + "' is " + e.text() + ": the fill path"
                        + " takes numeric scalars and ndarray:DTYPE:SHAPE columns, whose values all have one shape;"
                        + " read other columns through MdsDataset.get");
            }
            columns[f] = mds.position(names[f]);
            numbers[f] = e.number();
            bytes[f] = c.size();
            Shape shape = e.shape() == null ? Shape.scalar() : Shape.of(e.shape());
            fields.add(new SampleLayout.Field(c.name(), e.number().dtype(), shape));
        }
        this.layout = new SampleLayout(SampleLayout.Form.MAP, fields);
    }

    @Override
    public long size() {
        return mds.size();
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        try {
            for (int f = 0; f < columns.length; f++) {
                copyColumn(index, f, slot.tensor(f).segment());
            }
            MapFaults.deliverPending();
        } catch (InternalError e) { // the shard was cut short under its map: name it
            throw mds.changed(e, index);
        }
    }

    /** Sample {@code index} as a map from column name to a fresh heap tensor of its value. */
    @Override
    public Map<String, Tensor> get(long index) {
        Objects.checkIndex(index, mds.size());
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (int f = 0; f < columns.length; f++) {
            SampleLayout.Field field = layout.field(f);
            // On the heap: the young generation frees it at once (see Hdf5Dataset.get)
            long[] words = new long[Math.toIntExact((field.bytes() + 7) / 8)];
            Tensor t = new Tensor(MemorySegment.ofArray(words), field.dtype(), field.shape());
            try {
                copyColumn(index, f, t.segment());
                MapFaults.deliverPending();
            } catch (InternalError e) {
                throw mds.changed(e, index);
            }
            out.put(field.name(), t);
        }
        return out;
    }

    /** Field {@code f} of sample {@code index} into {@code dst}, widened where the stored type is. */
    private void copyColumn(long index, int f, MemorySegment dst) {
        MemorySegment value = mds.columnBytes(index, columns[f], bytes[f]);
        long bad = NdArrayValue.copy(numbers[f], value, 0, bytes[f], dst);
        if (bad >= 0) {
            throw NdArrayValue.tooLarge(mds.where(index) + ", column '" + layout.field(f).name() + "'",
                    value.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8 * bad), bad);
        }
    }

    @Override
    public void willNeed(long[] indices) {
        mds.willNeed(indices);
    }

    @Override
    public String name() {
        return "MdsTensorDataset(" + mds.directory() + ": " + layout + ")";
    }
}
