package dev.stoker.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ScrapeServer} against clients that misbehave: ones that connect and say nothing, more of
 * them than it serves at once, heads too long, and seeded garbage. Each is answered or closed, and
 * a scrape made beside them is answered.
 */
class ScrapeServerTest {
    private static final byte[] METRICS = "m 1\n".getBytes(StandardCharsets.UTF_8);
    private ScrapeServer server;

    @BeforeEach
    void start() {
        server = ScrapeServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                r -> r.path().equals("/metrics") ? new ScrapeServer.Response(200, "OK", "text/plain", METRICS, Map.of())
                        : ScrapeServer.text(404, "Not Found", "no\n"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Sends {@code request} whole, then reads the answer to its end. */
    private String exchange(byte[] request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
                s.shutdownOutput();
            } catch (SocketException e) {
                // the server answered and closed before the request was all sent (a head too long)
            }
            InputStream in = s.getInputStream();
            try {
                return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (SocketException e) {
                return ""; // reset: closed without an answer
            }
        }
    }

    private String scrape() throws IOException {
        return exchange("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void moreSilentClientsThanItServesDoNotLockOutTheScraper() throws Exception {
        List<Socket> silent = new ArrayList<>();
        try {
            for (int i = 0; i < ScrapeServer.MAX_CONNECTIONS + 8; i++) {
                silent.add(new Socket(InetAddress.getLoopbackAddress(), server.address().getPort()));
            }
            Thread.sleep(200);
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int i = 0; i < 3; i++) {
                    assertThat(scrape()).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\nm 1\n");
                }
            });
        } finally {
            for (Socket s : silent) {
                s.close();
            }
        }
    }

    @Test
    void aClientThatDripsItsHeadOrNeverReadsTheAnswerIsClosedAtItsDeadline() throws Exception {
        byte[] big = new byte[32 << 20]; // far more than the socket buffers hold: the write blocks
        ScrapeServer.Limits short_ = new ScrapeServer.Limits(Duration.ofMillis(300), Duration.ofSeconds(1), 8);
        try (ScrapeServer strict = ScrapeServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                r -> new ScrapeServer.Response(200, "OK", "application/octet-stream", big, Map.of()), short_);
             Socket drip = new Socket(InetAddress.getLoopbackAddress(), strict.address().getPort());
             Socket deaf = new Socket(InetAddress.getLoopbackAddress(), strict.address().getPort())) {
            deaf.setReceiveBufferSize(4096);
            deaf.getOutputStream().write("GET /metrics HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> { // a hang guard, not a speed check
                OutputStream out = drip.getOutputStream();
                try {
                    for (byte b : "GET /metrics HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)) {
                        out.write(b);
                        out.flush();
                        Thread.sleep(100);
                    }
                } catch (SocketException closed) {
                    // closed by the server mid-drip: what is asked for
                }
                while (strict.openConnections() > 0) {
                    Thread.sleep(50);
                }
            });
            drip.setSoTimeout(10_000);
            assertThat(drip.getInputStream().read()).as("the dripping client got no answer").isEqualTo(-1);
        }
    }

    @Test
    void aHeadTooLongIsAnswered431() throws Exception {
        byte[] request = ("GET /metrics HTTP/1.1\r\nX: " + "a".repeat(ScrapeServer.MAX_HEAD_BYTES) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        assertThat(exchange(request)).startsWith("HTTP/1.1 431 ");
    }

    @Test
    void garbageIsAnsweredOrClosedAndTheScrapeStillWorks() throws Exception {
        Random rnd = new Random(2);
        String[] good = {"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", "HEAD /metrics HTTP/1.0\n\n",
            "GET http://h/metrics?x=1 HTTP/1.1\r\n\r\n", "POST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"};
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int n = 0; n < 200; n++) {
                byte[] request = good[rnd.nextInt(good.length)].getBytes(StandardCharsets.ISO_8859_1);
                switch (rnd.nextInt(4)) {
                    case 0 -> rnd.nextBytes(request = new byte[rnd.nextInt(300)]);
                    case 1 -> request = java.util.Arrays.copyOf(request, rnd.nextInt(request.length + 1));
                    case 2 -> request[rnd.nextInt(request.length)] = (byte) rnd.nextInt(256);
                    default -> {
                    }
                }
                String answer = exchange(request);
                assertThat(answer).as("case %d", n).matches("(?s)|HTTP/1\\.1 (200|400|404|431) .*");
            }
            assertThat(scrape()).startsWith("HTTP/1.1 200 OK\r\n");
        });
    }
}
