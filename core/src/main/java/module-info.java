/**
 * Stoker's core: the loader, the datasets' contract, samplers, collation, the batch memory pool,
 * metrics and the environment check. It needs nothing but the JDK.
 *
 * <p>Every package is API except {@code dev.stoker.loader.engine}, the loader's workers, queues
 * and reorder buffer (see {@code docs/architecture.md}). Native access on the module path:
 * {@code --enable-native-access=dev.stoker.core}.
 */
module dev.stoker.core {
    // com.sun.management.OperatingSystemMXBean: the process's CPU time in the loader's metrics
    requires jdk.management;

    exports dev.stoker.collate;
    exports dev.stoker.data;
    exports dev.stoker.environment;
    exports dev.stoker.loader;
    exports dev.stoker.memory;
    exports dev.stoker.metrics;
    exports dev.stoker.packing;
    exports dev.stoker.random;
    exports dev.stoker.sampler;
    exports dev.stoker.tensor;
    exports dev.stoker.text;

    // each Stoker module that needs something of the JVM says so through a probe
    uses dev.stoker.environment.EnvironmentProbe;
    // page-locked batch memory, from stoker-cuda when it is there
    uses dev.stoker.memory.PinnedMemoryProvider;

    provides dev.stoker.environment.EnvironmentProbe with dev.stoker.memory.MemoryProbe;
}
