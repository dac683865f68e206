package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.Fixtures;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Sessions: lent one thread at a time, reused, freed by the decoder; heap and off-heap input alike. */
class ImageDecoderTest {
    private static final byte[] JPEG = Fixtures.bytes("decode/rgb420_q90.jpg");
    private static final byte[] EXPECTED = Fixtures.bytes("decode/rgb420_q90.rgb");

    @Test
    void heapAndOffHeapInputDecodeAlike() {
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session();
             Arena arena = Arena.ofConfined()) {
            MemorySegment offHeap = arena.allocate(JPEG.length + 10).asSlice(5, JPEG.length);
            offHeap.copyFrom(MemorySegment.ofArray(JPEG));
            assertThat(s.decode(offHeap, "off-heap").toByteArray()).containsExactly(EXPECTED);
            assertThat(s.decode(JPEG, "heap").toByteArray()).containsExactly(EXPECTED);
            byte[] padded = new byte[JPEG.length + 7];
            System.arraycopy(JPEG, 0, padded, 3, JPEG.length);
            assertThat(s.decode(MemorySegment.ofArray(padded).asSlice(3, JPEG.length), "slice").toByteArray())
                    .containsExactly(EXPECTED);
        }
    }

    @Test
    void sessionsAreReusedAcrossThreads() throws Exception {
        try (ImageDecoder decoder = ImageDecoder.create()) {
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                List<Future<byte[]>> results = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    results.add(pool.submit(() -> {
                        try (DecodeSession s = decoder.session()) {
                            return s.decode(JPEG, "x.jpg").toByteArray();
                        }
                    }));
                }
                for (Future<byte[]> f : results) {
                    assertThat(f.get()).containsExactly(EXPECTED);
                }
            } finally {
                pool.shutdown();
            }
            assertThat(decoder.sessionsCreated()).isBetween(1, 3);
        }
    }

    @Test
    void closingFreesSessionsIdleAndLent() {
        ImageDecoder decoder = ImageDecoder.create();
        DecodeSession lent = decoder.session();
        decoder.session().close();            // idle when the decoder closes
        decoder.close();
        assertThatThrownBy(decoder::session).isInstanceOf(IllegalStateException.class);
        lent.decode(JPEG, "still usable until given back");
        lent.close();                          // freed now
        assertThatThrownBy(() -> lent.decode(JPEG, "x")).isInstanceOf(IllegalStateException.class);
        lent.close();                          // twice is harmless
    }

    @Test
    void dctScalingGivesPilsDraftPixels() {
        assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed");
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session()) {
            assertThat(decoder.scalingFactors()).contains(new ScalingFactor(1, 2), new ScalingFactor(1, 8));
            ImageHeader header = s.open(JPEG, "x.jpg");
            assertThat(header).isEqualTo(new ImageHeader(64, 48, "JPEG"));
            DecodedImage half = s.decode(new ScalingFactor(1, 2));
            assertThat(half.width()).isEqualTo(32);
            assertThat(half.height()).isEqualTo(24);
            assertThat(half.scale()).isEqualTo(new ScalingFactor(1, 2));
            assertThat(Fixtures.maxDiff(half.toByteArray(), Fixtures.bytes("decode/rgb420_q90_half.rgb"))).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void scalingFactorChoice() {
        List<ScalingFactor> all = List.of(new ScalingFactor(2, 1), ScalingFactor.ONE, new ScalingFactor(7, 8),
                new ScalingFactor(1, 2), new ScalingFactor(3, 8), new ScalingFactor(1, 4), new ScalingFactor(1, 8));
        assertThat(ScalingFactor.choose(all, 500, 375, 224, 224)).isEqualTo(ScalingFactor.ONE);
        assertThat(ScalingFactor.choose(all, 500, 460, 224, 224)).isEqualTo(new ScalingFactor(1, 2));
        assertThat(ScalingFactor.choose(all, 2000, 1800, 224, 224)).isEqualTo(new ScalingFactor(1, 8));
        assertThat(ScalingFactor.choose(List.of(ScalingFactor.ONE), 2000, 1800, 224, 224)).isEqualTo(ScalingFactor.ONE);
        assertThat(new ScalingFactor(1, 8).scale(37)).isEqualTo(5);
    }
}
