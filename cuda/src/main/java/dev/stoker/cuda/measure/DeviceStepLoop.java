package dev.stoker.cuda.measure;

import dev.stoker.cuda.CudaEvent;
import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.CudaStream;
import dev.stoker.cuda.DeviceBatch;
import dev.stoker.cuda.DevicePrefetcher;
import dev.stoker.cuda.Kernels;
import dev.stoker.loader.Batch;
import java.util.Iterator;

/**
 * A training loop with the model replaced by a GPU step of fixed duration (a spin kernel): how
 * much of the GPU's time goes to waiting for data.
 *
 * <p>Each step takes the next device batch from a {@link DevicePrefetcher}, queues the spin on the
 * compute stream and lets the batch go; the host runs at most one step ahead of the GPU, as a
 * real loop does when it reads a loss. The GPU's busy time is known (steps × step duration); its
 * elapsed time is measured with CUDA events from the start of the first step to the end of the
 * last; the rest is time the GPU waited.
 */
public final class DeviceStepLoop {
    private DeviceStepLoop() {}

    /**
     * @param steps              steps run
     * @param elapsedMs          GPU time from the first step's start to the last step's end
     * @param gpuIdleFraction    share of that time the GPU had no step to run
     * @param copyCpuMicrosPerBatch feeder time per batch spent queuing its copy
     * @param consumerWaitMs     host time the loop waited for the prefetcher
     * @param bytesPerBatch      host bytes copied per (full) batch
     */
    public record Result(long steps, double elapsedMs, double gpuIdleFraction, double copyCpuMicrosPerBatch,
                         double consumerWaitMs, long bytesPerBatch) {}

    public static Result run(CudaRuntime cuda, Kernels kernels, Iterator<Batch> source, long stepNanos, int slots) {
        return run(cuda, kernels, source, stepNanos, slots, null);
    }

    /** As {@link #run(CudaRuntime, Kernels, Iterator, long, int)}, with {@code stage} (null: none) after each copy. */
    public static Result run(CudaRuntime cuda, Kernels kernels, Iterator<Batch> source, long stepNanos, int slots,
                             dev.stoker.cuda.DeviceStage stage) {
        return run(cuda, kernels, source, stepNanos, slots, stage, null);
    }

    /** As above; {@code releaseOnHost}: see {@link DevicePrefetcher.Builder#releaseOnHost} (null: as the stage prefers). */
    public static Result run(CudaRuntime cuda, Kernels kernels, Iterator<Batch> source, long stepNanos, int slots,
                             dev.stoker.cuda.DeviceStage stage, Boolean releaseOnHost) {
        DevicePrefetcher.Builder builder = DevicePrefetcher.builder(cuda, source).slots(slots);
        if (releaseOnHost != null) builder.releaseOnHost(releaseOnHost);
        if (stage != null) builder.stage(stage);
        try (CudaStream compute = new CudaStream(cuda);
             CudaEvent start = new CudaEvent(cuda, true);
             CudaEvent end = new CudaEvent(cuda, true);
             CudaEvent even = new CudaEvent(cuda, false);
             CudaEvent odd = new CudaEvent(cuda, false);
             DevicePrefetcher gpu = builder.consumerStream(compute.handle()).build()) {
            long steps = 0;
            long bytes = 0;
            while (gpu.hasNext()) {
                DeviceBatch b = gpu.next();
                if (steps == 0) {
                    start.record(compute); // after the first copy: start-up is not idle time
                    bytes = batchBytes(b.data());
                }
                kernels.spin(compute.handle(), stepNanos);
                b.close();
                CudaEvent done = steps % 2 == 0 ? even : odd;
                done.record(compute);
                if (steps > 0) {
                    (steps % 2 == 0 ? odd : even).synchronize(); // stay at most one step ahead
                }
                steps++;
            }
            end.record(compute);
            end.synchronize();
            double elapsed = steps == 0 ? 0 : end.millisSince(start);
            double busy = steps * stepNanos / 1e6;
            DevicePrefetcher.Stats s = gpu.stats();
            return new Result(steps, elapsed, steps == 0 ? 0 : Math.max(0, 1 - busy / elapsed),
                    s.copies() == 0 ? 0 : s.copyIssueNanos() / 1e3 / s.copies(), s.consumerWaitNanos() / 1e6, bytes);
        }
    }

    private static long batchBytes(Object data) {
        if (data instanceof dev.stoker.cuda.DeviceTensor t) return t.byteSize();
        long n = 0;
        if (data instanceof java.util.List<?> l) for (Object o : l) n += batchBytes(o);
        if (data instanceof java.util.Map<?, ?> m) for (Object o : m.values()) n += batchBytes(o);
        return n;
    }
}
