package dev.stoker.cuda;

import dev.stoker.cuda.lib.NativeLibraryFinder;
import java.util.List;
import java.util.Optional;

/**
 * Finds {@code libcudart} at run time ({@link NativeLibraryFinder}): {@code STOKER_CUDART} (a full
 * path) first, then CUDA's usual places and the {@code nvidia-cuda-runtime} wheel that PyTorch
 * installs.
 */
final class CudaLibrary {
    private static final NativeLibraryFinder FINDER = new NativeLibraryFinder("the CUDA runtime", "STOKER_CUDART",
            List.of("libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so.11"),
            List.of("nvidia/cuda_runtime/lib", "nvidia/cu13/lib"), "libcudart");

    private CudaLibrary() {}

    /** The loaded library and where it came from, or empty with the places tried in {@code tried}. */
    static Optional<NativeLibraryFinder.Found> load(List<String> tried) {
        return FINDER.load(tried);
    }
}
