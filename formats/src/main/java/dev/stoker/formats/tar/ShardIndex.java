package dev.stoker.formats.tar;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Where each sample of one tar shard lies: its key and, per member, the extension, data offset and
 * size. Kept in a small sidecar file beside the shard ({@code shard-000000.tar.idx}) so that a set
 * of shards can be read in any order ({@link IndexedTarDataset}) without touching the shard itself.
 *
 * <p>The file, little-endian:
 * <pre>
 * magic "STKTARIX" (8) | version u32 = 1 | flags u32 = 0 | shard length u64 | samples u64 | members u64
 * per sample: key length u16 | key (UTF-8) | members u16
 *   per member: extension length u16 | extension (UTF-8) | data offset u64 | size u64
 * CRC-32C of everything before it, u32
 * </pre>
 * On open, the magic, version, checksum and every count, length and offset are checked; the shard
 * length recorded must match the shard's, so a shard rewritten after it was indexed is caught.
 *
 * <pre>{@code
 * ShardIndex idx = ShardIndex.scan(Path.of("shard-000000.tar"));
 * idx.write(ShardIndex.sidecar(Path.of("shard-000000.tar")));
 * }</pre>
 */
public final class ShardIndex {
    static final byte[] MAGIC = "STKTARIX".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int HEADER = 40;
    /** Larger than the index of any real shard; a bigger file is not an index. */
    static final long MAX_FILE = 1L << 30;

    private final long shardLength;
    private final String[] keys;
    private final int[] firstMember;
    /** Each member's extension as its tar header names it: what {@link MemberHeaderCheck} compares. */
    private final String[] extensions;
    /** Each member's field, its extension lower-cased (WebDataset's): computed once, not per read. */
    private final String[] fields;
    private final long[] offsets;
    private final long[] sizes;
    /** The members of the mapping read last whose headers were checked; replaced for another mapping. */
    private volatile CheckedMembers checked;

    private ShardIndex(long shardLength, String[] keys, int[] firstMember, String[] extensions, long[] offsets,
                       long[] sizes) {
        this.shardLength = shardLength;
        this.keys = keys;
        this.firstMember = firstMember;
        this.extensions = extensions;
        this.fields = new String[extensions.length];
        for (int m = 0; m < extensions.length; m++) {
            fields[m] = SampleKeys.fieldOf(extensions[m]).intern();
        }
        this.offsets = offsets;
        this.sizes = sizes;
    }

    /** The sidecar's path for a shard: the shard's name plus {@code .idx}. */
    public static Path sidecar(Path shard) {
        return shard.resolveSibling(shard.getFileName() + ".idx");
    }

    /** The number of samples in the shard. */
    public int sampleCount() {
        return keys.length;
    }

    /** The number of members (files) in all samples. */
    public int memberCount() {
        return extensions.length;
    }

    /** The length in bytes of the shard this index describes. */
    public long shardLength() {
        return shardLength;
    }

    /** The key of sample {@code i}. */
    public String key(int i) {
        return keys[i];
    }

    /** The fields of sample {@code i} (its members' extensions, lower-cased), in shard order. */
    public List<String> extensions(int i) {
        return Arrays.asList(fields).subList(firstMember[i], firstMember[i + 1]);
    }

    /** The data bytes of sample {@code i}, all members together. */
    public long sampleBytes(int i) {
        long total = 0;
        for (int m = firstMember[i]; m < firstMember[i + 1]; m++) {
            total += sizes[m];
        }
        return total;
    }

    /**
     * Sample {@code i} as slices of {@code shard}, the whole shard in memory. Each member's tar
     * header is checked against the index the first time the member is read from this mapping (a
     * block next to the data; see {@link CheckedMembers}).
     *
     * @throws TarException naming {@code url} when the shard does not hold the member where this
     *     index puts it (the index is stale, or describes another shard of the same length)
     */
    public TarSample sample(int i, MemorySegment shard, String url) {
        if (shard.byteSize() != shardLength) {
            throw new TarException(url, 0, "is " + shard.byteSize() + " bytes but its index describes " + shardLength
                    + " (stale index: rebuild it with stoker index)");
        }
        CheckedMembers c = checked;
        if (c == null || !c.covers(shard)) {
            c = new CheckedMembers(shard, extensions.length);
            checked = c;
        }
        Map<String, MemorySegment> sample = new LinkedHashMap<>();
        for (int m = firstMember[i]; m < firstMember[i + 1]; m++) {
            if (!c.isChecked(m)) {
                MemberHeaderCheck.check(shard, url, keys[i], extensions[m], offsets[m], sizes[m]);
                c.markChecked(m);
            }
            sample.put(fields[m], shard.asSlice(offsets[m], sizes[m]));
        }
        return new TarSample(keys[i], url, sample);
    }

    /** Reads the whole shard at {@code shard} and indexes it. */
    public static ShardIndex scan(Path shard) {
        try (Arena arena = Arena.ofConfined(); TarReader tar = TarReader.open(shard, arena)) {
            return scan(tar, Files.size(shard));
        } catch (IOException e) {
            throw new TarException(shard.toString(), 0, "cannot read: " + e, e);
        }
    }

    /** Indexes what {@code tar} reads; {@code shardLength} is the shard's length in bytes. */
    public static ShardIndex scan(TarReader tar, long shardLength) {
        Builder b = new Builder();
        SampleGrouper groups = new SampleGrouper(tar);
        while (groups.hasNext()) {
            MemberGroup g = groups.next();
            b.sample(g.key());
            for (TarMember m : g.members()) {
                b.member(SampleKeys.extension(m.name()), m.dataOffset(), m.size());
            }
        }
        return b.build(shardLength);
    }

    /**
     * Indexes a shard read as a stream (a URL, a command's output) to its end: its length is what
     * the stream held, end marker and padding included. A gzip-compressed shard cannot be indexed
     * by offset and is refused.
     *
     * @throws TarException naming the shard, also when it is compressed
     */
    public static ShardIndex scanStream(TarReader tar) {
        ShardIndex idx = scan(tar, -1);
        if (tar.inflated()) {
            throw new TarException(tar.name(), 0, "is gzip-compressed: its members cannot be read by offset, so an"
                    + " index of it would be no use (store the shard uncompressed)");
        }
        return new ShardIndex(tar.position(), idx.keys, idx.firstMember, idx.extensions, idx.offsets, idx.sizes);
    }

    /** Writes this index to {@code file}, whole or not at all (through a temporary file). */
    public void write(Path file) {
        long bytes = HEADER + 4;
        byte[][] keyBytes = new byte[keys.length][];
        byte[][] extBytes = new byte[extensions.length][];
        for (int i = 0; i < keys.length; i++) {
            keyBytes[i] = utf8Field(keys[i], "key");
            bytes += 4 + keyBytes[i].length;
        }
        for (int m = 0; m < extensions.length; m++) {
            extBytes[m] = utf8Field(extensions[m], "extension");
            bytes += 2 + extBytes[m].length + 16;
        }
        if (bytes > MAX_FILE) {
            throw new IllegalStateException("index of " + keys.length + " samples would take " + bytes + " bytes");
        }
        ByteBuffer out = ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putInt(VERSION).putInt(0).putLong(shardLength).putLong(keys.length)
                .putLong(extensions.length);
        for (int i = 0; i < keys.length; i++) {
            int members = firstMember[i + 1] - firstMember[i];
            if (members > 0xFFFF) {
                throw new IllegalStateException("sample \"" + keys[i] + "\" has " + members + " members");
            }
            out.putShort((short) keyBytes[i].length).put(keyBytes[i]).putShort((short) members);
            for (int m = firstMember[i]; m < firstMember[i + 1]; m++) {
                out.putShort((short) extBytes[m].length).put(extBytes[m]).putLong(offsets[m]).putLong(sizes[m]);
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        // a temporary name of its own: ranks that build one missing index at once must not write one file
        Path tmp = null;
        try {
            Path folder = file.toAbsolutePath().getParent();
            tmp = Files.createTempFile(folder, "." + file.getFileName(), ".tmp");
            Files.write(tmp, out.array());
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new UncheckedIOException("cannot write index " + file + ": " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path tmp) {
        if (tmp != null) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // a hidden temporary file: never read as an index
            }
        }
    }

    private static byte[] utf8Field(String s, String what) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > 0xFFFF) {
            throw new IllegalStateException(what + " of " + b.length + " bytes is too long for an index");
        }
        return b;
    }

    /**
     * Reads and checks the index at {@code file}.
     *
     * @throws IndexFormatException when it is not a valid index
     */
    public static ShardIndex read(Path file) {
        byte[] bytes;
        try {
            DataFiles.requireRegularFile(file); // a FIFO would block the read, a device read without end
            long size = Files.size(file);
            if (size > MAX_FILE) {
                throw new IndexFormatException(file, 0, "is " + size + " bytes, too large to be a shard index");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read index " + file + ": " + e.getMessage(), e);
        }
        return IndexParser.parse(file, bytes);
    }

    /**
     * Reads the index at {@code file} and checks that it describes a shard of {@code shardLength} bytes.
     */
    public static ShardIndex read(Path file, long shardLength) {
        ShardIndex idx = read(file);
        if (idx.shardLength != shardLength) {
            throw new IndexFormatException(file, 16, "describes a shard of " + idx.shardLength
                    + " bytes, but the shard has " + shardLength + " (stale index: rebuild it with stoker index)");
        }
        return idx;
    }

    /** Collects samples and members in shard order. */
    static final class Builder {
        private final List<String> keys = new ArrayList<>();
        private final List<Integer> first = new ArrayList<>();
        private final List<String> extensions = new ArrayList<>();
        private long[] offsets = new long[16];
        private long[] sizes = new long[16];

        void sample(String key) {
            keys.add(key);
            first.add(extensions.size());
        }

        void member(String extension, long offset, long size) {
            int m = extensions.size();
            if (m == offsets.length) {
                offsets = Arrays.copyOf(offsets, m * 2);
                sizes = Arrays.copyOf(sizes, m * 2);
            }
            extensions.add(extension.intern());
            offsets[m] = offset;
            sizes[m] = size;
        }

        int samples() {
            return keys.size();
        }

        ShardIndex build(long shardLength) {
            int[] firstMember = new int[keys.size() + 1];
            for (int i = 0; i < keys.size(); i++) {
                firstMember[i] = first.get(i);
            }
            firstMember[keys.size()] = extensions.size();
            int m = extensions.size();
            return new ShardIndex(shardLength, keys.toArray(String[]::new), firstMember,
                    extensions.toArray(String[]::new), Arrays.copyOf(offsets, m), Arrays.copyOf(sizes, m));
        }
    }

    static ShardIndex of(long shardLength, String[] keys, int[] firstMember, String[] extensions, long[] offsets,
                         long[] sizes) {
        return new ShardIndex(shardLength, keys, firstMember, extensions, offsets, sizes);
    }
}
