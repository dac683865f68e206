package dev.stoker.cuda.measure;

import dev.stoker.cuda.Cuda;
import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.Kernels;
import dev.stoker.cuda.PinnedMemory;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.Bytes;
import dev.stoker.memory.MemorySource;
import dev.stoker.memory.MemorySources;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The device measurements of the accelerator issue, printed as tables: host-to-device bandwidth
 * by copy size (peak, pinned pool, ordinary pool), and a step loop with a fixed-duration GPU step
 * fed by the device prefetcher from a pinned and from an ordinary pool.
 *
 * <pre>{@code
 * java --enable-native-access=ALL-UNNAMED -cp stoker.jar dev.stoker.cuda.measure.DeviceBench
 * }</pre>
 */
public final class DeviceBench {
    private DeviceBench() {}

    public static void main(String[] args) {
        run(System.out, args.length > 0 && args[0].equals("--quick"));
    }

    public static void run(PrintStream out, boolean quick) {
        out.println(Cuda.status());
        CudaRuntime cuda = Cuda.require();
        bandwidth(out, cuda, quick);
        try (Kernels kernels = Kernels.load(cuda)) {
            stepLoop(out, cuda, kernels, quick);
        }
    }

    static void bandwidth(PrintStream out, CudaRuntime cuda, boolean quick) {
        long mb = 1L << 20;
        long[] sizes = quick ? new long[] {mb, 16 * mb} : new long[] {mb, 2 * mb, 4 * mb, 8 * mb, 16 * mb, 32 * mb, 64 * mb, 128 * mb, 256 * mb};
        List<H2dBandwidth.Row> rows = new H2dBandwidth(cuda, quick ? 3 : 5, quick ? 256 * mb : 2048 * mb).run(sizes);
        out.println();
        out.println("Host-to-device bandwidth, GB/s (median of reps; peak = plain cudaMemcpy from cudaHostAlloc memory)");
        double best = rows.stream().mapToDouble(H2dBandwidth.Row::peakGBps).max().orElse(1);
        out.printf(Locale.ROOT, "%10s %10s %12s %14s %12s %14s%n", "copy", "peak", "pinned pool", "ordinary pool",
                "pinned/peak", "pinned/best");
        for (H2dBandwidth.Row r : rows) {
            out.printf(Locale.ROOT, "%10s %10.1f %12.1f %14.1f %11.1f%% %13.1f%%%n", Bytes.format(r.bytes()), r.peakGBps(),
                    r.pinnedPoolGBps(), r.ordinaryPoolGBps(), 100 * r.pinnedOfPeak(), 100 * r.pinnedPoolGBps() / best);
        }
        out.printf(Locale.ROOT, "(peak is the same-size cudaMemcpy; best is the highest peak at any size, %.1f GB/s)%n", best);
    }

    static void stepLoop(PrintStream out, CudaRuntime cuda, Kernels kernels, boolean quick) {
        int batch = 64;
        int steps = quick ? 30 : 200;
        long stepNs = 20_000_000L;
        out.println();
        out.printf(Locale.ROOT, "Step loop: %d steps of a %.0f ms GPU step, batches of %d x 3x224x224 f32 + labels (%s), 3 slots%n",
                steps, stepNs / 1e6, batch, Bytes.format(FilledBatches.batchBytes(batch)));
        out.printf(Locale.ROOT, "%-16s %10s %12s %16s %18s%n", "host memory", "GPU idle", "elapsed ms", "copy CPU us/batch", "loop waited ms");
        for (String kind : new String[] {"pinned", "ordinary"}) {
            MemorySource source = kind.equals("pinned") ? new PinnedMemory(cuda) : MemorySources.ordinary();
            try (BufferPool pool = BufferPool.builder().name(kind).source(source)
                    .budgetBytes(6 * BufferPool.classBytes(FilledBatches.batchBytes(batch))).build()) {
                DeviceStepLoop.Result r = DeviceStepLoop.run(cuda, kernels, new FilledBatches(pool, steps, batch), stepNs, 3);
                out.printf(Locale.ROOT, "%-16s %9.2f%% %12.1f %16.1f %18.1f%n", kind, 100 * r.gpuIdleFraction(), r.elapsedMs(),
                        r.copyCpuMicrosPerBatch(), r.consumerWaitMs());
            }
        }
    }
}
