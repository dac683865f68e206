package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.mmap.MappedFileChangedError;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shard cut short (truncated by another process) after it was mapped fails the samples read from
 * it with an error naming the shard's file and the sample, not the JVM's nameless InternalError:
 * on the sample path, the fill path and the collate path.
 */
class TruncatedMdsShardTest {
    @TempDir
    Path dir;

    private static void cut(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(0);
        }
    }

    @Test
    void aShardCutShortUnderItsMapIsNamedWithTheSample() throws IOException {
        Path data = MdsFixtures.copy("scalars", dir);
        Path last = data.resolve("shard.00007.mds"); // sample 11, the last
        try (MdsDataset mds = MdsDataset.open(data)) {
            long n = mds.size();
            assertThat(mds.get(n - 1).longValue("i64")).isNotNull(); // mapped and read
            MdsTensorDataset tensors = mds.tensors("f32", "i64");
            tensors.get(n - 1);
            cut(last);
            assertThatThrownBy(() -> mds.get(n - 1))
                    .isInstanceOf(MappedFileChangedError.class)
                    .hasMessageStartingWith(last + " changed while it was memory-mapped")
                    .hasMessageContaining("is now 0 bytes: it was truncated")
                    .hasMessageContaining("sample " + (n - 1));
            assertThatThrownBy(() -> tensors.get(n - 1))
                    .isInstanceOf(MappedFileChangedError.class).hasMessageContaining("sample " + (n - 1));
            Throwable failure = null;
            try (DataLoader<Map<String, Tensor>> loader = DataLoader.builder(tensors).batchSize(4).build()) {
                for (Batch b : loader) {
                    b.close();
                }
            } catch (RuntimeException | Error e) {
                failure = e;
            }
            Throwable c = failure;
            while (c != null && !(c instanceof MappedFileChangedError)) {
                c = c.getCause();
            }
            assertThat(c).as("the loader's failure %s", failure).isNotNull();
            assertThat(((MappedFileChangedError) c).file()).isEqualTo(last);
            assertThat(mds.get(0).longValue("i64")).as("the other shards read on").isNotNull();
        }
    }

    /** A sample taken before the cut, its bytes read after (hot, as in a long run): named with the column. */
    @Test
    void aSamplesBytesReadAfterTheCutAreNamedWithTheColumn() throws IOException {
        Path data = MdsFixtures.copy("scalars", dir);
        Path last = data.resolve("shard.00007.mds");
        try (MdsDataset mds = MdsDataset.open(data)) {
            long n = mds.size();
            MdsSample sample = mds.get(n - 1);
            for (int i = 0; i < 50_000; i++) { // compiled: a fault is then reported late, after the copy
                sample.bytes("i64");
                sample.string("text");
            }
            cut(last);
            assertThatThrownBy(() -> sample.bytes("i64")).isInstanceOf(MappedFileChangedError.class)
                    .hasMessageStartingWith(last + " changed while it was memory-mapped")
                    .hasMessageContaining("column 'i64' of sample " + (n - 1));
            assertThatThrownBy(() -> sample.string("text")).isInstanceOf(MappedFileChangedError.class)
                    .hasMessageContaining("column 'text' of sample " + (n - 1));
        }
    }

    /**
     * Every other accessor that reads the map (numbers, text numbers, an ndarray's header, a widened
     * copy), hot as in a long run and used outside a loader: named with the shard and the column.
     */
    @Test
    void everyAccessorThatReadsTheMapNamesTheShardAndColumnAfterTheCut() throws IOException {
        Path data = MdsFixtures.copy("scalars", dir);
        Path last = data.resolve("shard.00007.mds");
        try (MdsDataset mds = MdsDataset.open(data)) {
            long n = mds.size();
            MdsSample sample = mds.get(n - 1);
            Map<String, Function<MdsSample, Object>> reads = new LinkedHashMap<>();
            reads.put("i64", s -> s.longValue("i64"));
            reads.put("sint", s -> s.doubleValue("sint"));
            reads.put("f64", s -> s.doubleValue("f64"));
            reads.put("u8", s -> s.doubleValue("u8")); // through longValue's read
            reads.put("sdec", s -> s.decimal("sdec"));
            reads.put("arr", s -> s.tensor("arr")); // its dtype and shape bytes
            reads.put("arr_u32", s -> s.tensor("arr_u32")); // widened: a copy
            readHotThenCut(sample, reads, last, n - 1);
        }
    }

    /** The list and PIL accessors (items' sizes, a PIL header, a list[pil] item's header), the same. */
    @Test
    void theListAndPilAccessorsNameTheShardAndColumnAfterTheCut() throws IOException {
        Path data = MdsFixtures.copy("images", dir);
        Path last = data.resolve("shard.00003.mds"); // sample 3, the last
        try (MdsDataset mds = MdsDataset.open(data)) {
            long n = mds.size();
            MdsSample sample = mds.get(n - 1);
            MemorySegment item = sample.items("pils").getFirst(); // a view taken before the cut
            Map<String, Function<MdsSample, Object>> reads = new LinkedHashMap<>();
            reads.put("jpgs", s -> s.items("jpgs"));
            reads.put("jarr", s -> s.items("jarr"));
            reads.put("pil", s -> s.pil("pil"));
            reads.put("pils", s -> s.pil(item));
            readHotThenCut(sample, reads, last, n - 1);
        }
    }

    /** Runs each read until compiled, cuts {@code shard}, and expects each to fail naming it and its column. */
    private static void readHotThenCut(MdsSample sample, Map<String, Function<MdsSample, Object>> reads, Path shard,
            long index) throws IOException {
        for (int i = 0; i < 20_000; i++) { // compiled: a fault is then reported late, after the read
            for (Function<MdsSample, Object> read : reads.values()) {
                assertThat(read.apply(sample)).isNotNull();
            }
        }
        cut(shard);
        reads.forEach((column, read) -> assertThatThrownBy(() -> read.apply(sample)).as(column)
                .isInstanceOf(MappedFileChangedError.class)
                .hasMessageStartingWith(shard + " changed while it was memory-mapped")
                .hasMessageContaining(column.equals("pils") ? "a list[pil] item of sample " + index
                        : "column '" + column + "' of sample " + index));
    }
}
