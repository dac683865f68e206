package dev.stoker.bench;

import dev.stoker.collate.BatchMemory;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
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
 * The cost of {@link DefaultCollate} stacking an image batch: 32 samples of (3, 224, 224) f32
 * (19.3 MB) into one pooled tensor, against the floor of a plain {@code float[]} copy loop.
 * Both move the same bytes; the difference is the collate's dispatch, checks and pool traffic.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar CollateBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CollateBenchmark {
    private static final int BATCH = 32;
    private static final Shape SAMPLE = Shape.of(3, 224, 224);
    private static final int SAMPLE_FLOATS = (int) SAMPLE.elements();

    private Arena arena;
    private BufferPool pool;
    private List<Tensor> tensors;
    private float[][] arrays;
    private float[] flat;

    @Setup
    public void setUp() {
        arena = Arena.ofShared();
        // Room for two batches: the benchmark gives each back before the next, so one block is
        // reused throughout, as in a loader that has warmed up.
        pool = BufferPool.builder().name("bench").budgetBytes(2L * BATCH * SAMPLE_FLOATS * Float.BYTES).build();
        SplittableRandom random = new SplittableRandom(42);
        tensors = new ArrayList<>(BATCH);
        arrays = new float[BATCH][SAMPLE_FLOATS];
        for (int i = 0; i < BATCH; i++) {
            for (int j = 0; j < SAMPLE_FLOATS; j++) {
                arrays[i][j] = (float) random.nextDouble();
            }
            Tensor t = Tensor.allocate(arena, DType.F32, SAMPLE);
            t.copyFrom(arrays[i]);
            tensors.add(t);
        }
        flat = new float[BATCH * SAMPLE_FLOATS];
    }

    @TearDown
    public void tearDown() {
        pool.close();
        arena.close();
    }

    /** DefaultCollate stacking 32 tensors into a tensor from the pool, given back after. */
    @Benchmark
    public void defaultCollateTensors(Blackhole bh) {
        collateIntoPool(tensors, bh);
    }

    /** The same batch arriving as float[] samples. */
    @Benchmark
    public void defaultCollateFloatArrays(Blackhole bh) {
        collateIntoPool(List.of(arrays), bh);
    }

    /** The floor: copy 32 float[] into one float[] with System.arraycopy. */
    @Benchmark
    public float[] baselineArrayCopy() {
        for (int i = 0; i < BATCH; i++) {
            System.arraycopy(arrays[i], 0, flat, i * SAMPLE_FLOATS, SAMPLE_FLOATS);
        }
        return flat;
    }

    private void collateIntoPool(List<?> samples, Blackhole bh) {
        List<PooledBuffer> held = new ArrayList<>(1);
        BatchMemory memory = (dtype, shape) -> {
            PooledBuffer b = pool.acquire(shape.elements() * dtype.byteSize(), "bench batch");
            held.add(b);
            return new Tensor(b.segment(), dtype, shape);
        };
        Tensor batch = (Tensor) DefaultCollate.instance().collate(samples, memory);
        bh.consume(batch.getFloat(batch.elements() - 1));
        for (PooledBuffer b : held) {
            b.close();
        }
    }
}
