package dev.stoker.formats.mds;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
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
        Objects.checkIndex(index, mds.size());
        int s = mds.shardOf(index);
        MdsShard shard = mds.shard(s);
        long local = index - mds.firstSample(s);
        long base = shard.start(local);
        long length = shard.end(local) - base;
        MemorySegment data = shard.data();
        for (int f = 0; f < columns.length; f++) {
            long start = SampleLocator.start(shard, index, local, data, base, length, columns[f]);
            long bad = NdArrayValue.copy(numbers[f], data, base + start, bytes[f], slot.tensor(f).segment());
            if (bad >= 0) {
                throw NdArrayValue.tooLarge(SampleLocator.where(shard, index, local) + ", column '"
                        + layout.field(f).name() + "'", data.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED,
                        base + start + 8 * bad), bad);
            }
        }
    }

    /** Sample {@code index} as a map from column name to a fresh heap tensor of its value. */
    @Override
    public Map<String, Tensor> get(long index) {
        Objects.checkIndex(index, mds.size());
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (SampleLayout.Field field : layout.fields()) {
            // On the heap: the young generation frees it at once (see Hdf5Dataset.get)
            long[] words = new long[Math.toIntExact((field.bytes() + 7) / 8)];
            out.put(field.name(), new Tensor(MemorySegment.ofArray(words), field.dtype(), field.shape()));
        }
        int s = mds.shardOf(index);
        MdsShard shard = mds.shard(s);
        long local = index - mds.firstSample(s);
        long base = shard.start(local);
        long length = shard.end(local) - base;
        for (int f = 0; f < columns.length; f++) {
            long start = SampleLocator.start(shard, index, local, shard.data(), base, length, columns[f]);
            long bad = NdArrayValue.copy(numbers[f], shard.data(), base + start, bytes[f],
                    out.get(layout.field(f).name()).segment());
            if (bad >= 0) {
                throw NdArrayValue.tooLarge(SampleLocator.where(shard, index, local) + ", column '"
                        + layout.field(f).name() + "'", shard.data().get(
                        java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, base + start + 8 * bad), bad);
            }
        }
        return out;
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
