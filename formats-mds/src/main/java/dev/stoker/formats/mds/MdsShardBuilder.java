package dev.stoker.formats.mds;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One shard of an {@link MdsWriter} while it fills: the samples go to a file aside as they come
 * (memory holds their sizes alone, whatever the size limit), and {@link #finish} writes the shard
 * file, header first, compressed and hashed in the same pass.
 */
final class MdsShardBuilder {
    private final Path dir;
    private final int number;
    private final byte[] config;
    private final Path body;
    private final Path target;
    private final OutputStream bodyOut;
    private int[] sizes = new int[1024];
    private int samples;
    private long bytes;

    MdsShardBuilder(Path dir, int number, byte[] config, ShardCompressor compression) throws IOException {
        this.dir = dir;
        this.number = number;
        this.config = config;
        String rawName = String.format("shard.%05d.mds", number);
        this.target = dir.resolve(compression == null ? rawName : rawName + "." + compression.family());
        this.body = dir.resolve(String.format(".shard.%05d.body.tmp", number));
        this.bodyOut = new BufferedOutputStream(Files.newOutputStream(body), 1 << 16);
        this.bytes = 8L + config.length; // the sample count, the last offset and the config
    }

    int samples() {
        return samples;
    }

    /** The shard's size so far, counted as Streaming counts it for the size limit. */
    long bytes() {
        return bytes;
    }

    void add(byte[] sample) throws IOException {
        bodyOut.write(sample);
        if (samples == sizes.length) {
            sizes = Arrays.copyOf(sizes, samples * 2);
        }
        sizes[samples++] = sample.length;
        bytes += sample.length + 4L;
    }

    /** The shard's file once finished (written aside under a hidden name until then). */
    Path file() {
        return target;
    }

    /** Writes the shard file and gives its entry of {@code index.json}. */
    Map<String, Object> finish(List<String> names, List<String> encodings, List<Integer> columnSizes,
                               ShardCompressor compression, List<String> hashes, long sizeLimit) throws IOException {
        bodyOut.close();
        String rawName = String.format("shard.%05d.mds", number);
        String zipName = compression == null ? null : rawName + "." + compression.family();
        Path tmp = dir.resolve("." + target.getFileName() + ".tmp");

        MessageDigest[] rawDigests = digests(hashes);
        MessageDigest[] zipDigests = digests(hashes);
        long zipBytes;
        try {
            try (CountingStream file = new CountingStream(digesting(
                    new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16), zipDigests));
                 OutputStream raw = digesting(compression == null ? file : compression.compressing(file), rawDigests)) {
                raw.write(header());
                raw.write(config);
                try (InputStream in = Files.newInputStream(body)) {
                    in.transferTo(raw);
                }
                raw.flush();
                raw.close();
                zipBytes = file.count;
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp); // a failed shard leaves nothing aside
            throw e;
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(body);

        Map<String, Object> entry = new TreeMap<>();
        entry.put("column_encodings", encodings);
        entry.put("column_names", names);
        entry.put("column_sizes", columnSizes);
        entry.put("compression", compression == null ? null : compression.spec());
        entry.put("format", "mds");
        entry.put("hashes", hashes);
        entry.put("raw_data", fileInfo(rawName, bytes, hashes, rawDigests));
        entry.put("samples", samples);
        entry.put("size_limit", sizeLimit == 0 ? null : sizeLimit);
        entry.put("version", 2);
        entry.put("zip_data", zipName == null ? null : fileInfo(zipName, zipBytes, hashes, zipDigests));
        return entry;
    }

    /** Drops the file aside: the shard ended empty. */
    void discard() throws IOException {
        bodyOut.close();
        Files.deleteIfExists(body);
    }

    /** The sample count and the offsets, each sample's from the start of the file. */
    private byte[] header() {
        ByteBuffer head = ByteBuffer.allocate(4 * (samples + 2)).order(ByteOrder.LITTLE_ENDIAN);
        head.putInt(samples);
        long offset = 4L * (samples + 2) + config.length;
        head.putInt((int) offset);
        for (int i = 0; i < samples; i++) {
            offset += sizes[i];
            head.putInt((int) offset); // below 2^32 by the writer's checks: the u32 bits
        }
        return head.array();
    }

    private static Map<String, Object> fileInfo(String name, long size, List<String> hashes, MessageDigest[] digests) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("basename", name);
        info.put("bytes", size);
        Map<String, String> sums = new TreeMap<>();
        for (int i = 0; i < digests.length; i++) {
            sums.put(hashes.get(i), java.util.HexFormat.of().formatHex(digests[i].digest()));
        }
        info.put("hashes", sums);
        return info;
    }

    private static MessageDigest[] digests(List<String> hashes) {
        MessageDigest[] digests = new MessageDigest[hashes.size()];
        for (int i = 0; i < digests.length; i++) {
            try {
                digests[i] = MessageDigest.getInstance(ShardHashes.jdkName(hashes.get(i)));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("this JDK has no " + hashes.get(i), e);
            }
        }
        return digests;
    }

    private static OutputStream digesting(OutputStream out, MessageDigest[] digests) {
        OutputStream s = out;
        for (MessageDigest d : digests) {
            s = new DigestOutputStream(s, d);
        }
        return s;
    }

    /** Counts what reaches the file: the compressed size. */
    private static final class CountingStream extends FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
