package dev.stoker.cli;

import dev.stoker.formats.jsonl.JsonlStream;
import dev.stoker.loader.DataLoader;
import dev.stoker.text.DocumentWindowStream;
import dev.stoker.text.TokenizedStream;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.HfTokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * W10, pretraining-from-text: the JSONL files of {@code DATA/w10} (the peer's
 * {@code bench/python/w10_peer.py --gen}: 8,000 synthetic documents in 4 files), tokenized in the
 * workers with {@code DATA/w10/tokenizer.json} (byte-level BPE, 16,384 ids: {@link HfTokenizer}
 * encodes it in Java, to the ids the peer's Rust library gives), 64 texts per call; each document followed by
 * {@code <|endoftext|>}, concatenated per worker and cut into windows of 1,024 + 1 tokens that
 * share one token with the next ({@link DocumentWindowStream}); batches of 16, input and target
 * (16, 1024) int64, one epoch. Files are dealt to workers as the peer deals them (worker
 * {@code w} of {@code W} reads files {@code w, w + W, ...}).
 *
 * <p>Rows: the fill path (windows written straight into the batch) with 0, 1 and 2 workers.
 */
public final class W10TextWindows implements Workload {
    /** About the windows of the generated corpus (3.2 M tokens); the count depends on the workers (each drops its tail). */
    static final int SAMPLES = 3155;
    static final int SEQ = 1024;
    static final int BATCH = 16;
    static final int TEXTS_PER_CALL = 64;
    static final String FOLDER = "w10";
    static final List<Integer> WORKERS = List.of(0, 1, 2);

    private final WorkloadSpec spec;
    private Tokenizer tokenizer;
    private List<Path> files;
    private int eos;

    /** W10 as defined. */
    public W10TextWindows() {
        this(SAMPLES);
    }

    /** A W10 that announces {@code samples} windows per epoch (tests run it on a smaller corpus). */
    public W10TextWindows(int samples) {
        this.spec = new WorkloadSpec("W10", "pretraining-from-text", WorkloadSpec.Data.REQUIRED, 1, BATCH, samples,
                2L * SEQ * Long.BYTES);
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return "JSONL text (" + FOLDER + "/*.jsonl) tokenized in the workers by " + FOLDER + "/tokenizer.json (byte-level"
                + " BPE), <|endoftext|> after each document, cut into windows of 1024: input, target (16,1024) i64";
    }

    @Override
    public String missingFrom(Path folder) {
        return Files.isRegularFile(folder.resolve(FOLDER).resolve("tokenizer.json")) ? null
                : FOLDER + "/ (make it with python3 bench/python/w10_peer.py --gen --root " + folder + ")";
    }

    @Override
    public List<Configuration> configurations() {
        return Configuration.rows(WORKERS, Configuration.FILL);
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        if (!c.fill() || c.batched() || c.ioConcurrency() > 0 || c.raw()) {
            throw new IllegalArgumentException("W10 streams windows on the fill path only, not " + c);
        }
        open(data);
        try {
            var texts = JsonlStream.field(files, "text");
            var windows = DocumentWindowStream.of(TokenizedStream.of(texts, tokenizer).withBatchTexts(TEXTS_PER_CALL),
                    SEQ, eos);
            return c.applyTo(DataLoader.builder(windows)).batchSize(BATCH).seed(seed).build();
        } catch (IOException e) {
            throw new UncheckedIOException("W10: " + e.getMessage(), e);
        }
    }

    /** The tokenizer and the files, read on the first call and kept for every repetition. */
    private synchronized void open(Path data) {
        if (tokenizer != null) {
            return;
        }
        Path folder = data.resolve(FOLDER);
        try (Stream<Path> s = Files.list(folder)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
            if (files.isEmpty()) {
                throw new IOException(folder + " holds no .jsonl files");
            }
            tokenizer = HfTokenizer.open(folder.resolve("tokenizer.json"));
            eos = tokenizer.tokenId("<|endoftext|>").orElseThrow(
                    () -> new IOException(folder.resolve("tokenizer.json") + " has no <|endoftext|> token"));
            System.err.println("W10: " + files.size() + " files in " + folder + ", " + tokenizer);
        } catch (IOException e) {
            throw new UncheckedIOException("W10: cannot read its data: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (tokenizer != null) {
            tokenizer.close();
            tokenizer = null;
        }
    }
}
