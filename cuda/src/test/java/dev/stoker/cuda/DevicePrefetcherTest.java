package dev.stoker.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.loader.Batch;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MemorySources;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class DevicePrefetcherTest {
    private static final int ROWS = 16;
    private static final int COLS = 4096; // 512 KiB of i64 per batch
    private static Kernels kernels;

    @BeforeAll
    static void load() {
        if (Cuda.isAvailable()) kernels = Kernels.load(Cuda.require());
    }

    @AfterAll
    static void unload() {
        if (kernels != null) kernels.close();
    }

    private static BufferPool pinnedPool(CudaRuntime cuda) {
        return BufferPool.builder().name("test pinned").source(new PinnedMemory(cuda)).budgetBytes(32 << 20).build();
    }

    /**
     * Runs the prefetcher over {@code count} batches and checksums every batch on the device, on
     * the consumer stream, optionally after a spin that holds the consumer back; returns the
     * device's checksums of x and of the labels.
     */
    private static long[][] deviceChecksums(CudaRuntime cuda, Iterator<Batch> source, int count, int slots,
                                            long consumerSpinNs, long copySpinNs) {
        try (CudaStream compute = new CudaStream(cuda);
             DeviceBuffer sums = DeviceBuffer.allocate(cuda, 2L * count * 8);
             DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, source).slots(slots)
                     .consumerStream(compute.handle())
                     .beforeEachCopy(s -> { if (copySpinNs > 0) kernels.spin(s, copySpinNs); })
                     .build();
             Arena arena = Arena.ofConfined()) {
            cuda.memsetAsync(sums.pointer(), 0, sums.byteSize(), compute.handle());
            int k = 0;
            while (gpu.hasNext()) {
                try (DeviceBatch b = gpu.next()) {
                    assertThat(b.index()).isEqualTo(k);
                    DeviceTensor x = b.tensor("x");
                    DeviceTensor label = b.tensor("label");
                    assertThat(x.shape().toArray()).containsExactly(ROWS, COLS);
                    if (consumerSpinNs > 0) kernels.spin(compute.handle(), consumerSpinNs);
                    kernels.checksum(compute.handle(), x.pointer(), x.shape().elements(), sums.pointer() + 8L * k);
                    kernels.checksum(compute.handle(), label.pointer(), ROWS, sums.pointer() + 8L * (count + k));
                }
                k++;
            }
            assertThat(k).isEqualTo(count);
            compute.synchronize();
            MemorySegment host = arena.allocate(sums.byteSize(), 8);
            cuda.memcpy(host.address(), sums.pointer(), sums.byteSize(), CudaRuntime.MEMCPY_DEVICE_TO_HOST);
            long[][] out = new long[2][count];
            for (int i = 0; i < count; i++) {
                out[0][i] = host.getAtIndex(ValueLayout.JAVA_LONG, i);
                out[1][i] = host.getAtIndex(ValueLayout.JAVA_LONG, count + i);
            }
            return out;
        }
    }

    private static void assertChecksums(long[][] got, int count) {
        List<String> wrong = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            long expectX = GpuTestSupport.expectedChecksum(k, (long) ROWS * COLS);
            long expectLabel = 0;
            for (int r = 0; r < ROWS; r++) expectLabel += k * 1000L + r;
            if (got[0][k] != expectX || got[1][k] != expectLabel) wrong.add("batch " + k);
        }
        assertThat(wrong).as("batches whose device copy differs from the host data").isEmpty();
    }

    @Test
    void copiesArriveIntactAndInOrder() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        int count = 20;
        try (BufferPool pool = pinnedPool(cuda)) {
            assertChecksums(deviceChecksums(cuda, GpuTestSupport.batches(pool, count, ROWS, COLS), count, 3, 0, 0), count);
            assertThat(pool.lentCount()).isZero();
        }
    }

    @Test
    void aPrefetcherGivenAClockTimesEachCopyAsTheCopyStage() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        int count = 6;
        StageClock clock = new StageClock();
        List<Long> copied = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (BufferPool pool = pinnedPool(cuda);
             StageClock.Listening l = clock.listen((stage, start, nanos, epoch, batch) -> {
                 if (stage == Stage.COPY) copied.add(batch);
             });
             DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, GpuTestSupport.batches(pool, count, ROWS, COLS))
                     .clock(clock).build()) {
            while (gpu.hasNext()) {
                gpu.next().close();
            }
            assertThat(clock.times().get(Stage.COPY).count()).isEqualTo(count);
            assertThat(copied).containsExactly(0L, 1L, 2L, 3L, 4L, 5L); // one per batch, named by its index
        }
    }

    @Test
    void aSlotIsNotOverwrittenWhileTheConsumerMayStillReadIt() {
        // The consumer stream spins 20 ms before reading each batch, so copies run far ahead of
        // it; a copy into a slot that did not wait for the consumer's release would overwrite the
        // data before the checksum reads it.
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        int count = 12;
        try (BufferPool pool = pinnedPool(cuda)) {
            long[][] got = deviceChecksums(cuda, GpuTestSupport.batches(pool, count, ROWS, COLS), count, 2, 20_000_000L, 0);
            assertChecksums(got, count);
        }
    }

    @Test
    void aHostBufferIsNotReusedBeforeItsCopyHasFinished() {
        // Each copy is held back 20 ms on its stream; a host buffer given back before its copy
        // finished would be refilled by the next batch and the device would see the wrong data.
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        int count = 10;
        try (BufferPool pool = pinnedPool(cuda)) {
            long[][] got = deviceChecksums(cuda, GpuTestSupport.batches(pool, count, ROWS, COLS), count, 3, 0, 20_000_000L);
            assertChecksums(got, count);
        }
    }

    @Test
    void batchesFromOrdinaryMemoryCopyCorrectlyToo() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        int count = 8;
        try (BufferPool pool = BufferPool.builder().source(MemorySources.ordinary()).budgetBytes(32 << 20).build()) {
            assertChecksums(deviceChecksums(cuda, GpuTestSupport.batches(pool, count, ROWS, COLS), count, 3, 0, 0), count);
        }
    }

    @Test
    void closingMidEpochFreesDeviceAndPinnedMemoryAndGivesBatchesBack() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        long deviceBefore = DeviceBuffer.liveBytes();
        long pinnedBefore = PinnedMemory.liveBytes();
        BufferPool pool = pinnedPool(cuda);
        DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, GpuTestSupport.batches(pool, 50, ROWS, COLS)).slots(3).build();
        gpu.next().close();
        gpu.next();
        assertThat(gpu.deviceBytes()).isPositive();
        gpu.close();
        assertThat(DeviceBuffer.liveBytes()).isEqualTo(deviceBefore);
        assertThat(pool.lentCount()).as("host batches still lent after close").isZero();
        pool.close();
        assertThat(pool.reservedBytes()).isZero();
        assertThat(PinnedMemory.liveBytes()).isEqualTo(pinnedBefore);
    }

    @Test
    void aFailingLoaderReachesTheConsumerWithItsCause() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        try (BufferPool pool = pinnedPool(cuda)) {
            Iterator<Batch> good = GpuTestSupport.batches(pool, 10, ROWS, COLS);
            Iterator<Batch> failing = new Iterator<>() {
                int n;

                public boolean hasNext() {
                    return true;
                }

                public Batch next() {
                    if (n++ == 2) throw new IllegalArgumentException("sample 37 is corrupt");
                    return good.next();
                }
            };
            try (DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, failing).build()) {
                gpu.next().close();
                gpu.next().close();
                assertThatThrownBy(gpu::next).hasRootCauseMessage("sample 37 is corrupt");
            }
            assertThat(pool.lentCount()).isZero();
        }
    }
}
