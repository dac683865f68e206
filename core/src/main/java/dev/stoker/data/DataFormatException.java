package dev.stoker.data;

import java.util.Objects;

/**
 * Bad data: a file, shard or record that cannot be read as its format says. Every reader's format
 * error is one (tar, index, MDS, Parquet, HDF5, LMDB, {@code .npy}, JSONL, Megatron, token files,
 * images), so that a caller, and the loader, can report any of them alike: the file (or
 * location), the position in it, and what was wrong are fields, and the message names all three.
 *
 * <pre>
 * data/train.jsonl, line 17: expected ':' at byte 12 of the line
 * </pre>
 *
 * <p>It is unchecked: bad data is met inside {@link Dataset#get} and the fill path, where a
 * checked exception could not pass; a loader built with {@code onBadSample(SamplePolicy.SKIP)}
 * leaves such a sample out and counts it. Readers throw their own subclasses
 * ({@code TarException}, {@code MdsFormatException}, ...), which callers may catch by name; an
 * I/O failure that is not about the data (a disk error, a closed dataset) is not one.
 */
public class DataFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final DataPosition position;
    private final String what;

    /**
     * @param source   the file's path, or the location of a remote one
     * @param position where in the file the problem was found
     * @param what     what was wrong, for a person
     */
    public DataFormatException(String source, DataPosition position, String what) {
        this(source, position, what, null);
    }

    /**
     * @param source   the file's path, or the location of a remote one
     * @param position where in the file the problem was found
     * @param what     what was wrong, for a person
     * @param cause    the failure that revealed it, or null
     */
    public DataFormatException(String source, DataPosition position, String what, Throwable cause) {
        this(describe(source, position, what), source, position, what, cause);
    }

    /**
     * For a subclass that keeps the message layout its users know
     * ({@code "shard S, byte offset N: what"}); the message must still name the file, the position
     * and what was wrong.
     *
     * @param message  the whole message
     * @param source   the file's path, or the location of a remote one
     * @param position where in the file the problem was found
     * @param what     what was wrong, for a person
     * @param cause    the failure that revealed it, or null
     */
    protected DataFormatException(String message, String source, DataPosition position, String what,
                                  Throwable cause) {
        super(message, cause);
        this.source = Objects.requireNonNull(source, "source");
        this.position = Objects.requireNonNull(position, "position");
        this.what = Objects.requireNonNull(what, "what");
    }

    /**
     * For a reader whose messages are written whole, starting with the file and then {@code ": "}
     * or {@code ", "} ({@code "data.h5: array 'x': compressed with filter 'blosc'"},
     * {@code "t.parquet, row group 2, row 7: a null"}): the text before the first of those is taken
     * as the source, the rest as what was wrong, and the position is {@link DataPosition.InMessage};
     * the message is kept as written.
     *
     * @param message the whole message, starting {@code "FILE: "} or {@code "FILE, "}
     * @param cause   the failure that revealed it, or null
     */
    protected DataFormatException(String message, Throwable cause) {
        this(message, prefix(message), new DataPosition.InMessage(), rest(message), cause);
    }

    private static String prefix(String message) {
        int end = end(message);
        return end < 0 ? "" : message.substring(0, end);
    }

    private static String rest(String message) {
        int end = end(message);
        return end < 0 ? message : message.substring(end + 2);
    }

    /** Where the file at the start of a message ends: at its first ": " or ", ", or -1. */
    private static int end(String message) {
        int colon = message.indexOf(": ");
        int comma = message.indexOf(", ");
        return colon < 0 ? comma : comma < 0 ? colon : Math.min(colon, comma);
    }

    /** The message's usual layout: {@code "FILE, POSITION: WHAT"}, or {@code "FILE: WHAT"} for the whole file. */
    static String describe(String file, DataPosition position, String what) {
        return position instanceof DataPosition.WholeFile ? file + ": " + what : file + ", " + position + ": " + what;
    }

    /**
     * The file's path, or the location of a remote one (a URL, a {@code pipe:} command), or for an
     * in-memory source what the caller named it (a sample's key).
     */
    public String source() {
        return source;
    }

    /** Where in the file the problem was found. */
    public DataPosition position() {
        return position;
    }

    /** What was wrong, without the file and position the message starts with. */
    public String what() {
        return what;
    }
}
