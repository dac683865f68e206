package dev.stoker.formats.parquet;

import dev.stoker.data.Dataset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A map-style dataset over the rows of one Parquet file, a folder of them or one split of a
 * Hugging Face dataset folder, with column projection: sample {@code i} is row {@code i} of the
 * files in order, as a {@link ParquetRow}. {@link #tensors} gives chosen numeric columns as a
 * fillable dataset that the loader writes straight into its batches.
 *
 * <p>Parquet is read a row group at a time: a row's row group is decoded once (its projected
 * columns only) and kept in the asking worker's cache ({@link Builder#cacheRowGroups}, 2 by
 * default), so rows of one row group cost one decode. A random order over the whole dataset would
 * decode a row group per sample; use {@link #shuffleSampler} instead, which shuffles row groups
 * and the rows within a few of them at a time ({@link RowGroupShuffleSampler}):
 *
 * <pre>{@code
 * try (ParquetDataset ds = ParquetDataset.builder(ParquetFiles.huggingFace(Path.of("/data/fineweb"), "train"))
 *              .columns("input_ids", "label").build();
 *      DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds.tensors(
 *                      FillColumn.list("input_ids", 2048), FillColumn.scalar("label")))
 *              .sampler(ds.shuffleSampler(4, 42)).batchSize(32).numWorkers(4).build()) {
 *     for (Batch b : loader) { try (b) { ... } }
 * }
 * ParquetRow row = ds.get(7);   // row.getString("text"), row.getIntList("input_ids") ...
 * }</pre>
 *
 * <p>Give each worker's cache at least the sampler's {@code openGroups} row groups, so that a
 * window of the order decodes each of its row groups once per worker that reads it.
 *
 * <p>The files are untrusted input: a row group that claims more rows than
 * {@link Builder#maxRowGroupRows} or whose projected columns would decode to more than
 * {@link Builder#maxRowGroupBytes} is refused before anything is allocated, and any damage met
 * while decoding raises a {@link ParquetFormatException} naming the file, row group, column and
 * row. NOTE: a dictionary-encoded string column expands as it decodes, beyond what its chunk's
 * sizes announce; a row group that then does not fit the heap fails with the same exception.
 */
public final class ParquetDataset implements Dataset<ParquetRow>, AutoCloseable {
    private final ParquetSource source;
    private final RowGroupCache cache;
    private final List<ParquetColumn> columns;
    private final boolean readAhead;

    private ParquetDataset(Builder b) {
        this.source = new ParquetSource(b.files, b.columns, b.decodeThreads, b.maxRowGroupRows, b.maxRowGroupBytes,
                b.decodeBatchRows);
        this.cache = new RowGroupCache(b.cacheRowGroups);
        this.readAhead = b.readAhead;
        this.columns = List.of(source.columns());
    }

    /** All readable columns of {@code path}: one file, or every {@code .parquet} file below a folder. */
    public static ParquetDataset open(Path path) {
        return builder(ParquetFiles.of(path)).build();
    }

    /** A builder over {@code files}, in this order (see {@link ParquetFiles} to list them). */
    public static Builder builder(List<Path> files) {
        return new Builder(files);
    }

    /**
     * A builder over split {@code split} of a Hugging Face dataset folder
     * ({@code data/train-00000-of-00042.parquet} ...; see {@link ParquetFiles#huggingFace}).
     */
    public static Builder huggingFace(Path root, String split) {
        return new Builder(ParquetFiles.huggingFace(root, split));
    }

    /** A builder over one file or the {@code .parquet} files of a folder. */
    public static Builder builder(Path path) {
        return new Builder(ParquetFiles.of(path));
    }

    @Override
    public long size() {
        return source.size();
    }

    @Override
    public ParquetRow get(long index) {
        Objects.checkIndex(index, source.size());
        int group = source.groupOf(index);
        RowGroupData data = rowGroup(group);
        return new ParquetRow(this, data, (int) (index - source.groupStart(group)));
    }

    /**
     * Where row {@code index} lies, for a person reading a message: its file, the row group in that
     * file and the row within the group, e.g. {@code "train-00001.parquet, row group 3, row 17"}.
     */
    public String where(long index) {
        Objects.checkIndex(index, source.size());
        return source.where(source.groupOf(index), index);
    }

    /** The projected columns, in order. */
    public List<ParquetColumn> columns() {
        return columns;
    }

    /** The number of row groups (empty ones left out), across all files. */
    public int rowGroups() {
        return source.groups();
    }

    /**
     * The dataset-wide first row of each row group, then the dataset's size: {@code rowGroups() + 1}
     * ascending entries, the blocks of a locality-aware order.
     */
    public long[] rowGroupStarts() {
        return source.groupStarts();
    }

    /**
     * A shuffled order that decodes each row group about once per epoch per worker: row groups in a
     * random order, {@code openGroups} at a time, their rows shuffled together. A pure function of
     * (seed, epoch), like every sampler.
     */
    public RowGroupShuffleSampler shuffleSampler(int openGroups, long seed) {
        return new RowGroupShuffleSampler(source.groupStarts(), openGroups, seed);
    }

    /**
     * The rows as a stream, row group after row group, each decoded once by the one worker that
     * reads it (see {@link ParquetStream}); shares this dataset's files.
     */
    public ParquetStream stream() {
        return new ParquetStream(this, false);
    }

    /**
     * The number of values of list column {@code column} in every row, in row order (0 for a null
     * list): the lengths that {@code LengthGroupedBatchSampler}, {@code TokenBudgetBatchSampler} and
     * {@code PackedDataset} take, from one pass over that column alone, row group after row group.
     */
    public int[] listLengths(String column) {
        ParquetColumn c = columns.get(source.column(column));
        if (!c.kind().isList()) {
            throw new IllegalArgumentException("column '" + column + "' is " + c.kind() + ", not a list");
        }
        if (source.size() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(name() + " has " + source.size() + " rows, more than an int[] holds");
        }
        int[] out = new int[(int) source.size()];
        try (ParquetDataset one = new Builder(source.paths()).columns(column).cacheRowGroups(1).build()) {
            var rows = one.stream().open(new dev.stoker.data.WorkerContext(0, 1, 0, 1, 0, 0));
            try (rows) {
                int i = 0;
                while (rows.hasNext()) {
                    ParquetRow r = rows.next();
                    DecodedColumn d = r.chunkColumn(0);
                    out[i++] = d.isNull(r.chunkRow()) ? 0 : d.length(r.chunkRow());
                }
            }
        }
        return out;
    }

    /** Chosen numeric columns as a fillable dataset (fixed-length lists included), sharing this one's files and cache. */
    public ParquetTensorDataset tensors(FillColumn... fields) {
        return new ParquetTensorDataset(this, List.of(fields));
    }

    /** The decoded row group {@code group}, from the calling worker's cache. */
    RowGroupData rowGroup(int group) {
        if (source.isClosed()) {
            throw new IllegalStateException(name() + " is closed");
        }
        return readAhead ? cache.get(group, source::decode, source::decodeAhead, source.groups())
                : cache.get(group, source::decode);
    }

    ParquetSource source() {
        return source;
    }

    /** Closes the files; the rows already handed out stay readable (they hold decoded arrays). */
    @Override
    public void close() {
        cache.clear();
        source.close();
    }

    @Override
    public String name() {
        List<Path> p = source.paths();
        return "ParquetDataset(" + p.getFirst() + (p.size() > 1 ? " and " + (p.size() - 1) + " more" : "") + ")";
    }

    /** Settings of a {@link ParquetDataset}. */
    public static final class Builder {
        private final List<Path> files;
        private List<String> columns = List.of();
        private int cacheRowGroups = 2;
        private int decodeThreads = 1;
        private boolean readAhead = true;
        private long maxRowGroupRows = 1L << 26;
        private long maxRowGroupBytes = Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4);
        private int decodeBatchRows = RowGroupDecoder.BATCH_ROWS;

        private Builder(List<Path> files) {
            this.files = new ArrayList<>(files);
        }

        /** Reads only these top-level columns, in this order (all readable ones by default). */
        public Builder columns(String... names) {
            this.columns = List.of(names);
            return this;
        }

        /** Decoded row groups each worker keeps (2 by default): at least the sampler's open row groups. */
        public Builder cacheRowGroups(int groups) {
            this.cacheRowGroups = groups;
            return this;
        }

        /**
         * Threads Hardwood decodes a row group's columns on (1 by default: the loader's workers are
         * the parallelism; more helps a single reader of wide row groups).
         */
        public Builder decodeThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("decode on at least 1 thread, not " + threads);
            }
            this.decodeThreads = threads;
            return this;
        }

        /**
         * Whether a worker that reads row groups in order decodes the next two in the background
         * while it uses the current one (on by default): two more decoded row groups per worker, in
         * exchange for not waiting on each decode.
         */
        public Builder readAhead(boolean on) {
            this.readAhead = on;
            return this;
        }

        /** The most rows a row group may claim (2^26 by default); a file claiming more is refused. */
        public Builder maxRowGroupRows(long rows) {
            this.maxRowGroupRows = Math.min(rows, Integer.MAX_VALUE - 8);
            return this;
        }

        /** The most bytes one row group's projected columns may decode to (1 GiB or a quarter of the heap). */
        public Builder maxRowGroupBytes(long bytes) {
            this.maxRowGroupBytes = bytes;
            return this;
        }

        /** Rows per batch a row group is decoded in; tests set a few, so that every row group takes many. */
        Builder decodeBatchRows(int rows) {
            this.decodeBatchRows = rows;
            return this;
        }

        public ParquetDataset build() {
            return new ParquetDataset(this);
        }
    }
}
