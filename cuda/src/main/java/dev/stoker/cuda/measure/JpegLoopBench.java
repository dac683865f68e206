package dev.stoker.cuda.measure;

import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.Kernels;
import dev.stoker.cuda.image.GpuJpegDataset;
import dev.stoker.cuda.image.GpuJpegDecoder;
import dev.stoker.cuda.lib.NvJpeg;
import dev.stoker.data.Dataset;
import dev.stoker.formats.folder.ImageBytes;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.memory.Bytes;
import dev.stoker.metrics.ProcessCpu;
import dev.stoker.sampler.RandomSampler;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.ImageSample;
import dev.stoker.vision.JpegDataset;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The image loop on a GPU, W3-style (RandomResizedCrop 224, flip, Normalize, batch 64): JPEGs
 * decoded by the loader's workers into pinned batches and copied by the device prefetcher
 * ({@link #cpuDecode}), and JPEGs decoded on the GPU by nvJPEG with the resample on the GPU
 * ({@link #gpuDecode}): images per second, the loader's CPU per batch, the GPU's idle time under
 * a step of fixed length, and how the GPU path's pixels compare with the CPU's.
 *
 * <pre>{@code
 * java -cp ... dev.stoker.cuda.measure.JpegLoopBench DIR [--workers 15] [--step-ms 40,20] [--passes 4] [--gpu-decode]
 * stoker cuda --loop --data DIR --gpu-decode
 * }</pre>
 *
 * <p>Each configuration runs an epoch to warm the decoders and the JIT, then the epoch it reports.
 */
public final class JpegLoopBench {
    static final int BATCH = 64;
    static final int SIZE = 224;
    static final int SLOTS = 3;

    private JpegLoopBench() {}

    public static void main(String[] args) throws IOException {
        Path root = null;
        int workers = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        double[] steps = {40, 20};
        int passes = 4;
        boolean cpu = true;
        boolean gpu = false;
        String[] variants = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--step-ms" -> steps = Stream.of(args[++i].split(",")).mapToDouble(Double::parseDouble).toArray();
                case "--gpu-decode" -> gpu = true;
                case "--passes" -> passes = Integer.parseInt(args[++i]);
                case "--variants" -> variants = args[++i].split(",");
                case "--gpu-only" -> {
                    gpu = true;
                    cpu = false;
                }
                default -> root = Path.of(args[i]);
            }
        }
        if (root == null) {
            System.err.println("usage: JpegLoopBench DIR [--workers N] [--step-ms MS,MS] [--gpu-decode | --gpu-only]"
                    + " (DIR: an ImageFolder of JPEGs, or a folder holding jpeg/)");
            System.exit(2);
        }
        if (Files.isDirectory(root.resolve("jpeg"))) root = root.resolve("jpeg");
        CudaRuntime cuda = dev.stoker.cuda.Cuda.require();
        System.out.println(dev.stoker.cuda.Cuda.status());
        if (variants != null) {
            gpuVariants(System.out, cuda, root, workers, steps, passes, variants);
            return;
        }
        if (cpu) cpuDecode(System.out, cuda, root, workers, steps, passes);
        if (gpu) gpuDecode(System.out, cuda, root, workers, steps, passes);
    }

    private static Dataset<ImageBytes> folder(Path root) throws IOException {
        return ImageFolder.scan(root).dataset();
    }

    private static final Function<ImageBytes, EncodedImage> ENCODED =
            s -> EncodedImage.of(s.bytes(), s.label(), s.path().toString());

    /** The CPU-decode loop: workers decode into pinned batches; the prefetcher copies them under a fixed GPU step. */
    public static void cpuDecode(PrintStream out, CudaRuntime cuda, Path root, int workers, double[] stepsMs,
                                 int passes) throws IOException {
        var folder = folder(root);
        try (ImagePipeline train = ImagePipeline.train(SIZE); Kernels kernels = Kernels.load(cuda)) {
            JpegDataset<ImageBytes> images = JpegDataset.of(folder, ENCODED, train);
            out.printf(Locale.ROOT, "%nCPU decode, end to end: %d JPEGs from %s, RandomResizedCrop %d + flip + Normalize,"
                    + " batch %d, %d workers, pinned batches, %d copy slots, epochs of %d images (the folder %d times,"
                    + " shuffled); decoder: %s%n", images.size(), root, SIZE, BATCH, workers, SLOTS, passes * images.size(),
                    passes, train.decoder().describe());
            header(out);
            for (double stepMs : withZero(stepsMs)) {
                try (DataLoader<ImageSample> loader = DataLoader.builder(images).batchSize(BATCH)
                        .sampler(epochOf(images.size(), passes)).numWorkers(workers).persistentWorkers(workers > 0)
                        .pinMemory(true).build()) {
                    row(out, cuda, kernels, loader, passes * images.size(), stepMs, null);
                    out.println("  loader: " + loader.profile().verdict());
                }
            }
        }
    }

    /** The GPU-decode loop: workers read files and draw crops; nvJPEG and Stoker's kernel do the rest on the GPU. */
    public static void gpuDecode(PrintStream out, CudaRuntime cuda, Path root, int maxWorkers, double[] stepsMs,
                                 int passes) throws IOException {
        out.println();
        out.println("GPU decode: " + NvJpeg.status());
        if (NvJpeg.library().isEmpty()) {
            out.println("  (no nvJPEG: the GPU-decode path cannot run here)");
            return;
        }
        var folder = folder(root);
        int maxBytes = largestFile(root);
        try (ImagePipeline train = ImagePipeline.train(SIZE); Kernels kernels = Kernels.load(cuda)) {
            GpuJpegDataset<ImageBytes> jpegs = GpuJpegDataset.of(folder, ENCODED, train, maxBytes);
            // pixels first: the kernel against the CPU resampler, nvJPEG against libjpeg-turbo
            GpuJpegParity.Result p = GpuJpegParity.compare(cuda, folder, ENCODED,
                    () -> ImagePipeline.builder().add(new RandomResizedCrop(SIZE)).add(new RandomHorizontalFlip())
                            .exact().build(), train, BATCH, maxBytes);
            out.printf(Locale.ROOT, "  pixels, %d images (%d values, 8-bit before Normalize): kernel vs CPU resampler on"
                    + " nvJPEG's pixels: %d differ; GPU path vs CPU path (exact mode): mean |d| %.3f levels, max %d,"
                    + " %.2f%% equal, %.3f%% within 2%n", p.images(), p.values(), p.kernelMismatches(),
                    p.meanAbsLevels(), p.maxAbsLevels(), 100 * p.equalFraction(), 100 * p.within2Fraction());
            for (boolean hardware : new boolean[] {true, false}) {
                try (GpuJpegDecoder probe = GpuJpegDecoder.builder(cuda, jpegs).hardware(hardware).build()) {
                    out.printf(Locale.ROOT, "%n  nvJPEG backend: %s (batch %d, rows of %s for the JPEG bytes, epochs of %d)%n",
                            probe.backend(), BATCH, Bytes.format(maxBytes), passes * jpegs.size());
                }
                header(out);
                // the default backend decodes Huffman on the feeder thread alone: its one row says how fast that is
                for (int workers : hardware ? new int[] {1, 2, 4, maxWorkers} : new int[] {maxWorkers}) {
                    for (double stepMs : hardware && workers == maxWorkers ? withZero(stepsMs) : new double[] {0}) {
                        try (GpuJpegDecoder decoder = GpuJpegDecoder.builder(cuda, jpegs).hardware(hardware).build();
                             DataLoader<?> loader = gpuLoader(jpegs, workers, passes)) {
                            out.printf(Locale.ROOT, "  %d workers:", workers);
                            row(out, cuda, kernels, loader, passes * jpegs.size(), stepMs, decoder);
                            long fallbacks = decoder.stats().fallbackBatches();
                            if (fallbacks > 0) {
                                out.println("  (" + fallbacks + " batches decoded image by image)");
                            }
                        } catch (RuntimeException e) {
                            out.println("  " + workers + " workers, step " + stepMs + " ms: failed: " + e);
                            e.printStackTrace(out);
                        }
                    }
                }
                if (!hardware) break;
            }
        }
    }

    /**
     * The GPU-decode loop on the engines under each decoder variant, to find what keeps nvJPEG's
     * decode call from overlapping the step. A variant is words joined by {@code +}: {@code cuda}
     * (CUDA's allocators) or {@code pools} (Stoker's scratch pools); against the decoder's defaults,
     * {@code pipe} (pipelining in the engines), {@code gpurelease} (the slot's stream, not the
     * host, waits for the consumer's release), {@code noprealloc} (the engines' buffers left to the
     * decode call), {@code default} (nvJPEG's default backend).
     */
    public static void gpuVariants(PrintStream out, CudaRuntime cuda, Path root, int workers, double[] stepsMs,
                                   int passes, String[] variants) throws IOException {
        out.println();
        out.println("GPU decode variants: " + NvJpeg.status());
        if (NvJpeg.library().isEmpty()) return;
        var folder = folder(root);
        int maxBytes = largestFile(root);
        try (ImagePipeline train = ImagePipeline.train(SIZE); Kernels kernels = Kernels.load(cuda)) {
            GpuJpegDataset<ImageBytes> jpegs = GpuJpegDataset.of(folder, ENCODED, train, maxBytes);
            for (String variant : variants) {
                java.util.Set<String> v = java.util.Set.of(variant.split("\\+"));
                boolean pools = v.contains("pools");
                boolean pipelining = v.contains("pipe");
                Boolean releaseOnHost = v.contains("gpurelease") ? Boolean.FALSE : null;
                boolean engines = !v.contains("default");
                boolean prealloc = !v.contains("noprealloc");
                out.printf(Locale.ROOT, "%n  variant %s (%d workers, batch %d, epochs of %d)%n", variant, workers, BATCH,
                        passes * jpegs.size());
                header(out);
                for (double stepMs : withZero(stepsMs)) {
                    try (GpuJpegDecoder decoder = GpuJpegDecoder.builder(cuda, jpegs).scratchPools(pools)
                            .pipelining(pipelining).hardware(engines).preallocate(prealloc).build();
                         DataLoader<?> loader = gpuLoader(jpegs, workers, passes)) {
                        row(out, cuda, kernels, loader, passes * jpegs.size(), stepMs, decoder, releaseOnHost);
                        GpuJpegDecoder.Stats s = decoder.stats();
                        out.printf(Locale.ROOT, "    backend %s: decode call %.2f ms/batch over %d batches, scratch blocks"
                                        + " made %d, reused %d, fallback batches %d%n", decoder.backend(),
                                s.decodeCallNanos() / 1e6 / Math.max(1, s.batches()), s.batches(),
                                s.scratchAllocations(), s.scratchReuses(), s.fallbackBatches());
                    } catch (RuntimeException e) {
                        out.println("  variant " + variant + ", step " + stepMs + " ms: failed: " + e);
                        e.printStackTrace(out);
                    }
                }
            }
        }
    }

    /** The GPU-decode loop's loader: pinned batches of {@link #BATCH} plans and JPEG bytes, epochs of {@code passes} folders. */
    private static DataLoader<?> gpuLoader(GpuJpegDataset<ImageBytes> jpegs, int workers, int passes) {
        return DataLoader.builder(jpegs).batchSize(BATCH).sampler(epochOf(jpegs.size(), passes)).numWorkers(workers)
                .persistentWorkers(true).pinMemory(true).build();
    }

    /** An epoch of the folder {@code passes} times over, shuffled: long enough for a steady state at many workers. */
    private static RandomSampler epochOf(long size, int passes) {
        return RandomSampler.builder(size).numSamples(size * passes).seed(1).build();
    }

    private static double[] withZero(double[] steps) {
        double[] all = new double[steps.length + 1];
        System.arraycopy(steps, 0, all, 1, steps.length);
        return all; // 0 first: as fast as the loader goes, no step
    }

    private static void header(PrintStream out) {
        out.printf(Locale.ROOT, "%8s %8s %10s %12s %12s %16s %16s %14s%n", "step ms", "steps", "GPU idle",
                "elapsed ms", "images/s", "feeder us/b", "process CPU ms/b", "loop waited ms");
    }

    /** One warm-up epoch, then the measured one; a step of 0 ms measures the loader alone. */
    private static void row(PrintStream out, CudaRuntime cuda, Kernels kernels, DataLoader<?> loader, long images,
                            double stepMs, GpuJpegDecoder stage) {
        row(out, cuda, kernels, loader, images, stepMs, stage, null);
    }

    private static void row(PrintStream out, CudaRuntime cuda, Kernels kernels, DataLoader<?> loader, long images,
                            double stepMs, GpuJpegDecoder stage, Boolean releaseOnHost) {
        long stepNs = (long) (stepMs * 1e6);
        DeviceStepLoop.run(cuda, kernels, batches(loader), stepNs, SLOTS, stage, releaseOnHost);
        long cpu0 = ProcessCpu.nanos();
        long t0 = System.nanoTime();
        DeviceStepLoop.Result r = DeviceStepLoop.run(cuda, kernels, batches(loader), stepNs, SLOTS, stage, releaseOnHost);
        double wallMs = (System.nanoTime() - t0) / 1e6;
        long cpu = ProcessCpu.nanos() - cpu0;
        out.printf(Locale.ROOT, "%8.1f %8d %9.2f%% %12.1f %12.1f %16.1f %16.2f %14.1f%n", stepMs, r.steps(),
                100 * r.gpuIdleFraction(), wallMs, images / (wallMs / 1e3), r.copyCpuMicrosPerBatch(),
                cpu / 1e6 / Math.max(1, r.steps()), r.consumerWaitMs());
    }

    private static Iterator<Batch> batches(DataLoader<?> loader) {
        return loader.iterator();
    }

    private static int largestFile(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            long max = files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).max().orElse(1);
            return (int) Math.min(Integer.MAX_VALUE - 8, (max + 4095) / 4096 * 4096);
        }
    }

}
