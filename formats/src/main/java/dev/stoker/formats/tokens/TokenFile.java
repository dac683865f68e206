package dev.stoker.formats.tokens;

import dev.stoker.formats.mmap.MappedFile;
import dev.stoker.formats.mmap.SharedArena;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A flat file of tokens, memory-mapped: little-endian unsigned integers of one {@link TokenType},
 * no header, as {@code np.memmap(path, dtype='<u2')} sees it. Files past 2 GiB are mapped whole.
 * Reading is thread-safe; {@link #close()} unmaps the file.
 *
 * <pre>{@code
 * try (TokenFile tokens = TokenFile.open(Path.of("train.bin"), TokenType.U16)) {
 *     tokens.size();      // number of tokens
 *     tokens.get(0);      // the first token, 0..65535
 * }
 * }</pre>
 */
public final class TokenFile implements AutoCloseable {
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MappedFile file;
    private final TokenType type;
    private final long size;

    private TokenFile(MappedFile file, TokenType type) {
        this.file = file;
        this.type = type;
        this.size = file.size() / type.bytes();
    }

    /**
     * Maps {@code path} as tokens of {@code type}.
     *
     * @throws TokenFileException when the file's size is not a whole number of tokens
     */
    public static TokenFile open(Path path, TokenType type) throws IOException {
        return check(MappedFile.open(path), type);
    }

    /** As {@link #open(Path, TokenType)}, mapped in {@code group}'s shared arena. */
    public static TokenFile open(Path path, TokenType type, SharedArena group) throws IOException {
        return check(MappedFile.open(path, group), type);
    }

    private static TokenFile check(MappedFile file, TokenType type) throws TokenFileException {
        Objects.requireNonNull(type, "type");
        if (file.size() % type.bytes() != 0) {
            long size = file.size();
            file.close();
            throw new TokenFileException(file.path().toString(), size + " bytes is not a whole number of "
                    + type + " tokens (" + type.bytes() + " bytes each); the last " + (size % type.bytes())
                    + " bytes are a partial token: a truncated file, or the wrong token type");
        }
        return new TokenFile(file, type);
    }

    public Path path() {
        return file.path();
    }

    public TokenType type() {
        return type;
    }

    /** The number of tokens. */
    public long size() {
        return size;
    }

    /** Token {@code i}, as an unsigned value. */
    public long get(long i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException(path() + ": token " + i + " is outside [0, " + size + ")");
        }
        try {
            return type == TokenType.U16
                    ? Short.toUnsignedLong(file.segment().get(U16, i * 2))
                    : Integer.toUnsignedLong(file.segment().get(U32, i * 4));
        } catch (InternalError e) {
            throw changed(e, "token " + i);
        }
    }

    /**
     * What to throw for {@code error}, caught while reading {@code what} from this file's map: a
     * {@link dev.stoker.formats.mmap.MappedFileChangedError} naming the file when it was
     * truncated under the map (see {@link dev.stoker.formats.mmap.MapFaults}).
     */
    public Error changed(InternalError error, String what) {
        return file.changed(error, what);
    }

    /** The file's size in bytes on disk now, or -1 when it is gone: see {@link MappedFile#sizeNow()}. */
    public long sizeNow() {
        return file.sizeNow();
    }

    /** The file's bytes. Valid until {@link #close()}. */
    public MemorySegment segment() {
        return file.segment();
    }

    /**
     * Writes tokens {@code [from, from + count)} into {@code dst} as int64, from byte
     * {@code dstOffset}: the widening W2 does for every window.
     */
    public void widen(long from, MemorySegment dst, long dstOffset, int count) {
        if (from < 0 || count < 0 || from > size - count) {
            throw new IndexOutOfBoundsException(path() + ": tokens [" + from + ", " + (from + count)
                    + ") are outside [0, " + size + ")");
        }
        if (type == TokenType.U16) {
            Widening.u16ToI64(file.segment(), from * 2, dst, dstOffset, count);
        } else {
            Widening.u32ToI64(file.segment(), from * 4, dst, dstOffset, count);
        }
    }

    /** Writes tokens {@code [from, from + dst.length)} into {@code dst} as int64. */
    public void widen(long from, long[] dst) {
        int count = dst.length;
        if (from < 0 || from > size - count) {
            throw new IndexOutOfBoundsException(path() + ": tokens [" + from + ", " + (from + count)
                    + ") are outside [0, " + size + ")");
        }
        if (type == TokenType.U16) {
            Widening.u16ToLongs(file.segment(), from * 2, dst, count);
        } else {
            Widening.u32ToLongs(file.segment(), from * 4, dst, count);
        }
    }

    /** Unmaps the file. Idempotent. */
    @Override
    public void close() {
        file.close();
    }

    @Override
    public String toString() {
        return "TokenFile(" + path() + ", " + size + " " + type + " tokens)";
    }
}
