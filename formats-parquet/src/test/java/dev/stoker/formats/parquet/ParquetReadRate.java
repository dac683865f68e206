package dev.stoker.formats.parquet;

import dev.hardwood.HardwoodContext;
import dev.hardwood.InputFile;
import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.schema.ColumnProjection;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import java.nio.file.Path;
import java.util.Map;

/**
 * Parquet read rate: Hardwood's own column readers over a whole file against Stoker's fill path
 * (row groups decoded through Hardwood, then copied into batches by a {@link DataLoader}), on the
 * same file, columns and decode threads. Not a test: run it by hand (src/test/python/make_bench_file.py
 * makes the file).
 *
 * <pre>
 * ./stoker test -pl formats-parquet -am -DskipTests   # builds the test classes
 * java --enable-native-access=ALL-UNNAMED -Xmx2g -cp formats-parquet/target/test-classes:formats-parquet/target/classes:CLASSPATH \
 *      dev.stoker.formats.parquet.ParquetReadRate /tmp/bench.parquet 5 1
 * </pre>
 *
 * Arguments: the file, rounds (the best is reported), decode threads. The file's columns are
 * {@code id} (int64), {@code x} (double) and {@code window} (list of 32 int32).
 */
public final class ParquetReadRate {
    private ParquetReadRate() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        double bestHardwood = Double.MAX_VALUE;
        double bestStoker = Double.MAX_VALUE;
        double bestStoker2 = Double.MAX_VALUE;
        long rows = 0;
        for (int round = 0; round < rounds; round++) {
            long t0 = System.nanoTime();
            long check = 0;
            try (HardwoodContext context = HardwoodContext.create(threads);
                 ParquetFileReader r = ParquetFileReader.open(InputFile.of(file), context);
                 ColumnReaders readers = r.buildColumnReaders(ColumnProjection.columns("id", "x", "window.list.element"))
                         .batchSize(131072).build()) {
                rows = 0;
                while (readers.nextBatch()) {
                    int n = readers.getRecordCount();
                    ColumnReader id = readers.getColumnReader("id");
                    ColumnReader x = readers.getColumnReader("x");
                    ColumnReader window = readers.getColumnReader("window.list.element");
                    long[] ids = id.getLongs();
                    double[] xs = x.getDoubles();
                    int[] w = window.getInts();
                    int[] offsets = window.getLayerOffsets(0);   // where each row's list starts: what a reader of lists needs
                    check += ids[n - 1] + (long) xs[n - 1] + w[offsets[n - 1]];
                    rows += n;
                }
            }
            double hardwood = (System.nanoTime() - t0) / 1e9;
            bestHardwood = Math.min(bestHardwood, hardwood);

            t0 = System.nanoTime();
            long check2 = 0;
            try (ParquetDataset ds = ParquetDataset.builder(file).columns("id", "x", "window")
                    .decodeThreads(threads).cacheRowGroups(1).build();
                 DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds.tensors(FillColumn.scalar("id"),
                                 FillColumn.scalar("x"), FillColumn.list("window", 32)))
                         .batchSize(1024).numWorkers(0).build()) {
                for (Batch b : loader) {
                    try (b) {
                        check2 += b.tensor("id").getLong(0);
                    }
                }
            }
            double stoker = (System.nanoTime() - t0) / 1e9;
            bestStoker = Math.min(bestStoker, stoker);

            t0 = System.nanoTime();
            try (ParquetDataset ds = ParquetDataset.builder(file).columns("id", "x", "window")
                    .decodeThreads(threads).cacheRowGroups(2).build();
                 DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds.tensors(FillColumn.scalar("id"),
                                 FillColumn.scalar("x"), FillColumn.list("window", 32)))
                         .sampler(ds.shuffleSampler(2, round)).batchSize(1024).numWorkers(2).build()) {
                for (Batch b : loader) {
                    try (b) {
                        check2 += b.tensor("id").getLong(0);
                    }
                }
            }
            double stoker2 = (System.nanoTime() - t0) / 1e9;
            bestStoker2 = Math.min(bestStoker2, stoker2);
            System.out.printf("round %d: hardwood %.3f s, stoker sequential %.3f s, stoker shuffled 2 workers %.3f s"
                    + " (checks %d %d)%n", round, hardwood, stoker, stoker2, check, check2);
        }
        double mb = file.toFile().length() / 1e6;
        System.out.printf("rows %d, file %.0f MB, decode threads %d%n", rows, mb, threads);
        System.out.printf("hardwood column readers: %.3f s, %.2f M rows/s, %.0f MB/s%n", bestHardwood,
                rows / bestHardwood / 1e6, mb / bestHardwood);
        System.out.printf("stoker fill path, sequential, 0 workers: %.3f s, %.2f M rows/s, %.0f MB/s, overhead %+.1f%%%n",
                bestStoker, rows / bestStoker / 1e6, mb / bestStoker, 100 * (bestStoker / bestHardwood - 1));
        System.out.printf("stoker fill path, row-group shuffle, 2 workers: %.3f s, %.2f M rows/s, %.0f MB/s%n",
                bestStoker2, rows / bestStoker2 / 1e6, mb / bestStoker2);
    }
}
