package dev.stoker.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.loader.Batch;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU copy reads only off-heap memory that is no memory map: the CUDA driver reads host memory
 * in native code, where a batch tensor viewing a mapped file cut short would be a SIGBUS that
 * kills the JVM; such a batch (or one on the heap) is refused by name before any copy.
 */
@Timeout(120)
class MappedBatchTest {
    @TempDir
    Path dir;

    private MemorySegment mapped(Arena arena, String name, int bytes) throws IOException {
        Path file = Files.write(dir.resolve(name), new byte[bytes]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, bytes, arena);
        }
    }

    @Test
    void aTensorInAMapOrOnTheHeapIsRefusedByNameAndPoolMemoryIsCopied() throws IOException {
        try (Arena arena = Arena.ofShared()) {
            Tensor inMap = new Tensor(mapped(arena, "x.bin", 8192), DType.I64, Shape.of(2, 512));
            Batch batch = new Batch(0, 3, new long[] {6, 7}, Map.of("x", inMap), List.of());
            assertThatThrownBy(() -> PrefetchSlot.hostAddress(batch, inMap))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("batch 3 of epoch 0: its tensor of i64, shape [2, 512], lies in a memory-mapped file")
                    .hasMessageContaining("lies in a memory-mapped file")
                    .hasMessageContaining("collate the batch into the loader's pool");
            Tensor onHeap = new Tensor(MemorySegment.ofArray(new long[4]), DType.I64, Shape.of(4));
            assertThatThrownBy(() -> PrefetchSlot.hostAddress(batch, onHeap))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lies on the Java heap");
            Tensor offHeap = Tensor.allocate(arena, DType.I64, Shape.of(4));
            assertThat(PrefetchSlot.hostAddress(batch, offHeap)).isEqualTo(offHeap.segment().address());
        }
    }

    /** With a GPU: a batch over a mapped file cut short fails at its batch, and the JVM goes on. */
    @Test
    void aBatchOverAMapCutShortFailsAtItsBatchOnTheDevice() throws IOException {
        assumeTrue(Cuda.isAvailable(), "no CUDA on this machine");
        CudaRuntime cuda = Cuda.require();
        try (Arena arena = Arena.ofShared()) {
            Path file = Files.write(dir.resolve("cut.bin"), new byte[1 << 20]);
            MemorySegment map;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                map = ch.map(FileChannel.MapMode.READ_ONLY, 0, 1 << 20, arena);
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(4096);
            }
            Batch batch = new Batch(0, 0, new long[] {0}, new Tensor(map, DType.U8, Shape.of(1 << 20)), List.of());
            Iterator<Batch> source = List.of(batch).iterator();
            try (DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, source).build()) {
                assertThatThrownBy(gpu::next).hasRootCauseInstanceOf(IllegalArgumentException.class)
                        .hasStackTraceContaining("lies in a memory-mapped file");
            }
        }
    }
}
