package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MappedDataChangedError;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A dataset that reads a memory-mapped file without naming its faults (no catch of its own, or a
 * fault that compiled code reported after its catch had ended) still fails with a
 * {@link MappedDataChangedError} that says a mapped file was cut short, inside the
 * {@link LoaderException} that names the dataset and the batch: not the JVM's nameless
 * {@code InternalError}, and not at a later batch.
 */
class MappedFaultTest {
    private static final int ROW = 4096;
    private static final int ROWS = 64;

    @TempDir
    Path dir;

    /** Rows of 512 int64 read straight from a map, with no catch: the loader is the one that names a fault. */
    private static final class MappedRows implements FillableDataset<Long> {
        private final MemorySegment map;

        MappedRows(MemorySegment map) {
            this.map = map;
        }

        @Override
        public long size() {
            return ROWS;
        }

        @Override
        public Long get(long index) {
            return map.get(ValueLayout.JAVA_LONG_UNALIGNED, index * ROW);
        }

        @Override
        public SampleLayout layout() {
            return SampleLayout.of(new SampleLayout.Field("x", DType.I64, Shape.of(ROW / 8)));
        }

        @Override
        public void fill(long index, SampleSlot slot) {
            read(map, index, slot.tensor(0).segment());
        }

        static void read(MemorySegment map, long index, MemorySegment to) {
            MemorySegment.copy(map, index * ROW, to, 0, ROW);
        }

        @Override
        public String name() {
            return "rows";
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void aMappedFileCutShortUnderAReaderWithoutACatchIsNamedAtItsBatch(int workers) throws IOException {
        Path file = Files.write(dir.resolve("rows" + workers + ".bin"), new byte[ROW * ROWS]);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment map;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            }
            // the read compiled first, as after a while of training: its fault may then be reported late
            try (Arena scratch = Arena.ofConfined()) {
                MemorySegment to = scratch.allocate(ROW);
                for (int i = 0; i < 20_000; i++) {
                    MappedRows.read(map, i % ROWS, to);
                }
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(8L * ROW); // batch 0 (rows 0-7) stays whole
            }
            BufferPool pool;
            try (DataLoader<Long> loader = DataLoader.builder(new MappedRows(map)).batchSize(8).numWorkers(workers)
                    .build()) {
                pool = loader.pool();
                BatchIterator it = loader.iterator();
                it.next().close();
                LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
                assertThat(e.datasetName()).isEqualTo("rows");
                assertThat(e.batchIndex()).isEqualTo(1);
                assertThat(e).hasMessageStartingWith("dataset 'rows': ")
                        .hasMessageContaining("batch 1 of epoch 0 failed: MappedDataChangedError: a file that dataset"
                                + " 'rows' reads through a memory map changed while it was mapped: it was cut short");
                assertThat(e.getCause()).isInstanceOf(MappedDataChangedError.class)
                        .hasCauseInstanceOf(InternalError.class);
            }
            // every batch back in the pool once the loader is closed (while it is open, the other worker may
            // still hold the batch it was making when batch 1 failed)
            assertThat(pool.lentBytes()).isZero();
        }
        // the JVM is fine: the same reader over a whole file reads every batch
        Path whole = Files.write(dir.resolve("whole" + workers + ".bin"), new byte[ROW * ROWS]);
        try (Arena arena = Arena.ofShared(); FileChannel ch = FileChannel.open(whole, StandardOpenOption.READ)) {
            MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            int batches = 0;
            try (DataLoader<Long> loader = DataLoader.builder(new MappedRows(map)).batchSize(8).numWorkers(workers)
                    .build()) {
                for (Batch b : loader) {
                    b.close();
                    batches++;
                }
            }
            assertThat(batches).isEqualTo(ROWS / 8);
        }
    }
}
