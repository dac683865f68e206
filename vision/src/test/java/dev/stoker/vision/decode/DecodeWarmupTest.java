package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * In a new JVM (a child of this one: the warm-up runs once per JVM, on the thread that loads
 * libjpeg-turbo) a decoder's creation decodes the warm-up JPEG whole, at half size and in part;
 * with libjpeg-turbo turned off it decodes nothing and leaves ImageIO unloaded.
 */
class DecodeWarmupTest {

    @Test
    void aNewDecoderDecodesTheWarmUpImageInTheBackground() throws Exception {
        assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed");
        String out = child("-Dwait.ms=10000");
        assertThat(out).as(out).contains("decoded=3");
    }

    @Test
    void withoutLibjpegTurboItDecodesNothing() throws Exception {
        String out = child("-Dwait.ms=800", "-Dstoker.turbojpeg.disable=true", "-Xlog:class+load=info:stdout");
        assertThat(out).as(out).contains("decoded=0");
        assertThat(out).doesNotContain("javax.imageio.ImageIO ");
    }

    private static String child(String... flags) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(List.of(flags));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        return out;
    }

    static final class Child {
        public static void main(String[] args) throws InterruptedException {
            try (ImageDecoder decoder = ImageDecoder.create()) {
                long deadline = System.nanoTime() + Long.getLong("wait.ms") * 1_000_000L;
                while (DecodeWarmup.decoded() < 3 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                System.out.println("decoded=" + DecodeWarmup.decoded());
            }
        }
    }
}
