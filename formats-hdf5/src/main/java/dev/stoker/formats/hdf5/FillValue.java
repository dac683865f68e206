package dev.stoker.formats.hdf5;

import io.jhdf.AbstractNode;
import io.jhdf.api.Dataset;
import io.jhdf.object.message.FillValueMessage;
import io.jhdf.object.message.FillValueOldMessage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * What an array's elements never written read as, as h5py reads them: a chunk never written, or a
 * contiguous array never allocated, holds the fill value of the array's creation properties.
 *
 * <p>It comes from the fill value message (versions 1 to 3, as jhdf parses it), else from the old
 * fill value message HDF5 also writes (and files from before HDF5 1.6 hold alone; jhdf drops a
 * version 1 message's value, which that old message then gives). Zero where neither sets one (HDF5's
 * default), or where the fill time is "never": HDF5 then leaves the reader's buffer as it was, and
 * h5py's buffer is zeroed. The value is stored in the array's own element type and byte order: its
 * size must be the element's, or the file is corrupt.
 *
 * <p>Immutable; one per array, shared by its reader threads.
 */
final class FillValue {
    private static final int FILL_TIME_NEVER = 1; // H5D_FILL_TIME_NEVER
    private static final int RUN_BYTES = 4096;    // the pattern copied per block

    private final int elementSize;
    private final boolean zero;
    private final boolean stated;
    private final MemorySegment run; // whole fill elements in native order, a few KiB; null for zero

    /**
     * @param element the fill element's bytes in native order
     * @param stated  whether the file has a fill value message at all (HDF5 refuses to read a
     *                contiguous array never allocated without one)
     */
    FillValue(byte[] element, boolean stated) {
        this.elementSize = element.length;
        this.stated = stated;
        boolean allZero = true;
        for (byte b : element) {
            allZero &= b == 0;
        }
        this.zero = allZero;
        if (allZero) {
            this.run = null;
        } else {
            int n = Math.max(1, RUN_BYTES / element.length);
            byte[] block = new byte[n * element.length];
            for (int i = 0; i < n; i++) {
                System.arraycopy(element, 0, block, i * element.length, element.length);
            }
            this.run = MemorySegment.ofArray(block);
        }
    }

    /** Whether the fill value is zero, the common case, written with a plain fill. */
    boolean zero() {
        return zero;
    }

    /** Whether the file has a fill value message at all. */
    boolean stated() {
        return stated;
    }

    /** The fill value of {@code dataset}, whose elements are {@code elementSize} bytes in {@code order}. */
    static FillValue of(Dataset dataset, int elementSize, ByteOrder order, String where) {
        if (!(dataset instanceof AbstractNode node)) {
            return new FillValue(new byte[elementSize], false);
        }
        List<FillValueMessage> current = node.getHeader().getMessagesOfType(FillValueMessage.class);
        List<FillValueOldMessage> old = node.getHeader().getMessagesOfType(FillValueOldMessage.class);
        boolean stated = !current.isEmpty() || !old.isEmpty();
        ByteBuffer value = null;
        if (!current.isEmpty()) {
            FillValueMessage m = current.getFirst();
            if (m.getFillValueWriteTime() == FILL_TIME_NEVER) {
                return new FillValue(new byte[elementSize], true);
            }
            if (m.isFillValueDefined()) {
                value = m.getFillValue();
            }
        }
        if (value == null && !old.isEmpty()) {
            value = old.getFirst().getFillValue();
        }
        if (value == null || value.remaining() == 0) {
            return new FillValue(new byte[elementSize], stated);
        }
        if (value.remaining() != elementSize) {
            throw new Hdf5FormatException(where + ": its fill value is " + value.remaining() + " bytes, but its elements are "
                    + elementSize + ": corrupt");
        }
        byte[] element = new byte[elementSize];
        value.duplicate().get(element);
        if (order != ByteOrder.nativeOrder()) {
            for (int i = 0, j = elementSize - 1; i < j; i++, j--) {
                byte t = element[i];
                element[i] = element[j];
                element[j] = t;
            }
        }
        return new FillValue(element, true);
    }

    /** Writes {@code count} fill elements into {@code dst} from byte {@code at}. */
    void write(MemorySegment dst, long at, long count) {
        long bytes = count * elementSize;
        if (zero) {
            dst.asSlice(at, bytes).fill((byte) 0);
            return;
        }
        for (long done = 0; done < bytes; done += run.byteSize()) {
            MemorySegment.copy(run, 0, dst, at + done, Math.min(run.byteSize(), bytes - done));
        }
    }

    @Override
    public String toString() {
        byte[] element = run == null ? new byte[elementSize] : run.asSlice(0, elementSize).toArray(
                ValueLayout.JAVA_BYTE);
        return "FillValue" + Arrays.toString(element) + (stated ? "" : " (no fill value message)");
    }
}
