package dev.stoker.cli;

import dev.stoker.data.DataFiles;
import dev.stoker.formats.folder.FileNames;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.formats.folder.LabeledFile;
import dev.stoker.formats.tar.SampleKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What {@code stoker pack} turns into shards: a list of samples, each a key and its fields, found in
 * an image folder, a folder of files grouped by key, or a JSONL file. Contents are read only when
 * the sample is written, so listing a large folder costs no memory beyond the names.
 *
 * @param layout      how the input was read (for the summary)
 * @param samples     the samples in input order
 * @param classes     the class names of an image folder, in label order (empty otherwise)
 * @param skipped     input files that belong to no sample (no extension, or beside an image
 *                    folder's classes), by name
 * @param unit        what one input is, for the counts: {@code file}, or {@code line} for JSONL
 */
record PackSource(String layout, List<Item> samples, List<String> classes, List<String> skipped, String unit) {

    /**
     * One field: bytes from a file, or bytes given inline (a label, a JSON line); {@code input}
     * says whether it counts as one input read (a file, a line), not one made up (a label).
     */
    record Field(String extension, Path file, byte[] inline, boolean input) {
        Field(String extension, Path file, byte[] inline) {
            this(extension, file, inline, file != null);
        }

        long size() throws IOException {
            return file != null ? Files.size(file) : inline.length;
        }

        byte[] read() throws IOException {
            if (file == null) {
                return inline;
            }
            DataFiles.requireRegularFile(file); // listed as one, but it may have changed since
            long size = Files.size(file);
            if (size > Integer.MAX_VALUE - 16) {
                throw new IOException(file + " is " + size + " bytes; pack takes files under 2 GiB");
            }
            return Files.readAllBytes(file);
        }
    }

    /**
     * One sample: its key and fields in the order they are written, and its class index in an
     * image folder (also in its {@code cls} field), or -1.
     */
    record Item(String key, List<Field> fields, int label) {
        Item(String key, List<Field> fields) {
            this(key, fields, -1);
        }
    }

    /** The layouts pack understands. */
    enum Layout { AUTO, IMAGEFOLDER, FILES, JSONL }

    static PackSource read(Path input, Layout layout) throws IOException {
        if (!Files.exists(input)) {
            throw new IOException("there is no " + input);
        }
        Layout chosen = layout == Layout.AUTO ? detect(input) : layout;
        return switch (chosen) {
            case IMAGEFOLDER -> imageFolder(input);
            case FILES -> files(input);
            case JSONL -> jsonl(input);
            case AUTO -> throw new IllegalStateException();
        };
    }

    /**
     * A .jsonl file is JSONL; a folder holding only sub-folders is an image folder; any other folder
     * is files, except one whose sub-folders look like classes (images only, one file per name) and
     * that also holds files at its top: a stray file there would silently turn an image folder into
     * keyed files without labels, so that mix is refused, naming the files, until --layout says.
     *
     * @throws IllegalArgumentException for that mix
     */
    static Layout detect(Path input) throws IOException {
        if (!Files.isDirectory(input)) {
            DataFiles.requireRegularFile(input); // a FIFO or a device is named as one, not listed as a folder
        }
        if (Files.isRegularFile(input)) {
            if (input.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jsonl")) {
                return Layout.JSONL;
            }
            throw new IOException(input + " is a file but not .jsonl; pack reads a folder or a JSONL file");
        }
        List<Path> visible;
        try (Stream<Path> entries = Files.list(input)) {
            visible = entries.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
        List<Path> folders = visible.stream().filter(Files::isDirectory).toList();
        List<Path> strays = visible.stream().filter(p -> !Files.isDirectory(p)).toList();
        if (folders.isEmpty()) {
            return Layout.FILES;
        }
        if (strays.isEmpty()) {
            return Layout.IMAGEFOLDER;
        }
        for (Path f : folders) {
            if (!classLike(f)) {
                return Layout.FILES;
            }
        }
        String names = String.join(", ", strays.stream().limit(5).map(p -> p.getFileName().toString()).toList())
                + (strays.size() > 5 ? ", ... (" + strays.size() + " in all)" : "");
        throw new IllegalArgumentException(input + " looks like an image folder (its sub-folders "
                + String.join(", ", folders.stream().limit(3).map(p -> p.getFileName().toString()).toList())
                + (folders.size() > 3 ? ", ..." : "") + " hold only images) but also holds files at its top: " + names
                + ". Packed as an image folder every sample gets its class as .cls; packed as files grouped by key it"
                + " gets none. Move the stray files out, or say which: --layout imagefolder (the files at the top are"
                + " left out) or --layout files");
    }

    /** Whether a sub-folder looks like a class of an image folder: images only, no two sharing a name. */
    private static boolean classLike(Path folder) throws IOException {
        java.util.Set<String> keys = new java.util.HashSet<>();
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                String name = p.getFileName().toString();
                int dot = name.lastIndexOf('.');
                if (name.startsWith(".")) {
                    continue;
                }
                if (dot <= 0 || !ImageFolder.IMAGE_EXTENSIONS.contains(name.substring(dot).toLowerCase(Locale.ROOT))
                        || !keys.add(p.resolveSibling(name.substring(0, dot)).toString())) {
                    return false;
                }
            }
        }
        return true;
    }

    static String key(long index, long count) {
        int width = Math.max(6, Long.toString(Math.max(count - 1, 0)).length());
        return String.format("%0" + width + "d", index);
    }

    /** {@code root/<class>/<file>} → {@code <key>.<ext>} and {@code <key>.cls}, keys in ImageFolder order. */
    private static PackSource imageFolder(Path root) throws IOException {
        ImageFolder folder = ImageFolder.scan(root);
        List<LabeledFile> files = folder.files();
        List<Item> items = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            LabeledFile f = files.get(i);
            String name = f.path().getFileName().toString();
            int dot = name.lastIndexOf('.');
            String ext = dot > 0 ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "bin";
            items.add(new Item(key(i, files.size()), List.of(
                    new Field(ext, f.path(), null),
                    new Field("cls", null, Integer.toString(f.label()).getBytes(StandardCharsets.US_ASCII))), f.label()));
        }
        List<String> skipped;
        try (Stream<Path> top = Files.list(root)) {
            skipped = top.filter(p -> !Files.isDirectory(p) && !p.getFileName().toString().startsWith("."))
                    .map(p -> p.getFileName().toString()).sorted().toList();
        }
        return new PackSource("image folder", items, folder.classes(), skipped, "file");
    }

    /** Every file under {@code root}, grouped by WebDataset's key rule on the path relative to root. */
    private static PackSource files(Path root) throws IOException {
        TreeMap<String, TreeMap<String, Path>> groups = new TreeMap<>();
        List<String> skipped = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(p -> !Files.isDirectory(p)).sorted().toList()) {
                // a name this JVM cannot spell (LANG=C) would make a wrong key: FileNames says what to do
                String rel = FileNames.path(root.relativize(p), root).replace('\\', '/');
                String key = SampleKeys.key(rel);
                if (key == null || p.getFileName().toString().startsWith(".")) {
                    skipped.add(rel);
                    continue;
                }
                // every file here is a sample's field: a pipe, a device or a link to nothing is
                // refused, naming it, rather than left out of the shards without a word
                DataFiles.requireRegularFile(p);
                groups.computeIfAbsent(key, k -> new TreeMap<>()).put(SampleKeys.extension(rel), p);
            }
        }
        List<Item> items = new ArrayList<>(groups.size());
        for (Map.Entry<String, TreeMap<String, Path>> g : groups.entrySet()) {
            List<Field> fields = new ArrayList<>();
            g.getValue().forEach((ext, p) -> fields.add(new Field(ext, p, null)));
            items.add(new Item(g.getKey(), fields));
        }
        return new PackSource("files grouped by key", items, List.of(), skipped, "file");
    }

    /** Each non-blank line of a JSONL file is a sample with one field, {@code json}. */
    private static PackSource jsonl(Path file) throws IOException {
        List<String> lines;
        DataFiles.requireRegularFile(file); // a FIFO would block the read, a device read without end
        try (Stream<String> s = Files.lines(file, StandardCharsets.UTF_8)) {
            lines = s.filter(l -> !l.isBlank()).toList();
        }
        List<Item> items = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            items.add(new Item(key(i, lines.size()),
                    List.of(new Field("json", null, lines.get(i).getBytes(StandardCharsets.UTF_8), true))));
        }
        return new PackSource("JSONL", items, List.of(), List.of(), "line");
    }
}
