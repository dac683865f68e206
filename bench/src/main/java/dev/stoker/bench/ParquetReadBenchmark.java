package dev.stoker.bench;

import dev.hardwood.HardwoodContext;
import dev.hardwood.InputFile;
import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.schema.ColumnProjection;
import dev.stoker.formats.parquet.FillColumn;
import dev.stoker.formats.parquet.ParquetDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole Parquet file read once per operation, one decode thread, page cache warm: Hardwood's own
 * column readers over the file ({@code hardwood}, the reference: each batch's arrays touched, as
 * a reader of lists needs its offsets) against Stoker's fill path through a loader in file order,
 * no workers ({@code stokerFill}: row groups decoded by Hardwood, then copied into batches of
 * 1024). Stoker's overhead is {@code stokerFill / hardwood - 1} (issue 18's target: at most 10%).
 *
 * <p>The file is {@code formats-parquet/src/test/python/make_bench_file.py}'s (int64 {@code id},
 * double {@code x}, list of 32 int32 {@code window}, snappy, row groups of 131,072 rows):
 *
 * <pre>
 * python3 formats-parquet/src/test/python/make_bench_file.py /tmp/bench.parquet
 * ./mvnw -pl bench -am package -DskipTests
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar bench/target/benchmarks.jar \
 *      ParquetReadBenchmark -p file=/tmp/bench.parquet -f 1 -wi 3 -i 8
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
        "-Xmx2g"})
public class ParquetReadBenchmark {
    @Param("/tmp/bench.parquet")
    public String file;

    private Path path;

    @Setup
    public void check() {
        path = Path.of(file);
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(file + " is missing: python3 formats-parquet/src/test/python/"
                    + "make_bench_file.py " + file);
        }
    }

    @Benchmark
    public long hardwood() throws Exception {
        long check = 0;
        try (HardwoodContext context = HardwoodContext.create(1);
             ParquetFileReader r = ParquetFileReader.open(InputFile.of(path), context);
             ColumnReaders readers = r.buildColumnReaders(ColumnProjection.columns("id", "x", "window.list.element"))
                     .batchSize(131072).build()) {
            while (readers.nextBatch()) {
                int n = readers.getRecordCount();
                long[] ids = readers.getColumnReader("id").getLongs();
                double[] xs = readers.getColumnReader("x").getDoubles();
                ColumnReader window = readers.getColumnReader("window.list.element");
                int[] w = window.getInts();
                int[] offsets = window.getLayerOffsets(0);
                check += ids[n - 1] + (long) xs[n - 1] + w[offsets[n - 1]];
            }
        }
        return check;
    }

    @Benchmark
    public long stokerFill() {
        long check = 0;
        try (ParquetDataset ds = ParquetDataset.builder(path).columns("id", "x", "window").decodeThreads(1)
                .cacheRowGroups(1).build();
             DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds.tensors(FillColumn.scalar("id"),
                             FillColumn.scalar("x"), FillColumn.list("window", 32)))
                     .batchSize(1024).numWorkers(0).build()) {
            for (Batch b : loader) {
                try (b) {
                    check += b.tensor("id").getLong(0);
                }
            }
        }
        return check;
    }
}
