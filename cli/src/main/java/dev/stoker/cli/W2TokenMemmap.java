package dev.stoker.cli;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
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
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
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

    private final int samples;
    private TokenFile tokens;
    private TokenWindowDataset windows;

    /** W2 as defined. */
    public W2TokenMemmap() {
        this(SAMPLES);
    }

    /** A smaller W2, for tests: {@code samples} windows per epoch. */
    public W2TokenMemmap(int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("W2 needs at least one sample, not " + samples);
        }
        this.samples = samples;
    }

    @Override
    public String name() {
        return "W2";
    }

    @Override
    public String title() {
        return "token-memmap";
    }

    @Override
    public String summary() {
        return samples + " windows of " + SEQ_LEN + "+1 u16 tokens at random offsets of a memory-mapped " + FILE
                + " (" + TOKENS / 1_000_000 + "M tokens), widened to i64 input/target, batch " + BATCH + ", in order";
    }

    @Override
    public boolean needsData() {
        return true;
    }

    @Override
    public boolean makesMissingData() {
        return true;
    }

    @Override
    public int epochs() {
        return 1;
    }

    @Override
    public int batchSize() {
        return BATCH;
    }

    @Override
    public long samplesPerEpoch() {
        return samples;
    }

    @Override
    public long outputBytesPerSample() {
        return 2L * SEQ_LEN * Long.BYTES; // input and target, int64: 2 MiB per batch of 64
    }

    @Override
    public List<Configuration> configurations() {
        List<Configuration> out = new ArrayList<>();
        for (int n : new int[] {0, 2}) {
            out.add(Configuration.of(n, false, false));
            out.add(Configuration.of(n, false, false).withFill());
            out.add(Configuration.of(n, false, true).withFill());
        }
        return out;
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        if (c.batched() && !c.fill()) {
            throw new IllegalArgumentException("W2 has no batched fetch without fill: its batched row is 'batched fill'");
        }
        TokenWindowDataset all = windows(data);
        FillableDataset<TokenWindow> ds = c.fill() && !c.batched() ? new PerSampleFill(all) : all;
        LoaderBuilder<TokenWindow> builder = DataLoader.builder(ds)
                .batchSize(BATCH)
                .shuffle(false) // the offsets are already random, as on PyTorch's side
                .seed(seed);
        return c.applyTo(builder).build();
    }

    /** The windows, mapped on the first call and kept for every repetition. */
    private synchronized TokenWindowDataset windows(Path data) {
        if (windows == null) {
            try {
                Path file = data != null && Files.isRegularFile(data.resolve(FILE)) ? data.resolve(FILE) : generated();
                tokens = TokenFile.open(file, TokenType.U16);
                long[] offsets = WindowOffsets.random(tokens.size(), SEQ_LEN, samples, 0);
                windows = TokenWindowDataset.atOffsets(tokens, SEQ_LEN, offsets);
            } catch (IOException e) {
                throw new UncheckedIOException("W2: cannot open its token file: " + e.getMessage(), e);
            }
        }
        return windows;
    }

    /** The cache folder's stand-in for {@code tokens.bin}, made once (about a second). */
    private static Path generated() throws IOException {
        Path folder = Workload.defaultDataFolder();
        Path file = folder.resolve(GENERATED);
        if (Files.isRegularFile(file) && Files.size(file) == TOKENS * 2) {
            return file;
        }
        Files.createDirectories(folder);
        System.err.printf("W2: no %s in the data folder; writing %,d uniform u16 tokens to %s ...%n", FILE, TOKENS, file);
        long start = System.nanoTime();
        Path tmp = folder.resolve(GENERATED + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
             Arena arena = Arena.ofConfined()) {
            MemorySegment map = ch.map(FileChannel.MapMode.READ_WRITE, 0, TOKENS * 2, arena);
            writeTokens(map, TOKENS, Seeds.mix64(1234 + 2));
            map.force();
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.err.printf("W2: wrote %s (%,d bytes) in %.1f s%n", file, TOKENS * 2, (System.nanoTime() - start) / 1e9);
        return file;
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

    /**
     * The windows filled one at a time ({@code fill} per sample): the dataset's own
     * {@code fillBatch} hidden, so that the {@code fill} and {@code batched fill} rows differ in that alone.
     */
    private record PerSampleFill(TokenWindowDataset windows) implements FillableDataset<TokenWindow> {
        @Override
        public long size() {
            return windows.size();
        }

        @Override
        public TokenWindow get(long index) {
            return windows.get(index);
        }

        @Override
        public SampleLayout layout() {
            return windows.layout();
        }

        @Override
        public void fill(long index, SampleSlot slot) {
            windows.fill(index, slot);
        }

        @Override
        public String name() {
            return windows.name();
        }
    }
}
