package dev.stoker.bench;

import dev.stoker.data.Dataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
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
 * What taking a loader's state costs, so that it can be left on at every step (torchdata's
 * {@code snapshot_every_n_steps} exists because its snapshot is expensive): {@code state()} in the
 * middle of a shuffled epoch of a million samples, delivered in order or as ready by 4 workers,
 * against the baseline of taking the next batch of the same pass ({@code nextBatch}), the step it
 * would sit beside; and {@code streamState()}, the state of a streaming loader with 4 workers
 * (one position per stream).
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar LoaderStateBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LoaderStateBenchmark {
    /** Samples are their own index: the loader's cost alone. */
    public static final class Indices implements Dataset<Long> {
        @Override
        public long size() {
            return 1L << 40;
        }

        @Override
        public Long get(long index) {
            return index;
        }
    }

    @Param({"true", "false"})
    public boolean inOrder;

    /** A loader 100 batches into its first pass, the pass still open. */
    static final class MidEpoch implements AutoCloseable {
        final DataLoader<Long> loader;
        final BatchIterator pass;

        MidEpoch(DataLoader<Long> loader) {
            this.loader = loader;
            this.pass = loader.iterator();
            for (int i = 0; i < 100; i++) {
                pass.next().close();
            }
        }

        @Override
        public void close() {
            pass.close();
            loader.close();
        }
    }

    private MidEpoch mapStyle;

    @Setup
    public void setUp() {
        mapStyle = new MidEpoch(DataLoader.builder(new Indices()).batchSize(32).shuffle(true).seed(1).numWorkers(4)
                .inOrder(inOrder).build());
    }

    @TearDown
    public void tearDown() {
        mapStyle.close();
    }

    /** A streaming loader of 4 workers, each stream counting up, mid-epoch. */
    @State(Scope.Benchmark)
    public static class Streaming {
        MidEpoch streaming;

        @Setup
        public void setUp() {
            StreamingDataset<Long> counting = ctx -> SampleStream.of(LongStream.iterate(ctx.globalWorkerId(),
                    i -> i + ctx.globalWorkers()).boxed().iterator());
            streaming = new MidEpoch(DataLoader.builder(counting).batchSize(32).seed(1).numWorkers(4).build());
        }

        @TearDown
        public void tearDown() {
            streaming.close();
        }
    }

    @Benchmark
    public LoaderState streamState(Streaming s) {
        return s.streaming.loader.state();
    }

    @Benchmark
    public LoaderState state() {
        return mapStyle.loader.state();
    }

    @Benchmark
    public long nextBatch() {
        try (Batch b = mapStyle.pass.next()) {
            return b.index();
        }
    }
}
