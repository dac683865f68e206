package dev.stoker.formats.hdf5;

import io.jhdf.AbstractNode;
import io.jhdf.api.Dataset;
import io.jhdf.object.message.DataLayoutMessage;
import io.jhdf.object.message.DataLayoutMessage.ChunkedDataLayoutMessageV4;
import io.jhdf.storage.HdfBackingStorage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Guards against a jhdf 0.13 defect: its extensible array chunk index (HDF5's choice, in the
 * newer file format, for an array with one unlimited dimension, h5py's {@code maxshape=(None,
 * ...)}) stops at the first chunk never written, so the chunks written after such a gap would be
 * missing from the index and read as the fill value. The array's header says how far its chunks
 * reach ("max index set", one past the last chunk written); an index that holds fewer chunks than
 * that lost some, and the array is refused rather than read wrong.
 */
final class ExtensibleArrayCheck {
    // The header: signature, version, client id, element size and five sizes in bits or counts
    // (12 bytes), then six lengths: secondary blocks, their size, data blocks, their size, the max
    // index set, the elements realized.
    private static final int MAX_INDEX_SET_AT_LENGTHS = 4;
    private static final int FIXED_PART = 12;

    private ExtensibleArrayCheck() {
    }

    /** Refuses {@code dataset} when its extensible array index holds fewer than its header's chunks. */
    static void check(Dataset dataset, HdfBackingStorage storage, int chunksFound, String where) {
        if (!(dataset instanceof AbstractNode node)) {
            return;
        }
        DataLayoutMessage layout = node.getHeader().getMessageOfType(DataLayoutMessage.class);
        if (!(layout instanceof ChunkedDataLayoutMessageV4 v4)
                || v4.getIndexingType() != ChunkedDataLayoutMessageV4.EXTENSIBLE_ARRAY_INDEX) {
            return;
        }
        int lengths = storage.getSizeOfLengths();
        ByteBuffer header = storage.readBufferFromAddress(v4.getAddress(), FIXED_PART + (MAX_INDEX_SET_AT_LENGTHS + 1) * lengths)
                .order(ByteOrder.LITTLE_ENDIAN);
        long maxIndexSet = 0;
        int at = FIXED_PART + MAX_INDEX_SET_AT_LENGTHS * lengths;
        for (int i = lengths - 1; i >= 0; i--) {
            maxIndexSet = maxIndexSet << 8 | (header.get(at + i) & 0xFF);
        }
        if (Long.compareUnsigned(chunksFound, maxIndexSet) < 0) {
            throw new Hdf5FormatException(where + ": its chunk index (an extensible array, for an unlimited first"
                    + " dimension) reaches chunk " + Long.toUnsignedString(maxIndexSet) + " but jhdf read only "
                    + chunksFound + ": a chunk never written lies before written ones, and jhdf 0.13 loses every chunk"
                    + " after such a gap, which would read as the fill value. Rewrite the file (h5repack -l CONTI, or"
                    + " copy the array with a fixed maxshape) to read it");
        }
    }
}
