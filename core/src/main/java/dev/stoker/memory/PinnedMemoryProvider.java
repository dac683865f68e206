package dev.stoker.memory;

import java.util.Optional;

/**
 * A service that can supply device-registered, page-locked memory, found with
 * {@link java.util.ServiceLoader}. The {@code stoker-cuda} module provides one backed by
 * {@code cudaHostAlloc}; with it on the class path, {@link MemorySources#pinned()} (and a loader
 * built with {@code pinMemory(true)}) gives batches that are born pinned.
 */
public interface PinnedMemoryProvider {

    /** The source, or empty when this provider's device is not present (it then says why in {@link #unavailableReason()}). */
    Optional<MemorySource> source();

    /** Why {@link #source()} is empty, in one line. */
    String unavailableReason();
}
