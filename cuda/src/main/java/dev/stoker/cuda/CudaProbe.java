package dev.stoker.cuda;

import dev.stoker.environment.EnvironmentProbe;
import dev.stoker.environment.Finding;
import dev.stoker.environment.NativeAccess;
import java.util.List;

/**
 * The CUDA module's part of {@link dev.stoker.environment.Environment}: native access, and
 * {@code libcudart} with a device. A service implementation; not called directly.
 */
public final class CudaProbe implements EnvironmentProbe {
    private static final String MODULE = "stoker-cuda";

    /** Made by {@link java.util.ServiceLoader}. */
    public CudaProbe() {
    }

    @Override
    public List<Finding> probe() {
        Finding access = NativeAccess.finding(MODULE, CudaProbe.class, "libcudart");
        String feature = "CUDA device";
        String cost = "pinMemory uses mlock'ed memory, and batches are not copied to a GPU";
        if (!(access instanceof Finding.Ready)) {
            return List.of(access, new Finding.Missing(MODULE, feature, cost + " (not looked up without native access)",
                    "start the JVM with " + NativeAccess.flag(CudaProbe.class)));
        }
        Finding device = Cuda.isAvailable()
                ? new Finding.Ready(MODULE, feature, Cuda.status())
                : new Finding.Missing(MODULE, feature, cost + "; " + Cuda.status(),
                        "on a machine with an NVIDIA GPU, install its driver and the CUDA runtime (libcudart)");
        return List.of(access, device);
    }
}
