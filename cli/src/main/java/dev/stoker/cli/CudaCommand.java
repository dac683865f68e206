package dev.stoker.cli;

import dev.stoker.cuda.Cuda;
import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.measure.DeviceBench;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stoker cuda}: whether this machine has a usable CUDA device, and with {@code --bench}
 * the device measurements (host-to-device bandwidth by copy size, and the step loop fed by the
 * device prefetcher from pinned and from ordinary batch memory).
 *
 * <pre>{@code
 * stoker cuda            # one line per device, or why there is none
 * stoker cuda --bench    # the tables of docs/cuda.md
 * }</pre>
 */
@Command(
        name = "cuda",
        description = {
            "Say whether CUDA is usable here (libcudart found, a driver, a device), and",
            "with --bench measure the accelerator path: copy bandwidth from pinned and",
            "from ordinary memory, and how long a GPU step loop waits for its batches.",
            "",
            "Nothing CUDA is needed to build or run Stoker: the runtime library is looked",
            "up when this runs (STOKER_CUDART, CUDA_HOME, LD_LIBRARY_PATH, /usr/local/cuda).",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker cuda                 the devices, or why there are none",
            "  stoker cuda --bench --quick a short run of the device benchmarks"
        })
final class CudaCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--bench", description = "Run the device benchmarks (needs a GPU).")
    boolean bench;

    @Option(names = "--quick", description = "With --bench: fewer sizes and steps.")
    boolean quick;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!Cuda.isAvailable()) {
            out.println(Cuda.status());
            if (bench) {
                spec.commandLine().getErr().println(
                        "stoker cuda --bench needs a CUDA device; the CPU path needs none of this.");
                return 1;
            }
            return 0;
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
        return 0;
    }
}
