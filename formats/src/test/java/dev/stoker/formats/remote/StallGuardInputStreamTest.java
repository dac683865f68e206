package dev.stoker.formats.remote;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The stall guard hands over every way its source ends: a source that fails is a failure, not a stall. */
class StallGuardInputStreamTest {

    @Test
    void aSourceThatThrowsAnUncheckedExceptionFailsTheReadWithItNotWithAStall() {
        InputStream source = new ByteArrayInputStream(new byte[700]) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                if (pos >= 512) {
                    throw new IllegalStateException("decoder broke");
                }
                return super.read(b, off, Math.min(len, 512 - pos));
            }
        };
        // a stall timeout the test would notice: a silently dead pump reads as a stall only after it
        InputStream guarded = new StallGuardInputStream(source, "http://host/s.tar", 1 << 16, Duration.ofSeconds(3));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> // a hang guard, not a speed check
                assertThatThrownBy(() -> guarded.transferTo(OutputStream.nullOutputStream()))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("http://host/s.tar")
                        .hasMessageContaining("decoder broke")
                        .hasMessageNotContaining("stalled"));
    }
}
