package dev.stoker.memory;

/**
 * Where a {@link BufferPool} gets its memory: ordinary off-heap memory, memory locked into RAM
 * with {@code mlock}, or page-locked memory from the CUDA driver (module {@code stoker-cuda}).
 *
 * <p>A source hands out {@link Allocation}s; the pool frees each one exactly once by closing it.
 *
 * <pre>{@code
 * BufferPool pool = BufferPool.builder().source(MemorySources.ordinary()).budgetBytes(1L << 30).build();
 * }</pre>
 */
public interface MemorySource {

    /**
     * Allocates {@code bytes} bytes aligned to {@code alignment} (a power of two).
     *
     * @throws OutOfMemoryError when the system refuses the memory
     */
    Allocation allocate(long bytes, long alignment);

    /**
     * Allocates as {@link #allocate(long, long)} a block that will mostly hold buffers of
     * {@code used} bytes (a batch of 36.75 MiB in a block of the 40 MiB size class): a source that
     * backs memory with huge pages may leave the part past the last whole huge page of {@code used}
     * in small ones, so that the block's unused end is not made resident 2 MiB at a time.
     */
    default Allocation allocate(long bytes, long alignment, long used) {
        return allocate(bytes, alignment);
    }

    /** True when every allocation so far is page-locked, so a device can copy from it directly. */
    boolean isPageLocked();

    /** One line for a person: which memory this is and, after a fallback, why. */
    String describe();
}
