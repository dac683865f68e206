package dev.stoker.cli;

import dev.stoker.formats.mds.MdsWriter;
import dev.stoker.formats.megatron.MegatronDType;
import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.formats.megatron.MegatronWriter;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.text.TokenIds;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.Tokenizers;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * {@code stoker pack --tokenizer}: texts (JSONL or Parquet) through a tokenizer into token shards:
 * a Megatron-LM indexed dataset ({@code --to megatron}), MDS with one token column
 * ({@code --to mds}), or one flat token file ({@code --to tokens}, nanoGPT's {@code train.bin}).
 * Each document's ids are followed by the end-of-text token unless {@code --no-eod}. What is
 * written is published whole: each writer writes aside and renames last; a failure leaves nothing.
 */
final class PackTokens {
    /** Texts per tokenizer call, split over the cores. */
    private static final int CHUNK = 2048;

    private final Path input;
    private final Path tokenizerFile;
    private final String field;
    private final String to;
    private final String output;
    private final boolean eod;
    private final boolean overwrite;
    private final boolean quiet;
    private final Long maxBytes;
    private final PrintWriter out;
    private final PrintWriter err;

    PackTokens(Path input, Path tokenizerFile, String field, String to, String output, boolean eod, boolean overwrite,
               boolean quiet, Long maxBytes, PrintWriter out, PrintWriter err) {
        this.input = input;
        this.tokenizerFile = tokenizerFile;
        this.field = field;
        this.to = to;
        this.output = output;
        this.eod = eod;
        this.overwrite = overwrite;
        this.quiet = quiet;
        this.maxBytes = maxBytes;
        this.out = out;
        this.err = err;
    }

    /** Where a document's ids go; {@code commit} publishes, {@code close} without it deletes. */
    private interface Sink extends AutoCloseable {
        void document(int[] ids) throws IOException;

        void commit() throws IOException;

        String describe();

        /** The ids the dtype written holds are {@code [0, idLimit())}; Integer.MAX_VALUE: every non-negative int. */
        int idLimit();

        /** The dtype written, for messages: {@code "uint16"}. */
        String dtype();

        @Override
        void close() throws IOException;
    }

    int run() {
        Tokenizer tokenizer;
        try {
            tokenizer = Tokenizers.open(tokenizerFile);
        } catch (IOException | RuntimeException e) {
            return fail("cannot read the tokenizer " + tokenizerFile + ": " + e.getMessage());
        }
        return run(tokenizer);
    }

    /** Packs through {@code tokenizer} (read from {@code tokenizerFile}), which it closes. */
    int run(Tokenizer tokenizer) {
        Path target = Path.of(output != null ? output : defaultOutput());
        int eos = -1;
        if (eod) {
            var id = tokenizer.specialTokens().eos();
            if (id.isEmpty()) {
                tokenizer.close();
                return fail(tokenizerFile + " names no end-of-text token (<|endoftext|>, </s>, <eos>, [SEP]);"
                        + " pack with --no-eod, or use a tokenizer that has one");
            }
            eos = id.getAsInt();
        }
        long start = System.nanoTime();
        long documents = 0;
        long tokens = 0;
        long textChars = 0;
        long nulls = 0;
        String what;
        String sinkText;
        try (tokenizer; TextSource texts = TextSource.open(input, field)) {
            what = texts.describe();
            int vocab = tokenizer.vocabSize();
            Sink sink = sink(target, vocab);
            // every id in the tokenizer's vocabulary, as it promises and readers check again, and in the
            // dtype written: a uint16 file would hold 65,536 as 0, and -1 as 65,535, without a word
            int limit = Math.min(vocab, sink.idLimit());
            try (sink; CountProgress progress = CountProgress.create(err, "tokenize", texts.count(), "documents", quiet)) {
                List<String> chunk = new ArrayList<>(CHUNK);
                long[] records = new long[CHUNK]; // each text's place in the input, nulls counted, for messages
                long record = 0;
                while (texts.hasNext()) {
                    chunk.clear();
                    long read = 0;
                    while (chunk.size() < CHUNK && texts.hasNext()) {
                        String t = texts.next();
                        read++;
                        if (t == null) {
                            nulls++;
                        } else {
                            records[chunk.size()] = record;
                            chunk.add(t);
                        }
                        record++;
                    }
                    List<int[]> encoded = encode(tokenizer, chunk);
                    for (int d = 0; d < encoded.size(); d++) {
                        int[] ids = encoded.get(d);
                        int[] doc = eos >= 0 ? append(ids, eos) : ids;
                        int bad = TokenIds.firstOutside(doc, 0, doc.length, limit);
                        if (bad >= 0) {
                            throw new IllegalStateException(badId(texts.where(records[d]) + " (document "
                                    + (documents + d) + ")", bad, doc[bad], vocab, sink));
                        }
                        sink.document(doc);
                        tokens += doc.length;
                    }
                    for (String t : chunk) {
                        textChars += t.length();
                    }
                    documents += chunk.size();
                    progress.step(read);
                }
                sink.commit();
                sinkText = sink.describe();
            }
        } catch (IOException | RuntimeException e) {
            return fail("packing " + input + " failed: " + e.getMessage()
                    + " (nothing was published: what this run wrote is deleted)");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "packed %s (%s) through %s: %d documents, %d tokens (%.1f per document, %.2f characters"
                        + " per token)%s%n", input, what, tokenizerFile.getFileName(), documents, tokens,
                documents == 0 ? 0.0 : (double) tokens / documents, tokens == 0 ? 0.0 : (double) textChars / tokens,
                eos >= 0 ? ", each ended by token " + eos : "");
        if (nulls > 0) {
            out.printf(Locale.ROOT, "  skipped %d null texts%n", nulls);
        }
        out.printf(Locale.ROOT, "  wrote %s%n", sinkText);
        out.printf(Locale.ROOT, "  %.1f s, %.0f tokens/s%n", seconds, tokens / Math.max(seconds, 1e-9));
        out.flush();
        return 0;
    }

    /** Why id {@code id}, token {@code token} of the text at {@code where}, is refused. */
    private String badId(String where, int token, int id, int vocab, Sink sink) {
        String why;
        if (id < 0) {
            why = "is negative";
        } else if (sink.idLimit() < Integer.MAX_VALUE && id >= sink.idLimit()) {
            why = "does not fit the " + sink.dtype() + " written (0 to " + (sink.idLimit() - 1) + ")"
                    + (id >= vocab ? " and is outside the tokenizer's vocabulary of " + vocab + " ids" : "");
        } else {
            why = "is outside the tokenizer's vocabulary of " + vocab + " ids";
        }
        return where + ": the tokenizer " + tokenizerFile.getFileName() + " gave id " + id + " (token " + token
                + " of the text), which " + why + "; a tokenizer's ids lie in [0, its vocabulary size): this one is"
                + " broken or reports the wrong size";
    }

    private String defaultOutput() {
        return switch (to) {
            case "megatron" -> "megatron/text_document";
            case "mds" -> "mds";
            default -> "tokens.bin";
        };
    }

    // the chunk split in one part per core, each part one encodeBatch call (order kept)
    private static List<int[]> encode(Tokenizer tokenizer, List<String> texts) {
        int parts = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), texts.size() / 64));
        int per = (texts.size() + parts - 1) / parts;
        List<List<int[]>> done = IntStream.range(0, parts).parallel()
                .mapToObj(p -> tokenizer.encodeBatch(texts.subList(Math.min(p * per, texts.size()),
                        Math.min((p + 1) * per, texts.size()))))
                .toList();
        List<int[]> all = new ArrayList<>(texts.size());
        done.forEach(all::addAll);
        return all;
    }

    private static int[] append(int[] ids, int eos) {
        int[] out = java.util.Arrays.copyOf(ids, ids.length + 1);
        out[ids.length] = eos;
        return out;
    }

    private Sink sink(Path target, int vocab) throws IOException {
        return switch (to) {
            case "megatron" -> megatron(target, vocab);
            case "mds" -> mds(target, vocab);
            default -> flat(target, vocab);
        };
    }

    // Megatron's rule: uint16 below 65,500 ids, int32 above (tools/preprocess_data.py, best_fitting_dtype)
    private Sink megatron(Path prefix, int vocab) throws IOException {
        if (!overwrite && (Files.exists(MegatronDataset.binPath(prefix)) || Files.exists(MegatronDataset.idxPath(prefix)))) {
            throw new IOException("there is already a Megatron dataset at " + prefix + "; --overwrite replaces it");
        }
        if (prefix.getParent() != null) {
            Files.createDirectories(prefix.getParent());
        }
        MegatronDType dtype = vocab < 65_500 ? MegatronDType.UINT16 : MegatronDType.INT32;
        MegatronWriter w = MegatronWriter.create(prefix, dtype);
        return new Sink() {
            public void document(int[] ids) throws IOException {
                w.addSequence(ids);
                w.endDocument();
            }

            public void commit() throws IOException {
                w.commit();
            }

            public int idLimit() {
                return dtype == MegatronDType.UINT16 ? 1 << 16 : Integer.MAX_VALUE;
            }

            public String dtype() {
                return dtype.name().toLowerCase(Locale.ROOT);
            }

            public String describe() {
                return "a Megatron indexed dataset (" + dtype.name().toLowerCase(Locale.ROOT) + "): "
                        + MegatronDataset.binPath(prefix) + " and " + MegatronDataset.idxPath(prefix) + ", one sequence"
                        + " per document, index last";
            }

            public void close() throws IOException {
                w.close();
            }
        };
    }

    private Sink mds(Path dir, int vocab) throws IOException {
        boolean narrow = vocab <= 65_536;
        MdsWriter.Builder b = MdsWriter.builder(dir).column("tokens", narrow ? "ndarray:uint16" : "ndarray:int32");
        if (maxBytes != null) {
            b.sizeLimit(maxBytes);
        }
        MdsWriter w = b.open();
        return new Sink() {
            public void document(int[] ids) {
                Tensor t;
                if (narrow) {
                    short[] s = new short[ids.length];
                    for (int i = 0; i < ids.length; i++) {
                        s[i] = (short) ids[i];
                    }
                    t = new Tensor(MemorySegment.ofArray(s), DType.U16, Shape.of(s.length));
                } else {
                    t = new Tensor(MemorySegment.ofArray(ids.clone()), DType.I32, Shape.of(ids.length));
                }
                w.write(Map.of("tokens", t));
            }

            public void commit() {
                w.commit();
            }

            public int idLimit() {
                return narrow ? 1 << 16 : Integer.MAX_VALUE;
            }

            public String dtype() {
                return narrow ? "uint16" : "int32";
            }

            public String describe() {
                return "MDS shards in " + dir + " (" + w.shards() + " shards, column tokens: ndarray:"
                        + (narrow ? "uint16" : "int32") + ", one sample per document), index.json last";
            }

            public void close() {
                w.close();
            }
        };
    }

    // little-endian uint16 (vocabularies up to 65,536) or uint32, written aside and renamed last
    private Sink flat(Path file, int vocab) throws IOException {
        if (!overwrite && Files.exists(file)) {
            throw new IOException("there is already " + file + "; --overwrite replaces it");
        }
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        boolean narrow = vocab <= 65_536;
        Path part = file.resolveSibling(file.getFileName() + ".part");
        OutputStream os = new BufferedOutputStream(Files.newOutputStream(part), 1 << 20);
        return new Sink() {
            long count;
            boolean committed;
            final byte[] buf = new byte[4];

            public void document(int[] ids) throws IOException {
                for (int id : ids) {
                    buf[0] = (byte) id;
                    buf[1] = (byte) (id >>> 8);
                    buf[2] = (byte) (id >>> 16);
                    buf[3] = (byte) (id >>> 24);
                    os.write(buf, 0, narrow ? 2 : 4);
                }
                count += ids.length;
            }

            public void commit() throws IOException {
                os.close();
                Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                committed = true;
            }

            public int idLimit() {
                return narrow ? 1 << 16 : Integer.MAX_VALUE;
            }

            public String dtype() {
                return narrow ? "uint16" : "uint32";
            }

            public String describe() {
                return file + ": " + count + " tokens, " + (narrow ? "uint16" : "uint32") + " little-endian"
                        + " (TokenFile.open(path, TokenType." + (narrow ? "U16" : "U32") + "))";
            }

            public void close() throws IOException {
                if (!committed) {
                    os.close();
                    Files.deleteIfExists(part);
                }
            }
        };
    }

    private int fail(String message) {
        err.println("stoker pack: " + message);
        err.flush();
        return 1;
    }
}
