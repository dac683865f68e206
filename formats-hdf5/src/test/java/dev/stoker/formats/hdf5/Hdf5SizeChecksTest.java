package dev.stoker.formats.hdf5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jhdf.HdfFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Single, deliberate edits to one message of an h5py file: sizes a corrupt file could claim are
 * refused before anything is allocated or mapped from them.
 */
class Hdf5SizeChecksTest {
    static final int DATASPACE = 0x0001;
    static final int LAYOUT = 0x0008;
    static final int FILTERS = 0x000B;

    @TempDir
    Path dir;

    /** The body offset of message {@code type} in the version-1 object header of {@code dataset}. */
    static int messageBody(Path fixture, String dataset, int type) throws IOException {
        long address;
        try (HdfFile hdf = new HdfFile(fixture)) {
            address = hdf.getDatasetByPath(dataset).getAddress();
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(fixture)).order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) address;
        assertThat(b.get(at)).as("object header version").isEqualTo((byte) 1);
        int messages = b.getShort(at + 2) & 0xFFFF;
        int p = at + 16;
        for (int m = 0; m < messages; m++) {
            int t = b.getShort(p) & 0xFFFF;
            int size = b.getShort(p + 2) & 0xFFFF;
            if (t == type) {
                return p + 8;
            }
            p += 8 + size;
        }
        throw new AssertionError("no message " + type + " in " + dataset + " of " + fixture);
    }

    Path edited(String fixture, String name, int offset, long value) throws IOException {
        Path source = Hdf5DatasetTest.fixture(fixture);
        byte[] bytes = Files.readAllBytes(source);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(offset, value);
        Path out = dir.resolve(name);
        Files.write(out, bytes);
        return out;
    }

    @Test
    void aDataspaceClaiming2To60RowsIsRefusedBeforeAllocating() throws IOException {
        for (String fixture : new String[] {"contiguous.h5", "chunked_gzip.h5"}) {
            // Dataspace v1: version, rank, flags, 5 reserved bytes, then the dimensions.
            int dims = messageBody(Hdf5DatasetTest.fixture(fixture), "labels", DATASPACE) + 8;
            Path file = edited(fixture, "huge-" + fixture, dims, 1L << 60);
            assertThatThrownBy(() -> Hdf5Dataset.open(file, "labels"))
                    .isInstanceOf(Hdf5FormatException.class)
                    .hasMessageContaining("huge-" + fixture)
                    .hasMessageContaining("'labels'")
                    .hasMessageContaining(String.valueOf(1L << 60));
        }
    }

    @Test
    void aRowDimensionOf2To40IsRefusedBeforeAllocating() throws IOException {
        int dims = messageBody(Hdf5DatasetTest.fixture("chunked_gzip.h5"), "data", DATASPACE) + 8;
        Path file = edited("chunked_gzip.h5", "wide.h5", dims + 8, 1L << 40); // data: (10, 2^40, 4, 5)
        assertThatThrownBy(() -> Hdf5Dataset.open(file, "data"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("wide.h5")
                .hasMessageContaining("has rows of");
    }

    @Test
    void aContiguousLayoutPointingPastTheEndIsRefusedBeforeMapping() throws IOException {
        Path source = Hdf5DatasetTest.fixture("contiguous.h5");
        // Layout v3, contiguous: version, class, then the address and the size.
        int layout = messageBody(source, "data", LAYOUT);
        long length = Files.size(source);
        Path file = edited("contiguous.h5", "past-end.h5", layout + 2, length - 100);
        assertThatThrownBy(() -> Hdf5Dataset.open(file, "data", "labels"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("past-end.h5")
                .hasMessageContaining("'data'")
                .hasMessageContaining("truncated or corrupt");
        Path wrapped = edited("contiguous.h5", "wraps.h5", layout + 2, Long.MAX_VALUE - 10);
        assertThatThrownBy(() -> Hdf5Dataset.open(wrapped, "data"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("wraps.h5");
    }

    @Test
    void aChunkIndexPointingPastTheEndIsRefusedNamingTheArray() throws IOException {
        Path source = Hdf5DatasetTest.fixture("chunked_gzip.h5");
        // Layout v3, chunked: version, class, dimensionality, then the B-tree's address.
        int layout = messageBody(source, "data", LAYOUT);
        Path file = edited("chunked_gzip.h5", "index-past-end.h5", layout + 3, Files.size(source) + 4096);
        assertThatThrownBy(() -> Hdf5Dataset.open(file, "data"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("index-past-end.h5")
                .hasMessageContaining("'data'")
                .hasMessageContaining("outside the file");
    }

    @Test
    void aFilterWhoseSizesCannotBeCheckedIsRefusedByName() throws IOException {
        // Filter pipeline v1: version, count, 6 reserved bytes, then the first filter's u16 id (h5py: shuffle).
        int pipeline = messageBody(Hdf5DatasetTest.fixture("chunked_gzip.h5"), "data", FILTERS);
        Path source = Hdf5DatasetTest.fixture("chunked_gzip.h5");
        byte[] bytes = Files.readAllBytes(source);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(pipeline + 8, (short) 32004); // lz4
        Path file = dir.resolve("lz4.h5");
        Files.write(file, bytes);
        assertThatThrownBy(() -> Hdf5Dataset.open(file, "data"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("lz4.h5")
                .hasMessageContaining("'data'")
                .hasMessageContaining("id 32004");
    }

    @Test
    void theMappedColumnRefusesAMapShorterThanItsRows() {
        var field = new dev.stoker.data.SampleLayout.Field("x", dev.stoker.tensor.DType.F32,
                dev.stoker.tensor.Shape.of(4));
        var tooShort = java.lang.foreign.MemorySegment.ofArray(new byte[4 * 4 * 3]);
        assertThatThrownBy(() -> new MappedColumn(field, 4, tooShort, ByteOrder.LITTLE_ENDIAN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 64 bytes");
    }
}
