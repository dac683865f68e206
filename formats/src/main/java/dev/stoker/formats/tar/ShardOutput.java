package dev.stoker.formats.tar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The folder a set of shards is written into, seen as a set: what an earlier set of the pattern
 * left there, the in-progress mark of this one, and its manifest at the end (see
 * {@link ShardSetManifest}). {@link ShardWriter} uses one; so does a job whose shards are written
 * by several writers (Spark's partitions), which marks the set before they start and commits it
 * once they all finished.
 *
 * <pre>{@code
 * ShardOutput set = ShardOutput.open("out/part-%05d-%06d.tar", false, "my job"); // refuses an old set
 * ... every shard written under a temporary name, then renamed to its own ...
 * set.commit(shards);   // deletes an old set's rest (overwrite), then writes the manifest, last
 * }</pre>
 */
public final class ShardOutput {
    private final Path dir;
    private final ShardNamePattern names;
    private final Path mark;
    private final Path manifest;
    private final String writtenBy;
    private final Instant started;
    private final boolean tookOverMark;
    private final boolean overwrite;

    private ShardOutput(Path dir, ShardNamePattern names, String writtenBy, boolean tookOverMark, boolean overwrite) {
        this.dir = dir;
        this.names = names;
        this.manifest = dir.resolve(names.manifestName());
        this.mark = dir.resolve(names.manifestName() + ".part");
        this.writtenBy = writtenBy;
        this.started = Instant.now();
        this.tookOverMark = tookOverMark;
        this.overwrite = overwrite;
    }

    /**
     * Checks the folder of {@code pattern} (a {@link String#format} pattern whose numbers are all
     * in the file name; {@code %%} for a {@code %} in the folder) for an earlier set and marks this
     * one in progress.
     *
     * @param overwrite whether an earlier set of the pattern (or a killed writer's mark) may be
     *                  replaced; refused when not
     * @param writtenBy what the manifest says wrote the set
     * @throws IllegalStateException    an earlier set or a mark is there and {@code overwrite} is off
     * @throws IllegalArgumentException a number in the folder part, a conversion that is not a
     *                                  number, or another pattern's manifest under the same name
     * @throws UncheckedIOException     when the folder cannot be made, listed or written
     */
    public static ShardOutput open(String pattern, boolean overwrite, String writtenBy) {
        int slash = Math.max(pattern.lastIndexOf('/'), pattern.lastIndexOf(java.io.File.separatorChar));
        String folder = slash < 0 ? "" : pattern.substring(0, slash + 1);
        if (folder.replace("%%", "").contains("%")) {
            throw new IllegalArgumentException("shard name pattern \"" + pattern + "\" puts the shard number in"
                    + " the folder; a set of shards lives in one folder, with the number in the file name");
        }
        ShardNamePattern names = ShardNamePattern.of(pattern.substring(slash + 1));
        Path dir = Path.of(folder.isEmpty() ? "." : folder.replace("%%", "%"));
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the folder " + dir + " for shards: " + e.getMessage(), e);
        }
        Path manifest = dir.resolve(names.manifestName());
        Path mark = dir.resolve(names.manifestName() + ".part");
        if (Files.exists(manifest)) {
            try {
                ShardSetManifest old = ShardSetManifest.read(manifest);
                if (!old.pattern().equals(names.text())) {
                    throw new IllegalArgumentException(manifest + " is the manifest of the shards " + old.pattern()
                            + "; shards " + names.text() + " would need the same name: give them another start");
                }
            } catch (ShardSetException e) {
                if (!overwrite) {
                    throw new IllegalStateException(e.getMessage() + " (overwrite replaces it)", e);
                }
            }
        }
        boolean marked = Files.exists(mark);
        if (marked && !overwrite) {
            throw new IllegalStateException("shards " + names.text() + " in " + dir + " are being written, or their"
                    + " writer was killed: " + mark + " marks them in progress. Overwrite them (stoker pack"
                    + " --overwrite), or delete " + mark + " when no writer runs");
        }
        if (!overwrite) {
            List<Path> old = owned(dir, names, Set.of());
            if (!old.isEmpty() || Files.exists(manifest)) {
                String some = old.stream().limit(3).map(p -> p.getFileName().toString())
                        .reduce((a, b) -> a + ", " + b).orElse(manifest.getFileName().toString());
                throw new IllegalStateException(dir + " already holds a set of shards " + names.text() + " (" + some
                        + (old.size() > 3 ? ", ..." : "") + "); overwrite replaces it (stoker pack --overwrite),"
                        + " or choose another name");
            }
        }
        ShardOutput out = new ShardOutput(dir, names, writtenBy, marked, overwrite);
        String text = new ShardSetManifest(names.text(), false, writtenBy, out.started, null, List.of()).text();
        try {
            if (marked) {
                Files.writeString(mark, text, StandardCharsets.UTF_8);
            } else {
                Files.writeString(mark, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
            }
        } catch (FileAlreadyExistsException e) {
            throw new IllegalStateException("another writer started writing shards " + names.text() + " in " + dir
                    + " just now (" + mark + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark shards " + names.text() + " in progress (" + mark + "): "
                    + e.getMessage(), e);
        }
        return out;
    }

    /** The folder of the shards. */
    public Path folder() {
        return dir;
    }

    /** Where the set's manifest goes at {@link #commit}. */
    public Path manifest() {
        return manifest;
    }

    /** The in-progress mark, there from {@link #open} until {@link #commit} or {@link #withdraw}. */
    public Path mark() {
        return mark;
    }

    /**
     * Publishes the set: with overwrite, deletes the files of the pattern that the set does not
     * list (an old set's rest: shards, their sidecars, temporary names), then writes the manifest
     * into the mark and renames it to its name, last. Every listed shard must have its name by now.
     *
     * @throws IOException when a file cannot be deleted or written; the mark then stays
     * @throws IllegalArgumentException when a listed shard is not a name of the pattern in the folder
     */
    public void commit(List<ShardSetManifest.Shard> shards) throws IOException {
        Set<String> kept = new HashSet<>();
        for (ShardSetManifest.Shard s : shards) {
            if (!names.matches(s.name())) {
                throw new IllegalArgumentException("shard " + s.name() + " is not a name of " + names.text());
            }
            kept.add(s.name());
            if (s.indexed()) {
                kept.add(s.name() + ".idx");
            }
        }
        if (overwrite) {
            for (Path p : owned(dir, names, kept)) {
                Files.deleteIfExists(p);
            }
        }
        new ShardSetManifest(names.text(), true, writtenBy, started, Instant.now(), shards).writeTo(mark);
        Files.move(mark, manifest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Takes the mark back after an abort that published nothing, unless it was a killed writer's
     * mark taken over (what that writer left may still be half published). Call it only when no
     * file of the set got its name.
     */
    public void withdraw() {
        if (!tookOverMark) {
            try {
                Files.deleteIfExists(mark);
            } catch (IOException e) {
                // the mark stays: readers refuse the pattern until it is removed, which is safe
            }
        }
    }

    /**
     * The files in {@code dir} that belong to the pattern and are not in {@code keep}: its shard
     * names, their sidecars, and the temporary names of both.
     */
    private static List<Path> owned(Path dir, ShardNamePattern names, Set<String> keep) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> {
                String n = p.getFileName().toString();
                return !keep.contains(n) && names.matches(base(n)) && Files.isRegularFile(p);
            }).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /** The shard name a file stands for: itself, or without {@code .idx}, {@code .part}, {@code .tmp}. */
    private static String base(String name) {
        for (String suffix : List.of(".tmp", ".part", ".idx")) {
            if (name.endsWith(suffix)) {
                name = name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }
}
