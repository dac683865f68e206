package dev.stoker.formats.jsonl;

import dev.stoker.data.DataFiles;
import dev.stoker.formats.mmap.MappedFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Where each line of a plain JSONL file starts: a sidecar beside it ({@code train.jsonl.lines}),
 * built once by one pass over the file and mapped after that, so that line {@code i} is two reads
 * away.
 *
 * <p>The sidecar, little-endian:
 * <pre>
 * magic "STKJSONL" (8) | version u32 = 1 | flags u32 = 0
 * data size u64 | data mtime u64 (ms) | CRC-32C of the data's first 64 KiB u32 | 0 u32
 * offsets u64[lines + 1]: where each line starts, then the data size
 * lines u64 | CRC-32C of everything before it u32
 * </pre>
 * A line is what lies between two {@code '\n'} (its {@code '\n'} and a {@code '\r'} before it
 * are not part of it); text after the last {@code '\n'} is a line too. On open the magic, version,
 * size, checksum and offsets (from 0, rising, ending at the data size) are checked, and the data
 * file's size, modification time and head must be those it was indexed with: a file changed after
 * it was indexed is refused, with what changed and what to do.
 */
final class LineIndex implements AutoCloseable {
    static final byte[] MAGIC = "STKJSONL".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int HEADER = 40;
    static final int TRAILER = 12;
    static final int HEAD_BYTES = 64 * 1024;

    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MappedFile sidecar;
    private final long lines;

    private LineIndex(MappedFile sidecar, long lines) {
        this.sidecar = sidecar;
        this.lines = lines;
    }

    /** The sidecar's default path: the data file's name plus {@code .lines}. */
    static Path sidecarOf(Path data) {
        return data.resolveSibling(data.getFileName() + ".lines");
    }

    /** Scans {@code data} and writes its index to {@code sidecar}: to a temporary file beside it, then renamed. */
    static void build(Path data, Path sidecar) throws IOException {
        Stamp stamp = Stamp.of(data);
        // a name of its own (two ranks may index one file at once; the last rename wins, both whole),
        // created as any file is, so that the sidecar has the umask's permissions
        Path temp = sidecar.resolveSibling(sidecar.getFileName() + "."
                + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            CRC32C crc = new CRC32C();
            try (OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    InputStream in = DataFiles.newInputStream(data)) {
                ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
                buf.put(MAGIC).putInt(VERSION).putInt(0).putLong(stamp.size).putLong(stamp.mtime).putInt(stamp.head).putInt(0);
                buf.putLong(0);
                long lines = 0;
                long at = 0;
                long last = 0; // where the last line found starts
                byte[] chunk = new byte[1 << 16];
                int n;
                while ((n = in.read(chunk)) > 0) {
                    for (int i = 0; i < n; i++) {
                        if (chunk[i] == '\n') {
                            lines++;
                            if (buf.remaining() < 8) {
                                drain(buf, out, crc);
                            }
                            last = at + i + 1;
                            buf.putLong(last);
                        }
                    }
                    at += n;
                }
                if (at != stamp.size) {
                    throw new JsonlIndexException(data, "changed size while it was indexed (" + stamp.size + " then "
                            + at + " bytes)");
                }
                if (last != at) {
                    lines++; // text after the last newline is a line
                    if (buf.remaining() < 8) {
                        drain(buf, out, crc);
                    }
                    buf.putLong(at);
                }
                if (buf.remaining() < 8) {
                    drain(buf, out, crc);
                }
                buf.putLong(lines);
                drain(buf, out, crc);
                buf.putInt((int) crc.getValue());
                buf.flip();
                out.write(buf.array(), 0, buf.limit());
            }
            Files.move(temp, sidecar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void drain(ByteBuffer buf, OutputStream out, CRC32C crc) throws IOException {
        crc.update(buf.array(), 0, buf.position());
        out.write(buf.array(), 0, buf.position());
        buf.clear();
    }

    /**
     * Maps and checks the index of {@code data} in {@code sidecar}.
     *
     * @throws JsonlIndexException for a damaged sidecar or one made for another version of the data
     */
    static LineIndex open(Path data, Path sidecar) throws IOException {
        MappedFile file = MappedFile.open(sidecar);
        try {
            long lines = check(data, sidecar, file.segment());
            return new LineIndex(file, lines);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private static long check(Path data, Path sidecar, MemorySegment s) throws IOException {
        long size = s.byteSize();
        if (size < HEADER + 8 + TRAILER || (size - HEADER - TRAILER) % 8 != 0) {
            throw damaged(sidecar, "is " + size + " bytes, not a whole line index");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) != MAGIC[i]) {
                throw damaged(sidecar, "does not start with STKJSONL: not a JSONL line index");
            }
        }
        int version = s.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8);
        if (version != VERSION) {
            throw damaged(sidecar, "has version " + version + "; this Stoker reads version " + VERSION);
        }
        CRC32C crc = new CRC32C();
        crc.update(s.asSlice(0, size - 4).asByteBuffer());
        int stored = s.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), size - 4);
        if (stored != (int) crc.getValue()) {
            throw damaged(sidecar, "fails its checksum");
        }
        long lines = s.get(U64, size - TRAILER);
        if (lines != (size - HEADER - TRAILER) / 8 - 1) {
            throw damaged(sidecar, "says " + lines + " lines but holds " + ((size - HEADER - TRAILER) / 8 - 1) + " offsets");
        }
        long dataSize = s.get(U64, 16);
        long mtime = s.get(U64, 24);
        int head = s.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 32);
        Stamp now = Stamp.of(data);
        if (now.size != dataSize || now.mtime != mtime || now.head != head) {
            throw new JsonlIndexException(sidecar, "indexes another version of " + data + " (indexed at " + dataSize
                    + " bytes, modified " + java.time.Instant.ofEpochMilli(mtime) + "; now " + now.size + " bytes, modified "
                    + java.time.Instant.ofEpochMilli(now.mtime) + (now.size == dataSize && now.mtime == mtime
                    ? ", and its first bytes differ" : "") + "): delete the sidecar to index the file again");
        }
        long previous = -1;
        for (long k = 0; k <= lines; k++) {
            long at = s.get(U64, HEADER + 8 * k);
            if (k == 0 ? at != 0 : at <= previous || at > dataSize) {
                throw damaged(sidecar, "line " + (k + 1) + " starts at byte " + at + ", outside (" + previous + ", "
                        + dataSize + "]");
            }
            previous = at;
        }
        if (previous != dataSize) {
            throw damaged(sidecar, "its lines end at byte " + previous + " of a " + dataSize + "-byte file");
        }
        return lines;
    }

    private static JsonlIndexException damaged(Path sidecar, String what) {
        return new JsonlIndexException(sidecar, what + ": delete it to index the data file again");
    }

    long lines() {
        return lines;
    }

    /** Where line {@code i} (from 0) starts. */
    long start(long i) {
        return sidecar.segment().get(U64, HEADER + 8 * i);
    }

    /** Where line {@code i}'s successor starts (its end, newline included). */
    long next(long i) {
        return sidecar.segment().get(U64, HEADER + 8 * (i + 1));
    }

    /** The mapped sidecar, for naming it when it changed under its map. */
    MappedFile sidecar() {
        return sidecar;
    }

    @Override
    public void close() {
        sidecar.close();
    }

    /** What identifies a version of the data file. */
    private record Stamp(long size, long mtime, int head) {
        static Stamp of(Path data) throws IOException {
            DataFiles.requireRegularFile(data); // a FIFO would block the read below, not fail it
            long size = Files.size(data);
            long mtime = Files.getLastModifiedTime(data).toMillis();
            CRC32C crc = new CRC32C();
            try (InputStream in = Files.newInputStream(data)) {
                crc.update(in.readNBytes(HEAD_BYTES));
            }
            return new Stamp(size, mtime, (int) crc.getValue());
        }
    }
}
