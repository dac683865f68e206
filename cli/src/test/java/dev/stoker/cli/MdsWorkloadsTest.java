package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * W2-MDS and W3-MDS write their shards from W2's and W3's data and then deliver W2's and W3's
 * very batches: the same data through MDS.
 */
class MdsWorkloadsTest {
    @TempDir
    Path data;

    @Test
    void w2FromMdsDeliversW2sBatchesOnEveryPath() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tokens = arena.allocate(2L * 10_000);
            W2TokenMemmap.writeTokens(tokens, 10_000, 42);
            Files.write(data.resolve(W2TokenMemmap.FILE), tokens.toArray(ValueLayout.JAVA_BYTE));
        }
        List<String> w2;
        try (W2TokenMemmap plain = new W2TokenMemmap(150)) {
            w2 = batches(plain, plain.configurations().getFirst());
        }
        try (W2MdsTokens mds = new W2MdsTokens(150)) {
            for (Configuration c : mds.configurations()) {
                assertThat(batches(mds, c)).as(c.name()).isEqualTo(w2).hasSize(3);
            }
        }
        assertThat(data.resolve(W2MdsTokens.FOLDER).resolve("index.json")).isRegularFile();
        try (W2MdsTokens again = new W2MdsTokens(150)) { // reads the shards written before
            assertThat(batches(again, again.configurations().getLast())).isEqualTo(w2);
        }
    }

    @Test
    void w3FromMdsDeliversW3sBatches() throws IOException {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 20; i++) {
            Path dir = Files.createDirectories(data.resolve("jpeg").resolve("class_0" + (i / 10)));
            BufferedImage picture = W3JpegFolder.picture(rnd, i / 10);
            ImageIO.write(picture, "jpeg", dir.resolve(String.format("%06d.jpg", i)).toFile());
        }
        List<String> w3;
        try (W3JpegFolder plain = new W3JpegFolder(20)) {
            w3 = batches(plain, plain.configurations().getFirst());
        }
        try (W3MdsJpeg mds = new W3MdsJpeg(20)) {
            for (Configuration c : mds.configurations().stream().filter(c -> c.numWorkers() <= 2).toList()) {
                assertThat(batches(mds, c)).as(c.name()).isEqualTo(w3).hasSize(1);
            }
            assertThat(mds.samplesPerEpoch()).isEqualTo(20);
        }
    }

    /** Each batch as its indices and a hash of every tensor's values, the loader's pool checked empty. */
    private List<String> batches(Workload w, Configuration c) {
        List<String> out = new ArrayList<>();
        try (DataLoader<?> loader = w.newLoader(c, 3, data)) {
            for (Batch b : loader) {
                try (b) {
                    StringBuilder s = new StringBuilder(Arrays.toString(b.indices()));
                    for (String field : List.of(b.data() instanceof java.util.Map<?, ?> m
                            ? m.keySet().stream().map(Object::toString).sorted().toArray(String[]::new) : new String[0])) {
                        s.append(' ').append(field).append('=')
                                .append(Arrays.hashCode(b.tensor(field).segment().toArray(ValueLayout.JAVA_BYTE)));
                    }
                    assertThat(s.toString()).as("the batch's tensors").contains("=");
                    out.add(s.toString());
                }
            }
            assertThat(loader.pool().lentBytes()).isZero();
        }
        return out;
    }
}
