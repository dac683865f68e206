package dev.stoker.cli;

import dev.stoker.data.FillableDataset;
import dev.stoker.formats.mds.MdsDataset;
import dev.stoker.formats.mds.MdsWriter;
import dev.stoker.formats.tokens.TokenWindow;
import dev.stoker.formats.tokens.TokenWindowDataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * W2-MDS: W2's 12,800 windows of 2,049 tokens stored as MosaicML Streaming's MDS shards, one
 * {@code tokens} column of {@code ndarray:uint16:2049} per sample, as language-model data in MDS
 * is kept; read by {@link MdsDataset#tokenWindows}, widened to int64 input and target, batch 64,
 * in order: W2's output from W2's windows. Its peer is Streaming's {@code StreamingDataset} under
 * PyTorch's DataLoader ({@code bench/python/mds_peer.py}) on the same shards.
 *
 * <p>Reads {@code DATA/mds-tokens}; without it, writes it once from W2's windows (of
 * {@code DATA/tokens.bin}, or W2's generated token file) with {@link MdsWriter}.
 */
public final class W2MdsTokens implements Workload {
    static final String FOLDER = "mds-tokens";

    private final WorkloadSpec spec;
    private MdsDataset mds;

    /** W2-MDS as defined. */
    public W2MdsTokens() {
        this(W2TokenMemmap.SAMPLES);
    }

    /** A smaller W2-MDS, for tests: {@code samples} windows. */
    public W2MdsTokens(int samples) {
        this.spec = new WorkloadSpec("W2-MDS", "tokens-mds", WorkloadSpec.Data.MADE_IF_MISSING, 1, W2TokenMemmap.BATCH,
                samples, 2L * W2TokenMemmap.SEQ_LEN * Long.BYTES);
    }

    /** Its shards, or W2's tokens.bin to write them from. */
    @Override
    public String missingFrom(Path folder) {
        return Files.isRegularFile(folder.resolve(FOLDER).resolve("index.json"))
                || Files.isRegularFile(folder.resolve(W2TokenMemmap.FILE)) ? null
                : "MDS shards in " + FOLDER + "/ (or " + W2TokenMemmap.FILE + " to write them from)";
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return samplesPerEpoch() + " windows of " + W2TokenMemmap.SEQ_LEN + "+1 u16 tokens in MDS shards"
                + " (tokens: ndarray:uint16:" + (W2TokenMemmap.SEQ_LEN + 1) + "), widened to i64 input/target, batch "
                + W2TokenMemmap.BATCH + ", in order";
    }

    @Override
    public List<Configuration> configurations() {
        return Configuration.rows(List.of(0, 2), Configuration.GENERAL, Configuration.FILL);
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        FillableDataset<TokenWindow> ds = PerSample.forRow("W2-MDS", open(data).tokenWindows("tokens"), c);
        LoaderBuilder<TokenWindow> builder = DataLoader.builder(ds)
                .batchSize(W2TokenMemmap.BATCH)
                .shuffle(false) // W2's windows are at random offsets already
                .seed(seed);
        return c.applyTo(builder).build();
    }

    private synchronized MdsDataset open(Path data) {
        if (mds == null) {
            try {
                Path dir = data.resolve(FOLDER);
                if (!Files.isRegularFile(dir.resolve("index.json"))) {
                    write(data, dir);
                }
                mds = MdsDataset.open(dir);
                System.err.println("W2-MDS: " + dir + ", " + mds.size() + " windows in " + mds.shards() + " shards");
            } catch (IOException e) {
                throw new UncheckedIOException("W2-MDS: cannot make or read its shards: " + e.getMessage(), e);
            }
        }
        return mds;
    }

    /** W2's windows, each its 2,049 tokens, into {@code dir}. */
    private void write(Path data, Path dir) throws IOException {
        try (W2TokenMemmap w2 = new W2TokenMemmap(spec.samplesPerEpoch())) {
            TokenWindowDataset windows = w2.windows(data);
            int n = W2TokenMemmap.SEQ_LEN + 1;
            CacheData.folder("W2-MDS", dir, "no " + FOLDER + " in the data folder; writing W2's windows as MDS", out -> {
                long[] tokens = new long[n];
                try (Arena arena = Arena.ofConfined();
                     MdsWriter w = MdsWriter.builder(out).column("tokens", "ndarray:uint16:" + n).open()) {
                    Tensor row = Tensor.allocate(arena, DType.U16, Shape.of(n));
                    for (long i = 0; i < windows.size(); i++) {
                        windows.tokens().widen(windows.offset(i), tokens);
                        for (int k = 0; k < n; k++) {
                            row.setLong(k, tokens[k]);
                        }
                        w.write(Map.of("tokens", row));
                    }
                    w.commit();
                }
            });
        }
    }

    @Override
    public synchronized void close() {
        if (mds != null) {
            mds.close();
            mds = null;
        }
    }
}
