package dev.stoker.formats.parquet;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Chosen numeric columns of a {@link ParquetDataset} as a fillable dataset: the loader's fill path
 * copies each row's values from its decoded row group straight into its row of the batch, with no
 * object per sample. Scalars of int32, int64, float and double keep their type ({@code (n)} in the
 * batch); a list column of a fixed length {@code L} becomes {@code (n, L)} of its element type. A
 * null value, a null list element or a list of another length fails, naming the file, row group,
 * column and row.
 *
 * <pre>{@code
 * ParquetTensorDataset t = ds.tensors(FillColumn.list("input_ids", 2048), FillColumn.scalar("label"));
 * DataLoader<Map<String, Tensor>> loader = DataLoader.builder(t).sampler(ds.shuffleSampler(4, 42))
 *         .batchSize(32).build();     // batches {input_ids: (32, 2048) i32, label: (32) i64}
 * }</pre>
 *
 * {@link #get} gives the same values as fresh heap tensors, so a loader given a collate function
 * makes the same batches.
 */
public final class ParquetTensorDataset implements FillableDataset<Map<String, Tensor>> {
    private final ParquetDataset parquet;
    private final int[] columns;
    private final int[] lengths;
    private final SampleLayout layout;

    ParquetTensorDataset(ParquetDataset parquet, List<FillColumn> fields) {
        this.parquet = Objects.requireNonNull(parquet, "parquet");
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("name at least one column of " + parquet.name());
        }
        columns = new int[fields.size()];
        lengths = new int[fields.size()];
        List<SampleLayout.Field> out = new ArrayList<>();
        for (int f = 0; f < columns.length; f++) {
            FillColumn fc = fields.get(f);
            columns[f] = parquet.source().column(fc.name());
            ParquetColumn c = parquet.columns().get(columns[f]);
            if (!c.kind().isNumeric()) {
                throw new IllegalArgumentException("column '" + c.name() + "' is " + c.kind() + ": the fill path takes"
                        + " numbers and lists of numbers; read it through ParquetDataset.get");
            }
            if (c.kind().isList() != (fc.length() > 0)) {
                throw new IllegalArgumentException("column '" + c.name() + "' is " + c.kind() + ": name it with "
                        + (c.kind().isList() ? "FillColumn.list(name, length)" : "FillColumn.scalar(name)"));
            }
            lengths[f] = fc.length();
            out.add(new SampleLayout.Field(c.name(), c.kind().dtype(),
                    fc.length() == 0 ? Shape.scalar() : Shape.of(fc.length())));
        }
        this.layout = new SampleLayout(SampleLayout.Form.MAP, out);
    }

    @Override
    public long size() {
        return parquet.size();
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        Objects.checkIndex(index, parquet.size());
        int group = parquet.source().groupOf(index);
        RowGroupData data = parquet.rowGroup(group);
        fill(data, (int) (index - parquet.source().groupStart(group)), slot);
    }

    /** Row {@code row} of a decoded row group into {@code slot}: the streaming side's fill. */
    void fill(RowGroupData data, int row, SampleSlot slot) {
        for (int f = 0; f < columns.length; f++) {
            copy(data, row, f, slot.tensor(f).segment());
        }
    }

    /**
     * Fills the batch a run at a time: indices that follow each other within one row group (a
     * sequential order, or a stretch of it) are copied with one bulk copy per column.
     */
    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        MemorySegment[] dst = new MemorySegment[columns.length];
        for (int f = 0; f < columns.length; f++) {
            dst[f] = slots.tensor(f).segment();
        }
        int j = 0;
        while (j < indices.length) {
            long index = indices[j];
            Objects.checkIndex(index, parquet.size());
            int group = parquet.source().groupOf(index);
            long groupStart = parquet.source().groupStart(group);
            long groupEnd = parquet.source().groupStart(group + 1);
            int run = 1;
            while (j + run < indices.length && indices[j + run] == index + run && index + run < groupEnd) {
                run++;
            }
            RowGroupData data = parquet.rowGroup(group);
            int row = (int) (index - groupStart);
            for (int f = 0; f < columns.length; f++) {
                long bytes = layout.field(f).bytes();
                copyRun(data, row, run, f, dst[f].asSlice(j * bytes, run * bytes));
            }
            j += run;
        }
    }

    /**
     * Rows {@code [row, row + run)} of field {@code f} into {@code dst}, checked: one bulk copy per
     * decoded chunk the run spans (usually one).
     */
    private void copyRun(RowGroupData data, int row, int run, int f, MemorySegment dst) {
        int done = 0;
        while (done < run) {
            int at = row + done;
            int chunk = data.chunkOf(at);
            int start = data.starts()[chunk];
            int n = Math.min(run - done, data.starts()[chunk + 1] - at);
            long bytes = layout.field(f).bytes();
            copyChunk(data, data.chunks()[chunk][columns[f]], start, at - start, n, f,
                    n == run ? dst : dst.asSlice(done * bytes, n * bytes));
            done += n;
        }
    }

    /** Rows {@code [row, row + run)} of one decoded chunk {@code c} (its first row {@code start} of the group). */
    private void copyChunk(RowGroupData data, DecodedColumn c, int start, int row, int run, int f,
            MemorySegment dst) {
        int from = row;
        int count = run;
        if (c.nullRows != null) {
            for (int r = row; r < row + run; r++) {
                if (c.isNull(r)) {
                    throw fail(data, start + r, f, "the value is null; the fill path needs a value in every row");
                }
            }
        }
        if (lengths[f] > 0) {
            // the common case, every row of the chunk the batch's length and no nulls, is checked once per chunk
            for (int r = row; c.uniformLength != lengths[f] && r < row + run; r++) {
                if (c.length(r) != lengths[f]) {
                    throw fail(data, start + r, f, "the list holds " + c.length(r) + " values where the batch takes "
                            + lengths[f]);
                }
                if (c.hasNullElement(r)) {
                    throw fail(data, start + r, f, "the list holds a null element");
                }
            }
            from = c.offsets[row];
            count = run * lengths[f];
        }
        copyValues(c, layout.field(f).dtype(), from, count, dst);
    }

    private static void copyValues(DecodedColumn c, DType t, int from, int count, MemorySegment dst) {
        switch (t) {
            case I64 -> MemorySegment.copy(c.longs, from, dst, ValueLayout.JAVA_LONG_UNALIGNED, 0, count);
            case I32 -> MemorySegment.copy(c.ints, from, dst, ValueLayout.JAVA_INT_UNALIGNED, 0, count);
            case F32 -> MemorySegment.copy(c.floats, from, dst, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, count);
            case F64 -> MemorySegment.copy(c.doubles, from, dst, ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, count);
            default -> throw new IllegalStateException(t.toString());
        }
    }

    /** Row {@code index} as a map from column name to a fresh heap tensor of its value. */
    @Override
    public Map<String, Tensor> get(long index) {
        Objects.checkIndex(index, parquet.size());
        int group = parquet.source().groupOf(index);
        RowGroupData data = parquet.rowGroup(group);
        int row = (int) (index - parquet.source().groupStart(group));
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (int f = 0; f < columns.length; f++) {
            SampleLayout.Field field = layout.field(f);
            long[] words = new long[Math.toIntExact((field.bytes() + 7) / 8)];
            Tensor t = new Tensor(MemorySegment.ofArray(words), field.dtype(), field.shape());
            copy(data, row, f, t.segment());
            out.put(field.name(), t);
        }
        return out;
    }

    /** Field {@code f} of row {@code row} of {@code data} into {@code dst}: one bulk copy from the decoded array. */
    private void copy(RowGroupData data, int row, int f, MemorySegment dst) {
        copyRun(data, row, 1, f, dst);
    }

    private ParquetFormatException fail(RowGroupData data, int row, int f, String why) {
        return parquet.source().badValue(data.group(), parquet.source().groupStart(data.group()) + row,
                layout.field(f).name(), why);
    }

    @Override
    public String name() {
        return "ParquetTensorDataset(" + parquet.name() + ": " + layout + ")";
    }
}
