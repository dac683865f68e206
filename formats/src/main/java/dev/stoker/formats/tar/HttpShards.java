package dev.stoker.formats.tar;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * Shards served over {@code http://} or {@code https://}, read as a stream: the body is parsed as
 * it arrives, never loaded whole. The read-ahead is bounded by a buffer of {@code readAhead}
 * bytes on top of the HTTP client's own flow-control window.
 *
 * <p>The JDK client has no read timeout once the headers have arrived, so the body is read through
 * a {@link StallGuardInputStream}: a server that stops sending for the stall timeout (default
 * {@link #DEFAULT_STALL_TIMEOUT}) without closing the connection fails the shard with an error
 * naming it, rather than hanging its worker; so does one that takes the request and never
 * answers it.
 */
public final class HttpShards {
    /** The buffer between the socket and the tar parser when none is given. */
    public static final int DEFAULT_READ_AHEAD = 1 << 20;
    /** How long a read waits for the next bytes of a shard when no timeout is given. */
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(60);

    private static final class Shared {
        static final HttpClient CLIENT = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(30))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    private HttpShards() {
    }

    /** Whether {@code location} names a shard on a web server rather than a local file. */
    public static boolean isUrl(String location) {
        String l = location.toLowerCase(Locale.ROOT);
        return l.startsWith("http://") || l.startsWith("https://");
    }

    /** The client used when none is given: HTTP/1.1 or 2, redirects followed, 30 s to connect. */
    public static HttpClient defaultClient() {
        return Shared.CLIENT;
    }

    /** Opens {@code url} with a GET and reads it as a tar stream, with the default stall timeout. */
    public static TarReader open(String url, HttpClient client, int readAhead) {
        return open(url, client, readAhead, DEFAULT_STALL_TIMEOUT);
    }

    /**
     * Opens {@code url} with a GET and reads it as a tar stream; a read that waits longer than
     * {@code stallTimeout} for the next bytes fails the shard.
     */
    public static TarReader open(String url, HttpClient client, int readAhead, Duration stallTimeout) {
        RemoteBytes body = get(url, client, readAhead, stallTimeout);
        return TarReader.open(url, body.in(), body.length());
    }

    /** GETs {@code url}: its body behind the stall guard, once the server has answered 200. */
    static RemoteBytes get(String url, HttpClient client, int readAhead, Duration stallTimeout) {
        HttpRequest request;
        try {
            // The timeout covers the wait for the answer's head, which the stall guard below cannot:
            // a server that takes the request and never answers would hold the worker for ever.
            request = HttpRequest.newBuilder(URI.create(url)).timeout(stallTimeout).GET().build();
        } catch (IllegalArgumentException e) {
            throw new TarException(url, 0, "not a valid URL: " + e.getMessage(), e);
        }
        HttpResponse<InputStream> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw new TarException(url, 0, "GET had no answer within " + stallTimeout.toMillis() + " ms", e);
        } catch (IOException e) {
            throw new TarException(url, 0, "GET failed: " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TarException(url, 0, "interrupted while connecting", e);
        }
        if (response.statusCode() != 200) {
            close(response.body());
            throw new TarException(url, 0, "GET answered HTTP " + response.statusCode()
                    + (response.statusCode() == 404 ? " (no such shard)" : ""));
        }
        long length = response.headers().firstValueAsLong("content-length").orElse(-1);
        return new RemoteBytes(new StallGuardInputStream(response.body(), url, readAhead, stallTimeout), length);
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the request already failed; that is what the caller hears about
        }
    }
}
