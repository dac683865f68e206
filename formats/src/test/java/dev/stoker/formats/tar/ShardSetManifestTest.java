package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.DataPosition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardSetManifestTest {
    @TempDir
    Path dir;

    private static ShardSetManifest sample() {
        return new ShardSetManifest("shard-%06d.tar", true, "stoker pack", Instant.parse("2026-11-25T14:00:00Z"),
                Instant.parse("2026-11-25T14:00:09Z"), List.of(new ShardSetManifest.Shard("shard-000000.tar", 50,
                        30720, true), new ShardSetManifest.Shard("shard-000001.tar", 3, 10240, false)));
    }

    @Test
    void aManifestReadsBackAsWritten() {
        Path file = dir.resolve("shard.stoker-manifest");
        sample().writeTo(file);
        assertThat(ShardSetManifest.read(file)).isEqualTo(sample());
    }

    @Test
    void aShardNameThatLeavesTheFolderIsRefused() throws Exception {
        Path file = dir.resolve("shard.stoker-manifest");
        Files.writeString(file, sample().text().replace("shard-000001.tar\t", "../../etc/passwd\t"));
        assertThatThrownBy(() -> ShardSetManifest.read(file)).isInstanceOf(ShardSetException.class)
                .hasMessageContaining("line 9").hasMessageContaining("not a file name");
        ShardSetException e = catchThrowableOfType(ShardSetException.class, () -> ShardSetManifest.read(file));
        assertThat(e.source()).isEqualTo(file.toString()); // the fields say it too
        assertThat(e.position()).isEqualTo(DataPosition.line(9));
    }

    /** Damaged manifests (bytes flipped, cut, lines dropped) are refused by name, never with another error. */
    @Test
    void damagedManifestsAreRefusedWithTheirName() throws Exception {
        byte[] good = sample().text().getBytes(StandardCharsets.UTF_8);
        Random rnd = new Random(3);
        Path file = dir.resolve("x.stoker-manifest");
        for (int trial = 0; trial < 500; trial++) {
            byte[] b = good.clone();
            switch (rnd.nextInt(3)) {
                case 0 -> b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                case 1 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
                default -> {
                    for (int i = 0; i < 4; i++) {
                        b[rnd.nextInt(b.length)] = (byte) "\t\n-9a".charAt(rnd.nextInt(5));
                    }
                }
            }
            Files.write(file, b);
            try {
                ShardSetManifest m = ShardSetManifest.read(file);
                assertThat(m.shards()).allSatisfy(s -> assertThat(s.name()).doesNotContain("/"));
            } catch (ShardSetException e) {
                assertThat(e.getMessage()).as("trial %d", trial).contains(file.toString());
            }
        }
    }
}
