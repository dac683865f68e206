package dev.stoker.cli;

import dev.stoker.cuda.Cuda;
import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.measure.DeviceBench;
import dev.stoker.cuda.measure.JpegLoopBench;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stoker cuda}: whether this machine has a usable CUDA device; with {@code --bench} the
 * device measurements (host-to-device bandwidth by copy size, and the step loop fed by the
 * device prefetcher from pinned and from ordinary batch memory); with {@code --loop} the
 * W3-style loop end to end ({@link JpegLoopBench}); with {@code --gpu-decode} the same images decoded
 * on the GPU by nvJPEG.
 *
 * <pre>{@code
 * stoker cuda            # one line per device, or why there is none
 * stoker cuda --bench    # the tables of docs/cuda.md
 * stoker cuda --loop     # JPEG decode + pinned batches + prefetcher + a fixed GPU step
 * stoker cuda --loop --gpu-decode   # and the same with nvJPEG and the resample on the GPU
 * }</pre>
 */
@Command(
        name = "cuda",
        description = {
            "Say whether CUDA is usable here (libcudart found, a driver, a device), and",
            "with --bench measure the accelerator path: copy bandwidth from pinned and",
            "from ordinary memory, and how long a GPU step loop waits for its batches;",
            "with --loop run W3's images end to end (decode, pinned batches, overlapped",
            "copies, a GPU step of fixed length) and say how long the GPU waited; with",
            "--gpu-decode also decode them on the GPU (nvJPEG, the resample in Stoker's",
            "kernel) and compare its pixels and speed with the CPU's.",
            "",
            "Nothing CUDA is needed to build or run Stoker: the runtime library is looked",
            "up when this runs (STOKER_CUDART, CUDA_HOME, LD_LIBRARY_PATH, /usr/local/cuda).",
            "The exit status is 0 when a device is usable, 1 (with the reason on standard",
            "error) when none is.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker cuda                 the devices, or why there are none",
            "  stoker cuda --bench --quick a short run of the device benchmarks",
            "  stoker cuda --loop --workers 8 --step-ms 20,40",
            "  stoker cuda --loop --gpu-decode --data bench-data"
        })
final class CudaCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--bench", description = "Run the device benchmarks (needs a GPU).")
    boolean bench;

    @Option(names = "--quick", description = "With --bench: fewer sizes and steps.")
    boolean quick;

    @Option(names = "--loop", description = "Run the end-to-end W3-style loop (needs a GPU).")
    boolean loop;

    @Option(names = "--gpu-decode", description = "With --loop: also decode on the GPU with nvJPEG (needs"
            + " libnvjpeg; STOKER_NVJPEG names it).")
    boolean gpuDecode;

    @Option(names = "--data", paramLabel = "DIR", description = "With --loop: a folder holding jpeg/ (an"
            + " ImageFolder); default: W3's generated images in the cache folder.")
    Path data;

    @Option(names = "--workers", paramLabel = "N", description = "With --loop: loader workers (default: the"
            + " cores less one).")
    Integer workers;

    @Option(names = "--step-ms", paramLabel = "MS", split = ",", defaultValue = "40,20",
            description = "With --loop: GPU step lengths to try (default: ${DEFAULT-VALUE}).")
    double[] stepsMs;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "2000",
            description = "With --loop: images per epoch (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!Cuda.isAvailable()) {
            // "is there a usable GPU?" answered no: a script that asks must be able to tell from the status
            PrintWriter err = spec.commandLine().getErr();
            err.println("stoker cuda: " + Cuda.status());
            err.println(bench || loop
                    ? "stoker cuda " + (bench ? "--bench" : "--loop") + " needs a CUDA device; the CPU path needs none"
                            + " of this."
                    : "stoker cuda: no usable CUDA device here (exit status 1); the CPU path needs none of this.");
            return 1;
        }
        CudaRuntime cuda = Cuda.require();
        out.println(Cuda.status());
        for (int d = 0; d < cuda.deviceCount(); d++) {
            out.println("  " + cuda.deviceInfo(d));
        }
        out.flush();
        if (bench) {
            DeviceBench.run(System.out, quick);
        }
        if (loop) {
            int n = workers != null ? workers : Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
            try {
                Path root = data != null && java.nio.file.Files.isDirectory(data.resolve(W3JpegFolder.FOLDER))
                        ? data.resolve(W3JpegFolder.FOLDER) : W3JpegFolder.generated(samples);
                JpegLoopBench.cpuDecode(System.out, cuda, root, n, stepsMs, 4);
                if (gpuDecode) {
                    JpegLoopBench.gpuDecode(System.out, cuda, root, n, stepsMs, 4);
                }
            } catch (IOException e) {
                spec.commandLine().getErr().println("stoker cuda --loop: cannot read the images: " + e.getMessage());
                return 1;
            }
        }
        return 0;
    }
}
