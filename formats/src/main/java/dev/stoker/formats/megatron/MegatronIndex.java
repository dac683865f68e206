package dev.stoker.formats.megatron;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The {@code .idx} of a Megatron-LM indexed dataset, read in place from its memory map and
 * checked whole before anything trusts it.
 *
 * <p>The layout (Megatron's {@code _IndexWriter}), all little-endian:
 * <pre>
 * 9 bytes   "MMIDIDX\0\0"
 * u64       version, 1
 * u8        dtype code ({@link MegatronDType})
 * u64       S, the number of sequences
 * u64       D, the number of document indices (documents + 1)
 * i32[S]    sequence lengths, in tokens
 * i64[S]    sequence pointers, byte offsets into the .bin
 * i64[D]    document indices: document d is sequences [idx[d], idx[d+1])
 * i8[S]     sequence modes, only in multimodal datasets
 * </pre>
 *
 * <p>What {@link #check} proves, in O(S + D) reads of the map and no allocation: the header; that
 * the counts fit the file's size (checked before any multiplication); that the file ends exactly
 * after the document indices or after the modes; that every length is non-negative, every pointer
 * is at or after the one before and every sequence lies inside the {@code .bin}; that the document
 * indices start at 0, never decrease and end at S (as Megatron's reader asserts).
 */
final class MegatronIndex {
    static final byte[] MAGIC = "MMIDIDX\0\0".getBytes(StandardCharsets.US_ASCII);
    static final long VERSION = 1;
    static final int HEADER_BYTES = 34;

    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment idx;
    private final MegatronDType dtype;
    private final long sequences;
    private final long documentIndices;
    private final long pointersAt;
    private final long documentsAt;
    private final long modesAt; // -1: no modes

    private MegatronIndex(MemorySegment idx, MegatronDType dtype, long sequences, long documentIndices, boolean modes) {
        this.idx = idx;
        this.dtype = dtype;
        this.sequences = sequences;
        this.documentIndices = documentIndices;
        this.pointersAt = HEADER_BYTES + 4 * sequences;
        this.documentsAt = pointersAt + 8 * sequences;
        this.modesAt = modes ? documentsAt + 8 * documentIndices : -1;
    }

    /**
     * Reads and checks the index in {@code idx}, whose sequences must lie in a {@code .bin} of
     * {@code binSize} bytes.
     *
     * @throws MegatronFormatException naming {@code idxPath} (and the sequence or document) and what was wrong
     */
    static MegatronIndex check(Path idxPath, MemorySegment idx, long binSize) throws MegatronFormatException {
        long size = idx.byteSize();
        if (size < HEADER_BYTES) {
            throw bad(idxPath, "is " + size + " bytes, shorter than the " + HEADER_BYTES + "-byte header of an MMIDIDX index");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (idx.get(ValueLayout.JAVA_BYTE, i) != MAGIC[i]) {
                throw bad(idxPath, "does not start with MMIDIDX\\x00\\x00: not a Megatron-LM indexed dataset's .idx");
            }
        }
        long version = idx.get(I64, 9);
        if (version != VERSION) {
            throw bad(idxPath, "has version " + Long.toUnsignedString(version) + "; only version 1 is known");
        }
        int code = Byte.toUnsignedInt(idx.get(ValueLayout.JAVA_BYTE, 17));
        MegatronDType dtype = MegatronDType.ofCode(code);
        if (dtype == null) {
            throw bad(idxPath, "has dtype code " + code + (code == 6 || code == 7
                    ? " (" + (code == 6 ? "float64" : "float32") + "), which is not a token type"
                    : ", which is none of Megatron's (1 to 8)"));
        }
        long s = idx.get(I64, 18);
        long d = idx.get(I64, 26);
        long room = size - HEADER_BYTES;
        // each sequence takes at least 12 bytes and each document index 8: check before multiplying
        if (s < 0 || s > room / 12) {
            throw bad(idxPath, "claims " + Long.toUnsignedString(s) + " sequences, more than its " + size + " bytes can hold");
        }
        if (d < 0 || d > (room - 12 * s) / 8) {
            throw bad(idxPath, "claims " + Long.toUnsignedString(d) + " document indices after " + s
                    + " sequences, more than its " + size + " bytes can hold");
        }
        long plain = HEADER_BYTES + 12 * s + 8 * d;
        boolean modes;
        if (size == plain) {
            modes = false;
        } else if (size == plain + s && s > 0) {
            modes = true;
        } else {
            throw bad(idxPath, "is " + size + " bytes, but " + s + " sequences and " + d + " document indices take "
                    + plain + " bytes (or " + (plain + s) + " with modes): truncated or trailing bytes");
        }
        MegatronIndex index = new MegatronIndex(idx, dtype, s, d, modes);
        index.checkSequences(idxPath, binSize);
        index.checkDocuments(idxPath);
        return index;
    }

    private void checkSequences(Path idxPath, long binSize) throws MegatronFormatException {
        long previous = 0;
        for (long i = 0; i < sequences; i++) {
            int length = length(i);
            long pointer = pointer(i);
            if (length < 0) {
                throw bad(idxPath, "sequence " + i + " has a negative length, " + length);
            }
            if (pointer < previous) {
                throw bad(idxPath, "sequence " + i + " starts at byte " + pointer + ", before sequence "
                        + (i - 1) + " at byte " + previous + ": pointers must not decrease");
            }
            long bytes = (long) length * dtype.bytes();
            if (pointer > binSize || bytes > binSize - pointer) {
                throw bad(idxPath, "sequence " + i + " is bytes [" + pointer + ", " + (pointer + bytes)
                        + "), outside the " + binSize + "-byte .bin");
            }
            previous = pointer;
        }
    }

    private void checkDocuments(Path idxPath) throws MegatronFormatException {
        if (documentIndices == 0) {
            throw bad(idxPath, "has no document indices; even an empty dataset has one, 0");
        }
        long previous = 0;
        for (long k = 0; k < documentIndices; k++) {
            long at = idx.get(I64, documentsAt + 8 * k);
            if (k == 0 && at != 0) {
                throw bad(idxPath, "document index 0 is " + at + "; the first document starts at sequence 0");
            }
            if (at < previous || at > sequences) {
                throw bad(idxPath, "document " + (k - 1) + " ends at sequence " + at + ", outside ["
                        + previous + ", " + sequences + "]: document indices must rise to the sequence count");
            }
            previous = at;
        }
        if (previous != sequences) {
            throw bad(idxPath, "the last document ends at sequence " + previous + ", but there are " + sequences
                    + " sequences: the sequences after it belong to no document");
        }
    }

    private static MegatronFormatException bad(Path idxPath, String what) {
        return new MegatronFormatException(idxPath.toString(), what);
    }

    MegatronDType dtype() {
        return dtype;
    }

    long sequenceCount() {
        return sequences;
    }

    /** Documents: one less than the document indices. */
    long documentCount() {
        return documentIndices - 1;
    }

    boolean hasModes() {
        return modesAt >= 0;
    }

    int length(long sequence) {
        return idx.get(I32, HEADER_BYTES + 4 * sequence);
    }

    long pointer(long sequence) {
        return idx.get(I64, pointersAt + 8 * sequence);
    }

    /** The first sequence of document {@code d}; {@code d == documentCount()} gives the sequence count. */
    long documentStart(long d) {
        return idx.get(I64, documentsAt + 8 * d);
    }

    byte mode(long sequence) {
        return idx.get(ValueLayout.JAVA_BYTE, modesAt + sequence);
    }
}
