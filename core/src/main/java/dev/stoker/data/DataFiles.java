package dev.stoker.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Opens the data files a user or a dataset names only when they are regular files, so that a path
 * that is something else fails at once with a {@link NotRegularFileException} naming it:
 * <ul>
 *   <li>a named pipe (FIFO): opening it for reading blocks in {@code open(2)} until a writer
 *       comes, which may be never, and a blocked open cannot be interrupted: the worker, or the
 *       whole loader or command, would hang;</li>
 *   <li>a character device ({@code /dev/zero}, {@code /dev/urandom}, or a link to one): it opens,
 *       reports a size of 0 and reads without end, so a reader that reads until the end of the
 *       file fills memory or spins;</li>
 *   <li>a socket, a block device, a folder: each fails in its own way, some of them late.</li>
 * </ul>
 * Links are followed, as the open that follows does. The check is one {@code stat} per open, a
 * few microseconds: nothing beside reading a file, even an image per open.
 *
 * <pre>{@code
 * try (FileChannel ch = DataFiles.openChannel(Path.of("data/tokens.bin"))) { ... }
 * // data/tokens.bin: is a named pipe (FIFO), not a regular file; a data file must be a regular file
 * }</pre>
 *
 * <p>NOTE: the check and the open are two steps (time of check, time of use): a path swapped for a
 * FIFO between them still blocks the open. The JDK cannot open without blocking on a FIFO (it has
 * no {@code O_NONBLOCK} open option, and an opened channel cannot be asked what it is), so the
 * check cannot be made on the opened file instead. The window is microseconds wide; it guards
 * against a mistake or a bad dataset, not against another process racing this one.
 */
public final class DataFiles {
    // The file-type bits of st_mode (POSIX; the same on Linux and macOS).
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFSOCK = 0140000;

    private DataFiles() {
    }

    /**
     * Checks that {@code file} (links followed) is a regular file.
     *
     * @throws NotRegularFileException when it is not, naming it and what it is
     * @throws IOException as {@link Files#readAttributes(Path, Class, java.nio.file.LinkOption...)}
     *     does: a {@link NoSuchFileException} when it is missing, which for a link to nothing says so
     *     ("a link to a file that is not there") rather than leave a path that seems to be there
     */
    public static void requireRegularFile(Path file) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            if (Files.isSymbolicLink(file)) {
                throw new NoSuchFileException(file.toString(), null, "a link to a file that is not there");
            }
            throw e;
        }
        requireRegularFile(file, attributes);
    }

    /**
     * Checks, from attributes the caller has already read (links followed), that {@code file} is a
     * regular file: for a folder scan, which has them without another {@code stat}.
     *
     * @throws NotRegularFileException when it is not, naming it and what it is
     */
    public static void requireRegularFile(Path file, BasicFileAttributes attributes) throws NotRegularFileException {
        if (!attributes.isRegularFile()) {
            throw new NotRegularFileException(file.toString(), kind(file, attributes));
        }
    }

    /**
     * Opens {@code file} for reading once {@link #requireRegularFile(Path)} has passed: a
     * {@code FileChannel.open(file, READ)} that never blocks on a FIFO.
     */
    public static FileChannel openChannel(Path file) throws IOException {
        requireRegularFile(file);
        return FileChannel.open(file, StandardOpenOption.READ);
    }

    /** {@link Files#newInputStream}, once {@link #requireRegularFile(Path)} has passed. */
    public static InputStream newInputStream(Path file) throws IOException {
        requireRegularFile(file);
        return Files.newInputStream(file);
    }

    /** {@link Files#readAllBytes}, once {@link #requireRegularFile(Path)} has passed. */
    public static byte[] readAllBytes(Path file) throws IOException {
        requireRegularFile(file);
        return Files.readAllBytes(file);
    }

    /** What a path that is not a regular file is, for a person: "a named pipe (FIFO)", "a folder", ... */
    private static String kind(Path file, BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
            return "a folder";
        }
        int mode;
        try {
            mode = (Integer) Files.getAttribute(file, "unix:mode");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "a device, a named pipe or a socket"; // no unix view here, or the path changed since
        }
        return switch (mode & S_IFMT) {
            case S_IFIFO -> "a named pipe (FIFO)";
            case S_IFCHR -> "a character device";
            case S_IFBLK -> "a block device";
            case S_IFSOCK -> "a socket";
            case S_IFDIR -> "a folder";
            default -> "a special file (st_mode type 0" + Integer.toOctalString(mode & S_IFMT) + ")";
        };
    }
}
