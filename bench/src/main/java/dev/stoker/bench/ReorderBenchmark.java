package dev.stoker.bench;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The loader's own per-batch cost, measured through the public API: the time the consumer waits
 * for each batch of a {@link DataLoader} over a dataset whose samples cost nothing (sample
 * {@code i} is the long {@code i}, filled in place, 32 to a batch). With {@code numWorkers} 0 the
 * consumer's thread makes each batch itself; with 2 or 4 the batches cross threads, through the
 * reorder buffer ({@code inOrder} true, the default) or as ready ({@code inOrder} false). With 0
 * workers {@code inOrder} changes nothing: its two rows are a check of the noise.
 *
 * <p>One pass is started per trial over an endless dataset and each call takes one batch, so the
 * figure is the steady state, with no pass or worker start-up in it. The baseline in the same run
 * is {@code baselineDirect}: the same batch made by hand (pool acquire, 32 writes, close), the
 * work without the machinery. Per-batch figures are in µs; batches/s is 10^6 over them.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar ReorderBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ReorderBenchmark {
    private static final int BATCH = 32;
    /** Enough batches that no trial reaches the end of the pass. */
    private static final long SAMPLES = 1L << 40;

    /** One pass of a loader, kept open for the trial. */
    @State(Scope.Benchmark)
    public static class Pass {
        @Param({"0", "2", "4"})
        public int numWorkers;

        @Param({"true", "false"})
        public boolean inOrder;

        private DataLoader<Long> loader;
        private BatchIterator pass;

        @Setup
        public void setUp() {
            loader = DataLoader.builder(new Indices())
                    .batchSize(BATCH)
                    .numWorkers(numWorkers)
                    .inOrder(inOrder)
                    .poolBudgetBytes(64L << 20)
                    .build();
            pass = loader.iterator();
        }

        @TearDown
        public void tearDown() {
            pass.close();
            loader.close();
        }
    }

    /** A pool for the baseline. */
    @State(Scope.Benchmark)
    public static class Direct {
        private BufferPool pool;
        private long next;

        @Setup
        public void setUp() {
            pool = BufferPool.builder().name("bench").budgetBytes(64L << 20).build();
        }

        @TearDown
        public void tearDown() {
            pool.close();
        }
    }

    /** Take the next batch from the loader, read one value, close it. */
    @Benchmark
    public long loaderBatch(Pass p) {
        try (Batch b = p.pass.next()) {
            return b.tensor().getLong(BATCH - 1);
        }
    }

    /** Baseline: the same batch made in place by hand, no loader. */
    @Benchmark
    public long baselineDirect(Direct d) {
        try (PooledBuffer buf = d.pool.acquire((long) BATCH * Long.BYTES, "bench batch")) {
            Tensor t = new Tensor(buf.segment(), DType.I64, Shape.of(BATCH));
            for (int j = 0; j < BATCH; j++) {
                t.setLong(j, d.next++);
            }
            return t.getLong(BATCH - 1);
        }
    }

    /** Sample {@code i} is the long {@code i}: a dataset that costs nothing, so only the loader is left. */
    public static final class Indices implements FillableDataset<Long> {
        private static final SampleLayout LAYOUT =
                SampleLayout.single(new SampleLayout.Field("index", DType.I64, Shape.scalar()));

        @Override
        public long size() {
            return SAMPLES;
        }

        @Override
        public Long get(long index) {
            return index;
        }

        @Override
        public SampleLayout layout() {
            return LAYOUT;
        }

        @Override
        public void fill(long index, SampleSlot slot) {
            slot.tensor(0).setLong(0, index);
        }

        @Override
        public void fillBatch(long[] indices, BatchSlots slots) {
            Tensor t = slots.tensor(0);
            for (int j = 0; j < indices.length; j++) {
                t.setLong(j, indices[j]);
            }
        }
    }
}
