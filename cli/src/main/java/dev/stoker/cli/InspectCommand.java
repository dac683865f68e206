package dev.stoker.cli;

import dev.stoker.data.DataFiles;
import dev.stoker.data.NotRegularFileException;
import dev.stoker.data.DataFormatException;
import dev.stoker.formats.npy.NpyFile;
import dev.stoker.formats.npy.NpyHeader;
import dev.stoker.formats.remote.RemoteSettings;
import dev.stoker.formats.tar.IndexFormatException;
import dev.stoker.formats.tar.ShardIndex;
import dev.stoker.formats.tar.ShardPatterns;
import dev.stoker.formats.tar.ShardSources;
import dev.stoker.formats.tar.TarReader;
import dev.stoker.formats.tokens.TokenFile;
import dev.stoker.formats.tokens.TokenType;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code stoker inspect}: says what a tar shard, a shard index or a {@code .npy} file holds, and
 * what is wrong with it when something is.
 */
@Command(
        name = "inspect",
        sortOptions = false,
        header = "Show what a tar shard, shard index, MDS dataset, .npy or token file, Parquet, JSONL or Megatron"
                + " dataset holds.",
        description = {
            "Reads each file and prints what is inside it:",
            "",
            "  .tar   members, samples (grouped by key as WebDataset groups them), the",
            "         extensions with their counts and sizes, the first samples, and",
            "         whether the .idx beside it matches; an http(s):// URL is streamed",
            "  .idx   the shard index: samples, members, the shard length it describes",
            "  .npy   dtype, shape, memory order and the first entries",
            "  .bin   a flat token file (uint16 unless --tokens u32): count, first tokens",
            "  DIR    an MDS dataset (the folder of an index.json): samples, shards,",
            "         columns with their encodings, the first samples' values; or a",
            "         folder of tar shards written by stoker pack: whether each set",
            "         is complete (its NAME.stoker-manifest lists every shard) or",
            "         INCOMPLETE (a pack in progress or killed, shards changed)",
            "  .parquet, or a folder of them (a Hugging Face dataset with --split):",
            "         rows, row groups, columns, a histogram of the lengths of the",
            "         first list or text column, the first rows",
            "  .jsonl (.jsonl.gz)  lines, whether its line index (.lines) matches,",
            "         a histogram of line lengths, the first lines",
            "  PREFIX, PREFIX.idx or PREFIX.bin of a Megatron-LM / NeMo indexed",
            "         dataset: sequences, documents, dtype, a histogram of sequence",
            "         lengths, the first tokens of the first sequences",
            "",
            "A damaged file is reported with the byte offset of the damage; the exit",
            "status is 1 when any file had an error. Shard names may use braces:",
            "shard-{000000..000007}.tar.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker inspect shards/shard-000000.tar",
            "  stoker inspect 'shards/shard-{000000..000007}.tar' --samples 0",
            "  stoker inspect http://host/data/shard-000003.tar",
            "  stoker inspect shards/shard-000000.tar.idx data/labels.npy",
            "  stoker inspect --tokens u32 data/train.bin",
            "  stoker inspect data/mds/train",
            "  stoker inspect --split train /data/hf/my-dataset",
            "  stoker inspect data/train.jsonl data/wiki_text_document"
        })
final class InspectCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "The files (or shard URLs) to inspect.")
    List<String> files;

    @Option(names = {"-n", "--samples"}, paramLabel = "N", defaultValue = "5",
            description = "How many samples (or entries) to list per file (default: ${DEFAULT-VALUE}).")
    int show;

    @Option(names = "--tokens", paramLabel = "TYPE", defaultValue = "u16",
            description = "The token type of .bin files: u16 or u32 (default: ${DEFAULT-VALUE}).")
    String tokenType;

    @Option(names = "--split", paramLabel = "NAME",
            description = "For a Hugging Face dataset folder: the split to inspect (its"
                    + " data/NAME-NNNNN-of-MMMMM.parquet shards).")
    String split;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    /** Where errors go: standard error, while the reports go to standard output. */
    private PrintWriter err;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        List<String> names;
        try {
            names = ShardPatterns.expandAll(files);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("stoker inspect: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return CommandLine.ExitCode.USAGE;
        }
        boolean failed = false;
        for (String name : names) {
            String lower = name.toLowerCase(Locale.ROOT);
            boolean ok;
            Path megatron = ShardSources.isStreamed(name) ? null : LanguageModelInspection.megatronPrefix(name);
            if (ShardSources.isStreamed(name)) {
                ok = inspectShard(out, name);
            } else if (megatron != null) {
                ok = LanguageModelInspection.megatron(out, err, megatron, show);
            } else if (LanguageModelInspection.isJsonl(name)) {
                ok = LanguageModelInspection.jsonl(out, err, Path.of(name), show);
            } else if (Files.isRegularFile(Path.of(name).resolve("index.json")) || lower.endsWith("index.json")) {
                Path dir = lower.endsWith("index.json") ? Path.of(name).toAbsolutePath().getParent() : Path.of(name);
                ok = MdsInspection.inspect(out, err, dir, show);
            } else if (ShardSetInspection.isManifest(lower)) {
                ok = ShardSetInspection.inspectSet(out, Path.of(name));
            } else if (!ShardSetInspection.mdsShardsWithoutIndex(Path.of(name)).isEmpty()) {
                ok = ShardSetInspection.inspectMdsWithoutIndex(out, Path.of(name),
                        ShardSetInspection.mdsShardsWithoutIndex(Path.of(name)));
            } else if (!ShardSetInspection.manifestsIn(Path.of(name)).isEmpty()) {
                ok = ShardSetInspection.manifestsIn(Path.of(name)).stream()
                        .map(m -> ShardSetInspection.inspectSet(out, m)).reduce(true, Boolean::logicalAnd);
            } else if (split != null || LanguageModelInspection.isParquet(Path.of(name))) {
                ok = LanguageModelInspection.parquet(out, err, Path.of(name), split, show);
            } else if (lower.endsWith(".idx")) {
                ok = inspectIndex(out, Path.of(name));
            } else if (lower.endsWith(".npy")) {
                ok = inspectNpy(out, Path.of(name));
            } else if (lower.endsWith(".bin")) {
                ok = inspectTokens(out, Path.of(name));
            } else if (lower.endsWith(".tar") || lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) {
                ok = inspectShard(out, name);
            } else {
                error(out, name + ": not a file stoker inspect knows (.tar, .tar.gz, .idx, .npy, .bin, an MDS folder"
                        + " with its index.json, an http(s) shard URL or a pipe: command, .parquet or a folder of"
                        + " them, .jsonl, a Megatron dataset's prefix)");
                ok = false;
            }
            failed |= !ok;
            out.println();
        }
        out.flush();
        return failed ? 1 : CommandLine.ExitCode.OK;
    }

    /** Why {@code path}, not a regular file, cannot be read: "no such file", or what it is (a FIFO, a device, a folder). */
    private static String notAFile(Path path) {
        try {
            DataFiles.requireRegularFile(path);
            return "no such file"; // it became one since: say what was seen
        } catch (NotRegularFileException e) {
            return e.getReason();
        } catch (IOException e) {
            return "no such file";
        }
    }

    /** An error line to standard error, after what the report has written so far (the two may share a terminal). */
    private void error(PrintWriter out, String line) {
        out.flush();
        err.println(line);
        err.flush();
    }

    private boolean inspectShard(PrintWriter out, String name) {
        boolean streamed = ShardSources.isStreamed(name);
        if (!streamed && !Files.isRegularFile(Path.of(name))) {
            error(out, name + ": error: " + notAFile(Path.of(name)));
            return false;
        }
        boolean compressed = ShardSources.isCompressedLocal(name);
        ShardReport r = new ShardReport(show);
        long length = -1;
        try (Arena arena = Arena.ofConfined();
             TarReader tar = ShardSources.open(name, arena, RemoteSettings.defaultClient(),
                     RemoteSettings.DEFAULT_READ_AHEAD)) {
            if (!streamed) {
                length = Files.size(Path.of(name));
            }
            while (tar.hasNext()) {
                r.add(tar.next());
            }
        } catch (DataFormatException e) { // a damaged shard, or one that could not be fetched
            r.error = e.getMessage();
        } catch (IOException e) {
            r.error = e.getMessage();
        }
        r.finishSample();
        out.printf(Locale.ROOT, "%s: %star shard%s%n", name, compressed ? "gzip-compressed " : "",
                length >= 0 ? ", " + ByteSize.format(length) : "");
        out.printf(Locale.ROOT, "  %d sample%s, %d member%s, %s of member data%n", r.samples, r.samples == 1 ? "" : "s",
                r.members, r.members == 1 ? "" : "s",
                ByteSize.format(r.dataBytes));
        if (!r.extensions.isEmpty()) {
            out.println("  extensions:");
            for (Map.Entry<String, ShardReport.ExtensionStats> e : r.extensions.entrySet()) {
                ShardReport.ExtensionStats s = e.getValue();
                out.printf(Locale.ROOT, "    %-10s %6d  %s  (min %s, mean %s, max %s)%n", e.getKey(), s.count,
                        ByteSize.format(s.bytes), ByteSize.format(s.min), ByteSize.format(s.bytes / s.count),
                        ByteSize.format(s.max));
            }
        }
        if (r.unkeyed > 0) {
            out.printf(Locale.ROOT, "  %d member%s with no extension (belong to no sample)%n", r.unkeyed,
                    r.unkeyed == 1 ? "" : "s");
        }
        if (!r.firstSamples.isEmpty()) {
            out.printf(Locale.ROOT, "  first samples:%n");
            r.firstSamples.forEach(s -> out.println("    " + s));
        }
        boolean ok = r.error == null;
        if (!ok) {
            error(out, name + ": error: " + r.error + " (the counts reported cover what was read before it)");
        }
        if (!streamed && !compressed) { // a compressed shard is streamed: an index could not seek in it
            ok &= checkSidecar(out, Path.of(name), length, r);
        }
        if (!streamed) {
            ok &= ShardSetInspection.reportShard(out, Path.of(name));
        }
        return ok;
    }

    private boolean checkSidecar(PrintWriter out, Path shard, long length, ShardReport r) {
        Path sidecar = ShardIndex.sidecar(shard);
        if (!Files.exists(sidecar)) {
            out.println("  index: none (stoker index " + shard + " writes one)");
            return true;
        }
        try {
            ShardIndex idx = ShardIndex.read(sidecar, length);
            if (r.error == null && idx.sampleCount() != r.samples) {
                error(out, String.format(Locale.ROOT, "%s: error: %s lists %d samples but the shard has %d", shard,
                        sidecar.getFileName(), idx.sampleCount(), r.samples));
                return false;
            }
            out.printf(Locale.ROOT, "  index: %s matches (%d samples)%n", sidecar.getFileName(), idx.sampleCount());
            return true;
        } catch (IndexFormatException e) {
            error(out, sidecar + ": error: " + e.getMessage());
            return false;
        }
    }

    private boolean inspectIndex(PrintWriter out, Path file) {
        try {
            ShardIndex idx = ShardIndex.read(file);
            out.printf(Locale.ROOT, "%s: shard index, %d samples, %d members, describes a shard of %s%n", file,
                    idx.sampleCount(), idx.memberCount(), ByteSize.format(idx.shardLength()));
            for (int i = 0; i < Math.min(show, idx.sampleCount()); i++) {
                out.printf(Locale.ROOT, "    %s: %s (%s)%n", idx.key(i), String.join(" ", idx.extensions(i)),
                        ByteSize.format(idx.sampleBytes(i)));
            }
            String shardName = file.getFileName().toString();
            Path shard = file.resolveSibling(shardName.substring(0, shardName.length() - 4));
            if (Files.isRegularFile(shard) && Files.size(shard) != idx.shardLength()) {
                error(out, String.format(Locale.ROOT, "%s: error: %s is %d bytes, not %d: the index is stale", file,
                        shard.getFileName(), Files.size(shard), idx.shardLength()));
                return false;
            }
            return true;
        } catch (IndexFormatException | IOException | java.io.UncheckedIOException e) {
            error(out, file + ": error: " + e.getMessage());
            return false;
        }
    }

    private boolean inspectNpy(PrintWriter out, Path file) {
        try (NpyFile npy = NpyFile.open(file)) {
            NpyHeader h = npy.header();
            out.printf(Locale.ROOT, "%s: NumPy .npy version %d.%d, dtype %s, shape %s, %s order, %s of data at offset %d%n",
                    file, h.major(), h.minor(), h.dtype(), h.shape(), h.fortranOrder() ? "Fortran" : "C",
                    ByteSize.format(h.dataBytes()), h.dataOffset());
            Tensor t = npy.tensor();
            long n = Math.min(show, t.elements());
            List<String> first = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                first.add(t.dtype().isFloatingPoint() ? Double.toString(t.getDouble(i)) : Long.toString(t.getLong(i)));
            }
            if (n > 0) {
                out.println("  first entries: " + String.join(", ", first) + (t.elements() > n ? ", ..." : ""));
            }
            return true;
        } catch (Exception e) {
            error(out, file + ": error: " + e.getMessage());
            return false;
        }
    }

    private boolean inspectTokens(PrintWriter out, Path file) {
        TokenType type;
        try {
            type = TokenType.valueOf(tokenType.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            error(out, file + ": error: --tokens is u16 or u32, not '" + tokenType + "'");
            return false;
        }
        try (TokenFile tokens = TokenFile.open(file, type)) {
            out.printf(Locale.ROOT, "%s: token file, %d %s tokens (%s)%n", file, tokens.size(),
                    type.name().toLowerCase(Locale.ROOT), ByteSize.format(tokens.size() * type.bytes()));
            long n = Math.min(show, tokens.size());
            List<String> first = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                first.add(Long.toString(tokens.get(i)));
            }
            if (n > 0) {
                out.println("  first tokens: " + String.join(", ", first) + (tokens.size() > n ? ", ..." : ""));
            }
            return true;
        } catch (Exception e) {
            error(out, file + ": error: " + e.getMessage());
            return false;
        }
    }
}
