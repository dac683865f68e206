package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.formats.tar.TarSample;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** W5 over a tiny shard set packed from generated images: every sample once, decoded or raw. */
class W5TarShardsTest {

    @Test
    void deliversEverySampleOnceDecodedOrRawOnEveryConfiguration(@TempDir Path data) throws IOException {
        SplittableRandom rnd = new SplittableRandom(1);
        long fileBytes = 0;
        List<Long> labels = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Path dir = Files.createDirectories(data.resolve("jpeg").resolve("class_0" + (i / 10)));
            Path file = dir.resolve(String.format("%06d.jpg", i));
            ImageIO.write(W3JpegFolder.picture(rnd, i / 10), "jpeg", file.toFile());
            fileBytes += Files.size(file) + 1; // and a one-digit cls member
            labels.add((long) (i / 10));
        }
        W5TarShards.pack(ImageFolder.scan(data.resolve("jpeg")).dataset(), Files.createDirectories(data.resolve("shards")));
        try (Stream<Path> shards = Files.list(data.resolve("shards"))) {
            assertThat(shards.filter(p -> p.toString().endsWith(".tar"))).hasSize(7); // 3 samples each, 2 in the last
        }

        try (W5TarShards w5 = new W5TarShards(20)) {
            assertThat(w5.configurations()).extracting(Configuration::name)
                    .containsExactly("nw=0", "nw=0 fill", "nw=2", "nw=2 fill", "nw=0 raw", "nw=2 raw");
            assertThat(w5.configurations().getLast().peerName()).isEqualTo("nw=2,pf=2,raw");
            assertThat(w5.configurations().getLast().isNamed("nw=2,raw")).isTrue();
            for (Configuration c : w5.configurations()) {
                List<Long> seen = new ArrayList<>();
                long bytes = 0;
                try (DataLoader<?> loader = w5.newLoader(c, 3, data)) {
                    for (Batch b : loader) {
                        try (b) {
                            seen.addAll(Arrays.stream(b.tensor("label").toLongArray()).boxed().toList());
                            if (c.raw()) {
                                bytes += Arrays.stream(b.tensor("bytes").toLongArray()).sum();
                            } else {
                                Tensor images = b.tensor("image");
                                assertThat(images.dtype()).isEqualTo(DType.F32);
                                assertThat(images.shape().dim(1)).isEqualTo(3);
                                assertThat(images.shape().dim(2)).isEqualTo(224);
                                assertThat(images.shape().dim(3)).isEqualTo(224);
                                for (float f : images.select(0).toFloatArray()) {
                                    assertThat(f).isBetween(-2.2f, 2.7f);
                                }
                            }
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                assertThat(seen).as(c.name()).containsExactlyInAnyOrderElementsOf(labels);
                if (c.raw()) {
                    assertThat(bytes).as(c.name()).isEqualTo(fileBytes);
                }
            }
            assertThat(w5.samplesPerEpoch()).isEqualTo(20);
        }
    }

    @Test
    void theSameSeedGivesTheSameBatches(@TempDir Path data) throws IOException {
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < 10; i++) {
            Path dir = Files.createDirectories(data.resolve("jpeg").resolve("class_0" + (i % 2)));
            ImageIO.write(W3JpegFolder.picture(rnd, i % 2), "jpeg", dir.resolve(String.format("%06d.jpg", i)).toFile());
        }
        W5TarShards.pack(ImageFolder.scan(data.resolve("jpeg")).dataset(), Files.createDirectories(data.resolve("shards")));
        try (W5TarShards w5 = new W5TarShards(10)) {
            Configuration c = Configuration.of(0, false, false);
            assertThat(batches(w5, c, data)).isEqualTo(batches(w5, c, data));
            Configuration fill = c.withFill(); // decoded into the batch: reproducible too
            assertThat(batches(w5, fill, data)).isEqualTo(batches(w5, fill, data));
        }
    }

    private static List<String> batches(W5TarShards w5, Configuration c, Path data) {
        List<String> out = new ArrayList<>();
        try (DataLoader<?> loader = w5.newLoader(c, 5, data)) {
            for (Batch b : loader) {
                try (b) {
                    out.add(Arrays.hashCode(b.tensor("image").toFloatArray()) + Arrays.toString(b.tensor("label").toLongArray()));
                }
            }
        }
        return out;
    }

    @Test
    void labelsAreAsciiDecimalAndAnythingElseIsAClearError() {
        assertThat(W5TarShards.label(sample("7"))).isEqualTo(7);
        assertThat(W5TarShards.label(sample("123\n"))).isEqualTo(123);
        assertThatThrownBy(() -> W5TarShards.label(sample("x1")))
                .hasMessageContaining("000001").hasMessageContaining("s.tar").hasMessageContaining("byte 0");
        assertThatThrownBy(() -> W5TarShards.label(sample(""))).hasMessageContaining("empty");
        assertThatThrownBy(() -> W5TarShards.label(sample("1".repeat(30)))).hasMessageContaining("cls");
    }

    private static TarSample sample(String cls) {
        return new TarSample("000001", "s.tar",
                Map.of("cls", MemorySegment.ofArray(cls.getBytes(StandardCharsets.US_ASCII))));
    }
}
