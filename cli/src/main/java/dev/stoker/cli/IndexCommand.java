package dev.stoker.cli;

import dev.stoker.data.DataFormatException;
import dev.stoker.formats.remote.RemoteSettings;
import dev.stoker.formats.tar.IndexedTarDataset;
import dev.stoker.formats.tar.ShardIndex;
import dev.stoker.formats.tar.ShardPatterns;
import dev.stoker.formats.tar.ShardSources;
import dev.stoker.formats.tar.TarReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stoker index}: writes the {@code .idx} sidecar of tar shards made elsewhere. */
@Command(
        name = "index",
        sortOptions = false,
        header = "Write the .idx index beside tar shards made elsewhere.",
        description = {
            "Reads each shard once and writes SHARD.idx beside it: the key of every",
            "sample and where its members lie, so that Stoker can read the shards in",
            "any order. The shards themselves are not changed. Shards that already",
            "have an index are left alone unless --force.",
            "",
            "Remote shards (http(s):// URLs, pipe: commands) are streamed once and",
            "their indices written into --out DIR, named after the shard",
            "(train-000001.tar -> DIR/train-000001.tar.idx), to be uploaded beside",
            "the shards for RemoteTarDataset.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker index 'shards/shard-{000000..000007}.tar'",
            "  stoker index --force shards/*.tar",
            "  stoker index -o idx 'https://host/train-{000000..000099}.tar'"
        })
final class IndexCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SHARD", arity = "1..*", description = "The shards (brace patterns allowed).")
    List<String> shards;

    @Option(names = "--force", description = "Rewrite indices that exist already.")
    boolean force;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "Where the indices of remote shards go (needed for them; local shards' go beside them).")
    Path outDir;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> names;
        try {
            names = ShardPatterns.expandAll(shards);
        } catch (IllegalArgumentException e) {
            err.println("stoker index: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.USAGE;
        }
        int failed = 0;
        int written = 0;
        for (String name : names) {
            try {
                if (ShardSources.isStreamed(name)) {
                    if (outDir == null) {
                        err.println("stoker index: " + name + " is remote: say where its index goes with --out DIR");
                        failed++;
                        continue;
                    }
                    Path target = outDir.resolve(RemoteNames.fileName(name) + ".idx");
                    if (Files.exists(target) && !force) {
                        out.println(name + ": " + target + " exists already (--force rewrites it)");
                        continue;
                    }
                    Files.createDirectories(outDir);
                    try (Arena arena = Arena.ofConfined(); TarReader reader = ShardSources.open(name, arena,
                            RemoteSettings.defaultClient(), RemoteSettings.DEFAULT_READ_AHEAD)) {
                        ShardIndex.scanStream(reader).write(target);
                    }
                    written++;
                    out.println("wrote " + target + " (upload it beside " + name + ")");
                    continue;
                }
                List<Path> w = IndexedTarDataset.indexAll(List.of(name), force);
                written += w.size();
                out.println(w.isEmpty() ? name + ": has an index already (--force rewrites it)" : "wrote " + w.getFirst());
            } catch (DataFormatException | IOException | UncheckedIOException | IllegalArgumentException e) {
                failed++;
                err.println("stoker index: " + e.getMessage());
            }
        }
        out.printf("%d index file%s written, %d shard%s failed%n", written, written == 1 ? "" : "s", failed,
                failed == 1 ? "" : "s");
        out.flush();
        err.flush();
        return failed > 0 ? 1 : CommandLine.ExitCode.OK;
    }
}
