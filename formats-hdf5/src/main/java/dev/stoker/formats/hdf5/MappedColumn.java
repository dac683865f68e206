package dev.stoker.formats.hdf5;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A contiguous, unfiltered dataset read straight from a memory map of its bytes: one copy, from
 * the page cache into the batch. Big-endian data is swapped during that same copy.
 */
record MappedColumn(SampleLayout.Field field, long rows, MemorySegment data, ByteOrder order) implements Hdf5Column {

    /** The map must hold every row: a layout message pointing past the file's end is refused before this. */
    MappedColumn {
        long need = Math.multiplyExact(rows, field.bytes());
        if (rows < 0 || data.byteSize() < need) {
            throw new IllegalArgumentException(field + " x " + rows + " needs " + need + " bytes; the map holds "
                    + data.byteSize());
        }
    }

    @Override
    public boolean mapped() {
        return true;
    }

    @Override
    public void readRow(long row, Tensor dst) {
        long rowBytes = field.bytes();
        long elements = field.shape().elements();
        ValueLayout element = field.dtype().layout();
        if (order == ByteOrder.nativeOrder() || element.byteSize() == 1) {
            MemorySegment.copy(data, row * rowBytes, dst.segment(), 0, rowBytes);
        } else {
            // MemorySegment.copy swaps bytes when the two element layouts' orders differ.
            MemorySegment.copy(data, element.withOrder(order), row * rowBytes,
                    dst.segment(), element, 0, elements);
        }
    }
}
