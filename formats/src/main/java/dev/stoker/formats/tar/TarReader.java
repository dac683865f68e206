package dev.stoker.formats.tar;

import dev.stoker.formats.mmap.MapFaults;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;

/**
 * Reads the regular files of a tar archive in order: POSIX ustar, pax extended headers
 * ({@code path}, {@code size}) and GNU long names ({@code L}), the formats Python's {@code tarfile}
 * and GNU tar write. Directories, links and other special members are skipped; every header's
 * checksum is verified and every size checked against what is left of the file before it is used.
 * A problem throws a {@link TarException} naming the shard and the byte offset.
 *
 * <p>Over a memory map ({@link #open(Path, Arena)}) a member's data is a slice of the map: no copy.
 * Over a stream ({@link #open(String, InputStream, long)}) it is read into a heap segment.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined(); TarReader tar = TarReader.open(Path.of("shard-000000.tar"), arena)) {
 *     while (tar.hasNext()) {
 *         TarMember m = tar.next();
 *         System.out.println(m.name() + " " + m.size());
 *     }
 * }
 * }</pre>
 */
public final class TarReader implements Iterator<TarMember>, AutoCloseable {
    /** The largest pax header or GNU long name accepted: bigger ones are corrupt, not names. */
    static final int MAX_EXTENDED_HEADER = 1 << 20;

    private final TarSource source;
    private final byte[] block = new byte[TarHeader.BLOCK];
    private TarMember next;
    private boolean ended;
    private UnaryOperator<TarException> onFailure = UnaryOperator.identity();

    TarReader(TarSource source) {
        this.source = source;
    }

    /** Reads the tar file at {@code path}, mapped into {@code arena}; member data lives as long as the arena. */
    public static TarReader open(Path path, Arena arena) {
        return new TarReader(new MappedTarSource(path.toString(), MappedTarSource.map(path, arena), path));
    }

    /** Reads {@code tar}, the map of {@code file}; {@code name} is for messages. */
    static TarReader overFile(String name, Path file, MemorySegment tar) {
        return new TarReader(new MappedTarSource(name, tar, file));
    }

    /** Reads a tar already in memory (a map, a downloaded shard); {@code name} is for messages. */
    public static TarReader over(String name, MemorySegment tar) {
        return new TarReader(new MappedTarSource(name, tar));
    }

    /**
     * Reads a tar from a stream, which this reader closes.
     *
     * @param name   the shard's path or URL, for messages
     * @param length the stream's length in bytes when known (checked against every size), else -1
     */
    public static TarReader open(String name, InputStream in, long length) {
        return new TarReader(new StreamTarSource(name, in, length));
    }

    /** As {@link #open(String, InputStream, long)}, refusing members larger than {@code maxMember} bytes. */
    static TarReader open(String name, InputStream in, long length, long maxMember) {
        return new TarReader(new StreamTarSource(name, in, length, maxMember));
    }

    /**
     * Has a failure to parse the shard go through {@code handler} first, which returns the error to
     * throw: whoever opened the shard from a copy (a cache) can drop the copy and say so.
     */
    TarReader onFailure(UnaryOperator<TarException> handler) {
        this.onFailure = handler;
        return this;
    }

    /** The shard's path or URL. */
    public String name() {
        return source.name();
    }

    /** Whether the shard is read through gzip's inflater (its offsets are not the file's). */
    public boolean inflated() {
        return source.inflated();
    }

    /** The byte offset the reader has reached. */
    public long position() {
        return source.position();
    }

    @Override
    public boolean hasNext() {
        if (next == null && !ended) {
            try {
                next = readNext();
                MapFaults.deliverPending();
            } catch (TarException e) {
                ended = true; // the position is unknown after a failure: nothing more is read
                throw onFailure.apply(e);
            } catch (InternalError e) { // a mapped file cut short under the map: name it
                ended = true;
                throw source.changed(e, "the member header near byte " + source.position());
            } catch (RuntimeException e) {
                ended = true;
                throw e;
            }
        }
        return next != null;
    }

    @Override
    public TarMember next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more members in " + source.name());
        }
        TarMember m = next;
        next = null;
        return m;
    }

    private TarMember readNext() {
        String longName = null;
        long paxSize = -1;
        boolean pending = false;
        while (true) {
            long headerOffset = source.position();
            if (!source.readBlock(block)) {
                if (pending) {
                    throw new TarException(source.name(), headerOffset,
                            "archive ends after an extended header, before the member it describes");
                }
                // Some writers omit the two zero blocks; a clean end at a block boundary is an end.
                ended = true;
                source.finish();
                return null;
            }
            if (TarHeader.isZero(block)) {
                ended = true; // what follows the end marker (the second zero block, record padding) is not parsed
                source.finish();
                return null;
            }
            TarHeader h = TarHeader.parse(block, source.name(), headerOffset);
            long size = paxSize >= 0 && !isExtension(h.type()) ? paxSize : h.size();
            String name = longName != null && !isExtension(h.type()) ? longName : h.name();
            switch (h.type()) {
                case 'x', 'X' -> {
                    PaxHeaders pax = PaxHeaders.parse(readExtension(h, headerOffset), source.name(), headerOffset);
                    if (pax.path() != null) {
                        longName = pax.path();
                    }
                    if (pax.size() >= 0) {
                        paxSize = pax.size();
                    }
                    pending = true;
                    continue;
                }
                case 'L' -> {
                    longName = TarHeader.cString(readExtension(h, headerOffset), 0, (int) h.size());
                    pending = true;
                    continue;
                }
                case 'g', 'K' -> { // global pax (nothing we use), GNU long link name
                    skipData(h.size(), headerOffset, "extended header");
                    continue;
                }
                default -> {
                    // fall through to the member itself
                }
            }
            boolean regular = h.isRegular() && !(h.type() == 0 && name.endsWith("/"));
            if (regular) {
                checkFits(size, headerOffset, "member \"" + name + "\"");
                MemorySegment data = source.take(size, "member \"" + name + "\"");
                long dataOffset = source.position() - size;
                skipPadding(size, name);
                return new TarMember(name, headerOffset, dataOffset, data);
            }
            if (!h.hasNoData()) {
                skipData(size, headerOffset, "member \"" + name + "\"");
            }
            longName = null;
            paxSize = -1;
            pending = false;
        }
    }

    private static boolean isExtension(byte type) {
        return type == 'x' || type == 'X' || type == 'L' || type == 'g' || type == 'K';
    }

    private byte[] readExtension(TarHeader h, long headerOffset) {
        String what = h.type() == 'L' ? "GNU long name" : "pax extended header";
        if (h.size() > MAX_EXTENDED_HEADER) {
            throw new TarException(source.name(), headerOffset, what + " claims " + h.size()
                    + " bytes, more than the " + MAX_EXTENDED_HEADER + " any real one needs (corrupt header)");
        }
        checkFits(h.size(), headerOffset, what);
        MemorySegment data = source.take(h.size(), what);
        byte[] bytes = data.toArray(ValueLayout.JAVA_BYTE);
        skipPadding(h.size(), what);
        return bytes;
    }

    private void skipData(long size, long headerOffset, String what) {
        checkFits(size, headerOffset, what);
        source.skip(size, what);
        skipPadding(size, what);
    }

    private void checkFits(long size, long headerOffset, String what) {
        long left = source.remaining();
        if (left >= 0 && size > left) {
            throw new TarException(source.name(), headerOffset, what + " claims " + size
                    + " bytes but only " + left + " are left in the shard (truncated shard or corrupt size field)");
        }
    }

    private void skipPadding(long size, String what) {
        long pad = (TarHeader.BLOCK - (size % TarHeader.BLOCK)) % TarHeader.BLOCK;
        if (pad > 0) {
            long left = source.remaining();
            if (left >= 0 && left < pad) {
                throw new TarException(source.name(), source.position(), "file ends inside the padding after "
                        + what + " (truncated shard)");
            }
            source.skip(pad, "the padding after " + what);
        }
    }

    @Override
    public void close() {
        source.close();
    }

}
