package dev.stoker.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A loader over windows across documents, stopped anywhere and restored, delivers what an uninterrupted one does. */
class DocumentWindowResumeTest {
    private static final Function<Batch, String> DESCRIBE = b -> Arrays.toString(b.tensor("input").toLongArray())
            + Arrays.toString(b.tensor("position_ids").toLongArray());

    @Test
    void theMapDatasetResumesShuffledOnAnyWorkers() {
        SplittableRandom r = new SplittableRandom(21);
        List<int[]> docs = DocumentWindowDatasetTest.documents(r, 120);
        DocumentWindowDataset windows = DocumentWindowDataset.builder(TokenDocuments.of(docs), 8).eos(9999)
                .positionIds(true).build();
        for (int trial = 0; trial < 6; trial++) {
            int workers = trial % 3;
            int resumeWorkers = (trial + 1) % 3;
            Supplier<DataLoader<Map<String, Tensor>>> make = () -> DataLoader.builder(windows).batchSize(5).shuffle(true)
                    .seed(4).numWorkers(workers).build();
            check(make, () -> DataLoader.builder(windows).batchSize(5).shuffle(true).seed(4).numWorkers(resumeWorkers)
                    .build(), 2, 3 + r.nextInt(Math.max(1, (int) (2 * windows.size() / 5) - 3)));
        }
    }

    @Test
    void theStreamResumesWhereItStopped() {
        SplittableRandom r = new SplittableRandom(22);
        List<int[]> docs = DocumentWindowDatasetTest.documents(r, 200);
        StreamingDataset<int[]> source = ctx -> {
            List<int[]> mine = new ArrayList<>();
            for (int i = ctx.globalWorkerId(); i < docs.size(); i += ctx.globalWorkers()) {
                mine.add(docs.get(i));
            }
            return SampleStream.of(mine.iterator());
        };
        DocumentWindowStream windows = DocumentWindowStream.of(source, 8, 9999).withBoundaries(true, false);
        for (int workers : List.of(0, 2)) {
            for (int stop : List.of(1, 7, 20)) {
                check(() -> DataLoader.builder(windows).batchSize(4).seed(1).numWorkers(workers).build(),
                        () -> DataLoader.builder(windows).batchSize(4).seed(1).numWorkers(workers).build(), 2, stop);
            }
        }
    }

    private static <T> void check(Supplier<DataLoader<T>> make, Supplier<DataLoader<T>> resumed, int epochs, int stop) {
        List<String> expected;
        try (DataLoader<T> a = make.get()) {
            expected = ResumeRuns.uninterrupted(a, epochs, DESCRIBE);
        }
        List<String> seen = new ArrayList<>();
        LoaderState state;
        try (DataLoader<T> b = make.get()) {
            state = ResumeRuns.stopAfter(b, epochs, stop, DESCRIBE, seen);
        }
        try (DataLoader<T> c = resumed.get()) {
            ResumeRuns.resume(c, state, epochs, DESCRIBE, seen, () -> { });
        }
        assertThat(seen).as("stopped after %d batches", stop).isEqualTo(expected);
    }
}
