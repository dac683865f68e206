package dev.stoker.cuda;

import java.lang.foreign.MemorySegment;

/**
 * The two small kernels Stoker carries as PTX ({@code kernels.ptx}): a fixed-duration spin that
 * stands in for a training step, and a device-side checksum that proves a copy landed intact.
 * Loaded once per process; needs CUDA 12.0 or later.
 *
 * <pre>{@code
 * Kernels k = Kernels.load(cuda);
 * k.spin(stream, 5_000_000);                    // the GPU is busy for 5 ms
 * k.checksum(stream, devicePtr, bytes / 8, outPtr);
 * }</pre>
 */
public final class Kernels implements AutoCloseable {
    private final CudaRuntime cuda;
    private final PtxModule module;
    private final long spin;
    private final long checksum;

    private Kernels(CudaRuntime cuda) {
        this.cuda = cuda;
        this.module = PtxModule.load(cuda, Kernels.class, "kernels.ptx");
        this.spin = module.kernel("stoker_spin");
        this.checksum = module.kernel("stoker_checksum");
    }

    public static Kernels load(CudaRuntime cuda) {
        return new Kernels(cuda);
    }

    /** Queues a kernel on {@code stream} that keeps the GPU busy for {@code nanos} nanoseconds. */
    public void spin(long stream, long nanos) {
        cuda.launch(spin, 1, 1, stream, nanos);
    }

    /**
     * Queues a kernel that adds the {@code words} 64-bit words at {@code data} (wrapping) to the
     * 64-bit value at {@code out}, on the device.
     */
    public void checksum(long stream, long data, long words, long out) {
        cuda.launch(checksum, 1, 256, stream, data, words, out);
    }

    /** The host-side twin of {@link #checksum}: the wrapping sum of a segment's 64-bit words. */
    public static long hostChecksum(MemorySegment bytes) {
        long sum = 0;
        long words = bytes.byteSize() / 8;
        for (long i = 0; i < words; i++) {
            sum += bytes.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i);
        }
        return sum;
    }

    @Override
    public void close() {
        module.close();
    }
}
