package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe where an MDS dataset's {@code index.json}, a raw shard or a compressed shard was:
 * refused at once naming it; nothing blocks in an open.
 */
class MdsSpecialFilesTest {
    private static final String FIFO = SpecialFiles.FIFO_REFUSED;

    @TempDir
    Path dir;

    @Test
    void aFifoAsTheIndexIsRefusedNamingIt() throws Exception {
        Path root = MdsFixtures.copy("scalars", dir);
        Path index = root.resolve("index.json");
        Files.delete(index);
        SpecialFiles.fifo(index);
        assertThat(SpecialFiles.messages(SpecialFiles.refused(index, () -> MdsDataset.open(root).close())))
                .contains(index + FIFO);
    }

    @Test
    void aFifoAsARawShardIsRefusedWhenASampleNeedsIt() throws Exception {
        Path root = MdsFixtures.copy("scalars", dir);
        Path shard = root.resolve("shard.00000.mds");
        Files.delete(shard);
        SpecialFiles.fifo(shard);
        try (MdsDataset ds = MdsDataset.open(root)) {
            assertThat(SpecialFiles.messages(SpecialFiles.refused(shard, () -> ds.get(0)))).contains(shard + FIFO);
        }
    }

    @Test
    void aFifoAsACompressedShardIsRefusedWhenASampleNeedsIt() throws Exception {
        Path root = MdsFixtures.copy("scalars_zstd", dir.resolve("z"));
        Path shard = root.resolve("shard.00000.mds.zstd");
        Files.delete(shard);
        SpecialFiles.fifo(shard);
        try (MdsDataset ds = MdsDataset.open(root, MdsOptions.defaults().cacheDir(dir.resolve("cache")))) {
            assertThat(SpecialFiles.messages(SpecialFiles.refused(shard, () -> ds.get(0)))).contains(shard + FIFO);
        }
    }
}
