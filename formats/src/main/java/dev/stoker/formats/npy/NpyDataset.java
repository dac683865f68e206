package dev.stoker.formats.npy;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.mmap.MappedFile;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The rows of a {@code .npy} array as a map-style dataset: sample {@code i} is
 * {@code array[i]}, a view of the file's map. Under the loader's default collate each row is
 * copied straight from the map into its slot of the batch ({@link FillableDataset}: one copy, no
 * sample object); {@link #get} gives the view, for code that wants samples. Made by
 * {@link NpyFile#rows()}; valid while that file is open. Thread-safe.
 *
 * <p>A file truncated while it is mapped fails the row being copied with a
 * {@link dev.stoker.formats.mmap.MappedFileChangedError} naming the file and the row. A view
 * from {@link #get} is read by the caller, outside this dataset, where such a fault is the JVM's
 * {@link InternalError}.
 *
 * <pre>{@code
 * NpyDataset rows = npy.rows();   // for an array of shape (1000, 3, 32, 32)
 * rows.size();                    // 1000
 * rows.get(7).shape();            // [3, 32, 32]
 * }</pre>
 */
public final class NpyDataset implements FillableDataset<Tensor> {
    private final String source;
    private final Tensor array;
    private final long rows;
    private final long rowBytes;
    private final SampleLayout layout;
    /** The map the array is a view of; null when the array was copied out of it at open. */
    private final MappedFile mapped;

    NpyDataset(String source, Tensor array, MappedFile mapped) {
        this.source = source;
        this.array = array;
        this.rows = array.shape().dim(0);
        this.rowBytes = array.shape().dropFirst().elements() * array.dtype().byteSize();
        this.layout = SampleLayout.single(new SampleLayout.Field("row", array.dtype(), array.shape().dropFirst()));
        this.mapped = mapped;
    }

    @Override
    public long size() {
        return rows;
    }

    @Override
    public Tensor get(long index) {
        checkIndex(index);
        return array.select(index);
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        checkIndex(index);
        try {
            MemorySegment.copy(array.segment(), index * rowBytes, slot.tensor(0).segment(), 0, rowBytes);
            MapFaults.deliverPending();
        } catch (InternalError e) { // the file was cut short under its map: name it (free until it happens)
            throw changed(e, "row " + index);
        }
    }

    /** The batch's rows, each one copy from the map, with no slot objects. */
    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        for (long index : indices) {
            checkIndex(index);
        }
        MemorySegment batch = slots.tensor(0).segment();
        int j = 0;
        try {
            for (; j < indices.length; j++) {
                MemorySegment.copy(array.segment(), indices[j] * rowBytes, batch, j * rowBytes, rowBytes);
            }
            MapFaults.deliverPending(); // once per batch: a fault compiled code deferred names the batch's rows
        } catch (InternalError e) {
            long row = j < indices.length ? indices[j] : firstRowPastTheEnd(indices);
            throw changed(e, row >= 0 ? "row " + row : "one of the rows " + Arrays.toString(indices));
        }
    }

    /**
     * The first of these rows whose bytes lie past the file's end now, or -1: a fault compiled
     * code deferred to the batch's end does not say which copy met it, and the file's size does.
     */
    private long firstRowPastTheEnd(long[] indices) {
        long size = mapped == null ? -1 : mapped.sizeNow();
        long dataOffset = mapped == null ? 0 : array.segment().address() - mapped.segment().address();
        for (long index : indices) {
            if (size >= 0 && dataOffset + (index + 1) * rowBytes > size) {
                return index;
            }
        }
        return -1;
    }

    private Error changed(InternalError e, String what) {
        if (mapped == null) {
            throw e; // the array was copied at open: no map under it to have changed
        }
        return mapped.changed(e, what);
    }

    private void checkIndex(long index) {
        if (index < 0 || index >= rows) {
            throw new IndexOutOfBoundsException(source + ": row " + index + " is outside [0, " + rows + ")");
        }
    }

    /** The whole array. */
    public Tensor array() {
        return array;
    }

    @Override
    public String name() {
        return source;
    }

    @Override
    public String toString() {
        return "NpyDataset(" + source + ", " + rows + " rows of " + array.dtype() + " " + array.shape().dropFirst() + ")";
    }
}
