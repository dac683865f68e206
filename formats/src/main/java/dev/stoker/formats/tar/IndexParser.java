package dev.stoker.formats.tar;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.CRC32C;

/** Parses and checks a {@link ShardIndex} file held in memory; see its javadoc for the layout. */
final class IndexParser {
    private IndexParser() {
    }

    static ShardIndex parse(Path file, byte[] bytes) {
        if (bytes.length < 8 || !Arrays.equals(bytes, 0, 8, ShardIndex.MAGIC, 0, 8)) {
            throw new IndexFormatException(file, 0, "does not start with \"STKTARIX\": not a Stoker shard index");
        }
        if (bytes.length < ShardIndex.HEADER + 4) {
            throw new IndexFormatException(file, 0, "is " + bytes.length + " bytes, shorter than an index header");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int version = in.getInt(8);
        if (version != ShardIndex.VERSION) {
            throw new IndexFormatException(file, 8, "is version " + version + "; this Stoker reads version "
                    + ShardIndex.VERSION);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int stored = in.getInt(bytes.length - 4);
        if (stored != (int) crc.getValue()) {
            throw new IndexFormatException(file, bytes.length - 4, "checksum does not match (corrupt index)");
        }
        long shardLength = in.getLong(16);
        long samples = in.getLong(24);
        long members = in.getLong(32);
        long body = bytes.length - ShardIndex.HEADER - 4L;
        // each sample takes at least 4 bytes, each member at least 18: bound the counts before allocating
        // (by division: a count near 2^62 times 4 overflows to a small number and would pass)
        if (shardLength < 0 || samples < 0 || members < 0 || samples > body / 4 || members > body / 18) {
            throw new IndexFormatException(file, 16, "counts (" + samples + " samples, " + members
                    + " members) do not fit a file of " + bytes.length + " bytes");
        }
        String[] keys = new String[(int) samples];
        int[] first = new int[(int) samples + 1];
        String[] exts = new String[(int) members];
        long[] offsets = new long[(int) members];
        long[] sizes = new long[(int) members];
        in.position(ShardIndex.HEADER);
        in.limit(bytes.length - 4);
        int m = 0;
        long end = 0; // where the member before ends: each member's data follows its own header block
        try {
            for (int i = 0; i < samples; i++) {
                keys[i] = string(in);
                first[i] = m;
                int count = Short.toUnsignedInt(in.getShort());
                if (m + (long) count > members) {
                    throw new IndexFormatException(file, in.position() - 2, "sample " + i
                            + " has more members than the header counts");
                }
                for (int k = 0; k < count; k++, m++) {
                    int at = in.position();
                    exts[m] = string(in).intern();
                    offsets[m] = in.getLong();
                    sizes[m] = in.getLong();
                    if (offsets[m] < 0 || sizes[m] < 0 || offsets[m] > shardLength - sizes[m]) {
                        throw new IndexFormatException(file, at, "member " + exts[m] + " of sample \"" + keys[i]
                                + "\" lies outside the shard's " + shardLength + " bytes");
                    }
                    // In a tar, data starts at a block boundary, after its header and after the member before.
                    if (offsets[m] % TarHeader.BLOCK != 0 || offsets[m] < end + TarHeader.BLOCK) {
                        throw new IndexFormatException(file, at, "member " + exts[m] + " of sample \"" + keys[i]
                                + "\" at byte offset " + offsets[m] + " of the shard "
                                + (offsets[m] % TarHeader.BLOCK != 0 ? "is not at a 512-byte block boundary"
                                : "overlaps the member before it or its header") + " (corrupt index)");
                    }
                    end = offsets[m] + sizes[m];
                    end += (TarHeader.BLOCK - end % TarHeader.BLOCK) % TarHeader.BLOCK;
                }
                if (count > 1) {
                    Set<String> seen = new HashSet<>();
                    for (int a = first[i]; a < m; a++) {
                        if (!seen.add(SampleKeys.fieldOf(exts[a]))) {
                            throw new IndexFormatException(file, in.position(), "sample \"" + keys[i]
                                    + "\" has two members for field \"" + SampleKeys.fieldOf(exts[a]) + "\" (one is \""
                                    + exts[a] + "\"; fields are extensions lower-cased, as in WebDataset)");
                        }
                    }
                }
            }
        } catch (BufferUnderflowException e) {
            throw new IndexFormatException(file, in.position(), "ends before its last sample (truncated index)");
        }
        first[(int) samples] = m;
        if (m != members || in.hasRemaining()) {
            throw new IndexFormatException(file, in.position(), "does not end after its " + samples
                    + " samples (corrupt index)");
        }
        return ShardIndex.of(shardLength, keys, first, exts, offsets, sizes);
    }

    private static String string(ByteBuffer in) {
        int length = Short.toUnsignedInt(in.getShort());
        if (length > in.remaining()) {
            throw new BufferUnderflowException();
        }
        String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return s;
    }
}
