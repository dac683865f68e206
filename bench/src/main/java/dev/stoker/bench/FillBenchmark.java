package dev.stoker.bench;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.SyntheticDataset;
import dev.stoker.data.SyntheticSample;
import dev.stoker.data.TensorDataset;
import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One batch made the general way (a sample object per index, then {@link DefaultCollate}) against
 * the zero-copy fill path ({@code FillableDataset.fill} / {@code fillBatch} into the batch's
 * pooled tensors), for W1's batch (32 Gaussian-noise images 3x224x224 f32 and labels, no delay)
 * and W6's (a gather of 64 rows of in-memory tensors). The memory comes from a pool and goes back
 * after each batch, as in a loader that has warmed up.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar FillBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class FillBenchmark {
    private static final Shape IMAGE = Shape.of(3, 224, 224);
    private static final int W1_BATCH = 32;
    private static final int W6_BATCH = 64;
    private static final int W6_ROWS = 512;

    private Arena arena;
    private BufferPool pool;
    private SyntheticDataset synthetic;
    private TensorDataset<List<Tensor>> tensors;
    private long[] w1Indices;
    private long[] w6Indices;

    @Setup
    public void setUp() {
        arena = Arena.ofShared();
        pool = BufferPool.builder().name("bench").budgetBytes(1L << 30).build();
        synthetic = SyntheticDataset.builder().size(512).shape(IMAGE).seed(1).build();
        Tensor images = Tensor.allocate(arena, DType.F32, IMAGE.prepend(W6_ROWS));
        Tensor labels = Tensor.allocate(arena, DType.I64, Shape.of(W6_ROWS));
        for (long i = 0; i < W6_ROWS; i++) {
            labels.setLong(i, i % 1000);
        }
        tensors = TensorDataset.of(images, labels);
        SplittableRandom random = new SplittableRandom(42);
        w1Indices = random.longs(W1_BATCH, 0, 512).toArray();
        w6Indices = random.longs(W6_BATCH, 0, W6_ROWS).toArray();
    }

    @TearDown
    public void tearDown() {
        pool.close();
        arena.close();
    }

    /** W1, the general path: 32 samples (heap images), then the default collate's stack. */
    @Benchmark
    public void w1Collate(Blackhole bh) {
        List<SyntheticSample> samples = new ArrayList<>(W1_BATCH);
        for (long i : w1Indices) {
            samples.add(synthetic.get(i));
        }
        collate(samples, bh);
    }

    /** W1, the fill path: each image written into its row of the batch. */
    @Benchmark
    public void w1Fill(Blackhole bh) {
        try (HeldBatchMemory held = new HeldBatchMemory(pool)) {
            BatchSlots slots = held.slots(synthetic.layout(), W1_BATCH);
            for (int j = 0; j < W1_BATCH; j++) {
                synthetic.fill(w1Indices[j], slots.slot(j));
            }
            bh.consume(slots.tensor(0).getFloat(0));
        }
    }

    /** W6, the general path: 64 row views, then the default collate's stack. */
    @Benchmark
    public void w6Collate(Blackhole bh) {
        List<List<Tensor>> samples = new ArrayList<>(W6_BATCH);
        for (long i : w6Indices) {
            samples.add(tensors.get(i));
        }
        collate(samples, bh);
    }

    /** W6, the fill path: one gather of 64 rows into the batch ({@code fillBatch}). */
    @Benchmark
    public void w6FillBatch(Blackhole bh) {
        try (HeldBatchMemory held = new HeldBatchMemory(pool)) {
            BatchSlots slots = held.slots(tensors.layout(), W6_BATCH);
            tensors.fillBatch(w6Indices, slots);
            bh.consume(slots.tensor(0).getFloat(0));
        }
    }

    private void collate(List<?> samples, Blackhole bh) {
        try (HeldBatchMemory held = new HeldBatchMemory(pool)) {
            bh.consume(DefaultCollate.instance().collate(samples, held));
        }
    }
}
