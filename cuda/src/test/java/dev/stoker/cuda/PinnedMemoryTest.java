package dev.stoker.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class PinnedMemoryTest {

    @Test
    void pinnedPoolBuffersRoundTripThroughTheDeviceAndAreFreedOnClose() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        long before = PinnedMemory.liveBytes();
        long bytes = 3 << 20;
        try (BufferPool pool = BufferPool.builder().source(new PinnedMemory(cuda)).budgetBytes(64 << 20).build();
             DeviceBuffer dev = DeviceBuffer.allocate(cuda, bytes);
             Arena arena = Arena.ofConfined()) {
            try (PooledBuffer buf = pool.acquire(bytes, "round trip")) {
                assertThat(buf.isPageLocked()).isTrue();
                MemorySegment s = buf.segment();
                for (long i = 0; i < bytes / 8; i++) s.setAtIndex(ValueLayout.JAVA_LONG, i, i * 31 + 7);
                cuda.memcpy(dev.pointer(), s.address(), bytes, CudaRuntime.MEMCPY_HOST_TO_DEVICE);
                MemorySegment back = arena.allocate(bytes, 64);
                cuda.memcpy(back.address(), dev.pointer(), bytes, CudaRuntime.MEMCPY_DEVICE_TO_HOST);
                assertThat(back.mismatch(s)).isEqualTo(-1L);
            }
            assertThat(PinnedMemory.liveBytes()).isGreaterThan(before);
        }
        assertThat(PinnedMemory.liveBytes()).isEqualTo(before);
    }

    @Test
    void hostRegisterPinsMemoryThatAlreadyExists() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        try (Arena arena = Arena.ofConfined(); DeviceBuffer dev = DeviceBuffer.allocate(cuda, 1 << 20)) {
            MemorySegment s = arena.allocate(1 << 20, 4096);
            s.fill((byte) 0x5A);
            cuda.hostRegister(s);
            try {
                cuda.memcpy(dev.pointer(), s.address(), s.byteSize(), CudaRuntime.MEMCPY_HOST_TO_DEVICE);
                MemorySegment back = arena.allocate(1 << 20, 4096);
                cuda.memcpy(back.address(), dev.pointer(), s.byteSize(), CudaRuntime.MEMCPY_DEVICE_TO_HOST);
                assertThat(back.mismatch(s)).isEqualTo(-1L);
            } finally {
                cuda.hostUnregister(s);
            }
        }
    }

    @Test
    void errorsNameTheCallAndCudasWords() {
        CudaRuntime cuda = GpuTestSupport.cudaOrSkip();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> cuda.malloc(Long.MAX_VALUE / 2))
                .isInstanceOf(CudaException.class)
                .hasMessageContaining("cudaMalloc")
                .hasMessageContaining("cudaErrorMemoryAllocation");
    }
}
