package dev.stoker.cuda.lib;

import dev.stoker.cuda.CudaRuntime;

/** {@link ScratchPool.Memory} over the CUDA runtime: device memory or page-locked host memory. */
public final class CudaScratchMemory implements ScratchPool.Memory {
    private final CudaRuntime cuda;
    private final boolean pinned;

    private CudaScratchMemory(CudaRuntime cuda, boolean pinned) {
        this.cuda = cuda;
        this.pinned = pinned;
    }

    /** Device memory ({@code cudaMalloc}). */
    public static CudaScratchMemory device(CudaRuntime cuda) {
        return new CudaScratchMemory(cuda, false);
    }

    /** Page-locked host memory ({@code cudaHostAlloc}). */
    public static CudaScratchMemory pinned(CudaRuntime cuda) {
        return new CudaScratchMemory(cuda, true);
    }

    @Override
    public long allocate(long bytes) {
        return pinned ? cuda.hostAlloc(bytes) : cuda.malloc(bytes);
    }

    @Override
    public void free(long address) {
        if (pinned) {
            cuda.freeHost(address);
        } else {
            cuda.free(address);
        }
    }

    @Override
    public long newEvent() {
        return cuda.eventCreate(false);
    }

    @Override
    public void record(long event, long stream) {
        cuda.eventRecord(event, stream);
    }

    @Override
    public boolean passed(long event) {
        return cuda.eventQuery(event);
    }

    @Override
    public void destroyEvent(long event) {
        cuda.eventDestroy(event);
    }
}
