package dev.stoker.bench;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.tar.ShardWriter;
import dev.stoker.formats.tar.TarMember;
import dev.stoker.formats.tar.TarReader;
import dev.stoker.formats.tar.TarSample;
import dev.stoker.formats.tar.TarShardDataset;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * Raw tar read throughput on shards shaped like W5's (8 shards x 250 samples, a ~77 KB {@code .jpg}
 * and a {@code .cls} each, 155 MB in all; random bytes instead of JPEGs, since nothing is decoded),
 * one thread, page cache warm. One operation reads all 8 shards; MB/s = 155 MB / time per op.
 * <ul>
 *   <li>{@code samplesCopy}: the streaming dataset (mapped shards, samples grouped by key), each
 *       member copied into a reusable off-heap buffer, as a decoder's input would be;</li>
 *   <li>{@code samplesZeroCopy}: the same, touching one byte per member: the parsing cost alone;</li>
 *   <li>{@code streamedCopy}: the sequential stream parser (the HTTP path) over a file stream,
 *       member data read into heap arrays.</li>
 * </ul>
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar TarReadBenchmark
 * java -jar bench/target/benchmarks.jar TarReadBenchmark -p shardDir=DATA/shards   # W5's own shards
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TarReadBenchmark {
    static final int SHARDS = 8;
    static final int PER_SHARD = 250;

    /** A folder holding W5's {@code shard-000000.tar} .. {@code shard-000007.tar}; empty: make synthetic ones. */
    @Param({""})
    public String shardDir;

    private Path dir;
    private boolean generated;
    private TarShardDataset dataset;
    private Arena arena;
    private MemorySegment buffer;

    @Setup
    public void setUp() throws IOException {
        arena = Arena.ofShared();
        buffer = arena.allocate(1 << 20, 64);
        if (!shardDir.isEmpty()) {
            dir = Path.of(shardDir);
            dataset = TarShardDataset.builder(dir.resolve("shard-{000000..000007}.tar").toString()).build();
            return;
        }
        generated = true;
        dir = Files.createTempDirectory("stoker-tar-bench");
        SplittableRandom rnd = new SplittableRandom(1234);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("shard-%06d.tar").toString())
                .maxSamples(PER_SHARD).build()) {
            for (int i = 0; i < SHARDS * PER_SHARD; i++) {
                byte[] jpg = new byte[rnd.nextInt(43_000, 115_000)];
                rnd.nextBytes(jpg);
                w.write(String.format("%06d", i), Map.of("jpg", jpg, "cls", Integer.toString(i / 200).getBytes()));
            }
            w.commit();
        }
        dataset = TarShardDataset.builder(dir.resolve("shard-{000000..000007}.tar").toString()).build();
    }

    @TearDown
    public void tearDown() throws IOException {
        arena.close();
        if (!generated) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    /** Total data bytes of one pass, for MB/s. */
    @Benchmark
    public long samplesCopy() {
        long bytes = 0;
        try (SampleStream<TarSample> s = dataset.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            while (s.hasNext()) {
                for (MemorySegment m : s.next().fields().values()) {
                    MemorySegment.copy(m, 0, buffer, 0, m.byteSize());
                    bytes += m.byteSize();
                }
            }
        }
        return bytes;
    }

    @Benchmark
    public long samplesZeroCopy(Blackhole bh) {
        long n = 0;
        try (SampleStream<TarSample> s = dataset.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            while (s.hasNext()) {
                for (MemorySegment m : s.next().fields().values()) {
                    bh.consume(m.get(ValueLayout.JAVA_BYTE, 0));
                    n++;
                }
            }
        }
        return n;
    }

    @Benchmark
    public long streamedCopy() throws IOException {
        long bytes = 0;
        for (int s = 0; s < SHARDS; s++) {
            Path p = dir.resolve(String.format("shard-%06d.tar", s));
            InputStream in = new BufferedInputStream(Files.newInputStream(p), 1 << 20);
            try (TarReader r = TarReader.open(p.toString(), in, Files.size(p))) {
                while (r.hasNext()) {
                    TarMember m = r.next();
                    bytes += m.size();
                }
            }
        }
        return bytes;
    }
}
