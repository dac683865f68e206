package dev.stoker.formats.tar;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/** The valid inputs the fuzz areas damage, and what reading them must give back. */
final class FuzzInputs {
    /** The largest member the fuzzed streams may hold: far above the fixtures', far below the case JVM's heap. */
    static final long MAX_MEMBER = 1 << 20;

    private FuzzInputs() {
    }

    /** A shard (and its .idx) of {@code n} seeded random samples, written by {@link ShardWriter} as {@code path}. */
    static List<Fixtures.Sample> writeShard(Path path, long seed, int n) {
        List<Fixtures.Sample> samples = Fixtures.randomSamples(new Random(seed), n);
        writeShard(path, samples);
        return samples;
    }

    /** {@code samples} as one shard at {@code path}, with its .idx beside it. */
    static void writeShard(Path path, List<Fixtures.Sample> samples) {
        String pattern = path.resolveSibling(path.getFileName() + "-%d.tmp").toString();
        Path written;
        try (ShardWriter w = ShardWriter.builder(pattern).maxSamples(Long.MAX_VALUE).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
            written = w.shards().getFirst().path();
        }
        try {
            Files.move(written, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(ShardIndex.sidecar(written), ShardIndex.sidecar(path),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            // the one shard moved away: its set's manifest goes too
            Files.delete(path.resolveSibling(ShardNamePattern.of(Path.of(pattern).getFileName().toString())
                    .manifestName()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(data);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    /**
     * A gzip stream of {@code head} followed by {@code zeros} zero bytes, made without holding the
     * zeros: a bomb of a few kilobytes that inflates to {@code zeros} bytes.
     */
    static byte[] gzipBomb(byte[] head, long zeros) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes, 1 << 16)) {
            out.write(head);
            byte[] chunk = new byte[1 << 16];
            for (long left = zeros; left > 0; left -= chunk.length) {
                out.write(chunk, 0, (int) Math.min(left, chunk.length));
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    /** Every sample {@code tar} reads, copied out of it. */
    static List<Fixtures.Sample> readAll(TarReader tar) {
        List<Fixtures.Sample> out = new ArrayList<>();
        try (tar) {
            SampleGrouper g = new SampleGrouper(tar);
            while (g.hasNext()) {
                TarSample s = TarSample.of(g.next(), tar.name());
                Map<String, byte[]> fields = new LinkedHashMap<>();
                for (String e : s.extensions()) {
                    fields.put(e, s.bytes(e));
                }
                out.add(new Fixtures.Sample(s.key(), fields));
            }
        }
        return out;
    }

    /** Throws when {@code got} are not exactly {@code expected}: damage read as data without an error. */
    static void assertSame(List<Fixtures.Sample> got, List<Fixtures.Sample> expected, String what) {
        if (got.size() != expected.size()) {
            throw new AssertionError(what + " read " + got.size() + " samples without an error, not "
                    + expected.size());
        }
        for (int i = 0; i < got.size(); i++) {
            Fixtures.Sample g = got.get(i);
            Fixtures.Sample e = expected.get(i);
            if (!g.key().equals(e.key()) || !g.fields().keySet().equals(e.fields().keySet())
                    || !g.fields().entrySet().stream().allMatch(f -> java.util.Arrays.equals(f.getValue(),
                    e.fields().get(f.getKey())))) {
                throw new AssertionError(what + ": sample " + i + " read without an error but is not the one written ("
                        + g.key() + " vs " + e.key() + ")");
            }
        }
    }

    static Path write(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes);
        return file;
    }
}
