package dev.stoker.cuda.measure;

import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.CudaStream;
import dev.stoker.cuda.DeviceBuffer;
import dev.stoker.cuda.PinnedMemory;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MemorySource;
import dev.stoker.memory.MemorySources;
import dev.stoker.memory.PooledBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Host-to-device copy bandwidth for one copy size, three ways: the peak (a plain synchronous
 * {@code cudaMemcpy} from {@code cudaHostAlloc} memory, nothing of Stoker's in the way), a buffer
 * from a pinned {@link BufferPool} copied with {@code cudaMemcpyAsync}, and a buffer from an
 * ordinary pool copied the same way (CUDA stages it through its own pinned memory).
 *
 * <p>Each figure is the median of {@code reps} timings of enough copies to move at least
 * {@code minBytesPerRep} bytes; host memory is touched before timing so page faults are not counted.
 */
public final class H2dBandwidth {
    private final CudaRuntime cuda;
    private final int reps;
    private final long minBytesPerRep;

    public H2dBandwidth(CudaRuntime cuda, int reps, long minBytesPerRep) {
        this.cuda = cuda;
        this.reps = reps;
        this.minBytesPerRep = minBytesPerRep;
    }

    /** Bandwidths in GB/s (10^9 bytes per second) for one copy size. */
    public record Row(long bytes, double peakGBps, double pinnedPoolGBps, double ordinaryPoolGBps) {
        public double pinnedOfPeak() {
            return pinnedPoolGBps / peakGBps;
        }
    }

    public List<Row> run(long[] sizes) {
        List<Row> rows = new ArrayList<>();
        try (CudaStream stream = new CudaStream(cuda);
             BufferPool pinned = pool("pinned", new PinnedMemory(cuda), sizes);
             BufferPool ordinary = pool("ordinary", MemorySources.ordinary(), sizes)) {
            for (long size : sizes) {
                try (DeviceBuffer dst = DeviceBuffer.allocate(cuda, size)) {
                    double peak = peak(dst, size);
                    double pin = fromPool(pinned, dst, size, stream);
                    double ord = fromPool(ordinary, dst, size, stream);
                    rows.add(new Row(size, peak, pin, ord));
                }
            }
        }
        return rows;
    }

    private static BufferPool pool(String name, MemorySource source, long[] sizes) {
        long max = Arrays.stream(sizes).max().orElse(1);
        return BufferPool.builder().name(name).source(source).budgetBytes(4 * BufferPool.classBytes(max)).build();
    }

    private int copiesPerRep(long size) {
        return (int) Math.max(5, Math.ceilDiv(minBytesPerRep, size));
    }

    private double peak(DeviceBuffer dst, long size) {
        long host = cuda.hostAlloc(size);
        try {
            java.lang.foreign.MemorySegment.ofAddress(host).reinterpret(size).fill((byte) 1);
            int n = copiesPerRep(size);
            cuda.memcpy(dst.pointer(), host, size, CudaRuntime.MEMCPY_HOST_TO_DEVICE); // warm-up
            double[] gbps = new double[reps];
            for (int r = 0; r < reps; r++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    cuda.memcpy(dst.pointer(), host, size, CudaRuntime.MEMCPY_HOST_TO_DEVICE);
                }
                gbps[r] = (double) size * n / (System.nanoTime() - t0);
            }
            return median(gbps);
        } finally {
            cuda.freeHost(host);
        }
    }

    private double fromPool(BufferPool pool, DeviceBuffer dst, long size, CudaStream stream) {
        int n = copiesPerRep(size);
        try (PooledBuffer buf = pool.acquire(size, "bandwidth test")) {
            buf.segment().fill((byte) 1);
            long src = buf.segment().address();
            cuda.memcpyAsync(dst.pointer(), src, size, CudaRuntime.MEMCPY_HOST_TO_DEVICE, stream.handle());
            stream.synchronize();
            double[] gbps = new double[reps];
            for (int r = 0; r < reps; r++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    cuda.memcpyAsync(dst.pointer(), src, size, CudaRuntime.MEMCPY_HOST_TO_DEVICE, stream.handle());
                }
                stream.synchronize();
                gbps[r] = (double) size * n / (System.nanoTime() - t0);
            }
            return median(gbps);
        }
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
