package dev.stoker.cuda.lib;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/** The allocator structs nvJPEG reads, called as nvJPEG calls them: through their function pointers, from native code. */
class NvJpegAllocatorsTest {
    private static final FunctionDescriptor CALLBACK = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG,
            JAVA_LONG);

    private static MethodHandle function(MemorySegment struct, int index) {
        MemorySegment pointer = struct.get(ADDRESS, index * ADDRESS.byteSize());
        return Linker.nativeLinker().downcallHandle(pointer, CALLBACK);
    }

    @Test
    void theStructsCallThePoolsAndAFailureIsAStatusNotACrash() throws Throwable {
        ScratchPoolTest.FakeGpu devGpu = new ScratchPoolTest.FakeGpu();
        ScratchPoolTest.FakeGpu hostGpu = new ScratchPoolTest.FakeGpu();
        ScratchPool device = new ScratchPool("device", devGpu, 1L << 30);
        ScratchPool pinned = new ScratchPool("pinned", hostGpu, 10_000);
        try (NvJpegAllocators allocators = new NvJpegAllocators(device, pinned); Arena a = Arena.ofConfined()) {
            MemorySegment dev = allocators.deviceAllocator();
            assertThat(dev.get(ADDRESS, 2 * ADDRESS.byteSize())).as("no context").isEqualTo(MemorySegment.NULL);
            MemorySegment out = a.allocate(ADDRESS);

            int rc = (int) function(dev, 0).invokeExact(MemorySegment.NULL, out, 5000L, 3L);
            assertThat(rc).isZero();
            long address = out.get(JAVA_LONG, 0);
            assertThat(devGpu.live).containsExactly(address);
            assertThat(device.inUse()).isEqualTo(1);
            rc = (int) function(dev, 1).invokeExact(MemorySegment.NULL, MemorySegment.ofAddress(address), 5000L, 3L);
            assertThat(rc).isZero();
            assertThat(device.inUse()).isZero();
            rc = (int) function(dev, 1).invokeExact(MemorySegment.NULL, MemorySegment.ofAddress(address), 5000L, 3L);
            assertThat(rc).as("a pointer given back twice").isNotZero();

            MemorySegment pin = allocators.pinnedAllocator();
            ScratchPool closed = new ScratchPool("closed", hostGpu, 1);
            closed.close();
            try (NvJpegAllocators failing = new NvJpegAllocators(closed, closed)) {
                rc = (int) function(failing.pinnedAllocator(), 0).invokeExact(MemorySegment.NULL, out, 64L, 0L);
                assertThat(rc).isNotZero();
                assertThat(failing.lastFailure()).hasMessageContaining("closed");
            }
            rc = (int) function(pin, 0).invokeExact(MemorySegment.NULL, out, 64L, 0L);
            assertThat(rc).isZero();
        }
        assertThat(devGpu.live).isEmpty();
    }
}
