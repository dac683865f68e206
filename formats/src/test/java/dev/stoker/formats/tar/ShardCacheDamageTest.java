package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.remote.ShardCache;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cached copy damaged on disk between runs fails its read naming the copy, and is deleted, so
 * that the next run fetches the shard again instead of failing on the same copy in every epoch;
 * part files that a killed process left behind are deleted when a cache is next opened.
 */
class ShardCacheDamageTest {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    @TempDir
    Path dir;

    private List<Fixtures.Sample> samples;
    private Path shard;
    private String location;

    @BeforeEach
    void writeShard() {
        samples = Fixtures.randomSamples(new Random(61), 10);
        shard = dir.resolve("d.tar");
        FuzzInputs.writeShard(shard, samples);
        location = "pipe:cat '" + shard + "'";
    }

    private List<TarSample> stream(ShardCache cache) {
        List<TarSample> got = new ArrayList<>();
        try (SampleStream<TarSample> s = TarShardDataset.builder(List.of(location)).cache(cache).build().open(ONE)) {
            s.forEachRemaining(got::add);
        }
        return got;
    }

    private void assertAll(List<TarSample> got) {
        assertThat(got).hasSize(samples.size());
        for (int i = 0; i < got.size(); i++) {
            assertThat(samples.get(i).sameAs(got.get(i))).as("sample %d", i).isTrue();
        }
    }

    @Test
    void aStreamedShardsDamagedCopyFailsNamingItAndIsFetchedAgainNextTime() throws Exception {
        Path cacheDir = dir.resolve("cache");
        assertAll(stream(ShardCache.in(cacheDir)));
        Path copy = ShardCache.in(cacheDir).fileFor(location);
        byte[] bytes = Files.readAllBytes(copy);
        bytes[0] ^= 0x01; // a byte of the first header: its checksum no longer matches
        Files.write(copy, bytes);

        assertThatThrownBy(() -> stream(ShardCache.in(cacheDir)))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("checksum")
                .hasMessageContaining("the cached copy " + copy)
                .hasMessageContaining("deleted it");
        assertThat(copy).doesNotExist();
        assertAll(stream(ShardCache.in(cacheDir)));
        assertThat(copy).exists();
    }

    @Test
    void anIndexedShardsCopyReplacedOnDiskFailsItsSampleAndIsFetchedAgain() throws Exception {
        Path cacheDir = dir.resolve("cache");
        RemoteTarDataset.Builder builder = RemoteTarDataset.builder(List.of(location))
                .indexLocation(s -> s.replace(".tar'", ".tar.idx'"));
        try (RemoteTarDataset ds = builder.cache(ShardCache.in(cacheDir)).build()) {
            assertThat(samples.get(3).sameAs(ds.get(3))).isTrue();
        }
        List<Fixtures.Sample> shuffled = new ArrayList<>(samples);
        Collections.shuffle(shuffled, new Random(2));
        Path other = dir.resolve("other.tar");
        FuzzInputs.writeShard(other, shuffled);
        Path copy = ShardCache.in(cacheDir).fileFor(location);
        Files.copy(other, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING); // same length

        try (RemoteTarDataset ds = builder.cache(ShardCache.in(cacheDir)).build()) {
            assertThatThrownBy(() -> ds.get(3))
                    .isInstanceOf(TarException.class)
                    .hasMessageContaining(location)
                    .hasMessageContaining("the index does not describe this shard")
                    .hasMessageContaining("the cached copy " + copy);
            assertThat(copy).doesNotExist();
            for (int i = 0; i < samples.size(); i++) {
                assertThat(samples.get(i).sameAs(ds.get(i))).as("sample %d", i).isTrue();
            }
        }
    }

    @Test
    void partFilesLeftBehindByAKilledProcessAreDeletedWhenTheCacheIsOpened() throws Exception {
        Path cacheDir = Files.createDirectories(dir.resolve("cache"));
        Path abandoned = Files.write(cacheDir.resolve(".x.tar123" + ShardCache.PART), new byte[4096]);
        Files.setLastModifiedTime(abandoned, FileTime.fromMillis(System.currentTimeMillis()
                - ShardCache.ABANDONED_AFTER.toMillis() - 60_000));
        Path writing = Files.write(cacheDir.resolve(".y.tar456" + ShardCache.PART), new byte[4096]);

        ShardCache.in(cacheDir);

        assertThat(abandoned).doesNotExist();
        assertThat(writing).as("another process may be writing it now").exists();
    }
}
