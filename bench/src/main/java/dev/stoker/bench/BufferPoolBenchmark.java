package dev.stoker.bench;

import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@link BufferPool} acquire and close (a warmed-up pool: the block is reused) against the
 * baseline in the same run, what a pool saves: a fresh {@code Arena.ofShared()} allocate and
 * close of the same size and alignment. Sizes: one W1 image batch (32 x 602,112 B = 19.3 MB) and
 * a 4 KiB label-sized buffer. Single thread, and 4 threads at once on one shared pool (the
 * pool's lock under contention; for the arenas, the JVM's handshake on closing a shared arena and
 * the allocator's locks).
 *
 * <p>NOTE: the arena baseline zeroes its memory (as {@code Arena.allocate} always does) and the
 * pool does not: for 19 MB that zeroing, and the page faults of fresh pages, are most of the
 * difference, and they are what a batch would pay without the pool. Compare ratios, not times.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar BufferPoolBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class BufferPoolBenchmark {
    /** Bytes per buffer: a W1 batch of 32 images (3, 224, 224) f32, and 4 KiB. */
    @Param({"19267584", "4096"})
    public long bytes;

    private BufferPool pool;
    private long alignment;

    @Setup
    public void setUp() {
        // Room for every thread's buffer at once, so no acquire ever waits.
        pool = BufferPool.builder().name("bench").budgetBytes(1L << 30).build();
        // The pool's own alignment for the size (page-aligned from 64 KiB), so both sides ask alike.
        alignment = bytes >= 64 * 1024 ? 4096 : 64;
    }

    @TearDown
    public void tearDown() {
        pool.close();
    }

    /** Acquire and give back, one thread. */
    @Benchmark
    public long poolAcquireClose() {
        return acquireClose();
    }

    /** Acquire and give back, 4 threads on the same pool. */
    @Benchmark
    @Threads(4)
    public long poolAcquireClose4Threads() {
        return acquireClose();
    }

    /** Baseline: a fresh shared arena, allocate, close; one thread. */
    @Benchmark
    public long arenaAllocateClose() {
        return allocateClose();
    }

    /** Baseline: a fresh shared arena, allocate, close; 4 threads. */
    @Benchmark
    @Threads(4)
    public long arenaAllocateClose4Threads() {
        return allocateClose();
    }

    private long acquireClose() {
        try (PooledBuffer b = pool.acquire(bytes, "bench")) {
            return b.segment().address();
        }
    }

    private long allocateClose() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment s = arena.allocate(bytes, alignment);
            return s.address();
        }
    }
}
