package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index must describe its shard: counts that would overflow, members out of order or off the
 * block grid are refused when it is read, and a member whose tar header is not where the index
 * puts it (a shard rewritten since with the same length) is refused when its sample is read,
 * while the indexes of tars from every writer (Python's ustar, pax and GNU, GNU tar, Stoker's,
 * with long and non-ASCII names) read as before.
 */
class ShardIndexMatchTest {
    @TempDir
    Path dir;

    @Test
    void samplesOfTarsFromEveryWriterReadThroughTheirIndex() throws Exception {
        Map<String, byte[]> fields = Map.of("txt", "a".getBytes(StandardCharsets.UTF_8));
        List<Fixtures.Sample> samples = List.of(new Fixtures.Sample("000000", fields),
                new Fixtures.Sample("dir/" + "k".repeat(150), fields),
                new Fixtures.Sample("nested/" + "d".repeat(60) + "/" + "x".repeat(90), fields),
                new Fixtures.Sample("caf\u00e9-\u65e5\u672c", fields),
                new Fixtures.Sample("\u00e9" + "y".repeat(120), fields));
        Path stoker = dir.resolve("stoker.tar");
        FuzzInputs.writeShard(stoker, samples);
        List<Path> tars = new ArrayList<>(List.of(stoker));
        for (String name : List.of("ustar.tar", "pax.tar", "gnu.tar", "gnutar.tar")) {
            tars.add(Files.copy(Fixtures.tar(name), dir.resolve(name)));
        }
        for (Path tar : tars) {
            Map<String, String> expected = new LinkedHashMap<>();
            for (Map.Entry<String, String> m : Fixtures.members(tar).entrySet()) {
                if (SampleKeys.key(m.getKey()) != null && !m.getKey().startsWith("__")) {
                    expected.put(m.getKey(), m.getValue());
                }
            }
            ShardIndex.scan(tar).write(ShardIndex.sidecar(tar));
            Map<String, String> got = new LinkedHashMap<>();
            try (IndexedTarDataset ds = IndexedTarDataset.open(List.of(tar.toString()),
                    IndexedTarDataset.MissingIndex.FAIL)) {
                for (long i = 0; i < ds.size(); i++) {
                    TarSample s = ds.get(i);
                    for (String e : s.extensions()) {
                        got.put(s.key() + "." + e, new String(s.bytes(e), StandardCharsets.ISO_8859_1));
                    }
                }
            }
            assertThat(got).as(tar.getFileName().toString()).isEqualTo(expected);
        }
    }

    @Test
    void aShardRewrittenWithTheSameLengthIsRefusedAtItsFirstSample() throws Exception {
        List<Fixtures.Sample> samples = Fixtures.randomSamples(new Random(7), 12);
        Path shard = dir.resolve("s.tar");
        FuzzInputs.writeShard(shard, samples);
        List<Fixtures.Sample> shuffled = new ArrayList<>(samples);
        Collections.shuffle(shuffled, new Random(1));
        Path rewritten = dir.resolve("rewritten.tar");
        FuzzInputs.writeShard(rewritten, shuffled);
        long length = Files.size(shard);
        Files.copy(rewritten, shard, java.nio.file.StandardCopyOption.REPLACE_EXISTING); // its old sidecar stays
        assertThat(Files.size(shard)).as("the same length: only the members tell").isEqualTo(length);
        try (IndexedTarDataset ds = IndexedTarDataset.open(List.of(shard.toString()),
                IndexedTarDataset.MissingIndex.FAIL)) {
            assertThatThrownBy(() -> ds.get(0))
                    .isInstanceOf(TarException.class)
                    .hasMessageContaining(shard.toString())
                    .hasMessageContaining("member \"" + samples.getFirst().key() + ".")
                    .hasMessageContaining("the index does not describe this shard");
        }
    }

    @Test
    void headersAreCheckedOncePerMappingAndAgainForAnotherMapping() throws Exception {
        List<Fixtures.Sample> samples = Fixtures.randomSamples(new Random(7), 12);
        Path shard = dir.resolve("s.tar");
        FuzzInputs.writeShard(shard, samples);
        List<Fixtures.Sample> shuffled = new ArrayList<>(samples);
        Collections.shuffle(shuffled, new Random(1));
        Path rewritten = dir.resolve("rewritten.tar");
        FuzzInputs.writeShard(rewritten, shuffled);
        ShardIndex index = ShardIndex.scan(shard);
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment good = arena.allocate(Files.size(shard));
            good.copyFrom(java.lang.foreign.MemorySegment.ofArray(Files.readAllBytes(shard)));
            java.lang.foreign.MemorySegment other = arena.allocate(Files.size(rewritten));
            other.copyFrom(java.lang.foreign.MemorySegment.ofArray(Files.readAllBytes(rewritten)));
            for (int i = 0; i < samples.size(); i++) {
                assertThat(index.sample(i, good, "good").key()).isEqualTo(samples.get(i).key());
                assertThat(index.sample(i, good, "good").key()).isEqualTo(samples.get(i).key()); // marked: no re-check
            }
            // Another mapping of the same length starts unchecked: its first sample is checked and refused.
            assertThatThrownBy(() -> index.sample(0, other, "other")).isInstanceOf(TarException.class)
                    .hasMessageContaining("the index does not describe this shard");
            assertThat(index.sample(0, good, "good").key()).isEqualTo(samples.getFirst().key());
        }
    }

    @Test
    void countsThatOverflowWhenMultipliedAreRefusedBeforeAnythingIsAllocated() throws Exception {
        Path shard = dir.resolve("c.tar");
        FuzzInputs.writeShard(shard, Fixtures.randomSamples(new Random(8), 4));
        byte[] idx = Files.readAllBytes(ShardIndex.sidecar(shard));
        for (long count : new long[] {1L << 62, (1L << 62) + 1, 2817825516850473026L}) {
            byte[] bad = idx.clone();
            ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putLong(24, count);
            IndexFuzzArea.fixCrc(bad);
            Path file = Files.write(dir.resolve("bad.idx"), bad);
            assertThatThrownBy(() -> ShardIndex.read(file)).as("%d samples", count)
                    .isInstanceOf(IndexFormatException.class)
                    .hasMessageContaining("bad.idx")
                    .hasMessageContaining(count + " samples");
        }
    }

    @Test
    void membersOverlappingOrOffTheBlockGridAreRefused() throws Exception {
        Path shard = dir.resolve("o.tar");
        FuzzInputs.writeShard(shard, List.of(
                new Fixtures.Sample("000000", Map.of("bin", new byte[1000])),
                new Fixtures.Sample("000001", Map.of("bin", new byte[10]))));
        byte[] idx = Files.readAllBytes(ShardIndex.sidecar(shard));
        // the second member's offset field: header, key "000000" (2 + 6), count (2), ext "bin" (2 + 3), offset, size,
        // key "000001" (2 + 6), count (2), ext "bin" (2 + 3)
        int second = ShardIndex.HEADER + 8 + 2 + 5 + 16 + 8 + 2 + 5;
        ByteBuffer in = ByteBuffer.wrap(idx).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(in.getLong(second)).isEqualTo(512 + 1024 + 512);
        for (long offset : new long[] {512 + 512, 512 + 1024, 512 + 1024 + 512 + 7}) {
            byte[] bad = idx.clone();
            ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putLong(second, offset);
            IndexFuzzArea.fixCrc(bad);
            Path file = Files.write(dir.resolve("bad.idx"), bad);
            assertThatThrownBy(() -> ShardIndex.read(file)).as("offset %d", offset)
                    .isInstanceOf(IndexFormatException.class)
                    .hasMessageContaining("bad.idx")
                    .hasMessageContaining("sample \"000001\"")
                    .hasMessageMatching(".*(overlaps the member before|not at a 512-byte block boundary).*");
        }
    }
}
