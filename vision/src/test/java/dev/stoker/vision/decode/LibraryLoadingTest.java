package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.memory.Allocation;
import dev.stoker.memory.MemorySources;
import dev.stoker.vision.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The decoders' native libraries load off the caller's path: libjpeg-turbo in the background from
 * the decoder's creation (the first JPEGs, on several threads at once, wait for it and decode as
 * always), libwebp at the first WebP a decoder meets, not when the decoder is made, so that a
 * folder of JPEGs never pays for binding it. Run in a JVM of its own, since whether a library was
 * loaded is the JVM's state (another test in this one may have loaded it).
 */
class LibraryLoadingTest {

    @Test
    void jpegsRightAfterCreationDecodeAndLeaveLibWebpUnloadedAndTheFirstWebpsLoadItOnce() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), Child.class.getName()).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).contains("4 JPEGs alike the expected pixels");
        assertThat(out).contains("after JPEGs: asked=false, WebP: libwebp, loaded at the first WebP");
        // Four threads met their first WebP at once: each decoded it, to the same pixels.
        assertThat(out).contains("after WebPs: asked=true, 4 alike");
        if (out.contains("after WebPs: asked=true, 4 alike, with libwebp")) {
            assertThat(out).contains("WebP: libwebp (");
        }
    }

    /**
     * The thread that loads libjpeg-turbo links the pool's native calls after it, while the FFM
     * linker is warm: once it has finished, a new JVM's first large block is mapped (on a huge-page
     * boundary), not allocated and zeroed by the worker that asked for it.
     */
    @Test
    void theLibraryLoadLinksThePoolsCallsSoThatTheFirstLargeBlockIsMapped() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "mmap: Linux only");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), FirstBlock.class.getName()).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).contains("first block: mapped=true");
    }

    /** Makes a decoder, waits for its loading thread to end, then asks for one 4 MiB block. */
    static final class FirstBlock {
        public static void main(String[] args) throws Exception {
            try (ImageDecoder decoder = ImageDecoder.create()) {
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    if (t.getName().equals("stoker-load-turbojpeg")) {
                        t.join(30_000);
                    }
                }
                try (Allocation block = MemorySources.ordinary().allocate(4L << 20, 64)) {
                    System.out.println("first block: mapped=" + (block.segment().address() % (2L << 20) == 0));
                }
            }
        }
    }

    /** Decodes JPEGs, says whether libwebp was asked for, then WebPs on four threads at once. */
    static final class Child {
        public static void main(String[] args) throws Exception {
            byte[] jpeg = Fixtures.bytes("decode/rgb420_q90.jpg");
            byte[] expected = Fixtures.bytes("decode/rgb420_q90.rgb");
            byte[] webp = Fixtures.bytes("formats/lossy.webp");
            try (ImageDecoder decoder = ImageDecoder.create()) {
                // at once, while libjpeg-turbo may still be loading in the background
                ExecutorService jpegs = Executors.newFixedThreadPool(4);
                List<Future<byte[]>> decoded = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    decoded.add(jpegs.submit(() -> {
                        try (DecodeSession s = decoder.session()) {
                            return s.decode(jpeg, "rgb420_q90.jpg").toByteArray();
                        }
                    }));
                }
                int right = 0;
                for (Future<byte[]> d : decoded) {
                    right += Arrays.equals(d.get(), expected) ? 1 : 0;
                }
                jpegs.shutdown();
                System.out.println(right + " JPEGs alike the expected pixels, " + (decoder.usesTurboJpeg()
                        ? "libjpeg-turbo" : "ImageIO"));
                String describedBefore = decoder.describe();
                System.out.println("after JPEGs: asked=" + LibWebp.asked() + ", "
                        + describedBefore.substring(describedBefore.indexOf("WebP: ")));
                ExecutorService pool = Executors.newFixedThreadPool(4);
                List<Future<byte[]>> pixels = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    pixels.add(pool.submit(() -> {
                        try (DecodeSession s = decoder.session()) {
                            return s.decode(webp, "lossy.webp").toByteArray();
                        }
                    }));
                }
                int alike = 0;
                for (Future<byte[]> p : pixels) {
                    alike += Arrays.equals(p.get(), pixels.getFirst().get()) ? 1 : 0;
                }
                pool.shutdown();
                System.out.println("after WebPs: asked=" + LibWebp.asked() + ", " + alike + " alike"
                        + (decoder.usesLibWebp() ? ", with libwebp" : ", with ImageIO") + "; " + decoder.describe());
            }
        }
    }
}
