package dev.stoker.bench;

import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * One {@link StageClock#record} span, the call every timed stage makes (per batch for fetch,
 * collate and the consumer's stages, per sample for the dataset's read, decode and transform):
 * with no listener (every loader today; the cost of the listener check on the hot path), and
 * with one listener that does as little as a histogram's bucket lookup would not (a blackhole).
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar StageClockBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StageClockBenchmark {
    /** Listeners on the clock: 0 (the loader as it runs) or 1. */
    @Param({"0", "1"})
    public int listeners;

    private StageClock clock;
    private StageClock.Listening listening;
    private long t;

    @Setup
    public void setUp(Blackhole hole) {
        clock = new StageClock();
        if (listeners > 0) {
            listening = clock.listen((stage, start, nanos, epoch, batch) -> hole.consume(nanos));
        }
    }

    @TearDown
    public void tearDown() {
        if (listening != null) {
            listening.close();
        }
    }

    @Benchmark
    public void record() {
        long start = t;
        t += 1_000;
        clock.record(Stage.DECODE, start, start + 700, 0, start);
    }
}
