package dev.stoker.micrometer;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Serves a {@link PrometheusMeterRegistry}'s scrape at {@code http://HOST:PORT/metrics} with the
 * JDK's own HTTP server: no web framework for a training job that has none.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * new LoaderMetrics(loader, Tags.of("loader", "train")).bindTo(registry);
 * try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, 9400)) {
 *     System.out.println("metrics at " + endpoint.uri());   // http://localhost:9400/metrics
 *     train(loader);
 * }
 * }</pre>
 *
 * <p>{@code GET} (or {@code HEAD}) {@code /metrics} answers the Prometheus text format 0.0.4
 * ({@value #TEXT_FORMAT}), or OpenMetrics when the scraper's {@code Accept} header asks for it;
 * any other path is 404, any other method 405. Each scrape runs on the server's dispatcher
 * thread, one at a time.
 *
 * <p>NOTE: the JDK server's dispatcher is not a daemon thread: close the endpoint (try with
 * resources), or the JVM does not exit at the end of training. {@link #start(PrometheusMeterRegistry, int)}
 * listens on every interface, as a scrape target must for a Prometheus on another machine; give
 * a loopback address to {@link #start(PrometheusMeterRegistry, InetSocketAddress)} to keep it local.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    /** The content type of the Prometheus text format, what a scrape answers unless asked otherwise. */
    public static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    /** The content type of OpenMetrics, answered when the {@code Accept} header names it. */
    public static final String OPENMETRICS_FORMAT = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    /** The path the scrape is served at. */
    public static final String PATH = "/metrics";

    private final HttpServer server;
    private final PrometheusMeterRegistry registry;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PrometheusEndpoint(HttpServer server, PrometheusMeterRegistry registry) {
        this.server = server;
        this.registry = registry;
    }

    /**
     * Serves {@code registry} on {@code port} of every interface; port 0 picks a free one, which
     * {@link #port()} tells.
     *
     * @throws UncheckedIOException when the port cannot be bound (taken, or not allowed)
     */
    public static PrometheusEndpoint start(PrometheusMeterRegistry registry, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("a port is 0 (pick a free one) to 65535, not " + port);
        }
        return start(registry, new InetSocketAddress(port));
    }

    /**
     * Serves {@code registry} at {@code address}, such as
     * {@code new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)}.
     *
     * @throws UncheckedIOException when the address cannot be bound (taken, or not allowed)
     */
    public static PrometheusEndpoint start(PrometheusMeterRegistry registry, InetSocketAddress address) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(address, "address");
        HttpServer server;
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics at " + address + ": " + e.getMessage(), e);
        }
        PrometheusEndpoint endpoint = new PrometheusEndpoint(server, registry);
        server.createContext("/", endpoint::handle);
        server.start();
        return endpoint;
    }

    /** The port the endpoint listens on: the one picked when started with port 0. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Where the scrape is: {@code http://localhost:9400/metrics} when it listens on every interface. */
    public URI uri() {
        InetAddress host = server.getAddress().getAddress();
        String name = host.isAnyLocalAddress() ? "localhost" : host.getHostAddress();
        if (name.indexOf(':') >= 0) {
            name = "[" + name + "]"; // an IPv6 literal
        }
        return URI.create("http://" + name + ":" + port() + PATH);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: the metrics are at " + PATH + "\n");
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "method " + method + " not allowed: use GET\n");
                return;
            }
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            String type = accept != null && accept.contains("application/openmetrics-text")
                    ? OPENMETRICS_FORMAT
                    : TEXT_FORMAT;
            String body;
            try {
                body = registry.scrape(type);
            } catch (RuntimeException e) {
                // A meter whose function throws must not kill the dispatcher; the scraper sees why.
                send(exchange, 500, "text/plain; charset=utf-8", "scrape failed: " + e + "\n");
                return;
            }
            send(exchange, 200, type, body);
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Stops listening at once; a scrape in progress is cut off. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.stop(0);
        }
    }

    @Override
    public String toString() {
        return "PrometheusEndpoint(" + uri() + ")";
    }
}
