package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Targeted damage to index.json and shard files: each is refused with a message that says where. */
class MdsCorruptionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path withIndex(String set, Consumer<ObjectNode> edit) throws IOException {
        Path d = MdsFixtures.copy(set, dir);
        ObjectNode index = (ObjectNode) JSON.readTree(d.resolve("index.json").toFile());
        edit.accept(index);
        JSON.writeValue(d.resolve("index.json").toFile(), index);
        return d;
    }

    private static ObjectNode shard(ObjectNode index, int s) {
        return (ObjectNode) index.get("shards").get(s);
    }

    @Test
    void indexFieldsOfTheWrongKindAreRefusedAtOpen() throws IOException {
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars", i -> shard(i, 1).put("format", "json"))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("shard 1")
                .hasMessageContaining("format is 'json'");
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars",
                i -> ((ObjectNode) shard(i, 2).get("raw_data")).put("basename", "../../etc/passwd"))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("shard 2")
                .hasMessageContaining("not a plain file name");
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars", i -> shard(i, 0).remove("column_sizes"))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("'column_sizes' must be a list");
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars",
                i -> shard(i, 0).withArray("column_sizes").set(1, 25))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("column 'arr_fixed'")
                .hasMessageContaining("24 bytes");
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars", i -> shard(i, 3).put("samples", -1))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("'samples' must be an integer");
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars", i -> i.put("version", 3))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("version 3");
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars",
                i -> shard(i, 0).withArray("column_encodings").set(0, "ndarray:complex64"))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("column 'arr'")
                .hasMessageContaining("complex64");
        assertThatThrownBy(() -> MdsDataset.open(withIndex("scalars",
                i -> ((ObjectNode) shard(i, 1).get("raw_data")).put("basename", "shard.00000.mds"))))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("used twice");
        Path notJson = MdsFixtures.copy("images", dir);
        Files.writeString(notJson.resolve("index.json"), "{\"version\": 2, \"shards\": [");
        assertThatThrownBy(() -> MdsDataset.open(notJson)).isInstanceOf(MdsFormatException.class)
                .hasMessageContaining("not valid JSON");
    }

    @Test
    void compressionsStokerCannotReadSayWhatToDo() throws IOException {
        Path d = withIndex("scalars_zstd", i -> shard(i, 0).put("compression", "br:11"));
        try (MdsDataset ds = MdsDataset.open(d)) {
            assertThatThrownBy(() -> ds.get(0)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("shard 0 (shard.00000.mds.zstd)").hasMessageContaining("br:11")
                    .hasMessageContaining("re-pack");
        }
    }

    @Test
    void decompressionNeverWritesPastTheIndexsRawSize() throws IOException {
        Path d = withIndex("scalars_zstd", i -> ((ObjectNode) shard(i, 0).get("raw_data")).put("bytes", 100));
        try (MdsDataset ds = MdsDataset.open(d)) {
            assertThatThrownBy(() -> ds.get(0)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("shard 0").hasMessageContaining("more than the 100 bytes");
        }
        assertThat(d.resolve("shard.00000.mds")).doesNotExist();
        Path g = MdsFixtures.copy("scalars_gz", dir);
        byte[] zip = Files.readAllBytes(g.resolve("shard.00001.mds.gz"));
        Files.write(g.resolve("shard.00001.mds.gz"), java.util.Arrays.copyOf(zip, zip.length / 2));
        try (MdsDataset ds = MdsDataset.open(g)) {
            long first = ds.firstSample(1);
            assertThatThrownBy(() -> ds.get(first)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("shard 1 (shard.00001.mds.gz)");
        }
    }

    @Test
    void aDamagedOffsetTableIsRefusedWhenTheShardOpens() throws IOException {
        assertShardRefused(b -> b.putInt(0, 99), "holds 99 samples but the index says");
        assertShardRefused(b -> b.putInt(4, 8), "inside the offset table");
        assertShardRefused(b -> b.putInt(8, b.getInt(12) + 1), "sample 1: its end offset");
        assertShardRefused(b -> b.putInt(12, b.getInt(8) - 1), "before its start");
    }

    private void assertShardRefused(Consumer<ByteBuffer> damage, String message) throws IOException {
        Path d = MdsFixtures.copy("scalars", dir.resolve("case" + System.nanoTime()));
        Path shard = d.resolve("shard.00000.mds");
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(shard)).order(ByteOrder.LITTLE_ENDIAN);
        damage.accept(b);
        Files.write(shard, b.array());
        try (MdsDataset ds = MdsDataset.open(d)) {
            assertThatThrownBy(() -> ds.get(0)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining(shard.toString()).hasMessageContaining("shard 0 (shard.00000.mds)")
                    .hasMessageContaining(message);
            // the damaged shard does not stop the others
            assertThat(ds.get(ds.size() - 1).longValue("i8")).isEqualTo(-128 + 11);
        }
    }

    @Test
    void aTruncatedShardIsRefused() throws IOException {
        Path d = MdsFixtures.copy("scalars", dir);
        Path shard = d.resolve("shard.00001.mds");
        byte[] bytes = Files.readAllBytes(shard);
        Files.write(shard, java.util.Arrays.copyOf(bytes, bytes.length - 3));
        try (MdsDataset ds = MdsDataset.open(d)) {
            long first = ds.firstSample(1);
            assertThatThrownBy(() -> ds.get(first)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("shard 1").hasMessageContaining("raw_data.bytes");
        }
        Files.delete(shard);
        assertThatThrownBy(() -> MdsDataset.open(d)).isInstanceOf(MdsFormatException.class)
                .hasMessageContaining("shard 1 (shard.00001.mds): the shard file is missing");
    }

    /** "scalars" with sample 1 of shard 0 damaged ({@code atSample} gets a buffer at the sample's first byte). */
    private MdsDataset damagedSample(Consumer<ByteBuffer> atSample) throws IOException {
        Path d = MdsFixtures.copy("scalars", dir.resolve("s" + System.nanoTime()));
        Path shard = d.resolve("shard.00000.mds");
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(shard)).order(ByteOrder.LITTLE_ENDIAN);
        int start = b.getInt(8);
        atSample.accept(b.slice(start, b.capacity() - start).order(ByteOrder.LITTLE_ENDIAN));
        Files.write(shard, b.array());
        return MdsDataset.open(d);
    }

    @Test
    void damagedSampleBytesNameTheSampleAndColumn() throws IOException {
        try (MdsDataset ds = damagedSample(b -> b.putInt(0, 1 << 30))) { // the size of column 'arr'
            assertThatThrownBy(() -> ds.get(1)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("shard 0 (shard.00000.mds), sample 1 (1 in the shard), column 'arr'")
                    .hasMessageContaining("run past the sample's end");
            assertThat(ds.get(0).longValue("n")).isZero();
            assertThatThrownBy(() -> ds.tensors("n").get(1)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("sample 1").hasMessageContaining("add up to");
        }
        // arr's dtype byte (9 variable columns' sizes precede the values)
        try (MdsDataset ds = damagedSample(b -> b.put(9 * 4, (byte) 99))) {
            assertThatThrownBy(() -> ds.get(1).tensor("arr")).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("sample 1 (1 in the shard), column 'arr'")
                    .hasMessageContaining("unknown ndarray dtype code 99");
        }
        try (MdsDataset ds = damagedSample(b -> b.put(9 * 4 + 1, (byte) ((2 << 2) | 3)))) { // 2 dims of u64
            assertThatThrownBy(() -> ds.get(1).tensor("arr")).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("column 'arr'");
        }
    }
}
