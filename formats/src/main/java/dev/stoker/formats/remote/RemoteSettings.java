package dev.stoker.formats.remote;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * How remote files are fetched: the HTTP client for {@code http(s)://} files, the bytes buffered
 * ahead of the reader, and how long a read waits for the next bytes before the file fails (the
 * stall timeout: the JDK's HTTP client has no read timeout once the headers have arrived, and a
 * command can stop writing without exiting).
 *
 * <pre>{@code
 * RemoteSettings slow = RemoteSettings.defaults().withStallTimeout(Duration.ofMinutes(5));
 * }</pre>
 *
 * @param http         the client for {@code http(s)://} files
 * @param readAhead    bytes buffered ahead of the reader, at most (rounded up to 64 KiB chunks, at
 *                     least two)
 * @param stallTimeout how long a read waits for the next bytes; it also bounds the wait for an
 *                     HTTP answer's head
 */
public record RemoteSettings(HttpClient http, int readAhead, Duration stallTimeout) {
    /** The buffer between the source and the reader when none is given. */
    public static final int DEFAULT_READ_AHEAD = 1 << 20;
    /** How long a read waits for the next bytes of a file when no timeout is given. */
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(60);

    private static final class Shared {
        static final HttpClient CLIENT = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(30))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    /**
     * @throws IllegalArgumentException for a stall timeout that is not positive
     */
    public RemoteSettings {
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        if (stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("a stall timeout is positive, not " + stallTimeout);
        }
    }

    /** The client used when none is given: HTTP/1.1 or 2, redirects followed, 30 s to connect. */
    public static HttpClient defaultClient() {
        return Shared.CLIENT;
    }

    /** The default client, {@link #DEFAULT_READ_AHEAD} and {@link #DEFAULT_STALL_TIMEOUT}. */
    public static RemoteSettings defaults() {
        return new RemoteSettings(defaultClient(), DEFAULT_READ_AHEAD, DEFAULT_STALL_TIMEOUT);
    }

    /** These settings with another HTTP client. */
    public RemoteSettings withHttp(HttpClient client) {
        return new RemoteSettings(client, readAhead, stallTimeout);
    }

    /** These settings with another read-ahead. */
    public RemoteSettings withReadAhead(int bytes) {
        return new RemoteSettings(http, bytes, stallTimeout);
    }

    /** These settings with another stall timeout. */
    public RemoteSettings withStallTimeout(Duration timeout) {
        return new RemoteSettings(http, readAhead, timeout);
    }
}
