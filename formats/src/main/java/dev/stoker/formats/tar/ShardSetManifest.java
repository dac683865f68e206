package dev.stoker.formats.tar;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The mark of a whole set of shards: {@link ShardWriter} writes it beside the shards, under
 * {@code <stem>.stoker-manifest}, as the last step of {@link ShardWriter#commit()}. While a set is
 * being written (or after its writer was killed) the same text stands under
 * {@code <stem>.stoker-manifest.part} in state {@code writing}: readers that find it refuse the
 * pattern's shards, and readers that find a manifest check the shards against it
 * ({@link ShardSets}). Shards without either were not written by Stoker and read as before.
 *
 * <p>The text is UTF-8, one field per line, tab-separated, so that a person or a script reads it
 * without a library:
 *
 * <pre>
 * stoker-shard-set	1
 * state	complete
 * pattern	shard-%06d.tar
 * written-by	stoker pack
 * started	2026-11-25T14:00:00Z
 * finished	2026-11-25T14:00:09Z
 * samples	800
 * shard	shard-000000.tar	50	524288	idx
 * </pre>
 *
 * @param pattern   the file-name pattern of the shards ({@code String.format} with their numbers)
 * @param complete  whether the set was committed (false in the in-progress mark)
 * @param writtenBy what wrote it, e.g. {@code stoker pack}
 * @param started   when the writer started
 * @param finished  when it committed (null while writing)
 * @param shards    the shards, in order (empty while writing)
 */
public record ShardSetManifest(String pattern, boolean complete, String writtenBy, Instant started,
                               Instant finished, List<Shard> shards) {
    /** What a manifest's name ends in. */
    public static final String SUFFIX = ".stoker-manifest";
    /** What the in-progress mark's name ends in. */
    public static final String PART_SUFFIX = SUFFIX + ".part";
    private static final String MAGIC = "stoker-shard-set";
    // A manifest of a million shards is some 50 MB; anything larger is not one.
    private static final long MAX_BYTES = 64L << 20;

    /**
     * One shard of the set.
     *
     * @param name    its file name, beside the manifest
     * @param samples how many samples it holds
     * @param bytes   its length in bytes
     * @param indexed whether its {@code .idx} sidecar was written with it
     */
    public record Shard(String name, long samples, long bytes, boolean indexed) {}

    public ShardSetManifest {
        shards = List.copyOf(shards);
    }

    /** The samples of all shards. */
    public long samples() {
        return shards.stream().mapToLong(Shard::samples).sum();
    }

    /** The shard called {@code fileName}, or null when the set has none of that name. */
    public Shard shard(String fileName) {
        for (Shard s : shards) {
            if (s.name().equals(fileName)) {
                return s;
            }
        }
        return null;
    }

    static String nameFor(String stem) {
        return stem + SUFFIX;
    }

    /** The text of this manifest. */
    String text() {
        StringBuilder b = new StringBuilder();
        b.append(MAGIC).append("\t1\n");
        b.append("state\t").append(complete ? "complete" : "writing").append('\n');
        b.append("pattern\t").append(pattern).append('\n');
        b.append("written-by\t").append(writtenBy.replace('\t', ' ').replace('\n', ' ')).append('\n');
        b.append("started\t").append(started).append('\n');
        if (finished != null) {
            b.append("finished\t").append(finished).append('\n');
        }
        b.append("samples\t").append(samples()).append('\n');
        for (Shard s : shards) {
            b.append("shard\t").append(s.name()).append('\t').append(s.samples()).append('\t').append(s.bytes())
                    .append('\t').append(s.indexed() ? "idx" : "-").append('\n');
        }
        return b.toString();
    }

    /** Writes the text to {@code file} (not atomically: callers rename it into place). */
    void writeTo(Path file) {
        try {
            Files.writeString(file, text(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the shard set manifest " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a manifest or an in-progress mark.
     *
     * @throws ShardSetException naming the file and line when it is not one (the file is untrusted)
     */
    public static ShardSetManifest read(Path file) {
        String text;
        try {
            DataFiles.requireRegularFile(file); // a FIFO would block the read, a device read without end
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ShardSetException(file + ": " + size + " bytes, more than a shard set manifest has");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            throw new ShardSetException(file + ": cannot read the shard set manifest: " + e.getMessage(), e);
        }
        String[] lines = text.split("\n", -1);
        String state = null;
        String pattern = null;
        String writtenBy = "";
        Instant started = null;
        Instant finished = null;
        long samples = -1;
        List<Shard> shards = new ArrayList<>();
        if (lines.length == 0 || !lines[0].equals(MAGIC + "\t1")) {
            throw new ShardSetException(file + ": not a Stoker shard set manifest (its first line is not \""
                    + MAGIC + "<tab>1\")");
        }
        for (int n = 1; n < lines.length; n++) {
            String line = lines[n];
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            try {
                switch (f[0]) {
                    case "state" -> state = field(f, 2)[1];
                    case "pattern" -> pattern = field(f, 2)[1];
                    case "written-by" -> writtenBy = field(f, 2)[1];
                    case "started" -> started = Instant.parse(field(f, 2)[1]);
                    case "finished" -> finished = Instant.parse(field(f, 2)[1]);
                    case "samples" -> samples = count(field(f, 2)[1]);
                    case "shard" -> {
                        field(f, 5);
                        if (f[1].isEmpty() || f[1].contains("/") || f[1].contains("\\") || f[1].equals("..")) {
                            throw new IllegalArgumentException("shard name \"" + f[1] + "\" is not a file name");
                        }
                        shards.add(new Shard(f[1], count(f[2]), count(f[3]), switch (f[4]) {
                            case "idx" -> true;
                            case "-" -> false;
                            default -> throw new IllegalArgumentException("index field is \"" + f[4]
                                    + "\", not idx or -");
                        }));
                    }
                    default -> throw new IllegalArgumentException("unknown field \"" + f[0] + "\"");
                }
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new ShardSetException(file, n + 1, e.getMessage(), e);
            }
        }
        if (state == null || pattern == null || started == null) {
            throw new ShardSetException(file + ": no " + (state == null ? "state" : pattern == null ? "pattern"
                    : "started") + " line");
        }
        boolean complete = switch (state) {
            case "complete" -> true;
            case "writing" -> false;
            default -> throw new ShardSetException(file + ": state \"" + state + "\" is neither complete nor writing");
        };
        ShardSetManifest m = new ShardSetManifest(pattern, complete, writtenBy, started, finished, shards);
        if (complete && (finished == null || samples != m.samples())) {
            throw new ShardSetException(file + ": " + (finished == null ? "a complete set with no finished line"
                    : "says " + samples + " samples but its shards hold " + m.samples()));
        }
        return m;
    }

    private static String[] field(String[] f, int n) {
        if (f.length != n) {
            throw new IllegalArgumentException("\"" + f[0] + "\" takes " + (n - 1) + " value" + (n == 2 ? "" : "s")
                    + " and has " + (f.length - 1));
        }
        return f;
    }

    private static long count(String s) {
        long v = Long.parseLong(s);
        if (v < 0) {
            throw new IllegalArgumentException("negative count " + v);
        }
        return v;
    }
}
