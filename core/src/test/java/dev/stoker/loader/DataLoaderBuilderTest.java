package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.memory.BufferPool;
import dev.stoker.sampler.BatchSampler;
import dev.stoker.sampler.SequentialSampler;
import java.time.Duration;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class DataLoaderBuilderTest {
    private final CountingDataset ds = new CountingDataset(10);
    private final StreamingDataset<Long> stream = ctx -> SampleStream.of(Collections.emptyIterator());

    @Test
    void singleSettingsAreChecked() {
        assertThatThrownBy(() -> DataLoader.builder(ds).batchSize(0)).hasMessage("batchSize must be positive, not 0");
        assertThatThrownBy(() -> DataLoader.builder(ds).numWorkers(-1)).hasMessageContaining("numWorkers must be 0 or more");
        assertThatThrownBy(() -> DataLoader.builder(ds).prefetchFactor(0))
                .hasMessage("prefetchFactor must be positive, not 0");
        assertThatThrownBy(() -> DataLoader.builder(ds).timeout(Duration.ofSeconds(-1)))
                .hasMessageContaining("timeout must be 0");
        assertThatThrownBy(() -> DataLoader.builder(ds).poolBudgetBytes(0)).hasMessageContaining("poolBudgetBytes");
    }

    @Test
    void batchSamplerExcludesTheSettingsItDecides() {
        BatchSampler bs = BatchSampler.of(new SequentialSampler(10), 2, false);
        String message = "batchSampler is mutually exclusive with batchSize, shuffle, sampler and dropLast";
        assertThatThrownBy(() -> DataLoader.builder(ds).batchSampler(bs).batchSize(4).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(message);
        assertThatThrownBy(() -> DataLoader.builder(ds).batchSampler(bs).shuffle(true).build())
                .hasMessageStartingWith(message);
        assertThatThrownBy(() -> DataLoader.builder(ds).batchSampler(bs).dropLast(true).build())
                .hasMessageStartingWith(message);
        assertThatThrownBy(() -> DataLoader.builder(ds).batchSampler(bs).sampler(new SequentialSampler(10)).build())
                .hasMessageStartingWith(message);
        DataLoader.builder(ds).batchSampler(bs).shuffle(false).build().close();
    }

    @Test
    void samplerExcludesShuffle() {
        assertThatThrownBy(() -> DataLoader.builder(ds).sampler(new SequentialSampler(10)).shuffle(true).build())
                .hasMessageStartingWith("sampler is mutually exclusive with shuffle");
    }

    @Test
    void aStreamTakesNoSamplerNorShuffle() {
        assertThatThrownBy(() -> DataLoader.builder(stream).shuffle(true).build())
                .hasMessageContaining("streaming dataset").hasMessageContaining("shuffle=true");
        assertThatThrownBy(() -> DataLoader.builder(stream).sampler(new SequentialSampler(1)).build())
                .hasMessageContaining("a sampler");
    }

    @Test
    void workerSettingsNeedWorkers() {
        assertThatThrownBy(() -> DataLoader.builder(ds).persistentWorkers(true).build())
                .hasMessage("persistentWorkers needs numWorkers > 0");
        // prefetchFactor and timeout are accepted and unused without workers, as the benchmark sets them
        DataLoader.builder(ds).prefetchFactor(2).timeout(Duration.ofSeconds(5)).build().close();
    }

    @Test
    void poolSettingsBelongToTheLoadersOwnPool() {
        try (BufferPool pool = BufferPool.builder().build()) {
            assertThatThrownBy(() -> DataLoader.builder(ds).pool(pool).poolBudgetBytes(1 << 20).build())
                    .hasMessageContaining("loader's own pool");
            assertThatThrownBy(() -> DataLoader.builder(ds).pool(pool).pinMemory(true).build())
                    .hasMessageContaining("loader's own pool");
        }
    }

    @Test
    void rankAndWorldSizeAreChecked() {
        assertThatThrownBy(() -> DataLoader.builder(stream).rank(3).worldSize(3).build())
                .hasMessageContaining("rank 3 is not in a world of 3");
        assertThatThrownBy(() -> DataLoader.builder(ds).rank(0).worldSize(2).build())
                .hasMessageContaining("DistributedSampler");
    }

    @Test
    void epochsAreNotNegative() {
        try (DataLoader<Long> loader = DataLoader.builder(ds).build()) {
            assertThatThrownBy(() -> loader.setEpoch(-1)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
