package dev.stoker.cuda;

import dev.stoker.memory.MemorySource;
import dev.stoker.memory.MemorySources;
import dev.stoker.memory.PinnedMemoryProvider;
import java.util.Optional;

/**
 * Makes CUDA's page-locked memory the memory behind {@code pinMemory(true)}: registered as a
 * {@link PinnedMemoryProvider} service, so {@link MemorySources#pinned()} finds it whenever this
 * module is on the class path and a device is present. Without a device that call falls back to
 * {@code mlock}, then to ordinary memory, and says which.
 *
 * <pre>{@code
 * MemorySource source = MemorySources.pinned();   // cudaHostAlloc here, with a GPU
 * System.out.println(source.describe());
 * }</pre>
 */
public final class CudaPinnedMemoryProvider implements PinnedMemoryProvider {

    @Override
    public Optional<MemorySource> source() {
        return Cuda.runtime().map(PinnedMemory::new);
    }

    @Override
    public String unavailableReason() {
        return Cuda.status();
    }
}
