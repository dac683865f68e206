package dev.stoker.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link PrometheusEndpoint} over a real HTTP connection, serving a real loader's meters. */
class PrometheusEndpointTest {
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private PrometheusMeterRegistry registry;
    private DataLoader<long[]> loader;

    @BeforeEach
    void runALoader() {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        loader = DataLoader.builder(new Numbers(40, Set.of())).batchSize(4).shuffle(true).numWorkers(2).build();
        new LoaderMetrics(loader, Tags.of("loader", "train", "job", "resnet")).bindTo(registry);
        for (int epoch = 0; epoch < 2; epoch++) {
            for (Batch b : loader) {
                b.close();
            }
        }
    }

    @AfterEach
    void closeTheLoader() {
        loader.close();
        client.close();
    }

    private HttpResponse<String> get(URI uri, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesTheScrapeAtSlashMetrics() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT)) {
            assertThat(endpoint.port()).isPositive();
            assertThat(endpoint.uri()).isEqualTo(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"));
            HttpResponse<String> response = get(endpoint.uri());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue(PrometheusEndpoint.TEXT_FORMAT);
            assertThat(response.body())
                    .containsPattern("(?m)^stoker_stage_seconds_total\\{job=\"resnet\",loader=\"train\",stage=\"fetch\"} [0-9.eE-]+$")
                    .contains("stoker_batches_total{job=\"resnet\",loader=\"train\"} 20.0")
                    .contains("stoker_samples_total{job=\"resnet\",loader=\"train\"} 80.0")
                    .contains("# TYPE stoker_stage_seconds_total counter")
                    .isEqualTo(registry.scrape());
        }
    }

    @Test
    void answersOpenMetricsWhenTheScraperAsksForIt() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT)) {
            HttpResponse<String> response = get(endpoint.uri(),
                    "Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue(PrometheusEndpoint.OPENMETRICS_FORMAT);
            assertThat(response.body()).contains("stoker_stage_seconds_total{").endsWith("# EOF\n");
        }
    }

    @Test
    void otherPathsAreNotFoundAndOtherMethodsNotAllowed() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT)) {
            assertThat(get(endpoint.uri().resolve("/nope")).statusCode()).isEqualTo(404);
            assertThat(get(endpoint.uri().resolve("/")).statusCode()).isEqualTo(404);
            assertThat(get(endpoint.uri().resolve("/metrics/extra")).statusCode()).isEqualTo(404);
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(endpoint.uri())
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        }
    }

    @Test
    void headAnswersWithoutABody() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT)) {
            HttpResponse<String> head = client.send(HttpRequest.newBuilder(endpoint.uri())
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
        }
    }

    @Test
    void aClosedLoaderStillScrapes() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT)) {
            loader.close();
            HttpResponse<String> response = get(endpoint.uri());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body())
                    .contains("stoker_batches_total{job=\"resnet\",loader=\"train\"} 20.0")
                    .contains("stoker_pool_lent_bytes{job=\"resnet\",loader=\"train\"} 0.0")
                    .contains("stoker_pool_reserved_bytes{job=\"resnet\",loader=\"train\"} 0.0");
        }
    }

    @Test
    void stopsListeningOnClose() throws Exception {
        PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT);
        URI uri = endpoint.uri();
        assertThat(get(uri).statusCode()).isEqualTo(200);
        endpoint.close();
        endpoint.close(); // idempotent
        assertThatThrownBy(() -> get(uri)).isInstanceOf(ConnectException.class);
    }

    @Test
    void aPortAloneBindsLoopbackOnly() {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, 0)) {
            assertThat(endpoint.address().getAddress().isLoopbackAddress())
                    .as("bound to %s", endpoint.address()).isTrue();
            assertThat(endpoint.uri().getHost()).isEqualTo(InetAddress.getLoopbackAddress().getHostAddress());
        }
    }

    @Test
    void anAddressOfEveryInterfaceIsBoundWhenAskedFor() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, new InetSocketAddress(0))) {
            assertThat(endpoint.address().getAddress().isAnyLocalAddress()).isTrue();
            assertThat(endpoint.uri().getHost()).isEqualTo("localhost");
            assertThat(get(endpoint.uri()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aClientThatSendsHalfARequestBlocksNoScrape() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT);
             Socket slow = new Socket(InetAddress.getLoopbackAddress(), endpoint.port());
             Socket silent = new Socket(InetAddress.getLoopbackAddress(), endpoint.port())) {
            slow.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII));
            slow.getOutputStream().flush();
            // The half request is there before the scrape; the silent client sent nothing at all.
            Thread.sleep(200);
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int i = 0; i < 3; i++) {
                    HttpResponse<String> response = get(endpoint.uri());
                    assertThat(response.statusCode()).isEqualTo(200);
                    assertThat(response.body()).contains("stoker_batches_total");
                }
            }, "a scrape waited behind a client that sent half a request");
        }
    }

    @Test
    void aTakenPortIsNamedInTheError() {
        try (PrometheusEndpoint first = PrometheusEndpoint.start(registry, ANY_LOOPBACK_PORT)) {
            InetSocketAddress taken = new InetSocketAddress(InetAddress.getLoopbackAddress(), first.port());
            assertThatThrownBy(() -> PrometheusEndpoint.start(registry, taken))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot serve metrics at")
                    .hasMessageContaining(String.valueOf(first.port()));
            assertThatThrownBy(() -> PrometheusEndpoint.start(registry, 70000))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("70000");
        }
    }
}
