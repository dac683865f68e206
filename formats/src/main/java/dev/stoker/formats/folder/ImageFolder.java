package dev.stoker.formats.folder;

import dev.stoker.data.DataFiles;
import dev.stoker.data.Dataset;
import dev.stoker.data.NotRegularFileException;
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
 *   <li>a class folder with no such file is an error, as in torchvision (unless allowed);</li>
 *   <li>unlike torchvision, such a file that is not a regular file (a named pipe, a socket, a
 *       device) is an error naming it: torchvision lists it, and its worker then hangs reading it.</li>
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
     * @throws ImageFolderException naming the folder when there is no class folder, naming the
     *     classes without files, or naming the files with an image extension that are not regular
     *     files (a named pipe, a socket, a device: reading one would block or never end)
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
        Map<Path, String> special = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        for (int label = 0; label < classes.size(); label++) {
            int before = files.size();
            for (Path f : walk(FileNames.resolve(root, classes.get(label)), special)) {
                if (matches(f.getFileName().toString(), endings)) {
                    String why = special.get(f);
                    if (why != null) {
                        refused.add(why);
                    }
                    files.add(new LabeledFile(f, label));
                }
            }
            if (files.size() == before) {
                empty.add(classes.get(label));
            }
        }
        if (!refused.isEmpty()) {
            throw notRegular(root, refused);
        }
        if (!empty.isEmpty() && !allowEmpty) {
            throw new ImageFolderException("found no file with the extensions " + endings + " for the classes "
                    + empty + " in " + root);
        }
        return new ImageFolder(root, classes, files);
    }

    /**
     * Why a named pipe, socket or device named like an image is refused here, at the scan, rather
     * than listed (as torchvision lists it) and refused when read: the scan has already looked at
     * it (no extra stat); it is never an image, only a mistake or a trap (reading a FIFO blocks
     * until a writer comes: torchvision's worker hangs on it); and an error now, before training
     * starts, names every such file at once, where a read would fail one batch hours in (or, with
     * bad samples skipped, drop it quietly from every epoch). Files with other names are passed
     * over, special or not, as torchvision passes them over.
     */
    private static ImageFolderException notRegular(Path root, List<String> refused) {
        int shown = Math.min(refused.size(), 5);
        return new ImageFolderException(root + ": " + refused.size() + " file" + (refused.size() == 1 ? "" : "s")
                + " with an image extension " + (refused.size() == 1 ? "is" : "are") + " not a regular file (an"
                + " image must be one; reading a named pipe would block): " + String.join("; ", refused.subList(0, shown))
                + (refused.size() > shown ? "; and " + (refused.size() - shown) + " more" : ""));
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
     * followed once, not forever. Files that are neither regular files nor folders (a named pipe,
     * a socket, a device) go into {@code special} too, with what they are.
     */
    private static List<Path> walk(Path dir, Map<Path, String> special) throws IOException {
        Map<String, List<Path>> folders = new LinkedHashMap<>();
        Set<Path> seen = new HashSet<>();
        collectFolders(dir, folders, seen, special);
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
    private static void collectFolders(Path dir, Map<String, List<Path>> folders, Set<Path> seen,
                                       Map<Path, String> special) throws IOException {
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
                collectFolders(p, folders, seen, special);
            } else {
                files.add(p);
                try {
                    DataFiles.requireRegularFile(p, attributes);
                } catch (NotRegularFileException e) {
                    special.put(p, e.getMessage());
                }
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
