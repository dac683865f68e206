package dev.stoker.micrometer;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Serves a {@link PrometheusMeterRegistry}'s scrape at {@code http://HOST:PORT/metrics}: no web
 * framework for a training job that has none.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * new LoaderMetrics(loader, Tags.of("loader", "train")).bindTo(registry);
 * try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, 9400)) {   // this machine only
 *     System.out.println("metrics at " + endpoint.uri());   // http://127.0.0.1:9400/metrics
 *     train(loader);
 * }
 * // for a Prometheus on another machine, every interface:
 * PrometheusEndpoint.start(registry, new InetSocketAddress(9400));
 * }</pre>
 *
 * <p>{@code GET} (or {@code HEAD}) {@code /metrics} answers the Prometheus text format 0.0.4
 * ({@value #TEXT_FORMAT}), or OpenMetrics when the scraper's {@code Accept} header asks for it;
 * any other path is 404, any other method 405, anything but an HTTP/1.x request 400.
 *
 * <p>{@link #start(PrometheusMeterRegistry, int)} listens on the loopback address only: the meters
 * say what the job reads and how fast, which is not for every network the machine is on. Give an
 * address to {@link #start(PrometheusMeterRegistry, InetSocketAddress)} to be scraped from
 * elsewhere. No client holds up another: each connection is served on a thread of its own, with
 * 10 s to send its request and 30 s for the whole exchange, so one that sends half a request and
 * waits cannot stall the scraper. Threads are daemons: a job that forgets to close the endpoint
 * still exits, but close it to free the port.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    /** The content type of the Prometheus text format, what a scrape answers unless asked otherwise. */
    public static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    /** The content type of OpenMetrics, answered when the {@code Accept} header names it. */
    public static final String OPENMETRICS_FORMAT = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    /** The path the scrape is served at. */
    public static final String PATH = "/metrics";

    private final ScrapeServer server;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PrometheusEndpoint(ScrapeServer server) {
        this.server = server;
    }

    /**
     * Serves {@code registry} on {@code port} of the loopback address (this machine only); port 0
     * picks a free one, which {@link #port()} tells.
     *
     * @throws UncheckedIOException when the port cannot be bound (taken, or not allowed)
     */
    public static PrometheusEndpoint start(PrometheusMeterRegistry registry, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("a port is 0 (pick a free one) to 65535, not " + port);
        }
        return start(registry, new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    /**
     * Serves {@code registry} at {@code address}: {@code new InetSocketAddress(9400)} for every
     * interface (a Prometheus on another machine), or one interface's address.
     *
     * @throws UncheckedIOException when the address cannot be bound (taken, or not allowed)
     */
    public static PrometheusEndpoint start(PrometheusMeterRegistry registry, InetSocketAddress address) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(address, "address");
        return new PrometheusEndpoint(ScrapeServer.start(address, request -> answer(registry, request)));
    }

    /** The address the endpoint listens on, with the port picked when started with port 0. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** The port the endpoint listens on: the one picked when started with port 0. */
    public int port() {
        return address().getPort();
    }

    /** Where the scrape is: {@code http://localhost:9400/metrics} when it listens on every interface. */
    public URI uri() {
        InetAddress host = address().getAddress();
        String name = host.isAnyLocalAddress() ? "localhost" : host.getHostAddress();
        if (name.indexOf(':') >= 0) {
            name = "[" + name + "]"; // an IPv6 literal
        }
        return URI.create("http://" + name + ":" + port() + PATH);
    }

    private static ScrapeServer.Response answer(PrometheusMeterRegistry registry, RequestHead request) {
        if (!request.path().equals(PATH)) {
            return ScrapeServer.text(404, "Not Found", "not found: the metrics are at " + PATH + "\n");
        }
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            ScrapeServer.Response r = ScrapeServer.text(405, "Method Not Allowed", "method " + request.method()
                    + " not allowed: use GET\n");
            return new ScrapeServer.Response(r.status(), r.reason(), r.type(), r.body(), Map.of("Allow", "GET, HEAD"));
        }
        String type = request.accept().filter(a -> a.contains("application/openmetrics-text")).isPresent()
                ? OPENMETRICS_FORMAT
                : TEXT_FORMAT;
        String body;
        try {
            body = registry.scrape(type);
        } catch (RuntimeException e) {
            // A meter whose function throws must not end the connection unanswered; the scraper sees why.
            return ScrapeServer.text(500, "Internal Server Error", "scrape failed: " + e + "\n");
        }
        return new ScrapeServer.Response(200, "OK", type, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    /** Stops listening at once; a scrape in progress is cut off. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.close();
        }
    }

    @Override
    public String toString() {
        return "PrometheusEndpoint(" + uri() + ")";
    }
}
