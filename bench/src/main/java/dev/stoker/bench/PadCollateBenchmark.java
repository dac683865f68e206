package dev.stoker.bench;

import dev.stoker.collate.PadCollate;
import dev.stoker.collate.PaddedBatch;
import dev.stoker.memory.BufferPool;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * The cost of {@link PadCollate} on W4's batches (64 {@code long[]} token sequences, lengths
 * uniform in [16, 512], padded with 0 to the longest into {@code (64, maxLen)} i64 plus lengths),
 * against the floor in the same run: a hand-written loop that copies each sequence into a
 * preallocated off-heap buffer and zeroes the rest of its row. Both move the same bytes; the
 * difference is the collate's checks, dispatch and pool traffic. {@code padRecord} adds W4's label
 * ({@code field("tokens")}, the rest collated by DefaultCollate), the per-record reflection path.
 *
 * <p>The batches cycle through 16 fixed ones (seed 0), so the longest sequence, and with it the
 * padded width, varies as in a shuffled epoch. Compare ratios, not times: the machine is shared.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar PadCollateBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PadCollateBenchmark {
    private static final int BATCH = 64;
    private static final int BATCHES = 16;
    private static final int MIN_LENGTH = 16;
    private static final int MAX_LENGTH = 512;
    private static final int VOCABULARY = 50_257;

    /** A W4 sample: a token sequence and its class. */
    public record Sequence(long[] tokens, long label) {}

    private final PadCollate pad = PadCollate.of();
    private final PadCollate padTokens = PadCollate.builder().field("tokens").build();

    private Arena arena;
    private BufferPool pool;
    private List<List<long[]>> sequences;
    private List<List<Sequence>> records;
    private MemorySegment flat;
    private MemorySegment flatLengths;
    private int next;

    @Setup
    public void setUp() {
        arena = Arena.ofShared();
        pool = BufferPool.builder().name("bench").budgetBytes(64L << 20).build();
        SplittableRandom random = new SplittableRandom(0);
        sequences = new ArrayList<>(BATCHES);
        records = new ArrayList<>(BATCHES);
        for (int b = 0; b < BATCHES; b++) {
            List<long[]> seqs = new ArrayList<>(BATCH);
            List<Sequence> recs = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
                long[] tokens = random.longs(random.nextInt(MIN_LENGTH, MAX_LENGTH + 1), 0, VOCABULARY).toArray();
                seqs.add(tokens);
                recs.add(new Sequence(tokens, random.nextInt(2)));
            }
            sequences.add(seqs);
            records.add(recs);
        }
        flat = arena.allocate((long) BATCH * MAX_LENGTH * Long.BYTES, 64);
        flatLengths = arena.allocate((long) BATCH * Long.BYTES, 64);
    }

    @TearDown
    public void tearDown() {
        pool.close();
        arena.close();
    }

    /** PadCollate of 64 bare {@code long[]} into pooled tensors, given back after. */
    @Benchmark
    public void padSequences(Blackhole bh) {
        List<long[]> batch = sequences.get(next++ & (BATCHES - 1));
        try (HeldBatchMemory held = new HeldBatchMemory(pool)) {
            PaddedBatch b = pad.collate(batch, held);
            bh.consume(b.padded().getLong(b.padded().elements() - 1));
            bh.consume(b.lengths().getLong(BATCH - 1));
        }
    }

    /** W4's sample, a record of tokens and label: the sequence by field name, the label collated too. */
    @Benchmark
    public void padRecords(Blackhole bh) {
        List<Sequence> batch = records.get(next++ & (BATCHES - 1));
        try (HeldBatchMemory held = new HeldBatchMemory(pool)) {
            PaddedBatch b = padTokens.collate(batch, held);
            bh.consume(b.padded().getLong(b.padded().elements() - 1));
            bh.consume(b.rest());
        }
    }

    /** The floor: copy each sequence into its row of a preallocated buffer, zero the rest, note its length. */
    @Benchmark
    public void baselineHandCopy(Blackhole bh) {
        List<long[]> batch = sequences.get(next++ & (BATCHES - 1));
        int maxLength = 0;
        for (long[] s : batch) {
            maxLength = Math.max(maxLength, s.length);
        }
        long rowBytes = (long) maxLength * Long.BYTES;
        for (int i = 0; i < BATCH; i++) {
            long[] s = batch.get(i);
            long used = (long) s.length * Long.BYTES;
            MemorySegment.copy(s, 0, flat, ValueLayout.JAVA_LONG_UNALIGNED, i * rowBytes, s.length);
            flat.asSlice(i * rowBytes + used, rowBytes - used).fill((byte) 0);
            flatLengths.setAtIndex(ValueLayout.JAVA_LONG, i, s.length);
        }
        bh.consume(flat.getAtIndex(ValueLayout.JAVA_LONG, (long) BATCH * maxLength - 1));
    }
}
