package dev.stoker.formats.mds;

import dev.stoker.formats.mmap.MappedFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * One raw shard file, memory-mapped and checked: {@code u32 n}, {@code u32 offsets[n + 1]} (absolute,
 * little-endian), the shard's config JSON, then the samples back to back, sample {@code i} being
 * bytes {@code [offsets[i], offsets[i + 1])}.
 *
 * <p>The whole offset table is checked when the shard is opened (n against the index, offsets
 * increasing, the first past the table, the last at the file's end): one pass over 4 bytes per
 * sample, after which every sample's range can be trusted without another check.
 */
final class MdsShard implements AutoCloseable {
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MdsShardInfo info;
    private final MappedFile file;
    private final MemorySegment data;
    private final long samples;

    MdsShard(MdsShardInfo info, MappedFile file) {
        this.info = info;
        this.file = file;
        this.data = file.segment();
        this.samples = info.samples();
        check();
    }

    private void check() {
        String where = file.path() + ": " + info.label();
        long size = data.byteSize();
        if (size != info.raw().bytes()) {
            throw new MdsFormatException(where + ": the file is " + size + " bytes but raw_data.bytes in the index"
                    + " says " + info.raw().bytes() + " (truncated, or not the file the index was written for)");
        }
        if (size < 4) {
            throw new MdsFormatException(where + ": the file is " + size + " bytes, too short for its sample count");
        }
        long n = u32(0);
        if (n != samples) {
            throw new MdsFormatException(where + ": the file holds " + n + " samples but the index says " + samples);
        }
        long tableEnd = 4 + 4 * (n + 1);
        if (tableEnd > size) {
            throw new MdsFormatException(where + ": the offset table of " + n + " samples needs " + tableEnd
                    + " bytes but the file has " + size);
        }
        long previous = u32(4);
        if (previous < tableEnd) {
            throw new MdsFormatException(where + ": the first sample starts at " + previous
                    + ", inside the offset table that ends at " + tableEnd);
        }
        for (long i = 1; i <= n; i++) {
            long next = u32(4 + 4 * i);
            if (next < previous) {
                throw new MdsFormatException(where + ", sample " + (i - 1) + ": its end offset " + next
                        + " is before its start " + previous);
            }
            previous = next;
        }
        if (previous != size) {
            throw new MdsFormatException(where + ": the last sample ends at " + previous + " but the file has "
                    + size + " bytes");
        }
    }

    private long u32(long offset) {
        return Integer.toUnsignedLong(data.get(U32, offset));
    }

    MdsShardInfo info() {
        return info;
    }

    MappedFile file() {
        return file;
    }

    /** Sample {@code local} (in {@code [0, samples)}): a view of its bytes in the map. */
    MemorySegment sample(long local) {
        long start = u32(4 + 4 * local);
        long end = u32(8 + 4 * local);
        return data.asSlice(start, end - start);
    }

    /** Where sample {@code local} starts in the file. */
    long start(long local) {
        return u32(4 + 4 * local);
    }

    /** Where sample {@code local} ends in the file. */
    long end(long local) {
        return u32(8 + 4 * local);
    }

    MemorySegment data() {
        return data;
    }

    @Override
    public void close() {
        file.close();
    }
}
