package dev.stoker.formats.hdf5;

import static dev.stoker.formats.hdf5.Hdf5DatasetTest.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Arrays partly or never written read as h5py reads them (issue 16): a chunk never written, or a
 * contiguous array never allocated, holds the array's fill value; 0 where none was set or the fill
 * time is "never". The fixtures (src/test/python/make_fill_fixtures.py) hold, under
 * {@code expected/<name>}, what h5py read back; every element is compared by its bytes (NaN too).
 */
class Hdf5FillValueTest {
    private static final List<String> FILL = List.of("i32", "f64", "u8", "i16be", "f16", "f32nan", "labels",
            "default", "gzip", "gzip_f32", "contig_f32", "contig_i64be", "contig_default", "never_chunked",
            "never_contig", "early");
    private static final List<String> LATEST = List.of("fixed", "fixed_gzip", "ext", "bt2", "single",
            "contig");
    private static final List<String> OLD = List.of("i32", "f64", "labels", "gzip", "contig_f32");

    @TempDir
    Path dir;

    static Stream<Arguments> arrays() {
        return Stream.of(
                FILL.stream().map(n -> Arguments.of("fill.h5", n)),
                LATEST.stream().map(n -> Arguments.of("fill_latest.h5", n)),
                OLD.stream().map(n -> Arguments.of("fill_old.h5", n))).flatMap(s -> s);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("arrays")
    void everyElementIsWhatH5pyReads(String file, String name) {
        try (Hdf5Dataset ds = Hdf5Dataset.open(fixture(file), name, "expected/" + name)) {
            assertThat(ds.size()).isEqualTo(10);
            assertThat(ds.layout().fields().get(0).dtype()).isEqualTo(ds.layout().fields().get(1).dtype());
            for (long i = 0; i < ds.size(); i++) {
                var sample = ds.get(i);
                assertThat(hex(sample.get(name))).as("%s %s row %d", file, name, i)
                        .isEqualTo(hex(sample.get("expected/" + name)));
            }
        }
    }

    @Test
    void theLoadersBatchesHoldTheFillValueToo() {
        // The batched path (fill into a pooled batch, whose buffers hold earlier batches' bytes)
        // must write every element of a missing chunk or unwritten array, as get does.
        List<String> names = List.of("i32", "i16be", "gzip", "f32nan", "contig_f32", "contig_i64be", "never_chunked",
                "never_contig");
        String[] arrays = names.stream().flatMap(n -> Stream.of(n, "expected/" + n)).toArray(String[]::new);
        for (int workers : new int[] {0, 2}) {
            long seen = 0;
            try (Hdf5Dataset ds = Hdf5Dataset.open(fixture("fill.h5"), arrays);
                 DataLoader<?> loader = DataLoader.builder(ds).batchSize(3).shuffle(true).seed(5).numWorkers(workers)
                         .build()) {
                for (int epoch = 0; epoch < 3; epoch++) {
                    for (Batch b : loader) {
                        try (b) {
                            for (String n : names) {
                                assertThat(hex(b.tensor(n))).as("%s, %d workers", n, workers)
                                        .isEqualTo(hex(b.tensor("expected/" + n)));
                            }
                            seen += b.indices().length;
                        }
                    }
                }
                assertThat(loader.pool().lentBytes()).isZero();
            }
            assertThat(seen).isEqualTo(30);
        }
    }

    @Test
    void aChunkWrittenAfterAGapInAnExtensibleArrayIndexIsRefusedNotReadAsFill() {
        // h5py reads rows 2-3 of ext_gap; jhdf 0.13's index stops at the gap before them.
        assertThatThrownBy(() -> Hdf5Dataset.open(fixture("fill_latest.h5"), "ext_gap"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("fill_latest.h5")
                .hasMessageContaining("'ext_gap'")
                .hasMessageContaining("reaches chunk 2 but jhdf read only 0");
    }

    @Test
    void anArrayNeverWrittenThatStatesNoFillValueIsRefusedAsHdf5RefusesIt() {
        assertThatThrownBy(() -> Hdf5Dataset.open(fixture("fill_old.h5"), "contig_default"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("fill_old.h5")
                .hasMessageContaining("'contig_default'")
                .hasMessageContaining("never written")
                .hasMessageContaining("states no fill value");
    }

    @Test
    void aFillValueOfAnotherSizeThanTheElementsIsCorrupt() throws IOException {
        // The old fill value message of i32 (-7): size u32 4, then f9 ff ff ff. Say 2 bytes instead.
        byte[] bytes = Files.readAllBytes(fixture("fill_old.h5"));
        int at = Hdf5SizeChecksTest.messageBody(fixture("fill_old.h5"), "i32", 0x0004);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(at)).isEqualTo(4);
        assertThat(b.getInt(at + 4)).isEqualTo(-7);
        b.putInt(at, 2);
        Path file = dir.resolve("fill-size.h5");
        Files.write(file, bytes);
        assertThatThrownBy(() -> Hdf5Dataset.open(file, "i32"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("fill-size.h5")
                .hasMessageContaining("'i32'")
                .hasMessageContaining("fill value is 2 bytes, but its elements are 4");
    }

    @Test
    void aChunkPastTheEndOfTheFileIsRefusedNamingTheFileArrayAndChunk() throws IOException {
        // chunk [4, 0, 2] of fill.h5's i32 (row 5's written half): find its address in the
        // B-tree node (version 1 B-trees have no checksum; newer indexes' checksums catch this first).
        Path source = fixture("fill.h5");
        long address = 4904; // h5py: f["i32"].id.get_chunk_info_by_coord((4, 0, 2)).byte_offset
        byte[] bytes = Files.readAllBytes(source);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int found = -1;
        for (int i = 0; i + 8 <= bytes.length; i++) {
            if (b.getLong(i) == address) {
                assertThat(found).as("one place holds the address").isNegative();
                found = i;
            }
        }
        assertThat(found).isPositive();
        b.putLong(found, bytes.length + 4096L);
        Path file = dir.resolve("chunk-past-end.h5");
        Files.write(file, bytes);
        assertThatThrownBy(() -> Hdf5Dataset.open(file, "i32"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("chunk-past-end.h5")
                .hasMessageContaining("'i32'")
                .hasMessageContaining("chunk [4, 0, 2]")
                .hasMessageContaining("truncated or corrupt");
    }

    @Test
    void anArrayAlmostEntirelyNeverWrittenIsRefusedSayingSo() {
        // 320 MB claimed in a file of some 60 kB: past the 1100:1 bound, and the message says why.
        assertThatThrownBy(() -> Hdf5Dataset.open(fixture("fill.h5"), "huge_sparse"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("fill.h5")
                .hasMessageContaining("'huge_sparse'")
                .hasMessageContaining("almost all of it never written");
    }

    @Test
    void variableLengthStringsAreRefusedByName() {
        assertThatThrownBy(() -> Hdf5Dataset.open(fixture("fill.h5"), "names"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("fill.h5")
                .hasMessageContaining("'names'")
                .hasMessageContaining("which Stoker does not read");
    }

    private static String hex(Tensor t) {
        return HexFormat.of().formatHex(t.segment().asSlice(0, t.byteSize()).toArray(ValueLayout.JAVA_BYTE));
    }
}
