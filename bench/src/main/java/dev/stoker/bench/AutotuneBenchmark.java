package dev.stoker.bench;

import dev.stoker.loader.Autotune;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.loader.TuningDecision;
import dev.stoker.loader.TuningPolicy;
import dev.stoker.metrics.MachineCpu;
import dev.stoker.metrics.ProcessCpu;
import dev.stoker.metrics.StageClock;
import java.util.List;
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
 * What the autotuner costs, next to what a batch costs.
 *
 * <ul>
 *   <li>{@code loaderBatch}: one batch of {@link ReorderBenchmark}'s free dataset (32 longs
 *       filled in place) through a loader with 2 workers: {@code fixed} ({@code numWorkers(2)
 *       .prefetchFactor(2)}), {@code replayed} (autotune held at 2 workers and prefetch 2 by a
 *       replayed decision: the per-batch bookkeeping, the throttle and the window, and a tick per
 *       batch) and {@code live} (the controller deciding, a tick every 4 batches and 100 ms).
 *   <li>{@code policyDecision}: the policy's decision on one window's signals, alone.
 *   <li>{@code tick}: one tick as the live controller runs it: the machine's and the process's
 *       CPU counters read ({@code /proc/stat} and the MX bean) and the decision. It runs at most
 *       every 100 ms and 4 batches, so its share per batch is this divided by the batches in 100 ms.
 *   <li>{@code batchHookUnheard} and {@code batchHookHeard}: the once-per-batch hook
 *       ({@code StageClock.batchMade}) with no listener, as every loader runs it, and with one
 *       that records into an array, as a histogram would.
 *   <li>{@code queueDepth}: one reading of {@code DataLoader.queueDepth()}, as a report's sampler
 *       or a dashboard takes it while the loader runs (from another thread in real use).
 * </ul>
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar AutotuneBenchmark
 * java -jar bench/target/benchmarks.jar 'AutotuneBenchmark.(loaderBatch|tick|batchHook.*|queueDepth)' -p tuning=fixed,live
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class AutotuneBenchmark {
    private static final int BATCH = 32;

    /** One pass of a loader, kept open for the trial. */
    @State(Scope.Benchmark)
    public static class Pass {
        @Param({"fixed", "replayed", "live"})
        public String tuning;

        private DataLoader<Long> loader;
        private BatchIterator pass;

        @Setup
        public void setUp() {
            LoaderBuilder<Long> b = DataLoader.builder(new ReorderBenchmark.Indices()).batchSize(BATCH);
            Autotune budget = Autotune.budget(64L << 20).maxWorkers(2).maxPrefetch(2);
            loader = switch (tuning) {
                case "fixed" -> b.numWorkers(2).prefetchFactor(2).poolBudgetBytes(64L << 20).build();
                case "replayed" -> b.autotune(budget.replaying(List.of(TuningDecision.given(0, 2, 2)))).build();
                case "live" -> b.autotune(budget).build();
                default -> throw new IllegalArgumentException(tuning);
            };
            pass = loader.iterator();
        }

        @TearDown
        public void tearDown() {
            pass.close();
            loader.close();
        }
    }

    /** A policy and the counters' last readings. */
    @State(Scope.Thread)
    public static class Controller {
        private final TuningPolicy policy = new TuningPolicy(8, 4, 1L << 30, 8, (w, p) -> w * p);
        private final TuningPolicy.Settings settings = new TuningPolicy.Settings(4, 2);
        private final TuningPolicy.Signals signals = new TuningPolicy.Signals(0.03, 0.5, 0.3, 1 << 20);
        private MachineCpu.Ticks machine = MachineCpu.ticks();
        private long process = ProcessCpu.nanos();
    }

    /** A clock with no batch listener, and one with a listener that keeps the last assembly time. */
    @State(Scope.Thread)
    public static class Hooks {
        private final StageClock unheard = new StageClock();
        private final StageClock heard = new StageClock();
        private final long[] last = new long[1];
        private long k;

        @Setup
        public void setUp() {
            heard.listenBatches((epoch, batch, rows, bytes, start, end) -> last[0] = end - start);
        }
    }

    /** The once-per-batch hook as every loader calls it: nobody listens. */
    @Benchmark
    public long batchHookUnheard(Hooks h) {
        long k = h.k++;
        h.unheard.batchMade(0, k, 32, 1 << 20, k, k + 1000);
        return k;
    }

    /** The hook with one listener. */
    @Benchmark
    public long batchHookHeard(Hooks h) {
        long k = h.k++;
        h.heard.batchMade(0, k, 32, 1 << 20, k, k + 1000);
        return h.last[0];
    }

    /** One reading of the queue's depth. */
    @Benchmark
    public int queueDepth(Pass p) {
        return p.loader.queueDepth();
    }

    /** Take the next batch from the loader, read one value, close it. */
    @Benchmark
    public long loaderBatch(Pass p) {
        try (Batch b = p.pass.next()) {
            return b.tensor().getLong(BATCH - 1);
        }
    }

    /** The policy's decision on one window's signals. */
    @Benchmark
    public Object policyDecision(Controller c) {
        return c.policy.next(c.settings, c.signals);
    }

    /** One tick of the live controller: the CPU counters read and the decision. */
    @Benchmark
    public Object tick(Controller c) {
        MachineCpu.Ticks now = MachineCpu.ticks();
        long processNow = ProcessCpu.nanos();
        double busy = MachineCpu.busyShare(c.machine, now);
        double ours = (processNow - c.process) / 1e8 / 8;
        c.machine = now;
        c.process = processNow;
        return c.policy.next(c.settings, new TuningPolicy.Signals(0.03, busy, ours, 1 << 20));
    }
}
