package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stoker.formats.remote.RemoteFile;
import dev.stoker.formats.remote.RemoteSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server that takes the connection and the request and never answers: the stall timeout covers
 * the wait for the answer's head too, not only its body, so the shard fails naming the URL instead
 * of hanging its worker.
 */
class HttpSilentServerTest {
    private ServerSocket server;
    private final List<Socket> held = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    Socket s = server.accept();
                    synchronized (held) {
                        held.add(s); // read nothing, answer nothing, keep it open
                    }
                }
            } catch (IOException e) {
                // closed by the test
            }
        });
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        synchronized (held) {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void aServerThatNeverAnswersFailsTheShardAfterTheStallTimeout() {
        String url = "http://127.0.0.1:" + server.getLocalPort() + "/train-000000.tar";
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> { // a hang guard, not a speed check
            assertThatThrownBy(() -> ShardSources.open(RemoteFile.at(url),
                    new RemoteSettings(RemoteSettings.defaultClient(), 8192, Duration.ofMillis(500))))
                    .isInstanceOf(TarException.class)
                    .hasMessageContaining(url)
                    .hasMessageContaining("no answer");
        });
    }
}
