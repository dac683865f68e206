package dev.stoker.bench;

import dev.stoker.data.GaussianFill;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
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

/**
 * {@link GaussianFill} making one W1 image of noise (3 x 224 x 224 = 150,528 floats), into
 * off-heap memory (the fill path) and into a {@code float[]}, against two baselines in the same
 * run: the JDK's Gaussians one element at a time ({@code SplittableRandom.nextGaussian}, the
 * modified ziggurat, and {@code java.util.Random.nextGaussian}, the polar method and what a naive
 * port would use), and the memory floor: {@code MemorySegment.fill} of the same 602,112 bytes,
 * which no generator can beat. The buffers are touched before timing, so no page faults count.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar GaussianFillBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class GaussianFillBenchmark {
    private static final int FLOATS = 3 * 224 * 224;

    private Arena arena;
    private MemorySegment segment;
    private float[] array;
    private SplittableRandom splittable;
    private Random random;
    private long seed;

    @Setup
    public void setUp() {
        arena = Arena.ofShared();
        segment = arena.allocate((long) FLOATS * Float.BYTES, 64);
        array = new float[FLOATS];
        splittable = new SplittableRandom(42);
        random = new Random(42);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    /** GaussianFill into off-heap memory, as a fillable dataset writes a batch row. */
    @Benchmark
    public float gaussianFillSegment() {
        GaussianFill.fill(segment, FLOATS, seed++);
        return segment.getAtIndex(ValueLayout.JAVA_FLOAT, FLOATS - 1);
    }

    /** GaussianFill into a float[]. */
    @Benchmark
    public float[] gaussianFillArray() {
        GaussianFill.fill(array, seed++);
        return array;
    }

    /** Baseline: SplittableRandom.nextGaussian per element (JDK 17+'s modified ziggurat). */
    @Benchmark
    public float[] baselineSplittableRandom() {
        SplittableRandom r = splittable;
        float[] a = array;
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) r.nextGaussian();
        }
        return a;
    }

    /** Baseline: java.util.Random.nextGaussian per element (polar method, synchronized). */
    @Benchmark
    public float[] baselineRandom() {
        Random r = random;
        float[] a = array;
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) r.nextGaussian();
        }
        return a;
    }

    /** The memory floor: fill the same 602,112 bytes with one byte value. */
    @Benchmark
    public MemorySegment floorSegmentFill() {
        segment.fill((byte) seed++);
        return segment;
    }
}
