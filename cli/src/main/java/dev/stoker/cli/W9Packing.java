package dev.stoker.cli;

import dev.stoker.formats.jsonl.JsonlDataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.packing.PackedCollate;
import dev.stoker.packing.PackedDataset;
import dev.stoker.packing.PackedRow;
import dev.stoker.random.Seeds;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * W9, sft-packing: fine-tuning packing. 10,000 pre-tokenized examples in JSONL
 * ({@code {"input_ids": [...]}} a line), lengths from a long-tailed distribution (log-normal,
 * median 350, shape 1.0, clamped to [16, 2048]), tokens uniform in [0, 32000); packed whole into
 * rows of 2048 by first-fit-decreasing over seeded windows of 1,000 examples (packing seed 0), each
 * row {@code input_ids}, {@code labels} (-100 on each example's first token and on padding),
 * {@code position_ids} (restarting per example) and {@code attention_mask}, int64, padded to 2048;
 * batch 8, rows shuffled, one epoch (about 2,900 rows). Timed: the rows of an epoch, each row's
 * examples parsed from the JSONL, their ids checked against the vocabulary (as a model's embedding
 * needs them) and written into the row. Untimed: indexing the file and reading
 * the lengths (one pass), planning the packing.
 *
 * <p>Reads {@code DATA/w9-sft.jsonl}, or writes it once in the cache folder (the PyTorch peer,
 * {@code bench/python/w9_peer.py}, reads the same file).
 *
 * <p>Rows: {@code nw=0} and {@code nw=2}, the general path ({@link PackedCollate}, which also
 * makes {@code cu_seqlens} and {@code max_seqlen}) and {@code fill} ({@link PackedDataset#fillable()},
 * the four fields written straight into the pooled batch).
 */
public final class W9Packing implements Workload {
    static final int EXAMPLES = 10_000;
    static final int ROW = 2048;
    static final int BATCH = 8;
    static final int WINDOW = 1000;
    static final double MEDIAN = 350;
    static final double SHAPE = 1.0;
    static final int MIN_LENGTH = 16;
    static final int VOCABULARY = 32_000;
    static final long DATA_SEED = 9;
    static final String FILE = "w9-sft.jsonl";

    private final int examples;
    private final int[] lengths;
    private final WorkloadSpec spec;
    private final double efficiency;
    private JsonlDataset<int[]> jsonl;
    private PackedDataset rows;

    /** W9 as defined. */
    public W9Packing() {
        this(EXAMPLES);
    }

    /** A smaller W9, for tests: {@code examples} examples (the rows follow from the packing). */
    public W9Packing(int examples) {
        this.examples = examples;
        this.lengths = lengths(examples);
        // the rows of an epoch are known from the lengths alone: plan the packing without reading a token
        PackedDataset plan = pack(null);
        this.efficiency = plan.efficiency();
        this.spec = new WorkloadSpec("W9", "sft-packing", WorkloadSpec.Data.MADE_IF_MISSING, 1, BATCH,
                Math.toIntExact(plan.size()), 4L * ROW * Long.BYTES);
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String missingFrom(Path folder) {
        return Files.isRegularFile(folder.resolve(FILE)) ? null : FILE;
    }

    @Override
    public String summary() {
        return String.format("%,d pre-tokenized JSONL examples (log-normal lengths, median %.0f, [%d, %d]) packed into"
                + " %,d rows of %d (%.2f%% real tokens) with position ids, batch %d, shuffled", examples, MEDIAN,
                MIN_LENGTH, ROW, spec.samplesPerEpoch(), ROW, 100 * efficiency, BATCH);
    }

    /** Real tokens / row tokens of the packing. */
    double efficiency() {
        return efficiency;
    }

    @Override
    public List<Configuration> configurations() {
        return Configuration.rows(List.of(0, 2), Configuration.GENERAL, Configuration.FILL);
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        PackedDataset packed = rows(data);
        if (c.fill()) {
            return c.engine(DataLoader.builder(packed.fillable())).batchSize(BATCH).shuffle(true).seed(seed).build();
        }
        return c.engine(DataLoader.builder(packed)).batchSize(BATCH).shuffle(true).seed(seed)
                .collate(new PackedCollate()).build();
    }

    /** The packed rows over the JSONL file, opened on the first call and kept for every repetition. */
    synchronized PackedDataset rows(Path data) {
        if (rows == null) {
            try {
                Path file = data != null && Files.isRegularFile(data.resolve(FILE)) ? data.resolve(FILE) : generated();
                jsonl = JsonlDataset.intListField(file, "input_ids");
                if (jsonl.size() != examples) {
                    throw new IllegalStateException(file + " holds " + jsonl.size() + " examples where W9 has "
                            + examples + "; remove it to have it written again");
                }
                for (int i = 0; i < examples; i++) {   // what a user does once: the lengths, from one pass
                    if (jsonl.get(i).length != lengths[i]) {
                        throw new IllegalStateException(file + ": line " + (i + 1) + " is not W9's example " + i
                                + "; remove the file to have it written again");
                    }
                }
                rows = pack(jsonl);
            } catch (IOException e) {
                throw new UncheckedIOException("W9: cannot open " + FILE + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    private PackedDataset pack(JsonlDataset<int[]> source) {
        dev.stoker.data.Dataset<int[]> ds = source != null ? source : new dev.stoker.data.Dataset<>() {
            public long size() {
                return lengths.length;
            }

            public int[] get(long i) {
                throw new UnsupportedOperationException("W9's plan reads no tokens");
            }
        };
        return PackedDataset.builder(ds, lengths, ROW).windowSize(WINDOW).seed(0).vocabSize(VOCABULARY).build();
    }

    /**
     * The example lengths: log-normal (median {@link #MEDIAN}, shape {@link #SHAPE}) by Box-Muller
     * over SplitMix64, rounded and clamped to [{@link #MIN_LENGTH}, {@link #ROW}].
     */
    static int[] lengths(int n) {
        int[] out = new int[n];
        long state = Seeds.mix64(DATA_SEED);
        for (int i = 0; i < n; i++) {
            double u1 = Seeds.unitNonZero(Seeds.mix64(state += Seeds.GOLDEN_GAMMA));
            double u2 = Seeds.unit(Seeds.mix64(state += Seeds.GOLDEN_GAMMA));
            double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            long len = Math.round(MEDIAN * Math.exp(SHAPE * z));
            out[i] = (int) Math.max(MIN_LENGTH, Math.min(ROW, len));
        }
        return out;
    }

    /** The cache folder's {@link #FILE}, written once: example i's tokens after its length. */
    private Path generated() throws IOException {
        return CacheData.file("W9", "w9-sft-" + examples + ".jsonl", String.format("no %s in the data folder;"
                + " writing %,d examples", FILE, examples), tmp -> write(tmp, lengths));
    }

    /** Writes one line per example, {@code {"input_ids": [t, t, ...]}}, as Python's {@code json.dumps} writes it. */
    static void write(Path file, int[] lengths) throws IOException {
        long state = Seeds.mix64(DATA_SEED + 1);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            for (int length : lengths) {
                line.setLength(0);
                line.append("{\"input_ids\": [");
                for (int t = 0; t < length; t++) {
                    if (t > 0) {
                        line.append(", ");
                    }
                    line.append(Seeds.below(Seeds.mix64(state += Seeds.GOLDEN_GAMMA), VOCABULARY));
                }
                out.append(line).append("]}\n");
            }
        }
    }

    @Override
    public synchronized void close() {
        rows = null;
        if (jsonl != null) {
            jsonl.close();
            jsonl = null;
        }
    }
}
