package dev.stoker.formats.folder;

import dev.stoker.data.Dataset;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The file list of a folder laid out as torchvision's {@code ImageFolder} expects,
 * {@code root/<class>/<file>}, found the way torchvision finds it, so that the same folder gives
 * the same samples in the same order with the same labels:
 * <ul>
 *   <li>classes are the sub-folders of {@code root}, sorted (by code point, as Python sorts);
 *       a class's label is its position in that order;</li>
 *   <li>each class folder is walked recursively, following links (as {@code os.walk(...,
 *       followlinks=True)}), folders in sorted order of their path and files sorted by name;</li>
 *   <li>a file counts when its name ends, ignoring case, in one of the extensions;</li>
 *   <li>a class folder with no such file is an error, as in torchvision (unless allowed).</li>
 * </ul>
 *
 * <pre>{@code
 * ImageFolder folder = ImageFolder.scan(Path.of("data/jpeg"));
 * folder.classes();          // [class_00, ..., class_09]
 * folder.files().get(0);     // LabeledFile[path=data/jpeg/class_00/000000.jpg, label=0]
 * ImageFolderDataset ds = folder.dataset();
 * }</pre>
 */
public final class ImageFolder {
    /** torchvision's {@code IMG_EXTENSIONS}. */
    public static final List<String> IMAGE_EXTENSIONS =
            List.of(".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp");

    private final Path root;
    private final List<String> classes;
    private final List<LabeledFile> files;

    private ImageFolder(Path root, List<String> classes, List<LabeledFile> files) {
        this.root = root;
        this.classes = List.copyOf(classes);
        this.files = List.copyOf(files);
    }

    /** Scans {@code root} for torchvision's image extensions; empty classes are an error. */
    public static ImageFolder scan(Path root) throws IOException {
        return scan(root, IMAGE_EXTENSIONS, false);
    }

    /**
     * Scans {@code root}.
     *
     * @param extensions name endings that count, compared ignoring case ({@code ".jpg"}, {@code "jpg"} also works)
     * @param allowEmpty whether a class folder without files is accepted (torchvision's {@code allow_empty})
     * @throws ImageFolderException naming the folder when there is no class folder, or naming the
     *     classes without files
     * @throws IOException when a folder cannot be listed, naming it
     */
    public static ImageFolder scan(Path root, List<String> extensions, boolean allowEmpty) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new ImageFolderException(root + " is not a folder");
        }
        List<String> endings = new ArrayList<>();
        for (String e : extensions) {
            String lower = e.toLowerCase(Locale.ROOT);
            endings.add(lower.startsWith(".") ? lower : "." + lower);
        }
        List<String> classes = new ArrayList<>();
        for (Path p : list(root)) {
            if (Files.isDirectory(p)) {
                classes.add(FileNames.name(p, root));
            }
        }
        classes.sort(PythonOrder.CODE_POINTS);
        if (classes.isEmpty()) {
            throw new ImageFolderException("found no class folder in " + root
                    + " (an image folder holds one sub-folder per class: root/<class>/<file>)");
        }
        List<LabeledFile> files = new ArrayList<>();
        List<String> empty = new ArrayList<>();
        for (int label = 0; label < classes.size(); label++) {
            int before = files.size();
            for (Path f : walk(FileNames.resolve(root, classes.get(label)))) {
                if (matches(f.getFileName().toString(), endings)) {
                    files.add(new LabeledFile(f, label));
                }
            }
            if (files.size() == before) {
                empty.add(classes.get(label));
            }
        }
        if (!empty.isEmpty() && !allowEmpty) {
            throw new ImageFolderException("found no file with the extensions " + endings + " for the classes "
                    + empty + " in " + root);
        }
        return new ImageFolder(root, classes, files);
    }

    private static boolean matches(String name, List<String> endings) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String e : endings) {
            if (lower.endsWith(e)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The files under {@code dir}, in {@code sorted(os.walk(dir, followlinks=True))} order:
     * folders by their path as a string, files by name within each. A link back up the tree is
     * followed once, not forever.
     */
    private static List<Path> walk(Path dir) throws IOException {
        Map<String, List<Path>> folders = new LinkedHashMap<>();
        Set<Path> seen = new HashSet<>();
        collectFolders(dir, folders, seen);
        List<String> order = new ArrayList<>(folders.keySet());
        order.sort(PythonOrder.CODE_POINTS);
        List<Path> out = new ArrayList<>();
        for (String key : order) {
            List<Path> here = folders.get(key);
            here.sort((a, b) -> PythonOrder.compare(a.getFileName().toString(), b.getFileName().toString()));
            out.addAll(here);
        }
        return out;
    }

    /**
     * Lists {@code dir} and the folders under it into {@code folders} (path to its files), each
     * entry looked at once: one {@code stat}, links followed, says folder or file (a scan of a
     * folder of files used to {@code stat} each file twice). A dangling link is neither, and is
     * skipped, as before.
     */
    private static void collectFolders(Path dir, Map<String, List<Path>> folders, Set<Path> seen) throws IOException {
        Path real;
        try {
            real = dir.toRealPath();
        } catch (IOException e) {
            return; // a dangling link to a folder: os.walk skips it too
        }
        if (!seen.add(real)) {
            return;
        }
        List<Path> files = new ArrayList<>();
        folders.put(dir.toString(), files);
        for (Path p : list(dir)) {
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(p, BasicFileAttributes.class); // follows links, as followlinks=True
            } catch (IOException e) {
                continue; // gone, or a dangling link
            }
            if (attributes.isDirectory()) {
                collectFolders(p, folders, seen);
            } else {
                files.add(p);
            }
        }
    }

    private static List<Path> list(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                out.add(p);
            }
        } catch (IOException e) {
            throw new IOException("cannot list the folder " + dir + ": " + e, e);
        }
        for (Path p : out) {
            FileNames.name(p, dir); // a name this JVM cannot spell would sort and label wrongly
        }
        return out;
    }

    public Path root() {
        return root;
    }

    /** The class names, sorted; a class's label is its position here. */
    public List<String> classes() {
        return classes;
    }

    /** Class name to label: torchvision's {@code class_to_idx}. */
    public Map<String, Integer> classToIndex() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < classes.size(); i++) {
            m.put(classes.get(i), i);
        }
        return m;
    }

    /** Every file with its label, in torchvision's order: its {@code samples}. */
    public List<LabeledFile> files() {
        return files;
    }

    /** The label of every file, in order: torchvision's {@code targets}. */
    public int[] targets() {
        int[] t = new int[files.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = files.get(i).label();
        }
        return t;
    }

    /** A dataset whose sample {@code i} is file {@code i}'s bytes and label. */
    public ImageFolderDataset dataset() {
        return new ImageFolderDataset(this);
    }

    /**
     * The files as a dataset that reads none of them: sample {@code i} is file {@code i}'s path
     * and label, for a reader that reads each file into a buffer of its own rather than an array
     * per sample (the vision module's {@code JpegDataset.ofFiles}).
     */
    public Dataset<LabeledFile> fileDataset() {
        return new ImageFolderFiles(this);
    }

    @Override
    public String toString() {
        return "ImageFolder(" + root + ", " + classes.size() + " classes, " + files.size() + " files)";
    }
}
