package dev.stoker.formats.tar;

import java.lang.foreign.MemorySegment;

/**
 * Where {@link TarReader} gets its bytes: a memory map ({@link MappedTarSource}, zero-copy) or a
 * stream ({@link StreamTarSource}, for HTTP and commands). The header logic above it is the same for both.
 */
interface TarSource extends AutoCloseable {

    /** The shard's path or URL, for messages. */
    String name();

    /** Bytes consumed so far: the offset of the next byte. */
    long position();

    /** Bytes left before the end, or -1 when not known (a stream without a length). */
    long remaining();

    /**
     * Reads the next 512-byte block into {@code block}.
     *
     * @return false when the input ends exactly here
     * @throws TarException when it ends inside the block, or the read fails
     */
    boolean readBlock(byte[] block);

    /**
     * The next {@code size} bytes, a member's data: a slice of the map, or bytes read from the
     * stream. The caller has checked {@code size} against {@link #remaining()}.
     *
     * @param what the member, for messages
     */
    MemorySegment take(long size, String what);

    /** Skips {@code size} bytes (data not kept, padding). */
    void skip(long size, String what);

    /**
     * Called once the archive has ended cleanly: a stream reads what is left after the end marker
     * (record padding), so that the end of its input, and the failure of a command that wrote it,
     * is seen. A map has nothing to do.
     */
    default void finish() {
    }

    /** Whether the bytes are inflated from gzip, so that offsets are not the file's. */
    default boolean inflated() {
        return false;
    }

    /**
     * What to throw for {@code error}, caught while reading {@code what}: for a map of a file,
     * the error naming the file when it was cut short under the map; otherwise {@code error} itself
     * (this method throws it).
     */
    default Error changed(InternalError error, String what) {
        throw error;
    }

    @Override
    void close();
}
