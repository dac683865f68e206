package dev.stoker.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Kernels shipped as PTX in a jar, loaded through the CUDA runtime (CUDA 12.0 or later): the
 * driver compiles the PTX for the GPU at hand when it loads, so building needs no CUDA compiler.
 * Every kernel parameter is a 64-bit value (a device pointer or a {@code long long}).
 *
 * <pre>{@code
 * try (PtxModule m = PtxModule.load(cuda, MyKernels.class, "my_kernels.ptx")) {
 *     long k = m.kernel("my_kernel");
 *     m.launch(k, new int[] {blocks, 1, 1}, new int[] {256, 1, 1}, stream, devicePtr, count);
 * }
 * }</pre>
 */
public final class PtxModule implements AutoCloseable {
    private final CudaRuntime cuda;
    private final String name;
    private final long library;
    private boolean closed;

    private PtxModule(CudaRuntime cuda, String name, String ptx) {
        this.cuda = cuda;
        this.name = name;
        try (Arena a = Arena.ofConfined()) {
            this.library = cuda.libraryLoad(a.allocateFrom(ptx));
        }
    }

    /** Loads the PTX resource {@code resource} found beside {@code owner}. */
    public static PtxModule load(CudaRuntime cuda, Class<?> owner, String resource) {
        Objects.requireNonNull(cuda, "cuda");
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar beside " + owner.getName());
            }
            return new PtxModule(cuda, resource, new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The handle of the kernel named {@code entry} (its {@code extern "C"} name). */
    public long kernel(String entry) {
        return cuda.libraryKernel(library, entry);
    }

    /** Queues {@code kernel} on {@code stream}; {@code grid} and {@code block} are x, y, z. */
    public void launch(long kernel, int[] grid, int[] block, long stream, long... params) {
        if (grid.length != 3 || block.length != 3) {
            throw new IllegalArgumentException("grid and block are x, y, z: three numbers each");
        }
        cuda.launch(kernel, grid, block, stream, params);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cuda.libraryUnload(library);
        }
    }

    @Override
    public String toString() {
        return "PtxModule(" + name + ")";
    }
}
