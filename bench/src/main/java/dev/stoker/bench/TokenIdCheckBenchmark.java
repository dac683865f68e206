package dev.stoker.bench;

import dev.stoker.text.DocumentWindowDataset;
import dev.stoker.text.TokenDocuments;
import dev.stoker.text.TokenIds;
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

/**
 * The price of the vocabulary check ({@link TokenIds}, one branch-free OR per token) on the fill
 * path: a row of 2048 ids checked as an {@code int[]} (tokenized texts, packed examples) and as
 * int64 in batch memory (windows over documents), against the copy it sits beside; and a
 * pretraining window of 2048 filled with and without {@code vocabSize} (documents of 50 to 1500
 * ids, vocabulary 50,257). Compare ratios, not times: the machine is shared.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar TokenIdCheckBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TokenIdCheckBenchmark {
    private static final int ROW = 2048;
    private static final int VOCABULARY = 50_257;

    private Arena arena;
    private int[] ids;
    private MemorySegment row;
    private DocumentWindowDataset checked;
    private DocumentWindowDataset unchecked;
    private long next;

    @Setup
    public void setUp() {
        arena = Arena.ofShared();
        SplittableRandom random = new SplittableRandom(0);
        ids = random.ints(ROW, 0, VOCABULARY).toArray();
        row = arena.allocate(8L * ROW, 8);
        for (int k = 0; k < ROW; k++) {
            row.setAtIndex(ValueLayout.JAVA_LONG, k, ids[k]);
        }
        List<int[]> docs = new ArrayList<>();
        for (int d = 0; d < 4_000; d++) {
            docs.add(random.ints(random.nextInt(50, 1_500), 0, VOCABULARY - 1).toArray());
        }
        TokenDocuments documents = TokenDocuments.of(docs);
        checked = DocumentWindowDataset.builder(documents, ROW).eos(VOCABULARY - 1).vocabSize(VOCABULARY).build();
        unchecked = DocumentWindowDataset.builder(documents, ROW).eos(VOCABULARY - 1).build();
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    /** The floor: the ids widened into batch memory. */
    @Benchmark
    public MemorySegment copyRow() {
        for (int k = 0; k < ROW; k++) {
            row.setAtIndex(ValueLayout.JAVA_LONG, k, ids[k]);
        }
        return row;
    }

    @Benchmark
    public int checkInts() {
        return TokenIds.firstOutside(ids, 0, ROW, VOCABULARY);
    }

    @Benchmark
    public int checkInt64s() {
        return TokenIds.firstOutside(row, 0, ROW, VOCABULARY);
    }

    /** A window's input and target, widened from the documents (into heap tensors: get, not fill). */
    @Benchmark
    public Object windowUnchecked() {
        return unchecked.get(next++ % unchecked.size());
    }

    @Benchmark
    public Object windowChecked() {
        return checked.get(next++ % checked.size());
    }
}
