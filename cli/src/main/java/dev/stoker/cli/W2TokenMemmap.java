package dev.stoker.cli;

import dev.stoker.data.FillableDataset;
import dev.stoker.formats.tokens.TokenFile;
import dev.stoker.formats.tokens.TokenType;
import dev.stoker.formats.tokens.TokenWindow;
import dev.stoker.formats.tokens.TokenWindowDataset;
import dev.stoker.formats.tokens.WindowOffsets;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.random.Seeds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * W2, token-memmap: windows of 2048 + 1 tokens at 12,800 fixed random offsets of a memory-mapped
 * file of 100,000,000 uint16 tokens, widened to int64 and split into input and target (shifted by
 * one); batch 64, in order (the offsets are already random), one epoch of 200 batches.
 *
 * <p>Reads {@code DATA/tokens.bin} (the PyTorch peers' {@code gen_data.py}). Without it, makes an
 * equivalent file once in the cache folder: the same size, tokens uniform in [0, 50257), from a
 * seeded SplitMix64 stream rather than NumPy's PCG64, so the values differ but not the work.
 * The offsets are likewise seeded uniform draws ({@link WindowOffsets#random}, seed 0), not NumPy's
 * {@code default_rng(0)} ones: the same count, range and spread of reads.
 *
 * <p>Rows: {@code nw=0}, the general path ({@code get} makes each window, the default collate
 * stacks them, as PyTorch does); {@code fill}, each window widened straight into its rows of the
 * batch; {@code batched fill}, one {@code fillBatch} per batch. Each with 0 and 2 workers.
 * The token file stays mapped from the first loader until {@link #close()}.
 */
public final class W2TokenMemmap implements Workload {
    static final long TOKENS = 100_000_000L;
    static final int VOCABULARY = 50_257;
    static final int SEQ_LEN = 2048;
    static final int SAMPLES = 12_800;
    static final int BATCH = 64;
    static final String FILE = "tokens.bin";
    static final String GENERATED = "tokens-w2-splitmix.bin";

    private final WorkloadSpec spec;
    private TokenFile tokens;
    private TokenWindowDataset windows;

    /** W2 as defined. */
    public W2TokenMemmap() {
        this(SAMPLES);
    }

    /** A smaller W2, for tests: {@code samples} windows per epoch. */
    public W2TokenMemmap(int samples) {
        // output bytes: input and target, int64 (2 MiB per batch of 64)
        this.spec = new WorkloadSpec("W2", "token-memmap", WorkloadSpec.Data.MADE_IF_MISSING, 1, BATCH, samples,
                2L * SEQ_LEN * Long.BYTES);
    }

    @Override
    public String missingFrom(Path folder) {
        return Files.isRegularFile(folder.resolve(FILE)) ? null : FILE;
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return samplesPerEpoch() + " windows of " + SEQ_LEN + "+1 u16 tokens at random offsets of a memory-mapped "
                + FILE + " (" + TOKENS / 1_000_000 + "M tokens), widened to i64 input/target, batch " + BATCH
                + ", in order";
    }

    @Override
    public List<Configuration> configurations() {
        return Configuration.rows(List.of(0, 2), Configuration.GENERAL, Configuration.FILL, Configuration.BATCHED_FILL);
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        FillableDataset<TokenWindow> ds = PerSample.forRow("W2", windows(data), c);
        LoaderBuilder<TokenWindow> builder = DataLoader.builder(ds)
                .batchSize(BATCH)
                .shuffle(false) // the offsets are already random, as on PyTorch's side
                .seed(seed);
        return c.applyTo(builder).build();
    }

    /** The windows, mapped on the first call and kept for every repetition. */
    synchronized TokenWindowDataset windows(Path data) {
        if (windows == null) {
            try {
                Path file = data != null && Files.isRegularFile(data.resolve(FILE)) ? data.resolve(FILE) : generated();
                tokens = TokenFile.open(file, TokenType.U16);
                long[] offsets = WindowOffsets.random(tokens.size(), SEQ_LEN, spec.samplesPerEpoch(), 0);
                windows = TokenWindowDataset.atOffsets(tokens, SEQ_LEN, offsets);
            } catch (IOException e) {
                throw new UncheckedIOException("W2: cannot open its token file: " + e.getMessage(), e);
            }
        }
        return windows;
    }

    /** The cache folder's stand-in for {@code tokens.bin}, made once (about a second). */
    private static Path generated() throws IOException {
        return CacheData.file("W2", GENERATED, String.format("no %s in the data folder; writing %,d uniform u16 tokens",
                FILE, TOKENS), tmp -> {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                 Arena arena = Arena.ofConfined()) {
                MemorySegment map = ch.map(FileChannel.MapMode.READ_WRITE, 0, TOKENS * 2, arena);
                writeTokens(map, TOKENS, Seeds.mix64(1234 + 2));
                map.force();
            }
        });
    }

    /**
     * {@code count} tokens uniform in [0, VOCABULARY): two per SplitMix64 output, each from 32
     * random bits by multiply-shift (bias below 2^-16, far under what the benchmark could notice).
     */
    static void writeTokens(MemorySegment dst, long count, long state) {
        ValueLayout.OfShort u16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < count; i += 2) {
            long z = Seeds.mix64(state += Seeds.GOLDEN_GAMMA);
            dst.setAtIndex(u16, i, (short) (((z & 0xFFFF_FFFFL) * VOCABULARY) >>> 32));
            if (i + 1 < count) {
                dst.setAtIndex(u16, i + 1, (short) (((z >>> 32) * VOCABULARY) >>> 32));
            }
        }
    }

    /** Unmaps the token file; a later loader maps it again. */
    @Override
    public synchronized void close() {
        if (tokens != null) {
            windows = null;
            tokens.close();
            tokens = null;
        }
    }
}
