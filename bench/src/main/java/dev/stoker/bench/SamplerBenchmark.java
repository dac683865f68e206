package dev.stoker.bench;

import dev.stoker.sampler.DistributedSampler;
import dev.stoker.sampler.MixtureSampler;
import dev.stoker.sampler.RandomSampler;
import dev.stoker.sampler.Sampler;
import dev.stoker.sampler.SequentialSampler;
import dev.stoker.sampler.Share;
import java.util.PrimitiveIterator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What an index costs from each sampler, per index, against the sequential sampler's as the
 * baseline: every shuffle here is computed position by position (a Feistel permutation), so the
 * cost is per index and nothing is built per epoch. Datasets of 2^30 samples; the mixture has
 * three sources of a third each, shared 0.6 / 0.3 / 0.1 over an epoch of 2^28.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar SamplerBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class SamplerBenchmark {
    static final int INDICES = 1 << 16;
    static final long SIZE = 1L << 30;

    private Sampler sequential;
    private Sampler random;
    private Sampler distributed;
    private Sampler mixture;
    private long epoch;

    @Setup
    public void setUp() {
        sequential = new SequentialSampler(SIZE);
        random = RandomSampler.of(SIZE, 1);
        distributed = DistributedSampler.builder(SIZE).numReplicas(8).rank(3).seed(1).build();
        long third = SIZE / 3;
        mixture = MixtureSampler.builder(third, third, third)
                .shares(Share.proportion(0.6), Share.proportion(0.3), Share.proportion(0.1))
                .epochSize(1L << 28).seed(1).build();
    }

    private long drain(Sampler s) {
        PrimitiveIterator.OfLong it = s.iterator(epoch++);
        long sum = 0;
        for (int i = 0; i < INDICES; i++) {
            sum += it.nextLong();
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(INDICES)
    public long sequential() {
        return drain(sequential);
    }

    @Benchmark
    @OperationsPerInvocation(INDICES)
    public long random() {
        return drain(random);
    }

    @Benchmark
    @OperationsPerInvocation(INDICES)
    public long distributed() {
        return drain(distributed);
    }

    @Benchmark
    @OperationsPerInvocation(INDICES)
    public long mixture() {
        return drain(mixture);
    }
}
