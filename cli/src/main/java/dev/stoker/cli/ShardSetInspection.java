package dev.stoker.cli;

import dev.stoker.formats.tar.ShardSetManifest;
import dev.stoker.formats.tar.ShardSets;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What {@code stoker inspect} says of the set a tar shard belongs to: complete (its manifest lists
 * it, with its length), INCOMPLETE (a pack in progress or killed, or a manifest that disagrees with
 * the files), or no manifest (shards not written by Stoker, read as they are).
 */
final class ShardSetInspection {
    private ShardSetInspection() {}

    /** Whether a name is a set's manifest or in-progress mark. */
    static boolean isManifest(String name) {
        return name.endsWith(ShardSetManifest.SUFFIX) || name.endsWith(ShardSetManifest.PART_SUFFIX);
    }

    /** The manifests and marks in a folder, or none. */
    static List<Path> manifestsIn(Path folder) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> isManifest(p.getFileName().toString())).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The line about the set of one local shard; false when the set is not whole. */
    static boolean reportShard(PrintWriter out, Path shard) {
        ShardSets.Status status;
        try {
            status = ShardSets.status(shard);
        } catch (RuntimeException e) {
            out.println("  set: INCOMPLETE: " + e.getMessage());
            return false;
        }
        return switch (status) {
            case ShardSets.Status.Foreign f -> {
                out.println("  set: no manifest beside it (not written by stoker pack; read as it is)");
                yield true;
            }
            case ShardSets.Status.Complete c -> {
                out.println("  set: " + complete(c));
                yield true;
            }
            case ShardSets.Status.Incomplete i -> {
                out.println("  set: INCOMPLETE: " + i.why());
                yield false;
            }
        };
    }

    /** A set's manifest or mark given by name: whether every shard it lists is there, as listed. */
    static boolean inspectSet(PrintWriter out, Path manifest) {
        out.println(manifest + ": manifest of a set of tar shards");
        return switch (ShardSets.statusOfSet(manifest)) {
            case ShardSets.Status.Complete c -> {
                out.println("  " + complete(c));
                c.set().shards().stream().limit(5).forEach(s -> out.printf(Locale.ROOT, "    %s: %d samples, %s%s%n",
                        s.name(), s.samples(), ByteSize.format(s.bytes()), s.indexed() ? ", with .idx" : ""));
                if (c.set().shards().size() > 5) {
                    out.println("    ...");
                }
                yield true;
            }
            case ShardSets.Status.Incomplete i -> {
                out.println("  INCOMPLETE: " + i.why());
                yield false;
            }
            case ShardSets.Status.Foreign f -> true;
        };
    }

    /** The MDS shard files in a folder that has no index.json: a writer that never committed. */
    static List<Path> mdsShardsWithoutIndex(Path folder) {
        if (!Files.isDirectory(folder) || Files.exists(folder.resolve("index.json"))) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> p.getFileName().toString().matches("shard\\.\\d{5}\\.mds(\\.\\w+)?")).sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** What inspect says of such a folder: never a dataset. */
    static boolean inspectMdsWithoutIndex(PrintWriter out, Path folder, List<Path> shards) {
        out.printf(Locale.ROOT, "%s: INCOMPLETE MDS dataset: %d shard file%s (%s%s) and no index.json, which its"
                + " writer writes last: the write failed, is running or was killed. Write it again.%n", folder,
                shards.size(), shards.size() == 1 ? "" : "s", shards.getFirst().getFileName(),
                shards.size() > 1 ? " ... " + shards.getLast().getFileName() : "");
        return false;
    }

    private static String complete(ShardSets.Status.Complete c) {
        ShardSetManifest m = c.set();
        return String.format(Locale.ROOT, "complete: %d shard%s of %s, %d samples, written by %s at %s (%s)",
                m.shards().size(), m.shards().size() == 1 ? "" : "s", m.pattern(), m.samples(), m.writtenBy(),
                DateTimeFormatter.ISO_INSTANT.format(m.finished()), c.manifest().getFileName());
    }
}
