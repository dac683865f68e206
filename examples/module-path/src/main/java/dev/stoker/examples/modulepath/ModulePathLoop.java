package dev.stoker.examples.modulepath;

import dev.stoker.data.SyntheticDataset;
import dev.stoker.data.SyntheticSample;
import dev.stoker.environment.Environment;
import dev.stoker.environment.EnvironmentProbe;
import dev.stoker.environment.Finding;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.time.Duration;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The training loop of Stoker's README, run as a named module ({@code module-info.java} requires
 * {@code dev.stoker.core} and {@code dev.stoker.vision}) with
 * {@code --enable-native-access=dev.stoker.core,dev.stoker.vision} as its one flag: a synthetic
 * dataset (random images whose every sample takes 5 ms to "read", like a slow disk), a shuffling
 * loader with four worker threads, four epochs. {@code train} stands in for the model's step; here
 * it checks what it is given, and the program fails (exit code 1) if any batch or epoch went missing.
 *
 * <p>First it checks the environment: the probes of core and vision must be found as services of
 * named modules (their {@code provides} clauses), and both modules must see the native access the
 * command line gave them by name.
 */
public final class ModulePathLoop {
    private static final int EPOCHS = 4;
    private static long batches;
    private static long samples;

    public static void main(String[] args) {
        checkEnvironment();

        SyntheticDataset dataset = SyntheticDataset.builder()
                .size(512).shape(Shape.of(3, 224, 224)).delay(Duration.ofMillis(5)).seed(0)
                .build();

        long start = System.nanoTime();
        try (DataLoader<SyntheticSample> loader = DataLoader.builder(dataset)
                .batchSize(32)
                .shuffle(true)
                .seed(42)
                .numWorkers(4)              // worker threads sharing the dataset; 0 loads in this thread
                .prefetchFactor(2)          // batches in flight per worker: the memory bound
                .persistentWorkers(true)
                .build()) {
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                for (Batch batch : loader) {               // each iterator() is one epoch
                    try (batch) {                           // closing gives the memory back to the pool
                        Tensor images = batch.tensor("image");   // (32, 3, 224, 224) f32
                        Tensor labels = batch.tensor("label");   // (32,) i64
                        train(images, labels);
                    }
                }
            }
            // Every batch was closed, so the pool has all its memory back.
            check(loader.pool().lentBytes() == 0, "batches still hold " + loader.pool().lentBytes() + " bytes");
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        check(batches == EPOCHS * 512 / 32, "expected " + EPOCHS * 512 / 32 + " batches, got " + batches);
        check(samples == EPOCHS * 512L, "expected " + EPOCHS * 512 + " samples, got " + samples);
        // 2,048 samples of 5 ms each: 10 s in one thread, about a quarter of that with four workers.
        System.out.printf("module-path: %d epochs, %d batches, %d samples in %.1f s (%.0f samples/s)%n",
                EPOCHS, batches, samples, seconds, samples / seconds);
    }

    /**
     * Stoker's environment probes, found by {@link ServiceLoader} on the module path: each comes from
     * a named module, and the native access the command line gave by module name is seen.
     */
    private static void checkEnvironment() {
        Set<String> modules = ServiceLoader.load(EnvironmentProbe.class).stream()
                .map(p -> String.valueOf(p.type().getModule().getName()))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
        System.out.println("module-path: environment probes from modules " + modules);
        check(modules.containsAll(Set.of("dev.stoker.core", "dev.stoker.vision")),
                "the probes of dev.stoker.core and dev.stoker.vision were not found as services: " + modules);

        Environment env = Environment.current();
        System.out.print(env.report());
        for (String module : Set.of("stoker-core", "stoker-vision")) {
            boolean nativeAccess = env.findings().stream().anyMatch(f -> f instanceof Finding.Ready
                    && f.module().equals(module) && f.feature().startsWith("native access"));
            check(nativeAccess, module + " does not see native access given by module name");
        }
    }

    /** Stands in for a training step: checks the batch's shapes and types and counts it. */
    private static void train(Tensor images, Tensor labels) {
        check(images.shape().equals(Shape.of(32, 3, 224, 224)) && images.dtype() == DType.F32,
                "images are " + images);
        check(labels.shape().equals(Shape.of(32)) && labels.dtype() == DType.I64, "labels are " + labels);
        batches++;
        samples += labels.shape().dim(0);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("module-path: " + what);
        }
    }
}
