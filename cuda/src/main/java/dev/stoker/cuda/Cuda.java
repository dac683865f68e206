package dev.stoker.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether this machine has CUDA, found once per process.
 *
 * <p>CUDA counts as available when {@code libcudart} loads and reports at least one device.
 * Otherwise {@link #status()} says in one line what was missing, and everything in this module
 * that has a CPU path (the pinned pool) takes it.
 *
 * <pre>{@code
 * System.out.println(Cuda.status());   // "CUDA 13.0 (driver 13.0): cuda:0 NVIDIA H200 (150.0 GB, ...)"
 * Cuda.runtime().ifPresent(cuda -> cuda.deviceInfo(0));
 * }</pre>
 */
public final class Cuda {
    private static final System.Logger LOG = System.getLogger(Cuda.class.getName());

    private Cuda() {}

    private static final class Holder {
        static final Probe PROBE = probe();
    }

    private record Probe(CudaRuntime runtime, String status) {}

    private static Probe probe() {
        List<String> tried = new ArrayList<>();
        Optional<dev.stoker.cuda.lib.NativeLibraryFinder.Found> lib;
        try {
            lib = CudaLibrary.load(tried);
        } catch (RuntimeException | LinkageError e) {
            return unavailable("no CUDA: loading libcudart failed: " + e.getMessage());
        }
        if (lib.isEmpty()) {
            return unavailable("no CUDA: libcudart was not found (set CUDA_HOME or LD_LIBRARY_PATH, or STOKER_CUDART"
                    + " to the library's path; looked for libcudart.so in " + tried.size() + " places)");
        }
        CudaRuntime rt;
        try {
            rt = new CudaRuntime(lib.get().lookup(), lib.get().path());
        } catch (RuntimeException | LinkageError e) {
            return unavailable("no CUDA: " + lib.get().path() + " could not be bound: " + e.getMessage());
        }
        StringBuilder reason = new StringBuilder();
        int devices = rt.deviceCountOrZero(reason);
        if (devices == 0) {
            return unavailable("no CUDA: " + lib.get().path() + " loaded but reports no device ("
                    + (reason.isEmpty() ? "device count 0" : reason) + ")");
        }
        int[] v = rt.versions();
        String status = "CUDA " + version(v[1]) + " (driver " + version(v[0]) + ", " + lib.get().path() + "): "
                + rt.deviceInfo(0) + (devices > 1 ? " and " + (devices - 1) + " more" : "");
        return new Probe(rt, status);
    }

    private static Probe unavailable(String status) {
        LOG.log(System.Logger.Level.INFO, status + "; Stoker runs on the CPU path");
        return new Probe(null, status);
    }

    private static String version(int encoded) {
        return encoded / 1000 + "." + (encoded % 1000) / 10;
    }

    /** The CUDA runtime when a device is present. */
    public static Optional<CudaRuntime> runtime() {
        return Optional.ofNullable(Holder.PROBE.runtime());
    }

    public static boolean isAvailable() {
        return Holder.PROBE.runtime() != null;
    }

    /** One line: the runtime, driver and device, or why there is no CUDA. */
    public static String status() {
        return Holder.PROBE.status();
    }

    /** The runtime, or an exception that says why there is none. */
    public static CudaRuntime require() {
        CudaRuntime rt = Holder.PROBE.runtime();
        if (rt == null) {
            throw new IllegalStateException(status());
        }
        return rt;
    }
}
