package dev.stoker.formats.folder;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * File names as strings, and what to do when the JVM cannot spell them. The JVM turns file names
 * into strings and back in the charset of the locale it started in ({@code sun.jnu.encoding}, which
 * no flag sets): under {@code LANG=C} or {@code POSIX}, as in a bare container, that is ASCII, so a
 * listed name such as {@code café} comes back with U+FFFD in place of its other bytes, and a path
 * built from it throws {@link InvalidPathException} ("Malformed input"). Readers that list folders
 * check names here and say to run in a UTF-8 locale, instead of failing on a path or, worse, reading
 * the wrong class names.
 *
 * <pre>{@code
 * String name = FileNames.name(file, folder);   // throws IOException with the remedy, if unreadable
 * }</pre>
 */
public final class FileNames {
    private static final String ENCODING = System.getProperty("sun.jnu.encoding", "UTF-8");
    /** Whether names round-trip: with UTF-8 every byte sequence Linux allows as a name that is valid UTF-8 does. */
    private static final boolean UTF8 = isUtf8(ENCODING);

    private FileNames() {
    }

    private static boolean isUtf8(String encoding) {
        try {
            return Charset.forName(encoding).name().equals("UTF-8");
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The name of {@code file} (its last element) as a string.
     *
     * @throws IOException naming {@code folder} and the remedy when the JVM decodes file names in a
     *     charset that cannot spell this one (a non-ASCII name under {@code LANG=C})
     */
    public static String name(Path file, Path folder) throws IOException {
        String name = file.getFileName().toString();
        if (!UTF8 && name.indexOf('\uFFFD') >= 0) {
            throw unreadable(folder, "the name \"" + name + "\" is not " + ENCODING, null);
        }
        return name;
    }

    /**
     * {@code path} (a relative one, under {@code folder}) as a string, every element checked as by
     * {@link #name}.
     *
     * @throws IOException naming {@code folder} and the remedy, as {@link #name} does
     */
    public static String path(Path path, Path folder) throws IOException {
        String text = path.toString();
        if (!UTF8 && text.indexOf('\uFFFD') >= 0) {
            throw unreadable(folder, "the path \"" + text + "\" is not " + ENCODING, null);
        }
        return text;
    }

    /**
     * {@code folder.resolve(name)}.
     *
     * @throws IOException naming {@code folder} and the remedy when the name cannot be a path in this
     *     JVM's charset for file names
     */
    public static Path resolve(Path folder, String name) throws IOException {
        try {
            return folder.resolve(name);
        } catch (InvalidPathException e) {
            throw unreadable(folder, "\"" + name + "\" cannot be a path here (" + e.getMessage() + ")", e);
        }
    }

    /**
     * The error for a name this JVM cannot spell, saying what to do: an {@link IOException} whose
     * message names {@code folder}.
     */
    public static IOException unreadable(Path folder, String what, Throwable cause) {
        return new IOException("cannot read the file names in " + folder + ": " + what + ", because this JVM"
                + " decodes file names as " + ENCODING + " (the locale is not UTF-8: LANG=C or POSIX, as in a bare"
                + " container). Run it with a UTF-8 locale, e.g. LC_ALL=C.UTF-8 (see `locale -a`; ./stoker sets one"
                + " itself where the system has it)", cause);
    }
}
