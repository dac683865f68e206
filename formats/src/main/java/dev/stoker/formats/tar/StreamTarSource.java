package dev.stoker.formats.tar;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A tar read sequentially from a stream (an HTTP body, a command's output). Member data is read into a heap
 * array that grows as bytes actually arrive, so a corrupt size field in a truncated stream cannot
 * make it allocate more than the stream delivered (plus one chunk).
 */
final class StreamTarSource implements TarSource {
    /** The largest member a stream can deliver at all: one Java array. */
    static final long MAX_MEMBER = Integer.MAX_VALUE - 16;

    /**
     * The largest member read from a stream unless a dataset says otherwise: 1 GiB, or a quarter
     * of the heap when that is less. A stream is untrusted (a server, a command, a gzip bomb that
     * inflates to gigabytes of zeros), and a member is held whole in memory.
     */
    static long defaultMaxMember() {
        return Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4);
    }
    private static final int FIRST_CHUNK = 1 << 20;

    private final String name;
    private final InputStream in;
    private final long length;
    private final long maxMember;
    private final byte[] skipBuffer = new byte[8192];
    private long position;

    /**
     * @param length the stream's length when known (an HTTP Content-Length), else -1
     */
    StreamTarSource(String name, InputStream in, long length) {
        this(name, in, length, defaultMaxMember());
    }

    /**
     * @param maxMember the largest member this stream may deliver; a larger one fails the shard
     *                  before anything is allocated for it
     */
    StreamTarSource(String name, InputStream in, long length, long maxMember) {
        this.name = name;
        this.in = in;
        this.length = length;
        this.maxMember = Math.min(maxMember, MAX_MEMBER);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public long remaining() {
        return length < 0 ? -1 : length - position;
    }

    @Override
    public boolean readBlock(byte[] block) {
        int n = readFully(block, 0, TarHeader.BLOCK, "a header block");
        if (n == 0) {
            return false;
        }
        if (n < TarHeader.BLOCK) {
            throw new TarException(name, position, "stream ends " + n
                    + " bytes into a 512-byte header block (truncated shard)");
        }
        return true;
    }

    @Override
    public MemorySegment take(long size, String what) {
        if (size > maxMember) {
            throw new TarException(name, position, what + " is " + size
                    + " bytes, too large to read from a stream (at most " + maxMember
                    + "; TarShardDataset.Builder.maxMemberBytes raises it for a shard you trust)");
        }
        byte[] data = new byte[(int) Math.min(size, FIRST_CHUNK)];
        int filled = 0;
        while (filled < size) {
            if (filled == data.length) {
                data = Arrays.copyOf(data, (int) Math.min(size, (long) data.length * 2));
            }
            int n = readFully(data, filled, data.length - filled, what);
            if (n < data.length - filled) {
                throw new TarException(name, position, "stream ends " + (filled + n) + " bytes into " + what
                        + ", which should have " + size + " bytes (truncated shard)");
            }
            filled += n;
        }
        return MemorySegment.ofArray(data);
    }

    @Override
    public void skip(long size, String what) {
        long left = size;
        while (left > 0) {
            int want = (int) Math.min(left, skipBuffer.length);
            int n = readFully(skipBuffer, 0, want, what);
            if (n < want) {
                throw new TarException(name, position, "stream ends " + (size - left + n) + " bytes into "
                        + what + ", which should have " + size + " bytes (truncated shard)");
            }
            left -= n;
        }
    }

    /** Record padding is at most 10 KiB; more than this after the end marker is left unread. */
    private static final long MAX_TRAILER = 1 << 20;

    @Override
    public void finish() {
        long read = 0;
        int n;
        do {
            n = readFully(skipBuffer, 0, skipBuffer.length, "what follows the end of the archive");
            read += n;
        } while (n == skipBuffer.length && read < MAX_TRAILER);
    }

    /** Reads until {@code length} bytes or the end; returns the bytes read, advancing the position. */
    private int readFully(byte[] buf, int off, int length, String what) {
        int total = 0;
        try {
            while (total < length) {
                int n = in.read(buf, off + total, length - total);
                if (n < 0) {
                    break;
                }
                total += n;
                position += n;
            }
        } catch (IOException e) {
            throw new TarException(name, position, "reading " + what + " failed: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
        return total;
    }

    @Override
    public boolean inflated() {
        return GzipShards.isInflating(in);
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // Nothing more to read from it; a failed close changes nothing for the caller.
        }
    }
}
