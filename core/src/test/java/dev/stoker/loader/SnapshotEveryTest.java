package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.CountingDataset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code snapshotEvery(n)}: a state after every n-th batch received, across epochs, each one resumable. */
class SnapshotEveryTest {

    @Test
    void aSnapshotFollowsEveryNthBatchAcrossEpochs() {
        List<LoaderState> heard = new ArrayList<>();
        List<LoaderState> taken = new ArrayList<>();
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(40)).batchSize(4).shuffle(true).seed(3)
                .numWorkers(2).snapshotEvery(3, heard::add).build()) {
            assertThat(loader.lastSnapshot()).isEmpty();
            int received = 0;
            for (int epoch = 0; epoch < 2; epoch++) {
                for (Batch b : loader) {
                    b.close();
                    if (++received % 3 == 0) {
                        taken.add(loader.state());
                        assertThat(loader.lastSnapshot()).contains(loader.state());
                    }
                }
            }
        }
        assertThat(heard).hasSize(6).containsExactlyElementsOf(taken);
        assertThat(heard.get(0)).isEqualTo(LoaderState.ofMap(0, 3, new long[0], 3, 40, 10, 0, 1));
        assertThat(heard.get(3)).as("the 12th batch is the 2nd of epoch 1")
                .isEqualTo(LoaderState.ofMap(1, 2, new long[0], 3, 40, 10, 0, 1));
    }

    @Test
    void eachSnapshotResumesAtItsBatch() {
        List<LoaderState> heard = new ArrayList<>();
        List<Long> firstOfEach = new ArrayList<>(); // the batch index delivered right after each snapshot
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(30)).batchSize(4).seed(9)
                .snapshotEvery(2, heard::add).build()) {
            int received = 0;
            for (Batch b : loader) {
                try (b) {
                    if (received > 0 && received % 2 == 0) {
                        firstOfEach.add(b.index());
                    }
                    received++;
                }
            }
        }
        for (int i = 0; i < firstOfEach.size(); i++) {
            try (DataLoader<Long> again = DataLoader.builder(new CountingDataset(30)).batchSize(4).seed(9).build()) {
                again.restore(heard.get(i));
                try (BatchIterator it = again.iterator(); Batch next = it.next()) {
                    assertThat(next.index()).isEqualTo(firstOfEach.get(i));
                }
            }
        }
    }

    @Test
    void nIsAtLeastOne() {
        assertThatThrownBy(() -> DataLoader.builder(new CountingDataset(4)).snapshotEvery(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("snapshotEvery");
    }
}
