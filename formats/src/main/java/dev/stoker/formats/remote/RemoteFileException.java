package dev.stoker.formats.remote;

/**
 * A remote file could not be fetched: the location is neither a URL nor a command, the server
 * answered with an error or not at all, the command could not be started or failed, or the copy
 * could not be kept. The message names the location and what went wrong; a failed connection or
 * command is the cause.
 *
 * <pre>
 * https://host/data/index.json: GET answered HTTP 404 (no such file)
 * </pre>
 */
public final class RemoteFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String location;
    private final String what;

    /**
     * @param location the URL or {@code pipe:} location
     * @param what     what went wrong, for a person
     */
    public RemoteFileException(String location, String what) {
        this(location, what, null);
    }

    public RemoteFileException(String location, String what, Throwable cause) {
        super(location + ": " + what, cause);
        this.location = location;
        this.what = what;
    }

    /** The URL or {@code pipe:} location. */
    public String location() {
        return location;
    }

    /** What went wrong, without the location the message starts with. */
    public String what() {
        return what;
    }
}
