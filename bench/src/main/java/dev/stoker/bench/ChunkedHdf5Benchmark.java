package dev.stoker.bench;

import dev.stoker.data.BatchSlots;
import dev.stoker.formats.hdf5.Hdf5Dataset;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.Tensor;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.DatasetCreationOptions;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.SplittableRandom;
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
 * Rows of an HDF5 array {@code data (1024, 3, 64, 64) f32} (W7's row shape, 48 KiB a row) read
 * through {@link Hdf5Dataset#fill} into one reusable batch of {@value #ROWS_PER_OP} rows, one
 * thread, page cache warm. One operation reads {@value #ROWS_PER_OP} rows, in order or shuffled:
 * samples/s = 256 / time per op, MB/s = 256 x 49,152 B / time per op. The files (same values, four
 * layouts) are written once with jhdf 0.13's writer (chunked ones get its version-4 layout with a
 * fixed-array chunk index) and kept in {@code java.io.tmpdir/stoker-bench-hdf5}.
 * <ul>
 *   <li>{@code file}: {@code contiguous} (the memory-mapped path: the baseline), {@code chunked16}
 *       (chunks of 16 rows, unfiltered), {@code gzip16} (16 rows, shuffle + deflate 4),
 *       {@code gzip1} (one row per chunk, shuffle + deflate 4);</li>
 *   <li>{@code stoker}: {@code Hdf5Dataset.fill}, with each thread's cache of decoded chunks;</li>
 *   <li>{@code stokerNoCache}: the same with the cache off ({@code stoker.hdf5.chunkCacheBytes=0}):
 *       every row decodes its chunk;</li>
 *   <li>{@code jhdfSlice}: jhdf's own {@code Dataset.getData(offset, shape)} per row, into a
 *       {@code float[1][3][64][64]} (what Stoker used for chunked arrays before, without its copy).</li>
 * </ul>
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar ChunkedHdf5 -f 1 -wi 2 -i 3
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ChunkedHdf5Benchmark {
    static final int ROWS = 1024;
    static final int ROWS_PER_OP = 256;
    static final int[] ROW = {3, 64, 64};

    @Param({"contiguous", "chunked16", "gzip16", "gzip1"})
    public String file;

    @Param({"sequential", "shuffled"})
    public String order;

    private Hdf5Dataset dataset;
    private Hdf5Dataset uncached;
    private HdfFile jhdf;
    private Dataset jhdfData;
    private Arena arena;
    private BatchSlots slots;
    private long[] rows;

    @Setup
    public void setUp() throws IOException {
        Path path = cached(file);
        dataset = Hdf5Dataset.open(path, "data");
        System.setProperty("stoker.hdf5.chunkCacheBytes", "0"); // read when an array is opened
        try {
            uncached = Hdf5Dataset.open(path, "data");
        } finally {
            System.clearProperty("stoker.hdf5.chunkCacheBytes");
        }
        jhdf = new HdfFile(path);
        jhdfData = jhdf.getDatasetByPath("data");
        arena = Arena.ofShared();
        long rowBytes = 4L * ROW[0] * ROW[1] * ROW[2];
        Tensor batch = new Tensor(arena.allocate(rowBytes * ROWS_PER_OP, 64), dev.stoker.tensor.DType.F32,
                dev.stoker.tensor.Shape.of(ROWS_PER_OP, ROW[0], ROW[1], ROW[2]));
        slots = new BatchSlots(dataset.layout(), List.of(batch));
        rows = new long[ROWS_PER_OP];
        SplittableRandom rnd = new SplittableRandom(7);
        long start = rnd.nextLong(ROWS - ROWS_PER_OP);
        for (int i = 0; i < ROWS_PER_OP; i++) {
            rows[i] = order.equals("sequential") ? start + i : rnd.nextLong(ROWS);
        }
        check();
    }

    /** Every reader gives the values written, so no variant is timed reading garbage. */
    private void check() {
        for (Hdf5Dataset ds : new Hdf5Dataset[] {dataset, uncached}) {
            ds.fill(rows[0], slots.slot(0));
            for (int k = 0; k < 64; k++) {
                if (slots.tensor(0).getFloat(k) != value(rows[0], k)) {
                    throw new IllegalStateException(file + ": row " + rows[0] + " element " + k + " reads "
                            + slots.tensor(0).getFloat(k) + ", not " + value(rows[0], k));
                }
            }
        }
        float[][][][] viaJhdf = (float[][][][]) jhdfData.getData(new long[] {rows[0], 0, 0, 0},
                new int[] {1, ROW[0], ROW[1], ROW[2]});
        if (viaJhdf[0][0][0][5] != value(rows[0], 5)) {
            throw new IllegalStateException(file + ": jhdf reads row " + rows[0] + " differently");
        }
    }

    @TearDown
    public void tearDown() {
        dataset.close();
        uncached.close();
        jhdf.close();
        arena.close();
    }

    @Benchmark
    public long stoker() {
        long sum = 0;
        for (int j = 0; j < ROWS_PER_OP; j++) {
            dataset.fill(rows[j], slots.slot(j));
            sum += slots.slot(j).row();
        }
        return sum;
    }

    @Benchmark
    public long stokerNoCache() {
        long sum = 0;
        for (int j = 0; j < ROWS_PER_OP; j++) {
            uncached.fill(rows[j], slots.slot(j));
            sum += slots.slot(j).row();
        }
        return sum;
    }

    @Benchmark
    public Object jhdfSlice() {
        Object last = null;
        long[] offset = new long[4];
        int[] shape = {1, ROW[0], ROW[1], ROW[2]};
        for (int j = 0; j < ROWS_PER_OP; j++) {
            offset[0] = rows[j];
            last = jhdfData.getData(offset, shape);
        }
        return last;
    }

    /**
     * Pixel-like values that deflate about as well as real images do: 8-bit levels of a smooth
     * ramp plus a little noise, scaled to [0, 1].
     */
    static float value(long row, int flat) {
        int x = flat % ROW[2];
        int y = (flat / ROW[2]) % ROW[1];
        long noise = Seeds.mix64(row * 1_000_003L + flat) & 7;
        return (float) (((row * 7 + x + 2L * y + noise) & 0xFF) / 255.0);
    }

    /** The file of {@code layout}, written once into the temp folder's cache (a few seconds). */
    static Path cached(String layout) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "stoker-bench-hdf5");
        Files.createDirectories(dir);
        Path path = dir.resolve(layout + "-v1.h5");
        if (Files.exists(path)) {
            return path;
        }
        float[][][][] values = new float[ROWS][ROW[0]][ROW[1]][ROW[2]];
        for (int i = 0; i < ROWS; i++) {
            for (int c = 0; c < ROW[0]; c++) {
                for (int y = 0; y < ROW[1]; y++) {
                    for (int x = 0; x < ROW[2]; x++) {
                        values[i][c][y][x] = value(i, (c * ROW[1] + y) * ROW[2] + x);
                    }
                }
            }
        }
        DatasetCreationOptions options = switch (layout) {
            case "contiguous" -> DatasetCreationOptions.DEFAULT;
            case "chunked16" -> DatasetCreationOptions.builder().chunkDimensions(16, ROW[0], ROW[1], ROW[2]).build();
            case "gzip16" -> DatasetCreationOptions.builder().chunkDimensions(16, ROW[0], ROW[1], ROW[2])
                    .shuffle().deflate(4).build();
            case "gzip1" -> DatasetCreationOptions.builder().chunkDimensions(1, ROW[0], ROW[1], ROW[2])
                    .shuffle().deflate(4).build();
            default -> throw new IllegalArgumentException("no layout " + layout);
        };
        Path tmp = Files.createTempFile(dir, layout, ".tmp");
        try (WritableHdfFile out = HdfFile.write(tmp)) {
            out.putDataset("data", values, options);
        }
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return path;
    }
}
