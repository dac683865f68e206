package dev.stoker.formats.remote;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;

/**
 * Files served over {@code http://} or {@code https://}, read as a stream: the body is handed on
 * as it arrives, never loaded whole. The read-ahead is bounded by a buffer of
 * {@link RemoteSettings#readAhead()} bytes on top of the HTTP client's own flow-control window.
 *
 * <p>The JDK client has no read timeout once the headers have arrived, so the body is read through
 * a {@link StallGuardInputStream}: a server that stops sending for the stall timeout without
 * closing the connection fails the file with an error naming it, rather than hanging its reader;
 * so does one that takes the request and never answers it.
 */
final class HttpGet {
    private HttpGet() {
    }

    /** GETs {@code url}: its body behind the stall guard, once the server has answered 200. */
    static RemoteBytes get(String url, RemoteSettings settings) {
        HttpRequest request;
        try {
            // The timeout covers the wait for the answer's head, which the stall guard below cannot:
            // a server that takes the request and never answers would hold the reader for ever.
            request = HttpRequest.newBuilder(URI.create(url)).timeout(settings.stallTimeout()).GET().build();
        } catch (IllegalArgumentException e) {
            throw new RemoteFileException(url, "not a valid URL: " + e.getMessage(), e);
        }
        HttpResponse<InputStream> response;
        try {
            response = settings.http().send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw new RemoteFileException(url, "GET had no answer within " + settings.stallTimeout().toMillis()
                    + " ms", e);
        } catch (IOException e) {
            throw new RemoteFileException(url, "GET failed: " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteFileException(url, "interrupted while connecting", e);
        }
        if (response.statusCode() != 200) {
            close(response.body());
            throw new RemoteFileException(url, "GET answered HTTP " + response.statusCode()
                    + (response.statusCode() == 404 ? " (no such file)" : ""));
        }
        long length = response.headers().firstValueAsLong("content-length").orElse(-1);
        return new RemoteBytes(new StallGuardInputStream(response.body(), url, settings.readAhead(),
                settings.stallTimeout()), length);
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
