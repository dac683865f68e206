package dev.stoker.formats.remote;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Where one remote file is fetched from: a URL, or a {@code pipe:} command and the environment it
 * runs with. A location the user wrote whole is taken as it is ({@link #at}); a file whose name
 * comes from data (an index lists it) is placed into the user's template by {@link #of}, which
 * never lets the name into the command's text: in a {@code pipe:} template, {@code {}} becomes a
 * quoted reference to the variable {@value #NAME_VARIABLE}, which holds the name, so no name can
 * run anything whatever it holds; in a URL it is percent-encoded.
 *
 * <p>NOTE: a template that hands its text to a second shell ({@code ssh host "cat /data/{}"},
 * {@code sh -c "..."}, {@code eval}) has the name parsed again there, as code. Callers hold names
 * from data to plain file names ({@link DataFileNames}), which no shell reads as anything but a
 * word; that rule, not the variable, is what keeps such templates safe.
 *
 * <pre>{@code
 * RemoteFile.of("pipe:aws s3 cp s3://bucket/mds/{} -", "train/shard.00000.mds")
 *     // runs: aws s3 cp s3://bucket/mds/"${STOKER_FILE}" -   with STOKER_FILE=train/shard.00000.mds
 * }</pre>
 */
public sealed interface RemoteFile {
    /** The environment variable that holds the file's name for a {@code pipe:} command. */
    String NAME_VARIABLE = "STOKER_FILE";
    /** What a location starts with to be a command. */
    String PIPE_PREFIX = "pipe:";

    /** Whether {@code location} names a file on a web server ({@code http://}, {@code https://}). */
    static boolean isUrl(String location) {
        String l = location.toLowerCase(Locale.ROOT);
        return l.startsWith("http://") || l.startsWith("https://");
    }

    /** Whether {@code location} is a command ({@code pipe:...}) rather than a file or a URL. */
    static boolean isPipe(String location) {
        return location.startsWith(PIPE_PREFIX);
    }

    /** Whether {@code location} is fetched (a URL, a command) rather than read where it is. */
    static boolean isRemote(String location) {
        return isUrl(location) || isPipe(location);
    }

    /**
     * What the file is called in messages and the key of its cached copy: the URL, or the
     * template with the name written in (for reading only: that text is never run).
     */
    String location();

    /**
     * Starts fetching the file: its bytes as they stream in, behind a read-ahead buffer and the
     * stall guard of {@code settings}, and their length when the source announced one. An HTTP
     * answer other than 200 and a command that cannot be started fail here; a command that exits
     * with a status other than 0, or a source that stalls, fails the stream's reads with an
     * {@link java.io.IOException} naming the location.
     *
     * <pre>{@code
     * try (RemoteBytes body = RemoteFile.at("https://host/train.jsonl").open(RemoteSettings.defaults())) {
     *     body.in().transferTo(out);
     * }
     * }</pre>
     *
     * @throws RemoteFileException naming the location when it cannot be fetched
     */
    default RemoteBytes open(RemoteSettings settings) {
        return switch (this) {
            case Url url -> HttpGet.get(url.location(), settings);
            case Command command -> new RemoteBytes(PipeCommand.output(command, settings), -1);
        };
    }

    /** A file served over {@code http(s)://}. */
    record Url(String location) implements RemoteFile {
    }

    /**
     * A file written by a command run under {@code /bin/sh -c}.
     *
     * @param command     the shell text: the user's, with {@code {}} made a variable reference
     * @param environment variables added to the command's environment (the name it fetches)
     */
    record Command(String location, String command, Map<String, String> environment) implements RemoteFile {
        public Command {
            environment = Map.copyOf(environment);
        }
    }

    /**
     * A location the user wrote whole (a shard list, a sidecar location): an {@code http(s)://}
     * URL or a {@code pipe:} command, run as written.
     *
     * @throws RemoteFileException naming the location when it is neither
     */
    static RemoteFile at(String location) {
        if (isUrl(location)) {
            return new Url(location);
        }
        if (isPipe(location)) {
            String command = location.substring(PIPE_PREFIX.length()).strip();
            if (command.isEmpty()) {
                throw new RemoteFileException(location, "no command after \"pipe:\"");
            }
            return new Command(location, command, Map.of());
        }
        throw new RemoteFileException(location, "is neither an http(s):// URL nor a pipe: command, so it cannot be"
                + " fetched (a local file is read where it is)");
    }

    /**
     * File {@code name} (relative, {@code /}-separated: {@code train/shard.00000.mds}) of a remote
     * whose location is {@code template}: an {@code http(s)://} URL or a {@code pipe:} command in
     * which {@code {}} stands for the name, or, without {@code {}}, a base to which {@code /} and
     * the name are added. In a command {@code {}} may stand bare or inside quotes
     * ({@code cat '/data/{}'}); it always reaches the command as exactly the name.
     *
     * @throws IllegalArgumentException when the template is neither a URL nor a command, or the
     *     name is absolute, empty, has an empty, {@code .} or {@code ..} part, or a control character
     */
    static RemoteFile of(String template, String name) {
        checkRelative(name);
        boolean placed = template.contains("{}");
        if (isUrl(template)) {
            String encoded = percentEncoded(name);
            return new Url(placed ? template.replace("{}", encoded)
                    : template + (template.endsWith("/") ? "" : "/") + encoded);
        }
        if (!isPipe(template)) {
            throw new IllegalArgumentException("the remote '" + template + "' is neither an http(s):// base URL nor a"
                    + " pipe: command");
        }
        String location = placed ? template.replace("{}", name)
                : template + (template.endsWith("/") ? "" : "/") + name;
        String command = template.substring(PIPE_PREFIX.length()).strip();
        if (command.isEmpty()) {
            throw new IllegalArgumentException("the remote '" + template + "' has no command after \"pipe:\"");
        }
        if (!placed) {
            command = command + (command.endsWith("/") ? "" : "/") + "{}";
        }
        return new Command(location, ShellTemplate.withVariable(command, NAME_VARIABLE), Map.of(NAME_VARIABLE, name));
    }

    private static void checkRelative(String name) {
        if (name.isEmpty() || name.startsWith("/")) {
            throw new IllegalArgumentException("the file name " + DataFileNames.quoted(name)
                    + " is not a relative path");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("the file name " + DataFileNames.quoted(name)
                        + " holds a control character");
            }
        }
        for (String part : name.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new IllegalArgumentException("the file name " + DataFileNames.quoted(name)
                        + " has an empty, '.' or '..' part");
            }
        }
    }

    /** {@code name} with everything but unreserved characters and {@code /} percent-encoded (RFC 3986). */
    private static String percentEncoded(String name) {
        StringBuilder b = new StringBuilder();
        for (byte x : name.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || "-._~/".indexOf(c) >= 0) {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return b.toString();
    }
}
