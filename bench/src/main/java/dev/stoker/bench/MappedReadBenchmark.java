package dev.stoker.bench;

import dev.stoker.memory.MappedReads;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * What {@link MappedReads#deliverPendingFault()} adds to a read of a memory-mapped file: the call
 * alone, and one copy of {@code bytes} from a mapped file into a buffer (a sample's read: a tar
 * member, a row, a token window) without and with it. Every mapped reader makes the call once per
 * sample (per batch in {@code fillBatch}), and the loader once per batch.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar MappedReadBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MappedReadBenchmark {
    /** Bytes per read: a 2048-token window of u16, and a 77 KB JPEG member. */
    @Param({"4096", "77824"})
    public int bytes;

    private Path file;
    private Arena arena;
    private MemorySegment map;
    private MemorySegment buffer;
    private long at;

    @Setup
    public void setUp() throws IOException {
        file = Files.createTempFile("stoker-bench", ".map");
        Files.write(file, new byte[64 << 20]);
        arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        }
        buffer = arena.allocate(bytes, 64);
    }

    @TearDown
    public void tearDown() throws IOException {
        arena.close();
        Files.deleteIfExists(file);
    }

    private MemorySegment next() {
        at += bytes;
        if (at + bytes > map.byteSize()) {
            at = 0;
        }
        return map.asSlice(at, bytes);
    }

    @Benchmark
    public void deliverPendingFault() {
        MappedReads.deliverPendingFault();
    }

    @Benchmark
    public MemorySegment copy() {
        MemorySegment.copy(next(), 0, buffer, 0, bytes);
        return buffer;
    }

    @Benchmark
    public MemorySegment copyThenDeliver() {
        MemorySegment.copy(next(), 0, buffer, 0, bytes);
        MappedReads.deliverPendingFault();
        return buffer;
    }
}
