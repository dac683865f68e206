package dev.stoker.cuda.lib;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * nvJPEG's extended allocators ({@code nvjpegDevAllocatorV2_t}, {@code nvjpegPinnedAllocatorV2_t})
 * served from two {@link ScratchPool}s, through FFM upcalls: nvJPEG's scratch memory without a
 * {@code cudaFree} or {@code cudaFreeHost} per batch, each of which would wait for the whole device.
 *
 * <p>Close it after every nvJPEG handle made with it is destroyed.
 */
public final class NvJpegAllocators implements AutoCloseable {
    /** Each struct: the allocate and free functions, then the context pointer. */
    private static final long STRUCT_BYTES = 3L * ADDRESS.byteSize();
    private static final FunctionDescriptor CALLBACK =
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG);

    private final Arena arena = Arena.ofShared();
    private final ScratchPool device;
    private final ScratchPool pinned;
    private final MemorySegment deviceStruct;
    private final MemorySegment pinnedStruct;
    private volatile Throwable failure;

    public NvJpegAllocators(ScratchPool device, ScratchPool pinned) {
        this.device = device;
        this.pinned = pinned;
        this.deviceStruct = struct(device);
        this.pinnedStruct = struct(pinned);
    }

    private MemorySegment struct(ScratchPool pool) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodType type = MethodType.methodType(int.class, ScratchPool.class, MemorySegment.class, MemorySegment.class,
                    long.class, long.class);
            MethodHandle malloc = MethodHandles.insertArguments(
                    lookup.findVirtual(NvJpegAllocators.class, "malloc", type).bindTo(this), 0, pool);
            MethodHandle free = MethodHandles.insertArguments(
                    lookup.findVirtual(NvJpegAllocators.class, "free", type).bindTo(this), 0, pool);
            Linker linker = Linker.nativeLinker();
            MemorySegment s = arena.allocate(STRUCT_BYTES, ADDRESS.byteAlignment());
            s.set(ADDRESS, 0, linker.upcallStub(malloc, CALLBACK, arena));
            s.set(ADDRESS, ADDRESS.byteSize(), linker.upcallStub(free, CALLBACK, arena));
            s.set(ADDRESS, 2 * ADDRESS.byteSize(), MemorySegment.NULL);
            return s;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code int malloc(void* ctx, void** ptr, size_t size, cudaStream_t stream)}; must not throw (it runs under native code). */
    private int malloc(ScratchPool pool, MemorySegment ctx, MemorySegment out, long size, long stream) {
        try {
            long address = pool.allocate(size, stream);
            out.reinterpret(ADDRESS.byteSize()).set(JAVA_LONG, 0, address);
            return 0;
        } catch (Throwable t) {
            failure = t;
            return 1;
        }
    }

    /** {@code int free(void* ctx, void* ptr, size_t size, cudaStream_t stream)}. */
    private int free(ScratchPool pool, MemorySegment ctx, MemorySegment address, long size, long stream) {
        try {
            if (address.address() == 0) return 0;
            return pool.free(address.address(), stream) ? 0 : 1;
        } catch (Throwable t) {
            failure = t;
            return 1;
        }
    }

    /** The {@code nvjpegDevAllocatorV2_t} to pass to {@code nvjpegCreateExV2}. */
    public MemorySegment deviceAllocator() {
        return deviceStruct;
    }

    /** The {@code nvjpegPinnedAllocatorV2_t} to pass to {@code nvjpegCreateExV2}. */
    public MemorySegment pinnedAllocator() {
        return pinnedStruct;
    }

    public ScratchPool device() {
        return device;
    }

    public ScratchPool pinned() {
        return pinned;
    }

    /** What made an allocation fail under nvJPEG (the allocator can only return a status), or null. */
    public Throwable lastFailure() {
        return failure;
    }

    /** Frees the pools' memory and the upcall stubs. The device must be idle and the handles destroyed. */
    @Override
    public void close() {
        device.close();
        pinned.close();
        arena.close();
    }
}
