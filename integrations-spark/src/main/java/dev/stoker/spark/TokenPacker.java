package dev.stoker.spark;

import dev.stoker.formats.megatron.MegatronDType;
import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.formats.megatron.MegatronWriter;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.Tokenizers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * Tokenize and pack on Spark: the texts of a {@code Dataset<Row>} (read from Parquet or JSON by
 * Spark) tokenized per partition into Megatron-LM indexed token shards, then (by default) merged
 * on the driver into one dataset, one {@code .bin} and one {@code .idx}, as Megatron's
 * {@code tools/merge_datasets.py} merges them. Each row with a text is one document, its ids
 * followed by the tokenizer's end-of-text token (Megatron's {@code --append-eod}).
 *
 * <pre>{@code
 * Dataset<Row> texts = spark.read().parquet("/mnt/shared/fineweb/data").select("text");
 * TokenPacker.Summary s = TokenPacker.builder("/mnt/shared/tokens")
 *         .tokenizer("/mnt/shared/tokenizer.json").name("fineweb_text_document").build()
 *         .pack(texts.repartition(64).sortWithinPartitions("id"));
 * // /mnt/shared/tokens/fineweb_text_document.bin and .idx
 * }</pre>
 *
 * <p>Shard boundaries and document order are deterministic: partition {@code p} writes
 * {@code NAME-PPPPP} with its rows in partition order, and the merge takes the partitions in
 * order. As with {@link ShardPacker}, the rows of a partition must themselves come in a
 * reproducible order (read from files, or sorted within partitions). Every executor opens the
 * tokenizer file itself, and writes into the output folder: both paths must be the same on every
 * node (a shared file system), as for {@link ShardPacker}.
 */
public final class TokenPacker {
    private final Path outputDir;
    private final String textColumn;
    private final Path tokenizer;
    private final String name;
    private final boolean appendEod;
    private final boolean merge;

    private TokenPacker(Builder b) {
        this.outputDir = b.outputDir;
        this.textColumn = b.textColumn;
        this.tokenizer = Objects.requireNonNull(b.tokenizer, "tokenizer: the tokenizer.json or .model every executor opens");
        this.name = b.name;
        this.appendEod = b.appendEod;
        this.merge = b.merge;
    }

    /** A packer writing into {@code outputDir} (absolute on the driver; every executor must see it there). */
    public static Builder builder(String outputDir) {
        return new Builder(outputDir);
    }

    /** The settings of a {@link TokenPacker}. */
    public static final class Builder {
        private final Path outputDir;
        private String textColumn = "text";
        private Path tokenizer;
        private String name = "text_document";
        private boolean appendEod = true;
        private boolean merge = true;

        private Builder(String outputDir) {
            this.outputDir = Path.of(outputDir.startsWith("file:") ? java.net.URI.create(outputDir).getPath() : outputDir)
                    .toAbsolutePath();
        }

        /** The string column holding the text (default {@code text}). */
        public Builder text(String column) {
            this.textColumn = Objects.requireNonNull(column, "column");
            return this;
        }

        /** The tokenizer file ({@code tokenizer.json} or a SentencePiece {@code .model}), at a path every executor sees. */
        public Builder tokenizer(String path) {
            this.tokenizer = Path.of(path).toAbsolutePath();
            return this;
        }

        /** The dataset's name: {@code NAME.bin}/{@code .idx}, and {@code NAME-PPPPP} per partition (default {@code text_document}). */
        public Builder name(String name) {
            if (name.isBlank() || name.contains("/")) {
                throw new IllegalArgumentException("a dataset name is a file name, not '" + name + "'");
            }
            this.name = name;
            return this;
        }

        /** Whether each document ends with the end-of-text token (default true). */
        public Builder appendEod(boolean on) {
            this.appendEod = on;
            return this;
        }

        /** Whether the driver merges the partitions' shards into one dataset and deletes them (default true). */
        public Builder merge(boolean on) {
            this.merge = on;
            return this;
        }

        public TokenPacker build() {
            return new TokenPacker(this);
        }
    }

    /**
     * What a job wrote.
     *
     * @param parts  each partition's shard (deleted after a merge), in partition order
     * @param merged the merged dataset's prefix, or empty without a merge
     */
    public record Summary(List<TokenPart> parts, java.util.Optional<String> merged) {
        /** Documents in all. */
        public long documents() {
            return parts.stream().mapToLong(TokenPart::documents).sum();
        }

        /** Tokens in all. */
        public long tokens() {
            return parts.stream().mapToLong(TokenPart::tokens).sum();
        }

        @Override
        public String toString() {
            return "tokenized " + documents() + " documents into " + tokens() + " tokens from " + parts.size()
                    + " partitions" + merged.map(m -> ", merged into " + m).orElse("");
        }
    }

    /**
     * Tokenizes every row of {@code data}, one Spark job, then merges.
     *
     * @throws IllegalArgumentException the text column missing or not a string; the tokenizer without an end-of-text token
     */
    public Summary pack(Dataset<Row> data) {
        StructField field = data.schema().apply(textColumn);
        if (!field.dataType().equals(DataTypes.StringType)) {
            throw new IllegalArgumentException("column '" + textColumn + "' is " + field.dataType() + ", not a string");
        }
        int eos = -1;
        MegatronDType dtype;
        try (Tokenizer tok = Tokenizers.open(tokenizer)) {
            if (appendEod) {
                eos = tok.specialTokens().eos().orElseThrow(() -> new IllegalArgumentException(tokenizer
                        + " names no end-of-text token; pack with appendEod(false)"));
            }
            dtype = tok.vocabSize() < 65_500 ? MegatronDType.UINT16 : MegatronDType.INT32; // Megatron's rule
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the tokenizer " + tokenizer + ": " + e.getMessage(), e);
        }
        try {
            Files.createDirectories(outputDir);
            TokenPlan plan = new TokenPlan(outputDir.toString(), name, data.schema().fieldIndex(textColumn), textColumn,
                    tokenizer.toString(), eos, dtype.name());
            List<TokenPart> parts = data.javaRDD().mapPartitionsWithIndex(new PartitionTokenizer(plan), false).collect()
                    .stream().sorted(Comparator.comparingInt(TokenPart::partition)).toList();
            if (!merge) {
                return new Summary(parts, java.util.Optional.empty());
            }
            Path prefix = outputDir.resolve(name);
            try (MegatronWriter out = MegatronWriter.create(prefix, dtype)) {
                for (TokenPart p : parts) {
                    try (MegatronDataset part = MegatronDataset.open(Path.of(p.prefix()))) {
                        for (long d = 0; d < part.documentCount(); d++) {
                            for (long s = part.documentStart(d); s < part.documentEnd(d); s++) {
                                out.addSequence(part.tokens(s));
                            }
                            out.endDocument();
                        }
                    }
                }
                out.commit();
            }
            for (TokenPart p : parts) {
                Files.deleteIfExists(MegatronDataset.idxPath(Path.of(p.prefix())));
                Files.deleteIfExists(MegatronDataset.binPath(Path.of(p.prefix())));
            }
            return new Summary(parts, java.util.Optional.of(prefix.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("packing into " + outputDir + ": " + e.getMessage(), e);
        } finally {
            Path staging = outputDir.resolve(TokenPlan.STAGING);
            if (Files.isDirectory(staging)) {
                try (Stream<Path> s = Files.list(staging)) {
                    if (s.findAny().isEmpty()) {
                        Files.delete(staging);
                    }
                } catch (IOException e) {
                    // a leftover empty folder is no failure
                }
            }
        }
    }
}
