package dev.stoker.cli;

import dev.stoker.data.DataFormatException;
import dev.stoker.formats.lmdb.LmdbWriter;
import dev.stoker.formats.mds.MdsWriter;
import dev.stoker.formats.tar.ShardWriter;
import dev.stoker.random.Seeds;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code stoker pack}: turns an image folder, a folder of files grouped by key, or a JSONL file
 * into WebDataset tar shards, each with its {@code .idx} sidecar for random access, or (with
 * {@code --to lmdb}) into one LMDB environment in W8's layout ({@link PackLmdb}).
 */
@Command(
        name = "pack",
        sortOptions = false,
        header = "Pack a folder or a JSONL file into WebDataset tar shards or an LMDB environment, or tokenize text into token shards.",
        description = {
            "Writes tar shards that WebDataset, Python's tarfile, GNU tar and Stoker",
            "read, each with a small .idx file beside it so that Stoker can also read",
            "the samples in any order. What the input becomes:",
            "",
            "  image folder  INPUT/<class>/<file>.jpg, classes sorted as torchvision's",
            "                ImageFolder sorts them: sample <key>.jpg + <key>.cls (the",
            "                class index as text); keys 000000, 000001, ... in that order",
            "  files         INPUT/**/<name>.<ext>: files sharing a name up to the first",
            "                dot form one sample, e.g. a/x.jpg + a/x.json -> key a/x",
            "  JSONL         one sample per line: <key>.json",
            "",
            "The layout is detected (a folder of folders is an image folder) unless",
            "--layout says; a folder of class folders that also holds files at its top",
            "is refused until --layout says which it is. A new shard starts after",
            "--max-samples samples, or before",
            "one would grow past --max-bytes. An output name ending in .gz or .tgz",
            "writes gzip-compressed shards, without .idx files (they are read as",
            "streams).",
            "",
            "A set of shards is published whole or not at all: the shards are written",
            "under .part names and get theirs only when every sample is in, and then",
            "the set's manifest (shard.stoker-manifest for shard-%%06d.tar) is written",
            "last; readers and stoker inspect refuse a set without it whose pack is",
            "in progress or was killed. Shards of the pattern already there are",
            "refused unless --overwrite, which replaces the set: what the old one had",
            "that the new one does not (shards of the pattern, their .idx) is deleted.",
            "",
            "--to lmdb writes one LMDB environment instead (the folder -o names), in",
            "W8's layout, as Python's lmdb and Stoker's LmdbDataset read it: sample i",
            "of the written order under key %%06d (the file's bytes), __len__ the",
            "number of samples and, for an image folder, __labels__ one byte per",
            "sample (its class index). Every sample must be a single file or line.",
            "--max-samples, --max-bytes and --no-index are for tar only.",
            "",
            "--to mds writes MosaicML Streaming's MDS format into the folder -o names",
            "(index.json and shard.NNNNN.mds), as Streaming's MDSWriter writes it: a",
            "column per field (jpg/jpeg: jpeg, png: png, json: json, txt: str, cls:",
            "int, others: bytes); every sample must have the same fields. --max-bytes",
            "is the shard size limit (default 64M, Streaming's); --compression zstd",
            "or gz compresses the shards, --hashes records sha1, md5, ... of each.",
            "",
            "--tokenizer tokenizer.json|x.model tokenizes text instead: INPUT is a JSONL",
            "file (.gz too), a folder of them, or Parquet (a file, a folder, a Hugging",
            "Face layout), the text in the field or column --text-field names. Each",
            "document's ids are followed by the tokenizer's end-of-text token (Megatron's",
            "--append-eod) unless --no-eod. --to megatron writes a Megatron-LM indexed",
            "dataset at the prefix -o names (PREFIX.bin and PREFIX.idx, uint16 below",
            "65,500 ids, else int32, as Megatron picks); --to mds one token column",
            "(ndarray:uint16 or int32), a sample per document; --to tokens one flat file",
            "of uint16 (or uint32) ids. Written aside, published whole at the end.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker pack data/jpeg -o shards/shard-%%06d.tar --max-samples 250",
            "  stoker pack data/jpeg -o out/train-%%04d.tar --max-bytes 1G --shuffle --seed 3",
            "  stoker pack captions.jsonl -o text/part-%%05d.tar.gz",
            "  stoker pack data/jpeg --to lmdb -o data/lmdb --shuffle --seed 3",
            "  stoker pack data/jpeg --to mds -o data/mds --compression zstd --hashes sha1",
            "  stoker pack train.jsonl --tokenizer tokenizer.json --to megatron -o data/train_text_document",
            "  stoker pack data/hf-dataset --tokenizer tokenizer.model --to tokens -o train.bin",
            "",
            "Then: stoker inspect shards/shard-000000.tar"
        })
final class PackCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "INPUT", description = "The folder or JSONL file to pack.")
    Path input;

    @Option(names = "--to", paramLabel = "FORMAT", defaultValue = "tar",
            description = "tar (WebDataset shards), lmdb (one LMDB environment) or mds (MosaicML Streaming's"
                    + " MDS shards); with --tokenizer: megatron, mds or tokens (default: ${DEFAULT-VALUE}).")
    String to;

    @Option(names = "--tokenizer", paramLabel = "FILE",
            description = "Tokenize text with this tokenizer.json or SentencePiece .model, into --to megatron, mds"
                    + " or tokens.")
    Path tokenizer;

    @Option(names = "--text-field", paramLabel = "NAME", defaultValue = "text",
            description = "With --tokenizer: the JSON field or Parquet column of the text (default: ${DEFAULT-VALUE}).")
    String textField;

    @Option(names = "--no-eod", description = "With --tokenizer: do not end each document with the end-of-text token.")
    boolean noEod;

    @Option(names = {"-o", "--output"}, paramLabel = "PATTERN|DIR",
            description = "Where the shards go; the shard number goes in at %%06d "
                    + "(default: shards/shard-%%06d.tar). With --to lmdb the environment's folder (default: lmdb).")
    String output;

    @Option(names = "--max-samples", paramLabel = "N", description = "At most N samples per shard (default: no limit).")
    Long maxSamples;

    @Option(names = "--max-bytes", paramLabel = "SIZE", converter = ByteSize.class,
            description = "At most SIZE bytes per shard, e.g. 500M or 1G (default: no limit; "
                    + "a single larger sample gets a shard of its own).")
    Long maxBytes;

    @Option(names = "--layout", paramLabel = "KIND", defaultValue = "auto",
            description = "auto, imagefolder, files or jsonl (default: ${DEFAULT-VALUE}).")
    String layout;

    @Option(names = "--shuffle", description = "Write the samples in a shuffled order (tar: keys stay as they are; "
            + "lmdb: sample i is the i-th of that order).")
    boolean shuffle;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
            description = "The seed of --shuffle (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--no-index", description = "Do not write the .idx files beside the shards.")
    boolean noIndex;

    @Option(names = "--compression", paramLabel = "KIND",
            description = "With --to mds: zstd, zstd:LEVEL, gz or gz:LEVEL for compressed shards (default: none).")
    String compression;

    @Option(names = "--hashes", paramLabel = "ALGO", split = ",",
            description = "With --to mds: hashes of each shard file for index.json, e.g. sha1,md5.")
    List<String> hashes;

    @Option(names = "--overwrite", description = "Replace the set of shards (tar) or the LMDB environment already"
            + " at -o; the old one stays as it was until the new one is complete.")
    boolean overwrite;

    @Option(names = "--single-file", description = "With --to lmdb: write the environment as one data file at -o"
            + " (and -o-lock beside it), as Python's lmdb.open(path, subdir=False) does.")
    boolean singleFile;

    @Option(names = {"-q", "--quiet"}, description = "No progress, only the summary.")
    boolean quiet;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PackSource.Layout kind;
        try {
            kind = PackSource.Layout.valueOf(layout.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return usageError("--layout is one of auto, imagefolder, files, jsonl; not '" + layout + "'");
        }
        String target = to.toLowerCase(Locale.ROOT);
        if (tokenizer != null) {
            return packTokens(target);
        }
        if (target.equals("megatron") || target.equals("tokens")) {
            return usageError("--to " + target + " writes token ids: give the --tokenizer that makes them");
        }
        if (!List.of("tar", "lmdb", "mds").contains(target)) {
            return usageError("--to is tar, lmdb or mds; not '" + to + "'");
        }
        if (!target.equals("mds") && (compression != null || hashes != null)) {
            return usageError((compression != null ? "--compression" : "--hashes") + " is for --to mds"
                    + (compression != null ? " (tar shards are compressed by naming them .tar.gz)" : ""));
        }
        if (target.equals("lmdb")) {
            return packLmdb(kind);
        }
        if (target.equals("mds")) {
            return packMds(kind);
        }
        if (singleFile) {
            return usageError("--single-file is for --to lmdb");
        }
        if (output == null) {
            output = "shards/shard-%06d.tar";
        }
        ShardWriter.Builder builder;
        try {
            builder = ShardWriter.builder(output).writeIndex(!noIndex).overwrite(overwrite).writtenBy("stoker pack");
            if (maxSamples != null) {
                builder.maxSamples(maxSamples);
            }
            if (maxBytes != null) {
                builder.maxBytes(maxBytes);
            }
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        PackSource source = source(kind);
        if (source == null) {
            return CommandLine.ExitCode.SOFTWARE;
        }
        List<PackSource.Item> order = order(source);
        Totals totals;
        try {
            totals = Totals.of(order, PackSource.Item::fields);
        } catch (IOException e) {
            return failure("cannot read " + input + ": " + message(e));
        }
        long totalBytes = totals.bytes();
        long totalFiles = totals.files();
        long start = System.nanoTime();
        ShardWriter writer;
        try {
            writer = builder.build();
        } catch (IllegalStateException | IllegalArgumentException | UncheckedIOException | DataFormatException e) {
            return failure(message(e));
        }
        // closed without its commit (a failure below), the writer deletes what it wrote: nothing half-done is published
        try (PackProgress progress = PackProgress.create(err, totalFiles, totalBytes, quiet, source.unit()); writer) {
            for (PackSource.Item item : order) {
                Map<String, byte[]> fields = new LinkedHashMap<>();
                long bytes = 0;
                int files = 0;
                for (PackSource.Field f : item.fields()) {
                    byte[] data = f.read();
                    fields.put(f.extension(), data);
                    bytes += data.length;
                    files += f.input() ? 1 : 0;
                }
                writer.write(item.key(), fields);
                progress.sample(files, bytes);
            }
            writer.commit();
        } catch (IOException | UncheckedIOException | IllegalArgumentException | IllegalStateException
                 | DataFormatException e) { // DataFormatException: a shard set's (it was an IllegalStateException)
            return failure("packing " + input + " failed: " + message(e) + " (nothing was published: what this run"
                    + " wrote is deleted" + (overwrite ? ", and the set there before is as it was)" : ")"));
        }
        List<ShardWriter.ShardInfo> shards = writer.shards();
        double seconds = (System.nanoTime() - start) / 1e9;
        long shardBytes = shards.stream().mapToLong(ShardWriter.ShardInfo::bytes).sum();
        summaryHead(out, source, order.size(), totalFiles, totalBytes);
        out.printf(Locale.ROOT, "  wrote %d shard%s, %s in all%s: %s%s, and last their manifest %s%n", shards.size(),
                shards.size() == 1 ? "" : "s", ByteSize.format(shardBytes),
                noIndex || compressed(output) ? "" : " (each with its .idx)", shards.getFirst().path(),
                shards.size() > 1 ? " ... " + shards.getLast().path() : "", writer.manifest().getFileName());
        summaryTail(out, source, totalBytes, seconds);
        return CommandLine.ExitCode.OK;
    }

    /** --tokenizer: text through the tokenizer into Megatron, MDS or a flat token file ({@link PackTokens}). */
    private int packTokens(String target) {
        if (target.equals("tar")) {
            target = "megatron"; // tar has no token form: the default for text is Megatron's
        }
        if (!List.of("megatron", "mds", "tokens").contains(target)) {
            return usageError("with --tokenizer, --to is megatron, mds or tokens; not '" + to + "'");
        }
        Integer refused = refuse(" not for --tokenizer", "--max-samples", maxSamples != null, "--no-index", noIndex,
                "--shuffle", shuffle, "--single-file", singleFile, "--compression", compression != null,
                "--hashes", hashes != null, "--layout", !layout.equals("auto"));
        if (refused != null) {
            return refused;
        }
        if (maxBytes != null && !target.equals("mds")) {
            return usageError("--max-bytes is for --to mds (a Megatron dataset and a token file are one file each)");
        }
        return new PackTokens(input, tokenizer, textField, target, output, !noEod, overwrite, quiet, maxBytes,
                spec.commandLine().getOut(), spec.commandLine().getErr()).run();
    }

    /** --to lmdb: the tar-only options refused, then the samples into one environment. */
    private int packLmdb(PackSource.Layout kind) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Integer refused = refuse(" for tar shards; --to lmdb writes one environment",
                "--max-samples", maxSamples != null, "--max-bytes", maxBytes != null, "--no-index", noIndex);
        if (refused != null) {
            return refused;
        }
        String dir = output == null ? "lmdb" : output;
        if (dir.contains("%")) {
            return usageError("--to lmdb writes one environment: -o names its folder, not a shard pattern ('" + dir + "')");
        }
        Path env = Path.of(dir);
        if (!overwrite && Files.exists(singleFile ? env : env.resolve("data.mdb"))) {
            return failure("there is already " + (singleFile ? "a file" : "an LMDB environment") + " at " + env
                    + "; --overwrite replaces an LMDB environment");
        }
        PackSource source = source(kind);
        if (source == null) {
            return CommandLine.ExitCode.SOFTWARE;
        }
        String problem = PackLmdb.problem(source);
        if (problem != null) {
            return failure(problem);
        }
        List<PackSource.Item> order = order(source);
        Totals totals;
        try {
            totals = Totals.of(order, item -> List.of(PackLmdb.values(item).getFirst()));
        } catch (IOException e) {
            return failure("cannot read " + input + ": " + message(e));
        }
        long totalBytes = totals.bytes();
        long totalFiles = totals.files();
        long start = System.nanoTime();
        LmdbWriter writer;
        try {
            writer = PackLmdb.open(env, source, order.size(), totalBytes, overwrite, singleFile);
        } catch (RuntimeException e) {
            return failure(message(e));
        }
        PackLmdb.Written written;
        try (PackProgress progress = PackProgress.create(err, totalFiles, totalBytes, quiet, source.unit())) {
            written = PackLmdb.write(writer, order, progress);
        } catch (IOException | RuntimeException e) {
            return failure("packing " + input + " into " + env + " failed: " + message(e)
                    + " (nothing was published: what this run wrote is deleted"
                    + (overwrite ? ", and the environment there before is as it was)" : ")"));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        summaryHead(out, source, order.size(), totalFiles, totalBytes);
        PackLmdb.describe(out, written);
        summaryTail(out, source, totalBytes, seconds);
        return CommandLine.ExitCode.OK;
    }

    /** --to mds: the tar- and lmdb-only options refused, then the samples into an MDS dataset. */
    private int packMds(PackSource.Layout kind) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Integer refused = refuse(" not for --to mds, which writes one folder of shards (--max-bytes sets their size)",
                "--max-samples", maxSamples != null, "--no-index", noIndex, "--overwrite", overwrite,
                "--single-file", singleFile);
        if (refused != null) {
            return refused;
        }
        String dir = output == null ? "mds" : output;
        if (dir.contains("%")) {
            return usageError("--to mds writes one folder: -o names it, not a shard pattern ('" + dir + "')");
        }
        MdsWriter.Builder builder = MdsWriter.builder(Path.of(dir));
        try {
            builder.compression(compression).sizeLimit(maxBytes != null ? maxBytes : MdsWriter.DEFAULT_SIZE_LIMIT);
            if (hashes != null) {
                builder.hashes(hashes.toArray(String[]::new));
            }
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        PackSource source = source(kind);
        if (source == null) {
            return CommandLine.ExitCode.SOFTWARE;
        }
        String problem = PackMds.problem(source);
        if (problem != null) {
            return failure(problem);
        }
        Map<String, String> columns = PackMds.columns(source);
        columns.forEach(builder::column);
        List<PackSource.Item> order = order(source);
        Totals totals;
        try {
            totals = Totals.of(order, PackSource.Item::fields);
        } catch (IOException e) {
            return failure("cannot read " + input + ": " + message(e));
        }
        long totalBytes = totals.bytes();
        long totalFiles = totals.files();
        MdsWriter writer;
        try {
            writer = builder.open();
        } catch (RuntimeException e) {
            return failure(message(e));
        }
        long start = System.nanoTime();
        PackMds.Written written;
        try (PackProgress progress = PackProgress.create(err, totalFiles, totalBytes, quiet, source.unit())) {
            written = PackMds.write(writer, columns, order, progress);
        } catch (IOException | RuntimeException e) {
            return failure("packing " + input + " into " + dir + " failed: " + message(e)
                    + " (nothing was published: what this run wrote is deleted)");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        summaryHead(out, source, order.size(), totalFiles, totalBytes);
        PackMds.describe(out, Path.of(dir), written);
        summaryTail(out, source, totalBytes, seconds);
        return CommandLine.ExitCode.OK;
    }

    /**
     * The usage error for the options given that the target does not take, or null: {@code pairs}
     * is option name, whether it was given, and so on; {@code why} ends the message.
     */
    private Integer refuse(String why, Object... pairs) {
        List<String> given = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if ((Boolean) pairs[i + 1]) {
                given.add((String) pairs[i]);
            }
        }
        return given.isEmpty() ? null
                : usageError(String.join(", ", given) + (given.size() == 1 ? " is" : " are") + why);
    }

    /** The files and bytes the samples' fields will read: what the progress bar counts towards. */
    private record Totals(long files, long bytes) {
        static Totals of(List<PackSource.Item> order,
                         java.util.function.Function<PackSource.Item, List<PackSource.Field>> fields) throws IOException {
            long files = 0;
            long bytes = 0;
            for (PackSource.Item item : order) {
                for (PackSource.Field f : fields.apply(item)) {
                    bytes += f.size();
                    files += f.input() ? 1 : 0;
                }
            }
            return new Totals(files, bytes);
        }
    }

    private List<PackSource.Item> order(PackSource source) {
        List<PackSource.Item> order = new ArrayList<>(source.samples());
        if (shuffle) {
            shuffle(order, seed);
        }
        return order;
    }

    private void summaryHead(PrintWriter out, PackSource source, long samples, long files, long bytes) {
        out.printf(Locale.ROOT, "packed %s (%s): %d samples from %d %s%s, %s%n", input, source.layout(), samples,
                files, source.unit(), files == 1 ? "" : "s", ByteSize.format(bytes));
        if (!source.classes().isEmpty()) {
            out.printf(Locale.ROOT, "  classes: %d (%s%s), labels 0..%d in sorted order%n", source.classes().size(),
                    String.join(", ", source.classes().subList(0, Math.min(5, source.classes().size()))),
                    source.classes().size() > 5 ? ", ..." : "", source.classes().size() - 1);
        }
    }

    private void summaryTail(PrintWriter out, PackSource source, long bytes, double seconds) {
        out.printf(Locale.ROOT, "  %.1f s, %s/s%s%n", seconds, ByteSize.format((long) (bytes / Math.max(seconds, 1e-9))),
                shuffle ? ", shuffled with seed " + seed : "");
        if (!source.skipped().isEmpty()) {
            out.printf(Locale.ROOT, "  skipped %d file%s %s, e.g. %s%n", source.skipped().size(),
                    source.skipped().size() == 1 ? "" : "s", source.classes().isEmpty() ? "with no extension"
                            : "at the top, beside the class folders", source.skipped().getFirst());
        }
        out.flush();
    }

    /** Fisher-Yates with SplitMix64 draws: the same order for the same seed everywhere. */
    static <T> void shuffle(List<T> list, long seed) {
        long stream = Seeds.mix(seed, 0);
        for (int i = list.size() - 1; i > 0; i--) {
            int j = (int) Seeds.below(Seeds.splitMix(stream, list.size() - 1 - i), i + 1);
            T t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
    }

    private static String message(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private int usageError(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("stoker pack: " + message);
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }

    /** The samples of INPUT, or null after saying why there are none to pack. */
    private PackSource source(PackSource.Layout kind) {
        PackSource source;
        try {
            source = PackSource.read(input, kind);
        } catch (IllegalArgumentException e) {
            failure(message(e)); // a mixed layout: the message says what to do
            return null;
        } catch (IOException | RuntimeException e) {
            failure("cannot read " + input + ": " + message(e));
            return null;
        }
        if (source.samples().isEmpty()) {
            failure(input + " holds no samples (" + source.layout() + ")");
            return null;
        }
        return source;
    }

    private int failure(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("stoker pack: " + message);
        err.flush();
        return CommandLine.ExitCode.SOFTWARE;
    }

    private static boolean compressed(String pattern) {
        return pattern.endsWith(".gz") || pattern.endsWith(".tgz");
    }
}
