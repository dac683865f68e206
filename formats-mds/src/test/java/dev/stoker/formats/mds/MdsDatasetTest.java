package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reads the sets Streaming's MDSWriter wrote and compares every value with what it was given. */
class MdsDatasetTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"scalars", "scalars_zstd", "scalars_gz", "images", "zero_shard"})
    void everySampleReadsBackAsTheWriterWasGivenIt(String set) {
        JsonNode expected = MdsFixtures.expected(set);
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy(set, dir))) {
            assertThat(ds.size()).isEqualTo(expected.get("samples").size());
            assertThat(ds.columns()).containsExactlyInAnyOrderElementsOf(
                    () -> expected.get("columns").fieldNames());
            for (long i = 0; i < ds.size(); i++) {
                ExpectedValues.assertSample(ds.get(i), expected.get("columns"), expected.get("samples").get((int) i));
            }
            assertThatThrownBy(() -> ds.get(ds.size())).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> ds.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void compressedShardsAreDecompressedOnceBesideThemAsStreamingDoes() throws IOException {
        Path set = MdsFixtures.copy("scalars_zstd", dir);
        try (MdsDataset ds = MdsDataset.open(set)) {
            ds.get(ds.size() - 1);
            assertThat(set.resolve("shard.00007.mds")).exists();
            assertThat(set.resolve("shard.00000.mds")).doesNotExist(); // opened on first use only
        }
        long modified = Files.getLastModifiedTime(set.resolve("shard.00007.mds")).toMillis();
        try (MdsDataset ds = MdsDataset.open(set)) {
            ds.get(ds.size() - 1);
        }
        assertThat(Files.getLastModifiedTime(set.resolve("shard.00007.mds")).toMillis()).isEqualTo(modified);
        try (var files = Files.list(set)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void aReadOnlyDirectoryNeedsACacheDirectory() throws IOException {
        Path set = MdsFixtures.copy("scalars_gz", dir);
        Files.setPosixFilePermissions(set, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Assumptions.assumeFalse(Files.isWritable(set), "running as root: a directory cannot be made read-only");
            try (MdsDataset ds = MdsDataset.open(set)) {
                assertThatThrownBy(() -> ds.get(0)).isInstanceOf(MdsFormatException.class)
                        .hasMessageContaining("shard 0 (shard.00000.mds.gz)").hasMessageContaining("cacheDir");
            }
            try (MdsDataset ds = MdsDataset.open(set, MdsOptions.defaults().cacheDir(dir.resolve("cache")))) {
                assertThat(ds.get(0).longValue("n")).isZero();
            }
        } finally {
            Files.setPosixFilePermissions(set, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void aCacheDirectoryTakesTheDecompressedShards() {
        Path set = MdsFixtures.copy("scalars_gz", dir);
        Path cache = dir.resolve("cache");
        JsonNode expected = MdsFixtures.expected("scalars_gz");
        try (MdsDataset ds = MdsDataset.open(set, MdsOptions.defaults().cacheDir(cache))) {
            for (long i = 0; i < ds.size(); i++) {
                ExpectedValues.assertSample(ds.get(i), expected.get("columns"), expected.get("samples").get((int) i));
            }
        }
        assertThat(cache.resolve("shard.00003.mds")).exists();
        assertThat(set.resolve("shard.00003.mds")).doesNotExist();
    }

    @Test
    void aSplitIsASubdirectoryWithItsOwnIndex() {
        Path root = MdsFixtures.copy("split", dir);
        JsonNode train = MdsFixtures.expected("split/train");
        JsonNode val = MdsFixtures.expected("split/val");
        try (MdsDataset t = MdsDataset.open(root, MdsOptions.defaults().split("train"));
             MdsDataset v = MdsDataset.open(root, MdsOptions.defaults().split("val"))) {
            assertThat(t.size()).isEqualTo(5);
            assertThat(v.size()).isEqualTo(4);
            assertThat(t.shards()).isEqualTo(6); // the first is a zero-sample shard
            for (long i = 0; i < 5; i++) {
                ExpectedValues.assertSample(t.get(i), train.get("columns"), train.get("samples").get((int) i));
            }
            for (long i = 0; i < 4; i++) {
                ExpectedValues.assertSample(v.get(i), val.get("columns"), val.get("samples").get((int) i));
            }
        }
        assertThatThrownBy(() -> MdsDataset.open(root, MdsOptions.defaults().split("../x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MdsDataset.open(root)).isInstanceOf(MdsFormatException.class)
                .hasMessageContaining("no index.json");
    }

    @Test
    void zeroSampleShardsAreSkippedInTheGlobalIndex() {
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("zero_shard", dir))) {
            assertThat(ds.shards()).isEqualTo(10);
            assertThat(ds.size()).isEqualTo(9);
            for (long i = 0; i < 9; i++) {
                assertThat(ds.get(i).longValue("y")).isEqualTo(i * 3 - 7);
            }
        }
    }

    @Test
    void wideUnsignedValuesAreWidenedToInt64() {
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars", dir))) {
            MdsSample s = ds.get(3);
            Tensor u32 = s.tensor("u32");
            assertThat(u32.dtype()).isEqualTo(DType.I64);
            assertThat(u32.shape()).isEqualTo(Shape.scalar());
            assertThat(u32.getLong(0)).isEqualTo(0xFFFF_FFFFL - 3);
            Tensor arr = s.tensor("arr_u32");
            assertThat(arr.dtype()).isEqualTo(DType.I64);
            assertThat(arr.toLongArray()).containsExactly(3, 0xFFFF_FFFFL, 7, 1L << 31);
            assertThatThrownBy(() -> ds.get(1).tensor("u64")).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("sample 1").hasMessageContaining("column 'u64'")
                    .hasMessageContaining("18446744073709551615");
        }
    }

    @Test
    void theWrongAccessorSaysWhichEncodingsItReads() {
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars", dir))) {
            MdsSample s = ds.get(0);
            assertThatThrownBy(() -> s.tensor("text")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("column 'text' is str").hasMessageContaining("ndarray");
            assertThatThrownBy(() -> s.longValue("f32")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> s.string("nope")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no column 'nope'");
            assertThat(s.bytes("obj")).startsWith((byte) 0x80); // a pickle, never unpickled
        }
    }

    @Test
    void pilValuesGiveTheirSizeModeAndPixels() {
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("images", dir))) {
            MdsPilImage gray = ds.get(0).pil("pil");
            assertThat(gray.mode()).isEqualTo("L");
            assertThat(gray.width()).isEqualTo(8);
            assertThat(gray.height()).isEqualTo(6);
            assertThat(gray.pixels().byteSize()).isEqualTo(48);
            MdsPilImage rgb = ds.get(1).pil("pil");
            assertThat(rgb.mode()).isEqualTo("RGB");
            assertThat(rgb.pixels().byteSize()).isEqualTo(6 * 8 * 3);
            List<MemorySegment> items = ds.get(2).items("pils");
            assertThat(ds.get(2).pil(items.getFirst()).mode()).isEqualTo("L");
            // the jpeg column's bytes are a JPEG file (what JpegDataset decodes)
            byte[] jpeg = ds.get(0).bytes("jpg");
            assertThat(jpeg[0]).isEqualTo((byte) 0xFF);
            assertThat(jpeg[1]).isEqualTo((byte) 0xD8);
        }
    }

    @Test
    void verifyHashesChecksEachShardAndNamesAMismatch() throws IOException {
        Path set = MdsFixtures.copy("scalars", dir);
        try (MdsDataset ds = MdsDataset.open(set, MdsOptions.defaults().verifyHashes(true))) {
            for (long i = 0; i < ds.size(); i++) {
                ds.get(i);
            }
        }
        Path shard = set.resolve("shard.00002.mds");
        byte[] bytes = Files.readAllBytes(shard);
        bytes[bytes.length - 1] ^= 1;
        Files.write(shard, bytes);
        try (MdsDataset ds = MdsDataset.open(set, MdsOptions.defaults().verifyHashes(true))) {
            long first = ds.firstSample(2);
            assertThatThrownBy(() -> ds.get(first)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("shard 2 (shard.00002.mds)").hasMessageContaining("but the index says");
        }
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("zero_shard", dir),
                MdsOptions.defaults().verifyHashes(true))) {
            assertThatThrownBy(() -> ds.get(0)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("no hashes");
        }
    }

    @Test
    void closeUnmapsEveryShardAndLaterReadsFailCleanly() {
        MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars", dir));
        MdsSample s = ds.get(5);
        Tensor view = s.tensor("arr_fixed");
        assertThat(ds.isMapped()).isTrue();
        ds.close();
        ds.close();
        assertThat(ds.isMapped()).isFalse();
        assertThatThrownBy(() -> view.getFloat(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ds.get(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void willNeedOpensShardsAhead() throws InterruptedException {
        Path set = MdsFixtures.copy("scalars_zstd", dir);
        try (MdsDataset ds = MdsDataset.open(set)) {
            ds.willNeed(new long[] {ds.size() - 1, -5, ds.size()});
            for (int i = 0; i < 200 && !Files.exists(set.resolve("shard.00007.mds")); i++) {
                Thread.sleep(10);
            }
            assertThat(set.resolve("shard.00007.mds")).exists();
            assertThat(ds.get(ds.size() - 1).longValue("i8")).isEqualTo(-128 + 11);
        }
    }
}
