package dev.stoker.cli;

import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.Kernels;
import dev.stoker.cuda.measure.DeviceStepLoop;
import dev.stoker.formats.folder.ImageBytes;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.loader.DataLoader;
import dev.stoker.memory.Bytes;
import dev.stoker.metrics.ProcessCpu;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.ImageSample;
import dev.stoker.vision.JpegDataset;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The accelerator path end to end, W3-style: JPEGs decoded and transformed by the loader's workers
 * straight into pinned batches ({@code pinMemory(true)}), copied to the GPU by the device
 * prefetcher while the previous step runs, and a GPU step of fixed duration standing in for the
 * model. It reports how much of the GPU's time went to waiting for data, and what the copy path
 * costs the host: the CPU time to issue each batch's copy, and the whole process's CPU time per
 * batch (decode included) for scale.
 *
 * <pre>{@code
 * stoker cuda --loop                          # W3's images, all cores, 40 ms steps
 * stoker cuda --loop --workers 8 --step-ms 20
 * }</pre>
 *
 * <p>Each step length is run twice: the first epoch warms the decoders and the JIT and is not
 * reported. A step shorter than the loader needs per batch shows as idle time: that is the
 * loader being too slow, not the copy path.
 */
final class DeviceLoop {
    static final int BATCH = 64;
    static final int SIZE = 224;
    static final int SLOTS = 3;

    private DeviceLoop() {}

    /**
     * @param data     a folder with {@code jpeg/} (an ImageFolder), or null for W3's generated images
     * @param workers  loader workers
     * @param stepsMs  the GPU step lengths to try, in milliseconds
     * @param samples  images per epoch (W3: 2000)
     */
    static void run(PrintStream out, CudaRuntime cuda, Path data, int workers, double[] stepsMs, int samples)
            throws IOException {
        Path root = data != null && Files.isDirectory(data.resolve(W3JpegFolder.FOLDER))
                ? data.resolve(W3JpegFolder.FOLDER) : W3JpegFolder.generated(samples);
        var folder = ImageFolder.scan(root).dataset();
        try (ImagePipeline train = ImagePipeline.train(SIZE); Kernels kernels = Kernels.load(cuda)) {
            JpegDataset<ImageBytes> images = JpegDataset.of(folder,
                    s -> EncodedImage.of(s.bytes(), s.label(), s.path().toString()), train);
            out.printf(Locale.ROOT, "End-to-end loop: %d JPEGs from %s, RandomResizedCrop %d + flip + Normalize, "
                    + "batch %d, %d workers, pinned batches, %d copy slots; decoder: %s%n", images.size(), root, SIZE,
                    BATCH, workers, SLOTS, train.decoder().describe());
            out.printf(Locale.ROOT, "%8s %8s %10s %12s %12s %16s %16s %14s%n", "step ms", "steps", "GPU idle",
                    "elapsed ms", "samples/s", "copy CPU us/b", "process CPU ms/b", "loop waited ms");
            for (double stepMs : stepsMs) {
                long stepNs = (long) (stepMs * 1e6);
                try (DataLoader<ImageSample> loader = DataLoader.builder(images).batchSize(BATCH).shuffle(true)
                        .seed(1).numWorkers(workers).persistentWorkers(workers > 0).pinMemory(true).build()) {
                    DeviceStepLoop.run(cuda, kernels, loader.iterator(), stepNs, SLOTS); // warm-up epoch
                    long cpu0 = ProcessCpu.nanos();
                    DeviceStepLoop.Result r = DeviceStepLoop.run(cuda, kernels, loader.iterator(), stepNs, SLOTS);
                    long cpu = ProcessCpu.nanos() - cpu0; // 0 where the runtime does not say (-1 both times)
                    out.printf(Locale.ROOT, "%8.1f %8d %9.2f%% %12.1f %12.1f %16.1f %16.2f %14.1f%n", stepMs, r.steps(),
                            100 * r.gpuIdleFraction(), r.elapsedMs(), r.steps() * (double) BATCH / (r.elapsedMs() / 1e3),
                            r.copyCpuMicrosPerBatch(), cpu / 1e6 / Math.max(1, r.steps()), r.consumerWaitMs());
                    if (r.steps() > 0 && r.bytesPerBatch() > 0 && stepMs == stepsMs[0]) {
                        out.printf(Locale.ROOT, "  (%s copied per batch; pool: %s)%n", Bytes.format(r.bytesPerBatch()),
                                loader.pool().stats());
                    }
                    // why the GPU waited, where it did: the loader's own account of both epochs
                    out.println("  loader: " + loader.profile().verdict());
                }
            }
        }
    }
}
