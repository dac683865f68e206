/**
 * CUDA through the FFM API: page-locked batch memory and host-to-device copies.
 * Native access on the module path: {@code --enable-native-access=dev.stoker.cuda}.
 */
module dev.stoker.cuda {
    requires transitive dev.stoker.core;

    exports dev.stoker.cuda;
    exports dev.stoker.cuda.measure;

    provides dev.stoker.environment.EnvironmentProbe with dev.stoker.cuda.CudaProbe;
    provides dev.stoker.memory.PinnedMemoryProvider with dev.stoker.cuda.CudaPinnedMemoryProvider;
}
