package dev.stoker.formats.tar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Whether local shards belong to a whole set: the readers' half of {@link ShardSetManifest}.
 * A shard whose folder holds the in-progress mark of a writer whose pattern names it is refused
 * (the set is being written, or its writer was killed); a shard whose folder holds a manifest whose
 * pattern names it must be listed there with the same length; a shard named by no manifest and no
 * mark was not written by Stoker's {@link ShardWriter} and reads as before.
 *
 * <pre>{@code
 * ShardSets.check(List.of("shards/shard-000000.tar", "shards/shard-000001.tar")); // throws when not whole
 * }</pre>
 *
 * <p>NOTE: the check lists each shard's folder once, when a dataset is built; remote shards
 * (http, pipe) are not checked, since a URL has no folder to list.
 */
public final class ShardSets {
    private ShardSets() {}

    /** What is known of the set a shard belongs to. */
    public sealed interface Status {
        /** No manifest or mark names the shard: not written by Stoker's writer, read as before. */
        record Foreign() implements Status {}

        /**
         * The shard is listed, with its length, in a complete set's manifest.
         *
         * @param manifest the manifest file
         * @param set      what it says
         */
        record Complete(Path manifest, ShardSetManifest set) implements Status {}

        /**
         * The shard must not be read as part of a whole set.
         *
         * @param file the mark or manifest that says so
         * @param why  what is wrong, for a person
         */
        record Incomplete(Path file, String why) implements Status {}
    }

    /**
     * Refuses shards that belong to a set not whole; names that are streamed (URLs, pipes) are
     * passed over.
     *
     * @throws ShardSetException naming the shard and the mark or manifest
     */
    public static void check(List<String> shards) {
        Map<Path, List<Marker>> folders = new HashMap<>();
        for (String name : shards) {
            if (ShardSources.isStreamed(name)) {
                continue;
            }
            Path shard;
            try {
                shard = ShardSources.localPath(name);
            } catch (RuntimeException e) {
                continue; // not a path: the reader itself says so when it opens it
            }
            if (status(shard, folders) instanceof Status.Incomplete(Path file, String why)) {
                throw new ShardSetException(why);
            }
        }
    }

    /** What is known of the set of the local shard {@code shard}. */
    public static Status status(Path shard) {
        return status(shard, new HashMap<>());
    }

    /**
     * Whether the set a manifest (or in-progress mark) describes is whole: every shard it lists
     * there with its length, and no in-progress mark beside it.
     */
    public static Status statusOfSet(Path manifestOrMark) {
        String name = manifestOrMark.getFileName().toString();
        ShardSetManifest m;
        try {
            m = ShardSetManifest.read(manifestOrMark);
        } catch (ShardSetException e) {
            return new Status.Incomplete(manifestOrMark, e.getMessage());
        }
        if (name.endsWith(ShardSetManifest.PART_SUFFIX) || !m.complete()) {
            return new Status.Incomplete(manifestOrMark, inProgress(manifestOrMark, m, null));
        }
        Path mark = manifestOrMark.resolveSibling(name + ".part");
        if (Files.exists(mark)) {
            return new Status.Incomplete(mark, inProgress(mark, safeRead(mark), null));
        }
        for (ShardSetManifest.Shard s : m.shards()) {
            Path shard = manifestOrMark.resolveSibling(s.name());
            String problem = mismatch(shard, s, manifestOrMark);
            if (problem != null) {
                return new Status.Incomplete(manifestOrMark, problem);
            }
        }
        return new Status.Complete(manifestOrMark, m);
    }

    private static Status status(Path shard, Map<Path, List<Marker>> folders) {
        if (!Files.exists(shard)) {
            return new Status.Foreign(); // nothing to judge: the reader says the shard is missing
        }
        Path folder = shard.toAbsolutePath().getParent();
        List<Marker> markers = folders.computeIfAbsent(folder, ShardSets::markers);
        String fileName = shard.getFileName().toString();
        for (Marker k : markers) {
            if (!k.names(fileName)) {
                continue;
            }
            if (k.error != null) {
                return new Status.Incomplete(k.file, "shard " + shard + " is named by " + k.file
                        + ", which cannot be read: " + k.error);
            }
            if (k.mark || !k.set.complete()) {
                return new Status.Incomplete(k.file, inProgress(k.file, k.set, shard));
            }
            ShardSetManifest.Shard listed = k.set.shard(fileName);
            if (listed == null) {
                return new Status.Incomplete(k.file, "shard " + shard + " is not part of the set " + k.file
                        + " describes (" + k.set.shards().size() + " shards of " + k.set.pattern()
                        + "): a leftover of another run? Delete it, or pack again with --overwrite");
            }
            String problem = mismatch(shard, listed, k.file);
            if (problem != null) {
                return new Status.Incomplete(k.file, problem);
            }
            return new Status.Complete(k.file, k.set);
        }
        return new Status.Foreign();
    }

    private static String mismatch(Path shard, ShardSetManifest.Shard listed, Path manifest) {
        long size;
        try {
            size = Files.size(shard);
        } catch (IOException e) {
            return "shard " + shard + " is listed in " + manifest + " but cannot be read: " + e.getMessage();
        }
        if (size != listed.bytes()) {
            return "shard " + shard + " is " + size + " bytes, and the set's manifest " + manifest + " says "
                    + listed.bytes() + ": the shard was changed after the set was written";
        }
        return null;
    }

    private static String inProgress(Path file, ShardSetManifest m, Path shard) {
        String who = m == null ? "" : " (" + m.writtenBy() + ", started " + m.started() + ")";
        return (shard == null ? "the set" : "shard " + shard + " belongs to a set that") + " is still being written"
                + " or its writer was killed: " + file + who + " marks it in progress. Pack it again (stoker pack"
                + " --overwrite), or, when no writer runs and the shards are known whole, delete " + file;
    }

    private static ShardSetManifest safeRead(Path file) {
        try {
            return ShardSetManifest.read(file);
        } catch (ShardSetException e) {
            return null;
        }
    }

    /** A manifest or mark in a folder: what it says, or why it cannot be read. */
    private record Marker(Path file, boolean mark, String stem, ShardNamePattern pattern, ShardSetManifest set,
                          String error) {
        boolean names(String fileName) {
            // an unreadable marker still stands for the names that start as its own does
            return pattern != null ? pattern.matches(fileName) : fileName.startsWith(stem);
        }
    }

    private static List<Marker> markers(Path folder) {
        List<Marker> out = new ArrayList<>();
        if (folder == null || !Files.isDirectory(folder)) {
            return out;
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(folder)) {
            files = list.filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(ShardSetManifest.SUFFIX) || n.endsWith(ShardSetManifest.PART_SUFFIX);
            }).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw new ShardSetException(folder + ": cannot list it for the manifests of its shard sets: "
                    + e.getMessage(), e);
        }
        // marks first: a set being written is refused even where an older manifest still names it
        for (boolean marks : new boolean[] {true, false}) {
            for (Path file : files) {
                String n = file.getFileName().toString();
                boolean mark = n.endsWith(ShardSetManifest.PART_SUFFIX);
                if (mark != marks) {
                    continue;
                }
                String stem = n.substring(0, n.length() - (mark ? ShardSetManifest.PART_SUFFIX
                        : ShardSetManifest.SUFFIX).length());
                try {
                    ShardSetManifest m = ShardSetManifest.read(file);
                    out.add(new Marker(file, mark, stem, ShardNamePattern.of(m.pattern()), m, null));
                } catch (ShardSetException | IllegalArgumentException e) {
                    out.add(new Marker(file, mark, stem, null, null, e.getMessage()));
                }
            }
        }
        return out;
    }
}
