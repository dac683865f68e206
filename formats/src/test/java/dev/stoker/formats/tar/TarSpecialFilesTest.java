package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.testing.SpecialFiles;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe (or a link to a device) where a tar shard, its index or a shard set's manifest was:
 * every way of opening one refuses it at once, naming it; none blocks in the open.
 */
class TarSpecialFilesTest {
    private static final String FIFO = SpecialFiles.FIFO_REFUSED;

    @TempDir
    Path dir;

    @Test
    void aFifoInPlaceOfAShardIsRefusedNamingIt() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("train-000000.tar"));
        try (Arena arena = Arena.ofConfined()) {
            assertThat(SpecialFiles.refused(fifo, () -> TarReader.open(fifo, arena)))
                    .isInstanceOf(TarException.class).hasMessageContaining(fifo + FIFO);
        }
        Throwable streamed = SpecialFiles.refused(fifo, () -> {
            TarShardDataset ds = TarShardDataset.builder(fifo.toString()).build();
            try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
                s.hasNext();
            }
        });
        assertThat(SpecialFiles.messages(streamed)).contains(fifo + FIFO);
        Throwable indexed = SpecialFiles.refused(fifo,
                () -> IndexedTarDataset.open(List.of(fifo.toString()), IndexedTarDataset.MissingIndex.BUILD));
        assertThat(SpecialFiles.messages(indexed)).contains(fifo + FIFO);
        assertThat(SpecialFiles.refused(fifo, () -> ShardIndex.scan(fifo))).hasMessageContaining(fifo + FIFO);
    }

    @Test
    void aFifoInPlaceOfAnIndexOrAManifestIsRefusedNamingIt() throws Exception {
        Path idx = SpecialFiles.fifo(dir.resolve("train-000000.tar.idx"));
        Path manifest = SpecialFiles.fifo(dir.resolve("shards.manifest"));
        assertThat(SpecialFiles.messages(SpecialFiles.refused(idx, () -> ShardIndex.read(idx)))).contains(idx + FIFO);
        assertThat(SpecialFiles.refused(manifest, () -> ShardSetManifest.read(manifest)))
                .isInstanceOf(ShardSetException.class).hasMessageContaining(manifest + FIFO);
    }

    @Test
    void aLinkToADeviceInPlaceOfAShardIsRefusedRatherThanReadAsEmpty() throws Exception {
        Path zero = SpecialFiles.linkToDevZero(dir.resolve("train-000001.tar"));
        try (Arena arena = Arena.ofConfined()) {
            assertThat(SpecialFiles.refused(zero, () -> TarReader.open(zero, arena)))
                    .hasMessageContaining(zero + ": is a character device, not a regular file");
        }
        Files.delete(zero);
    }
}
