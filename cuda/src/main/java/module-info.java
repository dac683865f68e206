/**
 * CUDA through the FFM API: page-locked batch memory, host-to-device copies, and JPEG decoding on
 * the GPU with nvJPEG. Native access on the module path: {@code --enable-native-access=dev.stoker.cuda}.
 */
module dev.stoker.cuda {
    requires transitive dev.stoker.core;
    // GPU JPEG decoding (dev.stoker.cuda.image) and the device measurements only: optional
    requires static dev.stoker.vision;
    requires static dev.stoker.formats;

    exports dev.stoker.cuda;
    exports dev.stoker.cuda.image;
    exports dev.stoker.cuda.measure;
    // dev.stoker.cuda.lib (finding and binding NVIDIA's libraries) stays internal

    provides dev.stoker.environment.EnvironmentProbe with dev.stoker.cuda.CudaProbe;
    provides dev.stoker.memory.PinnedMemoryProvider with dev.stoker.cuda.CudaPinnedMemoryProvider;
}
